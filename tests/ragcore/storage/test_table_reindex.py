"""Tables loaded before the value index was whole get it rebuilt once, when the store
opens after the upgrade (SQLite migration 0008, PostgreSQL 0010, ``storage.table_index``):
a nested dimension is found again and a question grouping by it reads it within its
parent, with no reload; a table loaded after the upgrade is never queued; a rebuild that
fails mid-way loses nothing and is finished by the next open. On both stores.

"Loaded before the migration" is made honestly: a table is loaded, then the database is
put back as the older ragcore left it (no nesting rows, no value index, no queue, the
migration not applied), and the store's own migration runner applies the new migration
on the next open.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import psycopg
import pytest

from ragcore.agents.perception.data_question import DataQuestion, recognise
from ragcore.agents.planning.tables import TableCatalog
from ragcore.errors import StoreError
from ragcore.retrieval.tables import PostgresTableReader, TableReader
from ragcore.storage.postgres import PostgresStore
from ragcore.storage.store import Store

TODAY = date(2026, 12, 2)
SCHEMA = """
description = "alarms per line"
[columns]
site = "text"
line = "text"
alarms = "integer"
[dimensions.site]
synonyms = ["plant"]
[dimensions.line]
synonyms = ["production line", "plant area"]
[measures.alarms]
unit = "alarms"
"""
# "Utilities" is a line at every site; the other lines are at one site each. Per line
# alone, Line 1 has the fewest alarms (5; the three Utilities sum to 11); per line within
# its site, the Utilities of Hillcrest and of Oakbank do (1 each).
ROWS = [
    ("Riverside", "Line 1", 3),
    ("Riverside", "Line 1", 2),
    ("Riverside", "Utilities", 9),
    ("Hillcrest", "Utilities", 1),
    ("Hillcrest", "Line 2", 4),
    ("Hillcrest", "Line 2", 4),
    ("Oakbank", "Line 3", 6),
    ("Oakbank", "Line 3", 6),
    ("Oakbank", "Utilities", 1),
]
QUESTION = "Which production line had the fewest alarms?"


@dataclass
class Side:
    """One backend: how to open its store and table reader, and raw SQL on its database
    (outside any ragcore store: as the older ragcore or a person would)."""

    name: str
    open: Callable[[], tuple[Store | PostgresStore, TableReader | PostgresTableReader]]
    sql: Callable[[str], list[tuple]]
    migration: int
    """The migration that queues the tables (SQLite 0008, PostgreSQL 0010)."""


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.process)])
def side(request, tmp_path) -> Iterator[Side]:
    if request.param == "sqlite":
        data = tmp_path / "data"

        def open_sqlite() -> tuple[Store, TableReader]:
            store = Store(data)
            store.reader()  # opens the database, as the first read of an engine does
            return store, TableReader(store)

        def sqlite_sql(statement: str) -> list[tuple]:
            conn = sqlite3.connect(data / "ragcore.sqlite3", isolation_level=None)
            try:
                return conn.execute(statement).fetchall()
            finally:
                conn.close()

        yield Side("sqlite", open_sqlite, sqlite_sql, 8)
        return
    url = request.getfixturevalue("postgres_url")

    def open_postgres() -> tuple[PostgresStore, PostgresTableReader]:
        store = PostgresStore(url, dimension=4)
        return store, PostgresTableReader(store)

    def postgres_sql(statement: str) -> list[tuple]:
        with psycopg.connect(url, autocommit=True) as conn:
            cur = conn.execute(statement.encode())
            return cur.fetchall() if cur.description else []

    yield Side("postgres", open_postgres, postgres_sql, 10)


def _load(side: Side, folder: Path, name: str) -> None:
    """Load the alarms table as ``name`` and close the store."""
    data, schema = folder / f"{name}.csv", folder / f"{name}.toml"
    data.write_text("site,line,alarms\n" + "".join(f"{s},{li},{n}\n" for s, li, n in ROWS))
    schema.write_text(SCHEMA, "utf-8")
    store, reader = side.open()
    try:
        reader.tables.ingest(data, table=name, schema=schema)
    finally:
        reader.close()
        store.close()


def _as_before_the_migration(side: Side) -> None:
    """The database as the older ragcore left it: tables loaded with no nesting rows
    (nor, before the value index, its values), the queue and its migration not there."""
    for table in ("table_nesting", "table_values", "table_value_shapes"):
        side.sql(f"DELETE FROM {table}")
    side.sql("DROP TABLE table_reindex")
    side.sql(f"DELETE FROM schema_migrations WHERE version = {side.migration}")


def _fewest_alarms(reader: TableReader | PostgresTableReader) -> tuple[tuple, list[tuple]]:
    """The grouping of QUESTION as read, and the rows of its answer."""
    catalog = TableCatalog(reader)
    found = recognise(
        QUESTION,
        catalog.schemas,
        today=TODAY,
        time=None,
        values=catalog.values_for(QUESTION),
        known=catalog.known,
    )
    assert isinstance(found, DataQuestion), found
    return found.query.group_by, [tuple(r) for r in reader.run(found.query).rows]


def test_a_table_loaded_before_the_migration_is_reindexed_when_the_store_opens(
    side, tmp_path, caplog
):
    _load(side, tmp_path, "alarms")
    _as_before_the_migration(side)
    version = int(side.sql("SELECT value FROM meta WHERE key = 'tables_version'")[0][0])
    with caplog.at_level(logging.INFO, logger="ragcore.storage"):
        store, reader = side.open()
    try:
        assert side.sql("SELECT table_name FROM table_reindex") == []
        assert reader.tables.value_index().nesting() == [("alarms", "line", "site")]
        assert reader.tables.value_index().column_values("alarms", "site") == [
            ("site", "Hillcrest"),
            ("site", "Oakbank"),
            ("site", "Riverside"),
        ]
        assert reader.tables.version() == version + 1  # other processes re-read the tables
        group_by, rows = _fewest_alarms(reader)
        assert group_by == ("site", "line")
        assert rows == [("Hillcrest", "Utilities", 1), ("Oakbank", "Utilities", 1)]
    finally:
        reader.close()
        store.close()
    logged = [r.getMessage() for r in caplog.records if "rebuilt the value index" in r.message]
    assert len(logged) == 1 and "'alarms'" in logged[0] and "9 rows" in logged[0], logged
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="ragcore.storage"):
        store, reader = side.open()  # once: the next open has nothing to do
    reader.close()
    store.close()
    assert not [r for r in caplog.records if "rebuilt the value index" in r.message]


def test_without_the_rebuild_the_same_question_is_read_as_if_no_line_were_nested(side, tmp_path):
    """What an upgraded store answered before this change (and why it matters): the
    question reads lines alone, and the Utilities of three sites sum to a line."""
    _load(side, tmp_path, "alarms")
    side.sql("DELETE FROM table_nesting")  # the state 0007/0009 left a loaded table in
    store, reader = side.open()
    try:
        group_by, rows = _fewest_alarms(reader)
    finally:
        reader.close()
        store.close()
    assert group_by == ("line",)
    assert rows == [("Line 1", 5)]


def test_a_table_loaded_after_the_migration_is_never_queued(side, tmp_path):
    _load(side, tmp_path, "alarms")
    assert side.sql("SELECT table_name FROM table_reindex") == []
    assert side.sql("SELECT table_name, column_name, within FROM table_nesting") == [
        ("alarms", "line", "site")
    ]


def test_a_load_takes_its_table_off_the_queue(side, tmp_path):
    """A table queued while the store is open (by another process's older state) is
    rebuilt by its next load, and not again."""
    _load(side, tmp_path, "alarms")
    store, reader = side.open()
    try:
        side.sql("INSERT INTO table_reindex (table_name) VALUES ('alarms')")
        reader.tables.ingest(
            tmp_path / "alarms.csv", table="alarms", schema=tmp_path / "alarms.toml", replace=True
        )
        assert side.sql("SELECT table_name FROM table_reindex") == []
    finally:
        reader.close()
        store.close()


def test_a_rebuild_that_fails_midway_keeps_what_is_done_and_the_next_open_finishes(side, tmp_path):
    for name in ("alarms", "spare"):
        _load(side, tmp_path, name)
    _as_before_the_migration(side)
    side.sql("ALTER TABLE data_spare RENAME TO data_spare_away")  # its rebuild fails
    with pytest.raises(StoreError, match="data_spare"):
        side.open()
    # The queue goes by name: alarms was rebuilt and taken off it, spare was not.
    assert side.sql("SELECT table_name FROM table_reindex") == [("spare",)]
    assert side.sql("SELECT table_name FROM table_nesting ORDER BY table_name") == [("alarms",)]
    side.sql("ALTER TABLE data_spare_away RENAME TO data_spare")
    store, reader = side.open()
    try:
        assert side.sql("SELECT table_name FROM table_reindex") == []
        assert reader.tables.value_index().nesting() == [
            ("alarms", "line", "site"),
            ("spare", "line", "site"),
        ]
    finally:
        reader.close()
        store.close()
