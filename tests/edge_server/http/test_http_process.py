"""``ragcore serve --http-port`` as a real process: with ``--processes 2`` both children
serve the HTTP API on the one port the parent picked (SO_REUSEPORT), each request
reaches one of them through its own gRPC service, and SIGTERM drains both.

Which child answered is read from the access log (each line carries its pid), matched
to the request by its X-Request-Id; each request opens its own connection, so the
kernel's hashing spreads them. Every wait has a timeout; the processes are killed at
teardown.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest

pytestmark = [pytest.mark.integration, pytest.mark.process, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[3]
STARTUP_SECONDS = 120.0


def _log(stderr: Path) -> str:
    return stderr.read_text("utf-8", "replace")


def _wait(process: subprocess.Popen, stderr: Path, what: str, ready) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if ready():
            return
        if process.poll() is not None:
            pytest.fail(f"the server exited with {process.returncode}:\n{_log(stderr)}")
        time.sleep(0.1)
    pytest.fail(f"{what} did not happen within {STARTUP_SECONDS:.0f} s:\n{_log(stderr)}")


def test_every_child_of_processes_2_serves_the_http_api_on_one_port(tmp_path, sample_data_template):
    data = tmp_path / "data"
    shutil.copytree(sample_data_template, data)
    stderr = tmp_path / "stderr.log"
    command = [sys.executable, "-m", "edge_server", "--data-dir", str(data), "--port", "0"]
    command += ["--http-port", "0", "--processes", "2", "--grace", "2"]
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in ("RAGCORE_ADMIN_TOKENS", "RAGCORE_READER_TOKENS", "RAGCORE_DATA_DIR")
    }
    with stderr.open("wb") as sink:
        process = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdin=subprocess.DEVNULL, stdout=sink, stderr=sink
        )
    try:
        serving = re.compile(r"\[(\d+)\] INFO edge_server\.server: serving")
        _wait(
            process,
            stderr,
            "both children serving",
            lambda: len(serving.findall(_log(stderr))) == 2,
        )
        ports = set(re.findall(r"http on http://127\.0\.0\.1:(\d+)/", _log(stderr)))
        assert len(ports) == 1, _log(stderr)  # one port, shared
        base = f"http://127.0.0.1:{ports.pop()}"

        answered: dict[str, dict] = {}
        for _ in range(60):
            request_id = uuid.uuid4().hex[:16]
            with httpx.Client(base_url=base, timeout=30) as http:  # a new connection each
                headers = {"x-request-id": request_id}
                reply = http.get("/v1/search", params={"query": "seal", "k": 2}, headers=headers)
            assert reply.status_code == 200 and reply.json()["hits"]
            answered[request_id] = reply.json()
            lines = [json.loads(x) for x in _log(stderr).splitlines() if x.startswith("{")]
            pids = {line["pid"] for line in lines if line["request_id"] in answered}
            if len(pids) == 2:
                break
        assert len(pids) == 2, "every request reached the same child"
        assert all(line["peer"].startswith("http:127.0.0.1:") for line in lines)
        hits = {tuple(h["chunkId"] for h in r["hits"]) for r in answered.values()}
        assert len(hits) == 1  # the same hits from either child

        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0, _log(stderr)
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"{base}/v1/health", timeout=5)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)
        for pid in re.findall(r"process \d+ started \(pid (\d+)\)", _log(stderr)):
            with contextlib.suppress(OSError):
                if b"edge_server" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    os.kill(int(pid), signal.SIGKILL)
