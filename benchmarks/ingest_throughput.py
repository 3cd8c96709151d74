"""Ingest throughput on the SciFact corpus vs the raw onnxruntime throughput of its model.

Each round ingests the corpus (or its first ``--documents``) into a fresh data directory
through ``Engine.ingest`` and times it (chunks/s). Then, in the same process, it feeds
the very same chunk texts, sorted by token length and cut into the batches the embedder
plans (``batch_size`` / ``batch_tokens``), straight to the ONNX session, timing only
``session.run`` — the ceiling the pipeline can reach. Rounds alternate the two; the
ratio pipeline/raw (medians) is the share of ingest time the model is busy; goal >= 0.9.
Peak RSS (VmHWM) is read right after the first ingest, before any raw pass; goal
<= 600 MB. Also printed: ``session.run`` calls and padding (padded / real tokens).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

from _common import DEFAULT_BEIR, median, peak_rss_mb

from ragcore import Config, Engine
from ragcore.config import DEFAULT_BATCH_TOKENS, DEFAULT_THREADS, default_embedder
from ragcore.evaluation.beir import open_beir
from ragcore.inference.embedder import OnnxEmbedder, model_inputs
from ragcore.ingest.loaders import load_file


def raw_onnx(embedder: OnnxEmbedder, texts: list[str]) -> dict[str, float]:
    """session.run alone on the length-sorted batches the embedder plans for ``texts``."""
    session, tokenizer = embedder._load()
    encodings = tokenizer.encode_batch(texts)
    encodings.sort(key=lambda e: len(e.ids))
    names = {i.name for i in session.get_inputs()}
    total, calls, padded, real = 0.0, 0, 0, 0
    for members in embedder.plan_batches([len(e.ids) for e in encodings]):
        feeds, mask = model_inputs([encodings[i] for i in members], names)
        began = time.perf_counter()
        session.run(None, feeds)
        total += time.perf_counter() - began
        calls += 1
        padded += mask.size
        real += int(mask.sum())
    return {"seconds": total, "calls": calls, "padding": padded / max(real, 1), "tokens": real}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--beir", type=Path, default=DEFAULT_BEIR, help="BEIR folder or .tgz")
    parser.add_argument(
        "--documents",
        type=int,
        default=1500,
        help="documents to ingest (0 = the whole corpus)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="ingest + raw passes (default 3)")
    parser.add_argument("--embedder", default=default_embedder(), help="manifest name")
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS)
    parser.add_argument("--batch-tokens", type=int, default=DEFAULT_BATCH_TOKENS)
    parser.add_argument("--cache-dir", type=Path, default=Path.home() / ".cache" / "ragcore-bench")
    args = parser.parse_args()

    data = open_beir(args.beir, "train", args.cache_dir)
    documents = load_file(data.corpus, "corpus")
    if args.documents:
        documents = documents[: args.documents]
    settings = {
        "embedder": args.embedder,
        "threads": args.threads,
        "batch_tokens": args.batch_tokens,
    }
    print(
        f"{len(documents)} documents, embedder {args.embedder}, threads {args.threads}, "
        f"batch_tokens {args.batch_tokens}, load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    pipeline_s, raw_s, cpu_s = [], [], []
    peak = chunks = 0.0
    raw: dict[str, float] = {}
    for round_number in range(args.rounds):
        with tempfile.TemporaryDirectory() as tmp:
            engine = Engine(Config(data_dir=Path(tmp), **settings))
            with engine:
                engine.embedder.embed(["warm up"])
                began, cpu = time.perf_counter(), time.process_time()
                report = engine.ingest(documents)
                pipeline_s.append(time.perf_counter() - began)
                cpu_s.append(time.process_time() - cpu)
                if round_number == 0:
                    peak = peak_rss_mb()
                chunks = report.chunks
                stored = engine.store.chunks(range(1, report.chunks + 1))
                by_doc = {d.id: d for d in documents}
                texts = [
                    f"{by_doc[c.document_id].title}\n{c.text}"
                    if by_doc[c.document_id].title
                    else c.text
                    for c in stored.values()
                ]
                assert isinstance(engine.embedder, OnnxEmbedder)
                raw = raw_onnx(engine.embedder, texts)
                raw_s.append(raw["seconds"])
        print(
            f"round {round_number + 1}: pipeline {pipeline_s[-1]:.1f} s "
            f"({chunks / pipeline_s[-1]:.1f} chunks/s, CPU {cpu_s[-1]:.1f} s), raw "
            f"{raw_s[-1]:.1f} s ({chunks / raw_s[-1]:.1f} chunks/s), ratio "
            f"{raw_s[-1] / pipeline_s[-1]:.3f}",
            flush=True,
        )
    pipeline, raw_seconds = median(pipeline_s), median(raw_s)
    ratios = [r / p for r, p in zip(raw_s, pipeline_s)]
    print(
        f"ingest: {len(documents)} documents, {chunks:.0f} chunks, median {pipeline:.1f} s = "
        f"{chunks / pipeline:.1f} chunks/s, {len(documents) / pipeline:.1f} docs/s; "
        f"peak RSS {peak:.0f} MB (goal <= 600)"
    )
    print(
        f"raw onnxruntime on the same batches: median {raw_seconds:.1f} s = "
        f"{chunks / raw_seconds:.1f} chunks/s; {raw['calls']:.0f} session.run calls, "
        f"{raw['tokens']:.0f} token positions, padding {raw['padding']:.3f}"
    )
    print(f"ratio pipeline/raw throughput: median {median(ratios):.3f} (goal >= 0.9)")
    print(
        json.dumps(
            {
                "benchmark": "ingest_throughput",
                **settings,
                "documents": len(documents),
                "chunks": chunks,
                "rounds": args.rounds,
                "pipeline_s": [round(x, 2) for x in pipeline_s],
                "pipeline_cpu_s": [round(x, 2) for x in cpu_s],
                "raw_onnx_s": [round(x, 2) for x in raw_s],
                "chunks_per_s": round(chunks / pipeline, 1),
                "raw_chunks_per_s": round(chunks / raw_seconds, 1),
                "ratio": round(median(ratios), 3),
                "session_runs": raw["calls"],
                "token_positions": raw["tokens"],
                "padding": round(raw["padding"], 3),
                "peak_rss_mb": round(peak),
            }
        )
    )


if __name__ == "__main__":
    main()
