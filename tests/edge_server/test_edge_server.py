"""The edge service against real servers on port 0: every rpc, health, limits, status codes.

Each server runs over its own copy of the sample knowledge base (``start_edge``). Where
a test needs an rpc to stay in flight, the real extractive generator is held at a gate
(``GatedGenerator``): the work is real, only its timing is controlled.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
from conftest import TODAY
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

from edge_server import ServerConfig, create_server
from edge_server.client import Client, error_details
from edge_server.v1 import ragcore_pb2 as pb
from ragcore import Config, Engine
from ragcore.agents.generation.extractive import ExtractiveGenerator
from ragcore.config import StoreSettings

pytestmark = pytest.mark.integration

QUESTION = "How often should the CP-200 seal be replaced?"
ADMIN_TOKEN = "admin-token-0123456789abcdef"
READER_TOKEN = "reader-token-0123456789abcdef"


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
def gated(tmp_path, real_embedder, sample_data_template):
    """An Engine over a copy of the sample KB whose generator waits at a gate."""
    import shutil

    data = tmp_path / "gated"
    shutil.copytree(sample_data_template, data)
    generator = GatedGenerator()
    engine = Engine(
        Config(data_dir=data), embedder=real_embedder, generator=generator, clock=lambda: TODAY
    )
    yield engine, generator
    generator.release.set()
    engine.close()


def code_of(call) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value


def doc(id_: str, text: str, knowledge_base: str = "faq", **fields) -> pb.Document:
    return pb.Document(id=id_, text=text, knowledge_base=knowledge_base, **fields)


def counts(server) -> tuple[int, int, int]:
    s = server.engine.stats()
    return s.documents, s.chunks, s.vectors


# -- every rpc ----------------------------------------------------------------------------
def test_ask_answers_with_citations_report_and_timings(start_edge):
    _, target = start_edge()
    with Client(target) as client:
        answer = client.ask(QUESTION)
        traced = client.ask(QUESTION, trace=True)
    assert answer.status == pb.ANSWER_STATUS_OK
    assert "2000" in answer.text or "hours" in answer.text
    assert answer.citations and all(c.document_id and c.text for c in answer.citations)
    assert f"[{answer.citations[0].number}]" in answer.text
    assert answer.report.passed and [c.check for c in answer.report.checks] == [
        pb.CHECK_TRACEABILITY,
        pb.CHECK_TIMELINESS,
        pb.CHECK_CONSISTENCY,
    ]
    numbers = [int(n) for n in re.findall(r"\[(\d+)\]", answer.text)]
    assert list(dict.fromkeys(numbers)) == [c.number for c in answer.citations]  # 1..n, in
    assert [c.number for c in answer.citations] == list(range(1, len(answer.citations) + 1))
    assert answer.perception.route and answer.rounds >= 1 and answer.searches >= 1
    assert answer.timings.total_ms >= answer.timings.retrieval_ms > 0
    assert not answer.HasField("trace")
    assert traced.trace.name == "ask" and traced.trace.children


def test_ask_stream_sends_each_stage_then_the_final_answer(start_edge):
    _, target = start_edge()
    with Client(target) as client:
        events = list(client.ask_stream("Which compressor is louder, AC-75 or AC-110?"))
    kinds = [e.WhichOneof("event") for e in events]
    assert kinds[0] == "perception" and kinds[-1] == "result" and kinds.count("result") == 1
    for stage in ("plan", "retrieval", "draft", "validation"):
        assert stage in kinds
    assert kinds.index("plan") < kinds.index("retrieval") < kinds.index("draft")
    assert [e.elapsed_ms for e in events] == sorted(e.elapsed_ms for e in events)
    assert events[0].perception.route == pb.ROUTE_COMPARISON
    assert events[0].perception.action == pb.ACTION_COMPARE
    plan = next(e.plan for e in events if e.WhichOneof("event") == "plan")
    assert {t.mode for t in plan.tasks} <= {pb.SEARCH_MODE_HYBRID, pb.SEARCH_MODE_KEYWORD}
    final = events[-1].result
    assert final.status == pb.ANSWER_STATUS_OK and "louder" in final.text
    rounds = {e.round for e in events if e.WhichOneof("event") == "validation"}
    assert len(rounds) == final.rounds
    if final.rounds > 1:
        assert "retry" in kinds


def test_search_filters_modes_and_scores(start_edge):
    _, target = start_edge()
    with Client(target) as client:
        hybrid = client.search("CP-200 seal replacement interval", k=3)
        keyword = client.search(
            "seal", mode=pb.SEARCH_MODE_KEYWORD, k=5, knowledge_bases=["manuals"]
        )
        recent = client.search("seal", updated_after="2024-01-01", k=20)
    assert len(hybrid.hits) == 3 and hybrid.took_ms > 0
    top = hybrid.hits[0]
    assert "cp200" in top.document_id or "CP-200" in top.text
    assert set(top.scores) >= {"vector", "keyword", "hybrid"}
    # Byte offsets span the chunk's UTF-8 bytes and never start before the code points do.
    assert top.end_utf8 - top.start_utf8 == len(top.text.encode())
    assert top.start_utf8 >= top.start
    assert keyword.hits and {h.knowledge_base for h in keyword.hits} == {"manuals"}
    assert all(h.updated_at >= "2024-01-01" for h in recent.hits)


def test_ingest_then_delete_round_trip(start_edge):
    server, target = start_edge()
    before = counts(server)
    new = doc(
        "faq-grease",
        "Grease the GX-9 conveyor bearings every 400 operating hours with lithium grease.",
        title="GX-9 bearing grease",
        doc_type="faq",
        updated_at="2025-06-01",
        authority=2,
        metadata={"owner": "maintenance"},
    )
    with Client(target) as client:
        summary = client.ingest([new])
        again = client.ingest([new])
        hits = client.search("GX-9 conveyor bearings grease", k=1).hits
        kbs = {kb.name: kb for kb in client.knowledge_bases()}
        stats = client.stats()
        deleted = client.delete("faq-grease")
    assert (summary.added, summary.updated, summary.unchanged) == (1, 0, 0)
    assert summary.outcomes[0].document_id == "faq-grease" and summary.chunks >= 1
    assert (again.added, again.unchanged) == (0, 1)
    assert hits[0].document_id == "faq-grease" and hits[0].updated_at == "2025-06-01"
    assert sum(kb.documents for kb in kbs.values()) == before[0] + 1
    assert stats.documents == before[0] + 1 and stats.vectors == stats.chunks
    assert stats.version and stats.max_in_flight == 32 and stats.uptime_seconds > 0
    assert deleted.chunks_removed == summary.chunks
    assert counts(server) == before


def test_list_knowledge_bases_and_stats(start_edge):
    _, target = start_edge()
    with Client(target) as client:
        names = [kb.name for kb in client.knowledge_bases()]
        stats = client.stats()
    assert names == ["faq", "manuals", "regulations"]
    assert stats.knowledge_bases == 3 and stats.documents > 20
    assert stats.embedder == Config().embedder and stats.database_bytes > 0


def test_get_document_and_list_documents_page_by_page(start_edge):
    server, target = start_edge()
    with Client(target) as client:
        stored = client.document("manual-cp200-v1")
        pages, token = [], ""
        while True:
            page = client.list_documents(page_size=10, page_token=token)
            pages.append([d.id for d in page.documents])
            token = page.next_page_token
            if len(pages) == 1:  # a document stored while paging comes on a later page
                client.ingest([doc("faq-late", "The GX-9 belt is checked weekly.")])
            if not token:
                break
        late = client.list_documents(knowledge_base="faq", updated_since=stored.ingested_at)
    assert stored.knowledge_base == "manuals" and stored.title and stored.chunk_count >= 1
    assert list(stored.superseded_by) == ["manual-cp200-v2"]
    assert re.fullmatch(r"[0-9a-f]{64}", stored.checksum)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", stored.ingested_at)
    listed = [i for page in pages for i in page]
    assert len(listed) == len(set(listed)) == server.engine.stats().documents
    assert all(len(page) == 10 for page in pages[:-1]) and listed[-1] == "faq-late"
    assert "faq-late" in [d.id for d in late.documents]
    assert all(d.knowledge_base == "faq" for d in late.documents)


def test_delete_knowledge_base_removes_it_everywhere(start_edge):
    server, target = start_edge()
    before = counts(server)
    faq = next(kb for kb in server.engine.knowledge_bases() if kb.name == "faq")
    with Client(target) as client:
        deleted = client.delete_knowledge_base("faq")
        names = [kb.name for kb in client.knowledge_bases()]
        hits = client.search("seal replacement interval", k=50).hits
        again = code_of(lambda: client.delete_knowledge_base("faq"))
    assert (deleted.name, deleted.documents_removed) == ("faq", faq.documents)
    assert names == ["manuals", "regulations"]  # an empty knowledge base is not listed
    assert hits and all(h.knowledge_base != "faq" for h in hits)
    assert counts(server) == (
        before[0] - faq.documents,
        before[1] - faq.chunks,
        before[2] - faq.chunks,
    )
    assert again.code() == grpc.StatusCode.NOT_FOUND


def test_server_info_states_the_limits_the_server_enforces(start_edge):
    _, target = start_edge(max_message_bytes=1 << 20, max_in_flight=8, workers=2)
    with Client(target) as client:
        info = client.server_info()
    assert info.version and info.embedder == Config().embedder and info.store
    assert info.generator == "extractive" and info.reranker == ""
    assert (info.role, list(info.scope)) == (pb.ROLE_ADMIN, [])
    limits = info.limits
    assert (limits.max_message_bytes, limits.max_in_flight) == (1 << 20, 8)
    assert (limits.max_question_chars, limits.max_query_chars) == (2000, 4000)
    assert (limits.max_rounds, limits.max_k, limits.max_page_size) == (3, 100, 1000)
    assert limits.max_document_chars == 2_000_000
    assert info.store == "sqlite-fts5+hnsw" and not info.HasField("store_settings")


@pytest.mark.process
def test_server_info_states_a_postgresql_stores_pool_and_timeouts(
    start_edge, tmp_path, real_embedder, postgres_url
):
    settings = StoreSettings(pool_size=3, connect_timeout=1.5, statement_timeout=12)
    engine = Engine(
        Config(data_dir=tmp_path / "pg", store_url=postgres_url, store_settings=settings),
        embedder=real_embedder,
    )
    _, target = start_edge(engine=engine)
    with Client(target) as client:
        info = client.server_info()
    assert info.store == "postgresql+pgvector"
    stated = info.store_settings
    assert (stated.pool_size, stated.connect_timeout_seconds) == (3, 1.5)
    assert stated.statement_timeout_seconds == 12


def test_reflection_lists_the_services(start_edge):
    _, target = start_edge()
    with grpc.insecure_channel(target) as channel:
        services = ProtoReflectionDescriptorDatabase(channel).get_services()
    assert {"ragcore.v1.Ragcore", "grpc.health.v1.Health"} <= set(services)


# -- health -------------------------------------------------------------------------------
def health_of(target: str, service: str = "ragcore.v1.Ragcore") -> str:
    """Health on a fresh channel (no token), as a load balancer would ask."""
    with Client(target, timeout=5) as client:
        return client.health(service)


def test_health_not_serving_until_loaded_then_serving_then_not_while_draining(
    tmp_path, real_embedder, sample_data_template
):
    import shutil

    shutil.copytree(sample_data_template, tmp_path / "data")
    gate = threading.Event()

    class SlowToLoad(Engine):
        def warm_up(self) -> None:
            assert gate.wait(30)
            super().warm_up()

    engine = SlowToLoad(Config(data_dir=tmp_path / "data"), embedder=real_embedder)
    server = create_server(ServerConfig(engine=engine.config, port=0), engine).start()
    target = f"127.0.0.1:{server.port}"
    try:
        assert health_of(target) == "NOT_SERVING" and health_of(target, "") == "NOT_SERVING"
        with Client(target) as client:
            error = code_of(lambda: client.ask(QUESTION))
            assert error.code() == grpc.StatusCode.UNAVAILABLE
            assert "loading" in error.details()
            gate.set()
            client.wait_until_serving(30)
            assert health_of(target, "") == "SERVING"
            assert client.ask(QUESTION).status == pb.ANSWER_STATUS_OK
    finally:
        gate.set()
        server.stop(grace=0)
        engine.close()


def test_graceful_shutdown_finishes_the_in_flight_ask(gated, start_edge):
    engine, generator = gated
    server, target = start_edge(engine=engine)
    with Client(target) as client, ThreadPoolExecutor(2) as pool:
        in_flight = pool.submit(client.ask, QUESTION)
        assert generator.entered.wait(10)
        stopping = pool.submit(server.stop, 10)
        while server.admission.state != "draining":
            threading.Event().wait(0.01)
        assert health_of(target) == "NOT_SERVING"
        refused = code_of(lambda: client.ask(QUESTION))
        assert refused.code() == grpc.StatusCode.UNAVAILABLE
        assert "shutting down" in refused.details()
        assert not stopping.done()
        generator.release.set()
        answer = in_flight.result(timeout=10)
        stopping.result(timeout=10)
    assert answer.status == pb.ANSWER_STATUS_OK and answer.citations


# -- limits -------------------------------------------------------------------------------
def test_beyond_max_in_flight_is_resource_exhausted_not_a_pile_up(gated, start_edge):
    engine, generator = gated
    _, target = start_edge(engine=engine, max_in_flight=2, workers=1)
    with Client(target) as client, ThreadPoolExecutor(2) as pool:
        first = pool.submit(client.ask, QUESTION)
        assert generator.entered.wait(10)
        second = pool.submit(client.ask, QUESTION)  # admitted: waits for the worker
        while client.stats().in_flight < 2:  # GetStats itself is not counted
            threading.Event().wait(0.01)
        refused = code_of(lambda: client.ask(QUESTION))
        assert health_of(target) == "SERVING"  # health checks are never refused
        generator.release.set()
        answers = [first.result(10), second.result(10)]
    assert refused.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "2 requests in flight" in refused.details()
    assert all(a.status == pb.ANSWER_STATUS_OK for a in answers)


def test_expired_deadline_stops_the_work(gated, start_edge, caplog):
    engine, generator = gated
    _, target = start_edge(engine=engine)
    caplog.set_level(logging.INFO, logger="edge_server.access")
    with Client(target) as client:
        timer = threading.Timer(0.6, generator.release.set)  # after the client gave up
        timer.start()
        error = code_of(lambda: client.ask(QUESTION, timeout=0.3))
        timer.join()
        assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        client.stats()  # the server is still fine
    # The ask is logged when its worker stops at the next stage: soon, but later than the
    # stats on a loaded machine.
    deadline = time.monotonic() + 10
    while not (asks := _access_lines(caplog, "/Ask")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [line["status"] for line in asks] == ["DEADLINE_EXCEEDED"]


def _access_lines(caplog, method: str) -> list[dict]:
    records = [r for r in caplog.records if r.name == "edge_server.access"]
    return [
        line for r in records if (line := json.loads(r.getMessage()))["method"].endswith(method)
    ]


def test_an_ingest_past_its_deadline_stops_between_groups_and_keeps_whole_documents(start_edge):
    server, target = start_edge()
    before = counts(server)
    # About ten seconds of embedding on two cores (a one-line note per document took one
    # second here, and less than the deadline on a faster machine): ten times the deadline.
    steps = (
        "Inspect the check valve seat and spring for wear, replace the gasket if it is "
        "cracked, torque the cover bolts in a cross pattern and record it in the log book. "
    )
    many = [doc(f"bulk-{i:04d}", f"Bulk note {i}: valve V-{i}. " + steps * 4) for i in range(1200)]
    with Client(target) as client:
        error = code_of(lambda: client.ingest(many, timeout=1.0))
    assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert server.admission.wait_idle(60)  # the server stopped at the next group
    documents, chunks, vectors = counts(server)
    assert before[0] <= documents < before[0] + len(many)  # not all of them: it stopped
    assert chunks == vectors  # whatever was stored is whole, with its vectors


def test_oversized_message_is_refused_and_the_server_goes_on(start_edge):
    _, target = start_edge(max_message_bytes=64 * 1024)
    with Client(target) as client:
        error = code_of(lambda: client.ingest([doc("big", "word " * 20_000)]))
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert client.ask(QUESTION).status == pb.ANSWER_STATUS_OK


# -- bad input: the code, the message, nothing changed -----------------------------------
# (call, code, words in the message); each on the same server, nothing may change.
BAD_REQUESTS = [
    (lambda c: c.ask(""), "INVALID_ARGUMENT", "empty"),
    (lambda c: c.ask("   "), "INVALID_ARGUMENT", "empty"),
    (lambda c: c.ask("why? " * 500), "INVALID_ARGUMENT", "2000"),
    (lambda c: c.search(""), "INVALID_ARGUMENT", "query"),
    (lambda c: c.search("seal", knowledge_bases=["nope"]), "NOT_FOUND", "'nope'"),
    (lambda c: c.search("seal", updated_after="2024-13-01"), "INVALID_ARGUMENT", "YYYY-MM-DD"),
    (lambda c: c.search("seal", k=1000), "INVALID_ARGUMENT", "between 1 and 100, got 1000"),
    (
        lambda c: c.search("seal", k=-1),
        "INVALID_ARGUMENT",
        "k must be between 1 and 100, got -1",
    ),
    (lambda c: c.search("x" * 4001), "INVALID_ARGUMENT", "4000"),
    (lambda c: c.ask(QUESTION, max_rounds=4), "INVALID_ARGUMENT", "between 1 and 3, got 4"),
    (lambda c: c.ask(QUESTION, max_rounds=-1), "INVALID_ARGUMENT", "max_rounds"),
    (lambda c: c.ask(QUESTION, knowledge_bases=["nope"]), "NOT_FOUND", "'nope'"),
    (
        lambda c: c.ask(QUESTION, updated_after="2025-01-01", updated_before="2024-01-01"),
        "INVALID_ARGUMENT",
        "swap",
    ),
    (lambda c: c.list_documents(page_size=-5), "INVALID_ARGUMENT", "got -5"),
    (lambda c: c.list_documents(page_size=1001), "INVALID_ARGUMENT", "got 1001"),
    (lambda c: c.list_documents(updated_since="yesterday"), "INVALID_ARGUMENT", "RFC 3339"),
    (lambda c: c.list_documents(updated_since="2025-06-01"), "INVALID_ARGUMENT", "RFC 3339"),
    (lambda c: c.list_documents(page_token="bm9wZQ"), "INVALID_ARGUMENT", "page_token"),
    (lambda c: c.document(""), "INVALID_ARGUMENT", "document_id"),
    (lambda c: c.document("no-such-doc"), "NOT_FOUND", "no-such-doc"),
    (lambda c: c.delete_knowledge_base(""), "INVALID_ARGUMENT", "name"),
    (lambda c: c.delete_knowledge_base("nope"), "NOT_FOUND", "nope"),
    (lambda c: c.search("seal", mode=9), "INVALID_ARGUMENT", "mode"),
    (lambda c: c.search("seal", min_authority=9), "INVALID_ARGUMENT", "min_authority"),
    (lambda c: c.delete("no-such-doc"), "NOT_FOUND", "no-such-doc"),
    (lambda c: c.delete(""), "INVALID_ARGUMENT", "document_id"),
    (lambda c: c.ingest([]), "INVALID_ARGUMENT", "no documents"),
]


def test_bad_requests_get_precise_codes_rich_details_and_change_nothing(start_edge):
    server, target = start_edge()
    before = counts(server)
    with Client(target) as client:
        for call, code, words in BAD_REQUESTS:
            error = code_of(lambda call=call: call(client))
            assert (error.code().name, words in error.details()) == (code, True), (
                words,
                error.details(),
            )
            assert "Traceback" not in error.details()
            details = error_details(error)
            assert details["ErrorInfo"].domain == "ragcore.v1" and details["ErrorInfo"].reason
            if code == "INVALID_ARGUMENT":
                (violation,) = details["BadRequest"].field_violations
                assert violation.field and violation.description == error.details(), words
    assert counts(server) == before


BAD_DOCUMENTS = [  # (fields of the second document, the field the error names)
    ({"updated_at": "2024-02-30"}, "updated_at"),
    ({"updated_at": "yesterday"}, "updated_at"),
    ({"authority": 9}, "authority"),
    ({"authority": -2}, "authority"),
    ({"knowledge_base": "Bad KB!"}, "knowledge_base"),
    ({"supersedes": "faq-new"}, "supersedes"),
    ({"text": "   "}, "text"),
]


def test_one_bad_document_fails_the_whole_ingest_and_stores_nothing(start_edge):
    server, target = start_edge()
    before = counts(server)
    good = doc("faq-good", "The GX-9 belt tension is 40 N at mid-span.")
    with Client(target) as client:
        for bad, field in BAD_DOCUMENTS:
            bad = dict(bad)
            broken = doc("faq-new", bad.pop("text", "A valid text about the GX-9."), **bad)
            error = code_of(lambda broken=broken: client.ingest([good, broken]))
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, field
            assert "document #2 (id 'faq-new')" in error.details() and field in error.details()
            (violation,) = error_details(error)["BadRequest"].field_violations
            assert violation.field == f"requests[1].document.{field}", error.details()
            metadata = error_details(error)["ErrorInfo"].metadata
            assert (metadata["document_index"], metadata["document_id"]) == ("1", "faq-new")
        found = {h.document_id for h in client.search("GX-9 belt tension", k=5).hits}
        assert not found & {"faq-good", "faq-new"}
    assert counts(server) == before


def test_an_ingest_message_without_a_document_is_invalid(start_edge):
    _, target = start_edge()
    with Client(target) as client:
        error = code_of(lambda: client.stub.Ingest(iter([pb.IngestRequest()]), timeout=10))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "message #1" in error.details()


def test_a_missing_model_is_failed_precondition(tmp_path):
    config = Config(data_dir=tmp_path / "data", embedder_path=tmp_path / "missing.onnx")
    server = create_server(ServerConfig(engine=config, port=0)).start()
    try:
        assert server.wait_until_loaded(30) and not server.serving
        target = f"127.0.0.1:{server.port}"
        assert health_of(target) == "NOT_SERVING"
        with Client(target) as client:
            error = code_of(lambda: client.ask(QUESTION))
        assert error.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "missing.onnx" in error.details()
    finally:
        server.stop(grace=0)


# -- tokens -------------------------------------------------------------------------------
@pytest.fixture
def tokens_file(tmp_path):
    path = tmp_path / "tokens"
    path.write_text(f"# role token\nreader {READER_TOKEN}\nadmin {ADMIN_TOKEN}\n")
    return path


def test_tokens_readers_read_admins_write(start_edge, tokens_file, caplog):
    server, target = start_edge(tokens_file=tokens_file)
    caplog.set_level(logging.INFO, logger="edge_server.access")
    before = counts(server)
    new = doc("faq-token", "Tokens guard the GX-9 ingest.")
    with Client(target, token=READER_TOKEN) as reader:
        assert reader.ask(QUESTION).status == pb.ANSWER_STATUS_OK
        assert reader.search("seal", k=1).hits and reader.knowledge_bases() and reader.stats()
        denied = code_of(lambda: reader.ingest([new]))
        denied_delete = code_of(lambda: reader.delete("faq-token"))
    with Client(target) as anonymous:
        missing = code_of(lambda: anonymous.ask(QUESTION))
        assert health_of(target) == "SERVING"  # health needs no token
    with Client(target, token="wrong-token-0123456789abcdef") as stranger:
        wrong = code_of(lambda: stranger.ask(QUESTION))
    assert denied.code() == denied_delete.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "admin token" in denied.details()
    assert missing.code() == wrong.code() == grpc.StatusCode.UNAUTHENTICATED
    assert "Bearer" in missing.details()
    assert counts(server) == before
    with Client(target, token=ADMIN_TOKEN) as admin:
        assert admin.ingest([new]).added == 1
        assert admin.delete("faq-token").chunks_removed >= 1
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert READER_TOKEN not in logged and ADMIN_TOKEN not in logged
    assert "wrong-token" not in logged and "Tokens guard" not in logged
    roles = {json.loads(r.getMessage()).get("role") for r in caplog.records}
    assert {"reader", "admin"} <= roles


def test_tokens_from_the_environment(start_edge, monkeypatch):
    monkeypatch.setenv("RAGCORE_READER_TOKENS", f"{READER_TOKEN}, another-reader-0123456789")
    _, target = start_edge()
    with Client(target, token="another-reader-0123456789") as reader:
        assert reader.stats().documents > 0
        assert code_of(lambda: reader.delete("x")).code() == grpc.StatusCode.PERMISSION_DENIED


# -- the access log -----------------------------------------------------------------------
def test_one_log_line_per_request_with_the_request_id_and_no_text(start_edge, caplog):
    _, target = start_edge()
    caplog.set_level(logging.INFO, logger="edge_server.access")
    with Client(target) as client:
        _, call = client.stub.Ask.with_call(
            pb.AskRequest(question=QUESTION), metadata=(("x-request-id", "req-42"),), timeout=10
        )
        echoed = dict(call.initial_metadata())["x-request-id"]
        code_of(lambda: client.ask(""))
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "edge_server.access"]
    assert echoed == "req-42"
    assert [(line["method"], line["status"]) for line in lines] == [
        ("/ragcore.v1.Ragcore/Ask", "OK"),
        ("/ragcore.v1.Ragcore/Ask", "INVALID_ARGUMENT"),
    ]
    assert lines[0]["request_id"] == "req-42" and len(lines[1]["request_id"]) == 16
    assert all(line["ms"] >= 0 and line["peer"] for line in lines)
    assert "CP-200" not in "\n".join(r.getMessage() for r in caplog.records)


def test_a_second_server_on_the_same_port_is_a_clear_error(start_edge, real_embedder, tmp_path):
    from ragcore.errors import ConfigError

    server, _ = start_edge()
    with pytest.raises(ConfigError, match="in use"):
        create_server(ServerConfig(engine=Config(data_dir=tmp_path / "x"), port=server.port))
