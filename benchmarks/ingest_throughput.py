"""Ingest throughput on the SciFact corpus vs the raw onnxruntime throughput of its model.

Ingests the corpus (or its first ``--documents``) into a fresh data directory and
times it (chunks/s, peak RSS). Then, in the same process, feeds the very same chunk
texts, in the same length-sorted, dynamically padded batches, straight to the ONNX
session, timing only ``session.run`` — the ceiling the pipeline can reach. The ratio
pipeline/raw is the share of time spent embedding; goal >= 0.85 (overhead <= 15 %).
Peak RSS is read right after the ingest, before the raw pass; goal <= 600 MB.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import DEFAULT_BEIR, peak_rss_mb

from ragcore import Config, Engine
from ragcore.evaluation.beir import open_beir
from ragcore.ingest.loaders import load_file


def raw_onnx_seconds(embedder, texts: list[str]) -> float:
    """Time of session.run alone on the batches OnnxEmbedder.embed would make."""
    session, tokenizer = embedder._load()
    encodings = tokenizer.encode_batch(texts)
    order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
    total = 0.0
    for members in embedder._batches(order, [len(e.ids) for e in encodings]):
        batch = [encodings[i] for i in members]
        width = max(len(e.ids) for e in batch)
        ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, e in enumerate(batch):
            ids[row, : len(e.ids)] = e.ids
            mask[row, : len(e.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        began = time.perf_counter()
        session.run(None, {k: v for k, v in feeds.items() if k in embedder._input_names})
        total += time.perf_counter() - began
    return total


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--beir", type=Path, default=DEFAULT_BEIR, help="BEIR folder or .tgz")
    parser.add_argument(
        "--documents",
        type=int,
        default=1500,
        help="documents to ingest (0 = the whole corpus, ~8 min)",
    )
    parser.add_argument("--cache-dir", type=Path, default=Path.home() / ".cache" / "ragcore-bench")
    args = parser.parse_args()

    data = open_beir(args.beir, "train", args.cache_dir)
    documents = load_file(data.corpus, "corpus")
    if args.documents:
        documents = documents[: args.documents]
    with tempfile.TemporaryDirectory() as tmp, Engine(Config(data_dir=Path(tmp))) as engine:
        engine.embedder.embed(["warm up"])
        began = time.perf_counter()
        report = engine.ingest(documents)
        pipeline = time.perf_counter() - began
        peak = peak_rss_mb()
        stored = engine.store.chunks(range(1, report.chunks + 1))
        by_doc = {d.id: d for d in documents}
        texts = [
            f"{by_doc[c.document_id].title}\n{c.text}" if by_doc[c.document_id].title else c.text
            for c in stored.values()
        ]
        raw = raw_onnx_seconds(engine.embedder, texts)
    chunks = report.chunks
    print(
        f"ingest: {len(documents)} documents, {chunks} chunks in {pipeline:.1f} s = "
        f"{chunks / pipeline:.1f} chunks/s; peak RSS {peak:.0f} MB (goal <= 600)"
    )
    print(f"raw onnxruntime on the same batches: {raw:.1f} s = {chunks / raw:.1f} chunks/s")
    print(f"ratio pipeline/raw throughput: {raw / pipeline:.3f} (goal >= 0.85)")
    print(
        json.dumps(
            {
                "benchmark": "ingest_throughput",
                "documents": len(documents),
                "chunks": chunks,
                "pipeline_s": round(pipeline, 2),
                "raw_onnx_s": round(raw, 2),
                "chunks_per_s": round(chunks / pipeline, 1),
                "raw_chunks_per_s": round(chunks / raw, 1),
                "ratio": round(raw / pipeline, 3),
                "peak_rss_mb": round(peak),
            }
        )
    )


if __name__ == "__main__":
    main()
