"""``ragcore serve --processes 2`` as real processes: one port, two children with their own
engines; 4 clients' connections are split 2/2; an ingest through one is found through
both; a child killed -9 is restarted while the service keeps answering; SIGTERM drains
both and the parent exits 0.

Which child answered is read from the access log (each line carries its pid), matched to
the call by its x-request-id. The parent hands each new connection to the child holding
the fewest, so one-call connections alternate. Every wait has a timeout, and every
process is killed at teardown.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from test_edge_process import LLM_DELAY, QUESTION, StandInLLM, stand_in_llm  # noqa: F401
from test_edge_tls import pki  # noqa: F401 (the fixture)

from edge_server.client import Client
from edge_server.supervisor import Backoff, Supervisor
from edge_server.v1 import ragcore_pb2 as pb

pytestmark = [pytest.mark.integration, pytest.mark.process, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
GRACE = 10.0
STARTUP_SECONDS = 120.0
VALVE = pb.Document(
    id="valve-gv10",
    knowledge_base="manuals",
    title="GV-10 gate valve",
    text="The GV-10 gate valve closes in 14 turns. Grease the GV-10 stem every 500 cycles.",
)
SEARCH = "/ragcore.v1.Ragcore/Search"


@dataclass
class Cluster:
    process: subprocess.Popen
    target: str
    stderr: Path

    def log(self) -> str:
        return self.stderr.read_text("utf-8", "replace")

    def children(self) -> dict[int, int]:
        """Process index -> its latest pid, from the parent's log."""
        found = re.findall(r"process (\d+) started \(pid (\d+)\)", self.log())
        return {int(index): int(pid) for index, pid in found}

    def serving_pids(self) -> set[int]:
        """The pids that have said they are serving."""
        return {
            int(p) for p in re.findall(r"\[(\d+)\] INFO edge_server\.server: serving", self.log())
        }

    def pid_of(self) -> dict[str, int]:
        """Request id -> the pid whose access line it is."""
        lines = [json.loads(line) for line in self.log().splitlines() if line.startswith("{")]
        return {line["request_id"]: line["pid"] for line in lines}

    def wait_for(self, what: str, ready, timeout: float = STARTUP_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if ready():
                return
            if self.process.poll() is not None:
                pytest.fail(f"the parent exited with {self.process.returncode}:\n{self.log()}")
            time.sleep(0.1)
        pytest.fail(f"{what} did not happen within {timeout:.0f} s:\n{self.log()}")


def _command(data: Path, port: str, *more: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "edge_server",
        "--data-dir",
        str(data),
        "--port",
        port,
        "--grace",
        str(GRACE),
        *more,
    ]


def _clean_env() -> dict[str, str]:
    """No tokens (every caller may ingest), no key, no data directory from outside."""
    drop = ("RAGCORE_ADMIN_TOKENS", "RAGCORE_READER_TOKENS", "RAGCORE_LLM_API_KEY")
    return {k: v for k, v in os.environ.items() if k not in (*drop, "RAGCORE_DATA_DIR")}


@contextlib.contextmanager
def running(tmp_path: Path, sample_data_template: Path, *more: str) -> Iterator[Cluster]:
    """``--processes 2`` on a copy of the sample data, with ``more`` options, until both
    children serve; killed (with any child left behind) at the end."""
    data = tmp_path / "data"
    shutil.copytree(sample_data_template, data)
    stderr = tmp_path / "stderr.log"
    command = _command(data, "0", "--processes", "2", *more)
    with stderr.open("wb") as sink:
        process = subprocess.Popen(
            command, cwd=ROOT, env=_clean_env(), stdin=subprocess.DEVNULL, stdout=sink, stderr=sink
        )
    cluster = Cluster(process, "", stderr)
    try:
        port: list[str] = []

        def listening() -> bool:
            found = re.search(r"listening on 127\.0\.0\.1:(\d+) with 2 processes", cluster.log())
            port.extend(found.groups() if found else ())
            return bool(found)

        cluster.wait_for("the parent's listening line", listening)
        cluster.target = f"127.0.0.1:{port[0]}"
        cluster.wait_for("both children serving", lambda: len(cluster.serving_pids()) == 2)
        yield cluster
    finally:
        pids = list(cluster.children().values())
        if process.poll() is None:
            process.kill()
        process.wait(30)
        for pid in pids:  # a child left behind (still ours: its command line says so)
            with contextlib.suppress(OSError):
                if b"edge_server" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    os.kill(pid, signal.SIGKILL)


@pytest.fixture
def cluster(tmp_path, sample_data_template, stand_in_llm):  # noqa: F811 (the fixture)
    llm = ("--llm-url", stand_in_llm.url, "--llm-model", "stand-in")
    with running(tmp_path, sample_data_template, "--metrics-port", "0", *llm) as started:
        yield started


def search(cluster: Cluster, query: str) -> tuple[str, pb.SearchResponse]:
    """A Search on a new connection; (its request id, the reply)."""
    request_id = uuid.uuid4().hex[:16]
    with Client(cluster.target) as client:
        reply = client.stub.Search(
            pb.SearchRequest(query=query, k=3),
            timeout=30,
            metadata=(("x-request-id", request_id),),
        )
    return request_id, reply


def search_until_both_answer(cluster: Cluster, query: str, pids: set[int]) -> list:
    """Searches until each of ``pids`` has answered one; every reply."""
    replies: dict[str, pb.SearchResponse] = {}
    for _ in range(80):
        request_id, reply = search(cluster, query)
        replies[request_id] = reply
        answered = {cluster.pid_of().get(r) for r in replies}
        if pids <= answered:
            return list(replies.values())
    pytest.fail(f"not every one of {pids} answered in 80 searches:\n{cluster.log()}")


def _running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's reaper may be slow to reap it)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# -- tests ----------------------------------------------------------------------------------
def test_an_ingest_through_the_service_is_found_through_both_children(cluster):
    pids = cluster.serving_pids()
    assert len(pids) == 2 and pids == set(cluster.children().values())
    with Client(cluster.target) as client:
        assert client.health() == "SERVING"
        summary = client.ingest([VALVE], timeout=60)
    assert summary.added == 1, summary
    replies = search_until_both_answer(cluster, "GV-10 gate valve stem grease", pids)
    for reply in replies:
        assert reply.hits and reply.hits[0].document_id == VALVE.id, reply

    # Each child serves its own metrics (--metrics-port 0: each a free port, logged).
    ports = dict(
        re.findall(
            r"\[(\d+)\] INFO edge_server\.metrics: metrics on http://[^:]+:(\d+)/", cluster.log()
        )
    )
    assert {int(pid) for pid in ports} == pids and len(set(ports.values())) == 2
    for port in ports.values():
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as page:
            text = page.read().decode()
        assert 'ragcore_server_state{state="serving"} 1.0' in text
        assert re.search(r'ragcore_rpcs_total\{code="OK",method="Search"', text)


def test_four_clients_connections_are_split_two_and_two_over_the_children(cluster):
    clients = [Client(cluster.target) for _ in range(4)]  # each its own connection
    try:
        calls: dict[int, list[str]] = {i: [] for i in range(4)}
        for _ in range(3):
            for i, client in enumerate(clients):
                request_id = uuid.uuid4().hex[:16]
                reply = client.stub.Search(
                    pb.SearchRequest(query="HP-400 platen bolts torque", k=3),
                    timeout=30,
                    metadata=(("x-request-id", request_id),),
                )
                assert reply.hits
                calls[i].append(request_id)
    finally:
        for client in clients:
            client.close()
    pid_of = cluster.pid_of()
    pid_of_client = {}
    for i, request_ids in calls.items():
        pids = {pid_of[r] for r in request_ids}
        assert len(pids) == 1, f"client {i}'s calls were served by {pids}: one connection"
        pid_of_client[i] = pids.pop()
    served = sorted(Counter(pid_of_client.values()).values())
    assert served == [2, 2], (pid_of_client, cluster.log())
    assert set(pid_of_client.values()) == cluster.serving_pids()


def test_a_child_killed_9_is_restarted_and_the_service_keeps_answering(cluster):
    children = cluster.children()
    victim = children[0]
    os.kill(victim, signal.SIGKILL)
    cluster.wait_for("the parent noticing", lambda: "was killed by SIGKILL" in cluster.log(), 10)
    for _ in range(10):  # meanwhile the other child answers every call
        _, reply = search(cluster, "HP-400 platen bolts torque")
        assert reply.hits
    cluster.wait_for("a new process 0", lambda: cluster.children()[0] != victim, 30)
    restarted = cluster.children()[0]
    cluster.wait_for("the new child serving", lambda: restarted in cluster.serving_pids())
    assert not _alive(victim)
    search_until_both_answer(cluster, "HP-400 platen bolts torque", {restarted, children[1]})


def test_children_stop_when_the_parent_is_killed_9(cluster):
    children = set(cluster.children().values())
    cluster.process.kill()
    cluster.process.wait(10)
    deadline = time.monotonic() + GRACE + 20
    while running := [pid for pid in children if _running(pid)]:
        assert time.monotonic() < deadline, f"{running} still running:\n{cluster.log()}"
        time.sleep(0.1)


def test_sigterm_drains_both_children_and_exits_0(cluster, stand_in_llm):  # noqa: F811
    children = set(cluster.children().values())
    outcomes: list[object] = []

    def ask() -> None:
        try:
            with Client(cluster.target) as client:
                outcomes.append(client.ask(QUESTION, timeout=30))
        except grpc.RpcError as error:
            outcomes.append(error)

    asks = [threading.Thread(target=ask, daemon=True) for _ in range(4)]
    for thread in asks:
        thread.start()
    assert stand_in_llm.received.wait(30), "no Ask reached the LLM"
    time.sleep(0.5)  # the others reach it too
    signalled = time.monotonic()
    cluster.process.send_signal(signal.SIGTERM)
    time.sleep(LLM_DELAY)
    assert all(thread.is_alive() for thread in asks), "the Asks were to be still in flight"
    stand_in_llm.release.set()
    for thread in asks:
        thread.join(GRACE + 5)
    code = cluster.process.wait(GRACE + 30)
    log = cluster.log()
    assert code == 0, log
    assert time.monotonic() - signalled < GRACE + 5, log
    assert len(outcomes) == 4
    for answer in outcomes:
        assert isinstance(answer, pb.Answer), answer
        assert answer.status == pb.ANSWER_STATUS_OK and "52 N·m" in answer.text
    assert "draining 2 processes" in log and "all processes stopped" in log
    asks = [
        line["pid"]
        for line in map(json.loads, (t for t in log.splitlines() if t.startswith("{")))
        if line["method"].endswith("/Ask")
    ]
    assert sorted(Counter(asks).values()) == [2, 2], log  # both children drained work
    assert not [pid for pid in children if _alive(pid)]


def test_the_servers_workers_are_shared_out_over_its_children(
    tmp_path,
    sample_data_template,
    stand_in_llm,  # noqa: F811 (the fixture)
):
    """``--workers 2`` with 2 processes: one Ask at a time in each child, so of 4 Asks
    held at the LLM only 2 reach it (with 2 workers each, all 4 would)."""
    llm = ("--llm-url", stand_in_llm.url, "--llm-model", "stand-in")
    # Four different questions: answers of one question are shared, not asked again.
    questions = [f"What torque for the HP-400 platen bolts, step {i}?" for i in range(4)]
    with running(tmp_path, sample_data_template, "--workers", "2", *llm) as c:
        assert "1 requests worked on at once in each" in c.log()
        outcomes: list[object] = []

        def ask(question: str) -> None:
            with Client(c.target) as client:
                outcomes.append(client.ask(question, timeout=60))

        asks = [threading.Thread(target=ask, args=(q,), daemon=True) for q in questions]
        for thread in asks:
            thread.start()
        assert stand_in_llm.received.wait(30), "no Ask reached the LLM"
        time.sleep(2 * LLM_DELAY)  # time for any other Ask to reach it too
        assert len(stand_in_llm.replies) == 2
        stand_in_llm.release.set()
        for thread in asks:
            thread.join(60)
        assert len(stand_in_llm.replies) == 4
        assert len(outcomes) == 4 and all(isinstance(a, pb.Answer) for a in outcomes)


def test_mutual_tls_ends_in_the_children_through_the_relay(
    tmp_path,
    sample_data_template,
    pki,  # noqa: F811 (the fixture)
):
    tls = ("--tls-cert", str(pki.server.cert), "--tls-key", str(pki.server.key))
    with running(tmp_path, sample_data_template, *tls, "--tls-client-ca", str(pki.ca.cert)) as c:
        answered = set()
        for _ in range(4):  # one connection each: they alternate over the children
            request_id = uuid.uuid4().hex[:16]
            with Client(
                c.target, tls_ca=pki.ca.cert, client_cert=pki.client.cert, client_key=pki.client.key
            ) as client:
                reply = client.stub.Search(
                    pb.SearchRequest(query="HP-400 platen bolts torque", k=3),
                    timeout=30,
                    metadata=(("x-request-id", request_id),),
                )
            assert reply.hits
            answered.add(c.pid_of()[request_id])
        assert answered == c.serving_pids()
        # The relay passes bytes: without a client certificate the child's TLS refuses.
        with Client(c.target, tls_ca=pki.ca.cert) as stranger, pytest.raises(grpc.RpcError) as no:
            stranger.stub.Search(pb.SearchRequest(query="HP-400", k=1), timeout=10)
        assert no.value.code() == grpc.StatusCode.UNAVAILABLE


def test_a_port_in_use_is_a_clear_error_before_any_child_starts(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        result = subprocess.run(
            _command(tmp_path / "d", port, "--processes", "2"),
            cwd=ROOT,
            env=_clean_env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2, result.stderr
    assert f"127.0.0.1:{port}" in result.stderr and "in use" in result.stderr
    assert "started (pid" not in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "d").exists()  # nothing was opened


def test_zero_processes_is_refused(tmp_path):
    result = subprocess.run(
        _command(tmp_path / "d", "0", "--processes", "0"),
        cwd=ROOT,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "--processes 0: use 1 or more" in result.stderr


# -- the supervisor on its own, with stand-in children --------------------------------------
def _child(code: str):
    return lambda index: [sys.executable, "-c", code, str(index)]


def test_a_child_that_keeps_dying_is_restarted_with_backoff_then_given_up(caplog):
    backoff = Backoff(first=0.05, longest=0.2, healthy_after=30.0, give_up_after=3)
    supervisor = Supervisor(1, _child("import sys; sys.exit(3)"), 1.0, backoff)
    started = time.monotonic()
    with caplog.at_level(logging.INFO, logger="edge_server.supervisor"):
        assert supervisor.run() == 1
    assert supervisor.slots[0].runs == 4  # the first run and 3 restarts
    delays = [float(d) for d in re.findall(r"restarting it in ([\d.]+) s", caplog.text)]
    assert delays == [0.05, 0.1, 0.2]
    assert "exited with 3" in caplog.text and "giving up" in caplog.text
    assert time.monotonic() - started < 10


def test_a_child_failing_on_a_setting_at_first_stops_the_service_with_2():
    supervisor = Supervisor(2, _child("import sys; sys.exit(2)"), 1.0)
    assert supervisor.run() == 2
    assert all(slot.runs == 1 for slot in supervisor.slots)


def test_stop_drains_every_child_and_reports_one_that_fails_to():
    code = (
        "import signal, sys, time\n"
        "signal.signal(signal.SIGTERM, lambda *_: sys.exit(int(sys.argv[1])))\n"
        "time.sleep(60)"
    )
    supervisor = Supervisor(2, _child(code), 1.0)
    threading.Timer(1.0, supervisor.stop).start()
    assert supervisor.run() == 1  # child 1 exits 1 on SIGTERM; child 0 exits 0
    assert all(slot.process and slot.process.returncode == slot.index for slot in supervisor.slots)
