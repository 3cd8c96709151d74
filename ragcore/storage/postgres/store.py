"""The PostgreSQL + pgvector store: the SQLite store's contract on a shared server.

Documents, chunks, their embeddings and the data version are written in one transaction
per ``write`` (so the HNSW index, the keyword terms and the data can never disagree), and the
vector index is pgvector's, inside the database: any number of servers share it and see
an ingest through any of them as soon as it commits. Connections come from a psycopg-pool
pool in autocommit mode; writes open their own transaction. With ``read_url`` (a streaming
replica), searches, document reads and the data version go to the replica's pool, and
writes and the reads a write depends on to the primary's.

Keyword ranking is the SQLite store's, exactly: FTS5's BM25 over FTS5's own terms
(``postgres.keyword``, migration 0008), so both stores give the same keyword lists.

Outages are a state (``postgres.pools``): a call that finds the database unreachable
raises ``StoreUnavailableError`` and opens a circuit; until a background probe finds it
back, every call fails at once without waiting on the pool. Every public method's
psycopg errors are translated (a test calls each with the database stopped).
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

import numpy as np
import psycopg

from ragcore.config import StoreSettings
from ragcore.documents import Chunk, Document, DocumentInfo
from ragcore.errors import (
    ConfigError,
    InvalidInputError,
    KnowledgeBaseNotFoundError,
    StoreError,
    StoreUnavailableError,
    quoted_names,
)
from ragcore.scope import Scope
from ragcore.storage.filters import SearchFilters
from ragcore.storage.guard import guarded
from ragcore.storage.postgres.connection import connect, redacted
from ragcore.storage.postgres.filters import where_clause
from ragcore.storage.postgres.keyword import (
    bm25_sql,
    fill_keyword_terms,
    query_terms,
    write_terms,
)
from ragcore.storage.postgres.pools import Pools, is_outage
from ragcore.storage.postgres.schema import migrate
from ragcore.storage.postgres.table_index import reindex_queued
from ragcore.storage.protocol import VectorCandidates
from ragcore.storage.records import DocumentPage, DocumentRecord, Listing, parse_stamp
from ragcore.storage.store import (
    StoredChunk,
    WriteResult,
    missing_document,
    page_range,
    pages_of,
)

_Method = TypeVar("_Method", bound=Callable[..., Any])
_DIMENSION_KEY = "embedding_dimension"


class _NothingDeleted(Exception):
    """Inside a write: nothing matched, roll back."""


def _guarded(doing: str) -> Callable[[_Method], _Method]:
    """Translate the psycopg errors of a method (or generator) into StoreErrors."""
    return guarded(psycopg.Error, doing)


class PostgresStore:
    """One PostgreSQL database holding a ragcore store, seen within ``scope``.

    ``dimension`` is the embedder's: it is recorded on first open and a store opened with
    another is a ConfigError (the HNSW index is built for one dimension).
    """

    def __init__(
        self,
        url: str,
        *,
        dimension: int,
        scope: Scope = Scope.ALL,
        settings: StoreSettings = StoreSettings(),
        ef_search: int = 100,
        read_url: str | None = None,
    ) -> None:
        self.where = redacted(url)
        self.read_where = redacted(read_url) if read_url is not None else None
        if isinstance(dimension, bool) or not isinstance(dimension, int) or dimension < 1:
            raise ConfigError("dimension", dimension, "give the embedder's dimension, e.g. 384")
        self.settings = settings
        connect_timeout = settings.connect_timeout
        self.scope = scope
        self.dimension = dimension
        self.ef_search = ef_search
        first = connect(url, self.where, connect_timeout)  # a precise error before the pool
        try:
            migrate(first, self.where)
            self._ensure_vector_index(first)
            fill_keyword_terms(first)
            reindex_queued(first)  # tables loaded before migration 0010
        except psycopg.Error as exc:
            raise self.translate(exc, "opening the store") from exc
        finally:
            first.close()
        if read_url is not None and self.read_where is not None:
            connect(read_url, self.read_where, connect_timeout).close()  # a precise error now
        self._pools = Pools(url, self.where, self.settings, read_url)
        """The primary's pool, the replica's (searches and document reads) if given, and
        the circuit in front of both; shared by every scoped view."""

    def _ensure_vector_index(self, conn: psycopg.Connection) -> None:
        """Record the dimension (or check it) and build the HNSW cosine index on it."""
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (0x7261_6764,))
            row = conn.execute("SELECT value FROM meta WHERE key = %s", (_DIMENSION_KEY,))
            found = row.fetchone()
            if found is not None and int(found[0]) != self.dimension:
                raise ConfigError(
                    "dimension",
                    self.dimension,
                    f"the store at {self.where} holds {found[0]}-dimensional embeddings; "
                    "open it with the embedder that made them, or use another database",
                )
            if found is None:
                conn.execute(
                    "INSERT INTO meta(key, value) VALUES (%s, %s)",
                    (_DIMENSION_KEY, str(self.dimension)),
                )
                # The column gets its dimension now (the table is new and empty), and
                # HNSW can index it: queries compare it without a cast.
                conn.execute(
                    f"ALTER TABLE chunks ALTER COLUMN embedding TYPE vector({self.dimension}); "
                    "CREATE INDEX chunks_embedding_hnsw ON chunks "
                    "USING hnsw (embedding vector_cosine_ops)".encode()
                )

    def within(self, scope: Scope) -> PostgresStore:
        """A view limited to ``scope`` on the same pool (closing the store closes it)."""
        view = copy.copy(self)
        view.scope = scope
        return view

    def close(self) -> None:
        self._pools.close()

    def translate(self, exc: psycopg.Error, doing: str) -> StoreError:
        """The StoreError for a psycopg error met while ``doing``: a
        ``StoreUnavailableError`` (opening the circuit) when the database cannot be
        reached, or when a statement ran past the statement timeout."""
        text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        if is_outage(exc):
            self._pools.trip(text)
            return StoreUnavailableError(
                f"{doing} failed: PostgreSQL at {self.where} is unreachable ({text}); the "
                "store reconnects by itself: try again in a moment"
            )
        if isinstance(exc, psycopg.errors.QueryCanceled):
            return StoreUnavailableError(
                f"{doing} took longer than the statement timeout "
                f"({self.settings.statement_timeout:g} s) on PostgreSQL at {self.where}: "
                "the database is overloaded; try again in a moment"
            )
        return StoreError(
            f"{doing} failed on PostgreSQL at {self.where}: {text}; check that the server "
            "is up and reachable (the store reconnects by itself)"
        )

    @property
    def available(self) -> bool:
        """False while the database is known to be unreachable (the circuit is open)."""
        return self._pools.available

    def watch(self, watcher: Callable[[bool], None]) -> None:
        """Call ``watcher(available)`` whenever the database goes down or comes back
        (checked every second even when idle); see ``pools``."""
        self._pools.watch(watcher)

    def _rows(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """A read, on the replica if there is one (it may lag the primary a little)."""
        with self._pools.reads() as conn:
            return conn.execute(sql.encode(), params).fetchall()

    def _primary_rows(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """A statement on the primary: writes, and reads a write depends on."""
        with self._pools.primary() as conn:
            return conn.execute(sql.encode(), params).fetchall()

    # -- for modules that keep their own tables (storage.sessions, via postgres.sql) --
    @contextlib.contextmanager
    def transaction(self) -> Iterator[psycopg.Connection]:
        """A pooled connection inside one transaction (rolled back on any error). The
        caller translates psycopg errors with ``translate``."""
        with self._pools.primary() as conn, conn.transaction():
            yield conn

    @contextlib.contextmanager
    def connection(self) -> Iterator[psycopg.Connection]:
        """A pooled connection in autocommit mode, for reads."""
        with self._pools.primary() as conn:
            yield conn

    # -- scope ---------------------------------------------------------------------
    @property
    def _within(self) -> frozenset[str] | None:
        return self.scope.knowledge_bases

    def _kb_clause(self, column: str) -> tuple[str, list[object]]:
        if self._within is None:
            return "", []
        return f" AND {column} = ANY(%s)", [sorted(self._within)]

    # -- meta ----------------------------------------------------------------------
    @_guarded("reading the store's settings")
    def meta(self, key: str) -> str | None:
        rows = self._primary_rows("SELECT value FROM meta WHERE key = %s", (key,))
        return rows[0][0] if rows else None

    @_guarded("writing the store's settings")
    def set_meta(self, values: dict[str, str]) -> None:
        with self._pools.primary() as conn, conn.transaction(), conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO meta(key, value) VALUES (%s, %s) "
                "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                list(values.items()),
            )

    @_guarded("writing the store's settings")
    def forget_meta(self, keys: Iterable[str]) -> None:
        self._primary_rows("DELETE FROM meta WHERE key = ANY(%s) RETURNING key", (list(keys),))

    @_guarded("reading the data version")
    def data_version(self) -> int:
        """A counter every committed write or delete moves, in its own transaction; read
        where searches read (the replica's, if there is one), so caches keyed on it
        change when what searches see does."""
        rows = self._rows("SELECT value FROM meta WHERE key = 'data_version'")
        return int(rows[0][0]) if rows else 0

    # -- writes --------------------------------------------------------------------
    @_guarded("reading checksums")
    def checksums(self, ids: Iterable[str]) -> dict[str, str]:
        """Checksum by id of the stored documents among ``ids`` (scope ignored)."""
        rows = self._primary_rows(
            "SELECT id, checksum FROM documents WHERE id = ANY(%s)", (list(dict.fromkeys(ids)),)
        )
        return dict(rows)

    @_guarded("looking up document ids")
    def taken_outside(self, ids: Iterable[str]) -> list[str]:
        """Those of ``ids`` that documents outside the scope already have."""
        if self._within is None:
            return []
        rows = self._primary_rows(
            "SELECT id FROM documents WHERE id = ANY(%s) AND NOT (knowledge_base = ANY(%s))",
            (list(dict.fromkeys(ids)), sorted(self._within)),
        )
        return [r[0] for r in rows]

    @_guarded("writing documents")
    def write(self, items: Sequence[tuple[Document, Sequence[Chunk], np.ndarray]]) -> WriteResult:
        """Insert or replace documents with their chunks and embeddings, and bump the data
        version, in one transaction. Not scoped (the caller checks the scope)."""
        for doc, chunks, vectors in items:
            shape = np.shape(vectors)
            if len(chunks) != shape[0] or (chunks and shape[1:] != (self.dimension,)):
                raise InvalidInputError(
                    f"document {doc.id!r}: {len(chunks)} chunks with embeddings of shape "
                    f"{shape}; give one {self.dimension}-dimensional embedding per chunk"
                )
        added: dict[str, list[int]] = {}
        removed: list[int] = []
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._pools.primary() as conn, conn.transaction(), conn.cursor() as cur:
            version = self._bump_version(cur)
            for doc, chunks, vectors in items:
                removed += [
                    r[0]
                    for r in cur.execute(
                        "DELETE FROM chunks WHERE document_id = %s RETURNING id", (doc.id,)
                    )
                ]
                cur.execute(
                    "INSERT INTO knowledge_bases VALUES (%s, %s) ON CONFLICT DO NOTHING",
                    (doc.knowledge_base, now),
                )
                cur.execute(
                    "INSERT INTO documents (id, knowledge_base, source, title, doc_type, "
                    "authority, updated_at, version, supersedes, checksum, ingested_at, "
                    "metadata, text) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) "
                    "ON CONFLICT (id) DO UPDATE SET knowledge_base = EXCLUDED.knowledge_base, "
                    "source = EXCLUDED.source, title = EXCLUDED.title, "
                    "doc_type = EXCLUDED.doc_type, authority = EXCLUDED.authority, "
                    "updated_at = EXCLUDED.updated_at, version = EXCLUDED.version, "
                    "supersedes = EXCLUDED.supersedes, checksum = EXCLUDED.checksum, "
                    "ingested_at = EXCLUDED.ingested_at, metadata = EXCLUDED.metadata, "
                    "text = EXCLUDED.text, terms_length = NULL",  # set again with its terms
                    (
                        doc.id,
                        doc.knowledge_base,
                        doc.source,
                        doc.title,
                        doc.doc_type,
                        doc.authority,
                        doc.updated_at,
                        doc.version,
                        doc.supersedes,
                        doc.checksum,
                        now,
                        json.dumps(dict(doc.metadata), ensure_ascii=False),
                        doc.text,
                    ),
                )
                ids: list[int] = []
                if chunks:
                    cur.executemany(
                        "INSERT INTO chunks (document_id, position, text, start_offset, "
                        "end_offset, entities, numeric_density, section, first_page, "
                        "last_page, embedding) "
                        "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s::float4[]::vector) "
                        "RETURNING id",
                        [
                            (
                                doc.id,
                                chunk.position,
                                chunk.text,
                                chunk.start,
                                chunk.end,
                                json.dumps(list(chunk.entities)),
                                chunk.numeric_density,
                                chunk.section,
                                *page_range(chunk.pages),
                                np.asarray(vector, dtype=np.float32).tolist(),
                            )
                            for chunk, vector in zip(chunks, vectors, strict=True)
                        ],
                        returning=True,
                    )
                    while True:
                        ids.append(cast(tuple[int], cur.fetchone())[0])
                        if not cur.nextset():
                            break
                added[doc.id] = ids
            written = [doc.id for doc, _, _ in items]
            cur.execute("DELETE FROM document_terms WHERE document_id = ANY(%s)", (written,))
            write_terms(  # the old chunks' terms went with them
                cur,
                chunks=[
                    (chunk_id, doc.title, chunk.text)
                    for doc, chunks, _ in items
                    for chunk_id, chunk in zip(added[doc.id], chunks, strict=True)
                ],
                documents=[(doc.id, doc.title, doc.text) for doc, chunks, _ in items if chunks],
            )
            self._drop_empty_knowledge_bases(cur)  # an update may move a document away
        return WriteResult(added, removed, version)

    @staticmethod
    def _bump_version(cur: psycopg.Cursor) -> int:
        """Move the data version, first thing in a write: the row lock it takes makes
        writers from every server take turns (as SQLite's one writer does), so two writes
        of one document id cannot interleave."""
        cur.execute(
            "UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'data_version' "
            "RETURNING value"
        )
        return int(cast(tuple[str], cur.fetchone())[0])

    @staticmethod
    def _drop_empty_knowledge_bases(cur: psycopg.Cursor) -> None:
        """A knowledge base exists while it holds a document."""
        cur.execute(
            "DELETE FROM knowledge_bases k WHERE NOT EXISTS "
            "(SELECT 1 FROM documents d WHERE d.knowledge_base = k.name)"
        )

    @_guarded("deleting a document")
    def delete(self, document_id: str) -> WriteResult:
        """Delete a document and its chunks; DocumentNotFoundError if there is none in
        the scope."""
        with self._pools.primary() as conn, conn.transaction(), conn.cursor() as cur:
            version = self._bump_version(cur)  # rolled back with the rest if none is found
            row = cur.execute(
                "SELECT knowledge_base FROM documents WHERE id = %s", (document_id,)
            ).fetchone()
            if row is None or not self.scope.allows(row[0]):
                raise missing_document(document_id)
            removed = [
                r[0]
                for r in cur.execute(
                    "SELECT id FROM chunks WHERE document_id = %s ORDER BY id", (document_id,)
                )
            ]
            cur.execute("DELETE FROM documents WHERE id = %s", (document_id,))
            self._drop_empty_knowledge_bases(cur)
        return WriteResult({}, removed, version)

    @_guarded("deleting a knowledge base")
    def delete_knowledge_base(self, name: str) -> tuple[int, WriteResult]:
        """Delete every document of knowledge base ``name``; (documents removed, what
        changed). ScopeError outside the scope, KnowledgeBaseNotFoundError if empty."""
        self.scope.check(name)
        try:
            with self._pools.primary() as conn, conn.transaction(), conn.cursor() as cur:
                version = self._bump_version(cur)
                removed = [
                    r[0]
                    for r in cur.execute(
                        "SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id "
                        "WHERE d.knowledge_base = %s ORDER BY c.id",
                        (name,),
                    )
                ]
                cur.execute("DELETE FROM documents WHERE knowledge_base = %s", (name,))
                count = cur.rowcount
                if count == 0:
                    raise _NothingDeleted  # rolls back (the version too)
                self._drop_empty_knowledge_bases(cur)
        except _NothingDeleted:
            # Said outside the transaction: the message reads the store on another connection.
            raise self._unknown_knowledge_bases([name]) from None
        return count, WriteResult({}, removed, version)

    # -- reads ---------------------------------------------------------------------
    @_guarded("listing knowledge bases")
    def knowledge_bases(self) -> list[tuple[str, int, int]]:
        """(name, documents, chunks) of every knowledge base in the scope, by name."""
        scoped, params = self._kb_clause("d.knowledge_base")
        return [
            (r[0], int(r[1]), int(r[2]))
            for r in self._rows(
                "SELECT d.knowledge_base, count(*), sum("
                " (SELECT count(*) FROM chunks c WHERE c.document_id = d.id)) "
                f"FROM documents d WHERE TRUE{scoped} GROUP BY d.knowledge_base ORDER BY 1",
                params,
            )
        ]

    def _known_knowledge_bases(self) -> set[str]:
        scoped, params = self._kb_clause("knowledge_base")
        return {
            r[0]
            for r in self._rows(
                f"SELECT DISTINCT knowledge_base FROM documents WHERE TRUE{scoped}", params
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
        """As ``Store.check_knowledge_bases``: ScopeError first, then unknown names."""
        names = list(names)
        for name in names:
            self.scope.check(name)
        missing = set(names) - self._known_knowledge_bases() - (self._within or set())
        if missing:
            raise self._unknown_knowledge_bases(missing)

    @_guarded("counting documents")
    def counts(self) -> dict[str, int]:
        scoped, params = self._kb_clause("d.knowledge_base")
        row = self._rows(
            "SELECT (SELECT count(DISTINCT d.knowledge_base) FROM documents d "
            f"WHERE TRUE{scoped}), "
            f"(SELECT count(*) FROM documents d WHERE TRUE{scoped}), "
            "(SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.document_id "
            f"WHERE TRUE{scoped})",
            params * 3,
        )[0]
        return {"knowledge_bases": row[0], "documents": row[1], "chunks": row[2]}

    def _newer_clause(self) -> tuple[str, list[object]]:
        scoped, params = self._kb_clause("n.knowledge_base")
        return f"n.supersedes = d.id{scoped}", params

    @_guarded("reading documents")
    def documents(self, ids: Iterable[str]) -> dict[str, DocumentInfo]:
        """The documents among ``ids`` that exist in the scope, by id."""
        newer, newer_params = self._newer_clause()
        scoped, scope_params = self._kb_clause("d.knowledge_base")
        rows = self._rows(
            "SELECT d.id, d.knowledge_base, d.title, d.source, d.doc_type, d.authority, "
            "d.updated_at, d.version, d.supersedes, d.metadata, d.checksum, d.ingested_at, "
            f"(SELECT n.id FROM documents n WHERE {newer} "
            " ORDER BY n.updated_at DESC NULLS LAST, n.version DESC LIMIT 1) "
            f"FROM documents d WHERE d.id = ANY(%s){scoped}",
            [*newer_params, list(dict.fromkeys(ids)), *scope_params],
        )
        return {
            r[0]: DocumentInfo(
                id=r[0],
                knowledge_base=r[1],
                title=r[2],
                source=r[3],
                doc_type=r[4],
                authority=r[5],
                updated_at=r[6],
                version=r[7],
                supersedes=r[8],
                metadata=r[9],
                checksum=r[10],
                ingested_at=r[11],
                superseded_by=r[12],
            )
            for r in rows
        }

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

    def _records(self, rows: list[tuple[Any, ...]]) -> list[DocumentRecord]:
        newer, params = self._newer_clause()
        successors: dict[str, list[str]] = {}
        for old, new in self._rows(
            f"SELECT d.id, n.id FROM documents d JOIN documents n ON {newer} WHERE d.id = ANY(%s) "
            "ORDER BY n.updated_at DESC NULLS LAST, n.version DESC, n.id",
            [*params, [r[0] for r in rows]],
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
                updated_at=r[7],
                metadata=r[8],
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
        rows = self._rows(
            f"SELECT {self._RECORD_COLUMNS} FROM documents d WHERE d.id = %s{scoped}",
            [document_id, *params],
        )
        if not rows:
            raise missing_document(document_id)
        return self._records(rows)[0]

    @_guarded("reading a document's text")
    def text(self, document_id: str) -> str:
        """A document's text as stored (its chunks' offsets count in it), in the scope;
        DocumentNotFoundError otherwise."""
        scoped, params = self._kb_clause("d.knowledge_base")
        rows = self._rows(
            f"SELECT d.text FROM documents d WHERE d.id = %s{scoped}", [document_id, *params]
        )
        if not rows:
            raise missing_document(document_id)
        return str(rows[0][0])

    @_guarded("listing documents")
    def list_documents(self, listing: Listing, page_token: str | None) -> DocumentPage:
        """One page of the scope's documents, oldest ``ingested_at`` first (then by id)."""
        after = listing.after(page_token)
        scoped, params = self._kb_clause("d.knowledge_base")
        clauses, args = [f"TRUE{scoped}"], list(params)
        if listing.knowledge_base is not None:
            clauses.append("d.knowledge_base = %s")
            args.append(listing.knowledge_base)
        if listing.since is not None:
            clauses.append("d.ingested_at >= %s")
            args.append(listing.since)
        if after is not None:
            clauses.append("(d.ingested_at, d.id) > (%s, %s)")
            args += [after[0], after[1]]
        rows = self._rows(
            f"SELECT {self._RECORD_COLUMNS} FROM documents d WHERE {' AND '.join(clauses)} "
            "ORDER BY d.ingested_at, d.id LIMIT %s",
            [*args, listing.page_size + 1],
        )
        records = self._records(rows[: listing.page_size])
        more = len(rows) > listing.page_size
        return DocumentPage(tuple(records), listing.token(records[-1]) if more else None)

    @_guarded("listing document ids")
    def document_ids(self) -> list[str]:
        scoped, params = self._kb_clause("knowledge_base")
        return [
            r[0]
            for r in self._rows(f"SELECT id FROM documents WHERE TRUE{scoped} ORDER BY id", params)
        ]

    @_guarded("reading chunks")
    def chunks(self, ids: Sequence[int]) -> dict[int, StoredChunk]:
        """The chunks among ``ids`` whose documents are in the scope, by id."""
        scoped, params = self._kb_clause("d.knowledge_base")
        rows = self._rows(
            "SELECT c.id, c.document_id, c.position, c.text, c.start_offset, c.end_offset, "
            "octet_length(left(d.text, c.start_offset)), c.entities, c.numeric_density, "
            "c.section, c.first_page, c.last_page "
            f"FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id = ANY(%s){scoped}",
            [list(ids), *params],
        )
        return {
            r[0]: StoredChunk(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                r[6],
                tuple(r[7]),
                r[8],
                section=r[9],
                pages=pages_of(r[10], r[11]),
            )
            for r in rows
        }

    @_guarded("reading a document's chunks")
    def chunk_ids_of(self, document_id: str) -> list[int]:
        scoped, params = self._kb_clause("d.knowledge_base")
        return [
            r[0]
            for r in self._rows(
                "SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id "
                f"WHERE c.document_id = %s{scoped} ORDER BY c.position",
                [document_id, *params],
            )
        ]

    @_guarded("reading embeddings")
    def embeddings(self, batch: int = 4096) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(ids, vectors) of every chunk in batches (the whole store, whatever the scope)."""
        last = 0
        while rows := self._rows(
            "SELECT id, embedding::float4[] FROM chunks WHERE id > %s ORDER BY id LIMIT %s",
            (last, batch),
        ):
            last = rows[-1][0]
            yield (
                np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows)),
                np.asarray([r[1] for r in rows], dtype=np.float32),
            )

    @_guarded("reading embeddings")
    def vectors(self, ids: Sequence[int]) -> np.ndarray:
        """The embeddings of chunks ``ids``, in that order; a row of zeros for a chunk that
        is gone (deleted since it was found: it scores 0 and is dropped with its chunk)."""
        out = np.zeros((len(ids), self.dimension), dtype=np.float32)
        if not len(ids):
            return out
        with self._pools.reads() as conn, conn.cursor(binary=True) as cur:
            # Binary float4[]: a fifth of the time of parsing the text form (200 vectors).
            rows = cur.execute(
                b"SELECT id, embedding::float4[] FROM chunks WHERE id = ANY(%s)",
                ([int(i) for i in ids],),
            ).fetchall()
        found = {r[0]: r[1] for r in rows}
        for row, chunk_id in enumerate(ids):
            if (vector := found.get(int(chunk_id))) is not None:
                out[row] = vector
        return out

    @_guarded("filtering chunks")
    def filtered_chunk_ids(self, filters: SearchFilters) -> set[int]:
        where, params = where_clause(filters, self._within)
        return {
            r[0]
            for r in self._rows(
                f"SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document_id WHERE {where}",
                params,
            )
        }

    # -- search --------------------------------------------------------------------
    @_guarded("searching by keyword")
    def keyword_search(
        self, match: str, filters: SearchFilters, limit: int, title_weight: float = 1.0
    ) -> list[tuple[int, float]]:
        """(chunk id, BM25 score, higher is better) for a match expression (``fts_query``'s
        quoted words joined by OR): FTS5's BM25 over FTS5's terms (``postgres.keyword``),
        the same scores and order as the SQLite store's."""
        return self._bm25("chunks", match, filters, limit, title_weight)

    @_guarded("searching documents by keyword")
    def document_keyword_search(
        self, match: str, filters: SearchFilters, limit: int, title_weight: float = 1.0
    ) -> list[tuple[int, float]]:
        """(first chunk id, BM25 of the title and whole text) of matching documents."""
        return self._bm25("documents", match, filters, limit, title_weight)

    def _bm25(
        self,
        table: str,
        match: str,
        filters: SearchFilters,
        limit: int,
        title_weight: float,
    ) -> list[tuple[int, float]]:
        """Only the query terms' rows of the inverted index are read and summed; the
        filters then apply to the scored chunks or documents."""
        terms = query_terms(match)
        if not terms:
            return []
        where, params = where_clause(filters, self._within)
        sql = bm25_sql(table, where, where != "TRUE", title_weight)
        rows = self._rows(sql, [terms, *params, limit])
        return [(r[0], float(r[1])) for r in rows]

    @_guarded("searching by vector")
    def vector_search(
        self, vector: np.ndarray, filters: SearchFilters, limit: int
    ) -> list[tuple[int, float]]:
        """(chunk id, cosine similarity) of the ``limit`` nearest chunks that pass
        ``filters``, through the HNSW index. Iterative scans (relaxed order, re-sorted
        here) keep the index walking until ``limit`` rows pass a narrow filter."""
        cte, args = self._nearest(vector, filters, limit)
        sql = f"{cte} SELECT id, 1 - distance FROM nearest ORDER BY distance, id"
        with self._pools.reads() as conn:
            rows = self._with_hnsw_settings(conn, sql, args)
        return [(r[0], float(r[1])) for r in rows]

    def _nearest(
        self, vector: np.ndarray, filters: SearchFilters, limit: int
    ) -> tuple[str, list[object]]:
        """``WITH nearest AS (...)``: the ``limit`` chunks nearest ``vector`` that pass
        ``filters`` (id, cosine distance), and its parameters."""
        query = np.asarray(vector, dtype=np.float32)
        if query.shape != (self.dimension,):
            raise InvalidInputError(
                f"query vector of shape {query.shape}: give {self.dimension} numbers"
            )
        where, params = where_clause(filters, self._within)
        sql = (
            "WITH nearest AS MATERIALIZED ("
            " SELECT c.id, c.embedding <=> %s::vector AS distance"
            " FROM chunks c JOIN documents d ON d.id = c.document_id"
            f" WHERE {where} ORDER BY distance LIMIT %s)"
        )
        return sql, [_vector_text(query), *params, limit]

    def _with_hnsw_settings(
        self, conn: psycopg.Connection, sql: str, params: Sequence[object]
    ) -> list[tuple[Any, ...]]:
        """``sql``'s rows (binary), run with this store's HNSW settings set for it alone
        (``ef_search``; iterative scans, so a narrow filter still gets ``limit`` rows): a
        transaction of four statements, pipelined into one round trip. Set per query, not
        per connection: behind PgBouncer in transaction mode a connection's settings do
        not stay with it."""
        with conn.pipeline(), conn.cursor(binary=True) as cur:
            conn.execute(b"BEGIN")
            conn.execute(
                b"SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                b"set_config('hnsw.ef_search', %s, true)",
                (str(self.ef_search),),
            )
            cur.execute(sql.encode(), params)
            conn.execute(b"COMMIT")
            return cur.fetchall()

    @_guarded("gathering vector candidates")
    def vector_candidates(
        self, vector: np.ndarray, filters: SearchFilters, limit: int, others: Sequence[int]
    ) -> VectorCandidates:
        """In one round trip, what hybrid search needs besides its keyword pass: the
        ``limit`` nearest chunks (as ``vector_search``); for them and ``others`` (the
        keyword pass's candidates) the first chunk of each one's document; and the stored
        embeddings of every one of those that is not among the nearest."""
        cte, args = self._nearest(vector, filters, limit)
        sql = (
            f"{cte}, "
            "candidate AS (SELECT id FROM nearest UNION SELECT unnest(%s::bigint[])), "
            "owned AS (SELECT c.id, f.id AS owner FROM candidate JOIN chunks c USING (id) "
            " JOIN chunks f ON f.document_id = c.document_id AND f.position = 0), "
            "wanted AS (SELECT id FROM owned UNION SELECT owner FROM owned "
            " EXCEPT SELECT id FROM nearest) "
            "SELECT 0, id, distance, 1 - distance, NULL::bigint, NULL::float4[] FROM nearest "
            "UNION ALL SELECT 1, id, NULL, NULL, owner, NULL FROM owned "
            "UNION ALL SELECT 2, w.id, NULL, NULL, NULL, c.embedding::float4[] "
            "FROM wanted w JOIN chunks c USING (id)"
        )
        args.append([int(i) for i in others])
        with self._pools.reads() as conn:
            rows = self._with_hnsw_settings(conn, sql, args)
        nearest = sorted((r[2], r[1], r[3]) for r in rows if r[0] == 0)
        return VectorCandidates(
            hits=[(chunk_id, float(cosine)) for _, chunk_id, cosine in nearest],
            owners={r[1]: r[4] for r in rows if r[0] == 1},
            vectors={r[1]: np.asarray(r[5], dtype=np.float32) for r in rows if r[0] == 2},
        )

    @_guarded("finding the documents of chunks")
    def first_chunk_ids(self, chunk_ids: Sequence[int]) -> dict[int, int]:
        """Chunk id -> the id of the first chunk of its document (the document's key)."""
        return dict(
            self._rows(
                "SELECT c.id, f.id FROM chunks c JOIN chunks f "
                "ON f.document_id = c.document_id AND f.position = 0 WHERE c.id = ANY(%s)",
                (list(chunk_ids),),
            )
        )

    # -- reading for a copy to another store (storage.migration) ----------------------
    @_guarded("reading documents to copy")
    def export(self, ids: Sequence[str]) -> list[tuple[Document, list[Chunk], np.ndarray, str]]:
        """(document, its chunks in order, their stored embeddings, stored checksum) of
        the documents among ``ids``, whatever the scope: what ``write`` takes, so a copy
        needs no embedder."""
        with self._pools.primary() as conn, conn.cursor(binary=True) as cur:  # whole: the primary
            documents = cur.execute(
                b"SELECT id, knowledge_base, title, source, doc_type, authority, updated_at, "
                b"version, supersedes, metadata, text, checksum FROM documents "
                b"WHERE id = ANY(%s)",
                (list(ids),),
            ).fetchall()
            chunks: dict[str, list[tuple[Any, ...]]] = {}
            for row in cur.execute(
                b"SELECT document_id, position, text, start_offset, end_offset, entities, "
                b"numeric_density, embedding::float4[], section, first_page, last_page "
                b"FROM chunks WHERE document_id = ANY(%s) "
                b"ORDER BY document_id, position",
                (list(ids),),
            ):
                chunks.setdefault(row[0], []).append(row[1:])
        out = []
        for r in documents:
            rows = chunks.get(r[0], [])
            document = Document(
                id=r[0],
                text=r[10],
                knowledge_base=r[1],
                title=r[2],
                source=r[3],
                doc_type=r[4],
                authority=r[5],
                updated_at=r[6],
                version=r[7],
                supersedes=r[8],
                metadata=r[9],
            )
            pieces = [
                Chunk(
                    c[0],
                    c[1],
                    c[2],
                    c[3],
                    tuple(c[4]),
                    c[5],
                    section=c[7],
                    pages=pages_of(c[8], c[9]),
                )
                for c in rows
            ]
            vectors = np.asarray([c[6] for c in rows], dtype=np.float32).reshape(
                len(rows), self.dimension
            )
            out.append((document, pieces, vectors, r[11]))
        return out

    @staticmethod
    def recorded_dimension(url: str, connect_timeout: float = 5.0) -> int | None:
        """The embedding dimension the store at ``url`` was opened with, read without
        opening it (opening records one); None for a database that holds no store."""
        conn = connect(url, redacted(url), connect_timeout)
        try:
            row = conn.execute(
                b"SELECT value FROM meta WHERE key = %s", (_DIMENSION_KEY,)
            ).fetchone()
        except psycopg.errors.UndefinedTable:
            return None
        except psycopg.Error as exc:
            raise StoreError(f"reading the store at {redacted(url)} failed: {exc}") from exc
        finally:
            conn.close()
        return int(row[0]) if row else None


def _vector_text(vector: np.ndarray) -> str:
    """pgvector's text form, '[x,y,...]' (a query vector, parsed once per search)."""
    return "[" + ",".join(map(repr, vector.tolist())) + "]"
