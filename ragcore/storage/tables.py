"""Tables beside the documents: typed rows from CSV / JSONL files, in the store's SQLite.

The reading and checking of a data file and its schema (``read_table_file``,
``typed_batches``) and the registry's rows as ``TableInfo`` are shared with the
PostgreSQL store's tables (``storage.postgres.tables``).

A table ``name`` lives in a STRICT SQLite table ``data_<name>`` whose columns are the
schema's (``ragcore.tabular``), and has a row in ``table_registry`` (migration 0004) with
its schema's TOML text, the source file's name and SHA-256, the row count and the time.

Loading is one transaction on the store's writer: a table of that name is refused
unless the load replaces (``replace=True``, ``--replace``), then the rows go into a
staging table (through sqlite-utils, which nests its batches as savepoints), the old
table is dropped, the staging one renamed, the value index (``storage.table_index``:
migrations 0006 to 0008) and the registry row replaced. The file is read by
``table_rows`` (a CSV header naming a column twice, a row with more or fewer fields
than it, a field over 8 MiB are errors naming the row); a bad row (missing or mistyped
value) or a schema naming a column the file lacks is an ``InvalidInputError`` naming
the file, row and column; the transaction rolls back and the old table stays.
The load also moves the ``tables_version`` meta row, so the other processes on the data
directory (``serve --processes``) notice it before their next question.
"""

from __future__ import annotations

import hashlib
import math
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from ragcore.errors import InvalidInputError, NotFoundError
from ragcore.storage.store import Store
from ragcore.storage.table_index import index_values
from ragcore.storage.table_rows import RowFormat, read_rows
from ragcore.storage.table_values import ValueIndex
from ragcore.tabular import YEARS, ColumnType, TableSchema, check_table_name, parse_schema

FORMATS = {".csv": RowFormat.CSV, ".jsonl": RowFormat.JSONL, ".ndjson": RowFormat.JSONL}
BATCH_ROWS = 1000
_SQL_TYPES = {
    ColumnType.TEXT: str,
    ColumnType.INTEGER: int,
    ColumnType.REAL: float,
    ColumnType.DATE: str,
    ColumnType.MONTH: str,
}
_INTEGER = re.compile(r"^[-+]?\d+$")
_MONTH = re.compile(r"^(\d{4})-(\d{2})$")

Progress = Callable[[int], None]
"""Called with the number of rows loaded so far, after every batch."""


@dataclass(frozen=True)
class TableInfo:
    """A loaded table, as the registry records it."""

    name: str
    schema: TableSchema
    schema_text: str
    source: str
    """The data file's name (not its path: the path is the loading machine's)."""
    sha256: str
    row_count: int
    ingested_at: datetime


@dataclass(frozen=True)
class TableFile:
    """A data file and its schema, read and checked: what either store loads. The
    rows are read (and typed, and checked) as the load goes, by ``typed_batches``."""

    name: str
    schema: TableSchema
    schema_text: str
    path: Path
    fmt: RowFormat
    sha256: str
    ingested_at: datetime

    def registry_row(self, row_count: int) -> tuple[str, str, str, str, int, str]:
        """(name, schema, source, sha256, row_count, ingested_at) as the registry holds it."""
        return (
            self.name,
            self.schema_text,
            self.path.name,
            self.sha256,
            row_count,
            self.ingested_at.isoformat(),
        )

    def info(self, row_count: int) -> TableInfo:
        return TableInfo(
            self.name,
            self.schema,
            self.schema_text,
            self.path.name,
            self.sha256,
            row_count,
            self.ingested_at,
        )


def read_table_file(path: Path | str, *, table: str, schema: Path | str) -> TableFile:
    """``path`` (.csv or .jsonl) to load as table ``table`` under the schema file
    ``schema``: InvalidInputError for an unusable name, file type, file or schema."""
    path, schema_path = Path(path), Path(schema)
    name = check_table_name(table)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise InvalidInputError(
            f"{path}: unsupported table file type {path.suffix!r}; use {', '.join(FORMATS)}"
        )
    try:
        schema_text = schema_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"cannot read the table schema {schema_path}: {exc}") from exc
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InvalidInputError(f"cannot read the table file {path}: {exc}") from exc
    parsed = parse_schema(schema_text, str(schema_path), default_name=name)
    parsed = replace(parsed, name=name)  # the schema file's own name yields to --table
    digest = hashlib.sha256(data).hexdigest()
    now = datetime.now(UTC).replace(microsecond=0)
    return TableFile(name, parsed, schema_text, path, fmt, digest, now)


def typed_batches(source: TableFile, size: int = BATCH_ROWS) -> Iterator[list[dict[str, Any]]]:
    """The file's rows as {declared column: typed value}, ``size`` at a time;
    InvalidInputError naming file, row and column on the first bad one, or if the file
    cannot be read (``table_rows``) or has no rows."""
    count = 0
    batch: list[dict[str, Any]] = []
    for row in _typed(read_rows(source.path, source.fmt), source.schema, source.path):
        batch.append(row)
        count += 1
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
    if not count:
        raise InvalidInputError(f"{source.path}: has no rows; a table needs at least one")


def staging_name(name: str) -> str:
    """The table a load of ``name`` fills before it replaces ``data_<name>``."""
    return f"tableload_{name}"


def registered(row: Sequence[Any], parsed: dict[tuple[str, str], TableSchema]) -> TableInfo:
    """A registry row (name, schema, source, sha256, row_count, ingested_at) as a
    TableInfo; ``parsed`` caches schemas by (name, text): parsed once, not per query."""
    name, text, source, digest, count, stamp = row
    key = (name, text)
    if key not in parsed:
        schema = parse_schema(text, f"table {name!r}", default_name=name)
        parsed[key] = replace(schema, name=name)
    return TableInfo(name, parsed[key], text, source, digest, count, datetime.fromisoformat(stamp))


def table_exists(name: str) -> InvalidInputError:
    """Loading under a taken name without ``replace``: refused before any row is read."""
    return InvalidInputError(
        f"table name: a table named {name!r} is loaded already; load with --replace "
        "(replace=True) to replace it, or choose another name"
    )


def unknown_table(name: str, known: Sequence[str]) -> NotFoundError:
    listed = ", ".join(known) or "none (run ragcore ingest-table)"
    return NotFoundError(f"no table is named {name!r}; loaded tables: {listed}")


class Tables:
    """The tables of one store (thread-safe: a load is one transaction on the writer)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._parsed: dict[tuple[str, str], TableSchema] = {}

    def ingest(
        self,
        path: Path | str,
        *,
        table: str,
        schema: Path | str,
        progress: Progress | None = None,
        replace: bool = False,
    ) -> TableInfo:
        """Load the rows of ``path`` (.csv or .jsonl) as table ``table``, described by the
        schema file ``schema``. A table of that name is replaced atomically with
        ``replace``, else the load is refused (``table_exists``) and nothing changes."""
        source = read_table_file(path, table=table, schema=schema)
        name, parsed = source.name, source.schema
        try:
            with self._store.transaction() as conn:
                # fetchall: a statement left open would lock the DROP TABLE below
                taken = conn.execute("SELECT 1 FROM table_registry WHERE name = ?", (name,))
                if taken.fetchall() and not replace:
                    raise table_exists(name)
                conn.execute(  # other processes on this data directory (serve --processes)
                    "INSERT INTO meta (key, value) VALUES ('tables_version', '1') "
                    "ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
                )
                count = self._load(conn, source, progress)
                conn.execute(f'DROP TABLE IF EXISTS "{parsed.sql_name}"')
                conn.execute(f'ALTER TABLE "{staging_name(name)}" RENAME TO "{parsed.sql_name}"')
                _index(conn, parsed)
                index_values(conn, parsed)
                conn.execute(
                    "INSERT OR REPLACE INTO table_registry (name, schema, source, sha256, "
                    "row_count, ingested_at) VALUES (?, ?, ?, ?, ?, ?)",
                    source.registry_row(count),
                )
        except sqlite3.Error as exc:
            raise self._store.translate(exc, f"loading table {name!r} from {path}") from exc
        return source.info(count)

    def _load(self, conn: sqlite3.Connection, source: TableFile, progress: Progress | None) -> int:
        """Rows of the file into the staging table (inside the caller's transaction)."""
        db = Database(conn, recursive_triggers=False, execute_plugins=False)
        staging = staging_name(source.name)
        conn.execute(f'DROP TABLE IF EXISTS "{staging}"')
        db.table(staging).create(
            {column: _SQL_TYPES[kind] for column, kind in source.schema.columns.items()},
            not_null=list(source.schema.columns),
            strict=True,
        )
        loaded = 0
        for batch in typed_batches(source):
            db.table(staging).insert_all(batch, batch_size=BATCH_ROWS)
            loaded += len(batch)
            if progress is not None:
                progress(loaded)
        return loaded

    def version(self) -> int:
        """A counter every table load moves in its own transaction, through any process
        on this data directory."""
        return int(self._store.meta("tables_version") or 0)

    def all(self) -> list[TableInfo]:
        """Every loaded table, by name."""
        return [self._info(row) for row in self._rows("", ())]

    def get(self, name: str) -> TableInfo:
        """The table ``name``; NotFoundError (listing the loaded ones) if there is none."""
        rows = self._rows(" WHERE name = ?", (name,))
        if not rows:
            raise unknown_table(name, [t.name for t in self.all()])
        return self._info(rows[0])

    def schema(self, name: str) -> TableSchema:
        return self.get(name).schema

    def value_index(self) -> ValueIndex:
        """The loaded tables' dimension values, looked up by word (``table_values``)."""
        return ValueIndex(self._read)

    def _read(self, sql: str, params: Sequence[object]) -> list[tuple]:
        try:
            return self._store.reader().execute(sql, tuple(params)).fetchall()
        except sqlite3.Error as exc:
            raise self._store.translate(exc, "reading the table value index") from exc

    def _rows(self, where: str, params: tuple) -> list[tuple]:
        try:
            return (
                self._store.reader()
                .execute(
                    "SELECT name, schema, source, sha256, row_count, ingested_at "
                    f"FROM table_registry{where} ORDER BY name",
                    params,
                )
                .fetchall()
            )
        except sqlite3.Error as exc:
            raise self._store.translate(exc, "reading the table registry") from exc

    def _info(self, row: tuple) -> TableInfo:
        return registered(row, self._parsed)


def _index(conn: sqlite3.Connection, schema: TableSchema) -> None:
    """Indexes for the filters questions use. Each dimension, then the time column: a
    region in a month reads that region's rows of that month only. The time column
    first, then every other column: a time window (the most common filter) is read
    from that index alone, with no look-up of the table row per matching row. Text is
    compared without case, so indexed so."""
    time = schema.time_column
    for dimension in dict.fromkeys(d.column for d in schema.dimensions):
        if dimension != time:  # a time dimension is the time index's first column
            _create_index(conn, schema, [dimension] + ([time] if time else []))
    if time is not None:
        _create_index(conn, schema, [time] + [c for c in schema.columns if c != time])
    conn.execute(f'ANALYZE "{schema.sql_name}"')  # so the planner picks the narrowest index


def _create_index(conn: sqlite3.Connection, schema: TableSchema, columns: list[str]) -> None:
    """An index named after its first column (one index per first column)."""
    keys = ", ".join(
        f'"{c}"' + (" COLLATE NOCASE" if schema.columns[c] is ColumnType.TEXT else "")
        for c in columns
    )
    conn.execute(f'CREATE INDEX "{schema.sql_name}__{columns[0]}" ON "{schema.sql_name}" ({keys})')


def _typed(
    rows: Iterable[tuple[int, Mapping[str, Any]]], schema: TableSchema, path: Path
) -> Iterator[dict[str, Any]]:
    """Each row as {declared column: typed value}; InvalidInputError on the first bad one."""
    for number, row in rows:
        if number == 1:
            missing = [c for c in schema.columns if c not in row]
            if missing:
                raise InvalidInputError(
                    f"{path}: the schema declares column {missing[0]!r}, which the file "
                    f"does not have (its columns: {', '.join(map(str, row))}); fix the "
                    "schema's [columns] or the file"
                )
        typed = {
            column: _value(row.get(column), kind, path, number, column)
            for column, kind in schema.columns.items()
        }
        if schema.yearly:
            _check_year(typed, schema, path, number)
        yield typed


def _check_year(row: Mapping[str, Any], schema: TableSchema, path: Path, number: int) -> None:
    """An integer time column holds years: a value of another size (a count, a day
    number, "20111") would be read as a year by every period asked, so it is an error."""
    column = schema.time_column
    assert column is not None
    if row[column] not in YEARS:
        raise InvalidInputError(
            f"{path}: row {number}, column {column!r}: {row[column]!r} is not a year "
            f"({YEARS.start} to {YEARS.stop - 1}); the time column {column!r} is an integer "
            "column, so it holds years; fix the value, or declare another time column"
        )


def _value(raw: object, kind: ColumnType, path: Path, row: int, column: str) -> object:
    """``raw`` as a value of ``kind``; InvalidInputError naming file, row and column."""

    def bad(problem: str) -> InvalidInputError:
        return InvalidInputError(f"{path}: row {row}, column {column!r}: {problem}")

    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise bad("missing value (every declared column is required)")
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        raise bad(f"{raw!r} is not a {kind} value")
    text = raw.strip() if isinstance(raw, str) else None
    if kind is ColumnType.TEXT:
        if isinstance(raw, float):
            raise bad(f"{raw!r} is a number, expected text")
        return text if text is not None else str(raw)
    if kind is ColumnType.INTEGER:
        if isinstance(raw, int):
            return raw
        if isinstance(raw, float) and raw.is_integer():
            return int(raw)
        if text is not None and _INTEGER.match(text):
            return int(text)
        raise bad(f"{raw!r} is not a whole number")
    if kind is ColumnType.REAL:
        try:
            number = float(raw)
        except ValueError:
            raise bad(f"{raw!r} is not a number") from None
        if not math.isfinite(number):
            raise bad(f"{raw!r} is not a finite number")
        return number
    if text is None:
        raise bad(
            f"{raw!r} is not a {kind} ({'YYYY-MM-DD' if kind is ColumnType.DATE else 'YYYY-MM'})"
        )
    if kind is ColumnType.DATE:
        try:
            return date.fromisoformat(text).isoformat()
        except ValueError:
            raise bad(f"{raw!r} is not a date (YYYY-MM-DD)") from None
    match = _MONTH.match(text)
    if match is None or not 1 <= int(match.group(2)) <= 12:
        raise bad(f"{raw!r} is not a month (YYYY-MM)")
    return text
