"""What the parent's relay of ``serve --processes N`` costs per call (issue 30).

Starts ``python -m edge_server --processes 2 --sample-kb`` on a scratch data directory and
makes the same sequential calls two ways, alternating blocks: through the public port
(the parent relays them, ``edge_server.balancer``) and straight to one child's unix socket
(read from its log line). Per way: p50 and p90 latency, and the parent's CPU per call
(from /proc; the parent does nothing else meanwhile). Health checks are the smallest
call (one HEADERS+DATA each way and the trailers): the relay's fixed cost; an Ask relays
about as many frames. Reports the medians over ``--rounds`` blocks.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc
from _common import median, percentile
from grpc_health.v1 import health_pb2, health_pb2_grpc

REPO = Path(__file__).resolve().parents[1]
CLOCK_TICK = os.sysconf("SC_CLK_TCK")
SERVING = re.compile(r"INFO edge_server\.server: serving")
PUBLIC = re.compile(r"listening on 127\.0\.0\.1:(\d+) with")
PRIVATE = re.compile(r"listening on (unix:\S+)")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICK


def wait_for_children(log: Path, server: subprocess.Popen, timeout: float = 180.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        if len(SERVING.findall(text)) >= 2:
            return text
        if server.poll() is not None:
            raise RuntimeError(f"the server exited ({server.returncode}):\n{text}")
        time.sleep(0.2)
    raise TimeoutError(f"the children were not serving within {timeout:.0f} s")


def block(target: str, calls: int, parent: int) -> tuple[list[float], float]:
    """``calls`` health checks on one channel (after a warm-up); latencies in µs, and the
    parent's CPU µs per call."""
    with grpc.insecure_channel(target) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        request = health_pb2.HealthCheckRequest()
        for _ in range(100):
            stub.Check(request, timeout=10)
        latencies = []
        before = cpu_seconds(parent)
        for _ in range(calls):
            started = time.perf_counter()
            stub.Check(request, timeout=10)
            latencies.append((time.perf_counter() - started) * 1e6)
        return latencies, (cpu_seconds(parent) - before) * 1e6 / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=3000, help="calls per block (3000)")
    parser.add_argument("--rounds", type=int, default=3, help="blocks per way (3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="relay-cost-") as scratch:
        log = Path(scratch) / "server.log"
        command = [sys.executable, "-m", "edge_server", "--data-dir", f"{scratch}/data"]
        command += ["--port", "0", "--processes", "2", "--sample-kb"]
        with log.open("wb") as sink:
            server = subprocess.Popen(command, cwd=REPO, stdout=sink, stderr=sink)
        try:
            text = wait_for_children(log, server)
            found = PUBLIC.search(text)
            assert found, text
            ways = {"relayed": f"127.0.0.1:{found.group(1)}", "direct": PRIVATE.findall(text)[0]}
            figures: dict[str, dict[str, list[float]]] = {
                way: {"p50": [], "p90": [], "cpu": []} for way in ways
            }
            for _ in range(args.rounds):
                for way, target in ways.items():
                    latencies, cpu = block(target, args.calls, server.pid)
                    figures[way]["p50"].append(percentile(latencies, 50))
                    figures[way]["p90"].append(percentile(latencies, 90))
                    figures[way]["cpu"].append(cpu)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(60)
    print(f"health checks, {args.calls} per block, {args.rounds} blocks per way (medians):")
    for way, f in figures.items():
        print(
            f"{way:8s} p50 {median(f['p50']):6.0f} µs  p90 {median(f['p90']):6.0f} µs  "
            f"parent CPU {median(f['cpu']):5.0f} µs per call"
        )
    print(f"load average {[round(x, 2) for x in os.getloadavg()]}")


if __name__ == "__main__":
    main()
