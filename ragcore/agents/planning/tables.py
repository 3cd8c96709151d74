"""Table tasks: a data question's ``TableQuery`` run on the declared tables, as evidence.

Perception's ``recognise`` reads a question into a ``TableQuery`` over the schemas and
stored dimension values this module's ``TableCatalog`` keeps (cached; ``refresh`` after
a table is loaded). A ``TableTask`` is the plan's task of that kind; its ``TableResult``
becomes evidence whose text states each result row as a sentence with the schema's
units ("shortages, 2026-11, region East: shortage rate of model AC-75 is 7.5 %."), so
the generator can quote it and the validator check its figures like any other text.
Table evidence cites a pseudo document ``table:<name>`` in knowledge base ``tables`` and
keeps the rowids it was computed from, so a citation names the table and the rows.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from types import MappingProxyType

from ragcore.agents.evidence import TABLES_KNOWLEDGE_BASE, Evidence, is_table_evidence
from ragcore.agents.planning.value_lookup import KIND_COLUMN, ValueLookup, Values
from ragcore.documents import DocumentInfo
from ragcore.retrieval.search import Hit
from ragcore.retrieval.tables import AnyTableReader, SqlResult, TableResult
from ragcore.tabular import Aggregation, ColumnType, TableQuery, TableSchema
from ragcore.text.value_words import plural, singular, words

MAX_ROW_EVIDENCE = 20
"""Up to this many result rows, one evidence item per row; beyond, one for the result."""
_AGGREGATION_WORDS = {
    Aggregation.SUM: "total",
    Aggregation.AVG: "average",
    Aggregation.MIN: "lowest",
    Aggregation.MAX: "highest",
    Aggregation.COUNT: "number of rows of",
    Aggregation.MEDIAN: "median",
    Aggregation.SHARE: "share of total",
    Aggregation.LATEST: "latest",
    Aggregation.EARLIEST: "earliest",
}


_ROW_EXTREMES = (Aggregation.EARLIEST, Aggregation.LATEST)


@dataclass(frozen=True)
class TableTask:
    """A plan task of the table kind: one query over one declared table."""

    id: str
    query: TableQuery
    reason: str


class TableCatalog:
    """The declared tables' schemas and their dimension columns' values, cached
    (perception matches questions against them); ``refresh`` after loading a table.

    ``values_for(question)`` gives only the values a question could name, looked up in
    the value index kept at load (``value_lookup``): reading a question does not read
    every row. ``values`` is every value (for the LLM's prompt).

    On a shared PostgreSQL store another engine may load a table: the cache is keyed on
    the store's table version too (``tables.version()``, moved by every load)."""

    def __init__(self, reader: AnyTableReader) -> None:
        self._reader = reader
        self._lock = threading.Lock()
        self._cached: tuple[int, tuple[TableSchema, ...], ValueLookup] | None = None
        self._identifiers: Mapping[str, frozenset[str]] = MappingProxyType({})
        self._all: tuple[int, Mapping] | None = None
        self._refreshes = 0

    @property
    def generation(self) -> int:
        """Moves on every ``refresh`` and every table load seen in the store (both only
        grow): answers computed from the tables are stale."""
        return self._refreshes + self._reader.tables.version()

    def refresh(self) -> None:
        with self._lock:
            self._cached = None
            self._all = None
            self._refreshes += 1

    def _load(self) -> tuple[int, tuple[TableSchema, ...], ValueLookup]:
        version = self._reader.tables.version()
        cached = self._cached
        if cached is not None and cached[0] == version:
            return cached
        with self._lock:
            if self._cached is None or self._cached[0] != version:
                infos = self._reader.tables.all()
                nested = self._reader.tables.value_index().nesting()
                schemas = tuple(with_nesting(info.schema, nested) for info in infos)
                lookup = self._lookup(schemas)
                rows = {info.name: info.row_count for info in infos}
                self._identifiers = MappingProxyType(dict(lookup.identifiers(rows)))
                self._cached = (version, schemas, lookup)
            return self._cached

    def _lookup(self, schemas: tuple[TableSchema, ...]) -> ValueLookup:
        index = self._reader.tables.value_index()
        found: dict[str, dict[str, list[tuple[str, str, int]]]] = {}
        for table, column, shape, example, count in index.shapes():
            found.setdefault(table, {}).setdefault(column, []).append((shape, example, count))
        shapes, scanned = {}, {}
        for schema in schemas:
            columns = list(dict.fromkeys(d.column for d in schema.dimensions))
            held = found.get(schema.name, {})
            if columns and not held:  # loaded before the value index: read by a scan
                scanned[schema.name] = self.scan(schema)
                continue
            shapes[schema.name] = MappingProxyType({c: tuple(held.get(c, ())) for c in columns})
        kinds: dict[str, list[tuple[str, str, str]]] = {}
        for table, by_column in shapes.items():
            for column, of_column in by_column.items():
                if sum(n for _, _, n in of_column) > KIND_COLUMN:
                    continue
                for _, value in index.column_values(table, column):
                    if len(value_words := words(value)) > 1:
                        kinds.setdefault(singular(value_words[-1]), []).append(
                            (table, column, value)
                        )
        return ValueLookup(
            schemas,
            index,
            MappingProxyType(shapes),
            MappingProxyType(scanned),
            MappingProxyType({w: tuple(found) for w, found in kinds.items()}),
        )

    def scan(self, schema: TableSchema) -> Mapping[str, tuple]:
        """Distinct values per dimension column read from the rows (the way before the
        value index), through the same read-only, authorised path as every other query
        (a count grouped by the column)."""
        out = {}
        for dimension in schema.dimensions:
            query = TableQuery(
                schema.name,
                schema.measures[0].name,
                aggregation=Aggregation.COUNT,
                group_by=(dimension.column,),
            )
            rows = self._reader.run(query).rows
            out[dimension.column] = tuple(r[0] for r in rows if r[0] is not None)
        return MappingProxyType(out)

    def values_for(self, question: str) -> Values:
        """Per table and dimension column, the stored values ``question`` could name
        (and an example of each shape of them): what perception needs to read it."""
        return self._load()[2].values_for(question)

    @property
    def identifiers(self) -> Mapping[str, frozenset[str]]:
        """Per table, the dimensions with a value of their own in every row."""
        self._load()
        return self._identifiers

    def known(self, table: str, column: str | None, text: str) -> tuple:
        """The stored values to name when a question names ``text``, which ``table``
        does not hold in ``column`` (None: any dimension): see ``ValueLookup.known``."""
        return self._load()[2].known(table, column, text)

    @property
    def schemas(self) -> tuple[TableSchema, ...]:
        return self._load()[1]

    @property
    def values(self) -> Mapping[str, Mapping[str, Sequence]]:
        """Every stored value of every dimension (read from the value index once per
        version of the tables)."""
        version, schemas, lookup = self._load()
        cached = self._all
        if cached is not None and cached[0] == version:
            return cached[1]
        values = MappingProxyType({s.name: lookup.all(s.name) for s in schemas})
        self._all = (version, values)
        return values

    def schema(self, name: str) -> TableSchema:
        return next(s for s in self.schemas if s.name == name)

    def run(self, task: TableTask) -> TableResult:
        return self._reader.run(task.query)

    @property
    def offers_sql(self) -> bool:
        """Whether ``run_sql`` may run a model's SELECT: on SQLite only (its authorizer
        confines it); on PostgreSQL the LLM fallback is not offered."""
        return self._reader.offers_sql

    def run_sql(self, sql: str) -> SqlResult:
        """A vetted raw SELECT over the declared tables (``TableReader.run_sql``)."""
        return self._reader.run_sql(sql, self.schemas)


def with_nesting(schema: TableSchema, nested: Sequence[tuple[str, str, str]]) -> TableSchema:
    """``schema`` with the nesting its load found (``table_values.nesting``: "line"
    within "site" when line names repeat across sites) as each dimension's ``within``;
    one the schema declares is kept, and a parent declared within another is none (one
    level, as ``within``)."""
    inner = {d.column for d in schema.dimensions if d.within is not None}
    found = {
        child: parent
        for table, child, parent in nested
        if table == schema.name and parent not in inner
    }
    if not found:
        return schema
    dimensions = tuple(
        replace(d, within=found[d.column]) if d.within is None and d.column in found else d
        for d in schema.dimensions
    )
    return replace(schema, dimensions=dimensions)


def table_task(query: TableQuery, reason: str = "data question") -> TableTask:
    return TableTask(f"table:{query.table}", query, reason)


def describe(result: TableResult) -> str:
    """The SQL, its parameters and the row count, for the trace."""
    params = ", ".join(repr(p) for p in result.params)
    more = " (truncated)" if result.truncated else ""
    return f"{result.sql} | params ({params}) → {len(result.rows)} rows{more}"


def table_evidence(result: TableResult, schema: TableSchema, first: int) -> tuple[Evidence, ...]:
    """The result as evidence numbered from ``first``: one item per row, or one for the
    whole result when it has more than ``MAX_ROW_EVIDENCE`` rows."""
    sentences = [_sentence(result, schema, row) for row in result.rows]
    row_ids = list(result.row_ids)
    if relation := _relation(result, schema):  # "P-101 vs P-1010": which is higher, by what
        sentences.append(relation)
        row_ids.append(tuple(i for ids in result.row_ids for i in ids))
    return rows_evidence(sentences, row_ids, _document(schema, result), result.sql, first)


def rows_evidence(
    sentences: Sequence[str],
    row_ids: Sequence[Sequence[int]],
    document: DocumentInfo,
    sql: str,
    first: int,
) -> tuple[Evidence, ...]:
    """Result rows stated as ``sentences`` as evidence of ``document`` numbered from
    ``first``: one item per row (its position is its rank in the query's order), or one
    for all of them beyond ``MAX_ROW_EVIDENCE`` rows; each keeps the rowids it came from."""
    if not sentences:
        return ()
    if len(sentences) <= MAX_ROW_EVIDENCE:
        groups = [([s], ids) for s, ids in zip(sentences, row_ids, strict=True)]
    else:
        groups = [(list(sentences), tuple(i for ids in row_ids for i in ids))]
    out = []
    for offset, (texts, ids) in enumerate(groups):
        number = first + offset
        text = " ".join(texts)
        hit = Hit(
            chunk_id=-number,  # no stored chunk: negative, so it never names one
            document_id=document.id,
            text=text,
            start=0,
            end=len(text),
            start_byte=0,
            end_byte=len(text.encode()),
            position=offset,
            entities=(),
            numeric_density=0.0,
            score=1.0,
            scores=MappingProxyType({}),
            document=document,
        )
        rows = tuple(sorted(set(ids)))
        out.append(Evidence(number, hit, 1.0, 1.0, ("table",), rows=rows, query=sql))
    return tuple(out)


def _document(schema: TableSchema, result: TableResult) -> DocumentInfo:
    query = result.query
    # The figures are as of the query's time window (its end): inside it by construction.
    # Of periods compared, each row is inside its own; dated as the first one named, the
    # question's time as perception reads it.
    as_of = query.periods[0].end if query.periods else query.time_to or query.time_from
    as_of = as_of or query.as_of  # "the 2000 season": dated as that period, read as a value
    return DocumentInfo(
        id=f"table:{schema.name}",
        knowledge_base=TABLES_KNOWLEDGE_BASE,
        title=f"Table {schema.name} — {schema.description}",
        source=schema.sql_name,
        doc_type="table",
        authority=4,
        updated_at=as_of,
        version=1,
        supersedes=None,
        # what the table calls its rows and its dimensions: a side asked as "Brake
        # Repair jobs" is answered by "service type Brake Repair" (validation's sides)
        metadata=MappingProxyType({"names": _names(schema)}),
        checksum="",
        ingested_at="",
    )


def _names(schema: TableSchema) -> str:
    """The words naming the table's rows and dimensions, lowercase: no identifiers."""
    names = [*schema.rows_nouns, *(n for d in schema.dimensions for n in (d.column, *d.synonyms))]
    said = [n.replace("_", " ").lower() for n in names]
    return ", ".join(dict.fromkeys([*said, *(plural(n) for n in said)]))  # "jobs" of "job"


def _sentence(result: TableResult, schema: TableSchema, row: tuple) -> str:
    """ "shortages, 2026-11, region East: shortage rate of model AC-75 is 7.5 %." """
    context, label, unit = _stated(result, schema)
    groups = _groups(result, row, schema)
    query = result.query
    if groups and query.aggregation in _ROW_EXTREMES and schema.measure(query.measure).counts_rows:
        # "purchase_orders, 2026, supplier QuickFix Industrial: the earliest order is po
        # number PO-4611 and order date 2026-01-12."
        words = schema.name.split("_")
        rows = " ".join([*words[:-1], singular(words[-1])]) if schema.rows_noun else "row"
        return f"{context}: the {query.aggregation.value} {rows} is {groups}."
    subject = f"{label} of {groups}" if groups else label
    return f"{context}: {subject} is {figure_text(row[-1], unit)}."


def _relation(result: TableResult, schema: TableSchema) -> str | None:
    """Of two sides compared ("P-101 vs P-1010", "Q2 vs Q3"), which figure is higher and
    by how much: "work_orders, 2025: downtime hours of site Riverside (845 hours) is
    148.8 hours higher than of site Hillcrest (696.2 hours)."; None for anything else."""
    query = result.query
    columns = [column for column, _ in query.filters if column in query.group_by]
    compared = query.periods or len(columns) > len(set(columns))
    if not compared or len(result.rows) != 2:
        return None
    # of the figures as stated (rounded), so that the difference reads as their own
    stated = [
        round(float(f), 2)
        for row in result.rows
        if isinstance(f := row[-1], int | float) and not isinstance(f, bool)
    ]
    if len(stated) != 2:
        return None
    (high, big), (low, small) = sorted(zip(result.rows, stated, strict=True), key=lambda p: -p[1])
    context, label, unit = _stated(result, schema)
    first = f"{label} of {_groups(result, high, schema)} ({figure_text(high[-1], unit)})"
    second = f"of {_groups(result, low, schema)} ({figure_text(low[-1], unit)})"
    if big == small:
        return f"{context}: {first} is the same as {second}."
    difference = figure_text(round(big - small, 2), unit)
    return f"{context}: {first} is {difference} higher than {second}."


def _stated(result: TableResult, schema: TableSchema) -> tuple[str, str, str]:
    """What every sentence of a result says first (the table, window and filters), the
    figure's label ("average delay days") and its unit."""
    query = result.query
    measure = schema.measure(query.measure)
    context = [schema.name]
    if window := _window(query, schema):
        context.append(window)
    alternatives: dict[str, list[str]] = {}  # "asset class centrifugal pump or vacuum pump"
    for column, value in query.filters:
        if column not in query.group_by:  # a grouped column's value is the row's own
            alternatives.setdefault(column, []).append(str(value))
    context += [f"{c.replace('_', ' ')} {' or '.join(vs)}" for c, vs in alternatives.items()]
    label = measure.name.replace("_", " ")
    said = {singular(w) for n in measure.synonyms for w in words(n)}
    if measure.synonyms and not {singular(w) for w in words(label)} & said:
        # "psavert (savings rate)": a name of no word the question may use, glossed
        label = f"{label} ({measure.synonyms[0]})"
    aggregation = query.aggregation
    if aggregation is not None and aggregation is not measure.aggregation:
        label = f"{_AGGREGATION_WORDS[aggregation]} {label}"
    unit = "%" if aggregation is Aggregation.SHARE else measure.unit
    return ", ".join(context), label, unit


def _groups(result: TableResult, row: tuple, schema: TableSchema) -> str:
    """ "site Riverside and line Line 2": the row's period compared and grouped values."""
    grouped = result.columns[:-1]  # the period compared, then the group-by columns
    return " and ".join(
        f"{c.replace('_', ' ')} {_named(schema, c, v)}" for c, v in zip(grouped, row, strict=False)
    )


def _named(schema: TableSchema, column: str, value: object) -> str:
    """A grouped or compared value with the name its dimension's description glosses it
    with, as the question may have named it ("Delta vs United": "DL (Delta Air Lines)");
    else the value as stored. Not in the sentence's context (the filters): there a name
    in parentheses is taken for a side of a comparison of periods."""
    for dimension in schema.dimensions:
        if dimension.column == column:
            for name, glossed in dimension.aliases:
                if glossed == str(value):  # "John F Kennedy": no full stop in a sentence
                    return f"{value} ({name.replace('.', '')})"
    return str(value)


def _window(query: TableQuery, schema: TableSchema) -> str:
    """ "2025-01-01 to 2025-12-31"; "closed date 2026-01-01 to …" when the rows are
    selected by another date column than the time column."""
    if query.time_from is None and query.time_to is None:
        return ""
    column = query.dated_by or schema.time_column
    kind = schema.columns[column] if column is not None else None
    named = f"{query.dated_by.replace('_', ' ')} " if query.dated_by else ""

    def text(d: date | None) -> str:
        if d is None:
            return "…"
        if kind is ColumnType.INTEGER:  # a time column of years: "1990 to 1999"
            return str(d.year)
        return f"{d.year:04d}-{d.month:02d}" if kind is ColumnType.MONTH else d.isoformat()

    start, end = text(query.time_from), text(query.time_to)
    return named + (start if start == end else f"{start} to {end}")


def figure_text(value: object, unit: str) -> str:
    """A result value as an answer states it: "7.5 %", "12 units"; a text value as it is."""
    if value is None:
        return "not recorded"
    if isinstance(value, float):
        number = f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
    else:
        number = str(value)
    return f"{number} {unit}".strip() if isinstance(value, int | float) else number


__all__ = [
    "MAX_ROW_EVIDENCE",
    "TABLES_KNOWLEDGE_BASE",
    "TableCatalog",
    "TableTask",
    "describe",
    "figure_text",
    "is_table_evidence",
    "rows_evidence",
    "table_evidence",
    "table_task",
]
