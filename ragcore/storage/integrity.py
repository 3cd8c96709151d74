"""``ragcore check``: is the data directory sound, and if not, what to do.

Checks, in order (``StoreCheck``): SQLite's ``integrity_check``; FTS5's own
``integrity-check`` of every keyword index; then the vector index against the database
— the file recorded in the database exists and has its recorded SHA-256 (``index_file``),
was saved at the database's current data version (``index_stamp``), holds one vector per
chunk (``index_count``), and a random sample of chunks has in the index the very vector
stored in SQLite (``vectors``). Nothing is repaired here: each failed finding says what
to run (``ragcore rebuild-index`` for the vector index) or to restore a backup.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ragcore.config import HnswParams
from ragcore.errors import StoreError
from ragcore.inference.models import sha256_of
from ragcore.storage.damage import advice
from ragcore.storage.store import Store
from ragcore.storage.vector_index import HnswIndex
from ragcore.types import StoreCheck

DEFAULT_SAMPLE = 64
"""Chunks whose vectors are re-read from the index file and compared with SQLite's."""
REBUILD = "run `ragcore rebuild-index` to rebuild the vector index from the database"


@dataclass(frozen=True)
class CheckFinding:
    """One check's verdict; ``fix`` says what to do when it failed."""

    check: StoreCheck
    ok: bool
    detail: str
    fix: str = ""


@dataclass(frozen=True)
class CheckReport:
    """The findings of ``Engine.check``, one per ``StoreCheck`` that could run."""

    data_dir: Path
    findings: tuple[CheckFinding, ...]
    seconds: float

    @property
    def ok(self) -> bool:
        return all(f.ok for f in self.findings)

    @property
    def problems(self) -> tuple[CheckFinding, ...]:
        return tuple(f for f in self.findings if not f.ok)


def check_store(
    store: Store, hnsw: HnswParams, threads: int = 1, sample: int = DEFAULT_SAMPLE
) -> CheckReport:
    """Check ``store`` and its vector index file; see the module docstring."""
    started = time.perf_counter()
    restore = advice(store.path, check=False)  # this is the check
    try:
        problems, where = store.integrity_problems()
    except StoreError as exc:  # too damaged to open or to check: nothing else can run
        detail = str(exc).split("; run `ragcore check")[0]  # its advice is in fix
        finding = CheckFinding(StoreCheck.SQLITE, False, detail, restore)
        return CheckReport(store.path.parent, (finding,), time.perf_counter() - started)
    findings = [_sqlite(problems, where, restore)]
    findings.append(_keyword_indexes(store, restore))
    try:
        findings += _vector_index(store, hnsw, threads, sample)
    except StoreError as exc:  # the tables the index is checked against are unreadable
        findings.append(CheckFinding(StoreCheck.INDEX_FILE, False, str(exc), restore))
    return CheckReport(store.path.parent, tuple(findings), time.perf_counter() - started)


def _sqlite(problems: list[str], where: str, restore: str) -> CheckFinding:
    if not problems:
        return CheckFinding(StoreCheck.SQLITE, True, "integrity_check: ok")
    first = " ".join(problems[0].split())[:200]
    return CheckFinding(
        StoreCheck.SQLITE, False, f"{where} ({len(problems)} problems; first: {first})", restore
    )


def _keyword_indexes(store: Store, restore: str) -> CheckFinding:
    try:
        problems = store.keyword_index_problems()
    except StoreError as exc:
        return CheckFinding(StoreCheck.KEYWORD_INDEX, False, f"cannot check: {exc}", restore)
    if not problems:
        return CheckFinding(StoreCheck.KEYWORD_INDEX, True, "FTS5 integrity-check: ok")
    detail = "; ".join(f"{table}: {problem}" for table, problem in sorted(problems.items()))
    return CheckFinding(StoreCheck.KEYWORD_INDEX, False, detail, restore)


def _vector_index(store: Store, hnsw: HnswParams, threads: int, sample: int) -> list[CheckFinding]:
    # The keys PersistentIndex records when it saves (ragcore.storage.vector_index).
    name, digest = store.meta("index_file"), store.meta("index_sha256")
    stamp, count = store.meta("index_data_version"), store.meta("index_count")
    chunks = store.counts()["chunks"]
    version = store.data_version()
    if name is None:
        detail = "no vector index is recorded" + (f" for {chunks:,} chunks" if chunks else "")
        return [
            CheckFinding(
                StoreCheck.INDEX_FILE,
                not chunks,
                detail if chunks else "no vector index yet (nothing ingested)",
                REBUILD if chunks else "",
            )
        ]
    path = store.path.parent / name
    if not path.is_file():
        return [CheckFinding(StoreCheck.INDEX_FILE, False, f"{name} is missing", REBUILD)]
    if sha256_of(path) != digest:
        return [
            CheckFinding(
                StoreCheck.INDEX_FILE, False, f"{name} is corrupt (sha256 mismatch)", REBUILD
            )
        ]
    findings = [CheckFinding(StoreCheck.INDEX_FILE, True, f"{name}: sha256 ok")]
    findings.append(
        CheckFinding(StoreCheck.INDEX_STAMP, True, f"saved at data version {version}")
        if stamp == str(version)
        else CheckFinding(
            StoreCheck.INDEX_STAMP,
            False,
            f"saved at data version {stamp}, the database is at {version}",
            REBUILD,
        )
    )
    findings.append(
        CheckFinding(StoreCheck.INDEX_COUNT, True, f"{chunks:,} vectors for {chunks:,} chunks")
        if count == str(chunks)
        else CheckFinding(
            StoreCheck.INDEX_COUNT, False, f"{count} vectors for {chunks:,} chunks", REBUILD
        )
    )
    findings.append(_sample(store, path, hnsw, threads, sample, int(count or 0)))
    return findings


def _sample(
    store: Store, path: Path, hnsw: HnswParams, threads: int, sample: int, count: int
) -> CheckFinding:
    ids, stored = store.sample_embeddings(sample)
    if stored is None:
        return CheckFinding(StoreCheck.VECTORS, True, "no chunks to sample")
    try:
        index = HnswIndex.load(path, stored.shape[1], hnsw, threads, count)
    except (RuntimeError, ValueError, OSError) as exc:
        return CheckFinding(StoreCheck.VECTORS, False, f"cannot load {path.name}: {exc}", REBUILD)
    missing, differ = [], []
    for chunk_id, vector in zip(ids, stored, strict=True):
        try:
            found = index.vectors([chunk_id])[0]
        except RuntimeError:  # hnswlib: no such label (or deleted)
            missing.append(chunk_id)
            continue
        if not np.allclose(found, vector, atol=1e-5):
            differ.append(chunk_id)
    if missing or differ:
        parts = [f"{len(missing)} chunks have no vector"] if missing else []
        parts += [f"{len(differ)} chunks have another vector"] if differ else []
        example = (missing or differ)[:5]
        return CheckFinding(
            StoreCheck.VECTORS,
            False,
            f"of {len(ids)} sampled chunks, {' and '.join(parts)} (e.g. chunk ids {example})",
            REBUILD,
        )
    return CheckFinding(StoreCheck.VECTORS, True, f"{len(ids)} sampled vectors match")
