"""Keyword search on PostgreSQL, ranked exactly as the SQLite store's FTS5 ranks.

The inverted index (``chunk_terms``, ``document_terms``: one row per term and chunk or
document, with its instances in the title and in all, and the row's length) holds FTS5's
own terms, made by SQLite's tokenizer (``storage.keyword_terms``, migration 0008), and
written in the transaction that writes the chunks. BM25 is FTS5's formula with FTS5's
statistics: each query term's IDF from its row count, the average length over every
row of the table (cached per data version), the sum over the query's phrases in their
order (``sum(... ORDER BY ord)``: the same doubles as SQLite's), ties by document id and
position. A chunks row is a chunk with its document's title; a documents row is a
document's title and whole text, for documents that have a first chunk (as the SQLite
store's ``documents_fts``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import Any

import psycopg

from ragcore.storage.keyword_terms import (
    K1,
    K1_PLUS_1,
    ONE_MINUS_B,
    TOKENIZER,
    TOKENIZER_INSTANCE,
    B,
    RowTerms,
    idf,
)

TERMS_KEY = "keyword_terms"
"""meta key: the tokenizer the stored terms were made with ('pending' after 0008)."""
TERMS = {"chunks": ("chunk_terms", "chunk_id"), "documents": ("document_terms", "document_id")}
"""Each keyword-searched table's inverted index and its owner column."""
_KEY_TYPES = {"chunks": "bigint", "documents": "text"}
_FILL_LOCK = 0x7261_6766  # "ragf": one server refills the terms, the others wait
_BATCH = 500

# FTS5's row count and total tokens of each table (its avgdl is their quotient).
_SIZES = {
    "chunks": "SELECT count(*), coalesce(sum(terms_length), 0) FROM chunks",
    "documents": (
        "SELECT count(*), coalesce(sum(d.terms_length), 0) FROM documents d "
        "JOIN chunks f ON f.document_id = d.id AND f.position = 0"
    ),
}


def _score(weight: float, average: float) -> str:
    """One phrase's BM25 term in FTS5's operation order; ``w.idf``, ``t.*`` in scope."""
    f = f"(t.in_title::float8 * {weight!r}::float8 + (t.hits - t.in_title)::float8)"
    return (
        f"w.idf * (({f} * {K1_PLUS_1!r}::float8) / ({f} + {K1!r}::float8 * "
        f"({ONE_MINUS_B!r}::float8 + (({B!r}::float8 * t.length::float8) / "
        f"{average!r}::float8))))"
    )


def bm25_sql(table: str, where: str, filtered: bool, weight: float, average: float) -> str:
    """The ranked query over ``table``'s terms; parameters: the phrases' terms, their
    IDFs, then ``where``'s, then the limit. Returns (chunk id, score) rows."""
    terms, owner = TERMS[table]
    scored = (
        f"SELECT t.{owner} AS owner, sum({_score(weight, average)} ORDER BY w.ord) AS score "
        "FROM unnest(%s::text[], %s::float8[]) WITH ORDINALITY AS w(term, idf, ord) "
        f"JOIN {terms} t ON t.lexeme = w.term GROUP BY t.{owner}"
    )
    if table == "documents":
        source = "scored s JOIN chunks c ON c.document_id = s.owner AND c.position = 0" + (
            " JOIN documents d ON d.id = s.owner" if filtered else ""
        )
    else:
        source = "scored s JOIN chunks c ON c.id = s.owner" + (
            " JOIN documents d ON d.id = c.document_id" if filtered else ""
        )
    return (
        f"WITH scored AS ({scored}) SELECT c.id, s.score FROM {source} WHERE {where} "
        "ORDER BY s.score DESC, c.document_id, c.position LIMIT %s"
    )


class KeywordStatistics:
    """Each table's size and each term's IDF, for one data version (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version: int | None = None
        self._sizes: dict[str, tuple[int, float]] = {}
        self._idf: dict[tuple[str, str], float] = {}

    def get(
        self, version: int, table: str, terms: Sequence[str], conn: psycopg.Connection
    ) -> tuple[list[float], float]:
        """The IDF of each of ``terms`` in ``table`` and its average row length, read on
        ``conn`` for what this version has not read yet."""
        with self._lock:
            if self._version != version:
                self._version, self._sizes, self._idf = version, {}, {}
            sizes, known = self._sizes, dict(self._idf)
        if table not in sizes:
            rows, tokens = conn.execute(_SIZES[table].encode()).fetchone() or (0, 0)
            sizes[table] = (int(rows), float(tokens) / rows if rows else 1.0)
        rows = sizes[table][0]
        unknown = list(dict.fromkeys(t for t in terms if (table, t) not in known))
        if unknown:
            index = TERMS[table][0]
            found: dict[str, int] = dict(
                conn.execute(
                    f"SELECT lexeme, count(*) FROM {index} WHERE lexeme = ANY(%s) "
                    "GROUP BY lexeme".encode(),
                    [unknown],
                ).fetchall()
            )
            fresh = {(table, t): idf(rows, int(found.get(t, 0))) for t in unknown}
            known.update(fresh)
            with self._lock:
                if self._version == version:
                    self._idf.update(fresh)
        return [known[(table, t)] for t in terms], sizes[table][1]


def query_terms(match: str) -> list[str]:
    """The FTS5 term of each quoted word of ``match`` (``fts_query``'s form), in order,
    duplicates kept (each is a phrase of its own in FTS5's sum)."""
    words = [w for w in match.split('"')[1::2] if w]
    return [t for t in TOKENIZER_INSTANCE.stems(words) if t]


def write_terms(
    cur: psycopg.Cursor,
    chunks: Iterable[tuple[int, str, str]] = (),
    documents: Iterable[tuple[str, str, str]] = (),
) -> None:
    """Write the terms and lengths of ``chunks`` (id, title, text) and ``documents``
    (id, title, whole text), whose old terms are gone."""
    for table, rows in (("chunks", list(chunks)), ("documents", list(documents))):
        index, owner = TERMS[table]
        for begin in range(0, len(rows), _BATCH):
            part = rows[begin : begin + _BATCH]
            terms = TOKENIZER_INSTANCE.rows([(title, text) for _, title, text in part])
            _copy(cur, index, owner, [(key, row) for (key, _, _), row in zip(part, terms)])
            cur.execute(
                f"UPDATE {table} AS x SET terms_length = v.length FROM "
                f"unnest(%s::{_KEY_TYPES[table]}[], %s::int[]) AS v(key, length) "
                "WHERE x.id = v.key".encode(),
                ([key for key, _, _ in part], [t.length for t in terms]),
            )


def _copy(cur: psycopg.Cursor, index: str, owner: str, rows: list[tuple[Any, RowTerms]]) -> None:
    with cur.copy(
        f"COPY {index} (lexeme, {owner}, hits, in_title, length) FROM STDIN".encode()
    ) as copy:
        for key, terms in rows:
            for term, (in_title, hits) in terms.counts.items():
                copy.write_row((term, key, hits, in_title, terms.length))


def fill_keyword_terms(conn: psycopg.Connection) -> None:
    """Make the terms of every stored row if they are pending (a database migrated to
    0008) or were made by another tokenizer; one server does it, the others wait."""
    if _recorded(conn) == TOKENIZER:
        return
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_FILL_LOCK,))
        if _recorded(conn) == TOKENIZER:
            return  # another server did it meanwhile
        with conn.cursor() as cur:
            cur.execute("TRUNCATE chunk_terms, document_terms")
            filled = 0
            for table, select in _ROWS.items():
                last: object = "" if table == "documents" else 0
                while rows := cur.execute(select, (last, _BATCH * 10)).fetchall():
                    last = rows[-1][0]
                    filled += len(rows)
                    write_terms(cur, **{table: rows})
            cur.execute(
                "INSERT INTO meta(key, value) VALUES (%s, %s) "
                "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                (TERMS_KEY, TOKENIZER),
            )
            if filled:  # caches keyed on the data version must not keep the old ranking
                cur.execute(
                    "UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'data_version'"
                )


_ROWS = {
    "chunks": b"SELECT c.id, d.title, c.text FROM chunks c JOIN documents d "
    b"ON d.id = c.document_id WHERE c.id > %s ORDER BY c.id LIMIT %s",
    "documents": b"SELECT id, title, text FROM documents WHERE id > %s ORDER BY id LIMIT %s",
}


def _recorded(conn: psycopg.Connection) -> str | None:
    row = conn.execute(b"SELECT value FROM meta WHERE key = %s", (TERMS_KEY,)).fetchone()
    return row[0] if row else None
