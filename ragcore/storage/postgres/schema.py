"""The PostgreSQL schema: numbered SQL files in ``migrations/`` and their runner.

As for SQLite, each migration is applied once in its own transaction and recorded with
its SHA-256, and the applied ones are checked against the files on every open. An
advisory lock serialises servers that open the same new database at once.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from importlib import resources

import psycopg

from ragcore.errors import StoreError

_LOCK = 0x7261_6763  # "ragc": the advisory lock key of the migration runner


def migrate(conn: psycopg.Connection, where: str) -> None:
    """Bring the database on ``conn`` (``where`` names it, password-free) to the newest
    schema."""
    known = migrations()
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
            "name TEXT NOT NULL, sha256 TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        applied = {
            v: (n, h)
            for v, n, h in conn.execute("SELECT version, name, sha256 FROM schema_migrations")
        }
        if applied and max(applied) > known[-1][0]:
            raise StoreError(
                f"{where} has schema version {max(applied)}, newer than this ragcore knows "
                f"({known[-1][0]}): upgrade ragcore"
            )
        for version, name, sql in known:
            digest = hashlib.sha256(sql.encode()).hexdigest()
            if version in applied:
                if applied[version][1] != digest:
                    raise StoreError(
                        f"migration {name} differs from the one applied to {where}: the "
                        "schema was changed by hand or by another ragcore build"
                    )
                continue
            try:
                with conn.transaction():  # a savepoint: the message names the migration
                    conn.execute(sql.encode())
                    conn.execute(
                        "INSERT INTO schema_migrations VALUES (%s, %s, %s, %s)",
                        (version, name, digest, datetime.now(UTC).isoformat(timespec="seconds")),
                    )
            except psycopg.Error as exc:
                raise StoreError(f"migration {name} failed on {where}: {exc}") from exc


def migrations() -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of every migration, oldest first."""
    folder = resources.files("ragcore.storage.postgres") / "migrations"
    found = [
        (int(e.name.split("_", 1)[0]), e.name, e.read_text("utf-8"))
        for e in folder.iterdir()
        if e.name.endswith(".sql")
    ]
    return sorted(found)
