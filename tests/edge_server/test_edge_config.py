"""The service's configuration, tokens and status table, without a server."""

from __future__ import annotations

import grpc
import pytest

from edge_server import ServerConfig
from edge_server.auth import ADMIN, READER, Tokens, bearer_token
from edge_server.errors import STATUS_TABLE, status_for
from ragcore.errors import (
    ConfigError,
    DocumentNotFoundError,
    GenerationError,
    InvalidDocumentError,
    InvalidQueryError,
    KnowledgeBaseNotFoundError,
    ModelMismatchError,
    ModelNotFoundError,
    StoreError,
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


def test_no_tokens_means_authentication_is_off():
    assert not Tokens.load(None, environ={}).enabled


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("writer " + "x" * 20, "line 1"),
        ("reader", "line 1"),
        ("# ok\nreader short", "16"),
        ("admin " + "x" * 20 + " extra", "line 1"),
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
    ("error", "code"),
    [
        (InvalidQueryError("x"), grpc.StatusCode.INVALID_ARGUMENT),
        (InvalidDocumentError("d", "f", "p"), grpc.StatusCode.INVALID_ARGUMENT),
        (DocumentNotFoundError("x"), grpc.StatusCode.NOT_FOUND),
        (KnowledgeBaseNotFoundError("x"), grpc.StatusCode.NOT_FOUND),
        (ModelNotFoundError("x"), grpc.StatusCode.FAILED_PRECONDITION),
        (ModelMismatchError("x"), grpc.StatusCode.FAILED_PRECONDITION),
        (StoreError("x"), grpc.StatusCode.FAILED_PRECONDITION),
        (GenerationError("x"), grpc.StatusCode.UNAVAILABLE),
        (KeyError("a bug"), grpc.StatusCode.INTERNAL),
    ],
)
def test_status_table(error, code):
    assert status_for(error) is code


def test_status_table_never_maps_to_internal_or_unknown():
    assert all(
        code not in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN) for _, code in STATUS_TABLE
    )
