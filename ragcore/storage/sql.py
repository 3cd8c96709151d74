"""What a module that keeps its own tables (``storage.sessions``) needs of a store.

Such a module writes its SQL once, portable between SQLite and PostgreSQL, with ``?``
placeholders, and runs it through an ``SqlStore``: ``writing`` gives one transaction,
``reading`` a connection for reads, and both turn the driver's errors into the store's
``StoreError``s. ``sql_store`` gives the one for either store: ``SqliteSql`` here, and
``storage.postgres.sql.PostgresSql`` (which turns ``?`` into psycopg's ``%s``).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ragcore.storage.store import Store

if TYPE_CHECKING:
    from ragcore.storage.protocol import DocumentStore


class Rows(Protocol):
    """A cursor after ``execute``: its rows, or how many rows a write touched."""

    @property
    def rowcount(self) -> int: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


class SqlConnection(Protocol):
    """Runs one statement with ``?`` placeholders (none inside string literals)."""

    def execute(self, sql: str, params: Sequence[Any] = (), /) -> Rows: ...


class SqlStore(Protocol):
    """Transactions and reads on a store's database, driver errors already translated."""

    def writing(self, doing: str) -> contextlib.AbstractContextManager[SqlConnection]:
        """One transaction (committed at the end, rolled back on any error); writers take
        turns, as SQLite's one writer does. ``doing`` names it in a ``StoreError``."""
        ...

    def reading(self, doing: str) -> contextlib.AbstractContextManager[SqlConnection]:
        """A connection for reads outside a write."""
        ...


class SqliteSql:
    """The SQLite store's writer transaction and this thread's reader."""

    def __init__(self, store: Store) -> None:
        self._store = store

    @contextlib.contextmanager
    def writing(self, doing: str) -> Iterator[SqlConnection]:
        try:
            with self._store.transaction() as conn:
                yield conn
        except sqlite3.Error as exc:
            raise self._store.translate(exc, doing) from exc

    @contextlib.contextmanager
    def reading(self, doing: str) -> Iterator[SqlConnection]:
        try:
            yield self._store.reader()
        except sqlite3.Error as exc:
            raise self._store.translate(exc, doing) from exc


def sql_store(store: DocumentStore) -> SqlStore:
    """The ``SqlStore`` of either store (psycopg is imported only for PostgreSQL)."""
    if isinstance(store, Store):
        return SqliteSql(store)
    from ragcore.storage.postgres import PostgresStore
    from ragcore.storage.postgres.sql import PostgresSql

    if isinstance(store, PostgresStore):
        return PostgresSql(store)
    raise TypeError(f"no SQL tables on a {type(store).__name__}: give a Store or PostgresStore")
