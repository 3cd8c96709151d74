"""Conversations: sessions and their turns, kept in the store's database (migration 0003
of SQLite and of PostgreSQL), through one set of SQL (``storage.sql.SqlStore``).

A session is a conversation of one caller: its turns (question, rewritten question, a
JSON summary of the perception, cited document ids, answer status, time), at most
``max_turns`` of them (the oldest go first), deleted with its turns once idle for
``idle_seconds``. Writes are transactions of the store, so a turn is committed with the
same guarantees as a document (SQLite's WAL and synchronous=FULL, or PostgreSQL's), and
survives a restart; on PostgreSQL every engine on the database shares the sessions.

Ids are opaque strings: made by ``new_id`` (the server) or chosen by the caller (1 to 128
letters, digits, ``_ - . :``, starting with a letter or digit; anything else is an
``InvalidQueryError``). An unknown or expired id starts a new, empty session under that
id. A session belongs to the scope it was opened with: a caller of any other scope is
refused with a ``ScopeError`` that says no more than that the id is not available.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from ragcore.errors import ConfigError, InvalidQueryError, ScopeError, quoted
from ragcore.scope import Scope
from ragcore.storage.sql import SqlConnection, SqlStore

MAX_SESSION_ID_CHARS = 128
_SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]*")


@dataclass(frozen=True)
class Turn:
    """One question of a conversation and what came of it."""

    number: int
    """1, 2, ... within the session, never reused (dropped turns leave a gap)."""
    question: str
    rewritten: str
    """The question as searched: the question itself unless it was a follow-up."""
    perception: str
    """A JSON object summarising the perception of ``rewritten``."""
    documents: tuple[str, ...]
    """The cited documents' ids."""
    status: str
    asked_at: datetime


@dataclass(frozen=True)
class Session:
    id: str
    scope: Scope
    created_at: datetime
    last_used: datetime
    turns: tuple[Turn, ...]
    """Oldest first, at most the configured number."""


class Sessions:
    """The sessions of one store (``sql_store(store)``); thread-safe (every write is one
    transaction).

    ``clock`` gives seconds since the epoch (injected so that tests expire sessions
    without sleeping).
    """

    def __init__(
        self,
        store: SqlStore,
        *,
        max_turns: int,
        idle_seconds: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
            raise ConfigError("session_max_turns", max_turns, "use a whole number of 1 or more")
        if not idle_seconds > 0:
            raise ConfigError("session_idle_seconds", idle_seconds, "use a number of seconds > 0")
        self._store = store
        self.max_turns = max_turns
        self.idle_seconds = float(idle_seconds)
        self._clock = clock

    @staticmethod
    def new_id() -> str:
        """A fresh random id (128 bits, URL-safe)."""
        return secrets.token_urlsafe(16).lstrip("-_") or secrets.token_hex(16)

    def open(self, session_id: str, scope: Scope) -> Session:
        """The live session ``session_id`` of ``scope``; a new, empty one if there is none
        (or it expired). ScopeError if it belongs to another scope."""
        session_id = check_id(session_id)
        now = self._clock()
        with self._store.writing("opening a session") as conn:
            self._expire(conn, now)
            row = conn.execute(
                "SELECT scope, created_at FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
            if row is None:
                conn.execute(
                    "INSERT INTO sessions (id, scope, created_at, last_used) VALUES (?, ?, ?, ?)",
                    (session_id, _scope_text(scope), now, now),
                )
                return Session(session_id, scope, _stamp(now), _stamp(now), ())
            _check_scope(session_id, row[0], scope)
            conn.execute("UPDATE sessions SET last_used = ? WHERE id = ?", (now, session_id))
            turns = _turns(conn, session_id)
        return Session(session_id, scope, _stamp(row[1]), _stamp(now), turns)

    def get(self, session_id: str, scope: Scope) -> Session | None:
        """The live session ``session_id`` of ``scope`` without touching it, or None.
        ScopeError if it belongs to another scope."""
        session_id = check_id(session_id)
        with self._store.reading("reading a session") as conn:
            row = conn.execute(
                "SELECT scope, created_at, last_used FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
            if row is None or row[2] < self._clock() - self.idle_seconds:
                return None
            _check_scope(session_id, row[0], scope)
            turns = _turns(conn, session_id)
        return Session(session_id, scope, _stamp(row[1]), _stamp(row[2]), turns)

    def add_turn(
        self,
        session_id: str,
        scope: Scope,
        *,
        question: str,
        rewritten: str,
        perception: Mapping[str, object],
        documents: Sequence[str],
        status: str,
    ) -> Turn:
        """Append a turn to the session (opened first if need be) and drop the oldest
        beyond ``max_turns``; all in one transaction."""
        session_id = check_id(session_id)
        now = self._clock()
        summary = json.dumps(dict(perception), ensure_ascii=False, sort_keys=True, default=str)
        with self._store.writing("recording a turn") as conn:
            self._expire(conn, now)
            row = conn.execute("SELECT scope FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if row is None:
                conn.execute(
                    "INSERT INTO sessions (id, scope, created_at, last_used) VALUES (?, ?, ?, ?)",
                    (session_id, _scope_text(scope), now, now),
                )
            else:
                _check_scope(session_id, row[0], scope)
            number = (
                1
                + conn.execute(
                    "SELECT coalesce(max(number), 0) FROM session_turns WHERE session_id = ?",
                    (session_id,),
                ).fetchone()[0]
            )
            conn.execute(
                "INSERT INTO session_turns (session_id, number, question, rewritten, "
                "perception, documents, status, asked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    session_id,
                    number,
                    question,
                    rewritten,
                    summary,
                    json.dumps(list(documents)),
                    str(status),
                    now,
                ),
            )
            conn.execute(
                "DELETE FROM session_turns WHERE session_id = ? AND number <= ?",
                (session_id, number - self.max_turns),
            )
            conn.execute("UPDATE sessions SET last_used = ? WHERE id = ?", (now, session_id))
        return Turn(
            number, question, rewritten, summary, tuple(documents), str(status), _stamp(now)
        )

    def end(self, session_id: str, scope: Scope) -> bool:
        """Delete the session and its turns; False if there was none (live).
        ScopeError if it belongs to another scope."""
        session_id = check_id(session_id)
        with self._store.writing("ending a session") as conn:
            self._expire(conn, self._clock())
            row = conn.execute("SELECT scope FROM sessions WHERE id = ?", (session_id,)).fetchone()
            if row is None:
                return False
            _check_scope(session_id, row[0], scope)
            conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
        return True

    def expire(self) -> int:
        """Delete every session idle longer than ``idle_seconds``; how many went."""
        with self._store.writing("expiring sessions") as conn:
            return self._expire(conn, self._clock())

    def _expire(self, conn: SqlConnection, now: float) -> int:
        # Turns go by ON DELETE CASCADE (the SQLite store turns foreign keys on).
        cursor = conn.execute(
            "DELETE FROM sessions WHERE last_used < ?", (now - self.idle_seconds,)
        )
        return cursor.rowcount


def check_id(session_id: object) -> str:
    """``session_id`` if it is a usable session id, else InvalidQueryError."""
    if not isinstance(session_id, str):
        raise InvalidQueryError(
            f"a session id must be text (a str), not {type(session_id).__name__}"
        )
    if len(session_id) > MAX_SESSION_ID_CHARS or not _SESSION_ID.fullmatch(session_id):
        raise InvalidQueryError(
            f"session id {quoted(session_id)} is not usable: use 1 to {MAX_SESSION_ID_CHARS} "
            "letters, digits, '_', '-', '.' or ':' starting with a letter or digit, or omit it to "
            "start a new session"
        )
    return session_id


def _scope_text(scope: Scope) -> str | None:
    return None if scope.unrestricted else json.dumps(list(scope.names))


def _check_scope(session_id: str, stored: str | None, scope: Scope) -> None:
    if stored != _scope_text(scope):
        # Says nothing of whose it is or what it holds.
        raise ScopeError(
            f"session id {quoted(session_id)} is not available to this caller: start a new "
            "session or choose another id"
        )


def _turns(conn: SqlConnection, session_id: str) -> tuple[Turn, ...]:
    return tuple(
        Turn(n, q, r, p, tuple(json.loads(d)), s, _stamp(t))
        for n, q, r, p, d, s, t in conn.execute(
            "SELECT number, question, rewritten, perception, documents, status, asked_at "
            "FROM session_turns WHERE session_id = ? ORDER BY number",
            (session_id,),
        )
    )


def _stamp(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)
