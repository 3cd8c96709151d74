"""Hybrid search latency (k=10) over the SciFact index, in process, and engine memory.

Opens the data directory that ``ragcore eval`` builds for the corpus (building it if
needed: ~8 min), warms the engine up, then runs every train query ``--rounds`` times
one at a time, as a caller would. Prints p50/p95/p99 per mode, the median p50 over
rounds, and the RSS of the opened engine; goals: hybrid p50 <= 15 ms, p99 <= 40 ms,
RSS <= 350 MB.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from _common import DEFAULT_BEIR, median, percentile, rss_mb

from ragcore import Config, Engine
from ragcore.evaluation.beir import eval_data_dir, open_beir
from ragcore.ingest.loaders import load_file


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--beir", type=Path, default=DEFAULT_BEIR, help="BEIR folder or .tgz")
    parser.add_argument("--split", default="train")
    parser.add_argument("--cache-dir", type=Path, default=Path.home() / ".cache" / "ragcore-bench")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the queries")
    args = parser.parse_args()

    data = open_beir(args.beir, args.split, args.cache_dir)
    config = Config(data_dir=eval_data_dir(Config(), data, args.cache_dir))
    with Engine(config) as engine:
        engine.ingest(load_file(data.corpus, "corpus"))
    queries = [data.queries[q] for q in sorted(data.queries)]

    before = rss_mb()
    with Engine(config) as engine:
        engine.warm_up()
        results = {}
        for mode in ("keyword", "vector", "hybrid"):
            rounds = []
            for _ in range(args.rounds):
                latencies = []
                for query in queries:
                    began = time.perf_counter()
                    engine.search(query, mode=mode, k=10)
                    latencies.append((time.perf_counter() - began) * 1000)
                rounds.append(latencies)
            results[mode] = {
                "p50_ms": round(median([percentile(r, 50) for r in rounds]), 2),
                "p95_ms": round(median([percentile(r, 95) for r in rounds]), 2),
                "p99_ms": round(median([percentile(r, 99) for r in rounds]), 2),
            }
            print(
                f"{mode:8s} k=10 over {len(queries)} queries x {args.rounds}: "
                f"p50 {results[mode]['p50_ms']:.2f} ms, p95 {results[mode]['p95_ms']:.2f} ms, "
                f"p99 {results[mode]['p99_ms']:.2f} ms"
            )
        rss = rss_mb()
        stats = engine.stats()
    hybrid = results["hybrid"]
    print(
        f"engine RSS {rss:.0f} MB (process before opening: {before:.0f} MB); "
        f"{stats.chunks} chunks, {stats.documents} documents"
    )
    print(
        f"goals: hybrid p50 {hybrid['p50_ms']:.2f}/15 ms = {hybrid['p50_ms'] / 15:.2f}, "
        f"p99 {hybrid['p99_ms']:.2f}/40 ms = {hybrid['p99_ms'] / 40:.2f}, "
        f"RSS {rss:.0f}/350 MB = {rss / 350:.2f}"
    )
    print(
        json.dumps(
            {
                "benchmark": "search_latency",
                "queries": len(queries),
                "rounds": args.rounds,
                "chunks": stats.chunks,
                "rss_mb": round(rss),
                **{f"{m}_{k}": v for m, r in results.items() for k, v in r.items()},
            }
        )
    )


if __name__ == "__main__":
    main()
