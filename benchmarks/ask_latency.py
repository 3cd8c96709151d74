"""Per-stage latency of ``Engine.ask`` on the sample knowledge base (extractive generator).

Builds the sample knowledge base in a scratch data directory (or reuses it), warms the
engine up (models, spaCy, index), then asks every golden-set question ``--rounds``
times, one at a time, as a caller would. Prints p50/p95 per stage (perception, plan,
retrieval, generation, validation) and end to end, the median of the per-round
figures, rounds per question and the RSS; goals on 2 cores: end-to-end p50 <= 50 ms,
perception p50 <= 10 ms.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from _common import median, percentile, rss_mb

from ragcore import Config, Engine
from ragcore.evaluation.golden import SAMPLE_GOLDEN, load_golden
from ragcore.evaluation.sample import sample_documents
from ragcore.types import Stage


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--golden", type=Path, default=SAMPLE_GOLDEN, help="questions to ask")
    parser.add_argument("--data-dir", type=Path, default=None, help="default: a scratch dir")
    parser.add_argument("--rounds", type=int, default=5, help="passes over the questions")
    args = parser.parse_args()

    questions = [q.question for q in load_golden(args.golden)]
    with tempfile.TemporaryDirectory() as scratch:
        # Every round asks the same questions: without the caches each runs the whole loop
        # (benchmarks/cache_latency.py measures the caches).
        config = Config(
            data_dir=args.data_dir or Path(scratch) / "data",
            answer_cache_size=0,
            retrieval_cache_size=0,
        )
        with Engine(config) as engine:
            engine.ingest(sample_documents())
            engine.warm_up()
            rounds = [[engine.ask(q) for q in questions] for _ in range(args.rounds)]
            rss = rss_mb()

    stages = (*Stage.values(), "total")
    figures = {}
    for stage in stages:
        per_round = [[a.timings[stage] for a in answers] for answers in rounds]
        figures[stage] = {
            "p50_ms": round(median([percentile(r, 50) for r in per_round]), 2),
            "p95_ms": round(median([percentile(r, 95) for r in per_round]), 2),
        }
    answers = rounds[-1]
    asked_rounds = [a.rounds for a in answers]
    print(f"{len(questions)} questions x {args.rounds} rounds, sample knowledge base, extractive")
    for stage in stages:
        f = figures[stage]
        print(f"  {stage:11s} p50 {f['p50_ms']:7.2f} ms   p95 {f['p95_ms']:7.2f} ms")
    print(
        f"retrieval rounds per question: mean {sum(asked_rounds) / len(asked_rounds):.2f}, "
        f"max {max(asked_rounds)}; RSS {rss:.0f} MB"
    )
    total, perception = figures["total"]["p50_ms"], figures["perception"]["p50_ms"]
    print(
        f"goals: end-to-end p50 {total:.2f}/50 ms = {total / 50:.2f}, "
        f"perception p50 {perception:.2f}/10 ms = {perception / 10:.2f}"
    )
    print(
        json.dumps(
            {
                "benchmark": "ask_latency",
                "questions": len(questions),
                "rounds": args.rounds,
                "rss_mb": round(rss),
                **{f"{s}_{k}": v for s, f in figures.items() for k, v in f.items()},
            }
        )
    )


if __name__ == "__main__":
    main()
