"""Load on the gRPC edge service over loopback: 1, 4 and 16 concurrent clients vs in-process.

Builds the sample knowledge base once in a scratch directory, copies it, and starts
``python -m edge_server --sample-kb`` on one copy in a separate process (so its RSS is
its own: VmRSS and VmHWM, the peak, from /proc). An Engine in this process opens the
other copy: the in-process baseline.

Each round, after a warm-up on both sides:

* baseline + 1 client: the same question sequence (the golden set cycled, ``--requests``
  long) is asked in-process and through one gRPC client, in alternating blocks of one
  pass over the questions, so both sides do the same work in the same order at the same
  time of the run, and the server is idle while the in-process engine works (and the
  other way round). gRPC overhead p50 = gRPC p50 - in-process p50, per round.
* 4 and 16 clients: that many threads, each with its own channel (``Client``), ask the
  same sequence closed-loop (each waits for its answer before asking the next), together
  bounded by ``--requests`` and ``--seconds``. A RESOURCE_EXHAUSTED refusal is counted
  separately (not in ``--requests``) and its client asks the same question again after
  20 ms; refusals are acceptable only when the server's ``--max-in-flight`` is below the
  client count. Any other failure is an error.

Per phase: p50/p95/p99 latency as the client sees it, throughput (answers/s over the
phase's wall time; for 1 client, over the time spent in its calls), errors by status
code, RESOURCE_EXHAUSTED by whose limit refused (the Admission guard's max_in_flight or
gRPC's own maximum_concurrent_rpcs), the server's handler time from its access log
(``ms``, includes waiting for a worker), and CPU per answer of this process (the client)
and of the server, with the CPU every other process used meanwhile (the machine is
shared: a phase with "other" well above 0 was disturbed). For 1 client also the median
of the per-question differences gRPC - in-process, and whether every answer matched the
in-process one. All golden questions are asked, every kind (no_answer and ambiguous too,
as ``ask_latency.py`` does). Figures are medians over ``--rounds``; a default run takes
about 2 minutes on 2 cores.

Goals on 2 cores: gRPC overhead p50 <= 3 ms; throughput with 4 clients >= 1.5x one
client; with 16 clients no errors (RESOURCE_EXHAUSTED only beyond the configured
limit) and p99 <= 5x p50 (both at 16 clients); server RSS (peak) <= 400 MB.

``--compare-metrics`` measures what Prometheus metrics cost: two servers on copies of the
same data, one with ``--metrics-port 0`` (scraped every 5 s meanwhile, as Prometheus
would), one without; each round runs every phase against both, one after the other,
alternating which goes first. It reports both sides' medians and, per phase, the median
over rounds of metrics / none (p50, p99, throughput, server CPU per answer), and checks
that the server counted every answer it gave.

``--compare-processes`` measures ``ragcore serve --processes 2`` against ``--processes 1``
(two servers on copies of the same data, started side by side; each round runs 1 and 4
clients against both, one after the other, alternating which goes first). It reports
per side throughput and latency, the answers each process gave (from the access log's
pid: the spread of the clients' connections), and per round the ratios 4 clients on 2
processes / 1 client on 1 process (the goal: >= 1.8 on 2 cores) and 4 clients on 2
processes / 4 clients on 1; server CPU and memory are summed over the parent and its
children, and the parent's CPU (its relay of every connection) is shown apart.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import itertools
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import grpc
from _common import median, percentile
from prometheus_client.parser import text_string_to_metric_families

from edge_server.client import Client
from edge_server.convert import STATUS
from ragcore import Config, Engine
from ragcore.evaluation.golden import SAMPLE_GOLDEN, load_golden
from ragcore.evaluation.sample import sample_documents
from ragcore.types import GoldenKind

REPO = Path(__file__).resolve().parents[1]
LISTENING = re.compile(rb"listening on [^\s]+:(\d+)")
SERVING = re.compile(rb"serving \d+ documents")
METRICS_URL = re.compile(rb"metrics on (http://\S+/metrics)")
SCRAPE_SECONDS = 5.0  # --compare-metrics: Prometheus' default is 60 s, 15 s is common
BACKOFF_SECONDS = 0.020  # after RESOURCE_EXHAUSTED, before the client's next request
PAUSE_SECONDS = 0.1  # between alternating blocks: lets the other side's threads go idle
CLOCK_TICK = os.sysconf("SC_CLK_TCK")

GOAL_OVERHEAD_MS = 3.0
GOAL_SPEEDUP_4 = 1.5
GOAL_TAIL_16 = 5.0
GOAL_RSS_MB = 400.0
GOAL_PROCESSES_SPEEDUP_4 = 1.8  # 4 clients on --processes 2 over 1 client on --processes 1


# -- the server process -----------------------------------------------------------------
class ServerProcess:
    """``python -m edge_server`` on ``data_dir``, its stderr in ``log_path``."""

    def __init__(
        self,
        data_dir: Path,
        log_path: Path,
        workers,
        max_in_flight,
        threads,
        metrics=False,
        processes: int = 1,
        store_url: str | None = None,
    ) -> None:
        command = [sys.executable, "-m", "edge_server", "--data-dir", str(data_dir)]
        if store_url is not None:
            command += ["--store", store_url]
        # One process unless asked: serve's default is the core count.
        command += ["--processes", str(processes)]
        self.processes = processes
        # The questions repeat: without the caches every one runs the whole loop, as before.
        command += ["--port", "0", "--sample-kb", "--answer-cache", "0", "--retrieval-cache", "0"]
        if metrics:
            command += ["--metrics-port", "0"]
        self.metrics_url: str | None = None
        if workers is not None:
            command += ["--workers", str(workers)]
        command += ["--threads", str(threads)]
        if max_in_flight is not None:
            command += ["--max-in-flight", str(max_in_flight)]
        self.command = command
        self.log_path = log_path
        # A file, not a pipe: the server writes one access line per request.
        self._log = open(log_path, "wb")  # noqa: SIM115 (closed in stop())
        self.proc = subprocess.Popen(
            command,
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
            preexec_fn=_die_with_parent,
        )
        self.pid = self.proc.pid
        self.port = 0

    def wait_until_serving(self, timeout: float = 120.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.log_path.read_bytes()
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited ({self.proc.returncode}):\n{self.tail()}")
            found = LISTENING.search(text)
            if found and len(SERVING.findall(text)) >= self.processes:
                self.port = int(found.group(1))
                metrics = METRICS_URL.search(text)
                self.metrics_url = metrics.group(1).decode() if metrics else None
                target = f"127.0.0.1:{self.port}"
                with Client(target) as client:
                    client.wait_until_serving(max(1.0, deadline - time.monotonic()))
                return target
            time.sleep(0.1)
        raise TimeoutError(f"the server was not serving within {timeout:.0f} s:\n{self.tail()}")

    def tail(self, lines: int = 20) -> str:
        text = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def pids(self) -> list[int]:
        """The server and its children (--processes N: the parent and the N servers)."""
        found, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            with contextlib.suppress(OSError):
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
                todo += [int(c) for c in children]
        return found

    def memory_mb(self) -> dict[str, float]:
        """VmRSS (now) and VmHWM (peak so far), in MB, summed over the processes."""
        figures = {"VmRSS": 0.0, "VmHWM": 0.0}
        for pid in self.pids():
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    key, _, value = line.partition(":")
                    if key in figures:
                        figures[key] += int(value.split()[0]) / 1024
        return {"rss_mb": figures["VmRSS"], "peak_rss_mb": figures["VmHWM"]}

    def cpu_seconds(self) -> float:
        """CPU of the server's processes now running (a restarted child's predecessor's
        is lost: none is restarted here)."""
        total = 0.0
        for pid in self.pids():
            with contextlib.suppress(OSError):
                total += _proc_cpu(Path(f"/proc/{pid}/stat"))
        return total

    def log_offset(self) -> int:
        return self.log_path.stat().st_size

    def answers_by_pid(self, start: int, end: int) -> list[int]:
        """How many Asks each server process answered between two log offsets, most
        first (one entry per process that answered any: a process left idle shows as a
        missing entry, as SO_REUSEPORT's hashing did before the parent's relay)."""
        with open(self.log_path, "rb") as log:
            log.seek(start)
            chunk = log.read(end - start)
        counts: Counter = Counter()
        for line in chunk.splitlines():
            if line.startswith(b"{") and b"/Ask" in line:
                entry = json.loads(line)
                if entry["method"].endswith("/Ask") and entry["status"] == "OK":
                    counts[entry.get("pid")] += 1
        return sorted(counts.values(), reverse=True)

    def handler_ms(self, start: int, end: int) -> list[float]:
        """The access log's ``ms`` of every answered Ask between two log offsets."""
        with open(self.log_path, "rb") as log:
            log.seek(start)
            chunk = log.read(end - start)
        times = []
        for line in chunk.splitlines():
            if line.startswith(b"{") and b"/Ask" in line:
                entry = json.loads(line)
                if entry["method"].endswith("/Ask") and entry["status"] == "OK":
                    times.append(entry["ms"])
        return times

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()


def _die_with_parent() -> None:
    """In the child: SIGTERM when this benchmark dies, however it dies (Linux prctl)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _proc_cpu(stat: Path) -> float:
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICK  # utime, stime


def machine_cpu_seconds() -> float:
    """CPU time every process on the machine has used (busy time of /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICK


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# -- phases -----------------------------------------------------------------------------
def summarise(latencies: list[float], codes: Counter, seconds: float, **extra) -> dict:
    ok, refused = codes.get("OK", 0), codes.get("RESOURCE_EXHAUSTED", 0)
    figures = {
        "requests": sum(codes.values()) - refused,  # answered or failed; refusals apart
        "ok": ok,
        "resource_exhausted": refused,
        "errors": {c: n for c, n in codes.items() if c not in ("OK", "RESOURCE_EXHAUSTED")},
        "seconds": round(seconds, 3),
        "throughput_rps": round(ok / seconds, 2) if seconds > 0 else 0.0,
    }
    if latencies:
        for q in (50, 95, 99):
            figures[f"p{q}_ms"] = round(percentile(latencies, q), 2)
        figures["max_ms"] = round(max(latencies), 2)
    figures.update(extra)
    return figures


class CpuMeter:
    """CPU seconds used by this process, by the server and by everything else, summed over
    the intervals between ``start()`` and ``stop()``; of the server's, the parent's too
    when it has children (``--processes N``: the parent relays every connection)."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.own = self.served = self.others = self.relay = 0.0
        self._marks: tuple[float, float, float, float] | None = None

    def _relay_seconds(self) -> float:
        if self.server.processes == 1:
            return 0.0
        with contextlib.suppress(OSError):
            return _proc_cpu(Path(f"/proc/{self.server.pid}/stat"))
        return 0.0

    def start(self) -> None:
        self._marks = (
            own_cpu_seconds(),
            self.server.cpu_seconds(),
            machine_cpu_seconds(),
            self._relay_seconds(),
        )

    def stop(self) -> None:
        assert self._marks is not None, "CpuMeter.stop() without start()"
        own, served, machine, relay = self._marks
        own, served = own_cpu_seconds() - own, self.server.cpu_seconds() - served
        self.own += own
        self.served += served
        self.relay += self._relay_seconds() - relay
        self.others += max(0.0, machine_cpu_seconds() - machine - own - served)

    def figures(self, answers: int, seconds: float, client: bool = True) -> dict:
        per = 1000 / max(1, answers)
        out = {"client_cpu_ms_per_answer": round(self.own * per, 2)}
        if client:
            out["server_cpu_ms_per_answer"] = round(self.served * per, 2)
            if self.server.processes > 1:
                out["relay_cpu_ms_per_answer"] = round(self.relay * per, 3)
        out["cpu_cores_used"] = round((self.own + self.served) / seconds, 2)
        out["other_processes_cores"] = round(self.others / seconds, 2)
        return out


def baseline_and_one_client(engine, client, server, sequence, block, seconds, timeout):
    """In-process and one gRPC client, alternating blocks of the same questions."""
    inproc, remote, inproc_time, remote_time = [], [], 0.0, 0.0
    codes: Counter[str] = Counter()
    mismatches = 0
    paired: list[float] = []
    local_cpu, remote_cpu = CpuMeter(server), CpuMeter(server)
    offset = server.log_offset()
    for start in range(0, len(sequence), block):
        if inproc_time >= seconds or remote_time >= seconds:
            break
        questions = sequence[start : start + block]
        answers = []
        local_cpu.start()
        began = time.perf_counter()
        for q in questions:
            t = time.perf_counter()
            answers.append(engine.ask(q))
            inproc.append((time.perf_counter() - t) * 1000)
        inproc_time += time.perf_counter() - began
        local_cpu.stop()
        time.sleep(PAUSE_SECONDS)

        remote_cpu.start()
        began = time.perf_counter()
        for i, (q, local) in enumerate(zip(questions, answers, strict=True)):
            t = time.perf_counter()
            try:
                reply = client.ask(q, timeout=timeout)
            except grpc.RpcError as error:
                codes[error.code().name] += 1
                continue
            remote.append((time.perf_counter() - t) * 1000)
            paired.append(remote[-1] - inproc[len(inproc) - len(questions) + i])
            codes["OK"] += 1
            if reply.text != local.text or reply.status != STATUS[local.status]:
                mismatches += 1
        remote_time += time.perf_counter() - began
        remote_cpu.stop()
        time.sleep(PAUSE_SECONDS)
    handler = server.handler_ms(offset, server.log_offset())
    one = summarise(
        remote,
        codes,
        remote_time,
        server_handler_p50_ms=round(percentile(handler, 50), 2) if handler else None,
        paired_overhead_median_ms=round(median(paired), 2) if paired else None,
        answers_differing_from_in_process=mismatches,
        **remote_cpu.figures(codes["OK"], remote_time),
    )
    base = summarise(
        inproc,
        Counter(OK=len(inproc)),
        inproc_time,
        server_cpu_ms_while_idle=round(local_cpu.served * 1000, 1),
        **local_cpu.figures(len(inproc), inproc_time, client=False),
    )
    return base, one


def _refusal(details: str | None) -> str:
    """Who refused: the Admission guard (max_in_flight) or gRPC's maximum_concurrent_rpcs."""
    details = details or ""
    if "Concurrent RPC limit" in details:
        return "grpc maximum_concurrent_rpcs"
    return "max_in_flight" if "busy" in details else details[:60]


def concurrent_clients(target, server, n, sequence, seconds, timeout):
    """``n`` closed-loop clients, one thread and one channel each, sharing the sequence."""
    clients = [Client(target, timeout=timeout) for _ in range(n)]
    results: list[list[tuple[float, str]]] = [[] for _ in range(n)]
    finished = [0.0] * n
    counter = itertools.count()
    marks: dict[str, float] = {}
    cpu = CpuMeter(server)
    warm_up_errors: list[str] = []
    refusals: Counter = Counter()

    def go() -> None:  # run by the barrier once every client is connected, then all start
        marks["offset"] = server.log_offset()
        cpu.start()
        marks["started"] = time.perf_counter()
        marks["deadline"] = marks["started"] + seconds

    ready = threading.Barrier(n + 1, action=go)

    def warm_up(client: Client, question: str) -> None:
        """Connect and ask once; refusals (a limit below the client count) are retried."""
        for _ in range(200):
            try:
                client.wait_until_serving()
                client.ask(question, timeout=timeout)
                return
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
                    raise
                time.sleep(BACKOFF_SECONDS)

    def run(i: int) -> None:
        client = clients[i]
        try:
            warm_up(client, sequence[i % len(sequence)])
        except Exception as error:  # counted, and the phase goes on with this client
            warm_up_errors.append(repr(error))
        ready.wait()
        k = next(counter)  # atomic under the GIL
        while k < len(sequence) and time.perf_counter() < marks["deadline"]:
            t = time.perf_counter()
            try:
                client.ask(sequence[k], timeout=timeout)
                code = "OK"
            except grpc.RpcError as error:
                code = error.code().name
                if code == "RESOURCE_EXHAUSTED":  # whose limit: the servicer's or gRPC's own
                    refusals[_refusal(error.details())] += 1
            results[i].append(((time.perf_counter() - t) * 1000, code))
            if code == "RESOURCE_EXHAUSTED":  # refused: the same question again, later
                time.sleep(BACKOFF_SECONDS)
            else:
                k = next(counter)
        finished[i] = time.perf_counter()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(n)]
    for thread in threads:
        thread.start()
    try:
        ready.wait(timeout=120)
        for thread in threads:
            thread.join()
        cpu.stop()
    finally:
        for client in clients:
            client.close()
    wall = max(finished) - marks["started"]
    end = server.log_offset()
    handler = server.handler_ms(marks["offset"], end)
    by_process = server.answers_by_pid(marks["offset"], end)
    flat = [r for rs in results for r in rs]
    codes = Counter(code for _, code in flat)
    return summarise(
        [ms for ms, code in flat if code == "OK"],
        codes,
        wall,
        server_handler_p50_ms=round(percentile(handler, 50), 2) if handler else None,
        warm_up_errors=warm_up_errors,
        refusals=dict(refusals),
        answers_by_process=by_process,
        **cpu.figures(codes["OK"], wall),
    )


def one_round(engine, target, server, sequence, block, clients, args) -> dict:
    phases: dict[str, dict] = {}
    memory: dict[str, dict] = {}
    with Client(target, timeout=args.timeout) as client:
        for q in sequence[: args.warmup]:  # warm-up, both sides
            engine.ask(q)
            client.ask(q, timeout=args.timeout)
        time.sleep(PAUSE_SECONDS)
        if 1 in clients:
            base, one = baseline_and_one_client(
                engine, client, server, sequence, block, args.seconds, args.timeout
            )
            phases["in_process"], phases["grpc_1"] = base, one
            memory["grpc_1"] = server.memory_mb()
    for n in clients:
        if n == 1:
            continue
        phases[f"grpc_{n}"] = concurrent_clients(
            target, server, n, sequence, args.seconds, args.timeout
        )
        memory[f"grpc_{n}"] = server.memory_mb()
        time.sleep(PAUSE_SECONDS)
    figures: dict = {"phases": phases, "server_memory": memory}
    if "grpc_1" in phases:
        figures["grpc_overhead_p50_ms"] = round(
            phases["grpc_1"]["p50_ms"] - phases["in_process"]["p50_ms"], 2
        )
    if "grpc_1" in phases and "grpc_4" in phases:
        figures["speedup_4"] = round(
            phases["grpc_4"]["throughput_rps"] / phases["grpc_1"]["throughput_rps"], 3
        )
    if "grpc_16" in phases and "p50_ms" in phases["grpc_16"]:
        p16 = phases["grpc_16"]
        figures["tail_16"] = round(p16["p99_ms"] / p16["p50_ms"], 3)
    return figures


# -- reporting --------------------------------------------------------------------------
FIELDS = (
    "requests",
    "ok",
    "resource_exhausted",
    "throughput_rps",
    "p50_ms",
    "p95_ms",
    "p99_ms",
    "max_ms",
    "server_handler_p50_ms",
    "paired_overhead_median_ms",
    "client_cpu_ms_per_answer",
    "server_cpu_ms_per_answer",
    "relay_cpu_ms_per_answer",
    "cpu_cores_used",
    "other_processes_cores",
)


def medians(rounds: list[dict]) -> dict:
    """Per-figure medians across rounds (errors summed: any error counts)."""
    phases = {}
    for name in rounds[0]["phases"]:
        values = [r["phases"][name] for r in rounds]
        phase: dict[str, object] = {}
        for field in FIELDS:
            got = [v[field] for v in values if v.get(field) is not None]
            if got:
                phase[field] = round(median(got), 2)
        errors: Counter = Counter()
        for v in values:
            errors.update(v["errors"])
            errors.update(
                {"warm-up": len(v.get("warm_up_errors", []))} if v.get("warm_up_errors") else {}
            )
        phase["errors"] = dict(errors)
        phase["resource_exhausted_total"] = sum(v["resource_exhausted"] for v in values)
        refusals: Counter = Counter()
        for v in values:
            refusals.update(v.get("refusals", {}))
        if refusals:
            phase["refusals"] = dict(refusals)
        if any(v.get("answers_by_process") for v in values):
            phase["answers_by_process"] = [v.get("answers_by_process") for v in values]
        if "answers_differing_from_in_process" in values[0]:
            phase["answers_differing_from_in_process"] = sum(
                v["answers_differing_from_in_process"] for v in values
            )
        phases[name] = phase
    summary: dict[str, object] = {"phases": phases}
    for key in ("grpc_overhead_p50_ms", "speedup_4", "tail_16"):
        got = [r[key] for r in rounds if key in r]
        if got:
            summary[key] = round(median(got), 3)
    return summary


def goals(summary: dict, memory: dict, max_in_flight: int, clients: list[int]) -> list[dict]:
    out = []
    phases = summary["phases"]
    if "grpc_overhead_p50_ms" in summary:
        v = summary["grpc_overhead_p50_ms"]
        out.append(_goal("gRPC overhead p50 (1 client - in-process)", v, "<=", GOAL_OVERHEAD_MS))
    if "speedup_4" in summary:
        v = summary["speedup_4"]
        out.append(_goal("throughput 4 clients / 1 client", v, ">=", GOAL_SPEEDUP_4))
    if "tail_16" in summary:
        out.append(_goal("p99 / p50 at 16 clients", summary["tail_16"], "<=", GOAL_TAIL_16))
    errors = sum(sum(p["errors"].values()) for p in phases.values())
    out.append(
        _goal("errors, every phase and round (other than RESOURCE_EXHAUSTED)", errors, "<=", 0)
    )
    for n in clients:
        name = f"grpc_{n}"
        if name not in phases:
            continue
        refused = phases[name]["resource_exhausted_total"]
        if n > max_in_flight:
            out.append(
                {
                    "goal": f"RESOURCE_EXHAUSTED at {n} clients (limit {max_in_flight}: allowed)",
                    "value": refused,
                    "target": None,
                    "pass": True,
                }
            )
        else:
            out.append(
                _goal(
                    f"RESOURCE_EXHAUSTED at {n} clients (limit {max_in_flight})", refused, "<=", 0
                )
            )
    out.append(
        _goal("server peak RSS (VmHWM), MB", round(memory["peak_rss_mb"]), "<=", GOAL_RSS_MB)
    )
    return out


def _goal(name: str, value, op: str, target) -> dict:
    passed = value <= target if op == "<=" else value >= target
    return {"goal": name, "value": value, "op": op, "target": target, "pass": bool(passed)}


def print_report(result: dict) -> None:
    s = result["settings"]
    print(
        f"gRPC edge load: {s['questions']} golden questions cycled, {s['requests']} requests "
        f"per phase (<= {s['seconds']:.0f} s), {s['rounds_run']} round(s); server "
        f"workers={s['workers']}, max_in_flight={s['max_in_flight']}, pid {s['server_pid']}"
    )
    for i, r in enumerate(result["rounds"], start=1):
        parts = []
        for name, p in r["phases"].items():
            parts.append(
                f"{name} p50 {p.get('p50_ms', float('nan')):.1f} {p['throughput_rps']:.1f}/s"
            )
        extra = "  ".join(
            f"{k}={r[k]}" for k in ("grpc_overhead_p50_ms", "speedup_4", "tail_16") if k in r
        )
        print(f"  round {i}: " + "; ".join(parts) + f"  | {extra}")
    header = (
        f"{'phase':12s} {'reqs':>5s} {'ok':>5s} {'RE':>4s} {'err':>4s} {'req/s':>7s} "
        f"{'p50':>7s} {'p95':>7s} {'p99':>7s} {'max':>7s} {'srv p50':>7s} "
        f"{'cli cpu':>7s} {'srv cpu':>7s} {'cores':>5s} {'other':>5s}"
    )
    print(
        "\nmedians over rounds. ms; srv p50: the server's handler time (its access log); "
        "cli / srv cpu: CPU ms per answer\nof this process (the client; for in_process the "
        "engine) and of the server; cores: both together; other: every other process"
    )
    print(header)
    for name, p in result["median"]["phases"].items():

        def f(key, fmt="7.2f", p=p):
            value = p.get(key)
            return format(value, fmt) if value is not None else format("-", ">" + fmt[0])

        print(
            f"{name:12s} {p['requests']:5.0f} {p['ok']:5.0f} "
            f"{p['resource_exhausted_total']:4d} {sum(p['errors'].values()):4d} "
            f"{f('throughput_rps', '7.1f')} {f('p50_ms')} {f('p95_ms')} {f('p99_ms')} "
            f"{f('max_ms')} {f('server_handler_p50_ms')} {f('client_cpu_ms_per_answer')} "
            f"{f('server_cpu_ms_per_answer')} {f('cpu_cores_used', '5.2f')} "
            f"{f('other_processes_cores', '5.2f')}"
        )
        if p["errors"]:
            print(f"{'':12s} errors: {p['errors']}")
        if p.get("refusals"):
            print(f"{'':12s} RESOURCE_EXHAUSTED from: {p['refusals']}")
    mem = result["server_memory"]
    print(
        f"server RSS: {mem['loaded_rss_mb']:.0f} MB loaded, {mem['rss_mb']:.0f} MB at the end, "
        f"peak (VmHWM) {mem['peak_rss_mb']:.0f} MB"
    )
    one = result["median"]["phases"].get("grpc_1", {})
    if one.get("paired_overhead_median_ms") is not None:
        inside = one["server_handler_p50_ms"] - result["median"]["phases"]["in_process"]["p50_ms"]
        outside = one["p50_ms"] - one["server_handler_p50_ms"]
        print(
            "gRPC overhead, median of per-question differences (same question, same pass): "
            f"{one['paired_overhead_median_ms']:.2f} ms; of the p50 difference, inside the "
            f"server's handler: {inside:.2f} ms, outside it (transport, client): {outside:.2f} ms"
        )
    if "answers_differing_from_in_process" in one:
        print(
            f"answers via gRPC that differ from in-process: "
            f"{one['answers_differing_from_in_process']}"
        )
    print("goals:")
    for g in result["goals"]:
        if g["target"] is None:
            print(f"  {g['goal']}: {g['value']}  PASS")
            continue
        ratio = f" (ratio {g['value'] / g['target']:.2f})" if g["target"] else ""
        print(
            f"  {g['goal']}: {g['value']} {g['op']} {g['target']}{ratio}  "
            f"{'PASS' if g['pass'] else 'FAIL'}"
        )


def flat_summary(result: dict) -> dict:
    out = {
        "benchmark": "grpc_load",
        **{
            k: result["settings"][k] for k in ("workers", "max_in_flight", "requests", "rounds_run")
        },
    }
    for name, p in result["median"]["phases"].items():
        for key in ("p50_ms", "p95_ms", "p99_ms", "throughput_rps"):
            if key in p:
                out[f"{name}_{key}"] = p[key]
        out[f"{name}_errors"] = sum(p["errors"].values())
        out[f"{name}_resource_exhausted"] = p["resource_exhausted_total"]
    for key in ("grpc_overhead_p50_ms", "speedup_4", "tail_16"):
        if key in result["median"]:
            out[key] = result["median"][key]
    out["server_peak_rss_mb"] = round(result["server_memory"]["peak_rss_mb"])
    out["all_goals_pass"] = all(g["pass"] for g in result["goals"])
    return out


# -- --compare-metrics ------------------------------------------------------------------
class Scraper:
    """Scrapes a metrics URL every SCRAPE_SECONDS in a thread, as Prometheus would."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.ms: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="scraper", daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(SCRAPE_SECONDS):
            self.scrape()

    def scrape(self) -> str:
        started = time.perf_counter()
        with urllib.request.urlopen(self.url, timeout=10) as reply:
            text = reply.read().decode()
        self.ms.append((time.perf_counter() - started) * 1000)
        return text

    def __enter__(self) -> Scraper:
        self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._stop.set()
        self._thread.join()


def answers_counted(text: str) -> int:
    """Ask and AskStream calls answered OK, as the server's own metrics count them."""
    return round(
        sum(
            s.value
            for family in text_string_to_metric_families(text)
            for s in family.samples
            if s.name == "ragcore_rpcs_total"
            and s.labels.get("method") in ("Ask", "AskStream")
            and s.labels.get("code") == "OK"
        )
    )


RATIO_FIELDS = ("p50_ms", "p99_ms", "throughput_rps", "server_cpu_ms_per_answer")


def compare_metrics(args, sequence, questions, clients, threads, log) -> dict:
    """Every phase against a server with metrics and one without, in the same rounds."""
    sides = ("none", "metrics")
    with tempfile.TemporaryDirectory(prefix="grpc-load-") as scratch_dir:
        scratch = Path(scratch_dir)
        local = scratch / "local"
        with Engine(Config(data_dir=local)) as builder:
            builder.ingest(sample_documents())
        servers = {}
        for side in sides:
            shutil.copytree(local, scratch / side)
            servers[side] = ServerProcess(
                scratch / side,
                scratch / f"{side}.log",
                args.workers,
                args.max_in_flight,
                threads,
                metrics=side == "metrics",
            )
        rounds: dict[str, list[dict]] = {side: [] for side in sides}
        try:
            with Engine(Config(data_dir=local, threads=threads)) as engine:
                engine.warm_up()
                targets = {side: servers[side].wait_until_serving() for side in sides}
                url = servers["metrics"].metrics_url
                assert url, "the metrics server logged no metrics URL"
                log(f"servers: none {targets['none']}, metrics {targets['metrics']} ({url})")
                with Scraper(url) as scraper:
                    for i in range(args.rounds):
                        for side in sides if i % 2 == 0 else reversed(sides):
                            rounds[side].append(
                                one_round(
                                    engine,
                                    targets[side],
                                    servers[side],
                                    sequence,
                                    len(questions),
                                    clients,
                                    args,
                                )
                            )
                        log(f"round {i + 1}/{args.rounds} done")
                    counted = answers_counted(scraper.scrape())
                memory = {side: servers[side].memory_mb() for side in sides}
        finally:
            for server in servers.values():
                server.stop()
    # Every answer the clients got: the phases', and the warm-ups (each round's, and
    # one per client in each concurrent phase).
    warm_ups = args.warmup + sum(n for n in clients if n != 1)
    given = sum(
        r["phases"][name]["ok"]
        for r in rounds["metrics"]
        for name in r["phases"]
        if name != "in_process"
    ) + warm_ups * len(rounds["metrics"])
    ratios: dict[str, dict[str, float]] = {}
    for name in rounds["none"][0]["phases"]:
        if name == "in_process":
            continue
        ratios[name] = {}
        for field in RATIO_FIELDS:
            per_round = [
                m["phases"][name][field] / n["phases"][name][field]
                for n, m in zip(rounds["none"], rounds["metrics"], strict=True)
                if n["phases"][name].get(field) and m["phases"][name].get(field) is not None
            ]
            if per_round:
                ratios[name][field] = round(median(per_round), 3)
    return {
        "benchmark": "grpc_load --compare-metrics",
        "settings": {
            "questions": len(questions),
            "requests": args.requests,
            "seconds": args.seconds,
            "clients": clients,
            "rounds_run": args.rounds,
            "scrape_every_seconds": SCRAPE_SECONDS,
            "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        },
        "median": {side: medians(rounds[side]) for side in sides},
        "ratio_metrics_over_none": ratios,
        "scrape_ms": {
            "count": len(scraper.ms),
            "p50": round(percentile(scraper.ms, 50), 2),
            "max": round(max(scraper.ms), 2),
        },
        "answers_given_vs_counted": [given, counted],
        "server_peak_rss_mb": {side: round(memory[side]["peak_rss_mb"]) for side in sides},
    }


def print_comparison(result: dict) -> None:
    s = result["settings"]
    print(
        f"gRPC edge load, metrics on vs off: {s['questions']} golden questions cycled, "
        f"{s['requests']} requests per phase, {s['rounds_run']} rounds (sides alternating "
        f"first), metrics scraped every {s['scrape_every_seconds']:.0f} s"
    )
    none, metrics = (result["median"][side]["phases"] for side in ("none", "metrics"))
    print(
        f"{'phase':10s} {'p50 none':>9s} {'metrics':>8s} {'ratio':>6s}  {'p99 none':>9s} "
        f"{'metrics':>8s} {'ratio':>6s}  {'req/s none':>10s} {'metrics':>8s} {'ratio':>6s}  "
        f"{'srv cpu none':>12s} {'metrics':>8s} {'ratio':>6s}"
    )
    for name, ratio in result["ratio_metrics_over_none"].items():
        cells = []
        for field, width in zip(RATIO_FIELDS, (9, 9, 10, 12), strict=True):
            a, b = none[name].get(field), metrics[name].get(field)
            r = ratio.get(field)
            cells.append(
                f"{a if a is not None else '-':>{width}} {b if b is not None else '-':>8} "
                f"{r if r is not None else '-':>6}"
            )
        print(f"{name:10s} " + "  ".join(cells))
    print(
        "ratio: median over rounds of metrics / none (each round runs both sides back to "
        "back); p50/p99 ms as the client sees them, srv cpu: server CPU ms per answer"
    )
    for side in ("none", "metrics"):
        o = result["median"][side].get("grpc_overhead_p50_ms")
        print(f"gRPC overhead p50 over in-process, {side}: {o} ms")
    scrape = result["scrape_ms"]
    given, counted = result["answers_given_vs_counted"]
    print(
        f"scrapes: {scrape['count']}, p50 {scrape['p50']} ms, max {scrape['max']} ms; answers "
        f"given {given}, counted by the server's metrics {counted}"
        + ("" if given == counted else "  MISMATCH")
    )
    print(f"server peak RSS MB: {result['server_peak_rss_mb']}")


# -- --compare-processes ----------------------------------------------------------------
PROCESS_SIDES = (1, 2)
PROCESS_CLIENTS = (1, 4)


def compare_processes(args, sequence, threads, log) -> dict:
    """1 and 4 clients (or ``--clients``) against --processes 1 and --processes 2, in the
    same rounds."""
    given = args.clients.split(",") if args.clients else PROCESS_CLIENTS
    clients = sorted({1, *(int(c) for c in given)})
    with tempfile.TemporaryDirectory(prefix="grpc-load-") as scratch_dir:
        scratch = Path(scratch_dir)
        local = scratch / "local"
        with Engine(Config(data_dir=local)) as builder:
            builder.ingest(sample_documents())
        servers = {}
        for side in PROCESS_SIDES:
            shutil.copytree(local, scratch / f"p{side}")
            servers[side] = ServerProcess(
                scratch / f"p{side}",
                scratch / f"p{side}.log",
                args.workers,
                args.max_in_flight,
                threads,
                processes=side,
            )
        rounds: dict[int, list[dict]] = {side: [] for side in PROCESS_SIDES}
        try:
            targets = {side: servers[side].wait_until_serving() for side in PROCESS_SIDES}
            log(f"servers: --processes 1 on {targets[1]}, --processes 2 on {targets[2]}")
            for i in range(args.rounds):
                order = PROCESS_SIDES if i % 2 == 0 else tuple(reversed(PROCESS_SIDES))
                for side in order:
                    phases = {}
                    for n in clients:
                        phases[f"grpc_{n}"] = concurrent_clients(
                            targets[side], servers[side], n, sequence, args.seconds, args.timeout
                        )
                        time.sleep(PAUSE_SECONDS)
                    rounds[side].append({"phases": phases})
                log(f"round {i + 1}/{args.rounds} done")
            memory = {side: servers[side].memory_mb() for side in PROCESS_SIDES}
        finally:
            for server in servers.values():
                server.stop()

    def rps(side: int, n: int, r: int) -> float:
        return rounds[side][r]["phases"][f"grpc_{n}"]["throughput_rps"]

    per_round = []
    for r in range(args.rounds):
        ratios_of_round = {"p2_1_over_p1_1": round(rps(2, 1, r) / rps(1, 1, r), 3)}
        for n in clients[1:]:
            ratios_of_round[f"p2_{n}_over_p1_1"] = round(rps(2, n, r) / rps(1, 1, r), 3)
            ratios_of_round[f"p2_{n}_over_p1_{n}"] = round(rps(2, n, r) / rps(1, n, r), 3)
            ratios_of_round[f"p1_{n}_over_p1_1"] = round(rps(1, n, r) / rps(1, 1, r), 3)
        per_round.append(ratios_of_round)
    ratios = {key: round(median([r[key] for r in per_round]), 3) for key in per_round[0]}
    return {
        "benchmark": "grpc_load --compare-processes",
        "settings": {
            "requests": args.requests,
            "seconds": args.seconds,
            "rounds_run": args.rounds,
            "threads": threads,
            "cores": os.cpu_count(),
            "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        },
        "median": {f"processes_{side}": medians(rounds[side]) for side in PROCESS_SIDES},
        "ratios_per_round": per_round,
        "ratios": ratios,
        "server_peak_rss_mb": {
            f"processes_{side}": round(memory[side]["peak_rss_mb"]) for side in PROCESS_SIDES
        },
        "goal": _goal(
            "4 clients on --processes 2 / 1 client on --processes 1",
            ratios["p2_4_over_p1_1"],
            ">=",
            GOAL_PROCESSES_SPEEDUP_4,
        ),
    }


def print_processes(result: dict) -> None:
    s = result["settings"]
    print(
        f"gRPC edge load, --processes 1 vs 2: {s['requests']} requests or {s['seconds']:.0f} s "
        f"per phase, {s['rounds_run']} rounds (sides alternating first), {s['cores']} cores"
    )
    print(
        f"{'side':12s} {'clients':>7s} {'req/s':>8s} {'p50 ms':>8s} {'p99 ms':>8s} "
        f"{'srv cpu/ans':>11s} {'of it relay':>11s} {'client cpu':>10s} {'cores used':>10s} "
        f"{'other':>6s}"
    )
    for side in PROCESS_SIDES:
        phases = result["median"][f"processes_{side}"]["phases"]
        for n in sorted(int(key.split("_")[1]) for key in phases):
            p = phases[f"grpc_{n}"]
            print(
                f"{'processes ' + str(side):12s} {n:7d} {p['throughput_rps']:8} "
                f"{p.get('p50_ms', '-'):8} {p.get('p99_ms', '-'):8} "
                f"{p.get('server_cpu_ms_per_answer', '-'):11} "
                f"{p.get('relay_cpu_ms_per_answer', '-'):11} "
                f"{p.get('client_cpu_ms_per_answer', '-'):10} {p.get('cpu_cores_used', '-'):10} "
                f"{p.get('other_processes_cores', '-'):6} answers by process "
                f"{p.get('answers_by_process')}"
            )
    print(f"ratios (median over rounds of per-round ratios): {result['ratios']}")
    for i, ratios in enumerate(result["ratios_per_round"], 1):
        print(f"round {i}: {ratios}")
    goal = result["goal"]
    print(
        f"goal {goal['goal']} {goal['op']} {goal['target']}: {goal['value']} "
        f"{'met' if goal['pass'] else 'NOT met'}"
    )
    print(f"server peak RSS MB (summed over processes): {result['server_peak_rss_mb']}")


# -- main -------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--golden", type=Path, default=SAMPLE_GOLDEN, help="questions to ask")
    parser.add_argument(
        "--skip-kinds",
        default="",
        help=f"comma-separated kinds not to ask ({', '.join(GoldenKind.values())})",
    )
    parser.add_argument("--requests", type=int, default=300, help="requests per phase (300)")
    parser.add_argument(
        "--seconds", type=float, default=15.0, help="time bound per phase and side (15 s)"
    )
    parser.add_argument(
        "--clients",
        default=None,
        help="client counts (1,4,16; with --compare-processes 1,4, and 1 is always run)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="repeats of every phase (3)")
    parser.add_argument("--warmup", type=int, default=10, help="warm-up asks per side per round")
    parser.add_argument("--timeout", type=float, default=30.0, help="deadline per request (s)")
    parser.add_argument("--workers", type=int, default=None, help="server --workers")
    parser.add_argument(
        "--threads", type=int, default=None, help="model threads, server and in-process alike"
    )
    parser.add_argument("--max-in-flight", type=int, default=None, help="server --max-in-flight")
    parser.add_argument("--server-log", type=Path, default=None, help="keep the server's log")
    parser.add_argument("--json", action="store_true", help="print only the JSON result")
    parser.add_argument(
        "--compare-metrics",
        action="store_true",
        help="every phase against a server with --metrics-port and one without (see above)",
    )
    parser.add_argument(
        "--compare-processes",
        action="store_true",
        help="1 and 4 clients against --processes 1 and --processes 2 (see above)",
    )
    args = parser.parse_args()

    from edge_server import config as defaults

    workers = args.workers or defaults.DEFAULT_WORKERS
    threads = args.threads or defaults.DEFAULT_ENGINE_THREADS
    max_in_flight = args.max_in_flight or defaults.DEFAULT_MAX_IN_FLIGHT
    clients = sorted({int(c) for c in (args.clients or "1,4,16").split(",") if c.strip()})
    skip = {k.strip() for k in args.skip_kinds.split(",") if k.strip()}
    questions = [q.question for q in load_golden(args.golden) if q.kind not in skip]
    sequence = [questions[i % len(questions)] for i in range(args.requests)]
    log = (lambda *a: print(*a, file=sys.stderr, flush=True)) if args.json else print
    if args.compare_processes:
        by_processes = compare_processes(args, sequence, threads, log)
        if args.json:
            print(json.dumps(by_processes))
        else:
            print_processes(by_processes)
        return
    if args.compare_metrics:
        compared = compare_metrics(args, sequence, questions, clients, threads, log)
        if args.json:
            print(json.dumps(compared))
        else:
            print_comparison(compared)
        return

    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="grpc-load-") as scratch_dir:
        scratch = Path(scratch_dir)
        served, local = scratch / "served", scratch / "local"
        with Engine(Config(data_dir=served)) as builder:
            builder.ingest(sample_documents())
        shutil.copytree(served, local)
        server = ServerProcess(
            served,
            args.server_log or scratch / "server.log",
            args.workers,
            args.max_in_flight,
            threads,
        )
        try:
            with Engine(Config(data_dir=local, threads=threads)) as engine:
                engine.warm_up()
                target = server.wait_until_serving()
                loaded = server.memory_mb()
                log(
                    f"server pid {server.pid} serving on {target} "
                    f"({loaded['rss_mb']:.0f} MB); {' '.join(server.command[1:])}"
                )
                rounds = []
                for i in range(args.rounds):
                    rounds.append(
                        one_round(engine, target, server, sequence, len(questions), clients, args)
                    )
                    r = rounds[-1]
                    log(
                        f"round {i + 1}/{args.rounds} done at "
                        f"{time.monotonic() - began:.0f} s: "
                        + ", ".join(
                            f"{k}={r[k]}"
                            for k in ("grpc_overhead_p50_ms", "speedup_4", "tail_16")
                            if k in r
                        )
                    )
                memory = server.memory_mb()
        finally:
            server.stop()

    summary = medians(rounds)
    result: dict[str, Any] = {
        "benchmark": "grpc_load",
        "settings": {
            "questions": len(questions),
            "skipped_kinds": sorted(skip),
            "requests": args.requests,
            "seconds": args.seconds,
            "clients": clients,
            "rounds_run": len(rounds),
            "workers": workers,
            "threads": threads,
            "max_in_flight": max_in_flight,
            "server_pid": server.pid,
            "cores": os.cpu_count(),
            "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
            "run_seconds": round(time.monotonic() - began, 1),
        },
        "rounds": rounds,
        "median": summary,
        "server_memory": {
            "loaded_rss_mb": round(loaded["rss_mb"], 1),
            "rss_mb": round(memory["rss_mb"], 1),
            "peak_rss_mb": round(memory["peak_rss_mb"], 1),
        },
    }
    result["goals"] = goals(summary, memory, max_in_flight, clients)
    if args.json:
        print(json.dumps(result))
        return
    print_report(result)
    print(
        f"run time {result['settings']['run_seconds']:.0f} s, load average at the end "
        f"{result['settings']['load_average_at_end']}"
    )
    print(json.dumps(flat_summary(result)))


if __name__ == "__main__":
    main()
