"""Keyword search on PostgreSQL, ranked exactly as the SQLite store's FTS5 ranks.

The inverted index (``chunk_terms``, ``document_terms``: one row per term and chunk or
document, with its instances in the title and in all, and the row's length) holds FTS5's
own terms, made by SQLite's tokenizer (``storage.keyword_terms``, migration 0008), and
written in the transaction that writes the chunks. BM25 is FTS5's formula with FTS5's
statistics, in one statement: each query term's IDF from its row count, the average
length from the table's totals (``keyword_totals``, kept by triggers as FTS5 keeps its
own), the sum over the query's phrases in their order (``sum(... ORDER BY ord)``: the
same doubles as SQLite's; PostgreSQL's ``ln`` is the C library's ``log`` that FTS5
calls), ties by document id and position. A chunks row is a chunk with its document's
title; a documents row is a document's title and whole text, for documents that have a
first chunk (as the SQLite store's ``documents_fts``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import psycopg

from ragcore.storage.keyword_terms import (
    K1,
    K1_PLUS_1,
    MIN_IDF,
    ONE_MINUS_B,
    TOKENIZER,
    TOKENIZER_INSTANCE,
    B,
    RowTerms,
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


def _score(weight: float) -> str:
    """One phrase's BM25 term in FTS5's operation order (``p``: a posting, ``i``: its
    phrase's IDF, ``k``: the table's totals)."""
    f = f"(p.in_title::float8 * {weight!r}::float8 + (p.hits - p.in_title)::float8)"
    return (
        f"i.idf * (({f} * {K1_PLUS_1!r}::float8) / ({f} + {K1!r}::float8 * "
        f"({ONE_MINUS_B!r}::float8 + (({B!r}::float8 * p.length::float8) / k.avgdl))))"
    )


def bm25_sql(table: str, where: str, filtered: bool, weight: float) -> str:
    """The ranked query over ``table``'s terms, in one statement: the postings of the
    phrases' terms, each phrase's IDF from its postings' count and the table's row count
    (``keyword_totals``), the scores summed in phrase order. Parameters: the phrases'
    terms, then ``where``'s, then the limit; (chunk id, score) rows."""
    terms, owner = TERMS[table]
    scored = (
        "WITH w AS (SELECT * FROM unnest(%s::text[]) WITH ORDINALITY AS w(term, ord)), "
        "k AS (SELECT rows, tokens::float8 / rows::float8 AS avgdl FROM keyword_totals "
        f"WHERE name = '{table}' AND rows > 0), "
        f"p AS MATERIALIZED (SELECT w.ord, t.{owner} AS owner, t.hits, t.in_title, t.length "
        f"FROM w JOIN {terms} t ON t.lexeme = w.term), "
        "i AS (SELECT ord, CASE WHEN x > 0.0::float8 THEN x ELSE "
        f"{MIN_IDF!r}::float8 END AS idf FROM (SELECT p.ord, "
        "ln(((k.rows - count(*))::float8 + 0.5::float8) / (count(*)::float8 + 0.5::float8)) "
        "AS x FROM p, k GROUP BY p.ord, k.rows) x), "
        f"scored AS (SELECT p.owner, sum({_score(weight)} ORDER BY p.ord) AS score "
        "FROM p JOIN i ON i.ord = p.ord CROSS JOIN k GROUP BY p.owner)"
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
        f"{scored} SELECT c.id, s.score FROM {source} WHERE {where} "
        "ORDER BY s.score DESC, c.document_id, c.position LIMIT %s"
    )


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
