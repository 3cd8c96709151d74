"""The JSON/HTTP API against a real server (gRPC and HTTP on port 0, loopback) over a
fresh copy of the sample knowledge base: every route gives what the gRPC client gets for
the same request, errors are the same google.rpc.Status with the HTTP status of its
code, AskStream is Server-Sent Events, uploads land, the OpenAPI document is valid.
"""

from __future__ import annotations

import json
import shutil
import threading
import time

import httpx
import pytest
from conftest import TODAY
from google.protobuf import json_format
from openapi_spec_validator import validate

from edge_server.client import Client
from edge_server.v1 import ragcore_pb2 as pb
from ragcore import Config, Engine
from ragcore.agents.generation.extractive import ExtractiveGenerator
from ragcore.types import CancelReason

pytestmark = [pytest.mark.integration, pytest.mark.process]

QUESTION = "How often should the CP-200 seal be replaced?"
ADMIN_TOKEN = "admin-token-0123456789abcdef"
READER_TOKEN = "reader-token-0123456789abcdef"
MAX_MESSAGE_BYTES = 256 * 1024


@pytest.fixture
def served(start_edge, tmp_path):
    """(server, gRPC client as admin, HTTP client as admin, HTTP client without token)."""
    tokens = tmp_path / "tokens"
    tokens.write_text(f"admin {ADMIN_TOKEN}\nreader {READER_TOKEN}\n", "utf-8")
    server, target = start_edge(
        http_port=0, tokens_file=tokens, max_message_bytes=MAX_MESSAGE_BYTES
    )
    base = f"http://127.0.0.1:{server.http_port}"
    admin = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    with (
        Client(target, token=ADMIN_TOKEN) as grpc_client,
        httpx.Client(base_url=base, headers=admin, timeout=60) as http,
        httpx.Client(base_url=base, timeout=60) as anonymous,
    ):
        yield server, grpc_client, http, anonymous


def parsed(response: httpx.Response, message):
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    return json_format.Parse(response.text, message)


def status(response: httpx.Response) -> dict:
    """The error body, checked to be a google.rpc.Status with ErrorInfo first."""
    body = response.json()
    assert set(body) == {"code", "message", "details"}
    assert body["details"][0]["@type"] == "type.googleapis.com/google.rpc.ErrorInfo"
    assert body["details"][0]["domain"] == "ragcore.v1"
    return body


def violation(body: dict) -> dict:
    found = [d for d in body["details"] if d["@type"].endswith("google.rpc.BadRequest")]
    assert found, body
    return found[0]["fieldViolations"][0]


def test_every_read_route_gives_what_grpc_gives(served):
    server, grpc_client, http, _ = served

    answer = parsed(http.post("/v1/ask", json={"question": QUESTION}), pb.Answer())
    expected = grpc_client.ask(QUESTION)
    assert answer.status == expected.status == pb.ANSWER_STATUS_OK
    assert answer.text == expected.text
    assert list(answer.citations) == list(expected.citations)

    hits = parsed(
        http.get("/v1/search", params={"query": "seal", "k": "3", "mode": "SEARCH_MODE_KEYWORD"}),
        pb.SearchResponse(),
    ).hits
    posted = parsed(
        http.post("/v1/search", json={"query": "seal", "k": 3, "mode": "SEARCH_MODE_KEYWORD"}),
        pb.SearchResponse(),
    ).hits
    grpc_hits = grpc_client.search("seal", k=3, mode=pb.SEARCH_MODE_KEYWORD).hits
    assert [(h.chunk_id, h.text) for h in hits] == [(h.chunk_id, h.text) for h in grpc_hits]
    assert [h.chunk_id for h in posted] == [h.chunk_id for h in grpc_hits]
    filtered = parsed(
        http.get(
            "/v1/search",
            params=[("query", "seal"), ("filters.knowledge_bases", "faq"), ("k", "5")],
        ),
        pb.SearchResponse(),
    ).hits
    assert filtered and {h.knowledge_base for h in filtered} == {"faq"}

    page = parsed(http.get("/v1/documents", params={"page_size": 5}), pb.ListDocumentsResponse())
    assert page == grpc_client.list_documents(page_size=5)
    first = page.documents[0]
    document = parsed(http.get(f"/v1/documents/{first.id}"), pb.StoredDocument())
    assert document == grpc_client.document(first.id) == first
    assert not document.text  # only when asked for
    hit = hits[0]
    with_text = parsed(
        http.get(f"/v1/documents/{hit.document_id}", params={"include_text": "true"}),
        pb.StoredDocument(),
    )
    assert with_text == grpc_client.document(hit.document_id, include_text=True)
    assert with_text.text[hit.start : hit.end] == hit.text

    kbs = parsed(http.get("/v1/knowledge-bases"), pb.ListKnowledgeBasesResponse())
    assert list(kbs.knowledge_bases) == list(grpc_client.knowledge_bases())
    stats = parsed(http.get("/v1/stats"), pb.Stats())
    assert (stats.documents, stats.chunks) == (
        grpc_client.stats().documents,
        grpc_client.stats().chunks,
    )
    info = parsed(http.get("/v1/server-info"), pb.ServerInfo())
    assert info == grpc_client.server_info()
    assert parsed(http.get("/v1/tables"), pb.ListTablesResponse()) == grpc_client.tables()
    assert http.get("/v1/health").json() == {"status": "SERVING"}


def test_request_ids_are_echoed_and_the_same_as_the_grpc_side_logs(served, caplog):
    _, _, http, _ = served
    with caplog.at_level("INFO", logger="edge_server.access"):
        response = http.get("/v1/stats", headers={"x-request-id": "terminal-7.42"})
    assert response.headers["x-request-id"] == "terminal-7.42"
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "edge_server.access"]
    line = next(x for x in lines if x["request_id"] == "terminal-7.42")
    assert line["method"] == "/ragcore.v1.Ragcore/GetStats" and line["status"] == "OK"
    assert line["peer"].startswith("http:127.0.0.1:") and line["role"] == "admin"
    made = http.get("/v1/stats").headers["x-request-id"]
    assert made and made != "terminal-7.42"


def test_errors_are_the_grpc_status_with_its_http_status(served):
    _, _, http, anonymous = served

    missing = anonymous.get("/v1/stats")
    assert missing.status_code == 401 and status(missing)["code"] == 16
    assert status(missing)["details"][0]["reason"] == "TOKEN_MISSING"
    bad = anonymous.get("/v1/stats", headers={"authorization": "Bearer not-a-token-of-this"})
    assert bad.status_code == 401 and status(bad)["details"][0]["reason"] == "TOKEN_UNKNOWN"
    # The token is checked before the body: an anonymous caller learns only that.
    assert anonymous.post("/v1/ask", content=b"{oops").status_code == 401

    reader = {"authorization": f"Bearer {READER_TOKEN}"}
    denied = anonymous.delete("/v1/documents/faq-cp200-seal", headers=reader)
    assert denied.status_code == 403
    assert status(denied)["details"][0]["reason"] == "ADMIN_REQUIRED"

    too_long = http.post("/v1/ask", json={"question": "why " * 600})
    assert too_long.status_code == 400 and status(too_long)["code"] == 3
    assert violation(status(too_long))["field"] == "question"
    assert "max_question_chars" in violation(status(too_long))["description"]

    unknown = http.get("/v1/documents/no-such-document")
    assert unknown.status_code == 404
    assert status(unknown)["details"][0]["reason"] == "DOCUMENT_NOT_FOUND"

    malformed = http.post("/v1/ask", content=b"{oops", headers={"content-type": "application/json"})
    assert malformed.status_code == 400
    assert status(malformed)["details"][0]["reason"] == "MALFORMED_REQUEST"
    unknown_field = http.post("/v1/ask", json={"question": QUESTION, "colour": "red"})
    assert unknown_field.status_code == 400
    assert violation(status(unknown_field))["field"] == "colour"
    wrong_type = http.post("/v1/ask", json={"question": QUESTION, "filters": {"minAuthority": "x"}})
    assert violation(status(wrong_type))["field"] == "filters.min_authority"
    wrong_query = http.get("/v1/search", params={"query": "seal", "k": "many"})
    assert violation(status(wrong_query))["field"] == "k"
    out_of_range = http.get("/v1/search", params={"query": "seal", "k": "-1"})
    assert violation(status(out_of_range))["field"] == "k"
    assert "between 1 and 100" in status(out_of_range)["message"]
    reader_upload = anonymous.post(
        "/v1/documents", headers=reader, files=[("file", ("note.md", b"# Note"))]
    )
    assert reader_upload.status_code == 403
    assert status(reader_upload)["details"][0]["reason"] == "ADMIN_REQUIRED"

    # JSON up to twice max_message_bytes reaches the server, which refuses what is over
    # it; beyond that the gateway refuses it unread. The same reason and limit either way.
    for size in (MAX_MESSAGE_BYTES + 1000, 3 * MAX_MESSAGE_BYTES):
        large = http.post("/v1/ask", json={"question": "x" * size})
        assert large.status_code == 429, large.text
        assert status(large)["details"][0]["reason"] == "MESSAGE_TOO_LARGE"
        assert status(large)["details"][0]["metadata"]["limit_bytes"] == str(MAX_MESSAGE_BYTES)
    huge_upload = http.post(
        "/v1/documents", files=[("file", ("big.md", b"x" * (17 * MAX_MESSAGE_BYTES)))]
    )
    assert huge_upload.status_code == 429

    timeout = http.get("/v1/stats", headers={"x-request-timeout": "soon"})
    assert timeout.status_code == 400 and violation(status(timeout))["field"] == "X-Request-Timeout"


def test_ask_stream_is_server_sent_events_ending_in_the_answer(served):
    _, grpc_client, http, anonymous = served
    kinds, data = [], []
    with http.stream("POST", "/v1/ask:stream", json={"question": QUESTION}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.headers["x-request-id"]
        for line in response.iter_lines():
            if line.startswith("event: "):
                kinds.append(line.removeprefix("event: "))
            elif line.startswith("data: "):
                data.append(json_format.Parse(line.removeprefix("data: "), pb.AskEvent()))
    assert kinds[0] == "perception" and kinds[-1] == "result"
    assert {"plan", "retrieval", "draft", "validation"} <= set(kinds)
    assert kinds == [event.WhichOneof("event") for event in data]
    grpc_kinds = [e.WhichOneof("event") for e in grpc_client.ask_stream(QUESTION)]
    assert grpc_kinds[0] == "perception" and grpc_kinds[-1] == "result"
    result, expected = data[-1].result, grpc_client.ask(QUESTION)
    assert (result.text, result.status) == (expected.text, expected.status)
    assert list(result.citations) == list(expected.citations)
    # An error before the first event is a plain error reply.
    refused = anonymous.post("/v1/ask/stream", json={"question": QUESTION})
    assert refused.status_code == 401 and status(refused)["code"] == 16


def test_upload_files_find_them_and_delete(served):
    server, grpc_client, http, _ = served
    note = b"# XV-9 quench valve\n\nLubricate the XV-9 stem with graphite paste every 400 hours.\n"
    uploaded = http.post(
        "/v1/documents",
        files=[("file", ("xv9-valve.md", note)), ("file", ("xv9-notes.txt", b"XV-9 notes."))],
        data={"knowledge_base": "manuals"},
    )
    summary = parsed(uploaded, pb.IngestSummary())
    assert summary.added == 2
    ids = [o.document_id for o in summary.outcomes]
    assert grpc_client.document("xv9-valve").knowledge_base == "manuals"
    hits = parsed(
        http.get("/v1/search", params={"query": "XV-9 stem graphite paste"}), pb.SearchResponse()
    ).hits
    assert hits[0].document_id == "xv9-valve"

    broken = http.post(
        "/v1/documents",
        files=[("file", ("fine.md", b"# Fine\n\nText.")), ("file", ("broken.pdf", b"not a pdf"))],
    )
    assert broken.status_code == 400
    body = status(broken)
    assert violation(body)["field"] == "requests[1].file"
    assert body["details"][0]["metadata"]["file"] == "broken.pdf"
    with pytest.raises(Exception, match="fine"):
        grpc_client.document("fine")  # nothing of a refused upload is stored
    no_files = http.post("/v1/documents", data={"knowledge_base": "manuals"}, files=[])
    assert no_files.status_code == 400

    as_json = http.post(
        "/v1/documents",
        json={"requests": [{"document": {"id": "json-doc", "text": "JSON ingest of the XV-9."}}]},
    )
    assert parsed(as_json, pb.IngestSummary()).added == 1
    bad_json = http.post("/v1/documents", json={"requests": [{"document": {"idd": "x"}}]})
    assert violation(status(bad_json))["field"] == "requests[0].document.idd"

    for document_id in [*ids, "json-doc"]:
        deleted = parsed(http.delete(f"/v1/documents/{document_id}"), pb.DeleteDocumentResponse())
        assert deleted.document_id == document_id and deleted.chunks_removed >= 1
    assert http.get("/v1/documents/xv9-valve").status_code == 404


def test_upload_a_table(served):
    server, grpc_client, http, _ = served
    schema = (
        'description = "Gauge readings"\n[columns]\ngauge = "text"\nreading_kpa = "real"\n'
        '[dimensions.gauge]\nsynonyms = ["dial"]\n'
        '[measures.reading_kpa]\nunit = "kPa"\naggregation = "avg"\n'
    )
    form = {"table": "http_gauges", "schema": schema}
    data = b"gauge,reading_kpa\nG1,101.5\nG2,99.0\n"
    loaded = http.post("/v1/tables", data=form, files={"file": ("gauges.csv", data)})
    assert parsed(loaded, pb.TableSummary()).rows == 2
    tables = parsed(http.get("/v1/tables"), pb.ListTablesResponse())
    assert tables == grpc_client.tables() and tables.tables[0].name == "http_gauges"
    again = http.post("/v1/tables", data=form, files={"file": ("gauges.csv", data)})
    assert again.status_code == 400 and violation(status(again))["field"] == "table"
    replaced = http.post(
        "/v1/tables", data=form | {"replace": "true"}, files={"file": ("gauges.csv", data)}
    )
    assert replaced.status_code == 200


def test_sessions_and_knowledge_bases(served):
    _, grpc_client, http, _ = served
    first = parsed(
        http.post(
            "/v1/ask", json={"question": "What does E4031 mean on the HP-400?", "newSession": True}
        ),
        pb.Answer(),
    )
    assert first.session_id
    ended = parsed(http.delete(f"/v1/sessions/{first.session_id}"), pb.EndSessionResponse())
    assert ended.ended
    assert http.delete("/v1/knowledge-bases/no-such-kb").status_code == 404


def test_openapi_document_is_valid_and_names_every_rpc(served):
    _, _, http, anonymous = served
    spec = anonymous.get("/v1/openapi.json").json()
    validate(spec)
    operations = {
        op["operationId"].rstrip("_") for p in spec["paths"].values() for op in p.values()
    }
    service = pb.DESCRIPTOR.services_by_name["Ragcore"]
    assert operations == {m.name for m in service.methods}
    ask = spec["paths"]["/v1/ask"]["post"]
    assert ask["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ragcore.v1.AskRequest"
    }
    question = spec["components"]["schemas"]["ragcore.v1.AskRequest"]["properties"]["question"]
    assert question["type"] == "string"
    assert "Limits.max_question_chars" in question["description"]  # the .proto's comment
    assert ask["description"].startswith("Answer a question from the documents")


def test_the_page_and_cors_only_when_configured(served, start_edge):
    _, _, _, anonymous = served
    page = anonymous.get("/")
    assert (
        page.status_code == 200 and page.headers["content-security-policy"] == "default-src 'self'"
    )
    static = anonymous.get("/static/index.html")
    assert static.status_code == 200 and static.text == page.text
    assert static.headers["content-security-policy"] == "default-src 'self'"
    assert anonymous.get("/static/../../config.py").status_code == 404
    origin = {"origin": "https://panel.example"}
    plain = anonymous.get("/v1/health", headers=origin)
    assert "access-control-allow-origin" not in plain.headers

    server, _ = start_edge(http_port=0, cors_origins=("https://panel.example",))
    with httpx.Client(base_url=f"http://127.0.0.1:{server.http_port}") as http:
        allowed = http.get("/v1/health", headers=origin)
        assert allowed.headers["access-control-allow-origin"] == "https://panel.example"
        preflight = http.options(
            "/v1/ask",
            headers=origin
            | {
                "access-control-request-method": "POST",
                "access-control-request-headers": "authorization,content-type",
            },
        )
        assert preflight.status_code == 200
        other = http.get("/v1/health", headers={"origin": "https://elsewhere.example"})
        assert "access-control-allow-origin" not in other.headers


class GatedGenerator(ExtractiveGenerator):
    """The extractive generator, held until ``release`` is set (``entered`` says it waits)."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.release = threading.Event()

    def generate(self, *args, **kwargs):
        self.entered.set()
        assert self.release.wait(30), "the test never released the generator"
        return super().generate(*args, **kwargs)


@pytest.fixture
def gated(start_edge, tmp_path, real_embedder, sample_data_template):
    """A server (HTTP too) whose answers wait at a gate: the work is real, its timing held."""
    data = tmp_path / "gated"
    shutil.copytree(sample_data_template, data)
    generator = GatedGenerator()
    engine = Engine(
        Config(data_dir=data, answer_cache_size=0),
        embedder=real_embedder,
        generator=generator,
        clock=lambda: TODAY,
    )
    server, _ = start_edge(engine=engine, http_port=0)
    yield server, generator
    generator.release.set()


def access_line(caplog, request_id: str) -> dict:
    """The access log's line for ``request_id`` (written as the call ends: waited for)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for record in list(caplog.records):
            if record.name == "edge_server.access":
                line = json.loads(record.getMessage())
                if line["request_id"] == request_id:
                    return line
        time.sleep(0.05)
    raise AssertionError(f"no access line for request {request_id}")


def test_a_client_that_disconnects_cancels_the_call(gated, caplog):
    server, generator = gated
    base = f"http://127.0.0.1:{server.http_port}"
    headers = {"x-request-id": "leaving-client"}
    with caplog.at_level("INFO", logger="edge_server.access"):
        with pytest.raises(httpx.ReadTimeout):  # the client gives up and closes the connection
            httpx.post(f"{base}/v1/ask", json={"question": QUESTION}, headers=headers, timeout=2)
        assert generator.entered.is_set()
        # The gateway cancels the gRPC call once it sees the disconnect: wait until the
        # server's token knows, or a quick release could finish the answer first.
        deadline = time.monotonic() + 10
        while server.in_flight.reasons() != [CancelReason.CLIENT]:
            assert time.monotonic() < deadline, "the server never saw the client leave"
            time.sleep(0.02)
        generator.release.set()  # the engine checks its token after the stage: cancelled
        assert access_line(caplog, "leaving-client")["status"] == "CANCELLED"


def test_the_request_timeout_header_is_the_calls_deadline(gated, caplog):
    server, generator = gated
    base = f"http://127.0.0.1:{server.http_port}"
    headers = {"x-request-id": "in-a-hurry", "x-request-timeout": "0.5"}
    with caplog.at_level("INFO", logger="edge_server.access"):
        late = httpx.post(
            f"{base}/v1/ask", json={"question": QUESTION}, headers=headers, timeout=30
        )
        generator.release.set()
        assert access_line(caplog, "in-a-hurry")["status"] == "DEADLINE_EXCEEDED"
    assert late.status_code == 504 and status(late)["code"] == 4
    assert status(late)["details"][0]["reason"] == "DEADLINE_PASSED"
    assert late.headers["x-request-id"] == "in-a-hurry"
