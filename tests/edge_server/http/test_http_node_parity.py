"""Parity of the two doors, from another language: node/client.js (gRPC) and then
node/http_client.js (the same calls with Node's fetch over the JSON/HTTP API) against one
server with four tokens; both must see the same answers, errors and limits.

The Node packages (for client.js) are installed by ``make test``; when node or they are
missing these tests fail rather than skip.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.process]

NODE_DIR = Path(__file__).resolve().parent.parent / "node"
TIMEOUT = 180
MAX_MESSAGE_BYTES = 256 * 1024


def run_node(script: str, target: str, tokens: dict[str, str]) -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node.js 20 or later to run the Node tests")
    environment = os.environ | {f"RAGCORE_{k.upper()}_TOKEN": v for k, v in tokens.items()}
    done = subprocess.run(
        [node, str(NODE_DIR / script), target],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env=environment,
    )
    assert done.returncode == 0, f"{script} exited {done.returncode}:\n{done.stderr}{done.stdout}"
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_the_node_clients_see_the_same_over_grpc_and_http(start_edge, tmp_path):
    if not (NODE_DIR / "node_modules" / "protobufjs").is_dir():
        pytest.fail("tests/edge_server/node/node_modules is missing: run `make test`")
    tokens = {name: secrets.token_urlsafe(24) for name in ("admin", "reader")}
    tokens |= {name: secrets.token_urlsafe(24) for name in ("scoped_reader", "scoped_admin")}
    path = tmp_path / "tokens"
    path.write_text(
        f"admin {tokens['admin']}\nreader {tokens['reader']}\n"
        f"reader {tokens['scoped_reader']} manuals\nadmin {tokens['scoped_admin']} faq\n",
        "utf-8",
    )
    server, target = start_edge(
        tokens_file=path,
        max_in_flight=1,
        workers=1,
        max_message_bytes=MAX_MESSAGE_BYTES,
        http_port=0,
    )
    # client.js lists what changed since 2 s before its ingest, and expects fewer documents
    # than in all: the sample ones, stored when the session began, must be older than that.
    newest = max(d.ingested_at for d in server.engine.list_documents(page_size=1000).documents)
    time.sleep(max(0.0, 3.0 - (datetime.now(UTC) - newest).total_seconds()))
    over_grpc = run_node("client.js", target, tokens)
    over_http = run_node("http_client.js", f"http://127.0.0.1:{server.http_port}", tokens)

    assert over_http["health"] == over_grpc["health"] == "SERVING"
    grpc_info, http_info = over_grpc["server_info"], over_http["server_info"]
    assert {k: str(v) for k, v in grpc_info["limits"].items()} == http_info["limits"]
    assert (http_info["store"], http_info["embedder"]) == (
        grpc_info["store"],
        grpc_info["embedder"],
    )
    assert over_http["ask"] == over_grpc["ask"]
    assert over_http["ask"]["status"] == "ANSWER_STATUS_OK"
    assert over_http["ask_stream"]["kinds"] == over_grpc["ask_stream"]["kinds"]
    assert over_http["ask_stream"]["status"] == over_grpc["ask_stream"]["status"]
    assert over_http["session"] == over_grpc["session"]
    assert over_http["ingest"] == over_grpc["ingest"]
    assert over_http["search"] == over_grpc["search"]
    assert over_http["list_documents"]["all"] == over_grpc["list_documents"]["all"]
    assert over_http["tables"]["rows"] == over_grpc["tables"]["rows"] == 3
    assert over_http["tables"]["unit"] == over_grpc["tables"]["unit"]
    assert over_http["tables"]["columns"] == over_grpc["tables"]["columns"]
    assert over_http["tables"]["bad_row"]["field"] == over_grpc["tables"]["bad_row"]["field"]
    without_id = lambda m: {k: v for k, v in m.items() if k != "request_id"}  # noqa: E731
    assert without_id(over_http["tables"]["bad_row"]["metadata"]) == without_id(
        over_grpc["tables"]["bad_row"]["metadata"]
    )
    grpc_errors, http_errors = over_grpc["errors"], over_http["errors"]
    for name in ("negative_k", "bad_date", "question_too_long", "bad_page_token", "too_large"):
        assert http_errors[name] == grpc_errors[name], name
    assert http_errors["not_found"] == grpc_errors["not_found"]
    assert http_errors["bad_file"] == grpc_errors["bad_file"]
    assert http_errors["bad_document"]["field"] == grpc_errors["bad_document"]["field"]
    assert without_id(http_errors["bad_document"]["metadata"]) == without_id(
        grpc_errors["bad_document"]["metadata"]
    )
    assert http_errors["busy"]["retry_delay_ms"] == grpc_errors["busy"]["retry_delay_ms"] > 0
    assert over_http["reader"] == over_grpc["reader"]
    assert over_http["scoped_reader"]["documents"] == over_grpc["scoped_reader"]["documents"]
    assert over_http["scoped_reader"]["outside"] == 7
    assert server.engine.stats().documents == over_grpc["list_documents"]["all"] - 1
