"""Copy a store to another without re-embedding: a data directory to PostgreSQL and back.

``copy_store`` reads each document with its chunks and their *stored* embeddings from
the source and writes them to the target through the target's own ``write`` (so its
keyword indexes, data version and, on SQLite, vector index follow as after an ingest),
in groups of documents, one target transaction per group: a copy that dies leaves whole
documents only, and running it again skips those already there (same id and checksum)
and goes on. The source is only read. Before writing anything the copy refuses a target
that holds other documents under the same ids, embeddings of another dimension, or the
vectors of another embedder, and a target that is the source itself.

The copy is a list of parts, documents first, then sessions (with their turns, scope and
times, row by row), then tables (through the target's own table loader, row ids kept);
``Part`` names them and ``CopyReport`` gives one ``PartReport`` each. Every part is
checked before any is written.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ragcore.config import HnswParams
from ragcore.documents import Chunk, Document
from ragcore.errors import ConfigError, InvalidInputError, StoreError
from ragcore.storage.protocol import DocumentStore
from ragcore.storage.records import MAX_PAGE_SIZE, Listing
from ragcore.storage.sql import SqlConnection, sql_store
from ragcore.storage.store import DATABASE_NAME, Store

if TYPE_CHECKING:
    from ragcore.storage.postgres import PostgresStore
    from ragcore.storage.vector_index import PersistentIndex

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
EMBEDDER_KEY = "embedder"
DEFAULT_GROUP = 64
"""Documents per target transaction."""


class Part(StrEnum):
    """What a copy carries, in the order it copies them."""

    DOCUMENTS = "documents"
    SESSIONS = "sessions"
    TABLES = "tables"

    @property
    def rows_name(self) -> str:
        """What ``PartReport.rows`` counts for this part."""
        return {Part.DOCUMENTS: "chunks", Part.SESSIONS: "turns", Part.TABLES: "rows"}[self]


class Backend(StrEnum):
    SQLITE = "sqlite"
    POSTGRES = "postgres"


@dataclass(frozen=True)
class Location:
    """Where a store is: a data directory (SQLite) or a PostgreSQL URL."""

    backend: Backend
    where: str = field(repr=False)
    """The directory, or the URL (with its password: never shown, see ``shown``)."""
    shown: str
    """What messages and reports say: the directory, or the URL without its password."""

    @classmethod
    def parse(cls, text: str | Path, role: str = "target") -> Location:
        """A ``postgresql://`` URL or a directory path; InvalidInputError naming ``role``
        for anything else."""
        if isinstance(text, Path):
            text = str(text)
        if not isinstance(text, str) or not text.strip():
            raise InvalidInputError(
                f"{role} {text!r}: give a postgresql:// URL or a data directory path"
            )
        if text.startswith(POSTGRES_SCHEMES):
            _postgres()  # the optional extra, with a clear error when it is missing
            from ragcore.storage.postgres.connection import redacted

            try:
                shown = redacted(text)
            except ConfigError as exc:  # "invalid config store_url=VALUE: FIX"
                fix = str(exc).split(": ", 1)[-1]
                raise InvalidInputError(
                    f"{role} {exc.value!r} is not a usable URL: {fix}"
                ) from None
            return cls(Backend.POSTGRES, text, shown)
        if "://" in text:
            scheme = text.split("://", 1)[0]
            raise InvalidInputError(
                f"{role} has the scheme {scheme!r}: give a postgresql:// URL "
                "(postgresql://user@host:5432/dbname) or a data directory path"
            )
        path = Path(text).expanduser().resolve()
        return cls(Backend.SQLITE, str(path), str(path))

    def same_as(self, other: Location) -> bool:
        return (self.backend, self.shown) == (other.backend, other.shown)


@dataclass(frozen=True)
class PartReport:
    """What a copy did with one part: ``copied`` written, ``skipped`` already in the
    target (same id and checksum), of ``total`` in the source."""

    part: Part
    total: int
    copied: int
    skipped: int
    rows: int
    """What came with the items copied (``part.rows_name``): the documents' chunks with
    their embeddings, the sessions' turns, the tables' rows."""


@dataclass(frozen=True)
class CopyReport:
    source: str
    target: str
    embedder: str | None
    """The ``embedder`` meta of the source ("name/dimension"), now the target's too."""
    parts: tuple[PartReport, ...]
    seconds: float

    def part(self, part: Part) -> PartReport:
        return next(p for p in self.parts if p.part == part)


@dataclass(frozen=True)
class CopyProgress:
    part: Part
    done: int
    """Items of ``part`` copied or found already there so far."""
    total: int
    seconds: float


ProgressListener = Callable[[CopyProgress], None]


class _Exporting(DocumentStore, Protocol):
    """What a copy reads beyond the protocol (both stores have it)."""

    def export(self, ids: Sequence[str]) -> list[tuple[Document, list[Chunk], np.ndarray, str]]: ...


def copy_store(
    source: str | Path,
    target: str | Path,
    *,
    progress: ProgressListener | None = None,
    group: int = DEFAULT_GROUP,
    hnsw: HnswParams = HnswParams(),
    threads: int = 2,
) -> CopyReport:
    """Copy every part of the store at ``source`` into the one at ``target`` (each a
    data directory or a ``postgresql://`` URL), without re-embedding.

    ``hnsw`` and ``threads`` are for the vector index of a SQLite target. Raises
    InvalidInputError for a bad location, the source as target, or a target that holds
    other documents, embeddings or embedder (every part is checked before any is
    written); StoreError for a store that cannot be read or written.
    """
    if isinstance(group, bool) or not isinstance(group, int) or group < 1:
        raise InvalidInputError(f"group={group!r}: give a number of documents of 1 or more")
    started = time.monotonic()
    src, dst = Location.parse(source, "source"), Location.parse(target, "target")
    if src.same_as(dst):
        raise InvalidInputError(
            f"the target {dst.shown} is the source itself: give another data directory or database"
        )
    reader = _open_source(src)
    try:
        embedder = reader.meta(EMBEDDER_KEY)
        dimension = _source_dimension(reader, embedder) or _target_dimension(dst)
        if dimension is None and dst.backend is Backend.POSTGRES:
            # No embeddings anywhere: a new database cannot be given a vector column.
            _refuse_unknown_dimension(reader, dst)
            empty = tuple(PartReport(part, 0, 0, 0, 0) for part, _check, _copy in _PARTS)
            return CopyReport(src.shown, dst.shown, embedder, empty, time.monotonic() - started)
        writer = _open_target(dst, dimension)
        try:
            copy = _Copy(
                reader,
                writer,
                dst,
                embedder,
                dimension,
                _source_checksums(reader),
                group,
                progress,
                started,
                hnsw,
                threads,
            )
            for _part, check, _copy in _PARTS:
                check(copy)
            reports = tuple(copy_part(copy) for _part, _check, copy_part in _PARTS)
        finally:
            writer.close()
    finally:
        reader.close()
    return CopyReport(src.shown, dst.shown, embedder, reports, time.monotonic() - started)


@dataclass(frozen=True)
class _Copy:
    """One copy under way: both stores open, what the source holds."""

    reader: _Exporting
    writer: _Exporting
    target: Location
    embedder: str | None
    dimension: int | None
    """None: neither store holds an embedding (only sessions or tables to copy)."""
    wanted: dict[str, str]
    """Every source document's checksum by id, oldest stored first."""
    group: int
    progress: ProgressListener | None
    started: float
    hnsw: HnswParams
    threads: int

    def tell(self, part: Part, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(CopyProgress(part, done, total, time.monotonic() - self.started))


# -- opening ------------------------------------------------------------------------
def _postgres() -> type[PostgresStore]:
    try:
        from ragcore.storage.postgres import PostgresStore
    except ImportError as exc:  # psycopg is an optional extra
        raise StoreError(str(exc)) from None
    return PostgresStore


def _open_source(location: Location) -> _Exporting:
    """The source store, opened to read: a missing data directory or an empty database
    is an error (opening a store would create one)."""
    if location.backend is Backend.SQLITE:
        if not (Path(location.where) / DATABASE_NAME).is_file():
            raise InvalidInputError(
                f"no ragcore data directory at {location.shown} (no {DATABASE_NAME}): give the "
                "source with --data-dir or --store"
            )
        return Store(Path(location.where))
    PostgresStore = _postgres()
    dimension = PostgresStore.recorded_dimension(location.where)
    if dimension is None:
        raise InvalidInputError(
            f"the database {location.shown} holds no ragcore store: give the source with "
            "--store or --data-dir"
        )
    return PostgresStore(location.where, dimension=dimension)


def _target_dimension(location: Location) -> int | None:
    """The dimension a PostgreSQL target already records (None for a data directory)."""
    if location.backend is Backend.SQLITE:
        return None
    return _postgres().recorded_dimension(location.where)


def _refuse_unknown_dimension(reader: _Exporting, location: Location) -> None:
    """A source with sessions or tables but no embeddings cannot go into a new database:
    its vector column needs a dimension. Said, rather than copying nothing."""
    held = {
        "sessions": _count(reader, "SELECT count(*) FROM sessions"),
        "tables": _count(reader, "SELECT count(*) FROM table_registry"),
    }
    if any(held.values()):
        listed = " and ".join(f"{n} {what}" for what, n in held.items() if n)
        raise InvalidInputError(
            f"the source holds {listed} but no embeddings, so the new database "
            f"{location.shown} cannot be given an embedding dimension: ingest a document "
            "into the source first, or copy into a data directory"
        )


def _count(store: _Exporting, sql: str) -> int:
    with sql_store(store).reading("counting what to copy") as conn:
        return int(conn.execute(sql).fetchone()[0])


def _open_target(location: Location, dimension: int | None) -> _Exporting:
    if location.backend is Backend.POSTGRES:
        assert dimension is not None  # copy_store refuses before
        PostgresStore = _postgres()
        found = PostgresStore.recorded_dimension(location.where)
        if found is not None and found != dimension:
            raise _dimension_mismatch(location, found, dimension)
        return PostgresStore(location.where, dimension=dimension)
    path = Path(location.where)
    if path.exists() and not path.is_dir():
        raise InvalidInputError(
            f"the target {location.shown} is a file: give a new or empty directory, or a "
            "ragcore data directory"
        )
    if path.is_dir() and any(path.iterdir()) and not (path / DATABASE_NAME).is_file():
        raise InvalidInputError(
            f"the target {location.shown} is neither empty nor a ragcore data directory (no "
            f"{DATABASE_NAME}): give a new or empty directory"
        )
    return Store(path)


def _source_dimension(store: _Exporting, embedder: str | None) -> int | None:
    """The source's embedding dimension, from its embeddings (None when it has none)."""
    for _ids, vectors in store.embeddings(batch=1):
        return int(vectors.shape[1])
    if embedder and embedder.rpartition("/")[2].isdigit():
        return int(embedder.rpartition("/")[2])
    return None


def _source_checksums(store: _Exporting) -> dict[str, str]:
    """Every source document's checksum by id, oldest stored first (so the copy keeps the
    order of listings)."""
    out: dict[str, str] = {}
    token = None
    listing = Listing(None, None, MAX_PAGE_SIZE)
    while True:
        page = store.list_documents(listing, token)
        out.update((record.id, record.checksum) for record in page.documents)
        if (token := page.next_page_token) is None:
            return out


# -- checks -------------------------------------------------------------------------
def _dimension_mismatch(location: Location, found: int, dimension: int) -> InvalidInputError:
    return InvalidInputError(
        f"the target {location.shown} holds {found}-dimensional embeddings and the source "
        f"{dimension}-dimensional ones: copy into a new data directory or database"
    )


def _check_documents(copy: _Copy) -> None:
    """Refuse, before anything is written, a target the copy would make inconsistent."""
    store, location, embedder = copy.writer, copy.target, copy.embedder
    dimension, wanted = copy.dimension, copy.wanted
    recorded = store.meta(EMBEDDER_KEY)
    if embedder is not None and recorded is not None and recorded != embedder:
        raise InvalidInputError(
            f"the target {location.shown} was built with embedder {recorded} and the source "
            f"with {embedder}: their vectors cannot be mixed; copy into a new data directory "
            "or database"
        )
    for _ids, vectors in store.embeddings(batch=1):
        if dimension is not None and vectors.shape[1] != dimension:
            raise _dimension_mismatch(location, int(vectors.shape[1]), dimension)
        break
    held = store.checksums(wanted)
    conflicts = sorted(i for i, checksum in held.items() if checksum != wanted[i])
    if conflicts:
        shown = ", ".join(map(repr, conflicts[:5])) + (" ..." if len(conflicts) > 5 else "")
        raise InvalidInputError(
            f"the target {location.shown} holds other documents under {len(conflicts)} of the "
            f"source's ids ({shown}): nothing was copied; delete them from the target or copy "
            "into a new data directory or database"
        )


# -- documents ----------------------------------------------------------------------
def _index_of(
    store: _Exporting, dimension: int | None, hnsw: HnswParams, threads: int
) -> PersistentIndex | None:
    """A SQLite target's vector index, opened (or rebuilt) by its own machinery; the copy
    extends it as an ingest does. None for PostgreSQL (pgvector's index is in the table)."""
    if not isinstance(store, Store) or dimension is None:
        return None
    from ragcore.storage.vector_index import PersistentIndex

    return PersistentIndex(store, dimension, hnsw, threads)


def _groups(ids: list[str], size: int) -> Iterator[list[str]]:
    for begin in range(0, len(ids), size):
        yield ids[begin : begin + size]


def _copy_documents(copy: _Copy) -> PartReport:
    reader, writer, wanted = copy.reader, copy.writer, copy.wanted
    if copy.embedder is not None and writer.meta(EMBEDDER_KEY) is None:
        writer.set_meta({EMBEDDER_KEY: copy.embedder})
    index = _index_of(writer, copy.dimension, copy.hnsw, copy.threads)
    held = writer.checksums(wanted)
    missing = [i for i in wanted if i not in held]
    skipped = len(wanted) - len(missing)
    copied = chunks = 0
    copy.tell(Part.DOCUMENTS, skipped, len(wanted))
    for ids in _groups(missing, copy.group):
        items = []
        for document, pieces, vectors, checksum in reader.export(ids):
            if document.checksum != checksum:
                raise StoreError(
                    f"document {document.id!r} of the source does not match its stored "
                    "checksum: run `ragcore check` on the source; nothing of it was copied"
                )
            items.append((document, pieces, vectors))
        result = writer.write(items)
        if index is not None:
            added: dict[int, np.ndarray] = {}
            for document, _pieces, vectors in items:
                added.update(zip(result.added[document.id], vectors, strict=True))
            index.apply(result, added)
        copied += len(items)
        chunks += sum(len(pieces) for _d, pieces, _v in items)
        copy.tell(Part.DOCUMENTS, skipped + copied, len(wanted))
    if index is not None:
        index.save()
    return PartReport(Part.DOCUMENTS, len(wanted), copied, skipped, chunks)


# -- sessions -----------------------------------------------------------------------
# Row by row through ``storage.sql`` (the SQL ``storage.sessions`` runs on both stores):
# a session keeps its id, scope and times, its turns their numbers and times.
_SESSION_COLUMNS = "id, scope, created_at, last_used"
_TURN_COLUMNS = "session_id, number, question, rewritten, perception, documents, status, asked_at"


def _marks(values: Sequence[object]) -> str:
    return ",".join("?" * len(values))


def _sessions_of(conn: SqlConnection, ids: Sequence[str]) -> dict[str, tuple]:
    found: dict[str, tuple] = {}
    for begin in range(0, len(ids), 500):
        part = list(ids[begin : begin + 500])
        found.update(
            (row[0], tuple(row))
            for row in conn.execute(
                f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE id IN ({_marks(part)})", part
            )
        )
    return found


def _source_sessions(copy: _Copy) -> dict[str, tuple]:
    """Every source session's row by id, oldest first."""
    with sql_store(copy.reader).reading("reading sessions to copy") as conn:
        return {
            row[0]: tuple(row)
            for row in conn.execute(
                f"SELECT {_SESSION_COLUMNS} FROM sessions ORDER BY created_at, id"
            )
        }


def _check_sessions(copy: _Copy) -> None:
    """Refuse a target holding another session (another scope or start) under an id."""
    wanted = _source_sessions(copy)
    with sql_store(copy.writer).reading("reading the target's sessions") as conn:
        held = _sessions_of(conn, list(wanted))
    conflicts = sorted(i for i, row in held.items() if row[1:3] != wanted[i][1:3])
    if conflicts:
        shown = ", ".join(map(repr, conflicts[:5])) + (" ..." if len(conflicts) > 5 else "")
        raise InvalidInputError(
            f"the target {copy.target.shown} holds other sessions under {len(conflicts)} of "
            f"the source's session ids ({shown}): nothing was copied; end them in the target "
            "or copy into a new data directory or database"
        )


def _copy_sessions(copy: _Copy) -> PartReport:
    wanted = _source_sessions(copy)
    target = sql_store(copy.writer)
    with target.reading("reading the target's sessions") as conn:
        held = _sessions_of(conn, list(wanted))
    missing = [i for i in wanted if i not in held]
    copied = turns = 0
    copy.tell(Part.SESSIONS, len(held), len(wanted))
    for ids in _groups(missing, copy.group):
        with sql_store(copy.reader).reading("reading turns to copy") as conn:
            rows = [
                tuple(row)
                for row in conn.execute(
                    f"SELECT {_TURN_COLUMNS} FROM session_turns "
                    f"WHERE session_id IN ({_marks(ids)}) ORDER BY session_id, number",
                    ids,
                )
            ]
        with target.writing("copying sessions") as conn:
            for session_id in ids:
                conn.execute(
                    f"INSERT INTO sessions ({_SESSION_COLUMNS}) VALUES (?, ?, ?, ?)",
                    wanted[session_id],
                )
            for row in rows:
                conn.execute(
                    f"INSERT INTO session_turns ({_TURN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    row,
                )
        copied += len(ids)
        turns += len(rows)
        copy.tell(Part.SESSIONS, len(held) + copied, len(wanted))
    return PartReport(Part.SESSIONS, len(wanted), copied, len(held), turns)


# -- tables -------------------------------------------------------------------------
# Each table goes through the target's own loader (the checks, column types, indexes and
# atomic replace of ``ingest-table``): its rows, in row id order, through a JSON-lines
# file, so they keep their row ids (1..n in both stores). The registry row then gets the
# source's file name, SHA-256 and time back. A table loaded but not yet given them back
# (a crash between the two) is named ``_migrating(name)`` there: a re-run loads it again.
_REGISTRY_COLUMNS = "name, schema, source, sha256, row_count, ingested_at"


def _migrating(name: str) -> str:
    return f"ragcore-migrate-{name}.jsonl"


def _registry(store: _Exporting) -> dict[str, tuple]:
    with sql_store(store).reading("reading the table registry") as conn:
        return {
            row[0]: tuple(row)
            for row in conn.execute(f"SELECT {_REGISTRY_COLUMNS} FROM table_registry ORDER BY name")
        }


def _check_tables(copy: _Copy) -> None:
    """Refuse a target holding another table (schema, file or rows) under a name."""
    wanted, held = _registry(copy.reader), _registry(copy.writer)
    conflicts = sorted(
        name
        for name, row in held.items()
        if name in wanted and row != wanted[name] and row[2] != _migrating(name)
    )
    if conflicts:
        raise InvalidInputError(
            f"the target {copy.target.shown} holds other tables under {len(conflicts)} of the "
            f"source's table names ({', '.join(map(repr, conflicts))}): nothing was copied; "
            "copy into a new data directory or database"
        )


def _loader(store: _Exporting) -> Any:
    """The store's own table loader (``Tables`` or ``PostgresTables``)."""
    if isinstance(store, Store):
        from ragcore.storage.tables import Tables

        return Tables(store)
    from ragcore.storage.postgres.tables import PostgresTables

    postgres = _postgres()
    assert isinstance(store, postgres)  # the only other store
    return PostgresTables(store)


def _copy_tables(copy: _Copy) -> PartReport:
    wanted, held = _registry(copy.reader), _registry(copy.writer)
    missing = [name for name in wanted if held.get(name) != wanted[name]]
    source, target = _loader(copy.reader), _loader(copy.writer)
    copied = rows = 0
    done = len(wanted) - len(missing)
    copy.tell(Part.TABLES, done, len(wanted))
    for name in missing:
        _name, schema_text, file_name, sha256, row_count, ingested_at = wanted[name]
        schema = source.schema(name)
        columns = list(schema.columns)
        key = "rowid" if isinstance(copy.reader, Store) else "row_id"
        quoted = ", ".join(f'"{c}"' for c in columns)
        with sql_store(copy.reader).reading(f"reading table {name!r} to copy") as conn:
            data = [
                tuple(r)
                for r in conn.execute(
                    f'SELECT {key}, {quoted} FROM "{schema.sql_name}" ORDER BY {key}'
                )
            ]
        if [r[0] for r in data] != list(range(1, len(data) + 1)):
            raise StoreError(
                f"table {name!r} of the source has row ids other than 1..{len(data)}: reload "
                "it with `ragcore ingest-table` on the source, then copy again"
            )
        with tempfile.TemporaryDirectory(prefix="ragcore-migrate-") as folder:
            rows_file = Path(folder) / _migrating(name)
            with rows_file.open("w", encoding="utf-8") as out:
                for row in data:
                    out.write(json.dumps(dict(zip(columns, row[1:], strict=True))) + "\n")
            schema_file = Path(folder) / "schema.toml"
            schema_file.write_text(schema_text, encoding="utf-8")
            target.ingest(rows_file, table=name, schema=schema_file, replace=True)
        with sql_store(copy.writer).writing(f"recording table {name!r}") as conn:
            conn.execute(
                "UPDATE table_registry SET source = ?, sha256 = ?, ingested_at = ? WHERE name = ?",
                (file_name, sha256, ingested_at, name),
            )
        copied += 1
        rows += len(data)
        copy.tell(Part.TABLES, done + copied, len(wanted))
    return PartReport(Part.TABLES, len(wanted), copied, len(wanted) - len(missing), rows)


_PARTS: tuple[tuple[Part, Callable[[_Copy], None], Callable[[_Copy], PartReport]], ...] = (
    (Part.DOCUMENTS, _check_documents, _copy_documents),
    (Part.SESSIONS, _check_sessions, _copy_sessions),
    (Part.TABLES, _check_tables, _copy_tables),
)
