"""Run by test_store_contract as a subprocess: writes groups of 10 documents through a
PostgresStore until killed, printing the number committed after each group.

Usage: python pg_ingest_worker.py URL DIMENSION
"""

import sys

import numpy as np

from ragcore.documents import Chunk, Document
from ragcore.inference.embedder import HashEmbedder
from ragcore.storage.postgres import PostgresStore


def item(n: int, embedder: HashEmbedder):
    doc = Document(
        id=f"doc-{n}",
        title=f"Report {n}",
        text=f"Inspection report zqx{n}q. The valve on line {n} read {n % 17 + 3} bar.",
    )
    first, second = doc.text.split(". ", 1)
    chunks = [
        Chunk(0, first, 0, len(first), (), 0.0),
        Chunk(1, second, len(first) + 2, len(doc.text), (), 0.0),
    ]
    return doc, chunks, np.asarray(embedder.embed([c.text for c in chunks]))


def main() -> None:
    url, dimension = sys.argv[1], int(sys.argv[2])
    embedder = HashEmbedder(dimension)
    store = PostgresStore(url, dimension=dimension)
    for start in range(0, 100_000, 10):
        store.write([item(n, embedder) for n in range(start, start + 10)])
        print(start + 10, flush=True)


if __name__ == "__main__":
    main()
