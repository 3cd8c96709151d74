"""Helpers shared by the benchmark scripts: process memory, percentiles, the CPU measured on."""

from __future__ import annotations

import resource
import statistics
from pathlib import Path

# The SIMD extensions onnxruntime's int8 kernels choose between: without avx512_vnni or
# avx_vnni, MatMulInteger runs the slower AVX2/AVX-512 u8s8 paths, so a figure means
# little without them (issue 33: the same graph is 0.36x the shipped one on a VNNI Xeon,
# 0.62x on an AVX2-only EPYC).
SIMD_FLAGS = ("avx2", "fma", "avx512f", "avx512bw", "avx512_vnni", "avx_vnni", "amx_int8")

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


def cpu_description() -> dict[str, object]:
    """The CPU this run measured on: model name and which of SIMD_FLAGS it reports."""
    model, flags = "unknown", set()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name":
            model = value.strip()
        elif key.strip() == "flags":
            flags = set(value.split())
            break
    return {"model": model, "simd": [f for f in SIMD_FLAGS if f in flags]}


def cpu_line() -> str:
    """cpu_description() as one line for a benchmark's header."""
    cpu = cpu_description()
    return f"CPU {cpu['model']} ({', '.join(cpu['simd']) or 'no AVX2'})"  # type: ignore[arg-type]
