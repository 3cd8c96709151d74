"""A table's value index on the SQLite store: written by each load, and rebuilt once for
the tables loaded before the index was whole.

``index_values`` replaces one table's rows of ``table_values``, ``table_value_shapes``
(migration 0006) and ``table_nesting`` (0007) from its data, inside the caller's
transaction, and takes the table off the ``table_reindex`` queue (0008).

Migration 0008 queues every table registered when it ran: those were loaded before the
index had all its parts, and would answer as if no dimension were nested. The store,
right after its migrations on open, calls ``reindex_queued``: each queued table's index
is rebuilt in its own write transaction, which also takes it off the queue and moves
``tables_version`` (so every process drops what it read of the tables). A crash mid-way
leaves the tables not yet done queued for the next open; another process opening the
same data directory meanwhile finds them done and skips them. Tables loaded after the
migration are never queued. ``queued_schema`` and ``rebuilt`` are shared with the
PostgreSQL store's twin (``storage.postgres.table_index``).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
from dataclasses import replace
from pathlib import Path

from ragcore.errors import InvalidInputError
from ragcore.storage import damage
from ragcore.storage.table_values import (
    dimension_columns,
    nesting,
    nesting_pairs,
    nesting_sql,
    value_rows,
)
from ragcore.tabular import TableSchema, parse_schema

log = logging.getLogger(__name__)

QUEUE = "SELECT table_name FROM table_reindex ORDER BY table_name"
QUEUED = (
    "SELECT r.schema, r.row_count FROM table_reindex q "
    "LEFT JOIN table_registry r ON r.name = q.table_name WHERE q.table_name = ?"
)
"""A queued table's schema text and rows (NULLs: queued but no longer registered); no
row when it is no longer queued."""
VERSION = (
    "INSERT INTO meta (key, value) VALUES ('tables_version', '1') "
    "ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
)
"""Moves the counter other processes watch (``Tables.version``)."""


def index_values(conn: sqlite3.Connection, schema: TableSchema) -> None:
    """The table's distinct dimension values into the value index (``table_values``),
    and its nested dimensions (``table_nesting``), replacing what an earlier load of
    that name put there; the table is then off the rebuild queue (``table_reindex``)."""
    for table in ("table_values", "table_value_shapes", "table_nesting", "table_reindex"):
        conn.execute(f"DELETE FROM {table} WHERE table_name = ?", (schema.name,))
    distinct = {
        column: [r[0] for r in conn.execute(f'SELECT DISTINCT "{column}" FROM "{schema.sql_name}"')]
        for column in dimension_columns(schema)
    }
    rows = value_rows(schema, distinct)
    conn.executemany("INSERT INTO table_values VALUES (?, ?, ?, ?, ?)", rows.values)
    conn.executemany("INSERT INTO table_value_shapes VALUES (?, ?, ?, ?, ?)", rows.shapes)
    counts = {column: len(values) for column, values in distinct.items()}
    pairs = {
        pair: conn.execute(nesting_sql(schema, *pair)).fetchall()
        for pair in nesting_pairs(schema, counts)
    }
    conn.executemany("INSERT INTO table_nesting VALUES (?, ?, ?)", nesting(schema, pairs))


def reindex_queued(conn: sqlite3.Connection, path: Path) -> None:
    """Rebuild the value index of every queued table, one write transaction each, on
    the store's writer ``conn`` (outside any transaction); ``path`` names the database
    in messages. StoreError if one cannot be rebuilt (it stays queued)."""
    try:
        names = [r[0] for r in conn.execute(QUEUE).fetchall()]
    except sqlite3.Error as exc:
        raise damage.translate(exc, path, "reading the queue of tables to reindex") from exc
    for name in names:
        started = time.monotonic()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                found = conn.execute(QUEUED, (name,)).fetchone()
                schema = None if found is None else queued_schema(name, found[0])
                if found is not None and found[0] is None:  # no longer registered
                    conn.execute("DELETE FROM table_reindex WHERE table_name = ?", (name,))
                if schema is not None:
                    index_values(conn, schema)
                    conn.execute(VERSION)
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:  # damage, a lock held too long, a full disk: said so
            doing = f"rebuilding the value index of table {name!r} (loaded before migration 0008)"
            raise damage.translate(exc, path, doing) from exc
        if schema is not None:
            rebuilt(name, found[1], started)


def queued_schema(name: str, text: str | None) -> TableSchema | None:
    """The schema of a queued table from its registry text; None when it is no longer
    registered, or (with a warning: it stays queued) when its schema no longer parses."""
    if text is None:
        return None
    try:
        parsed = parse_schema(text, f"table {name!r}", default_name=name)
    except InvalidInputError as exc:
        log.warning("cannot rebuild the value index of table %r: %s; load it again", name, exc)
        return None
    return replace(parsed, name=name)


def rebuilt(name: str, rows: int, started: float) -> None:
    """The one log line of a rebuilt table."""
    took = (time.monotonic() - started) * 1000
    log.info(
        "rebuilt the value index of table %r loaded before it: %d rows, %.0f ms", name, rows, took
    )
