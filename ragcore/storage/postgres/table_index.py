"""A table's value index on the PostgreSQL store, as the SQLite store's
(``storage.table_index``): written by each load, and rebuilt once, when the store
opens, for the tables migration 0010 queued (loaded before the index was whole).

Each queued table is rebuilt in its own transaction, which first locks the
``tables_version`` row (loads from every server take turns on it, and so does this),
then takes the table off the queue, rebuilds its ``table_values``,
``table_value_shapes`` and ``table_nesting`` rows and moves the version. A crash
mid-way leaves the rest queued for the next open; a server opening the same database
meanwhile waits on the lock, then finds them done.
"""

from __future__ import annotations

import time

import psycopg
from psycopg import sql as pgsql

from ragcore.storage.table_index import QUEUE, QUEUED, queued_schema, rebuilt
from ragcore.storage.table_values import (
    dimension_columns,
    nesting,
    nesting_pairs,
    nesting_sql,
    value_rows,
)
from ragcore.tabular import TableSchema


def index_values(cur: psycopg.Cursor, schema: TableSchema) -> None:
    """The table's distinct dimension values into the value index (``table_values``)
    and its nested dimensions (``table_nesting``), replacing what an earlier load of
    that name put there (COPY: a big table has many values); the table is then off the
    rebuild queue (``table_reindex``)."""
    for table in ("table_values", "table_value_shapes", "table_nesting", "table_reindex"):
        cur.execute(
            pgsql.SQL("DELETE FROM {} WHERE table_name = %s").format(pgsql.Identifier(table)),
            (schema.name,),
        )
    distinct = {}
    for column in dimension_columns(schema):
        cur.execute(
            pgsql.SQL("SELECT DISTINCT {} FROM {}").format(
                pgsql.Identifier(column), pgsql.Identifier(schema.sql_name)
            )
        )
        distinct[column] = [r[0] for r in cur.fetchall()]
    rows = value_rows(schema, distinct)
    for table, batch in (("table_values", rows.values), ("table_value_shapes", rows.shapes)):
        copy = pgsql.SQL("COPY {} FROM STDIN").format(pgsql.Identifier(table))
        with cur.copy(copy) as stream:
            for row in batch:
                stream.write_row(row)
    counts = {column: len(values) for column, values in distinct.items()}
    pairs = {}
    for pair in nesting_pairs(schema, counts):
        cur.execute(nesting_sql(schema, *pair).encode())
        pairs[pair] = cur.fetchall()
    cur.executemany("INSERT INTO table_nesting VALUES (%s, %s, %s)", nesting(schema, pairs))


def reindex_queued(conn: psycopg.Connection) -> None:
    """Rebuild the value index of every queued table, one transaction each, on the
    autocommit connection ``conn`` (the caller translates psycopg errors)."""
    names = [r[0] for r in conn.execute(QUEUE.encode()).fetchall()]
    for name in names:
        started = time.monotonic()
        with conn.transaction(), conn.cursor() as cur:
            cur.execute("SELECT value FROM meta WHERE key = 'tables_version' FOR UPDATE")
            cur.execute(QUEUED.replace("?", "%s").encode(), (name,))
            found = cur.fetchone()
            schema = None if found is None else queued_schema(name, found[0])
            if found is not None and found[0] is None:  # no longer registered
                cur.execute("DELETE FROM table_reindex WHERE table_name = %s", (name,))
            if schema is not None:
                index_values(cur, schema)
                cur.execute(
                    "UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'tables_version'"
                )
        if found is not None and schema is not None:
            rebuilt(name, found[1], started)
