"""The embedder graphs on onnxruntime's AVX2 code path, counted in instructions.

Issue 33 asks how the graphs compare on AVX2-only CPUs, and this workplace's machines
have AVX-512 VNNI. Valgrind emulates x86 up to AVX2 only: under it the CPU reports no
AVX-512 or VNNI, so onnxruntime's MLAS picks the kernels an AVX2-only CPU runs. Callgrind
counts the instructions they execute — not seconds, but repeatable whatever else the
machine is doing, so graphs compare fairly on a shared, noisy host.

Each graph runs in its own valgrind process twice: once loading the session and stopping
(``--runs 0``), once running a fixed batch ``--runs`` times; the difference is the
instructions of the runs alone (one intra-op thread, so no spinning threads counted). The
batch is the sample knowledge base's paragraphs (``--texts``, longest first), as ingest
embeds them. Printed: instructions per batch and each graph's ratio to the shipped graph.

Measured against wall time on a real AVX2-only EPYC (issue 33: qint8 0.628 and
qint8-fused 0.616 of shipped, by the clock), the ratios agree within a few per cent —
see benchmarks/README.md. Takes a few minutes per graph.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys

from _common import cpu_line

from ragcore.evaluation.sample import SAMPLE_KB
from ragcore.inference.embedder import OnnxEmbedder, model_inputs
from ragcore.inference.models import embedder_names, embedder_spec

SHIPPED = "all-MiniLM-L6-v2"
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def sample_texts(count: int) -> list[str]:
    """The sample knowledge base's longest ``count`` paragraphs (fixed, so runs compare)."""
    paragraphs = [
        p.strip()
        for path in sorted(SAMPLE_KB.rglob("*.md"))
        for p in path.read_text(encoding="utf-8").split("\n\n")
        if len(p.split()) >= 8
    ]
    return sorted(paragraphs, key=lambda p: (-len(p), p))[:count]


def run_inner(name: str, runs: int, texts: int) -> None:
    """Load ``name`` with one thread and run the fixed batch ``runs`` times."""
    embedder = OnnxEmbedder(embedder_spec(name), threads=1)
    session, tokenizer = embedder._load()[:2]
    encodings = tokenizer.encode_batch(sample_texts(texts))
    feed, _ = model_inputs(encodings, {i.name for i in session.get_inputs()})
    output = embedder_spec(name).output
    for _ in range(runs):
        session.run([output], feed)


def instructions(name: str, runs: int, texts: int) -> int:
    """Instructions callgrind collected for one inner process."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--inner",
        name,
        "--runs",
        str(runs),
        "--texts",
        str(texts),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed for {name}:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--embedder", action="append", default=[], help="manifest name (repeatable)"
    )
    parser.add_argument("--runs", type=int, default=2, help="batch runs counted (default: 2)")
    parser.add_argument("--texts", type=int, default=16, help="texts in the batch (default: 16)")
    parser.add_argument("--inner", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        run_inner(args.inner, args.runs, args.texts)
        return
    names = args.embedder or embedder_names()
    if SHIPPED not in names:
        names = [SHIPPED, *names]
    print(f"{cpu_line()}; under valgrind: the AVX2 path", flush=True)
    per_batch: dict[str, float] = {}
    for name in names:
        counted = instructions(name, args.runs, args.texts) - instructions(name, 0, args.texts)
        per_batch[name] = counted / args.runs
        print(
            f"{name:32s} {per_batch[name] / 1e9:7.3f} G instructions per batch "
            f"({per_batch[name] / per_batch[SHIPPED]:.3f} of shipped)",
            flush=True,
        )
    rows = [
        {
            "embedder": n,
            "instructions_per_batch": round(v),
            "vs_shipped": round(v / per_batch[SHIPPED], 3),
        }
        for n, v in per_batch.items()
    ]
    print(json.dumps({"benchmark": "avx2_instructions", "texts": args.texts, "rows": rows}))


if __name__ == "__main__":
    main()
