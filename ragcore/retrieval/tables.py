"""Answering a ``TableQuery``: compiled to SQL from the schema, run read-only and bounded.

Every identifier in the SQL comes from the table's schema (the table, its declared
dimensions and the measure's columns or expression tokens, checked when the schema was
loaded); every value from the query is a bound parameter. The statement runs on a
connection of its own, opened read-only (``mode=ro``), whose authorizer allows nothing
but a SELECT reading the declared columns of that one table (and its rowid) and a few
aggregate functions; a progress handler stops it after ``time_limit`` seconds, and at
most ``max_rows`` rows come back. So no question text, however written, can read
another table or write anything.

A result row is (group values..., figure); ``row_ids`` are, per result row, the rowids
of the table rows the figure came from (the one row of a min or max), which is what a
citation names.

On the PostgreSQL store ``PostgresTableReader`` runs the same compiled queries (the
``POSTGRES`` dialect) in a READ ONLY transaction under a statement timeout.

``TableReader.run_sql`` (SQLite only) runs a raw SELECT someone else wrote (an LLM's
proposal, already vetted as text) under the same guard widened to every declared table:
reads of declared ``data_<name>`` tables and their declared columns, a whitelist of
functions, recursion (bounded by the time limit), nothing else; more rows than the cap
is a refusal, not a truncation, since a partial result would be read as the whole.
"""

from __future__ import annotations

import sqlite3
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from ragcore.errors import InvalidInputError, InvalidQueryError
from ragcore.storage.store import Store
from ragcore.storage.tables import Tables
from ragcore.tabular import Aggregation, ColumnType, Order, TableQuery, TableSchema

if TYPE_CHECKING:  # psycopg is an optional extra
    from ragcore.storage.postgres.store import PostgresStore
    from ragcore.storage.postgres.tables import PostgresTables

DEFAULT_TIME_LIMIT = 1.0
DEFAULT_MAX_ROWS = 1000
TIES = 10
"""A ranking ("the top 3", "which site had the most") shows up to this many groups tied
with its last one beyond its limit."""
_PROGRESS_STEPS = 1000  # VM instructions between time checks
_FUNCTIONS = frozenset(
    {"sum", "total", "avg", "min", "max", "count", "median", "group_concat", "nullif", "substr"}
)  # nullif: a share of an empty whole is no figure; substr: the year or month of a date
_OPERATORS = frozenset("+-*/()")
_SQL_FUNCTIONS = _FUNCTIONS | frozenset(
    {
        "abs", "round", "coalesce", "ifnull", "nullif", "iif", "lower", "upper", "length",
        "substr", "substring", "trim", "ltrim", "rtrim", "replace", "instr", "date",
        "strftime", "julianday", "min", "max", "printf", "format",
    }
)  # fmt: skip
"""What a proposed query may call: aggregates and pure scalar helpers; nothing that reads
files, loads extensions or reveals the engine."""


@dataclass(frozen=True)
class TableResult:
    """The rows a query produced, with the SQL and parameters that produced them."""

    query: TableQuery
    sql: str
    params: tuple[str | float, ...]
    columns: tuple[str, ...]
    """The group-by columns, then the measure's name."""
    rows: tuple[tuple[object, ...], ...]
    row_ids: tuple[tuple[int, ...], ...]
    """Per result row, the rowids of ``data_<table>`` it was computed from."""
    truncated: bool = False
    """More rows matched than the row cap let through."""


@dataclass(frozen=True)
class Dialect:
    """What the SQL of a compiled query spells differently on SQLite and PostgreSQL
    (the query means the same on both: same rows, same order, same row ids)."""

    name: str
    placeholder: str
    true: str
    row_id: str
    row_id_list: str
    """The row ids of a group, as one comma-separated text."""
    equals_nocase: str
    """A text filter, ``{column}`` compared without case to the bound value."""
    as_real: str
    """A column of a derived measure read as a floating-point number."""
    nulls_last: str
    """``{order}`` by the figure, groups without one last."""
    bare_extreme_row: bool
    """SQLite gives a bare column of a min()/max() query from the extreme row; PostgreSQL
    needs that row id aggregated (the first by the figure's order, then by row id)."""
    typed_aggregates: bool
    """PostgreSQL sums and averages integers as numeric: cast back to SQLite's types."""
    null_division: bool
    """SQLite divides by zero to NULL; PostgreSQL raises, unless the divisor is NULLIF'd."""
    median: str
    """The median of ``{expression}`` over a group (SQLite: ragcore's own aggregate)."""


SQLITE = Dialect(
    name="sqlite",
    placeholder="?",
    true="1",
    row_id="rowid",
    row_id_list="group_concat(rowid)",
    equals_nocase='"{column}" = ? COLLATE NOCASE',
    as_real='CAST("{column}" AS REAL)',
    nulls_last='"value" IS NULL, "value" {order}',
    bare_extreme_row=True,
    typed_aggregates=False,
    null_division=False,
    median="median({expression})",
)
POSTGRES = Dialect(
    name="postgresql",
    placeholder="%s",
    true="true",
    row_id='"row_id"',
    row_id_list="""string_agg("row_id"::text, ',')""",
    equals_nocase='lower("{column}") = lower(%s)',
    as_real='"{column}"::double precision',
    nulls_last='"value" {order} NULLS LAST',
    bare_extreme_row=False,
    typed_aggregates=True,
    null_division=True,
    median="percentile_cont(0.5) WITHIN GROUP (ORDER BY {expression})",
)


@dataclass(frozen=True)
class CompiledQuery:
    sql: str
    params: tuple[str | float, ...]
    columns: tuple[str, ...]
    single_row_ids: bool
    """The row-id column is one rowid (min/max) rather than a group_concat list."""


def compile_query(
    query: TableQuery, schema: TableSchema, *, max_rows: int, dialect: Dialect = SQLITE
) -> CompiledQuery:
    """The SQL of ``query`` over ``schema`` in ``dialect``; InvalidQueryError naming what
    the schema does not declare."""
    mark, true = dialect.placeholder, dialect.true
    if query.table != schema.name:
        raise InvalidQueryError(f"query for table {query.table!r} given schema {schema.name!r}")
    try:
        measure = schema.measure(query.measure)
    except InvalidInputError as exc:
        raise InvalidQueryError(str(exc)) from exc
    aggregation = query.aggregation or measure.aggregation
    if not isinstance(aggregation, Aggregation):
        raise InvalidQueryError(f"aggregation {aggregation!r} is not an Aggregation")
    dimensions = {d.column for d in schema.dimensions}
    dated_by = _dated_by(query, schema)
    for column in query.group_by:  # "in which month": the time column (or its year) too
        declared = column in dimensions or column in (schema.time_column, dated_by)
        if not declared and _bucket(column, schema) is None:
            raise _undeclared(schema, "group by", column)
    if len(set(query.group_by)) != len(query.group_by):
        raise InvalidQueryError(f"group_by names a dimension twice: {query.group_by}")
    limit = query.limit
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise InvalidQueryError(f"limit must be a whole number of 1 or more, got {limit!r}")
    if query.order is not None and not isinstance(query.order, Order):
        raise InvalidQueryError(f"order {query.order!r} is not an Order")

    where: list[str] = []
    params: list[str | float] = []
    whole_where: list[str] = []  # a share's whole: the conditions but those on grouped columns
    whole_params: list[str | float] = []
    alternatives: dict[str, list[str | float]] = {}  # values of one column: either holds
    for column, value in query.filters:
        if column not in dimensions:
            raise _undeclared(schema, "filter on", column)
        alternatives.setdefault(column, []).append(value)
    for column, values in alternatives.items():
        tests = [_equals(column, schema.columns[column], v, schema, dialect) for v in values]
        where.append(tests[0] if len(tests) == 1 else f"({' OR '.join(tests)})")
        params += values
        if column not in query.group_by:
            whole_where.append(where[-1])
            whole_params += values
    if query.time_from is not None or query.time_to is not None:
        if dated_by is None:
            raise InvalidQueryError(
                f"table {schema.name!r} has no time column; it cannot be limited to a time window"
            )
        time_kind = schema.columns[dated_by]
        for bound, operator in ((query.time_from, ">="), (query.time_to, "<=")):
            if bound is not None:
                if not isinstance(bound, date):
                    raise InvalidQueryError(f"time bound {bound!r} is not a date")
                where.append(f'"{dated_by}" {operator} {mark}')
                params.append(_time_text(bound, time_kind))
                whole_where.append(where[-1])
                whole_params.append(params[-1])
    dated = (Aggregation.LATEST, Aggregation.EARLIEST)
    if aggregation in dated and _one_time_each(query, schema, dated_by):
        # each figure is of one time already: its rows, combined as the measure says
        aggregation = Aggregation.SUM if measure.aggregation in dated else measure.aggregation
    if query.periods and aggregation in (*dated, Aggregation.SHARE):
        raise InvalidQueryError(f"a comparison of periods cannot be given as {aggregation.value}")
    period_label, period_params = _periods(query, schema, dated_by, where, params, dialect)
    if aggregation in dated:
        if dated_by is None:
            raise InvalidQueryError(
                f"table {schema.name!r} has no time column; {aggregation.value!r} needs one"
            )
        # The most recent (earliest) time among the selected rows (same conditions, same
        # params); those rows, combined as the measure says.
        inner = " AND ".join(where) or true
        extreme = "max" if aggregation is Aggregation.LATEST else "min"
        where.append(
            f'"{dated_by}" = (SELECT {extreme}("{dated_by}") '
            f'FROM "{schema.sql_name}" WHERE {inner})'
        )
        params = params + params
        own = measure.aggregation
        aggregation = Aggregation.SUM if own in dated else own
    expression = _expression(measure.tokens, dialect)
    figure = f"{aggregation.value}({expression})"
    if aggregation is Aggregation.MEDIAN:
        figure = dialect.median.format(expression=expression)
    if aggregation is Aggregation.SHARE:
        if measure.aggregation not in (Aggregation.SUM, Aggregation.COUNT):
            raise InvalidQueryError(
                f"measure {measure.name!r} does not add up over rows "
                f"({measure.aggregation.value}), so it has no share"
            )
        total = f"{measure.aggregation.value}({expression})"
        figure = (
            f'{total} * 100.0 / NULLIF((SELECT {total} FROM "{schema.sql_name}" '
            f"WHERE {' AND '.join(whole_where) or true}), 0)"
        )
        params = whole_params + params  # the subquery's marks come first
    if dialect.typed_aggregates and aggregation in (Aggregation.AVG, Aggregation.SHARE):
        figure = f"CAST({figure} AS double precision)"
    elif dialect.typed_aggregates and aggregation is Aggregation.SUM:
        kind = schema.columns.get(measure.tokens[0]) if len(measure.tokens) == 1 else None
        whole = kind is ColumnType.INTEGER
        figure = f"CAST({figure} AS {'bigint' if whole else 'double precision'})"
    single = aggregation in (Aggregation.MIN, Aggregation.MAX)
    if not single:
        ids = dialect.row_id_list
    elif dialect.bare_extreme_row:
        ids = dialect.row_id
    else:
        way = "ASC" if aggregation is Aggregation.MIN else "DESC"
        by = f"{expression} {way} NULLS LAST, {dialect.row_id}"
        ids = f"(array_agg({dialect.row_id} ORDER BY {by}))[1]"
    groups = ", ".join(f'"{c}"' for c in query.group_by)  # ordered by their names
    select = "".join(
        f'"{c}", ' if _bucket(c, schema) is None else f'{_group(c, schema)} AS "{c}", '
        for c in query.group_by
    )
    grouped = ", ".join(_group(c, schema) for c in query.group_by)
    if period_label:  # the period first; grouped by its position, ordered by its dates
        select = f'{period_label} AS "period", {select}'
        grouped = ", ".join(["1", *(_group(c, schema) for c in query.group_by)])
        params = period_params + params
    sql = (
        f'SELECT {select}{figure} AS "value", {ids} FROM "{schema.sql_name}" '
        f"WHERE {' AND '.join(where) or true}"
        + (f" GROUP BY {grouped}" if grouped else "")
        + " HAVING count(*) > 0"
    )
    order_terms = []
    if query.order is not None:
        order_terms.append(dialect.nulls_last.format(order=query.order.value.upper()))
    if period_label:
        order_terms.append(f'min("{dated_by}")')
    if groups:
        order_terms.append(groups)
    if order_terms:
        sql += " ORDER BY " + ", ".join(order_terms)
    sql += f" LIMIT {mark}"
    if limit is not None and query.order is not None:
        limit += TIES  # a ranking keeps the groups tied with its last one
    params.append(min(limit, max_rows + 1) if limit is not None else max_rows + 1)
    columns = (*(["period"] if period_label else []), *query.group_by, measure.name)
    return CompiledQuery(sql, tuple(params), columns, single)


_BUCKETS = {"year": 4, "quarter": 7, "month": 7}
"""Periods of a dated time column a query may group by: the length of the ISO text they
are read from (a quarter from its month: "2026-07" is "2026-Q3")."""


def _bucket(column: str, schema: TableSchema) -> int | None:
    """The ISO text length of ``column`` when it names a period of the time column that
    is no column of its own ("year"; "month" of a date column), else None. A time
    column of years is its own year and has no months or quarters."""
    if schema.time_column is None or column in schema.columns:
        return None
    if schema.yearly and column in _BUCKETS and column != "year":
        raise InvalidQueryError(
            f"table {schema.name!r} holds years only ({schema.time_column}); "
            f"it cannot group by {column}"
        )
    return _BUCKETS.get(column)


def _group(column: str, schema: TableSchema) -> str:
    """The SQL of a grouped column: the column, or its year, quarter or month of the time
    column ("2026", "2026-Q3", "2026-07", stored as ISO text on both stores); the year of
    a time column of years is the column."""
    length = _bucket(column, schema)
    if length is None:
        return f'"{column}"'
    if schema.yearly:
        return f'"{schema.time_column}"'
    if column == "quarter":
        time = f'"{schema.time_column}"'
        number = f"((CAST(substr({time}, 6, 2) AS INTEGER) + 2) / 3)"
        return f"substr({time}, 1, 4) || '-Q' || {number}"
    return f'substr("{schema.time_column}", 1, {length})'


def _periods(
    query: TableQuery,
    schema: TableSchema,
    column: str | None,
    where: list[str],
    params: list[str | float],
    dialect: Dialect,
) -> tuple[str, list[str | float]]:
    """For a comparison of periods: the SQL naming each row's period (and its params),
    after adding to ``where`` and ``params`` the condition keeping their rows only."""
    if not query.periods:
        return "", []
    mark = dialect.placeholder
    if column is None:
        raise InvalidQueryError(f"table {schema.name!r} has no time column; it has no periods")
    if query.time_from is not None or query.time_to is not None:
        raise InvalidQueryError("a comparison of periods takes no time window of its own")
    if len(query.periods) < 2 or len({p.label for p in query.periods}) < len(query.periods):
        raise InvalidQueryError("a comparison of periods needs two or more, named apart")
    kind = schema.columns[column]
    tests, bounds = [], []
    for period in query.periods:
        if not (isinstance(period.start, date) and isinstance(period.end, date)):
            raise InvalidQueryError(f"period {period.label!r} needs a start and an end date")
        tests.append(f'("{column}" >= {mark} AND "{column}" <= {mark})')
        bounds += [_time_text(period.start, kind), _time_text(period.end, kind)]
    where.append(f"({' OR '.join(tests)})")
    params += bounds
    cases = " ".join(f"WHEN {test} THEN {mark}" for test in tests)
    labels: list[str | float] = []
    for period, start, end in zip(query.periods, bounds[::2], bounds[1::2], strict=True):
        labels += [start, end, period.label]
    return f"CASE {cases} END", labels


def _one_time_each(query: TableQuery, schema: TableSchema, dated_by: str | None) -> bool:
    """Whether every figure of a measure that is its latest (earliest) by its own
    aggregation is of one time of ``dated_by``: grouped by that column ("the population
    per year" of a table of years), or periods compared that are one year each of a time
    column of years ("1990 vs 2000"). The latest rows of each figure are then all its
    rows, not those of the latest time overall. Asked for in so many words ("the first
    order ... and on what date": grouped by its date to name it), it stays the one time."""
    if dated_by is None or query.aggregation is not None:
        return False
    if dated_by in query.group_by:
        return True
    if not (schema.yearly and dated_by == schema.time_column):
        return False
    return (
        "year" in query.group_by
        or bool(query.periods)
        and all(p.start.year == p.end.year for p in query.periods)
    )


def _dated_by(query: TableQuery, schema: TableSchema) -> str | None:
    """The date column the query selects rows by (its ``dated_by``, checked to be a date
    or month column of the schema), else the table's time column."""
    column = query.dated_by
    if column is None or column == schema.time_column:
        return schema.time_column
    if schema.columns.get(column) not in (ColumnType.DATE, ColumnType.MONTH):
        dates = [c for c, k in schema.columns.items() if k in (ColumnType.DATE, ColumnType.MONTH)]
        raise InvalidQueryError(
            f"dated_by {column!r} is no date or month column of table {schema.name!r}; "
            f"its date columns: {', '.join(dates) or 'none'}"
        )
    return column


def _expression(tokens: tuple[str, ...], dialect: Dialect) -> str:
    """The SQL of a measure's (already validated) tokens; columns read as REAL so that a
    ratio of integer columns does not truncate, and (on PostgreSQL) a divisor of zero
    gives NULL, as on SQLite."""
    if len(tokens) == 1:
        return tokens[0] if tokens[0][0].isdigit() else f'"{tokens[0]}"'
    return _arithmetic(tokens, dialect)


def _arithmetic(tokens: tuple[str, ...], dialect: Dialect) -> str:
    parts = []
    at = 0
    while at < len(tokens):
        token = tokens[at]
        if token == "/" and dialect.null_division:
            end = _operand_end(tokens, at + 1)
            parts += ["/", f"NULLIF({_arithmetic(tokens[at + 1 : end], dialect)}, 0)"]
            at = end
            continue
        if token in _OPERATORS or token[0].isdigit():
            parts.append(token)
        else:
            parts.append(dialect.as_real.format(column=token))
        at += 1
    return " ".join(parts)


def _operand_end(tokens: tuple[str, ...], start: int) -> int:
    """The end (exclusive) of the operand starting at ``start``: signs, then one column,
    number or parenthesised group."""
    at = start
    while at < len(tokens) - 1 and tokens[at] in ("+", "-"):
        at += 1
    if tokens[at] == "(":
        depth = 0
        for end in range(at, len(tokens)):
            depth += {"(": 1, ")": -1}.get(tokens[end], 0)
            if depth == 0:
                return end + 1
    return at + 1


def _equals(
    column: str, kind: ColumnType, value: object, schema: TableSchema, dialect: Dialect
) -> str:
    if kind.numeric:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InvalidQueryError(
                f"table {schema.name!r}: column {column!r} holds numbers; filter value "
                f"{value!r} is not one"
            )
        return f'"{column}" = {dialect.placeholder}'
    if not isinstance(value, str):
        raise InvalidQueryError(
            f"table {schema.name!r}: column {column!r} holds {kind}; filter value "
            f"{value!r} is not text"
        )
    return dialect.equals_nocase.format(column=column)


def _time_text(bound: date, kind: ColumnType) -> str | int:
    """A time bound as the time column holds it: the ISO date, the month, or (a column
    of years) the year the day is in; the reader of the question declines a period
    that is not whole months or years of such a column."""
    if kind is ColumnType.INTEGER:
        return bound.year
    return f"{bound.year:04d}-{bound.month:02d}" if kind is ColumnType.MONTH else bound.isoformat()


def _undeclared(schema: TableSchema, doing: str, column: str) -> InvalidQueryError:
    return InvalidQueryError(
        f"table {schema.name!r}: cannot {doing} {column!r}, which is not a declared "
        f"dimension ({', '.join(d.column for d in schema.dimensions) or 'none'})"
    )


def authorizer(
    schema: TableSchema,
) -> Callable[[int, str | None, str | None, str | None, str | None], int]:
    """An authorizer allowing a SELECT that reads the declared columns (and rowid) of
    ``schema``'s table in the main database and calls the aggregate functions; nothing else."""
    table = schema.sql_name
    columns = frozenset(schema.columns) | {"ROWID", "rowid"}

    def decide(
        action: int, arg1: str | None, arg2: str | None, database: str | None, _trigger: str | None
    ) -> int:
        if action == sqlite3.SQLITE_SELECT:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_READ and database == "main" and arg1 == table:
            return sqlite3.SQLITE_OK if arg2 in columns else sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in _FUNCTIONS:
            return sqlite3.SQLITE_OK
        return sqlite3.SQLITE_DENY

    return decide


_STORED_NAMES = "SELECT name FROM sqlite_schema UNION SELECT name FROM temp.sqlite_schema"


@dataclass(frozen=True)
class SqlResult:
    """The rows of a vetted raw SELECT: its columns as named, and the declared tables read."""

    sql: str
    tables: tuple[str, ...]
    """The declared tables (schema names) the statement read, in order of first read."""
    columns: tuple[str, ...]
    rows: tuple[tuple[object, ...], ...]


def sql_authorizer(
    schemas: tuple[TableSchema, ...], read: list[str], stored: frozenset[str]
) -> Callable[[int, str | None, str | None, str | None, str | None], int]:
    """An authorizer allowing a SELECT (recursive CTEs included) that reads declared
    columns (and rowid) of declared tables in the main database and calls whitelisted
    functions; each declared table read is appended to ``read``.

    SQLite reports a table read for no column (``count(*)``, a CTE) with an empty column
    name and no database: allowed for a declared table or a name the database does not
    hold (a CTE's), refused for the ``stored`` names (the store's own tables)."""
    by_sql = {s.sql_name: s for s in schemas}
    columns = {s.sql_name: frozenset(s.columns) | {"ROWID", "rowid", ""} for s in schemas}
    lowered = frozenset(n.lower() for n in stored)

    def decide(
        action: int, arg1: str | None, arg2: str | None, database: str | None, _trigger: str | None
    ) -> int:
        if action in (sqlite3.SQLITE_SELECT, sqlite3.SQLITE_RECURSIVE):
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_READ and database == "main" and arg1 in by_sql:
            if arg2 not in columns[arg1]:  # "" is a read of no column (count(*))
                return sqlite3.SQLITE_DENY
            if by_sql[arg1].name not in read:
                read.append(by_sql[arg1].name)
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_READ and arg2 == "" and database is None and arg1:
            if arg1 in by_sql:
                if by_sql[arg1].name not in read:
                    read.append(by_sql[arg1].name)
                return sqlite3.SQLITE_OK
            undeclared = arg1.lower() in lowered or arg1.lower().startswith("sqlite_")
            return sqlite3.SQLITE_DENY if undeclared else sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in _SQL_FUNCTIONS:
            return sqlite3.SQLITE_OK
        return sqlite3.SQLITE_DENY

    return decide


class TableReader:
    """Runs table queries on read-only connections of their own (one per thread)."""

    offers_sql = True
    """``run_sql`` runs a proposed SELECT under the SQLite authorizer (the LLM fallback)."""

    def __init__(
        self,
        store: Store,
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
        max_rows: int = DEFAULT_MAX_ROWS,
    ) -> None:
        self._store = store
        self.tables = Tables(store)
        self.time_limit = time_limit
        self.max_rows = max_rows
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[sqlite3.Connection] = []

    def connection(self) -> sqlite3.Connection:
        """This thread's read-only connection (the store's migrations applied first)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            self._store.reader()  # creates and migrates the database if it is new
            conn = _open_read_only(self._store.path)
            self._local.conn = conn
            with self._lock:
                self._connections.append(conn)
        return conn

    def run(self, query: TableQuery) -> TableResult:
        """The rows of ``query``: NotFoundError for an unknown table, InvalidQueryError
        for anything its schema does not declare or a query over the time limit."""
        schema = self.tables.schema(query.table)
        compiled = compile_query(query, schema, max_rows=self.max_rows)
        conn = self.connection()
        deadline = time.monotonic() + self.time_limit
        conn.set_authorizer(authorizer(schema))
        conn.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_STEPS)
        try:
            fetched = conn.execute(compiled.sql, compiled.params).fetchmany(self.max_rows + 1)
        except sqlite3.OperationalError as exc:
            if "interrupted" in str(exc):
                raise InvalidQueryError(
                    f"the query on table {schema.name!r} took longer than "
                    f"{self.time_limit:g} s and was stopped; narrow it with filters or a "
                    "time window"
                ) from exc
            raise self._store.translate(exc, f"querying table {schema.name!r}") from exc
        except sqlite3.Error as exc:
            raise self._store.translate(exc, f"querying table {schema.name!r}") from exc
        finally:
            conn.set_progress_handler(None, 0)
            conn.set_authorizer(_deny)  # between queries the connection may do nothing
        return _result(query, compiled, fetched, self.max_rows)

    def run_sql(self, sql: str, schemas: tuple[TableSchema, ...]) -> SqlResult:
        """The rows of one raw SELECT over the declared ``schemas``: InvalidQueryError
        when it touches anything else, is not one statement, runs past the time limit or
        returns more than ``max_rows`` rows. Runs on the read-only connection only."""
        conn = self.connection()
        stored = frozenset(r[0] for r in self._store.reader().execute(_STORED_NAMES))
        read: list[str] = []
        deadline = time.monotonic() + self.time_limit
        conn.set_authorizer(sql_authorizer(schemas, read, stored))
        conn.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_STEPS)
        try:
            cursor = conn.execute(sql)
            fetched = cursor.fetchmany(self.max_rows + 1)
            columns = tuple(d[0] for d in cursor.description or ())
        except (sqlite3.Error, sqlite3.Warning) as exc:
            if "interrupted" in str(exc):
                raise InvalidQueryError(
                    f"it ran longer than the {self.time_limit:g} s time limit and was stopped"
                ) from exc
            if "not authorized" in str(exc) or "prohibited" in str(exc):
                raise InvalidQueryError(
                    f"it reads or does something outside the declared tables and columns ({exc})"
                ) from exc
            raise InvalidQueryError(f"SQLite refused it: {exc}") from exc
        finally:
            conn.set_progress_handler(None, 0)
            conn.set_authorizer(_deny)
        if not columns:
            raise InvalidQueryError("it is not a query that returns rows")
        if len(fetched) > self.max_rows:
            raise InvalidQueryError(f"it returned more than the {self.max_rows}-row cap")
        if not read:
            raise InvalidQueryError("it reads none of the declared tables")
        return SqlResult(sql, tuple(read), columns, tuple(tuple(r) for r in fetched))

    def close(self) -> None:
        with self._lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()


class PostgresTableReader:
    """Runs table queries on the PostgreSQL store: compiled as on SQLite (the POSTGRES
    dialect: identifiers from the schema only, values bound), run in a READ ONLY
    transaction under ``SET LOCAL statement_timeout`` with the same row cap.

    Raw SQL (``run_sql``, the LLM fallback for questions the planner cannot express) is
    not offered: PostgreSQL has no authorizer to confine a free SELECT to the declared
    tables and columns, so on this store such a question gets ``no_answer``."""

    offers_sql = False

    def __init__(
        self,
        store: PostgresStore,
        *,
        time_limit: float = DEFAULT_TIME_LIMIT,
        max_rows: int = DEFAULT_MAX_ROWS,
    ) -> None:
        from ragcore.storage.postgres.tables import PostgresTables

        self.tables: PostgresTables = PostgresTables(store)
        self.time_limit = time_limit
        self.max_rows = max_rows

    def run(self, query: TableQuery) -> TableResult:
        """The rows of ``query``: NotFoundError for an unknown table, InvalidQueryError
        for anything its schema does not declare or a query over the time limit."""
        schema = self.tables.schema(query.table)
        compiled = compile_query(query, schema, max_rows=self.max_rows, dialect=POSTGRES)
        fetched = self.tables.select(
            schema.name,
            compiled.sql,
            compiled.params,
            time_limit=self.time_limit,
            max_rows=self.max_rows + 1,
        )
        return _result(query, compiled, fetched, self.max_rows)

    def run_sql(self, sql: str, schemas: tuple[TableSchema, ...]) -> SqlResult:
        """Refused: see the class docstring."""
        raise InvalidQueryError(
            "model-proposed SQL runs on the SQLite store only (its authorizer confines it "
            "to the declared tables); the PostgreSQL store answers planned queries only"
        )

    def close(self) -> None:
        """Nothing of its own to close: connections are the store's pool's."""


AnyTableReader = TableReader | PostgresTableReader


def _result(
    query: TableQuery, compiled: CompiledQuery, fetched: list, max_rows: int
) -> TableResult:
    """The fetched rows (one more than ``max_rows`` marks a truncation) as a result; of
    a ranking, its ``limit`` first and those tied with the last of them."""
    width = len(compiled.columns)
    if query.limit is not None and query.order is not None and len(fetched) > query.limit:
        last, kept = fetched[query.limit - 1][width - 1], query.limit
        while kept < len(fetched) and last is not None and fetched[kept][width - 1] == last:
            kept += 1
        fetched = fetched[:kept]
    truncated = len(fetched) > max_rows
    fetched = fetched[:max_rows]
    rows = tuple(tuple(row[:width]) for row in fetched)
    row_ids = tuple(_ids(row[width], compiled.single_row_ids) for row in fetched)
    return TableResult(
        query, compiled.sql, compiled.params, compiled.columns, rows, row_ids, truncated
    )


def _open_read_only(path: Path) -> sqlite3.Connection:
    uri = f"{path.resolve().as_uri()}?mode=ro"
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=30)
    conn.execute("PRAGMA query_only = ON")
    # typeshed's aggregate protocol says finalize returns int; SQLite takes any value
    conn.create_aggregate("median", 1, _Median)  # type: ignore[arg-type]
    conn.set_authorizer(_deny)
    return conn


class _Median:
    """SQLite has no median: the middle of a group's values (NULLs left out), the mean
    of the two middle ones for an even count, as PostgreSQL's percentile_cont(0.5)."""

    def __init__(self) -> None:
        self.values: list[float] = []

    def step(self, value: object) -> None:
        if isinstance(value, (int, float)):
            self.values.append(value)

    def finalize(self) -> float | None:
        return statistics.median(self.values) if self.values else None


def _deny(*_args: object) -> int:
    return sqlite3.SQLITE_DENY


def _ids(value: object, single: bool) -> tuple[int, ...]:
    if value is None:
        return ()
    if single:
        return (int(str(value)),)
    return tuple(sorted(map(int, str(value).split(","))))
