"""The schema of the store: the numbered SQL files in ``migrations/`` and their runner.

Each migration is applied once, in its own transaction, and recorded with its SHA-256 in
``schema_migrations``; on every open the applied ones are checked against the files, so
a schema changed by hand or by another build is an error rather than silent drift.
"""

from __future__ import annotations

import hashlib
import sqlite3
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

from ragcore.errors import StoreError


def migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Bring the database on ``conn`` (at ``path``, for messages) to the newest schema."""
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY "
            "KEY, name TEXT NOT NULL, sha256 TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        applied = {
            v: (n, h)
            for v, n, h in conn.execute("SELECT version, name, sha256 FROM schema_migrations")
        }
    except sqlite3.DatabaseError as exc:
        raise StoreError(
            f"{path} is not a usable SQLite database ({exc}); move it "
            "away and re-ingest, or point --data-dir elsewhere"
        ) from exc
    known = _migrations()
    if applied and max(applied) > known[-1][0]:
        raise StoreError(
            f"{path} has schema version {max(applied)}, newer than this "
            f"ragcore knows ({known[-1][0]}): upgrade ragcore"
        )
    for version, name, sql in known:
        digest = hashlib.sha256(sql.encode()).hexdigest()
        if version in applied:
            if applied[version][1] != digest:
                raise StoreError(
                    f"migration {name} differs from the one applied to "
                    f"{path}: the schema was changed by hand or by "
                    "another ragcore build"
                )
            continue
        try:
            conn.execute("BEGIN IMMEDIATE")
            for statement in _statements(sql):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations VALUES (?, ?, ?, ?)",
                (version, name, digest, _now()),
            )
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            conn.execute("ROLLBACK")
            raise StoreError(f"migration {name} failed on {path}: {exc}") from exc


def _migrations() -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of every migration, oldest first."""
    folder = resources.files("ragcore.storage") / "migrations"
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.name, entry.read_text("utf-8")))
    return sorted(found)


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (triggers contain semicolons)."""
    statements, current = [], ""
    for line in sql.splitlines(keepends=True):
        if line.lstrip().startswith("--") and not current.strip():
            continue
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if current.strip():
        statements.append(current.strip())
    return statements


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
