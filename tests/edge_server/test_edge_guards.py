"""The guards interceptor against real servers on port 0: what it must leave alone, what
it must turn into a clear status, and the names it shares with the client.

- Health's Watch streams hold no worker thread, so open watches cannot starve an Ask.
- Every rpc of the vendored ``proto/grpc/health/v1/health.proto`` is answered (List too).
- Bytes that do not decode as the request are INVALID_ARGUMENT with one access-log line
  and no traceback, and only after the token check.
- The service name comes from the generated descriptor, in one module.
"""

from __future__ import annotations

import ast
import json
import logging
import random
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest
from google.protobuf.message import DecodeError
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

from edge_server import client as client_module
from edge_server import interceptors, names
from edge_server import server as server_module
from edge_server.client import Client, error_details
from edge_server.v1 import ragcore_pb2 as pb

pytestmark = pytest.mark.integration

QUESTION = "How often should the CP-200 seal be replaced?"
READER_TOKEN = "reader-token-0123456789abcdef"
ADMIN_TOKEN = "admin-token-0123456789abcdef"
HEALTH_PROTO = Path(__file__).resolve().parents[2] / "proto" / "grpc" / "health" / "v1"
SERVING = health_pb2.HealthCheckResponse.SERVING

# Bytes that are no AskRequest: random (seeded, and checked below to be undecodable),
# a string field whose bytes are not UTF-8, a length that runs past the end.
RANDOM_BYTES = random.Random(20240601).randbytes(64)
BAD_UTF8 = b"\x0a\x03\xff\xfe\xfd"  # field 1 (question), 3 bytes, none of them UTF-8
TRUNCATED = b"\x0a\x10CP-200"  # field 1 says 16 bytes, 6 follow
GARBAGE = {"random": RANDOM_BYTES, "bad-utf8": BAD_UTF8, "truncated": TRUNCATED}


@pytest.fixture
def tokens_file(tmp_path) -> Path:
    path = tmp_path / "tokens"
    path.write_text(f"reader {READER_TOKEN}\nadmin {ADMIN_TOKEN}\n")
    return path


@pytest.fixture
def log(caplog):
    """Every log record of the run: INFO and up, and the access log down to DEBUG (health
    calls are logged at DEBUG). ``log.access()`` is the access-log lines, parsed."""
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.DEBUG, logger="edge_server.access")

    def access() -> list[dict]:
        records = caplog.records
        return [json.loads(r.getMessage()) for r in records if r.name == "edge_server.access"]

    caplog.access = access
    return caplog


def assert_no_traceback(caplog, capfd) -> None:
    """Nothing logged with a traceback, and no traceback printed to stderr by gRPC."""
    assert not [r for r in caplog.records if r.exc_info], caplog.text
    assert "Traceback" not in caplog.text and "deserializing" not in caplog.text
    assert "Traceback" not in capfd.readouterr().err


def raw_error(channel, method: str, kind: str, payload: bytes, metadata=()) -> grpc.RpcError:
    """Send ``payload`` as the request's bytes (no serializer) on a ``kind`` rpc
    (``unary_unary``, ``stream_unary``, ...); return the error it ends with."""
    call = getattr(channel, kind)(method)  # no serializers: the bytes go as they are
    request = iter([payload]) if kind.startswith("stream") else payload
    with pytest.raises(grpc.RpcError) as caught:
        reply = call(request, timeout=10, metadata=metadata)
        if kind.endswith("_stream"):
            list(reply)
    return caught.value


def counts(server) -> tuple[int, int, int]:
    s = server.engine.stats()
    return s.documents, s.chunks, s.vectors


# -- 1. health's Watch streams hold no worker thread ------------------------------------
WATCHES = 40


def test_open_health_watches_do_not_starve_an_ask(start_edge):
    server, target = start_edge()
    threads = server.config.max_in_flight + server_module.SPARE_THREADS
    assert threads < WATCHES, "more watches than pool threads, or the test proves nothing"
    request = health_pb2.HealthCheckRequest(service=names.SERVICE)
    with (
        grpc.insecure_channel(target) as channel,
        Client(target) as client,
        ThreadPoolExecutor(WATCHES) as pool,
    ):
        watch = health_pb2_grpc.HealthStub(channel).Watch
        streams = [watch(request, timeout=60) for _ in range(WATCHES)]
        try:
            # Each stream is open on the server: it has sent its first status.
            first = list(pool.map(next, streams, timeout=15))
            started = time.perf_counter()
            answer = client.ask(QUESTION, timeout=5)
            took = time.perf_counter() - started
            assert all(s.is_active() for s in streams)  # still open while the Ask ran
        finally:
            for stream in streams:
                stream.cancel()
    assert [r.status for r in first] == [SERVING] * WATCHES
    assert answer.status == pb.ANSWER_STATUS_OK and answer.citations
    assert took < 5


# -- 2. every rpc of the vendored health.proto is answered --------------------------------
def test_health_list_returns_every_service_the_server_reports(start_edge):
    _, target = start_edge()
    with grpc.insecure_channel(target) as channel:
        reply = health_pb2_grpc.HealthStub(channel).List(health_pb2.HealthListRequest(), timeout=5)
    statuses = {name: r.status for name, r in reply.statuses.items()}
    assert statuses == {"": SERVING, names.SERVICE: SERVING}


def test_no_rpc_of_the_vendored_health_proto_is_unimplemented(start_edge, log, capfd):
    _, target = start_edge()
    rpcs = re.findall(
        r"^\s*rpc (\w+)\((\w+)\) returns \((stream )?\w+\)",
        (HEALTH_PROTO / "health.proto").read_text(),
        re.MULTILINE,
    )
    assert {name for name, _, _ in rpcs} >= {"Check", "Watch"}
    with grpc.insecure_channel(target) as channel:
        for name, _, streaming in rpcs:
            kind = "unary_stream" if streaming else "unary_unary"
            call = getattr(channel, kind)(f"/{health.SERVICE_NAME}/{name}")
            # An empty message is a valid request of every type (all fields default).
            reply = call(b"", timeout=5)
            first = next(reply) if streaming else reply
            if streaming:
                reply.cancel()
            assert isinstance(first, bytes), f"{name} answered nothing"
    assert_no_traceback(log, capfd)


# -- 3. bytes that are no request: INVALID_ARGUMENT, after the token check ----------------
def test_the_garbage_is_really_undecodable():
    for payload in GARBAGE.values():
        with pytest.raises(DecodeError):
            pb.AskRequest.FromString(payload)


@pytest.mark.parametrize("payload", GARBAGE.values(), ids=GARBAGE.keys())
def test_garbage_to_ask_is_invalid_argument_with_one_log_line_and_no_traceback(
    start_edge, log, capfd, payload
):
    _, target = start_edge()
    log.clear()
    with grpc.insecure_channel(target) as channel:
        error = raw_error(channel, names.method("Ask"), "unary_unary", payload)
        with Client(target) as client:  # and the server goes on
            assert client.ask(QUESTION).status == pb.ANSWER_STATUS_OK
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "ragcore.v1.AskRequest" in error.details() and "Traceback" not in error.details()
    lines = log.access()
    assert [(line["method"], line["status"]) for line in lines] == [
        (names.method("Ask"), "INVALID_ARGUMENT"),
        (names.method("Ask"), "OK"),
    ]
    assert_no_traceback(log, capfd)


def test_garbage_in_an_ingest_stream_is_invalid_argument_and_stores_nothing(start_edge, log, capfd):
    server, target = start_edge()
    before = counts(server)
    good = pb.IngestRequest(
        document=pb.Document(id="faq-ok", text="Oil the GX-9.", knowledge_base="faq")
    )
    log.clear()
    with grpc.insecure_channel(target) as channel:
        call = channel.stream_unary(names.method("Ingest"))
        with pytest.raises(grpc.RpcError) as caught:
            call(iter([good.SerializeToString(), TRUNCATED]), timeout=10)
    error = caught.value
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "ragcore.v1.IngestRequest" in error.details()
    assert [(x["method"], x["status"]) for x in log.access()] == [
        (names.method("Ingest"), "INVALID_ARGUMENT")
    ]
    assert counts(server) == before
    assert_no_traceback(log, capfd)


@pytest.mark.parametrize(
    ("method", "kind"),
    [
        (names.method("AskStream"), "unary_stream"),
        (f"/{health.SERVICE_NAME}/Check", "unary_unary"),
        (f"/{health.SERVICE_NAME}/Watch", "unary_stream"),
    ],
)
def test_garbage_to_other_kinds_of_rpc_is_invalid_argument_too(
    start_edge, log, capfd, method, kind
):
    _, target = start_edge()
    log.clear()
    with grpc.insecure_channel(target) as channel:
        error = raw_error(channel, method, kind, BAD_UTF8)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert [(x["method"], x["status"]) for x in log.access()] == [(method, "INVALID_ARGUMENT")]
    assert_no_traceback(log, capfd)


def test_garbage_without_a_token_is_unauthenticated_with_one(start_edge, tokens_file, log, capfd):
    _, target = start_edge(tokens_file=tokens_file)
    reader = (("authorization", f"Bearer {READER_TOKEN}"),)
    admin = (("authorization", f"Bearer {ADMIN_TOKEN}"),)
    log.clear()
    with grpc.insecure_channel(target) as channel:
        ask, ingest = names.method("Ask"), names.method("Ingest")
        codes = [
            raw_error(channel, ask, "unary_unary", RANDOM_BYTES).code(),
            raw_error(channel, ingest, "stream_unary", RANDOM_BYTES).code(),
            raw_error(channel, ask, "unary_unary", RANDOM_BYTES, reader).code(),
            raw_error(channel, ingest, "stream_unary", RANDOM_BYTES, reader).code(),
            raw_error(channel, ingest, "stream_unary", RANDOM_BYTES, admin).code(),
        ]
    assert [c.name for c in codes] == [
        "UNAUTHENTICATED",
        "UNAUTHENTICATED",
        "INVALID_ARGUMENT",
        "PERMISSION_DENIED",  # the token is checked before the request is read
        "INVALID_ARGUMENT",
    ]
    assert [x["status"] for x in log.access()] == [c.name for c in codes]
    assert_no_traceback(log, capfd)


# -- 4. the log: every refused call once, with its role; size refusals as such ------------
SMALL_LIMIT = 64 * 1024


def test_oversized_messages_are_resource_exhausted_logged_once_with_the_role(
    start_edge, tokens_file, log, capfd
):
    server, target = start_edge(tokens_file=tokens_file, max_message_bytes=SMALL_LIMIT)
    before = counts(server)
    big = pb.Document(id="big", text="word " * (SMALL_LIMIT // 4), knowledge_base="faq")
    log.clear()
    with Client(target, token=ADMIN_TOKEN) as admin, Client(target, token=READER_TOKEN) as reader:
        unary = code_of(lambda: reader.ask("why " * (SMALL_LIMIT // 3)))  # an oversized Ask
        stream = code_of(lambda: admin.ingest([big]))  # an oversized Ingest message
        assert reader.stats().documents == before[0]  # the server goes on
    for error in (unary, stream):
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert f"{SMALL_LIMIT:,}" in error.details()
        assert error_details(error)["ErrorInfo"].reason == "MESSAGE_TOO_LARGE"
    lines = [(x["method"], x["status"], x["role"]) for x in log.access()]
    assert lines == [
        (names.method("Ask"), "RESOURCE_EXHAUSTED", "reader"),
        (names.method("Ingest"), "RESOURCE_EXHAUSTED", "admin"),
        (names.method("GetStats"), "OK", "reader"),
    ]
    assert counts(server) == before
    assert_no_traceback(log, capfd)


def test_a_message_beyond_what_the_service_reads_is_refused_by_grpc_without_a_traceback(
    start_edge, log, capfd
):
    server, target = start_edge(max_message_bytes=SMALL_LIMIT)
    before = counts(server)
    huge = pb.Document(id="huge", text="word " * SMALL_LIMIT, knowledge_base="faq")  # 5x
    with Client(target) as client:
        error = code_of(lambda: client.ingest([huge]))
        assert client.stats().documents == before[0]
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED  # gRPC's own refusal
    assert counts(server) == before
    assert_no_traceback(log, capfd)


def test_every_refused_call_is_logged_once_with_its_role_or_anonymous(
    start_edge, tokens_file, log, capfd
):
    _, target = start_edge(tokens_file=tokens_file)
    log.clear()
    with Client(target) as nobody, Client(target, token="x" * 32) as stranger:
        code_of(lambda: nobody.ask(QUESTION))
        code_of(lambda: stranger.search("seal"))
    with Client(target, token=READER_TOKEN) as reader:
        code_of(lambda: reader.delete("manual-cp200-v1"))
        code_of(lambda: reader.search("seal", k=-1))
    lines = [(x["method"].rsplit("/", 1)[1], x["status"], x["role"]) for x in log.access()]
    assert lines == [
        ("Ask", "UNAUTHENTICATED", "anonymous"),
        ("Search", "UNAUTHENTICATED", "anonymous"),
        ("DeleteDocument", "PERMISSION_DENIED", "reader"),
        ("Search", "INVALID_ARGUMENT", "reader"),
    ]
    assert_no_traceback(log, capfd)


def code_of(call) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value


# -- 5. the service name: from the descriptor, in one module ------------------------------
def spelled_out(name: str) -> list[str]:
    """The edge_server modules (generated stubs aside) with ``name`` as a string literal."""
    package = Path(interceptors.__file__).parent
    return [
        path.name
        for path in package.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and name in node.value
        and "\n" not in node.value  # a docstring may name it
    ]


def test_the_service_name_comes_from_the_descriptor_and_is_shared(start_edge):
    assert pb.DESCRIPTOR.services_by_name["Ragcore"].full_name == names.SERVICE
    assert names.method("Ask") == "/ragcore.v1.Ragcore/Ask"
    with pytest.raises(KeyError):
        names.method("NoSuchRpc")
    assert client_module.SERVICE is server_module.SERVICE is interceptors.SERVICE is names.SERVICE
    assert not spelled_out(names.SERVICE), "derive it: from edge_server.names import SERVICE"
    _, target = start_edge()
    with Client(target) as client, grpc.insecure_channel(target) as channel:
        assert client.health() == "SERVING"  # the client's default is the server's name
        services = ProtoReflectionDescriptorDatabase(channel).get_services()
    assert names.SERVICE in services
