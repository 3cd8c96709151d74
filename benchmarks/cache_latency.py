"""The answer and retrieval caches on the sample knowledge base: hit latency in process and
over gRPC, near-duplicate reuse, and the share of golden questions a second pass serves
from cache.

Builds the sample knowledge base in a scratch data directory and warms the engine up, then:

1. asks every golden question (the bundled set and the held-out set) once, then again:
   the share of the second pass answered from the answer cache (goal: all of them) and
   the p50/p95 of a cache hit, end to end as the caller sees it (goal p50 < 0.5 ms);
2. asks a near-duplicate of every golden question (the question with "please" added, a
   different text with the same perception): the share that reused a cached retrieval,
   and the p50 of round 1's retrieval stage (the one a reuse replaces; it includes the
   question's embedding for the look-up) and of the whole ask, for reused and for fresh
   retrievals (the first pass);
3. serves the data directory over gRPC (a real server on a free port, in this process)
   and asks one question ``--grpc-repeats`` times: the p50/p95 of a cached Ask round
   trip (goal p50 < 3 ms).

Each figure is the median over ``--runs`` runs (each run a fresh engine, caches empty).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from _common import median, percentile

from edge_server import ServerConfig, create_server
from edge_server.client import Client
from ragcore import Config, Engine
from ragcore.evaluation.golden import SAMPLE_GOLDEN, load_golden
from ragcore.evaluation.sample import sample_documents

HELDOUT = Path(__file__).resolve().parent / "heldout_golden.jsonl"


def near_duplicate(question: str) -> str:
    """The same question in other words (a politeness the perception ignores)."""
    return question.rstrip(" ?.!") + ", please?"


def one_run(template: Path, scratch: Path, questions: list[str], repeats: int) -> dict:
    data = scratch / f"data-{time.monotonic_ns()}"
    shutil.copytree(template, data)
    figures: dict[str, float] = {}
    with Engine(Config(data_dir=data)) as engine:
        engine.warm_up()
        first = [engine.ask(q) for q in questions]
        hits, second = [], []
        for q in questions:
            started = time.perf_counter()
            answer = engine.ask(q)
            hits.append((time.perf_counter() - started) * 1000)
            second.append(answer)
        figures["second_pass_cached"] = sum(a.cached for a in second) / len(second)
        figures["hit_p50_ms"] = percentile(hits, 50)
        figures["hit_p95_ms"] = percentile(hits, 95)

        near = [engine.ask(near_duplicate(q)) for q in questions]
        reused = [a for a in near if _reused(a)]
        figures["near_duplicates_reused"] = len(reused) / len(near)
        if reused:
            figures["reused_round1_retrieval_p50_ms"] = percentile(
                [_first_retrieval(a) for a in reused], 50
            )
            figures["reused_total_p50_ms"] = percentile([a.timings["total"] for a in reused], 50)
        fresh = [a for a in first if a.rounds]
        figures["fresh_round1_retrieval_p50_ms"] = percentile(
            [_first_retrieval(a) for a in fresh], 50
        )
        figures["fresh_total_p50_ms"] = percentile([a.timings["total"] for a in fresh], 50)

        server = create_server(ServerConfig(engine=engine.config, port=0), engine).start()
        try:
            server.wait_until_loaded(60)
            with Client(f"127.0.0.1:{server.port}") as client:
                question = questions[0]
                client.ask(question)
                trips = []
                for _ in range(repeats):
                    started = time.perf_counter()
                    answer = client.ask(question)
                    trips.append((time.perf_counter() - started) * 1000)
                    assert answer.cached
            figures["grpc_hit_p50_ms"] = percentile(trips, 50)
            figures["grpc_hit_p95_ms"] = percentile(trips, 95)
        finally:
            server.stop(grace=0)
    return figures


def _first_retrieval(answer) -> float:
    """Milliseconds of round 1's retrieval stage (a reuse replaces round 1 only)."""
    return next(n.ms for n in answer.trace.walk() if n.name == "retrieval")


def _reused(answer) -> bool:
    return any("retrieval reused" in node.detail for node in answer.trace.walk())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3, help="runs, each on fresh caches")
    parser.add_argument("--grpc-repeats", type=int, default=200, help="cached Asks over gRPC")
    args = parser.parse_args()

    questions = [q.question for path in (SAMPLE_GOLDEN, HELDOUT) for q in load_golden(path)]
    with tempfile.TemporaryDirectory() as scratch:
        template = Path(scratch) / "template"
        with Engine(Config(data_dir=template)) as builder:
            builder.ingest(sample_documents())
        runs = [
            one_run(template, Path(scratch), questions, args.grpc_repeats) for _ in range(args.runs)
        ]
    print(f"{len(questions)} golden questions, sample knowledge base, {args.runs} runs (medians)")
    for key in runs[0]:
        values = [r[key] for r in runs if key in r]
        value = median(values)
        shown = f"{value:.3f} ms" if key.endswith("_ms") else f"{value:.1%}"
        print(f"  {key:28s} {shown}")


if __name__ == "__main__":
    main()
