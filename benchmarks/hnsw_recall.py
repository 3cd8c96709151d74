"""Recall@10 and latency of ragcore's HnswIndex at 100k and 1M synthetic 384-d vectors.

What is measured: ``ragcore.vector_index.HnswIndex`` (the class the product uses, built
with ``HnswParams`` and the product's 2 threads, vectors added through ``add`` in blocks
as ingest does) on synthetic unit vectors of the embedder's dimension (384):

* data: a Gaussian mixture (``--centres`` random unit centres, each point a centre plus
  isotropic Gaussian noise of standard deviation ``--noise`` per component, then
  L2-normalised), which is closer to sentence embeddings than structureless data; the
  queries are 1,000 (``--queries``) further points drawn from the same mixture and not
  indexed. For honesty the same index is also built on plain isotropic Gaussian data
  at ``--isotropic-size`` (default 100k): that is a worst case that real embeddings do
  not look like, and its recall is far lower;
* ground truth: exact top-10 by inner product, numpy matmul over blocks of the data;
* build: wall time of adding every vector (2 threads), the index's resident memory
  (RSS growth of this process during the build), the saved file's size, load time;
* search: for each ``--ef-search`` value the index is loaded from its saved file with
  those HnswParams (as PersistentIndex opens it), then each query is searched alone
  (k=10, ``HnswIndex.search``, 1 thread, Python call included, as the product does).
  Recall@10 is |approximate top-10 & exact top-10| / 10, averaged over the queries;
  p50/p99 latencies are the median over ``--rounds`` passes of each pass's percentile.

ef_construction: the product default (200) unless the build of the next size,
extrapolated from the last one, would push the run past ``--time-budget`` seconds; it
is then lowered (never below 64) and the choice is printed.

How to read the output: one table per (data, size), one row per ef_search; the row
marked ``*`` is the product's default ef_search. The goal is recall@10 >= 0.95 at the
default. Timings on a shared 2-core machine are provisional: compare ratios within one
run. The last line is JSON with every figure.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import gc
import json
import math
import os
import tempfile
import time
from pathlib import Path
from typing import TypedDict

import numpy as np
from _common import median, percentile, rss_mb

from ragcore import HnswParams
from ragcore.storage.vector_index import HnswIndex

DIM = 384
K = 10
PRODUCT = HnswParams()
BUILD_BLOCK = 100_000  # vectors per HnswIndex.add call
TRUTH_BLOCK = 50_000  # data rows per matmul block of the exact search

# One row of a run's search table ("recall@10" is not an identifier: functional syntax).
SearchRow = TypedDict(
    "SearchRow",
    {
        "ef_search": int,
        "recall@10": float,
        "p50_ms": float,
        "p99_ms": float,
        "load_seconds": float,
    },
)


class RunResult(TypedDict):
    """The figures of one (data, size) run, as printed in the JSON line."""

    data: str
    vectors: int
    m: int
    ef_construction: int
    build_seconds: float
    build_vectors_per_second: int
    build_rss_mb: float
    index_file_mb: float
    exact_search_seconds: float
    mean_cosine_true_1st: float
    mean_cosine_true_10th: float
    searches: list[SearchRow]


def mixture(n: int, centres: np.ndarray, noise: float, rng: np.random.Generator) -> np.ndarray:
    """``n`` normalised points: a random centre plus isotropic noise (in blocks)."""
    out = np.empty((n, centres.shape[1]), dtype=np.float32)
    for lo in range(0, n, 100_000):
        hi = min(n, lo + 100_000)
        labels = rng.integers(0, len(centres), hi - lo)
        block = rng.standard_normal((hi - lo, centres.shape[1]), dtype=np.float32)
        block *= noise
        block += centres[labels]
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        out[lo:hi] = block
    return out


def isotropic(n: int, rng: np.random.Generator) -> np.ndarray:
    out = np.empty((n, DIM), dtype=np.float32)
    for lo in range(0, n, 100_000):
        hi = min(n, lo + 100_000)
        block = rng.standard_normal((hi - lo, DIM), dtype=np.float32)
        out[lo:hi] = block / np.linalg.norm(block, axis=1, keepdims=True)
    return out


def exact_top_k(data: np.ndarray, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact top-k ids and scores by inner product, best first (blocked matmul)."""
    best_ids = np.zeros((len(queries), 0), dtype=np.int64)
    best_scores = np.zeros((len(queries), 0), dtype=np.float32)
    for lo in range(0, len(data), TRUTH_BLOCK):
        scores = queries @ data[lo : lo + TRUTH_BLOCK].T
        part = np.argpartition(-scores, k - 1, axis=1)[:, :k]
        best_ids = np.hstack([best_ids, part + lo])
        best_scores = np.hstack([best_scores, np.take_along_axis(scores, part, axis=1)])
        keep = np.argpartition(-best_scores, k - 1, axis=1)[:, :k]
        best_ids = np.take_along_axis(best_ids, keep, axis=1)
        best_scores = np.take_along_axis(best_scores, keep, axis=1)
    order = np.argsort(-best_scores, axis=1)
    return np.take_along_axis(best_ids, order, axis=1), np.take_along_axis(
        best_scores, order, axis=1
    )


def release_memory() -> None:
    """Collect garbage and hand freed heap back to the OS, so RSS growth is the index's."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # not glibc: RSS may undercount
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def build(data: np.ndarray, params: HnswParams, threads: int) -> tuple[HnswIndex, float, float]:
    """Build through HnswIndex.add in blocks; return the index, seconds, RSS growth (MB)."""
    release_memory()
    before = rss_mb()
    started = time.perf_counter()
    index = HnswIndex(DIM, params, threads=threads)
    for lo in range(0, len(data), BUILD_BLOCK):
        hi = min(len(data), lo + BUILD_BLOCK)
        index.add(range(lo, hi), data[lo:hi])
        if len(data) > BUILD_BLOCK:
            elapsed = time.perf_counter() - started
            print(f"    built {hi:>9,}/{len(data):,} in {elapsed:6.0f} s", flush=True)
    seconds = time.perf_counter() - started
    return index, seconds, rss_mb() - before


def measure_searches(
    path: Path,
    count: int,
    params: HnswParams,
    queries: np.ndarray,
    truth: np.ndarray,
    rounds: int,
) -> SearchRow:
    started = time.perf_counter()
    index = HnswIndex.load(path, DIM, params, threads=2, count=count)
    load_seconds = time.perf_counter() - started
    for q in queries[:50]:  # warm up caches and the allocator
        index.search(q, K)
    p50s: list[float] = []
    p99s: list[float] = []
    recall: float | None = None
    for round_number in range(rounds):
        latencies, found = [], []
        for q in queries:
            began = time.perf_counter_ns()
            hits = index.search(q, K)
            latencies.append((time.perf_counter_ns() - began) / 1e6)
            found.append([label for label, _ in hits])
        p50s.append(percentile(latencies, 50))
        p99s.append(percentile(latencies, 99))
        if round_number == 0:
            recall = float(
                np.mean([len(set(f) & set(t.tolist())) / K for f, t in zip(found, truth)])
            )
    del index
    release_memory()
    assert recall is not None, "rounds must be at least 1"
    return {
        "ef_search": params.ef_search,
        "recall@10": round(recall, 4),
        "p50_ms": round(median(p50s), 3),
        "p99_ms": round(median(p99s), 3),
        "load_seconds": round(load_seconds, 2),
    }


def run_one(
    label: str,
    data: np.ndarray,
    queries: np.ndarray,
    ef_construction: int,
    args: argparse.Namespace,
    workdir: Path,
) -> RunResult:
    n = len(data)
    print(f"\n== {label}, {n:,} vectors x {DIM} ==", flush=True)
    started = time.perf_counter()
    truth, truth_scores = exact_top_k(data, queries, K)
    truth_seconds = time.perf_counter() - started
    print(
        f"  exact top-{K} of {len(queries):,} queries: {truth_seconds:.1f} s; mean cosine of "
        f"true 1st / 10th neighbour {truth_scores[:, 0].mean():.3f} / "
        f"{truth_scores[:, -1].mean():.3f}",
        flush=True,
    )
    params = HnswParams(m=args.m, ef_construction=ef_construction, ef_search=PRODUCT.ef_search)
    index, build_seconds, build_rss = build(data, params, args.threads)
    path = workdir / f"{label}-{n}.hnsw"
    index.save(path)
    file_mb = path.stat().st_size / 1e6
    count = len(index)
    del index
    release_memory()
    print(
        f"  M={params.m} ef_construction={params.ef_construction} threads={args.threads}: "
        f"build {build_seconds:.1f} s ({n / build_seconds:,.0f} vectors/s), "
        f"RSS +{build_rss:,.0f} MB, file {file_mb:,.0f} MB ({file_mb * 1e6 / n:,.0f} B/vector)",
        flush=True,
    )
    rows: list[SearchRow] = []
    print(f"  {'ef_search':>10} {'recall@10':>10} {'p50 ms':>8} {'p99 ms':>8} {'load s':>7}")
    for ef in args.ef_search:
        row = measure_searches(
            path,
            count,
            HnswParams(m=params.m, ef_construction=params.ef_construction, ef_search=ef),
            queries,
            truth,
            args.rounds,
        )
        rows.append(row)
        mark = "*" if ef == PRODUCT.ef_search else " "
        print(
            f"  {ef:>9}{mark} {row['recall@10']:>10.4f} {row['p50_ms']:>8.3f} "
            f"{row['p99_ms']:>8.3f} {row['load_seconds']:>7.2f}",
            flush=True,
        )
    path.unlink()
    return {
        "data": label,
        "vectors": n,
        "m": params.m,
        "ef_construction": params.ef_construction,
        "build_seconds": round(build_seconds, 1),
        "build_vectors_per_second": round(n / build_seconds),
        "build_rss_mb": round(build_rss, 1),
        "index_file_mb": round(file_mb, 1),
        "exact_search_seconds": round(truth_seconds, 1),
        "mean_cosine_true_1st": round(float(truth_scores[:, 0].mean()), 4),
        "mean_cosine_true_10th": round(float(truth_scores[:, -1].mean()), 4),
        "searches": rows,
    }


def pick_ef_construction(
    current: int, last_n: int, last_seconds: float, next_n: int, remaining: float
) -> int:
    """Lower ef_construction if the next build, extrapolated, would overrun the budget.

    Build time grows about as n log n and about linearly with ef_construction.
    """
    estimate = last_seconds * (next_n / last_n) * math.log(next_n) / math.log(last_n)
    if estimate <= 0.8 * remaining:
        return current
    return max(64, int(current * 0.8 * remaining / estimate))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sizes",
        default="100000,1000000",
        help="comma-separated numbers of indexed vectors (default: 100000,1000000)",
    )
    parser.add_argument(
        "--queries", type=int, default=1000, help="held-out queries (default: 1000)"
    )
    parser.add_argument("--centres", type=int, default=2000, help="mixture centres (default: 2000)")
    parser.add_argument(
        "--noise",
        type=float,
        default=0.06,
        help="noise standard deviation per component around a centre, before "
        "normalising (default: 0.06, a point's cosine to its centre about 0.65)",
    )
    parser.add_argument(
        "--isotropic-size",
        type=int,
        default=100_000,
        help="also measure structureless isotropic data of this size; 0 skips (default: 100000)",
    )
    parser.add_argument("--m", type=int, default=PRODUCT.m, help=f"HNSW M (default: {PRODUCT.m})")
    parser.add_argument(
        "--ef-construction",
        type=int,
        default=PRODUCT.ef_construction,
        help=f"starting ef_construction (default: product's {PRODUCT.ef_construction}); "
        "lowered for larger sizes if the time budget needs it",
    )
    parser.add_argument(
        "--ef-search",
        default="64,128,256",
        help=f"comma-separated ef_search values (default: 64,128,256; product {PRODUCT.ef_search})",
    )
    parser.add_argument("--threads", type=int, default=2, help="build threads (default: 2)")
    parser.add_argument(
        "--rounds", type=int, default=3, help="timed passes over the queries (default: 3)"
    )
    parser.add_argument(
        "--time-budget",
        type=float,
        default=1500,
        help="seconds the whole run should stay under; drives ef_construction (default: 1500)",
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    parser.add_argument(
        "--workdir",
        type=Path,
        default=None,
        help="where index files are saved (default: a temp dir)",
    )
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(",") if s.strip())
    args.ef_search = [int(s) for s in args.ef_search.split(",") if s.strip()]
    if not sizes or min(sizes) < 1000:
        parser.error("--sizes: give sizes of at least 1000")

    t0 = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    print(
        f"HnswIndex recall/latency: dim {DIM}, k={K}, {args.queries} held-out queries, "
        f"M={args.m}, ef_construction start {args.ef_construction}, "
        f"ef_search {args.ef_search} (product default {PRODUCT.ef_search}), "
        f"{os.cpu_count()} CPUs, load average at start {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    print(
        f"data: Gaussian mixture of {args.centres} random unit centres + N(0, {args.noise}^2) "
        "noise per component, normalised; queries drawn from the same mixture",
        flush=True,
    )
    centres = isotropic(args.centres, rng)
    results: list[RunResult] = []
    choices: list[dict[str, int]] = []
    ef_construction = args.ef_construction
    with tempfile.TemporaryDirectory(dir=args.workdir) as tmp:
        workdir = Path(tmp)
        if args.isotropic_size:
            iso = isotropic(args.isotropic_size + args.queries, rng)
            results.append(
                run_one(
                    "isotropic",
                    iso[: args.isotropic_size],
                    iso[args.isotropic_size :],
                    ef_construction,
                    args,
                    workdir,
                )
            )
            del iso
            release_memory()
        for i, n in enumerate(sizes):
            if i > 0:
                last = results[-1]
                remaining = args.time_budget - (time.perf_counter() - t0)
                # search, exact truth and data generation take roughly this much beyond the build
                overhead = 60 + 2e-4 * n
                chosen = pick_ef_construction(
                    ef_construction,
                    last["vectors"],
                    last["build_seconds"],
                    n,
                    remaining - overhead,
                )
                reason = (
                    "kept"
                    if chosen == ef_construction
                    else f"lowered from {ef_construction} to fit the budget"
                )
                print(
                    f"\nef_construction for {n:,}: {chosen} ({reason}; {remaining:.0f} s of "
                    f"the {args.time_budget:.0f} s budget left, last build "
                    f"{last['build_seconds']:.0f} s for {last['vectors']:,})",
                    flush=True,
                )
                ef_construction = chosen
            choices.append({"vectors": n, "ef_construction": ef_construction})
            points = mixture(n + args.queries, centres, args.noise, rng)
            results.append(
                run_one("mixture", points[:n], points[n:], ef_construction, args, workdir)
            )
            del points
            release_memory()
    total = time.perf_counter() - t0

    print("\nsummary at the product's ef_search (goal recall@10 >= 0.95):")
    verdicts = []
    for r in results:
        row = next((s for s in r["searches"] if s["ef_search"] == PRODUCT.ef_search), None)
        if row is None:
            continue
        ok = row["recall@10"] >= 0.95
        verdicts.append({"data": r["data"], "vectors": r["vectors"], "meets_goal": ok})
        print(
            f"  {r['data']:9s} {r['vectors']:>9,}: recall@10 {row['recall@10']:.4f} "
            f"({row['recall@10'] / 0.95:.2f} of goal, {'meets' if ok else 'MISSES'} it), "
            f"p50 {row['p50_ms']:.3f} ms, p99 {row['p99_ms']:.3f} ms, "
            f"build {r['build_seconds']:.0f} s, RSS +{r['build_rss_mb']:.0f} MB"
        )
    mixtures = [r for r in results if r["data"] == "mixture"]
    if len(mixtures) >= 2:
        a, b = mixtures[0], mixtures[-1]
        print(
            f"  {b['vectors']:,} vs {a['vectors']:,}: build time x"
            f"{b['build_seconds'] / a['build_seconds']:.1f} for x{b['vectors'] / a['vectors']:.0f} "
            f"the vectors; index file x{b['index_file_mb'] / a['index_file_mb']:.1f}"
        )
    print(f"total run time {total:.0f} s; load average at end {os.getloadavg()[0]:.2f}")
    print(
        json.dumps(
            {
                "benchmark": "hnsw_recall",
                "dimension": DIM,
                "k": K,
                "queries": args.queries,
                "mixture": {"centres": args.centres, "noise": args.noise, "seed": args.seed},
                "product_params": {
                    "m": PRODUCT.m,
                    "ef_construction": PRODUCT.ef_construction,
                    "ef_search": PRODUCT.ef_search,
                },
                "ef_construction_choices": choices,
                "threads": args.threads,
                "rounds": args.rounds,
                "results": results,
                "goal_recall@10": 0.95,
                "verdicts": verdicts,
                "total_seconds": round(total, 1),
                "load_average_end": round(os.getloadavg()[0], 2),
            }
        )
    )


if __name__ == "__main__":
    main()
