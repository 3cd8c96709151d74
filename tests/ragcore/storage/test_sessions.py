"""Sessions in the store's real SQLite: turns kept and bounded, expiry, scope, bad ids."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading

import pytest

from ragcore.errors import InvalidQueryError, ScopeError
from ragcore.scope import Scope
from ragcore.storage.sessions import MAX_SESSION_ID_CHARS, Sessions, check_id
from ragcore.storage.store import Store

MANUALS = Scope(frozenset({"manuals"}))


class Clock:
    """Seconds since the epoch, moved by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path)
    yield store
    store.close()


@pytest.fixture
def sessions(store, clock):
    return Sessions(store, max_turns=3, idle_seconds=600, clock=clock)


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


def test_sessions_survive_a_restart(tmp_path, clock):
    first = Store(tmp_path)
    ask(Sessions(first, max_turns=3, idle_seconds=600, clock=clock), "conv-1", "Q1")
    first.close()
    again = Store(tmp_path)
    try:
        turns = Sessions(again, max_turns=3, idle_seconds=600, clock=clock).open("conv-1", MANUALS)
        assert [t.question for t in turns.turns] == ["Q1"]
    finally:
        again.close()


@pytest.mark.process
def test_a_committed_turn_survives_a_killed_process(tmp_path):
    code = (
        "import os, sys\n"
        "from ragcore.scope import Scope\n"
        "from ragcore.storage.store import Store\n"
        "from ragcore.storage.sessions import Sessions\n"
        "s = Sessions(Store(sys.argv[1]), max_turns=5, idle_seconds=600)\n"
        "s.add_turn('conv-9', Scope.ALL, question='Q', rewritten='Q', perception={},"
        " documents=[], status='ok')\n"
        "os._exit(0)  # no close, no checkpoint\n"
    )
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True, timeout=60)
    store = Store(tmp_path)
    try:
        session = Sessions(store, max_turns=5, idle_seconds=600).get("conv-9", Scope.ALL)
        assert session is not None and [t.question for t in session.turns] == ["Q"]
    finally:
        store.close()


def test_only_the_last_turns_are_kept(sessions):
    for n in range(1, 6):
        ask(sessions, "conv-1", f"Q{n}")
    assert [t.number for t in sessions.open("conv-1", MANUALS).turns] == [3, 4, 5]


def test_an_idle_session_expires_with_its_turns(sessions, clock, store):
    ask(sessions, "old", "Q1")
    clock.now += 300
    ask(sessions, "fresh", "Q1")
    clock.now += 301  # "old" idle for 601 s, "fresh" for 301 s
    assert sessions.get("old", MANUALS) is None
    assert sessions.expire() == 1
    with sqlite3.connect(store.path) as db:
        turns = db.execute("SELECT count(*) FROM session_turns WHERE session_id = 'old'")
        assert turns.fetchone() == (0,)
        assert db.execute("SELECT id FROM sessions").fetchall() == [("fresh",)]
    # The expired id starts again, empty.
    assert sessions.open("old", MANUALS).turns == ()


def test_expired_turns_are_deleted_from_the_database(sessions, clock, store):
    ask(sessions, "old", "Q1")
    clock.now += 601
    sessions.expire()
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT count(*) FROM session_turns").fetchone() == (0,)


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
def test_a_bad_session_id_is_refused_and_nothing_changes(sessions, store, bad):
    ask(sessions, "conv-1", "Q1")
    with pytest.raises(InvalidQueryError, match="session id"):
        ask(sessions, bad, "Q2")
    with pytest.raises(InvalidQueryError, match="session id"):
        sessions.open(bad, MANUALS)
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT count(*) FROM session_turns").fetchone() == (1,)


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
