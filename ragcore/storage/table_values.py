"""The value index of the loaded tables: each dimension column's distinct values, kept at
load so that reading a question looks up the few values it could name, not every row.

A load (either store) ends, in its own transaction, by replacing the table's rows of
``table_values`` (every distinct value, as text, filed under its lookup word and its
shape: ``text.value_words``) and ``table_value_shapes`` (per column and shape, a count
and one example) with ``value_rows``: the SQLite migration 0006 and PostgreSQL 0007.
``ValueIndex`` reads them through the store's own read path; its SQL, written with
``?`` placeholders, is the same on both stores. A table loaded before the migration got
its rows when the store first opened after SQLite migration 0008 / PostgreSQL 0010
(``storage.table_index``); one without rows there is read by a scan.

The load also finds which dimensions name things only within another (``nesting``):
"Utilities" is a line at three sites when most lines are at one site each. It keeps
them in ``table_nesting`` (SQLite migration 0007, PostgreSQL 0009), so a question
grouping by line groups by site too, as a schema's ``within`` would (one site's
Utilities is not another's; summed together they are no line at all). A table loaded
before that migration has them found when the store first opens after migration 0008
(PostgreSQL 0010), with its values.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ragcore.tabular import ColumnType, TableSchema
from ragcore.text.value_words import lookup_word, shape, singular, words

Query = Callable[[str, Sequence[object]], list[tuple[Any, ...]]]
"""Runs one read-only statement with ``?`` placeholders; the store's rows."""
Value = str | int | float
NEAR_CANDIDATES = 200
"""At most this many values of one shape are compared for close matches of a value a
question names but the table lacks."""
NEIGHBOURS = 50
"""And this many on each side of it in the order of lookup words."""
NESTING_VALUES = 1000
"""A dimension with more distinct values than this is not checked for nesting (a
code per row, such as an order number, names nothing within anything)."""


@dataclass(frozen=True)
class ValueRows:
    """What a load writes to the value index for one table."""

    values: list[tuple[str, str, str, str, str]]
    """(table, column, value, word, shape), one per distinct value of a dimension."""
    shapes: list[tuple[str, str, str, str, int]]
    """(table, column, shape, example, count), one per shape of a dimension's values."""


def as_text(value: object) -> str:
    """A stored value as the index keeps it (``typed`` reads it back exactly)."""
    return repr(value) if isinstance(value, float) else str(value)


def typed(text: str, kind: ColumnType) -> Value:
    """An indexed value as the column holds it: what a query filters by."""
    if kind is ColumnType.INTEGER:
        return int(text)
    if kind is ColumnType.REAL:
        return float(text)
    return text


def value_rows(schema: TableSchema, distinct: Mapping[str, Iterable[object]]) -> ValueRows:
    """The index rows of ``schema``'s table from each dimension column's distinct values."""
    values: list[tuple[str, str, str, str, str]] = []
    shapes: dict[tuple[str, str], list[Any]] = {}
    for column, stored in distinct.items():
        for value in stored:
            if value is None:
                continue
            text = as_text(value)
            form = shape(text)
            values.append((schema.name, column, text, lookup_word(text), form))
            seen = shapes.setdefault((column, form), [text, 0])
            seen[0] = min(seen[0], text)  # the same example whatever the reading order
            seen[1] += 1
    return ValueRows(
        values,
        [(schema.name, c, form, e, n) for (c, form), (e, n) in shapes.items()],
    )


def nesting_pairs(schema: TableSchema, counts: Mapping[str, int]) -> list[tuple[str, str]]:
    """(child, parent) dimension columns whose pairs a load counts for ``nesting``: text
    columns, the child with more distinct values (``counts``) than the parent, at most
    ``NESTING_VALUES``, the parent at least two; a child with a declared ``within`` is
    left as declared."""
    declared = {d.column for d in schema.dimensions if d.within is not None}
    text = [c for c in dimension_columns(schema) if schema.columns[c] is ColumnType.TEXT]
    return [
        (child, parent)
        for child in text
        if child not in declared and counts.get(child, 0) <= NESTING_VALUES
        for parent in text
        if 2 <= counts.get(parent, 0) < counts.get(child, 0)
    ]


def nesting_sql(schema: TableSchema, child: str, parent: str) -> str:
    """How many rows each (child, parent) pair of values has (the same SQL on both
    stores: the columns are checked identifiers)."""
    return (
        f'SELECT "{child}", "{parent}", COUNT(*) FROM "{schema.sql_name}" '
        f'GROUP BY "{child}", "{parent}"'
    )


def nesting(
    schema: TableSchema, pairs: Mapping[tuple[str, str], Iterable[tuple[object, object, int]]]
) -> list[tuple[str, str, str]]:
    """(table, child, parent) of each dimension naming things within another, from the
    rows per pair of values of each candidate (``nesting_pairs``, ``nesting_sql``).

    A child is nested in a parent when some child value of two or more rows stands
    under more than one parent value ("Utilities" at three sites: a name that repeats)
    while most such values stand under one (most lines are at one site), and the
    schema describes the child in the parent's words (a "plant area", an "area within
    the site": ``described_in``). The data alone cannot tell a name reused at two
    sites from one thing under two parents (a supplier selling two categories, whose
    figure is one); the words alone do not say that names repeat. A child under one
    parent each needs nothing (asset tags: each asset's site is its own), and one
    under several for most of its values crosses the parent (a priority at every
    site). Values of one row say nothing either way. Of several parents, the one
    fewest values repeat under, then schema order; a parent itself nested is not one
    (one level, as ``within``)."""
    found: dict[str, tuple[int, str]] = {}
    for (child, parent), rows in pairs.items():
        if not described_in(schema, child, parent):
            continue
        parents: dict[object, set[object]] = {}
        counts: dict[object, int] = {}
        for value, outer, n in rows:
            if value is None or outer is None:
                continue
            parents.setdefault(value, set()).add(outer)
            counts[value] = counts.get(value, 0) + int(n)
        seen = [len(parents[v]) for v in parents if counts[v] >= 2]
        repeated = sum(1 for n in seen if n > 1)
        if repeated and len(seen) - repeated > repeated:
            best = found.get(child)
            if best is None or repeated < best[0]:
                found[child] = (repeated, parent)
    return [
        (schema.name, child, parent) for child, (_, parent) in found.items() if parent not in found
    ]


def described_in(schema: TableSchema, child: str, parent: str) -> bool:
    """Whether the schema's synonyms or description of dimension ``child`` use a name
    of ``parent`` (its column's words or a synonym, as whole words, plurals folded)."""
    phrases = {
        " ".join(singular(w) for w in words(name))
        for d in schema.dimensions
        if d.column == parent
        for name in (parent.replace("_", " "), *d.synonyms)
    }
    said = [
        " ".join(singular(w) for w in words(text))
        for d in schema.dimensions
        if d.column == child
        for text in (*d.synonyms, d.description)
    ]
    return any(f" {p} " in f" {text} " for p in phrases if p for text in said)


def dimension_columns(schema: TableSchema) -> list[str]:
    """The columns indexed: each dimension's, once, in schema order."""
    return list(dict.fromkeys(d.column for d in schema.dimensions))


class ValueIndex:
    """Reads of the value index (every call one statement through ``query``)."""

    def __init__(self, query: Query) -> None:
        self._query = query

    def named(self, words: Collection[str]) -> list[tuple[str, str, str]]:
        """(table, column, value) of every value filed under one of ``words``."""
        words = sorted(w for w in words if w)
        if not words:
            return []
        marks = ", ".join("?" for _ in words)
        return self._query(
            "SELECT table_name, column_name, value FROM table_values "
            f"WHERE word IN ({marks}) ORDER BY table_name, column_name, value",
            words,
        )

    def shapes(self) -> list[tuple[str, str, str, str, int]]:
        """(table, column, shape, example, count) of every indexed table."""
        return self._query(
            "SELECT table_name, column_name, shape, example, count FROM table_value_shapes "
            "ORDER BY table_name, column_name, shape",
            (),
        )

    def column_values(self, table: str, column: str | None = None) -> list[tuple[str, str]]:
        """(column, value) of one table's dimension (or of all of them), by value."""
        where, params = "table_name = ?", [table]
        if column is not None:
            where, params = where + " AND column_name = ?", [table, column]
        return self._query(
            f"SELECT column_name, value FROM table_values WHERE {where} "
            "ORDER BY column_name, value",
            params,
        )

    def nesting(self) -> list[tuple[str, str, str]]:
        """(table, child, parent) of every dimension a load found nested (``nesting``)."""
        return self._query(
            "SELECT table_name, column_name, within FROM table_nesting "
            "ORDER BY table_name, column_name",
            (),
        )

    def near(self, table: str, column: str | None, text: str) -> list[tuple[str, str]]:
        """(column, value) of values that may be close to ``text``: its neighbours in
        the order of lookup words (codes: "WO-0123455" beside "WO-0123456"), and values
        of its shape (a bounded number of each)."""
        column_sql = "" if column is None else " AND column_name = ?"
        scope = [table] if column is None else [table, column]
        key = lookup_word(text) or text.lower()
        found: list[tuple[str, str]] = []
        for sign, order in ((">=", "ASC"), ("<", "DESC")):
            found += self._query(
                f"SELECT column_name, value FROM table_values WHERE word {sign} ? AND "
                f"table_name = ?{column_sql} ORDER BY word {order} LIMIT {NEIGHBOURS}",
                [key, *scope],
            )
        found += self._query(
            "SELECT column_name, value FROM table_values WHERE table_name = ?"
            f"{column_sql} AND shape = ? LIMIT {NEAR_CANDIDATES}",
            [*scope, shape(text)],
        )
        return list(dict.fromkeys(found))


__all__ = [
    "NEAR_CANDIDATES",
    "NEIGHBOURS",
    "NESTING_VALUES",
    "Query",
    "ValueIndex",
    "ValueRows",
    "as_text",
    "described_in",
    "dimension_columns",
    "nesting",
    "nesting_pairs",
    "nesting_sql",
    "typed",
    "value_rows",
]
