"""Query embedding and search latency (k=10) over the SciFact index, in process, and memory.

Opens the data directory that ``ragcore eval`` builds for the corpus with the chosen
embedder (``--embedder``, default: the configured one; building it if needed: ~5 min),
warms the engine up, then runs every train query ``--rounds`` times one at a time, as a
caller would: the query embedding alone (``embed``), then keyword, vector and hybrid
search. Prints p50/p95/p99 per mode (medians over rounds) and the RSS of the opened
engine; goals: query embedding p50 <= 2.5 ms, hybrid p50 <= 10 ms, p99 <= 40 ms,
RSS <= 350 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import replace
from pathlib import Path

from _common import DEFAULT_BEIR, median, percentile, rss_mb

from ragcore import Config, Engine
from ragcore.config import default_embedder
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
    parser.add_argument(
        "--embedder",
        action="append",
        default=[],
        help="manifest name (repeat to compare, rounds interleaved; default: the configured)",
    )
    args = parser.parse_args()
    names = args.embedder or [default_embedder()]

    data = open_beir(args.beir, args.split, args.cache_dir)
    configs = {}
    for name in names:
        base = Config(embedder=name)
        configs[name] = replace(base, data_dir=eval_data_dir(base, data, args.cache_dir))
        with Engine(configs[name]) as engine:
            engine.ingest(load_file(data.corpus, "corpus"))
    queries = [data.queries[q] for q in sorted(data.queries)]

    before = rss_mb()
    engines = {name: Engine(config) for name, config in configs.items()}
    modes = ("embed", "keyword", "vector", "hybrid")
    passes: dict[tuple[str, str], list[list[float]]] = {(n, m): [] for n in names for m in modes}
    try:
        for name, engine in engines.items():
            engine.warm_up()
            if name == names[0]:
                rss = rss_mb()  # the first engine alone, loaded and warm
        for round_number in range(args.rounds):
            for name in names if round_number % 2 == 0 else names[::-1]:
                engine = engines[name]
                for mode in modes:
                    latencies = []
                    for query in queries:
                        began = time.perf_counter()
                        if mode == "embed":
                            engine.embedder.embed([query])
                        else:
                            engine.search(query, mode=mode, k=10)
                        latencies.append((time.perf_counter() - began) * 1000)
                    passes[name, mode].append(latencies)
        stats = engines[names[0]].stats()
    finally:
        for engine in engines.values():
            engine.close()
    results: dict[str, dict[str, float]] = {}
    for (name, mode), rounds in passes.items():
        results[f"{name}:{mode}"] = {
            f"p{q}_ms": round(median([percentile(r, q) for r in rounds]), 2) for q in (50, 95, 99)
        }
    for key, figures in results.items():
        print(
            f"{key:32s} k=10 over {len(queries)} queries x {args.rounds}: "
            f"p50 {figures['p50_ms']:.2f} ms, p95 {figures['p95_ms']:.2f} ms, "
            f"p99 {figures['p99_ms']:.2f} ms"
        )
    for name in names[1:]:
        p50 = {
            m: results[f"{name}:{m}"]["p50_ms"] / results[f"{names[0]}:{m}"]["p50_ms"]
            for m in modes
        }
        ratios = ", ".join(f"{mode} {ratio:.3f}" for mode, ratio in p50.items())
        print(f"p50 ratios {name} / {names[0]}: {ratios}")
    print(
        f"engine RSS ({names[0]}) {rss:.0f} MB (process before opening: {before:.0f} MB); "
        f"{stats.chunks} chunks, {stats.documents} documents"
    )
    for name in names:
        embed, hybrid = results[f"{name}:embed"], results[f"{name}:hybrid"]
        print(
            f"goals ({name}): embed p50 {embed['p50_ms']:.2f}/2.5 ms = "
            f"{embed['p50_ms'] / 2.5:.2f}, hybrid p50 {hybrid['p50_ms']:.2f}/10 ms = "
            f"{hybrid['p50_ms'] / 10:.2f}, p99 {hybrid['p99_ms']:.2f}/40 ms = "
            f"{hybrid['p99_ms'] / 40:.2f}"
        )
    print(
        json.dumps(
            {
                "benchmark": "search_latency",
                "embedders": names,
                "queries": len(queries),
                "rounds": args.rounds,
                "chunks": stats.chunks,
                "rss_mb": round(rss),
                "load_average": round(os.getloadavg()[0], 2),
                **{f"{key}_{k}": v for key, r in results.items() for k, v in r.items()},
            }
        )
    )


if __name__ == "__main__":
    main()
