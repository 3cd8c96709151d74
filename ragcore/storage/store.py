"""The SQLite store: knowledge bases, documents, chunks and their FTS5 index.

SQLite (WAL, synchronous=FULL) is the source of truth. Schema changes are the numbered
SQL files in ``migrations/``, applied (and checked by hash on every open) by ``schema``
when the first connection opens. Writes go through one connection under a lock; each
reading thread gets its own connection, so searches run concurrently with each other
and with an ingest.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

import numpy as np

from ragcore.documents import Chunk, Document, DocumentInfo
from ragcore.errors import (
    DocumentNotFoundError,
    InvalidQueryError,
    KnowledgeBaseNotFoundError,
    StoreError,
)
from ragcore.storage.filters import SearchFilters, where_clause
from ragcore.storage.schema import migrate

DATABASE_NAME = "ragcore.sqlite3"


@dataclass(frozen=True)
class StoredChunk:
    id: int
    document_id: str
    position: int
    text: str
    start: int
    end: int
    entities: tuple[str, ...]
    numeric_density: float


@dataclass(frozen=True)
class WriteResult:
    """What a write changed, for the vector index to follow."""

    added: dict[str, list[int]]
    """Document id -> the ids of its new chunks."""
    removed_chunk_ids: list[int]
    data_version: int


class Store:
    """The database of one data directory."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / DATABASE_NAME
        self._write_lock = threading.RLock()
        self._local = threading.local()
        self._writer: sqlite3.Connection | None = None
        self._readers: list[sqlite3.Connection] = []
        self._closed = False

    # -- connections ---------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=30
            )
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(
                f"cannot open the database {self.path}: {exc}; check that the data "
                "directory is writable and is a ragcore data directory"
            ) from exc
        return conn

    @property
    def _w(self) -> sqlite3.Connection:
        if self._closed:
            raise StoreError("the store is closed")
        if self._writer is None:
            with self._write_lock:
                if self._writer is None:
                    conn = self._connect()
                    migrate(conn, self.path)
                    self._writer = conn
        return self._writer

    @property
    def _r(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            _ = self._w  # migrations first
            conn = self._connect()
            self._local.conn = conn
            with self._write_lock:
                self._readers.append(conn)
        return conn

    def close(self) -> None:
        with self._write_lock:
            self._closed = True
            for conn in [*self._readers, self._writer]:
                if conn is not None:
                    conn.close()
            self._readers.clear()
            self._writer = None

    # -- meta ----------------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        row = self._r.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, values: dict[str, str]) -> None:
        with self._write_lock:
            self._w.execute("BEGIN IMMEDIATE")
            self._w.executemany(
                "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", values.items()
            )
            self._w.execute("COMMIT")

    def data_version(self) -> int:
        return int(self.meta("data_version") or 0)

    # -- writes --------------------------------------------------------------------
    def checksums(self, ids: Iterable[str]) -> dict[str, str]:
        ids = list(ids)
        out: dict[str, str] = {}
        for begin in range(0, len(ids), 500):
            part = ids[begin : begin + 500]
            marks = ",".join("?" * len(part))
            out.update(
                self._r.execute(f"SELECT id, checksum FROM documents WHERE id IN ({marks})", part)
            )
        return out

    def write(self, items: Sequence[tuple[Document, Sequence[Chunk], np.ndarray]]) -> WriteResult:
        """Insert or replace documents with their chunks and embeddings, in one transaction."""
        added: dict[str, list[int]] = {}
        removed: list[int] = []
        now = _now()
        with self._write_lock:
            conn = self._w
            conn.execute("BEGIN IMMEDIATE")
            try:
                for doc, chunks, vectors in items:
                    removed += [
                        r[0]
                        for r in conn.execute(
                            "SELECT id FROM chunks WHERE document_id = ?", (doc.id,)
                        )
                    ]
                    conn.execute("DELETE FROM chunks WHERE document_id = ?", (doc.id,))
                    conn.execute(
                        "INSERT OR IGNORE INTO knowledge_bases VALUES (?, ?)",
                        (doc.knowledge_base, now),
                    )
                    conn.execute(
                        "INSERT OR REPLACE INTO documents (id, knowledge_base, source, title, "
                        "doc_type, authority, updated_at, version, supersedes, checksum, "
                        "ingested_at, metadata, text) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        (
                            doc.id,
                            doc.knowledge_base,
                            doc.source,
                            doc.title,
                            doc.doc_type,
                            doc.authority,
                            doc.updated_at and doc.updated_at.isoformat(),
                            doc.version,
                            doc.supersedes,
                            doc.checksum,
                            now,
                            json.dumps(dict(doc.metadata), ensure_ascii=False),
                            doc.text,
                        ),
                    )
                    ids = []
                    for chunk, vector in zip(chunks, vectors, strict=True):
                        cursor = conn.execute(
                            "INSERT INTO chunks (document_id, position, text, start_offset, "
                            "end_offset, entities, numeric_density, embedding) "
                            "VALUES (?,?,?,?,?,?,?,?)",
                            (
                                doc.id,
                                chunk.position,
                                chunk.text,
                                chunk.start,
                                chunk.end,
                                json.dumps(chunk.entities),
                                chunk.numeric_density,
                                np.asarray(vector, dtype="<f4").tobytes(),
                            ),
                        )
                        assert cursor.lastrowid is not None  # set by every INSERT
                        ids.append(cursor.lastrowid)
                    added[doc.id] = ids
                version = int(
                    conn.execute("SELECT value FROM meta WHERE key = 'data_version'").fetchone()[0]
                )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return WriteResult(added, removed, version)

    def delete(self, document_id: str) -> WriteResult:
        """Delete a document and its chunks; DocumentNotFoundError if there is none."""
        with self._write_lock:
            conn = self._w
            conn.execute("BEGIN IMMEDIATE")
            try:
                removed = [
                    r[0]
                    for r in conn.execute(
                        "SELECT id FROM chunks WHERE document_id = ?", (document_id,)
                    )
                ]
                if conn.execute("DELETE FROM documents WHERE id = ?", (document_id,)).rowcount == 0:
                    raise DocumentNotFoundError(f"no document has the id {document_id!r}")
                version = int(
                    conn.execute("SELECT value FROM meta WHERE key = 'data_version'").fetchone()[0]
                )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return WriteResult({}, removed, version)

    # -- reads ---------------------------------------------------------------------
    def knowledge_bases(self) -> list[tuple[str, int, int]]:
        """(name, documents, chunks) of every knowledge base."""
        return list(
            self._r.execute(
                "SELECT k.name, "
                "(SELECT count(*) FROM documents d WHERE d.knowledge_base = k.name), "
                "(SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.document_id "
                " WHERE d.knowledge_base = k.name) FROM knowledge_bases k ORDER BY k.name"
            )
        )

    def check_knowledge_bases(self, names: Iterable[str]) -> None:
        known = {row[0] for row in self._r.execute("SELECT name FROM knowledge_bases")}
        missing = sorted(set(names) - known)
        if missing:
            raise KnowledgeBaseNotFoundError(
                f"unknown knowledge base {', '.join(map(repr, missing))}; "
                f"known: {', '.join(sorted(known)) or 'none (ingest documents first)'}"
            )

    def counts(self) -> dict[str, int]:
        row = self._r.execute(
            "SELECT (SELECT count(*) FROM knowledge_bases), "
            "(SELECT count(*) FROM documents), (SELECT count(*) FROM chunks)"
        ).fetchone()
        return {"knowledge_bases": row[0], "documents": row[1], "chunks": row[2]}

    def documents(self, ids: Iterable[str]) -> dict[str, DocumentInfo]:
        ids = list(dict.fromkeys(ids))
        out: dict[str, DocumentInfo] = {}
        for begin in range(0, len(ids), 500):
            part = ids[begin : begin + 500]
            marks = ",".join("?" * len(part))
            for row in self._r.execute(
                "SELECT d.id, d.knowledge_base, d.title, d.source, d.doc_type, d.authority, "
                "d.updated_at, d.version, d.supersedes, d.metadata, d.checksum, d.ingested_at, "
                "(SELECT n.id FROM documents n WHERE n.supersedes = d.id "
                " ORDER BY n.updated_at DESC, n.version DESC LIMIT 1) "
                f"FROM documents d WHERE d.id IN ({marks})",
                part,
            ):
                out[row[0]] = DocumentInfo(
                    id=row[0],
                    knowledge_base=row[1],
                    title=row[2],
                    source=row[3],
                    doc_type=row[4],
                    authority=row[5],
                    updated_at=date.fromisoformat(row[6]) if row[6] else None,
                    version=row[7],
                    supersedes=row[8],
                    metadata=json.loads(row[9]),
                    checksum=row[10],
                    ingested_at=row[11],
                    superseded_by=row[12],
                )
        return out

    def document(self, document_id: str) -> DocumentInfo:
        found = self.documents([document_id])
        if document_id not in found:
            raise DocumentNotFoundError(f"no document has the id {document_id!r}")
        return found[document_id]

    def document_ids(self) -> list[str]:
        return [r[0] for r in self._r.execute("SELECT id FROM documents ORDER BY id")]

    def chunks(self, ids: Sequence[int]) -> dict[int, StoredChunk]:
        out: dict[int, StoredChunk] = {}
        ids = list(ids)
        for begin in range(0, len(ids), 500):
            part = ids[begin : begin + 500]
            marks = ",".join("?" * len(part))
            for row in self._r.execute(
                "SELECT id, document_id, position, text, start_offset, end_offset, entities, "
                f"numeric_density FROM chunks WHERE id IN ({marks})",
                part,
            ):
                chunk_id, document_id, position, text, start, end, entities, density = row
                out[chunk_id] = StoredChunk(
                    chunk_id,
                    document_id,
                    position,
                    text,
                    start,
                    end,
                    tuple(json.loads(entities)),
                    density,
                )
        return out

    def chunk_ids_of(self, document_id: str) -> list[int]:
        return [
            r[0]
            for r in self._r.execute(
                "SELECT id FROM chunks WHERE document_id = ? ORDER BY position", (document_id,)
            )
        ]

    def embeddings(self, batch: int = 4096) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(ids, vectors) of every chunk, in batches, for rebuilding the vector index."""
        cursor = self._r.execute("SELECT id, embedding FROM chunks ORDER BY id")
        while rows := cursor.fetchmany(batch):
            ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
            vectors = np.vstack([np.frombuffer(r[1], dtype="<f4") for r in rows])
            yield ids, vectors

    def filtered_chunk_ids(self, filters: SearchFilters) -> set[int]:
        where, params = where_clause(filters)
        return {
            r[0]
            for r in self._r.execute(
                f"SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE {where}",
                params,
            )
        }

    def keyword_search(
        self, match: str, filters: SearchFilters, limit: int, title_weight: float = 1.0
    ) -> list[tuple[int, float]]:
        """(chunk id, BM25 score, higher is better) for an FTS5 match expression."""
        where, params = where_clause(filters)
        sql = (
            "SELECT f.rowid, -bm25(chunks_fts, ?, 1.0) AS score FROM chunks_fts f "
            + (
                ""
                if filters.empty
                else "JOIN chunks c ON c.id = f.rowid JOIN documents d ON d.id = c.document_id "
            )
            + "WHERE chunks_fts MATCH ? "
            + ("" if filters.empty else f"AND {where} ")
            + "ORDER BY bm25(chunks_fts, ?, 1.0) LIMIT ?"
        )
        args = [title_weight, match] + ([] if filters.empty else params) + [title_weight, limit]
        try:
            return [(r[0], r[1]) for r in self._r.execute(sql, args)]
        except sqlite3.OperationalError as exc:
            raise InvalidQueryError(f"keyword query {match!r} was rejected: {exc}") from exc


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
