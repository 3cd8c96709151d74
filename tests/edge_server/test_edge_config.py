"""The service's configuration, tokens and status table, without a server."""

from __future__ import annotations

import re

import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from edge_server import ServerConfig
from edge_server.auth import ADMIN, READER, Access, Tokens, bearer_token
from edge_server.errors import (
    DOMAIN,
    INTERNAL,
    STATUS_TABLE,
    AdminRequired,
    Busy,
    InvalidField,
    InvalidIngestDocument,
    MessageTooLarge,
    NotReady,
    ShuttingDown,
    TokenMissing,
    outcome_for,
    rich_status,
    status_for,
)
from ragcore.errors import (
    ConfigError,
    DocumentNotFoundError,
    GenerationError,
    InvalidDocumentError,
    InvalidQueryError,
    KnowledgeBaseNotFoundError,
    ModelMismatchError,
    ModelNotFoundError,
    ScopeError,
    StoreError,
    StoreUnavailableError,
)

READER_TOKEN = "r" * 20
ADMIN_TOKEN = "a" * 20


def test_tokens_file_and_environment(tmp_path):
    path = tmp_path / "tokens"
    path.write_text(f"# comment\n\nreader {READER_TOKEN}\nadmin   {ADMIN_TOKEN}\n")
    tokens = Tokens.load(path, environ={"RAGCORE_READER_TOKENS": "e" * 16 + ", " + "f" * 16})
    assert tokens.enabled
    assert tokens.role_of(READER_TOKEN) == READER
    assert tokens.role_of(ADMIN_TOKEN) == ADMIN
    assert tokens.role_of("f" * 16) == READER
    assert tokens.role_of(READER_TOKEN[:-1]) is None and tokens.role_of("") is None
    assert READER_TOKEN not in repr(tokens)  # only digests are kept


def test_scoped_tokens_from_the_file_and_the_environment(tmp_path):
    path = tmp_path / "tokens"
    path.write_text(f"reader {READER_TOKEN} manuals,faq\nadmin {ADMIN_TOKEN}  line-4\n")
    environ = {"RAGCORE_READER_TOKENS": "e" * 16 + "@manuals+regulations, " + "f" * 16}
    tokens = Tokens.load(path, environ=environ)
    assert tokens.access_of(READER_TOKEN) == Access(READER, frozenset({"manuals", "faq"}))
    assert tokens.access_of(ADMIN_TOKEN) == Access(ADMIN, frozenset({"line-4"}))
    assert tokens.access_of("e" * 16) == Access(READER, frozenset({"manuals", "regulations"}))
    assert tokens.access_of("f" * 16) == Access(READER, None)  # every knowledge base
    assert tokens.access_of("e" * 16 + "@manuals+regulations") is None  # the scope is no token
    assert tokens.access_of(READER_TOKEN).scope_names == ["faq", "manuals"]


@pytest.mark.parametrize(
    ("text", "environ", "problem"),
    [
        (f"reader {READER_TOKEN} Manuals", {}, "knowledge base 1 of the scope"),
        (f"reader {READER_TOKEN} faq,,manuals", {}, "knowledge base 2 of the scope"),
        ("", {"RAGCORE_ADMIN_TOKENS": ADMIN_TOKEN + "@"}, "knowledge base 1"),
        (f"reader {READER_TOKEN}\nadmin {READER_TOKEN}", {}, "also listed at .*line 1"),
        (f"reader {READER_TOKEN}", {"RAGCORE_ADMIN_TOKENS": READER_TOKEN}, "list each token once"),
    ],
)
def test_a_bad_scope_or_a_token_listed_twice_is_refused_without_quoting_it(
    tmp_path, text, environ, problem
):
    path = tmp_path / "tokens"
    path.write_text(text)
    with pytest.raises(ConfigError, match=problem) as caught:
        Tokens.load(path, environ=environ)
    assert READER_TOKEN not in str(caught.value) and ADMIN_TOKEN not in str(caught.value)
    assert "Manuals" not in str(caught.value)  # a token in the wrong column stays unquoted


def test_no_tokens_means_authentication_is_off():
    assert not Tokens.load(None, environ={}).enabled


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("writer " + "x" * 20, "line 1"),
        ("reader", "line 1"),
        ("# ok\nreader short", "16"),
        ("admin " + "x" * 20 + " faq extra", "line 1"),
    ],
)
def test_a_bad_tokens_file_names_the_line_and_never_the_token(tmp_path, text, problem):
    path = tmp_path / "tokens"
    path.write_text(text)
    with pytest.raises(ConfigError, match=problem) as caught:
        Tokens.load(path, environ={})
    assert "x" * 20 not in str(caught.value) and "short" not in str(caught.value)


def test_a_short_token_in_the_environment_is_refused():
    with pytest.raises(ConfigError, match=r"\$RAGCORE_ADMIN_TOKENS"):
        Tokens.load(None, environ={"RAGCORE_ADMIN_TOKENS": "secret"})


@pytest.mark.parametrize(
    ("header", "token"),
    [
        ("Bearer abc", "abc"),
        ("bearer  abc ", "abc"),
        ("Basic abc", None),
        ("Bearer", None),
        ("", None),
    ],
)
def test_bearer_token(header, token):
    assert bearer_token({"authorization": header} if header else {}) == token


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"port": 70000}, "port"),
        ({"port": -1}, "port"),
        ({"max_in_flight": 0}, "max_in_flight"),
        ({"workers": 0}, "workers"),
        ({"workers": 8, "max_in_flight": 4}, "workers"),
        ({"max_message_bytes": 0}, "max_message_bytes"),
        ({"grace_seconds": -1}, "grace_seconds"),
        ({"tokens_file": "/no/such/tokens"}, "tokens_file"),
    ],
)
def test_bad_server_config_names_the_field(settings, field):
    with pytest.raises(ConfigError, match=field):
        ServerConfig(**settings)


def test_tls_needs_both_files_and_mtls_needs_tls(tmp_path):
    cert = tmp_path / "cert.pem"
    cert.write_text("x")
    with pytest.raises(ConfigError, match="tls_key"):
        ServerConfig(tls_cert=cert)
    with pytest.raises(ConfigError, match="tls_client_ca"):
        ServerConfig(tls_client_ca=cert)


def test_ipv6_address():
    assert ServerConfig(host="::1", port=5).address == "[::1]:5"


@pytest.mark.parametrize(
    ("error", "code", "reason"),
    [
        (InvalidQueryError("x"), grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD"),
        (InvalidField("k", "x"), grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD"),
        (InvalidDocumentError("d", "f", "p"), grpc.StatusCode.INVALID_ARGUMENT, "INVALID_DOCUMENT"),
        (DocumentNotFoundError("x"), grpc.StatusCode.NOT_FOUND, "DOCUMENT_NOT_FOUND"),
        (KnowledgeBaseNotFoundError("x"), grpc.StatusCode.NOT_FOUND, "KNOWLEDGE_BASE_NOT_FOUND"),
        (ModelNotFoundError("x"), grpc.StatusCode.FAILED_PRECONDITION, "MODEL_UNAVAILABLE"),
        (ModelMismatchError("x"), grpc.StatusCode.FAILED_PRECONDITION, "MODEL_UNAVAILABLE"),
        (StoreError("x"), grpc.StatusCode.FAILED_PRECONDITION, "STORE_UNUSABLE"),
        (StoreUnavailableError("x"), grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE"),
        (GenerationError("x"), grpc.StatusCode.UNAVAILABLE, "GENERATOR_UNAVAILABLE"),
        (ScopeError("x"), grpc.StatusCode.PERMISSION_DENIED, "OUTSIDE_SCOPE"),
        (AdminRequired("x"), grpc.StatusCode.PERMISSION_DENIED, "ADMIN_REQUIRED"),
        (TokenMissing("x"), grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING"),
        (MessageTooLarge(10, 5), grpc.StatusCode.RESOURCE_EXHAUSTED, "MESSAGE_TOO_LARGE"),
        (KeyError("a bug"), grpc.StatusCode.INTERNAL, "INTERNAL"),
    ],
)
def test_status_table(error, code, reason):
    assert status_for(error) is code
    assert outcome_for(error).reason == reason


def test_status_table_never_maps_to_internal_or_unknown_and_reasons_are_stable_codes():
    outcomes = [outcome for _, outcome in STATUS_TABLE]
    assert all(o.code not in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN) for o in outcomes)
    reasons = [o.reason for o in outcomes] + [INTERNAL.reason]
    assert len(set(reasons)) == len(reasons)
    assert all(r.isupper() and r.replace("_", "").isalpha() and len(r) <= 63 for r in reasons)


def test_every_reason_and_its_code_are_listed_in_the_proto():
    from edge_server import codegen

    text = (codegen.PROTO_DIR / "ragcore.proto").read_text()
    lines = text[text.index("// Reasons, by code:") : text.index("// A message over")].splitlines()
    for _, outcome in (*STATUS_TABLE, (None, INTERNAL)):
        index = next(i for i, line in enumerate(lines) if re.search(rf"\b{outcome.reason}\b", line))
        # The line that starts the code's list: "//   CODE   REASON, ..." (continuations
        # are indented further).
        heading = next(row for row in reversed(lines[: index + 1]) if row[5:6] != " ")
        assert heading.split()[1] == outcome.code.name, (outcome, heading)


def unpack(status: grpc.Status) -> tuple[status_pb2.Status, dict]:
    """The google.rpc.Status a grpc.Status carries in its trailer, and its details by kind."""
    ((key, value),) = status.trailing_metadata
    assert key == "grpc-status-details-bin"
    rich = status_pb2.Status.FromString(value)
    details = {}
    for any_ in rich.details:
        for kind in (
            error_details_pb2.ErrorInfo,
            error_details_pb2.BadRequest,
            error_details_pb2.RetryInfo,
        ):
            if any_.Is(kind.DESCRIPTOR):
                message = kind()
                any_.Unpack(message)
                details[kind.DESCRIPTOR.name] = message
    return rich, details


def test_rich_status_of_a_bad_document_names_its_place_id_and_field():
    error = InvalidIngestDocument(
        InvalidDocumentError("document #3 (id 'x9')", "updated_at", "not a date"), 2, "x9"
    )
    status = rich_status(error, "req-1")
    rich, details = unpack(status)
    assert status.code is grpc.StatusCode.INVALID_ARGUMENT and rich.code == 3
    assert rich.message == status.details == str(error)
    assert details["ErrorInfo"].domain == DOMAIN == "ragcore.v1"
    assert details["ErrorInfo"].reason == "INVALID_DOCUMENT"
    assert dict(details["ErrorInfo"].metadata) == {
        "request_id": "req-1",
        "document_index": "2",
        "document_id": "x9",
        "field": "updated_at",
    }
    (violation,) = details["BadRequest"].field_violations
    assert violation.field == "requests[2].document.updated_at"
    assert violation.description == str(error)
    assert "RetryInfo" not in details


@pytest.mark.parametrize(
    ("error", "delay_ms"),
    [
        (Busy("busy"), 200),
        (NotReady("loading"), 2000),
        (ShuttingDown("draining"), 1000),
        (GenerationError("the LLM timed out"), 5000),
        (MessageTooLarge(10, 5), None),  # retrying the same message cannot help
        (DocumentNotFoundError("x"), None),
    ],
)
def test_retry_info_where_waiting_helps(error, delay_ms):
    _, details = unpack(rich_status(error))
    if delay_ms is None:
        assert "RetryInfo" not in details
    else:
        assert details["RetryInfo"].retry_delay.ToMilliseconds() == delay_ms
    assert "BadRequest" not in details and details["ErrorInfo"].reason


def test_an_internal_error_says_nothing_of_itself():
    status = rich_status(KeyError("secret detail"), "req-9")
    rich, details = unpack(status)
    assert status.code is grpc.StatusCode.INTERNAL
    assert "secret" not in rich.message and "req-9" in rich.message
    assert details["ErrorInfo"].reason == "INTERNAL"
