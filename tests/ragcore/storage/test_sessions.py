"""Sessions in the store's real database, over both stores (SQLite, and PostgreSQL on the
session's throw-away server, a fresh database per test): turns kept and bounded, expiry,
scope, bad ids, restarts, and writers sharing one database."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import psycopg
import pytest

from ragcore.errors import InvalidQueryError, ScopeError
from ragcore.scope import Scope
from ragcore.storage.postgres import PostgresStore
from ragcore.storage.protocol import DocumentStore
from ragcore.storage.sessions import MAX_SESSION_ID_CHARS, Sessions, check_id
from ragcore.storage.sql import sql_store
from ragcore.storage.store import DATABASE_NAME, Store

MANUALS = Scope(frozenset({"manuals"}))
DIMENSION = 8


class Clock:
    """Seconds since the epoch, moved by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Backend:
    name: str
    where: str
    """The data directory or the database URL."""
    open: Callable[[], DocumentStore]
    """A new store on the same database (another process, or another server)."""
    query: Callable[[str], list[tuple[Any, ...]]]
    """Rows of a statement run on a connection of its own, past the store."""


def sqlite_rows(path: str, sql: str) -> list[tuple[Any, ...]]:
    db = sqlite3.connect(path)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def postgres_rows(url: str, sql: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as db:
        return db.execute(sql.encode()).fetchall()


# The postgres side starts a server (once per session): "process", out of make test-fast.
@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.process)])
def backend(request, tmp_path) -> Backend:
    if request.param == "sqlite":
        path = tmp_path / "data"
        return Backend(
            "sqlite",
            str(path),
            lambda: Store(path),
            lambda sql: sqlite_rows(str(path / DATABASE_NAME), sql),
        )
    url = request.getfixturevalue("postgres_url")
    return Backend(
        "postgres",
        url,
        lambda: PostgresStore(url, dimension=DIMENSION),
        lambda sql: postgres_rows(url, sql),
    )


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(backend) -> Iterator[DocumentStore]:
    store = backend.open()
    yield store
    store.close()


@pytest.fixture
def sessions(store, clock):
    return Sessions(sql_store(store), max_turns=3, idle_seconds=600, clock=clock)


def ask(sessions: Sessions, session_id: str, question: str, scope: Scope = MANUALS):
    return sessions.add_turn(
        session_id,
        scope,
        question=question,
        rewritten=question + " (rewritten)",
        perception={"action": "lookup", "entities": ["E4027"]},
        documents=["manual-hp400-v2"],
        status="ok",
    )


def test_turns_are_kept_in_order_with_what_came_of_them(sessions):
    assert sessions.open("conv-1", MANUALS).turns == ()
    ask(sessions, "conv-1", "What does E4027 mean?")
    ask(sessions, "conv-1", "How do I clear it?")
    turns = sessions.open("conv-1", MANUALS).turns
    assert [(t.number, t.question, t.rewritten) for t in turns] == [
        (1, "What does E4027 mean?", "What does E4027 mean? (rewritten)"),
        (2, "How do I clear it?", "How do I clear it? (rewritten)"),
    ]
    assert json.loads(turns[0].perception) == {"action": "lookup", "entities": ["E4027"]}
    assert (turns[0].documents, turns[0].status) == (("manual-hp400-v2",), "ok")


def test_sessions_survive_a_restart(backend, clock):
    first = backend.open()
    ask(Sessions(sql_store(first), max_turns=3, idle_seconds=600, clock=clock), "conv-1", "Q1")
    first.close()
    again = backend.open()
    try:
        reopened = Sessions(sql_store(again), max_turns=3, idle_seconds=600, clock=clock)
        assert [t.question for t in reopened.open("conv-1", MANUALS).turns] == ["Q1"]
    finally:
        again.close()


@pytest.mark.process
def test_a_committed_turn_survives_a_killed_process(backend):
    code = (
        "import os, sys\n"
        "from ragcore.scope import Scope\n"
        "from ragcore.storage.postgres import PostgresStore\n"
        "from ragcore.storage.sessions import Sessions\n"
        "from ragcore.storage.sql import sql_store\n"
        "from ragcore.storage.store import Store\n"
        "where = sys.argv[1]\n"
        f"store = PostgresStore(where, dimension={DIMENSION}) if '://' in where else Store(where)\n"
        "s = Sessions(sql_store(store), max_turns=5, idle_seconds=600)\n"
        "s.add_turn('conv-9', Scope.ALL, question='Q', rewritten='Q', perception={},"
        " documents=[], status='ok')\n"
        "os._exit(0)  # no close, no checkpoint\n"
    )
    subprocess.run([sys.executable, "-c", code, backend.where], check=True, timeout=60)
    store = backend.open()
    try:
        session = Sessions(sql_store(store), max_turns=5, idle_seconds=600).get("conv-9", Scope.ALL)
        assert session is not None and [t.question for t in session.turns] == ["Q"]
    finally:
        store.close()


def test_only_the_last_turns_are_kept(sessions):
    for n in range(1, 6):
        ask(sessions, "conv-1", f"Q{n}")
    assert [t.number for t in sessions.open("conv-1", MANUALS).turns] == [3, 4, 5]


def test_an_idle_session_expires_with_its_turns(sessions, clock, backend):
    ask(sessions, "old", "Q1")
    clock.now += 300
    ask(sessions, "fresh", "Q1")
    clock.now += 301  # "old" idle for 601 s, "fresh" for 301 s
    assert sessions.get("old", MANUALS) is None
    assert sessions.expire() == 1
    assert backend.query("SELECT count(*) FROM session_turns WHERE session_id = 'old'") == [(0,)]
    assert backend.query("SELECT id FROM sessions") == [("fresh",)]
    # The expired id starts again, empty.
    assert sessions.open("old", MANUALS).turns == ()


def test_expired_turns_are_deleted_from_the_database(sessions, clock, backend):
    ask(sessions, "old", "Q1")
    clock.now += 601
    assert sessions.expire() == 1
    assert backend.query("SELECT count(*) FROM session_turns") == [(0,)]


def test_a_session_ends(sessions):
    ask(sessions, "conv-1", "Q1")
    assert sessions.end("conv-1", MANUALS) is True
    assert sessions.get("conv-1", MANUALS) is None
    assert sessions.end("conv-1", MANUALS) is False


@pytest.mark.parametrize("other", [Scope(frozenset({"faq"})), Scope.ALL])
def test_another_scope_cannot_use_a_session(sessions, other):
    ask(sessions, "conv-1", "Q1")
    for use in (
        lambda: sessions.open("conv-1", other),
        lambda: sessions.get("conv-1", other),
        lambda: ask(sessions, "conv-1", "Q2", other),
        lambda: sessions.end("conv-1", other),
    ):
        with pytest.raises(ScopeError, match="'conv-1' is not available to this caller"):
            use()
    assert [t.question for t in sessions.open("conv-1", MANUALS).turns] == ["Q1"]


@pytest.mark.parametrize(
    "bad", ["", " conv", "-conv", "conv 1", "conv/1", "ünï", "x" * (MAX_SESSION_ID_CHARS + 1), 7]
)
def test_a_bad_session_id_is_refused_and_nothing_changes(sessions, backend, bad):
    ask(sessions, "conv-1", "Q1")
    with pytest.raises(InvalidQueryError, match="session id"):
        ask(sessions, bad, "Q2")
    with pytest.raises(InvalidQueryError, match="session id"):
        sessions.open(bad, MANUALS)
    assert backend.query("SELECT count(*) FROM session_turns") == [(1,)]


def test_new_ids_are_usable_and_distinct():
    ids = {Sessions.new_id() for _ in range(200)}
    assert len(ids) == 200
    assert all(check_id(i) == i for i in ids)


def test_turns_do_not_move_the_data_version(sessions, store):
    before = store.data_version()
    ask(sessions, "conv-1", "Q1")
    sessions.end("conv-1", MANUALS)
    assert store.data_version() == before


@pytest.mark.process
def test_concurrent_sessions_do_not_mix(sessions):
    def converse(name: str) -> None:
        for n in range(3):
            ask(sessions, name, f"{name} Q{n}")

    threads = [threading.Thread(target=converse, args=(f"conv-{i}",)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(8):
        turns = sessions.open(f"conv-{i}", MANUALS).turns
        assert [t.question for t in turns] == [f"conv-{i} Q{n}" for n in range(3)]


@pytest.mark.process
def test_two_stores_on_one_database_share_a_session_and_take_turns(backend, store, clock):
    """Two stores on one database (two servers): each sees the other's turns, and turns
    recorded at once through both get distinct numbers, none lost."""
    other = backend.open()
    try:
        through_other = Sessions(sql_store(other), max_turns=50, idle_seconds=600, clock=clock)
        through_one = Sessions(sql_store(store), max_turns=50, idle_seconds=600, clock=clock)
        ask(through_one, "shared", "Q-a")
        assert [t.question for t in through_other.open("shared", MANUALS).turns] == ["Q-a"]

        def converse(via: Sessions, name: str) -> None:
            for n in range(10):
                ask(via, "shared", f"{name}{n}")

        threads = [
            threading.Thread(target=converse, args=(via, name))
            for via, name in ((through_one, "a"), (through_other, "b"), (through_one, "c"))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        turns = through_other.open("shared", MANUALS).turns
        assert [t.number for t in turns] == list(range(1, 32))
        assert sorted(t.question for t in turns[1:]) == sorted(
            f"{name}{n}" for name in "abc" for n in range(10)
        )
    finally:
        other.close()
