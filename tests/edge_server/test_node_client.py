"""The contract from another language: a Node.js client (tests/node/client.js, with
@grpc/grpc-js and @grpc/proto-loader) that has only the .proto files, against a live
server with bearer tokens.

The Node packages are installed by ``make test`` (``npm ci --prefix tests/node``); when
they are missing these tests fail rather than skip, so CI cannot pass without them.
"""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
from datetime import date
from pathlib import Path

import pytest

from ragcore.errors import DocumentNotFoundError

pytestmark = pytest.mark.integration

NODE_DIR = Path(__file__).resolve().parent / "node"
CLIENT = NODE_DIR / "client.js"
DOCUMENT_ID = "node-client-xv9-valve"  # the document client.js ingests
TIMEOUT = 120  # seconds for the whole client run; it sets a deadline on every call


@pytest.fixture
def tokens(tmp_path) -> dict[str, str]:
    """A tokens file with one reader and one admin token; returns the tokens and its path."""
    found = {"reader": secrets.token_urlsafe(24), "admin": secrets.token_urlsafe(24)}
    path = tmp_path / "tokens"
    path.write_text("".join(f"{role} {token}\n" for role, token in found.items()), "utf-8")
    return {**found, "file": str(path)}


def run_client(*args: str) -> dict:
    """Run client.js with ``args``; assert it succeeded and return its JSON line."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 18 or later to run the Node client test")
    if not (NODE_DIR / "node_modules" / "@grpc" / "grpc-js").is_dir():
        pytest.fail(
            "tests/node/node_modules is missing: run `make test` (which installs it) "
            "or `npm ci --prefix tests/node`"
        )
    done = subprocess.run(
        [node, str(CLIENT), *args], capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    assert done.returncode == 0, f"client.js exited {done.returncode}:\n{done.stderr}{done.stdout}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_node_client_asks_and_ingests_with_an_admin_token(start_edge, tokens):
    server, target = start_edge(tokens_file=tokens["file"])

    result = run_client(target, tokens["admin"])

    assert result["health"] == "SERVING"
    assert result["ask"]["status"] == "ANSWER_STATUS_OK" and result["ask"]["citations"] >= 1
    assert any("cp200" in doc for doc in result["ask"]["cited"])
    assert result["invalid_argument"]["code"] == 3 and result["invalid_argument"]["details"]
    assert result["ingest"] == {"document_id": DOCUMENT_ID, "added": 1, "chunks": 1}
    assert result["search"]["first"] == DOCUMENT_ID
    # The document really is in the store, with the metadata the Node client sent.
    info = server.engine.document(DOCUMENT_ID)
    assert (info.knowledge_base, info.title, info.doc_type, info.updated_at) == (
        "manuals",
        "XV-9 quench valve",
        "manual",
        date(2025, 6, 1),
    )
    assert info.metadata == {"written_by": "tests/node/client.js"}
    hits = server.engine.search("graphite paste on the quench valve stem", mode="keyword", k=1)
    assert [h.document_id for h in hits] == [DOCUMENT_ID]


def test_node_client_with_a_reader_token_is_refused_ingest(start_edge, tokens):
    server, target = start_edge(tokens_file=tokens["file"])

    result = run_client(target, tokens["reader"], "--reader")

    assert result["ask"]["status"] == "ANSWER_STATUS_OK"  # readers may ask
    assert result["ingest"]["code"] == 7, result["ingest"]  # PERMISSION_DENIED
    assert result["ingest"]["details"]
    with pytest.raises(DocumentNotFoundError):
        server.engine.document(DOCUMENT_ID)
