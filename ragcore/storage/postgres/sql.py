"""``storage.sql.SqlStore`` on PostgreSQL: the portable SQL of modules that keep their own
tables (``storage.sessions``) run through psycopg.

Their SQL is written with SQLite's ``?`` placeholders; here each becomes ``%s`` (and a
literal ``%`` becomes ``%%``). Writes take a transaction-level advisory lock first, so
writers from every server take turns as SQLite's one writer does: a read-then-insert
(a session's next turn number) cannot race another server's.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import psycopg

from ragcore.storage.postgres.store import PostgresStore
from ragcore.storage.sql import Rows, SqlConnection

_LOCK = 0x7261_6773  # "rags": the advisory lock key of own-table writers


class _Connection:
    """A psycopg connection taking ``?`` placeholders."""

    def __init__(self, conn: psycopg.Connection) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = (), /) -> Rows:
        return self._conn.execute(placeholders(sql).encode(), params)


class PostgresSql:
    """Transactions and reads on a PostgresStore's pool, psycopg errors translated."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    @contextlib.contextmanager
    def writing(self, doing: str) -> Iterator[SqlConnection]:
        try:
            with self._store.transaction() as conn:
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
                yield _Connection(conn)
        except psycopg.Error as exc:
            raise self._store.translate(exc, doing) from exc

    @contextlib.contextmanager
    def reading(self, doing: str) -> Iterator[SqlConnection]:
        try:
            with self._store.connection() as conn:
                yield _Connection(conn)
        except psycopg.Error as exc:
            raise self._store.translate(exc, doing) from exc


def placeholders(sql: str) -> str:
    """``sql`` with psycopg's ``%s`` for each ``?`` (none may stand in a literal)."""
    return sql.replace("%", "%%").replace("?", "%s")
