"""A damaged database, found and said plainly: which part, and what to do.

Every sqlite3 error the store meets is translated here into a ``StoreError``; none
reaches a caller raw. What is checked when a database opens is only what is cheap: the
file header (a truncated or foreign file) always, and SQLite's ``quick_check`` when the
file is small enough for it to be quick (measured medians on 2 cores: about 60 ms for a
28 MB store, 130 ms for 81 MB; it grows with the file). Damage in a larger file is found
on first use instead, and named then: the pages ``quick_check`` reports are mapped to
the tables that own them (or, when it cannot finish, the tables that cannot be read).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

from ragcore.errors import StoreError

QUICK_CHECK_MAX_BYTES = 32 * 1024 * 1024
"""Databases up to this size are quick-checked on open (~50-70 ms at the limit)."""

_MAGIC = b"SQLite format 3\x00"
_DAMAGE_WORDS = ("malformed", "not a database", "corrupt", "disk image")
_PAGE = re.compile(r"\b[Pp]age (\d+)\b")
# What the tables are to an operator (shadow tables belong to their FTS5 table).
_ROLES = {
    "chunks_fts": "the keyword index of chunks",
    "documents_fts": "the keyword index of documents",
    "chunks": "the chunks and their embeddings",
    "documents": "the documents",
    "knowledge_bases": "the knowledge bases",
    "meta": "the store's settings",
    "schema_migrations": "the schema history",
}


def advice(path: Path, *, check: bool = True) -> str:
    """What to do about damage (``check``: first see what with ``ragcore check``)."""
    restore = (
        "restore the data directory from a backup (`ragcore backup` makes one) or ingest "
        "the documents again into a new data directory"
    )
    if not check:
        return restore
    return f"run `ragcore check --data-dir {path.parent}` to see what is damaged, then {restore}"


def check_header(path: Path) -> None:
    """StoreError if the file is not an SQLite database or is shorter than its header says.

    Costs one 100-byte read. A new (absent or empty) file passes.
    """
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            header = handle.read(100)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"cannot read the database {path}: {exc.strerror}") from exc
    if size == 0:
        return
    if len(header) < 100 or not header.startswith(_MAGIC):
        raise StoreError(
            f"{path} is not an SQLite database (its header is not SQLite's): it was "
            f"overwritten or is another file; {advice(path, check=False)}"
        )
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    # The page count in the header is valid only when the two change counters agree.
    counted = header[24:28] == header[92:96]
    if counted and pages and pages * page_size > size:
        raise StoreError(
            f"the database {path} is damaged: it is truncated ({size:,} bytes, its header "
            f"says {pages * page_size:,}); {advice(path, check=False)}"
        )


def quick_check(conn: sqlite3.Connection, path: Path) -> None:
    """StoreError naming the damaged tables if SQLite's quick_check finds damage."""
    try:
        rows = [r[0] for r in conn.execute("PRAGMA quick_check(20)")]
    except sqlite3.DatabaseError as exc:  # too damaged for quick_check to finish
        where = unreadable_tables(conn)
        raise StoreError(
            f"the database {path} is damaged ({exc}){f': {where}' if where else ''}; {advice(path)}"
        ) from exc
    if rows != ["ok"]:
        raise StoreError(f"the database {path} is damaged: {describe(conn, rows)}; {advice(path)}")


def describe(conn: sqlite3.Connection, problems: list[str]) -> str:
    """What quick_check's or integrity_check's ``problems`` damage: the tables owning the
    pages they name (via the dbstat table, when this SQLite has it), else the first one."""
    pages = sorted({int(p) for line in problems for p in _PAGE.findall(line)})
    tables: dict[str, list[int]] = {}
    if pages:
        try:
            marks = ",".join("?" * len(pages[:200]))
            for name, page in conn.execute(
                f"SELECT name, pageno FROM dbstat WHERE pageno IN ({marks})", pages[:200]
            ):
                tables.setdefault(_owner(name), []).append(page)
        except sqlite3.Error:
            tables = {}
    if not tables:
        first = " ".join(problems[0].split()) if problems else "unknown damage"
        return first[:300]
    parts = []
    for table, found in sorted(tables.items()):
        role = _ROLES.get(table)
        span = f"page {found[0]}" if len(found) == 1 else f"pages {min(found)}-{max(found)}"
        parts.append(f"table {table}{f' ({role})' if role else ''}, {span}")
    return "damaged " + "; ".join(parts)


def unreadable_tables(conn: sqlite3.Connection) -> str:
    """ "damaged table chunks_fts (...)" for the tables a full count cannot read ("" if
    all can), when the damage is too bad for quick_check to say which pages."""
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    except sqlite3.Error:
        return "damaged: the schema table (sqlite_master)"
    broken: dict[str, None] = {}
    for name in names:
        if name.startswith("sqlite_"):
            continue
        try:
            conn.execute(f'SELECT count(*) FROM "{name}"').fetchone()
        except sqlite3.Error:
            broken[_owner(name)] = None
    parts = [f"table {t}{f' ({_ROLES[t]})' if t in _ROLES else ''}" for t in broken]
    return "damaged " + "; ".join(parts) if parts else ""


def _owner(name: str) -> str:
    """The table a b-tree belongs to: an FTS5 shadow table's FTS5 table, an index's table."""
    for suffix in ("_data", "_idx", "_content", "_docsize", "_config"):
        if name.endswith(suffix) and name[: -len(suffix)].endswith("_fts"):
            return name[: -len(suffix)]
    return name


def is_damage(exc: sqlite3.Error) -> bool:
    return isinstance(exc, sqlite3.DatabaseError) and any(
        word in str(exc).lower() for word in _DAMAGE_WORDS
    )


def diagnose(conn: sqlite3.Connection) -> str:
    """What quick_check says is damaged (else which tables cannot be read; "" if none)."""
    try:
        rows = [r[0] for r in conn.execute("PRAGMA quick_check(20)")]
    except sqlite3.Error:
        return unreadable_tables(conn)
    return describe(conn, rows) if rows != ["ok"] else ""


def translate(
    exc: sqlite3.Error, path: Path, doing: str, diagnosis: Callable[[], str] | None = None
) -> StoreError:
    """The StoreError for ``exc``, raised while ``doing`` (e.g. "searching by keyword");
    ``diagnosis`` says which tables are damaged (called only for damage)."""
    text = str(exc)
    if is_damage(exc):
        found = diagnosis() if diagnosis is not None else ""
        where = f": {found}" if found else ""
        return StoreError(
            f"the database {path} is damaged ({text}, found while {doing}){where}; {advice(path)}"
        )
    if "locked" in text or "busy" in text:
        return StoreError(
            f"the database {path} stayed locked by another process while {doing}: "
            "wait for it to finish, or stop it"
        )
    if isinstance(exc, sqlite3.OperationalError) and "disk" in text.lower():
        return StoreError(
            f"the database {path} could not be written while {doing} ({text}): check the "
            "disk has room and the data directory is writable"
        )
    return StoreError(
        f"the database {path} failed while {doing} ({text}); if it repeats, {advice(path)}"
    )
