"""The HTTP API's translations, without a server: query strings and JSON bodies into
request messages (and the field named when they are wrong), gRPC codes into HTTP
statuses, RetryInfo into Retry-After, and the settings' checks."""

from __future__ import annotations

import socket

import grpc
import pytest
from google.rpc import code_pb2

from edge_server.config import ServerConfig
from edge_server.errors import Busy, InvalidField, MalformedRequest, status_message
from edge_server.http.messages import from_body, from_query, to_json
from edge_server.http.serving import _listen
from edge_server.http.statuses import HTTP_STATUS, http_status, retry_after
from edge_server.v1 import ragcore_pb2 as pb
from ragcore.errors import ConfigError


def test_query_parameters_fill_fields_nested_and_repeated_ones_too():
    query = [
        ("query", "seal"),
        ("k", "5"),
        ("mode", "SEARCH_MODE_KEYWORD"),
        ("filters.knowledge_bases", "manuals"),
        ("filters.knowledgeBases", "faq"),
        ("filters.exclude_superseded", "true"),
        ("filters.minAuthority", "3"),
    ]
    request = from_query(query, pb.SearchRequest())
    assert request == pb.SearchRequest(
        query="seal",
        k=5,
        mode=pb.SEARCH_MODE_KEYWORD,
        filters=pb.SearchFilters(
            knowledge_bases=["manuals", "faq"], exclude_superseded=True, min_authority=3
        ),
    )
    path = from_query([("include_text", "1")], pb.GetDocumentRequest(), {"document_id": "a/b"})
    assert path == pb.GetDocumentRequest(document_id="a/b", include_text=True)


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        ([("colour", "red")], "colour", "SearchRequest has no field 'colour'"),
        ([("filters.k", "1")], "filters.k", "SearchFilters has no field 'k'"),
        ([("k", "1"), ("k", "2")], "k", "given twice"),
        ([("filters", "x")], "filters", "is a message"),
        ([("filters.exclude_superseded", "yes")], "filters.exclude_superseded", "true or false"),
        ([("k", "many")], "k", "invalid literal"),
        ([("mode", "FAST")], "mode", "FAST"),
    ],
)
def test_a_bad_query_parameter_is_named(query, field, words):
    with pytest.raises(InvalidField) as refused:
        from_query(query, pb.SearchRequest())
    assert refused.value.field == field
    assert words in str(refused.value)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (b'{"question": 3}', "question"),
        (b'{"question": "q", "filters": {"minAuthority": "x"}}', "filters.min_authority"),
        (b'{"filters": {"knowledge_bases": "manuals"}}', "filters.knowledge_bases"),
        (b'{"filters": {"colour": 1}}', "filters.colour"),
        (b'{"include_trace": "yes"}', "include_trace"),
    ],
)
def test_a_body_field_of_the_wrong_kind_is_named(body, field):
    with pytest.raises(InvalidField) as refused:
        from_body(body, pb.AskRequest())
    assert refused.value.field == field


@pytest.mark.parametrize("body", [b"{oops", b"[1, 2]", b'"text"', b"\xff\xfe"])
def test_a_body_that_is_no_json_object_is_malformed(body):
    with pytest.raises(MalformedRequest, match="AskRequest"):
        from_body(body, pb.AskRequest())


def test_an_empty_body_is_the_empty_message_and_replies_print_every_field():
    assert from_body(b"  ", pb.GetStatsRequest()) == pb.GetStatsRequest()
    assert to_json(pb.Answer()).startswith('{"question": "", "status": "ANSWER_STATUS_UNSPECIFIED"')
    assert '"chunkId": "7"' in to_json(pb.Citation(chunk_id=7))  # 64-bit: a string


def test_every_grpc_code_has_its_http_status():
    assert {code.name: status for code, status in HTTP_STATUS.items()} == {
        "OK": 200,
        "INVALID_ARGUMENT": 400,
        "FAILED_PRECONDITION": 400,
        "OUT_OF_RANGE": 400,
        "UNAUTHENTICATED": 401,
        "PERMISSION_DENIED": 403,
        "NOT_FOUND": 404,
        "ALREADY_EXISTS": 409,
        "ABORTED": 409,
        "RESOURCE_EXHAUSTED": 429,
        "CANCELLED": 499,
        "UNIMPLEMENTED": 501,
        "UNAVAILABLE": 503,
        "DEADLINE_EXCEEDED": 504,
    }
    for code in (code_pb2.INTERNAL, code_pb2.UNKNOWN, code_pb2.DATA_LOSS):
        assert http_status(code) == 500
    assert http_status(grpc.StatusCode.NOT_FOUND.value[0]) == 404


def test_retry_info_becomes_retry_after_in_whole_seconds():
    busy = status_message(Busy("busy"), "r1")
    assert retry_after(busy) == "1"  # 0.2 s, rounded up: Retry-After has whole seconds
    assert retry_after(status_message(MalformedRequest("bad"), "r1")) is None


def test_the_http_settings_are_checked():
    for port in (-1, 65536, True, "8080"):
        with pytest.raises(ConfigError, match="http_port"):
            ServerConfig(http_port=port)
    for origin in ("panel.example", "https://panel.example/page", "ftp://x"):
        with pytest.raises(ConfigError, match="cors_origins"):
            ServerConfig(cors_origins=(origin,))
    config = ServerConfig(http_port=8080, cors_origins=["https://panel.example:8443", "*"])
    assert config.cors_origins == ("https://panel.example:8443", "*")
    assert config.http_address == "127.0.0.1:8080"
    assert ServerConfig(host="::1", http_port=0).http_address == "[::1]:0"


def test_an_http_port_in_use_is_a_clear_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(ConfigError, match="http_port.*in use"):
            _listen(ServerConfig(http_port=port))
