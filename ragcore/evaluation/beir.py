"""Retrieval evaluation on BEIR-format data: nDCG@10, Recall@100, MRR@10.

A BEIR dataset is a folder (or a ``.tgz`` of one) holding ``corpus.jsonl``,
``queries.jsonl`` and ``qrels/<split>.tsv``. The corpus is ingested once into a data
directory under the cache, keyed by the corpus checksum and the settings that change
what is stored; an interrupted ingest resumes where it stopped. Chunk hits are
aggregated to documents by their best chunk (hybrid search's ``sibling_weight`` already
adds a share of a document's other chunks to that best chunk's score).
"""

from __future__ import annotations

import hashlib
import json
import math
import statistics
import tarfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ragcore.config import Config
from ragcore.engine import Engine
from ragcore.errors import InvalidInputError
from ragcore.ingest.loaders import load_file
from ragcore.retrieval.search import Hit

DOCUMENT_DEPTH = 100  # documents ranked per query (Recall@100)


@dataclass(frozen=True)
class BeirData:
    corpus: Path
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]
    checksum: str


def open_beir(path: Path, split: str, cache_dir: Path) -> BeirData:
    """Read a BEIR folder or ``.tgz`` (extracted once into ``cache_dir``)."""
    path = Path(path)
    if path.is_file() and path.name.endswith((".tgz", ".tar.gz")):
        path = _extract(path, cache_dir)
    if not path.is_dir():
        raise InvalidInputError(f"{path} is not a BEIR dataset folder or .tgz")
    folder = next((p.parent for p in sorted(path.rglob("corpus.jsonl"))), None)
    if folder is None:
        raise InvalidInputError(f"{path} holds no corpus.jsonl: is it a BEIR dataset?")
    qrels_file = folder / "qrels" / f"{split}.tsv"
    if not qrels_file.is_file():
        splits = sorted(p.stem for p in (folder / "qrels").glob("*.tsv"))
        raise InvalidInputError(f"{folder} has no {split!r} split; it has {', '.join(splits)}")
    qrels: dict[str, dict[str, int]] = {}
    for number, line in enumerate(qrels_file.read_text("utf-8").splitlines(), start=1):
        parts = line.split("\t")
        if number == 1 and not parts[-1].strip().lstrip("-").isdigit():
            continue  # header
        if len(parts) != 3:
            raise InvalidInputError(f"{qrels_file}:{number}: expected query-id, corpus-id, score")
        qrels.setdefault(parts[0], {})[parts[1]] = int(parts[2])
    queries = {}
    for line in (folder / "queries.jsonl").read_text("utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            if record["_id"] in qrels:
                queries[record["_id"]] = record["text"]
    digest = hashlib.sha256((folder / "corpus.jsonl").read_bytes()).hexdigest()
    return BeirData(folder / "corpus.jsonl", queries, qrels, digest)


def _extract(archive: Path, cache_dir: Path) -> Path:
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()[:16]
    target = cache_dir / "datasets" / digest
    if not (target / ".complete").exists():
        target.mkdir(parents=True, exist_ok=True)
        with tarfile.open(archive) as tar:
            tar.extractall(target, filter="data")
        (target / ".complete").touch()
    return target


def ranked_documents(hits: Sequence[Hit], depth: int = DOCUMENT_DEPTH) -> list[str]:
    """Document ids in the order of their best chunk among ``hits``, at most ``depth``."""
    return list(dict.fromkeys(h.document_id for h in hits))[:depth]


def ndcg_at(ranked: list[str], relevant: Mapping[str, int], k: int = 10) -> float:
    gains = [relevant.get(doc, 0) for doc in ranked[:k]]
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains))
    ideal = sorted(relevant.values(), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


def recall_at(ranked: list[str], relevant: Mapping[str, int], k: int = 100) -> float:
    wanted = {d for d, g in relevant.items() if g > 0}
    return len(wanted & set(ranked[:k])) / len(wanted) if wanted else 0.0


def mrr_at(ranked: list[str], relevant: Mapping[str, int], k: int = 10) -> float:
    for rank, doc in enumerate(ranked[:k], start=1):
        if relevant.get(doc, 0) > 0:
            return 1.0 / rank
    return 0.0


def eval_data_dir(config: Config, data: BeirData, cache_dir: Path) -> Path:
    """The cached data directory for this corpus under these storage settings."""
    key = json.dumps(
        [
            data.checksum,
            config.embedder,
            config.chunk_tokens,
            config.chunk_overlap,
            config.embed_titles,
        ]
    )
    return cache_dir / "beir" / hashlib.sha256(key.encode()).hexdigest()[:16]


def evaluate_beir(
    path: Path,
    *,
    split: str,
    mode: str,
    config: Config,
    cache_dir: Path,
    progress: Callable | None = None,
    search_settings: Mapping[str, object] | None = None,
    max_queries: int | None = None,
) -> dict[str, object]:
    """Ingest (if needed) and evaluate; returns the metrics as a JSON-ready dict."""
    data = open_beir(path, split, cache_dir)
    data_dir = eval_data_dir(config, data, cache_dir)
    with Engine(replace(config, data_dir=data_dir)) as engine:
        started = time.perf_counter()
        report = engine.ingest(load_file(data.corpus, "corpus"), progress)
        ingest_seconds = time.perf_counter() - started
        settings: dict[str, Any] = {
            "candidates": max(config.candidates, 2 * DOCUMENT_DEPTH),
            **(search_settings or {}),
        }
        searcher = engine.searcher(**settings)
        used = replace(config, **settings)
        totals = {"ndcg@10": 0.0, "recall@100": 0.0, "mrr@10": 0.0}
        latencies = []
        query_ids = sorted(data.queries)[:max_queries]
        for qid in query_ids:
            began = time.perf_counter()
            hits = searcher.search(data.queries[qid], mode=mode, k=2 * DOCUMENT_DEPTH)
            latencies.append(time.perf_counter() - began)
            ranked = ranked_documents(hits)
            relevant = data.qrels[qid]
            totals["ndcg@10"] += ndcg_at(ranked, relevant)
            totals["recall@100"] += recall_at(ranked, relevant)
            totals["mrr@10"] += mrr_at(ranked, relevant)
        n = len(query_ids)
        return {
            "mode": mode,
            "split": split,
            "queries": n,
            **{name: round(total / n, 4) if n else 0.0 for name, total in totals.items()},
            "corpus_documents": len(report.outcomes),
            "chunks": engine.stats().chunks,
            "ingest_seconds": round(ingest_seconds, 1),
            "search_p50_ms": round(statistics.median(latencies) * 1000, 2) if latencies else None,
            "settings": {
                "fusion": used.fusion,
                "vector_weight": used.vector_weight,
                "title_weight": used.title_weight,
                "document_keyword_weight": used.document_keyword_weight,
                "document_vector_weight": used.document_vector_weight,
                "sibling_weight": used.sibling_weight,
                "candidates": used.candidates,
                "embedder": used.embedder,
            },
            "data_dir": str(data_dir),
        }
