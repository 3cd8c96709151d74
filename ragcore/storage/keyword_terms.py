"""FTS5's keyword terms and BM25, outside SQLite's index: one ranking on both stores.

The SQLite store's keyword indexes are FTS5 tables (tokenizer ``porter unicode61``, two
columns: title and text) ranked by FTS5's ``bm25()``. PostgreSQL's text search cannot
give the same tokens (Snowball stems and stop words against unicode61 tokens and the
Porter stemmer), so the PostgreSQL store keeps *FTS5's own* terms: they are made here by
SQLite's FTS5 tokenizer itself, on an in-memory table (``fts5vocab`` lists each token
instance), and ranked by FTS5's formula with FTS5's statistics. Nothing is re-implemented
that could drift from SQLite's code.

FTS5's BM25, as ``fts5_aux.c`` computes it, for a query of phrases ``1..n`` (each quoted
word of ``fts_query`` is one phrase, duplicates included), a row of ``D`` tokens (title
and text together) and a table of ``N`` rows and ``T`` tokens::

    idf_i   = ln((N - hits_i + 0.5) / (hits_i + 0.5)), or 1e-6 where that is <= 0
    f_i     = the column weights summed over the phrase's instances in the row
              (a title instance counts ``title_weight``, a text one 1)
    score   = sum over i, in query order, from 0.0, of
              idf_i * ((f_i * (k1 + 1)) / (f_i + k1 * ((1 - b) + ((b * D) / (T / N)))))

with ``k1`` 1.2 and ``b`` 0.75. Computed with the same IEEE operations in the same order,
the scores are the same doubles on both stores (for title weights whose multiples are
exact, such as the default 1.0), and ties are broken the same way: by document id, then
chunk position.
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass

K1 = 1.2
B = 0.75
K1_PLUS_1 = K1 + 1.0  # as fts5_aux.c's (k1 + 1.0): the same double
ONE_MINUS_B = 1 - B
MIN_IDF = 1e-6
TOKENIZER = "porter unicode61"
"""The SQLite store's FTS5 tokenizer (migrations 0001, 0002); the PostgreSQL store records
it in its ``meta`` (``keyword_terms``) and refills its terms if it ever changes."""


@dataclass(frozen=True)
class RowTerms:
    """One row's terms as FTS5 indexes them: term -> (instances in the title, instances
    in all), and the row's length in tokens (title and text)."""

    counts: dict[str, tuple[int, int]]
    length: int


class Fts5Tokenizer:
    """SQLite's FTS5 tokenizer on an in-memory database, one per thread (cheap: no file,
    opened on first use)."""

    def __init__(self) -> None:
        self._local = threading.local()

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(":memory:")
            conn.executescript(
                f"CREATE VIRTUAL TABLE rows USING fts5(title, body, tokenize = '{TOKENIZER}');"
                "CREATE VIRTUAL TABLE row_terms USING fts5vocab(rows, 'instance');"
                "CREATE VIRTUAL TABLE words USING fts5(body, tokenize = 'unicode61');"
                "CREATE VIRTUAL TABLE word_terms USING fts5vocab(words, 'instance');"
            )
            self._local.conn = conn
        return conn

    def rows(self, rows: Sequence[tuple[str, str]]) -> list[RowTerms]:
        """The terms of each (title, text) row, as an FTS5 table of ``TOKENIZER`` holds them."""
        conn = self._conn()
        with conn:
            conn.executemany(
                "INSERT INTO rows(rowid, title, body) VALUES (?, ?, ?)",
                [(i, title, text) for i, (title, text) in enumerate(rows, 1)],
            )
            found = conn.execute(
                "SELECT doc, term, sum(col = 0), count(*) FROM row_terms GROUP BY doc, term"
            ).fetchall()
            conn.execute("DELETE FROM rows")
        counts: list[dict[str, tuple[int, int]]] = [{} for _ in rows]
        lengths = [0] * len(rows)
        for doc, term, in_title, hits in found:
            counts[doc - 1][term] = (in_title, hits)
            lengths[doc - 1] += hits
        return [RowTerms(c, n) for c, n in zip(counts, lengths, strict=True)]

    def words(self, text: str) -> list[str]:
        """``text``'s tokens as FTS5's unicode61 makes them (lower case, diacritics
        removed, split where it splits), in order, not stemmed: each is one token of
        ``TOKENIZER`` again, so a quoted one is a one-term phrase."""
        return [term for term, _ in self._tokens("words", "word_terms", [text])[0]]

    def stems(self, words: Sequence[str]) -> list[str]:
        """The ``TOKENIZER`` term of each of ``words`` (one token each, from ``words``)."""
        if not words:
            return []
        found = self._tokens("rows", "row_terms", list(words), column="body")
        return [terms[0][0] if terms else "" for terms in found]

    def _tokens(
        self, table: str, vocab: str, texts: list[str], column: str = "body"
    ) -> list[list[tuple[str, int]]]:
        conn = self._conn()
        with conn:
            conn.executemany(
                f"INSERT INTO {table}(rowid, {column}) VALUES (?, ?)",
                list(enumerate(texts, 1)),
            )
            found = conn.execute(f"SELECT doc, term, offset FROM {vocab} ORDER BY doc, offset")
            out: list[list[tuple[str, int]]] = [[] for _ in texts]
            for doc, term, offset in found:
                out[doc - 1].append((term, offset))
            conn.execute(f"DELETE FROM {table}")
        return out


def idf(rows: int, hits: int) -> float:
    """FTS5's IDF of a phrase found in ``hits`` of ``rows`` rows."""
    value = math.log((rows - hits + 0.5) / (hits + 0.5))
    return value if value > 0.0 else MIN_IDF


TOKENIZER_INSTANCE = Fts5Tokenizer()
"""The process's tokenizer (one in-memory SQLite database per thread)."""
