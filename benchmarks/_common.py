"""Helpers shared by the benchmark scripts: process memory and percentiles."""

from __future__ import annotations

import resource
import statistics
from pathlib import Path

DEFAULT_BEIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "scifact-train.tgz"


def rss_mb() -> float:
    """Current resident set size of this process, in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def median(values: list[float]) -> float:
    return statistics.median(values)
