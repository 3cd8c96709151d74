"""The contract from another language: a Node.js client (node/client.js, with
@grpc/grpc-js, @grpc/proto-loader and protobufjs) that has only the .proto files calls
every rpc against a live server with four tokens (admin, reader, a reader scoped to
manuals, an admin scoped to faq) and reads the rich error details.

The Node packages are installed by ``make test`` (``npm ci --prefix tests/edge_server/node``);
when they are missing these tests fail rather than skip, so CI cannot pass without them.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
from pathlib import Path

import pytest

from ragcore.errors import DocumentNotFoundError

pytestmark = pytest.mark.integration

NODE_DIR = Path(__file__).resolve().parent / "node"
CLIENT = NODE_DIR / "client.js"
DOCUMENT_ID = "node-client-xv9-valve"  # the document client.js ingests (and deletes)
TIMEOUT = 180  # seconds for the whole client run; it sets a deadline on every call
MAX_MESSAGE_BYTES = 256 * 1024  # small, so that client.js can send a message over it


def run_client(target: str, tokens: dict[str, str]) -> dict:
    """Run client.js against ``target``; assert it succeeded and return its JSON line."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 18 or later to run the Node client test")
    if not (NODE_DIR / "node_modules" / "protobufjs").is_dir():
        pytest.fail(
            "tests/edge_server/node/node_modules is missing: run `make test` (which installs "
            "it) or `npm ci --prefix tests/edge_server/node`"
        )
    environment = {
        **os.environ,
        "RAGCORE_ADMIN_TOKEN": tokens["admin"],
        "RAGCORE_READER_TOKEN": tokens["reader"],
        "RAGCORE_SCOPED_READER_TOKEN": tokens["scoped_reader"],
        "RAGCORE_SCOPED_ADMIN_TOKEN": tokens["scoped_admin"],
    }
    done = subprocess.run(
        [node, str(CLIENT), target],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env=environment,
    )
    assert done.returncode == 0, f"client.js exited {done.returncode}:\n{done.stderr}{done.stdout}"
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.process
def test_node_client_calls_every_rpc_with_scoped_tokens_and_reads_rich_errors(start_edge, tmp_path):
    tokens = {name: secrets.token_urlsafe(24) for name in ("admin", "reader")}
    tokens |= {name: secrets.token_urlsafe(24) for name in ("scoped_reader", "scoped_admin")}
    path = tmp_path / "tokens"
    path.write_text(
        f"admin {tokens['admin']}\nreader {tokens['reader']}\n"
        f"reader {tokens['scoped_reader']} manuals\nadmin {tokens['scoped_admin']} faq\n",
        "utf-8",
    )
    server, target = start_edge(
        tokens_file=path, max_in_flight=1, workers=1, max_message_bytes=MAX_MESSAGE_BYTES
    )
    before = server.engine.stats()

    result = run_client(target, tokens)

    assert result["health"] == "SERVING"
    info = result["server_info"]
    assert info["limits"]["max_message_bytes"] == str(MAX_MESSAGE_BYTES)
    assert info["limits"]["max_in_flight"] == 1 and info["store"] == "sqlite-fts5+hnsw"
    assert result["ask"]["status"] == "ANSWER_STATUS_OK" and result["ask"]["citations"] >= 1
    assert any("cp200" in doc for doc in result["ask"]["cited"])
    assert {"perception", "plan", "retrieval", "draft", "validation", "result"} <= set(
        result["ask_stream"]["kinds"]
    )
    assert result["session"] == {
        "rewritten": "What does E4031 mean on the HP-400?",
        "streamed": "What does E4031 mean on the HP-500?",
        "cached": True,
        "ended": True,
    }
    assert result["ingest"]["document_id"] == DOCUMENT_ID and result["ingest"]["chunks"] >= 2
    assert result["search"]["first"] == DOCUMENT_ID
    assert result["search"]["start"] > 0
    assert result["get_document"]["text_chars"] > result["search"]["start"]
    assert result["list_documents"]["all"] == before.documents + 1
    assert "node-scratch" not in result["knowledge_bases"]
    assert result["tables"] == {
        "rows": 3,
        "unit": "kPa",
        "columns": ["gauge:COLUMN_TYPE_TEXT:true", "reading_kpa:COLUMN_TYPE_REAL:false"],
        "bad_row": {
            "field": "data",
            "metadata": result["tables"]["bad_row"]["metadata"]
            | {"file": "gauges.csv", "row": "2", "column": "reading_kpa"},
        },
    }
    assert [t.name for t in server.engine.list_tables()] == ["node_gauges"]
    assert result["reader"]["ingest_table"] == 7  # PERMISSION_DENIED
    errors = result["errors"]
    assert errors["negative_k"]["details"].startswith("k must be between 1 and 100, got -1")
    assert errors["bad_date"]["field"] == "filters.updated_after"
    assert errors["question_too_long"]["field"] == "question"
    assert errors["bad_document"]["field"] == "requests[1].document.updated_at"
    assert errors["bad_document"]["metadata"] | {"request_id": "x"} == {
        "document_index": "1",
        "document_id": "node-broken",
        "field": "updated_at",
        "request_id": "x",
    }
    assert errors["bad_file"]["field"] == "requests[1].file"
    assert errors["bad_file"]["file"] == "node-broken.md"
    assert "node-broken.md" in errors["bad_file"]["details"]
    assert errors["bad_page_token"]["field"] == "page_token"
    assert errors["too_large"]["limit_bytes"] == str(MAX_MESSAGE_BYTES)
    assert errors["busy"]["retry_delay_ms"] > 0
    assert result["reader"]["ingest"] == 7  # PERMISSION_DENIED
    scoped = result["scoped_reader"]
    manuals = next(kb for kb in server.engine.knowledge_bases() if kb.name == "manuals")
    assert scoped["documents"] == manuals.documents and scoped["ids_seen"] > 0
    assert all(server.engine.document(d).knowledge_base == "manuals" for d in scoped["cited"])
    assert result["scoped_admin"]["documents"] == before.documents
    # What the Node client added it also removed; the rejected writes stored nothing.
    after = server.engine.stats()
    assert (after.documents, after.chunks, after.vectors) == (
        before.documents,
        before.chunks,
        before.vectors,
    )
    for document_id in (DOCUMENT_ID, "node-good", "node-broken", "node-huge", "node-scoped-out"):
        with pytest.raises(DocumentNotFoundError):
            server.engine.document(document_id)
