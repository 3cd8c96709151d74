"""Every limit is stated once (the .proto's ``Limits``), reported by GetServerInfo and
enforced exactly: a request at the limit is accepted, one beyond it refused."""

from __future__ import annotations

import re
import shutil

import grpc
import pytest
from conftest import TODAY

from edge_server import codegen
from edge_server import config as defaults
from edge_server.client import Client, error_details
from edge_server.limits import Limits
from edge_server.v1 import ragcore_pb2 as pb
from ragcore import Config, Engine
from ragcore.agents.perception.agent import MAX_QUESTION_CHARS
from ragcore.retrieval.search import MAX_QUERY_CHARS
from ragcore.storage.records import MAX_PAGE_SIZE

pytestmark = pytest.mark.integration

MAX_DOCUMENT_CHARS = 3000  # small, so that a document at the limit is quick to ingest
MAX_MESSAGE_BYTES = 16 * 1024


def proto_defaults() -> dict[str, int]:
    """Each field of the .proto's Limits message and the default it states ("[2000]")."""
    text = (codegen.PROTO_DIR / "ragcore.proto").read_text()
    body = text[text.index("message Limits {") :]
    body = body[: body.index("\n}")]
    found, pending = {}, None
    for line in body.splitlines()[1:]:
        if default := re.search(r"\[(\d+)", line):
            pending = int(default.group(1))
        if field := re.match(r"\s*int(?:32|64) (\w+) = \d+;", line):
            assert pending is not None, f"Limits.{field.group(1)} states no default"
            found[field.group(1)], pending = pending, None
    return found


def test_the_edge_limits_are_the_librarys_and_the_proto_states_the_defaults():
    assert (Limits.of(Config(), max_message_bytes=1, max_in_flight=1).max_question_chars) == (
        MAX_QUESTION_CHARS
    )
    assert Limits.of(Config(), max_message_bytes=1, max_in_flight=1).max_query_chars == (
        MAX_QUERY_CHARS
    )
    assert Limits.of(Config(), max_message_bytes=1, max_in_flight=1).max_page_size == (
        MAX_PAGE_SIZE
    )
    default = Limits.of(
        Config(),
        max_message_bytes=defaults.DEFAULT_MAX_MESSAGE_BYTES,
        max_in_flight=defaults.DEFAULT_MAX_IN_FLIGHT,
    )
    stated = proto_defaults()
    assert set(stated) == set(pb.Limits.DESCRIPTOR.fields_by_name)
    assert stated == vars(default)


@pytest.fixture
def small_server(start_edge, tmp_path, real_embedder, sample_data_template):
    data = tmp_path / "small"
    shutil.copytree(sample_data_template, data)
    engine = Engine(
        Config(data_dir=data, max_document_chars=MAX_DOCUMENT_CHARS),
        embedder=real_embedder,
        clock=lambda: TODAY,
    )
    server, target = start_edge(engine=engine)
    with Client(target) as client:
        yield server, client


def refused(call) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value


def sized_document(size: int) -> pb.Document:
    """A document whose IngestRequest is exactly ``size`` bytes."""
    document = pb.Document(id="limit-doc", knowledge_base="faq", text="")
    for _ in range(5):  # the text's length prefix grows with it: converge
        missing = size - pb.IngestRequest(document=document).ByteSize()
        document.text = "a" * (len(document.text) + missing)
    assert pb.IngestRequest(document=document).ByteSize() == size
    return document


def test_each_limit_accepts_its_value_and_refuses_one_more(small_server):
    server, client = small_server
    limits = client.server_info().limits
    assert limits.max_document_chars == MAX_DOCUMENT_CHARS
    cases = [
        (
            lambda n: client.ask("why " + "x" * (n - 4), max_rounds=1),
            limits.max_question_chars,
            "question",
        ),
        (lambda n: client.search("x" * n, k=1), limits.max_query_chars, "query"),
        (lambda n: client.search("seal", k=n), limits.max_k, "k"),
        (
            lambda n: client.ask("How often is the CP-200 seal replaced?", max_rounds=n),
            limits.max_rounds,
            "max_rounds",
        ),
        (lambda n: client.list_documents(page_size=n), limits.max_page_size, "page_size"),
    ]
    for call, limit, field in cases:
        call(limit)  # accepted
        error = refused(lambda call=call, limit=limit: call(limit + 1))
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, field
        (violation,) = error_details(error)["BadRequest"].field_violations
        assert violation.field == field and str(limit) in error.details()

    text = "word " * (MAX_DOCUMENT_CHARS // 5)
    assert client.ingest([pb.Document(id="at-limit", text=text, knowledge_base="faq")]).added == 1
    over = refused(
        lambda: client.ingest([pb.Document(id="over", text=text + "x", knowledge_base="faq")])
    )
    assert over.code() == grpc.StatusCode.INVALID_ARGUMENT and str(MAX_DOCUMENT_CHARS) in (
        over.details().replace(",", "")
    )
    assert (
        error_details(over)["BadRequest"].field_violations[0].field == "requests[0].document.text"
    )


def test_the_message_size_limit_is_exact(start_edge):
    server, target = start_edge(max_message_bytes=MAX_MESSAGE_BYTES)
    with Client(target, max_message_bytes=4 * MAX_MESSAGE_BYTES) as client:
        assert client.ingest([sized_document(MAX_MESSAGE_BYTES)]).added == 1
        error = refused(lambda: client.ingest([sized_document(MAX_MESSAGE_BYTES + 1)]))
        assert client.stats().documents == server.engine.stats().documents  # still serving
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    info = error_details(error)["ErrorInfo"]
    assert info.reason == "MESSAGE_TOO_LARGE"
    assert info.metadata["limit_bytes"] == str(MAX_MESSAGE_BYTES)
    assert "RetryInfo" not in error_details(error)
