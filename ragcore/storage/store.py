"""The SQLite store: knowledge bases, documents, chunks and their FTS5 index.

SQLite (WAL, synchronous=FULL) is the source of truth. Schema changes are the numbered
SQL files in ``migrations/``, applied (and checked by hash on every open) by ``schema``
when the first connection opens; then the tables a migration queued get their value
index rebuilt (``table_index``). Writes go through one connection under a lock; each
reading thread gets its own connection, so searches run concurrently with each other
and with an ingest.

A store answers within its ``scope``: ``store.within(scope)`` is a view on the same
connections that reads as if the knowledge bases outside the scope did not exist (their
documents, chunks, counts, and their part in "superseded by"). A knowledge base exists
while it holds a document; the last delete removes it.

No sqlite3 error leaves the store: each is a ``StoreError`` saying what failed and, for
a damaged database, which tables and what to do (see ``damage``).
"""

from __future__ import annotations

import contextlib
import copy
import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ragcore.documents import Chunk, Document, DocumentInfo
from ragcore.errors import (
    DocumentNotFoundError,
    InvalidQueryError,
    KnowledgeBaseNotFoundError,
    StoreError,
    quoted,
    quoted_names,
)
from ragcore.scope import Scope
from ragcore.storage import damage
from ragcore.storage.filters import SearchFilters, where_clause
from ragcore.storage.guard import guarded
from ragcore.storage.records import DocumentPage, DocumentRecord, Listing, parse_stamp
from ragcore.storage.schema import migrate
from ragcore.storage.table_index import reindex_queued

DATABASE_NAME = "ragcore.sqlite3"
_Method = TypeVar("_Method", bound=Callable[..., Any])


@dataclass(frozen=True)
class StoredChunk:
    id: int
    document_id: str
    position: int
    text: str
    start: int
    end: int
    start_byte: int
    """``start`` as a UTF-8 byte offset in the document's text (for clients that index bytes)."""
    entities: tuple[str, ...]
    numeric_density: float
    section: str = ""
    """The chunk's section path (``Chunk.section``); empty when unknown."""
    pages: tuple[int, int] | None = None
    """The first and last page of the chunk (``Chunk.pages``); None when unknown."""

    @property
    def end_byte(self) -> int:
        return self.start_byte + len(self.text.encode())


@dataclass(frozen=True)
class WriteResult:
    """What a write changed, for the vector index to follow."""

    added: dict[str, list[int]]
    """Document id -> the ids of its new chunks."""
    removed_chunk_ids: list[int]
    data_version: int


def missing_document(document_id: str) -> DocumentNotFoundError:
    """The one text of "no such document" — also for a document outside the scope."""
    return DocumentNotFoundError(f"no document has the id {quoted(document_id)}")


def _guarded(doing: str) -> Callable[[_Method], _Method]:
    """Translate the sqlite3 errors of a method (or generator) into StoreErrors."""
    return guarded(sqlite3.Error, doing)


class _Connections:
    """The connections of one database, shared by a Store and its scoped views."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.write_lock = threading.RLock()
        self.local = threading.local()
        self.writer: sqlite3.Connection | None = None
        self.readers: list[sqlite3.Connection] = []
        self.closed = False
        self.diagnosis: str | None = None
        """What quick_check found damaged, once a damage error made us look."""


class Store:
    """The database of one data directory, seen within ``scope``."""

    def __init__(self, data_dir: Path, *, scope: Scope = Scope.ALL) -> None:
        self.path = Path(data_dir) / DATABASE_NAME
        self.scope = scope
        self._conns = _Connections(self.path)
        self._write_lock = self._conns.write_lock

    def within(self, scope: Scope) -> Store:
        """A view of this store limited to ``scope`` (same connections; closing the store
        closes it, and a view is not closed on its own)."""
        view = copy.copy(self)
        view.scope = scope
        return view

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
        except sqlite3.Error as exc:
            if damage.is_damage(exc):
                raise damage.translate(exc, self.path, "opening it") from exc
            raise StoreError(
                f"cannot open the database {self.path}: {exc}; check that the data "
                "directory is writable and is a ragcore data directory"
            ) from exc
        except OSError as exc:
            raise StoreError(
                f"cannot open the database {self.path}: {exc}; check that the data "
                "directory is writable and is a ragcore data directory"
            ) from exc
        return conn

    @property
    def _w(self) -> sqlite3.Connection:
        conns = self._conns
        if conns.closed:
            raise StoreError("the store is closed")
        if conns.writer is None:
            with conns.write_lock:
                if conns.writer is None:
                    damage.check_header(self.path)
                    small = _size(self.path) <= damage.QUICK_CHECK_MAX_BYTES
                    conn = self._connect()
                    try:
                        if small:  # cheap enough to do on every open (damage module)
                            damage.quick_check(conn, self.path)
                        migrate(conn, self.path)
                        reindex_queued(conn, self.path)  # tables loaded before 0008
                    except BaseException:
                        conn.close()
                        raise
                    conns.writer = conn
        return conns.writer

    @property
    def _r(self) -> sqlite3.Connection:
        conn = getattr(self._conns.local, "conn", None)
        if conn is None:
            _ = self._w  # migrations first
            conn = self._connect()
            self._conns.local.conn = conn
            with self._write_lock:
                self._conns.readers.append(conn)
        return conn

    def close(self) -> None:
        conns = self._conns
        with conns.write_lock:
            conns.closed = True
            for conn in [*conns.readers, conns.writer]:
                if conn is not None:
                    conn.close()
            conns.readers.clear()
            conns.writer = None

    def translate(self, exc: sqlite3.Error, doing: str) -> StoreError:
        """The StoreError for a sqlite3 error met while ``doing``."""

        def diagnosis() -> str:
            if self._conns.diagnosis is None:  # quick_check once, not on every failing call
                conn = getattr(self._conns.local, "conn", None) or self._conns.writer
                self._conns.diagnosis = damage.diagnose(conn) if conn is not None else ""
            return self._conns.diagnosis

        return damage.translate(exc, self.path, doing, diagnosis)

    # -- scope ---------------------------------------------------------------------
    @property
    def _within(self) -> frozenset[str] | None:
        return self.scope.knowledge_bases

    def _kb_clause(self, column: str) -> tuple[str, list[object]]:
        """`` AND column IN (...)`` for the scope's knowledge bases ("" when unrestricted)."""
        if self._within is None:
            return "", []
        names = sorted(self._within)
        return f" AND {column} IN ({','.join('?' * len(names))})", list(names)

    # -- meta ----------------------------------------------------------------------
    @_guarded("reading the store's settings")
    def meta(self, key: str) -> str | None:
        row = self._r.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    @_guarded("writing the store's settings")
    def set_meta(self, values: dict[str, str]) -> None:
        with self._write_lock:
            self._w.execute("BEGIN IMMEDIATE")
            try:
                self._w.executemany(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", values.items()
                )
                self._w.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise

    @_guarded("writing the store's settings")
    def forget_meta(self, keys: Iterable[str]) -> None:
        with self._write_lock:
            self._w.executemany("DELETE FROM meta WHERE key = ?", [(k,) for k in keys])

    def data_version(self) -> int:
        """A counter every committed ingest or delete moves (the chunk triggers of
        migration 0001); nothing else does, so caches key on it."""
        return int(self.meta("data_version") or 0)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """The writer inside BEGIN IMMEDIATE … COMMIT (ROLLBACK on any error), under the
        write lock: for modules that keep their own tables (``storage.sessions``). The
        caller translates sqlite3 errors with ``translate``."""
        with self._write_lock:
            conn = self._w
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise

    def reader(self) -> sqlite3.Connection:
        """This thread's reading connection (migrations applied)."""
        return self._r

    def _rollback(self) -> None:
        # A failed COMMIT may have ended the transaction already.
        with contextlib.suppress(sqlite3.Error):
            self._w.execute("ROLLBACK")

    # -- writes --------------------------------------------------------------------
    @_guarded("reading checksums")
    def checksums(self, ids: Iterable[str]) -> dict[str, str]:
        """Checksum by id of the stored documents among ``ids`` (scope ignored: ids are
        one namespace for the whole store)."""
        ids = list(ids)
        out: dict[str, str] = {}
        for begin in range(0, len(ids), 500):
            part = ids[begin : begin + 500]
            marks = ",".join("?" * len(part))
            out.update(
                self._r.execute(f"SELECT id, checksum FROM documents WHERE id IN ({marks})", part)
            )
        return out

    @_guarded("looking up document ids")
    def taken_outside(self, ids: Iterable[str]) -> list[str]:
        """Those of ``ids`` that documents outside the scope already have."""
        if self._within is None:
            return []
        ids = list(dict.fromkeys(ids))
        names = sorted(self._within)
        kb_marks = ",".join("?" * len(names))
        taken: list[str] = []
        for begin in range(0, len(ids), 500):
            part = ids[begin : begin + 500]
            marks = ",".join("?" * len(part))
            taken += [
                r[0]
                for r in self._r.execute(
                    f"SELECT id FROM documents WHERE id IN ({marks}) "
                    f"AND knowledge_base NOT IN ({kb_marks})",
                    [*part, *names],
                )
            ]
        return taken

    @_guarded("writing documents")
    def write(self, items: Sequence[tuple[Document, Sequence[Chunk], np.ndarray]]) -> WriteResult:
        """Insert or replace documents with their chunks and embeddings, in one transaction.

        Not scoped: the caller (``Engine.ingest``) checks the scope before writing.
        """
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
                            "end_offset, entities, numeric_density, embedding, section, "
                            "first_page, last_page) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                            (
                                doc.id,
                                chunk.position,
                                chunk.text,
                                chunk.start,
                                chunk.end,
                                json.dumps(chunk.entities),
                                chunk.numeric_density,
                                np.asarray(vector, dtype="<f4").tobytes(),
                                chunk.section,
                                *page_range(chunk.pages),
                            ),
                        )
                        assert cursor.lastrowid is not None  # set by every INSERT
                        ids.append(cursor.lastrowid)
                    added[doc.id] = ids
                _drop_empty_knowledge_bases(conn)  # an update may move a document away
                version = _data_version(conn)
                conn.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        return WriteResult(added, removed, version)

    @_guarded("deleting a document")
    def delete(self, document_id: str) -> WriteResult:
        """Delete a document and its chunks; DocumentNotFoundError if there is none in
        the scope."""
        with self._write_lock:
            conn = self._w
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute(
                    "SELECT knowledge_base FROM documents WHERE id = ?", (document_id,)
                ).fetchone()
                if row is None or not self.scope.allows(row[0]):
                    raise missing_document(document_id)
                removed = [
                    r[0]
                    for r in conn.execute(
                        "SELECT id FROM chunks WHERE document_id = ?", (document_id,)
                    )
                ]
                conn.execute("DELETE FROM documents WHERE id = ?", (document_id,))
                _drop_empty_knowledge_bases(conn)
                version = _data_version(conn)
                conn.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        return WriteResult({}, removed, version)

    @_guarded("deleting a knowledge base")
    def delete_knowledge_base(self, name: str) -> tuple[int, WriteResult]:
        """Delete every document of knowledge base ``name`` (and their chunks, and the
        knowledge base); (documents removed, what changed). ScopeError if ``name`` is
        outside the scope, KnowledgeBaseNotFoundError if it holds no document."""
        self.scope.check(name)
        with self._write_lock:
            conn = self._w
            conn.execute("BEGIN IMMEDIATE")
            try:
                count = conn.execute(
                    "SELECT count(*) FROM documents WHERE knowledge_base = ?", (name,)
                ).fetchone()[0]
                if count == 0:
                    raise self._unknown_knowledge_bases([name])
                removed = [
                    r[0]
                    for r in conn.execute(
                        "SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id "
                        "WHERE d.knowledge_base = ?",
                        (name,),
                    )
                ]
                conn.execute("DELETE FROM documents WHERE knowledge_base = ?", (name,))
                _drop_empty_knowledge_bases(conn)
                version = _data_version(conn)
                conn.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        return count, WriteResult({}, removed, version)

    # -- reads ---------------------------------------------------------------------
    @_guarded("listing knowledge bases")
    def knowledge_bases(self) -> list[tuple[str, int, int]]:
        """(name, documents, chunks) of every knowledge base in the scope that holds a
        document, by name."""
        scoped, params = self._kb_clause("d.knowledge_base")
        return list(
            self._r.execute(
                "SELECT d.knowledge_base, count(*), sum("
                " (SELECT count(*) FROM chunks c WHERE c.document_id = d.id)) "
                f"FROM documents d WHERE 1{scoped} GROUP BY d.knowledge_base ORDER BY 1",
                params,
            )
        )

    def _known_knowledge_bases(self) -> set[str]:
        scoped, params = self._kb_clause("knowledge_base")
        return {
            r[0]
            for r in self._r.execute(
                f"SELECT DISTINCT knowledge_base FROM documents WHERE 1{scoped}", params
            )
        }

    def _unknown_knowledge_bases(self, missing: Iterable[str]) -> KnowledgeBaseNotFoundError:
        known = self._known_knowledge_bases()
        return KnowledgeBaseNotFoundError(
            f"unknown knowledge base {quoted_names(missing)}; "
            f"known: {', '.join(sorted(known)) or 'none (ingest documents first)'}"
        )

    @_guarded("looking up knowledge bases")
    def check_knowledge_bases(self, names: Iterable[str]) -> None:
        """ScopeError for a name outside the scope (first, existing or not), then
        KnowledgeBaseNotFoundError for one that holds no document. A scoped view takes
        the scope's own names as known (perhaps empty): they are the caller's to name."""
        names = list(names)
        for name in names:
            self.scope.check(name)
        missing = set(names) - self._known_knowledge_bases() - (self._within or set())
        if missing:
            raise self._unknown_knowledge_bases(missing)

    @_guarded("counting documents")
    def counts(self) -> dict[str, int]:
        scoped, params = self._kb_clause("d.knowledge_base")
        if self._within is None:
            sql = (
                "SELECT (SELECT count(DISTINCT knowledge_base) FROM documents), "
                "(SELECT count(*) FROM documents), (SELECT count(*) FROM chunks)"
            )
        else:
            sql = (
                "SELECT (SELECT count(DISTINCT d.knowledge_base) FROM documents d "
                f"WHERE 1{scoped}), "
                f"(SELECT count(*) FROM documents d WHERE 1{scoped}), "
                "(SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.document_id "
                f"WHERE 1{scoped})"
            )
            params = params * 3
        row = self._r.execute(sql, params).fetchone()
        return {"knowledge_bases": row[0], "documents": row[1], "chunks": row[2]}

    def _newer_clause(self) -> tuple[str, list[object]]:
        """The condition on ``n`` for a document that supersedes ``d``, within the scope."""
        scoped, params = self._kb_clause("n.knowledge_base")
        return f"n.supersedes = d.id{scoped}", params

    @_guarded("reading documents")
    def documents(self, ids: Iterable[str]) -> dict[str, DocumentInfo]:
        """The documents among ``ids`` that exist in the scope, by id."""
        ids = list(dict.fromkeys(ids))
        newer, newer_params = self._newer_clause()
        scoped, scope_params = self._kb_clause("d.knowledge_base")
        out: dict[str, DocumentInfo] = {}
        for begin in range(0, len(ids), 500):
            part = ids[begin : begin + 500]
            marks = ",".join("?" * len(part))
            for row in self._r.execute(
                "SELECT d.id, d.knowledge_base, d.title, d.source, d.doc_type, d.authority, "
                "d.updated_at, d.version, d.supersedes, d.metadata, d.checksum, d.ingested_at, "
                f"(SELECT n.id FROM documents n WHERE {newer} "
                " ORDER BY n.updated_at DESC, n.version DESC LIMIT 1) "
                f"FROM documents d WHERE d.id IN ({marks}){scoped}",
                [*newer_params, *part, *scope_params],
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
            raise missing_document(document_id)
        return found[document_id]

    _RECORD_COLUMNS = (
        "d.id, d.knowledge_base, d.title, d.source, d.doc_type, d.authority, d.version, "
        "d.updated_at, d.metadata, d.supersedes, d.checksum, d.ingested_at, "
        "(SELECT count(*) FROM chunks c WHERE c.document_id = d.id)"
    )

    def _records(self, rows: list[tuple]) -> list[DocumentRecord]:
        newer, params = self._newer_clause()
        successors: dict[str, list[str]] = {}
        ids = [r[0] for r in rows]
        for begin in range(0, len(ids), 500):
            part = ids[begin : begin + 500]
            marks = ",".join("?" * len(part))
            for old, new in self._r.execute(
                f"SELECT d.id, n.id FROM documents d JOIN documents n ON {newer} "
                f"WHERE d.id IN ({marks}) ORDER BY n.updated_at DESC, n.version DESC, n.id",
                [*params, *part],
            ):
                successors.setdefault(old, []).append(new)
        return [
            DocumentRecord(
                id=r[0],
                knowledge_base=r[1],
                title=r[2],
                source=r[3],
                doc_type=r[4],
                authority=r[5],
                version=r[6],
                updated_at=date.fromisoformat(r[7]) if r[7] else None,
                metadata=json.loads(r[8]),
                supersedes=r[9],
                superseded_by=tuple(successors.get(r[0], ())),
                chunk_count=r[12],
                checksum=r[10],
                ingested_at=parse_stamp(r[11]),
            )
            for r in rows
        ]

    @_guarded("reading a document")
    def record(self, document_id: str) -> DocumentRecord:
        """The full record of a document in the scope; DocumentNotFoundError otherwise."""
        scoped, params = self._kb_clause("d.knowledge_base")
        rows = self._r.execute(
            f"SELECT {self._RECORD_COLUMNS} FROM documents d WHERE d.id = ?{scoped}",
            [document_id, *params],
        ).fetchall()
        if not rows:
            raise missing_document(document_id)
        return self._records(rows)[0]

    @_guarded("reading a document's text")
    def text(self, document_id: str) -> str:
        """A document's text as stored (its chunks' offsets count in it), in the scope;
        DocumentNotFoundError otherwise."""
        scoped, params = self._kb_clause("d.knowledge_base")
        row = self._r.execute(
            f"SELECT d.text FROM documents d WHERE d.id = ?{scoped}", [document_id, *params]
        ).fetchone()
        if row is None:
            raise missing_document(document_id)
        return str(row[0])

    @_guarded("listing documents")
    def list_documents(self, listing: Listing, page_token: str | None) -> DocumentPage:
        """One page of the scope's documents, oldest ``ingested_at`` first (then by id)."""
        after = listing.after(page_token)
        scoped, params = self._kb_clause("d.knowledge_base")
        clauses, args = [f"1{scoped}"], list(params)
        if listing.knowledge_base is not None:
            clauses.append("d.knowledge_base = ?")
            args.append(listing.knowledge_base)
        if listing.since is not None:
            clauses.append("d.ingested_at >= ?")
            args.append(listing.since)
        if after is not None:
            clauses.append("(d.ingested_at > ? OR (d.ingested_at = ? AND d.id > ?))")
            args += [after[0], after[0], after[1]]
        rows = self._r.execute(
            f"SELECT {self._RECORD_COLUMNS} FROM documents d WHERE {' AND '.join(clauses)} "
            "ORDER BY d.ingested_at, d.id LIMIT ?",
            [*args, listing.page_size + 1],
        ).fetchall()
        records = self._records(rows[: listing.page_size])
        more = len(rows) > listing.page_size
        return DocumentPage(tuple(records), listing.token(records[-1]) if more else None)

    @_guarded("listing document ids")
    def document_ids(self) -> list[str]:
        scoped, params = self._kb_clause("knowledge_base")
        return [
            r[0]
            for r in self._r.execute(
                f"SELECT id FROM documents WHERE 1{scoped} ORDER BY id", params
            )
        ]

    @_guarded("reading chunks")
    def chunks(self, ids: Sequence[int]) -> dict[int, StoredChunk]:
        """The chunks among ``ids`` whose documents are in the scope, by id."""
        out: dict[int, StoredChunk] = {}
        ids = list(ids)
        scoped, params = self._kb_clause("d.knowledge_base")
        for begin in range(0, len(ids), 500):
            part = ids[begin : begin + 500]
            marks = ",".join("?" * len(part))
            for row in self._r.execute(
                "SELECT c.id, c.document_id, c.position, c.text, c.start_offset, c.end_offset, "
                # substr counts characters (code points); the cast to BLOB measures bytes.
                "length(CAST(substr(d.text, 1, c.start_offset) AS BLOB)), "
                "c.entities, c.numeric_density, c.section, c.first_page, c.last_page "
                "FROM chunks c "
                f"JOIN documents d ON d.id = c.document_id WHERE c.id IN ({marks}){scoped}",
                [*part, *params],
            ):
                chunk_id, document_id, position, text, start, end, start_byte = row[:7]
                entities, density, section, first_page, last_page = row[7:]
                out[chunk_id] = StoredChunk(
                    chunk_id,
                    document_id,
                    position,
                    text,
                    start,
                    end,
                    start_byte,
                    tuple(json.loads(entities)),
                    density,
                    section,
                    pages_of(first_page, last_page),
                )
        return out

    @_guarded("reading a document's chunks")
    def chunk_ids_of(self, document_id: str) -> list[int]:
        scoped, params = self._kb_clause("d.knowledge_base")
        return [
            r[0]
            for r in self._r.execute(
                "SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id "
                f"WHERE c.document_id = ?{scoped} ORDER BY c.position",
                [document_id, *params],
            )
        ]

    @_guarded("reading embeddings")
    def embeddings(self, batch: int = 4096) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(ids, vectors) of every chunk, in batches, for rebuilding the vector index
        (the whole store, whatever the scope: the index is one)."""
        cursor = self._r.execute("SELECT id, embedding FROM chunks ORDER BY id")
        while rows := cursor.fetchmany(batch):
            ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
            vectors = np.vstack([np.frombuffer(r[1], dtype="<f4") for r in rows])
            yield ids, vectors

    @_guarded("reading embeddings")
    def vectors(self, ids: Sequence[int]) -> np.ndarray:
        """The stored embeddings of chunks ``ids``, in that order (whatever the scope, as
        the vector index); a row of zeros for a chunk that is gone (deleted since it was
        found: it scores 0 and is dropped with its chunk). The same floats as the hnswlib
        index holds, read in about a quarter of the time of its ``get_items``."""
        found: dict[int, bytes] = {}
        ids = [int(i) for i in ids]
        if not ids:
            return np.zeros((0, 0), dtype=np.float32)
        for begin in range(0, len(ids), 500):
            part = ids[begin : begin + 500]
            marks = ",".join("?" * len(part))
            found.update(
                self._r.execute(f"SELECT id, embedding FROM chunks WHERE id IN ({marks})", part)
            )
        blob = next(iter(found.values()), None)
        if blob is None:  # none left: any chunk's length gives the dimension
            row = self._r.execute("SELECT embedding FROM chunks LIMIT 1").fetchone()
            blob = row[0] if row else b""
        zeros = bytes(len(blob))
        joined = b"".join(found.get(i, zeros) for i in ids)
        return np.frombuffer(joined, dtype="<f4").astype(np.float32).reshape(len(ids), -1)

    @_guarded("filtering chunks")
    def filtered_chunk_ids(self, filters: SearchFilters) -> set[int]:
        where, params = where_clause(filters, self._within)
        return {
            r[0]
            for r in self._r.execute(
                f"SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE {where}",
                params,
            )
        }

    @_guarded("searching by keyword")
    def keyword_search(
        self, match: str, filters: SearchFilters, limit: int, title_weight: float = 1.0
    ) -> list[tuple[int, float]]:
        """(chunk id, BM25 score, higher is better) for an FTS5 match expression."""
        return self._bm25("chunks_fts", match, filters, limit, title_weight)

    def _bm25(
        self, table: str, match: str, filters: SearchFilters, limit: int, title_weight: float
    ) -> list[tuple[int, float]]:
        """(rowid, BM25 score) in ``table``, an FTS5 index over title and text whose rowids
        are chunk ids (``chunks_fts``: each chunk; ``documents_fts``: a document's first)."""
        unfiltered = filters.empty and self._within is None
        where, params = where_clause(filters, self._within)
        # Ordered by the selected column, BM25 is computed once per matching row, and the
        # rows come as the (id, score) tuples to return. Ties go by document id, then
        # position: the PostgreSQL store breaks them so too (chunk ids differ between
        # stores after a migrate), so both give the same list (storage.keyword_terms).
        sql = (
            f"SELECT f.rowid, -bm25({table}, ?, 1.0) AS score FROM {table} f "
            "JOIN chunks c ON c.id = f.rowid "
            + ("" if unfiltered else "JOIN documents d ON d.id = c.document_id ")
            + f"WHERE {table} MATCH ? "
            + ("" if unfiltered else f"AND {where} ")
            + "ORDER BY score DESC, c.document_id, c.position LIMIT ?"
        )
        args = [title_weight, match] + ([] if unfiltered else params) + [limit]
        try:
            return self._r.execute(sql, args).fetchall()
        except sqlite3.OperationalError as exc:
            if "fts5" not in str(exc) and "syntax" not in str(exc):
                raise  # not the query's fault: translated as a store error
            raise InvalidQueryError(f"keyword query {quoted(match)} was rejected: {exc}") from exc

    # -- maintenance ---------------------------------------------------------------
    @_guarded("making a backup")
    def backup_to(self, target: Path) -> None:
        """Copy the database to ``target`` with SQLite's online backup API: one consistent
        snapshot, taken while other connections keep reading and writing."""
        destination = sqlite3.connect(target)
        try:
            self._r.backup(destination)
        finally:
            destination.close()

    @_guarded("checking the database")
    def integrity_problems(self, limit: int = 20) -> tuple[list[str], str]:
        """SQLite's ``integrity_check`` findings (empty when sound) and, when there are
        any, which tables they damage."""
        rows = [r[0] for r in self._r.execute(f"PRAGMA integrity_check({int(limit)})")]
        if rows == ["ok"]:
            return [], ""
        return rows, damage.describe(self._r, rows)

    @_guarded("checking the keyword indexes")
    def keyword_index_problems(self) -> dict[str, str]:
        """FTS5 ``integrity-check`` of every keyword index: table -> problem (sound ones
        are left out)."""
        tables = [
            r[0]
            for r in self._r.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%USING fts5%'"
            )
        ]
        problems = {}
        with self._write_lock:  # the check is an INSERT: it runs on the writer
            for table in tables:
                try:
                    self._w.execute(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")
                except sqlite3.DatabaseError as exc:
                    problems[table] = str(exc)
        return problems

    @_guarded("sampling embeddings")
    def sample_embeddings(self, n: int) -> tuple[list[int], np.ndarray | None]:
        """(ids, vectors) of up to ``n`` chunks picked at random."""
        rows = self._r.execute(
            "SELECT id, embedding FROM chunks ORDER BY random() LIMIT ?", (n,)
        ).fetchall()
        if not rows:
            return [], None
        return [r[0] for r in rows], np.vstack([np.frombuffer(r[1], dtype="<f4") for r in rows])

    # -- document-level index (migration 0002) -------------------------------------------
    @_guarded("searching documents by keyword")
    def document_keyword_search(
        self, match: str, filters: SearchFilters, limit: int, title_weight: float = 1.0
    ) -> list[tuple[int, float]]:
        """(first chunk id, BM25 over title and whole text) of the documents that match.

        A document is named by the id of its first chunk: that is the documents_fts
        rowid, and what ``first_chunk_ids`` maps every chunk of it to.
        """
        return self._bm25("documents_fts", match, filters, limit, title_weight)

    @_guarded("finding the documents of chunks")
    def first_chunk_ids(self, chunk_ids: Sequence[int]) -> dict[int, int]:
        """Chunk id -> the id of the first chunk of its document (the document's key)."""
        out: dict[int, int] = {}
        ids = list(chunk_ids)
        for begin in range(0, len(ids), 500):
            part = ids[begin : begin + 500]
            marks = ",".join("?" * len(part))
            out.update(
                self._r.execute(
                    "SELECT c.id, f.id FROM chunks c JOIN chunks f "
                    "ON f.document_id = c.document_id AND f.position = 0 "
                    f"WHERE c.id IN ({marks})",
                    part,
                )
            )
        return out

    # -- reading for a copy to another store (storage.migration) ----------------------
    @_guarded("reading documents to copy")
    def export(self, ids: Sequence[str]) -> list[tuple[Document, list[Chunk], np.ndarray, str]]:
        """(document, its chunks in order, their stored embeddings, stored checksum) of
        the documents among ``ids``, whatever the scope: what ``write`` takes, so a copy
        needs no embedder."""
        out = []
        for begin in range(0, len(ids), 500):
            part = list(ids[begin : begin + 500])
            marks = ",".join("?" * len(part))
            chunks: dict[str, list[tuple]] = {}
            for row in self._r.execute(
                "SELECT document_id, position, text, start_offset, end_offset, entities, "
                "numeric_density, embedding, section, first_page, last_page "
                f"FROM chunks WHERE document_id IN ({marks}) "
                "ORDER BY document_id, position",
                part,
            ):
                chunks.setdefault(row[0], []).append(row[1:])
            for r in self._r.execute(
                "SELECT id, knowledge_base, title, source, doc_type, authority, updated_at, "
                "version, supersedes, metadata, text, checksum FROM documents "
                f"WHERE id IN ({marks})",
                part,
            ):
                rows = chunks.get(r[0], [])
                document = Document(
                    id=r[0],
                    text=r[10],
                    knowledge_base=r[1],
                    title=r[2],
                    source=r[3],
                    doc_type=r[4],
                    authority=r[5],
                    updated_at=date.fromisoformat(r[6]) if r[6] else None,
                    version=r[7],
                    supersedes=r[8],
                    metadata=json.loads(r[9]),
                )
                pieces = [
                    Chunk(
                        c[0],
                        c[1],
                        c[2],
                        c[3],
                        tuple(json.loads(c[4])),
                        c[5],
                        c[7],
                        pages_of(c[8], c[9]),
                    )
                    for c in rows
                ]
                vectors = (
                    np.vstack([np.frombuffer(c[6], dtype="<f4") for c in rows])
                    if rows
                    else np.zeros((0, 0), dtype=np.float32)
                )
                out.append((document, pieces, vectors, r[11]))
        return out


def page_range(pages: tuple[int, int] | None) -> tuple[int | None, int | None]:
    """A chunk's pages as the (first_page, last_page) columns store them: NULLs when
    unknown."""
    return (None, None) if pages is None else (pages[0], pages[1])


def pages_of(first: int | None, last: int | None) -> tuple[int, int] | None:
    """The (first_page, last_page) columns as ``Chunk.pages``."""
    return None if first is None or last is None else (first, last)


def _drop_empty_knowledge_bases(conn: sqlite3.Connection) -> None:
    """A knowledge base exists while it holds a document (an emptied one is not listed)."""
    conn.execute(
        "DELETE FROM knowledge_bases WHERE NOT EXISTS "
        "(SELECT 1 FROM documents d WHERE d.knowledge_base = knowledge_bases.name)"
    )


def _data_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT value FROM meta WHERE key = 'data_version'").fetchone()[0])


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
