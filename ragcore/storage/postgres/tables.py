"""Tables beside the documents on the PostgreSQL store: the SQLite tables' contract.

The same schema files, the same checks of every row (``storage.tables.typed_batches``)
and the same ``TableInfo`` from a ``table_registry`` (migration 0004). A table ``name``
lives in ``data_<name>``: a ``row_id`` bigint key numbered from 1 in file order (what
SQLite's rowid is, so a citation names the same rows on either store), then the declared
columns: text ``COLLATE "C"`` (ordered bytewise, as SQLite orders), bigint, double
precision, and dates and months as ISO text (so compiled comparisons are SQLite's).

A load is one transaction: it bumps the ``tables_version`` meta row first (its row lock
makes loads from every server take turns, and engines sharing the database see a new
version), refuses a taken name unless it replaces, COPYs the rows into a staging table
in batches, drops the old table, renames the staging one and replaces the value index
(``postgres.table_index``: migrations 0007, 0009 and 0010) and the registry row. Any
error rolls back: the old table stays.

``select`` runs one compiled query in a READ ONLY transaction under
``SET LOCAL statement_timeout``; raw SQL is never run here (``retrieval.tables``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql as pgsql

from ragcore.errors import InvalidInputError, InvalidQueryError
from ragcore.storage.postgres.store import PostgresStore
from ragcore.storage.postgres.table_index import index_values
from ragcore.storage.table_values import ValueIndex
from ragcore.storage.tables import (
    Progress,
    TableFile,
    TableInfo,
    read_table_file,
    registered,
    staging_name,
    table_exists,
    typed_batches,
    unknown_table,
)
from ragcore.tabular import ColumnType, TableSchema

ROW_ID = "row_id"
MAX_IDENTIFIER_BYTES = 63
"""PostgreSQL cuts longer names short (two columns could become one)."""
_PG_TYPES = {
    ColumnType.TEXT: 'text COLLATE "C"',
    ColumnType.INTEGER: "bigint",
    ColumnType.REAL: "double precision",
    ColumnType.DATE: 'text COLLATE "C"',
    ColumnType.MONTH: 'text COLLATE "C"',
}
_REGISTRY = "SELECT name, schema, source, sha256, row_count, ingested_at FROM table_registry"


class PostgresTables:
    """The tables of one PostgreSQL store (thread-safe: each call takes a pooled
    connection; loads from any server take turns on the ``tables_version`` row)."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store
        self._parsed: dict[tuple[str, str], TableSchema] = {}

    def _connection(self) -> AbstractContextManager[psycopg.Connection]:
        return self._store.connection()

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
        _check_columns(source)
        name, parsed = source.name, source.schema
        target = pgsql.Identifier(parsed.sql_name)
        try:
            with self._connection() as conn, conn.transaction(), conn.cursor() as cur:
                cur.execute(
                    "UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'tables_version'"
                )
                # After the version row's lock: loads from every server take turns.
                cur.execute("SELECT 1 FROM table_registry WHERE name = %s", (name,))
                if not replace and cur.fetchone() is not None:
                    raise table_exists(name)
                count = self._load(cur, source, progress)
                cur.execute(pgsql.SQL("DROP TABLE IF EXISTS {}").format(target))
                cur.execute(
                    pgsql.SQL("ALTER TABLE {} RENAME TO {}").format(
                        pgsql.Identifier(staging_name(name)), target
                    )
                )
                cur.execute(
                    pgsql.SQL("ALTER TABLE {} ADD PRIMARY KEY ({})").format(
                        target, pgsql.Identifier(ROW_ID)
                    )
                )
                _index(cur, parsed)
                index_values(cur, parsed)
                cur.execute(
                    "INSERT INTO table_registry (name, schema, source, sha256, row_count, "
                    "ingested_at) VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (name) DO UPDATE "
                    "SET schema = EXCLUDED.schema, source = EXCLUDED.source, "
                    "sha256 = EXCLUDED.sha256, row_count = EXCLUDED.row_count, "
                    "ingested_at = EXCLUDED.ingested_at",
                    source.registry_row(count),
                )
        except psycopg.Error as exc:
            raise self._store.translate(exc, f"loading table {name!r} from {path}") from exc
        return source.info(count)

    @staticmethod
    def _load(cur: psycopg.Cursor, source: TableFile, progress: Progress | None) -> int:
        """Rows of the file into the staging table (inside the caller's transaction)."""
        staging = pgsql.Identifier(staging_name(source.name))
        columns = list(source.schema.columns)
        cur.execute(pgsql.SQL("DROP TABLE IF EXISTS {}").format(staging))
        cur.execute(
            pgsql.SQL("CREATE TABLE {} ({} bigint NOT NULL, {})").format(
                staging,
                pgsql.Identifier(ROW_ID),
                pgsql.SQL(", ").join(
                    pgsql.SQL("{} {} NOT NULL").format(pgsql.Identifier(c), pgsql.SQL(_PG_TYPES[k]))
                    for c, k in source.schema.columns.items()
                ),
            )
        )
        copy = pgsql.SQL("COPY {} ({}) FROM STDIN").format(
            staging, pgsql.SQL(", ").join(map(pgsql.Identifier, [ROW_ID, *columns]))
        )
        loaded = 0
        for batch in typed_batches(source):
            with cur.copy(copy) as stream:
                for row in batch:
                    loaded += 1
                    stream.write_row((loaded, *(row[c] for c in columns)))
            if progress is not None:
                progress(loaded)
        return loaded

    def version(self) -> int:
        """A counter every table load moves in its own transaction, through any server."""
        rows = self._rows("SELECT value FROM meta WHERE key = 'tables_version'", ())
        return int(rows[0][0]) if rows else 0

    def all(self) -> list[TableInfo]:
        """Every loaded table, by name."""
        return [registered(r, self._parsed) for r in self._rows(f"{_REGISTRY} ORDER BY name", ())]

    def get(self, name: str) -> TableInfo:
        """The table ``name``; NotFoundError (listing the loaded ones) if there is none."""
        rows = self._rows(f"{_REGISTRY} WHERE name = %s", (name,))
        if not rows:
            raise unknown_table(name, [t.name for t in self.all()])
        return registered(rows[0], self._parsed)

    def schema(self, name: str) -> TableSchema:
        return self.get(name).schema

    def value_index(self) -> ValueIndex:
        """The loaded tables' dimension values, looked up by word (``table_values``)."""
        return ValueIndex(lambda sql, params: self._rows(sql.replace("?", "%s"), params))

    def _rows(self, sql: str, params: Sequence[object]) -> list[tuple[Any, ...]]:
        try:
            with self._connection() as conn:
                return conn.execute(sql.encode(), params).fetchall()
        except psycopg.Error as exc:
            raise self._store.translate(exc, "reading the table registry") from exc

    def select(
        self,
        table: str,
        sql: str,
        params: Sequence[object],
        *,
        time_limit: float,
        max_rows: int,
    ) -> list[tuple[Any, ...]]:
        """Up to ``max_rows`` rows of one compiled query on ``table``, in a READ ONLY
        transaction stopped after ``time_limit`` seconds (InvalidQueryError)."""
        timeout = f"{max(1, math.ceil(time_limit * 1000))}ms"
        try:
            with self._connection() as conn, conn.transaction(), conn.cursor() as cur:
                cur.execute("SET TRANSACTION READ ONLY")
                cur.execute("SELECT set_config('statement_timeout', %s, true)", (timeout,))
                cur.execute(sql.encode(), params)
                return cur.fetchmany(max_rows)
        except psycopg.errors.QueryCanceled as exc:
            raise InvalidQueryError(
                f"the query on table {table!r} took longer than {time_limit:g} s and was "
                "stopped; narrow it with filters or a time window"
            ) from exc
        except psycopg.Error as exc:
            raise self._store.translate(exc, f"querying table {table!r}") from exc


def _check_columns(source: TableFile) -> None:
    """Names PostgreSQL would take differently from SQLite: refused before any reading."""
    for column in source.schema.columns:
        if column.lower() == ROW_ID:
            raise InvalidInputError(
                f"{source.path}: column {column!r} is the row id on the PostgreSQL store; "
                "rename it in the schema and the file"
            )
        if len(column.encode()) > MAX_IDENTIFIER_BYTES:
            raise InvalidInputError(
                f"{source.path}: column name {column!r} is longer than PostgreSQL's "
                f"{MAX_IDENTIFIER_BYTES} bytes; shorten it in the schema and the file"
            )


def _index(cur: psycopg.Cursor, schema: TableSchema) -> None:
    """The SQLite store's indexes (``storage.tables._index``): each dimension then the
    time column (a text dimension by ``lower()``, as filters compare it), and the time
    column then every other column as they are (a time window read from it alone)."""
    time = schema.time_column
    keys: list[list[str]] = [
        [dimension] + ([time] if time else [])
        for dimension in dict.fromkeys(d.column for d in schema.dimensions)
        if dimension != time
    ]
    dimensions = len(keys)
    if time is not None:
        keys.append([time] + [c for c in schema.columns if c != time])
    for number, columns in enumerate(keys, start=1):
        cur.execute(
            pgsql.SQL("CREATE INDEX {} ON {} ({})").format(
                pgsql.Identifier(f"{schema.sql_name}__{number}"),  # short: 63 bytes at most
                pgsql.Identifier(schema.sql_name),
                pgsql.SQL(", ").join(
                    _key(schema, c, lowered=position == 0 and number <= dimensions)
                    for position, c in enumerate(columns)
                ),
            )
        )
    cur.execute(pgsql.SQL("ANALYZE {}").format(pgsql.Identifier(schema.sql_name)))


def _key(schema: TableSchema, column: str, *, lowered: bool) -> pgsql.Composable:
    if lowered and schema.columns[column] is ColumnType.TEXT:
        return pgsql.SQL("(lower({}))").format(pgsql.Identifier(column))
    return pgsql.Identifier(column)
