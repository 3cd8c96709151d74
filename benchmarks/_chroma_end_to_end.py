"""End to end: ``ragcore ingest`` against Chroma's default embedding function, whole processes.

Used by ``chroma_compare.py`` (its first table). The same SciFact documents (the first
``--e2e-documents`` of the corpus, as a BEIR ``corpus.jsonl``) go into a fresh store:

* ragcore: ``ragcore ingest corpus.jsonl --data-dir DIR --json``, the command line a user
  runs (default settings: chunking with overlap, every token embedded, the default
  embedder, FTS5 and the HNSW index saved);
* Chroma: a Python process (this file, ``chroma-ingest``) that opens a
  ``PersistentClient``, creates a collection with Chroma's default embedding function
  (all-MiniLM-L6-v2 fp32 ONNX, every batch padded to 256 tokens, longer texts
  truncated) and adds the documents as ``title\\ntext``, as many per call as Chroma takes.

Each is timed as a whole process (start-up, imports and model load included): wall
seconds, CPU seconds (user + system, from ``wait4``) and peak RSS (``ru_maxrss``).
Rounds alternate the order (A B, B A, ...); medians are reported. Token positions:
what each system ran through its model (real tokens, and padded positions for Chroma).
Quality: dense nDCG@10 of each store over the train queries with a relevant document
among the ingested ones (ragcore ``search --mode vector``, documents ranked by their
best chunk; Chroma ``query``), relevance restricted to the ingested documents.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

COLLECTION = "scifact"
DEPTH = 100


def measured(command: list[str], log: Path) -> dict[str, float]:
    """Run ``command`` to completion; its wall and CPU seconds and peak RSS (MB)."""
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
    with log.open("w") as out:
        began = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - began
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(
            f"{command[:3]} failed ({process.returncode}): {log.read_text()[-2000:]}"
        )
    return {
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_rss_mb": usage.ru_maxrss / 1024,
    }


def chroma_ingest(corpus: Path, path: Path) -> None:
    """The Chroma side, run as its own process: a fresh persistent collection, all docs."""
    import chromadb
    from chromadb.config import Settings

    records = [json.loads(line) for line in corpus.read_text("utf-8").splitlines() if line]
    client = chromadb.PersistentClient(str(path), settings=Settings(anonymized_telemetry=False))
    collection = client.create_collection(COLLECTION, configuration={"hnsw": {"space": "cosine"}})
    step = client.get_max_batch_size()
    for lo in range(0, len(records), step):
        part = records[lo : lo + step]
        collection.add(
            ids=[r["_id"] for r in part],
            documents=[_text(r) for r in part],
            metadatas=[{"title": r.get("title") or ""} for r in part],
        )
    print(json.dumps({"count": collection.count()}))


def _text(record: dict) -> str:
    title = record.get("title") or ""
    return f"{title}\n{record['text']}" if title else record["text"]


def run_end_to_end(documents: int, rounds: int, data, keep: Path | None) -> dict:
    """Both systems on the first ``documents`` of ``data.corpus``, ``rounds`` times."""
    from _chroma_model import ensure_chroma_model

    from ragcore.config import default_embedder

    workdir = Path(tempfile.mkdtemp(prefix="chroma_e2e-", dir=keep))
    try:
        corpus = workdir / "corpus.jsonl"
        lines = [line for line in data.corpus.read_text("utf-8").splitlines() if line]
        corpus.write_text("\n".join(lines[:documents]) + "\n", "utf-8")
        records = [json.loads(line) for line in lines[:documents]]
        model = ensure_chroma_model()
        print(
            f"\nend to end: {len(records)} documents; Chroma model {model['dir']} "
            f"(sha256 {str(model['sha256'])[:12]}, made here: {model['made']})",
            flush=True,
        )
        ragcore_bin = Path(sys.executable).with_name("ragcore")
        runs: dict[str, list[dict[str, float]]] = {"ragcore": [], "chroma": []}
        dirs: dict[str, Path] = {}
        for round_number in range(rounds):
            order = ["ragcore", "chroma"] if round_number % 2 == 0 else ["chroma", "ragcore"]
            for name in order:
                target = workdir / f"{name}-{round_number}"
                if name == "ragcore":
                    command = [str(ragcore_bin), "ingest", str(corpus), "--data-dir", str(target)]
                    command.append("--json")
                else:
                    command = [sys.executable, __file__, "chroma-ingest", str(corpus), str(target)]
                figures = measured(command, workdir / f"{name}-{round_number}.log")
                runs[name].append(figures)
                if name in dirs:
                    shutil.rmtree(dirs[name], ignore_errors=True)
                dirs[name] = target
                print(
                    f"  round {round_number + 1} {name:7s}: {figures['wall_s']:6.1f} s wall, "
                    f"{figures['cpu_s']:6.1f} s CPU, peak RSS {figures['peak_rss_mb']:5.0f} MB, "
                    f"{len(records) / figures['wall_s']:5.1f} docs/s",
                    flush=True,
                )
        embedder = default_embedder()
        tokens = token_positions(dirs["ragcore"], records)
        quality = dense_quality(dirs["ragcore"], dirs["chroma"], data, records, embedder)
    finally:
        if keep is None:
            shutil.rmtree(workdir, ignore_errors=True)

    def med(name: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[name])

    summary: dict[str, dict[str, Any]] = {
        name: {
            "wall_s": round(med(name, "wall_s"), 1),
            "cpu_s": round(med(name, "cpu_s"), 1),
            "peak_rss_mb": round(med(name, "peak_rss_mb")),
            "docs_per_s": round(len(records) / med(name, "wall_s"), 2),
            "runs": runs[name],
        }
        for name in runs
    }
    rag, chroma = summary["ragcore"], summary["chroma"]
    rows = [
        ("docs/s (whole process)", rag["docs_per_s"], chroma["docs_per_s"], 2),
        ("wall s", rag["wall_s"], chroma["wall_s"], 1),
        ("CPU s", rag["cpu_s"], chroma["cpu_s"], 1),
        ("peak RSS MB", rag["peak_rss_mb"], chroma["peak_rss_mb"], 0),
        ("token positions embedded", tokens["ragcore"], tokens["chroma"], 0),
        ("  incl. padding", tokens["ragcore_padded"], tokens["chroma_padded"], 0),
        ("dense nDCG@10", quality["ragcore"], quality["chroma"], 4),
    ]
    print(f"\n{'end to end, medians':28} {'ragcore':>10} {'chroma':>10} {'ragcore/chroma':>15}")
    for label, a, b, digits in rows:
        print(f"{label:28} {a:>10.{digits}f} {b:>10.{digits}f} {a / b if b else 0:>15.3f}")
    print(
        f"ragcore embedder {embedder}: {tokens['ragcore_chunks']} chunks; Chroma truncated "
        f"{tokens['chroma_truncated']} of {len(records)} documents at 256 tokens; nDCG over "
        f"{quality['queries']} queries with a relevant document among these",
        flush=True,
    )
    return {
        "documents": len(records),
        "rounds": rounds,
        "embedder": embedder,
        "chroma_model": model,
        **summary,
        "tokens": tokens,
        "quality": quality,
        "ratios_ragcore_over_chroma": {
            "docs_per_s": round(rag["docs_per_s"] / chroma["docs_per_s"], 3),
            "cpu_s": round(rag["cpu_s"] / chroma["cpu_s"], 3),
            "peak_rss": round(rag["peak_rss_mb"] / chroma["peak_rss_mb"], 3),
        },
    }


def token_positions(ragcore_dir: Path, records: list[dict]) -> dict[str, int]:
    """What each system fed its model: ragcore's chunks (with titles), Chroma's documents."""
    from tokenizers import Tokenizer

    from ragcore import Config, Engine
    from ragcore.inference.embedder import OnnxEmbedder
    from ragcore.inference.models import embedder_spec, models_dir

    spec = embedder_spec("all-MiniLM-L6-v2")
    tokenizer = Tokenizer.from_file(str(models_dir() / spec.tokenizer))
    tokenizer.no_padding()
    tokenizer.no_truncation()  # the file's own settings truncate at 128
    full = [len(e.ids) for e in tokenizer.encode_batch([_text(r) for r in records])]
    titles = {r["_id"]: r.get("title") or "" for r in records}
    with Engine(Config(data_dir=ragcore_dir)) as engine:
        count = engine.store.counts()["chunks"]
        chunks = engine.store.chunks(range(1, count + 1)).values()
        texts = [
            f"{titles[c.document_id]}\n{c.text}" if titles[c.document_id] else c.text
            for c in chunks
        ]
    tokenizer.enable_truncation(spec.max_length)
    ragcore = sorted(len(e.ids) for e in tokenizer.encode_batch(texts))
    # ragcore pads each batch to its longest member, batches cut from length-sorted chunks
    # (as the embedder plans them with the default settings, in one sort).
    config = Config()
    planner = OnnxEmbedder(spec, batch_size=config.batch_size, batch_tokens=config.batch_tokens)
    padded = sum(len(b) * ragcore[b[-1]] for b in planner.plan_batches(ragcore))
    return {
        "ragcore": sum(ragcore),
        "ragcore_padded": padded,
        "ragcore_chunks": len(ragcore),
        "chroma": sum(min(n, spec.max_length) for n in full),
        "chroma_padded": spec.max_length * len(records),  # Chroma pads every input to 256
        "chroma_truncated": sum(n > spec.max_length for n in full),
    }


def dense_quality(
    ragcore_dir: Path, chroma_dir: Path, data, records: list[dict], embedder: str
) -> dict[str, float]:
    import chromadb
    from chromadb.config import Settings

    from ragcore import Config, Engine
    from ragcore.evaluation.beir import ndcg_at, ranked_documents

    ingested = {r["_id"] for r in records}
    qrels = {
        q: {d: g for d, g in rel.items() if d in ingested}
        for q, rel in data.qrels.items()
        if q in data.queries
    }
    qrels = {q: rel for q, rel in qrels.items() if any(g > 0 for g in rel.values())}
    client = chromadb.PersistentClient(
        str(chroma_dir), settings=Settings(anonymized_telemetry=False)
    )
    collection = client.get_collection(COLLECTION)
    rag, chroma = [], []
    with Engine(Config(data_dir=ragcore_dir, embedder=embedder)) as engine:
        for qid in sorted(qrels):
            query = data.queries[qid]
            hits = engine.search(query, mode="vector", k=DEPTH)
            rag.append(ndcg_at(ranked_documents(hits, DEPTH), qrels[qid]))
            found = collection.query(query_texts=[query], n_results=min(DEPTH, len(records)))
            chroma.append(ndcg_at(list(found["ids"][0]), qrels[qid]))
    return {
        "ragcore": round(float(np.mean(rag)), 4),
        "chroma": round(float(np.mean(chroma)), 4),
        "queries": len(qrels),
    }


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "chroma-ingest":
        chroma_ingest(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        sys.exit("usage: _chroma_end_to_end.py chroma-ingest CORPUS.jsonl DIR")
