"""``python -m edge_server`` as a real process: SIGTERM drains, SIGINT stops, access log.

The process answers with a stand-in LLM: a loopback HTTP server in the test that, like a
faithful model, answers with the context sentence that best matches the question, cited
by its passage number; it takes ``LLM_DELAY`` seconds, so an Ask is in flight long
enough to send a signal in the middle of it. The process loads its models itself (a
few seconds). Every wait has a timeout, and the process is killed at teardown.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import grpc
import pytest
from conftest import wait_for_port

from edge_server.client import Client
from edge_server.v1 import ragcore_pb2 as pb
from ragcore.agents.generation.llm import NO_ANSWER_TEXT

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "What torque for the HP-400 platen bolts?"
TOKEN = "process-test-reader-token-0123456789"
GRACE = 10.0
LLM_DELAY = 1.5
STARTUP_SECONDS = 90.0
ASK = "/ragcore.v1.Ragcore/Ask"


# -- the stand-in LLM ---------------------------------------------------------------------
_PASSAGE = re.compile(r"^\[(\d+)\] \((.*), (\d{4}-\d\d-\d\d|undated)\) ", re.MULTILINE)
_WORD = re.compile(r"[a-z0-9][a-z0-9-]*")
_STOP = frozenset(
    {"a", "an", "and", "are", "be", "do", "does", "for", "how", "i", "is", "of", "on"}
    | {"should", "the", "to", "what", "when", "which"}
)


def _stems(text: str) -> set[str]:
    return {w[:4] for w in _WORD.findall(text.lower()) if w not in _STOP}


def cited_answer(user_message: str) -> str:
    """The context sentence sharing most words with the question (the newest passage's
    on a tie), cited by its passage number; the no-answer sentence if none shares any."""
    context, _, question = user_message.rpartition("\n\nQuestion: ")
    wanted = _stems(question)
    marks = list(_PASSAGE.finditer(context))
    best = (0, "", "", "")  # (shared words, date, passage number, sentence)
    for mark, following in zip(marks, marks[1:] + [None]):
        number, dated = mark.group(1), mark.group(3).replace("undated", "")
        body = context[mark.end() : following.start() if following else len(context)]
        for line in body.splitlines():
            if line.startswith("#"):  # a heading, not a statement
                continue
            for sentence in re.split(r"(?<=\.)\s+", line.strip()):
                candidate = (len(wanted & _stems(sentence)), dated, number, sentence)
                if candidate[0] and candidate[:2] > best[:2]:
                    best = candidate
    shared, _, number, sentence = best
    if not shared:
        return NO_ANSWER_TEXT
    return f"{sentence.rstrip('.')} [{number}]."


@dataclass
class StandInLLM:
    """Records what it was asked; ``received`` is set when a request arrives. Each answer
    takes at least ``LLM_DELAY`` s, and lasts until ``release`` is set (at most GRACE s)."""

    url: str = ""
    received: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    replies: list[str] = field(default_factory=list)


@pytest.fixture
def stand_in_llm():
    llm = StandInLLM()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            llm.received.set()
            reply = cited_answer(request["messages"][-1]["content"])
            llm.replies.append(reply)
            time.sleep(LLM_DELAY)
            llm.release.wait(GRACE)  # the test lets it finish (never longer than GRACE)
            body = json.dumps({"choices": [{"message": {"content": reply}}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    llm.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    yield llm
    llm.release.set()
    server.shutdown()
    server.server_close()
    thread.join(10)


# -- the process --------------------------------------------------------------------------
@dataclass
class EdgeProcess:
    process: subprocess.Popen
    target: str
    stderr: Path

    def log(self) -> str:
        return self.stderr.read_text("utf-8", "replace")

    def access_lines(self) -> list[dict]:
        return [json.loads(line) for line in self.log().splitlines() if line.startswith("{")]


@pytest.fixture
def edge_process(tmp_path, sample_data_template, stand_in_llm):
    """The service as ``python -m edge_server`` on a copy of the sample KB, SERVING.

    ``--port 0`` lets the process pick a free port (no race with other processes for a
    port chosen beforehand); the port is read from its "listening on" log line."""
    data = tmp_path / "data"
    shutil.copytree(sample_data_template, data)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("RAGCORE_ADMIN_TOKENS", "RAGCORE_LLM_API_KEY", "RAGCORE_DATA_DIR")
    }
    env["RAGCORE_READER_TOKENS"] = TOKEN
    stderr = tmp_path / "stderr.log"
    command = [
        sys.executable,
        "-m",
        "edge_server",
        "--data-dir",
        str(data),
        "--port",
        "0",
        "--grace",
        str(GRACE),
        "--llm-url",
        stand_in_llm.url,
        "--llm-model",
        "stand-in",
    ]
    with stderr.open("wb") as sink:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=sink, stderr=sink
        )
    try:
        edge = EdgeProcess(process, wait_for_port(process, stderr, STARTUP_SECONDS), stderr)
        with Client(edge.target, token=TOKEN) as client:
            client.wait_until_serving(timeout=STARTUP_SECONDS)
        yield edge
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(30)


def ask(client: Client, request_id: str, timeout: float = 30.0) -> pb.Answer:
    """An Ask with our own request id, to find its access-log line."""
    metadata = (("authorization", f"Bearer {TOKEN}"), ("x-request-id", request_id))
    return client.stub.Ask(pb.AskRequest(question=QUESTION), timeout=timeout, metadata=metadata)


def wait_until_draining(client: Client, timeout: float = 10.0) -> None:
    """Until health is no longer SERVING (NOT_SERVING, or the port already closed; a
    probe that reached a process with nothing in flight may be cut off by its listener
    closing, CANCELLED)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if client.health(timeout=2) != "SERVING":
                return
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
                continue  # a probe sent as its connection got GOAWAY may go unanswered: again
            assert error.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED), error
            return
        time.sleep(0.05)
    pytest.fail(f"the server still said SERVING {timeout:.0f} s after the signal")


# -- tests --------------------------------------------------------------------------------
def test_sigterm_finishes_the_request_in_flight_and_refuses_new_ones(edge_process, stand_in_llm):
    edge = edge_process
    outcome: dict[str, object] = {}

    def in_flight() -> None:
        try:
            with Client(edge.target) as client:
                outcome["answer"] = ask(client, "in-flight-ask")
        except grpc.RpcError as error:
            outcome["error"] = error

    thread = threading.Thread(target=in_flight, daemon=True)
    thread.start()
    assert stand_in_llm.received.wait(30), "the Ask never reached the LLM"

    signalled = time.monotonic()
    edge.process.send_signal(signal.SIGTERM)
    with Client(edge.target) as late:
        wait_until_draining(late)
        with pytest.raises(grpc.RpcError) as refused:
            ask(late, "late-ask", timeout=10)
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE, refused.value.details()
    assert thread.is_alive(), "the first Ask was to be still in flight"
    stand_in_llm.release.set()

    thread.join(GRACE + 5)
    assert not thread.is_alive(), "the in-flight Ask did not finish"
    assert "error" not in outcome, outcome.get("error")
    answer = outcome["answer"]
    assert answer.status == pb.ANSWER_STATUS_OK, answer.text
    assert answer.generator == "openai-compatible"
    assert answer.text == stand_in_llm.replies[-1]
    assert "52 N·m" in answer.text and answer.citations

    code = edge.process.wait(GRACE + 20)
    took = time.monotonic() - signalled
    log = edge.log()
    assert code == 0, log
    assert took < GRACE, f"exit {took:.1f} s after SIGTERM; grace is {GRACE:.0f} s\n{log}"

    # One JSON line per request that reached the service. A refusal after SIGTERM may come
    # from gRPC itself (the port is closed), which the service never sees; if it did see
    # it, its line says UNAVAILABLE.
    lines = edge.access_lines()
    for line in lines:
        assert {"method", "status", "ms", "request_id"} <= line.keys(), line
        assert isinstance(line["ms"], int | float)
    by_id = {line["request_id"]: line for line in lines}
    assert len(by_id) == len(lines), lines
    assert set(by_id) <= {"in-flight-ask", "late-ask"}, lines
    first = by_id["in-flight-ask"]
    assert (first["method"], first["status"], first["role"]) == (ASK, "OK", "reader")
    assert first["ms"] >= LLM_DELAY * 1000
    if "late-ask" in by_id:
        assert (by_id["late-ask"]["method"], by_id["late-ask"]["status"]) == (ASK, "UNAVAILABLE")

    # Neither the question, nor document text, nor the token reaches the log.
    assert TOKEN not in log
    assert QUESTION not in log
    for text in (answer.text.rstrip("."), "Tighten the platen bolts", "52 N·m"):
        assert text not in log


def test_sigint_on_an_idle_server_exits_at_once(edge_process, stand_in_llm):
    signalled = time.monotonic()
    edge_process.process.send_signal(signal.SIGINT)
    code = edge_process.process.wait(GRACE + 20)
    took = time.monotonic() - signalled
    assert code == 0, edge_process.log()
    # Not the grace period (nothing to drain); under load stopping has taken 5.6 s.
    assert took < GRACE, f"an idle server took {took:.1f} s to stop"
    assert not stand_in_llm.received.is_set()
    assert edge_process.access_lines() == []
