"""Which stored dimension values a question could name, looked up in the value index.

Perception reads a filter value only where the question spells it, so it needs only the
values filed under the question's words (``ValueIndex.named``), plus one value of each
shape a column's values have (so that "CP-999" is still known for an unknown model: its
shape is a model's). On a 600,000-row table that is a handful of values instead of every
distinct one. When a question names a value the table lacks, ``known`` gives what to
show instead: every value of a small column (as before the index), else the indexed
values closest to it. A table without index rows (its schema unreadable when the store
rebuilt the index of tables loaded before it: ``storage.table_index``) is read by a scan.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field

from ragcore.storage.table_values import ValueIndex, typed
from ragcore.tabular import TableSchema
from ragcore.text.value_words import question_words

Value = str | int | float
Values = Mapping[str, Mapping[str, tuple[Value, ...]]]
"""Table name -> dimension column -> values."""
KIND_COLUMN = 100
"""A column with at most this many distinct values has its values named by their last
word too ("the pumps"): a kind of thing, not an identifier."""
SMALL_COLUMN = 1000
"""A column with at most this many distinct values is listed whole for an unknown
value; a bigger one gives its closest values."""
_CLOSE = 8


@dataclass(frozen=True)
class ValueLookup:
    """The value index of one version of the tables, with what it keeps in memory: the
    shapes of every column's values (a few rows per column) and the values of the
    tables it does not index (``scanned``)."""

    schemas: tuple[TableSchema, ...]
    index: ValueIndex
    shapes: Mapping[str, Mapping[str, tuple[tuple[str, str, int], ...]]]
    """Table -> column -> (shape, example, count) of its values."""
    scanned: Values = field(default_factory=dict)
    kinds: Mapping[str, tuple[tuple[str, str, str], ...]] = field(default_factory=dict)
    """The last word of each value of several words in a small column ("pump" of
    "centrifugal pump") -> (table, column, value): "the pumps" names them all."""

    def identifiers(self, rows: Mapping[str, int]) -> Mapping[str, frozenset[str]]:
        """Per table, its dimensions with a value of their own in every row (a work-order
        number): "the cost per work order" is an average over rows, not a list of them.
        ``rows``: each table's row count."""
        out = {}
        for schema in self.schemas:
            count = rows.get(schema.name, 0)
            if schema.name in self.scanned:
                distinct = {c: len(v) for c, v in self.scanned[schema.name].items()}
            else:
                held = self.shapes.get(schema.name, {})
                distinct = {c: sum(n for _, _, n in shapes) for c, shapes in held.items()}
            out[schema.name] = frozenset(c for c, n in distinct.items() if count > 1 and n == count)
        return out

    def values_for(self, question: str) -> Values:
        """Per table and dimension column (in schema order), the values ``question``
        could name and one example of each shape: a subset of every stored value that
        perception reads the same as the whole."""
        words = question_words(question)
        named: dict[tuple[str, str], list[str]] = {}
        kinds = [found for w in words for found in self.kinds.get(w, ())]
        for table, column, value in [*self.index.named(words), *kinds, *self._aliased(words)]:
            named.setdefault((table, column), []).append(value)
        out: dict[str, dict[str, tuple[Value, ...]]] = {}
        for schema in self.schemas:
            if schema.name in self.scanned:
                out[schema.name] = dict(self.scanned[schema.name])
                continue
            columns = {}
            for column, shapes in self.shapes.get(schema.name, {}).items():
                texts = named.get((schema.name, column), []) + [e for _, e, _ in shapes]
                kind = schema.columns[column]
                columns[column] = tuple(dict.fromkeys(typed(t, kind) for t in texts))
            out[schema.name] = columns
        return out

    def _aliased(self, words: frozenset[str]) -> list[tuple[str, str, str]]:
        """(table, column, value) of the stored values the question names by the name a
        dimension's description glosses them with ("Newark" of "EWR (Newark)")."""
        glossed = [
            (schema.name, column, value)
            for schema in self.schemas
            if schema.name not in self.scanned
            for name, column, value in schema.aliases
            if question_words(name) <= words
        ]
        if not glossed:
            return []
        stored = set(self.index.named(question_words(" ".join(v for _, _, v in glossed))))
        return [g for g in glossed if g in stored]

    def count(self, table: str, column: str | None) -> int:
        """How many distinct values the column (None: every dimension) holds."""
        columns = self.shapes.get(table, {})
        chosen = columns.values() if column is None else [columns.get(column, ())]
        return sum(n for shapes in chosen for _, _, n in shapes)

    def known(self, table: str, column: str | None, text: str) -> tuple[Value, ...]:
        """The stored values to name for ``text``, which the table does not hold in
        ``column`` (None: any dimension): all of a small column's, in the order of the
        whole list; else the closest of the indexed ones, closest first."""
        schema = next(s for s in self.schemas if s.name == table)
        if table in self.scanned:
            stored = self.scanned[table]
            return tuple(v for c, vs in stored.items() if column in (None, c) for v in vs)
        if self.count(table, column) <= SMALL_COLUMN:
            rows = self.index.column_values(table, column)
        else:  # column by column: each lookup is then a range of the index
            candidates = []
            for c in [column] if column is not None else list(self.shapes.get(table, {})):
                small = self.count(table, c) <= SMALL_COLUMN
                found = (
                    self.index.column_values(table, c) if small else self.index.near(table, c, text)
                )
                candidates += found
            by_text = {value: c for c, value in candidates}
            close = difflib.get_close_matches(text, list(by_text), n=_CLOSE, cutoff=0.6)
            rows = [(by_text[v], v) for v in close]
        order = {c: i for i, c in enumerate(self.shapes.get(table, {}))}
        rows = sorted(rows, key=lambda r: order.get(r[0], len(order)))  # columns in order
        return tuple(typed(v, schema.columns[c]) for c, v in rows)

    def all(self, table: str) -> Mapping[str, tuple[Value, ...]]:
        """Every value of every dimension of ``table``."""
        if table in self.scanned:
            return self.scanned[table]
        schema = next(s for s in self.schemas if s.name == table)
        out: dict[str, list[Value]] = {c: [] for c in self.shapes.get(table, {})}
        for column, value in self.index.column_values(table):
            out.setdefault(column, []).append(typed(value, schema.columns[column]))
        return {c: tuple(vs) for c, vs in out.items()}


__all__ = ["SMALL_COLUMN", "ValueLookup", "Values"]
