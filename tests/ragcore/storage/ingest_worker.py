"""Run by test_durability as a subprocess: ingests numbered documents until killed.

Usage: python ingest_worker.py DATA_DIR COUNT EMBEDDER  (EMBEDDER: hash or onnx).
Prints the number of committed documents after each ingest call.
"""

import sys
from pathlib import Path

from ragcore import Config, Document, Engine
from ragcore.inference.embedder import HashEmbedder

WORKER_DIMENSION = 256


def document(n: int) -> Document:
    return Document(
        id=f"doc-{n}",
        title=f"Report {n}",
        text=f"Inspection report zqx{n}q. The valve on line {n} was checked and "
        f"the pressure read {n % 17 + 3} bar. Unit marker zqx{n}q ends here.",
    )


def main() -> None:
    data_dir, count, kind = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    embedder = HashEmbedder(WORKER_DIMENSION) if kind == "hash" else None
    with Engine(Config(data_dir=data_dir), embedder=embedder) as engine:
        for start in range(0, count, 10):
            engine.ingest([document(n) for n in range(start, min(count, start + 10))])
            print(start + 10, flush=True)


if __name__ == "__main__":
    main()
