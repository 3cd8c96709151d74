"""The vocabulary of structured data beside documents: a table's schema and a query on it.

A table's schema file (TOML) says, for the agents, what a table holds: its columns and
their types, which columns are dimensions (things a question filters or groups by, with
synonyms: "region" ↔ "area"), and which are measures (numbers a question asks for, with
unit, default aggregation and synonyms: "shortage rate", "stock-out rate"). A derived
measure is an arithmetic expression over declared numeric columns
(``days_of_cover = "stock_qty / avg_daily_usage"``). A ``TableQuery`` names only things
the schema declares, so whatever compiles it into SQL takes every identifier from the
schema, never from a question::

    name = "inventory"                      # optional: defaults to the file's stem
    description = "Spare-parts stock per part, model, region and warehouse"
    time_column = "snapshot_date"           # optional; a date or month column, or an
                                            # integer column of years (yearly figures)

    [columns]
    part_number = "text"
    region = "text"
    stock_qty = "integer"
    avg_daily_usage = "real"
    snapshot_date = "date"

    [dimensions.region]
    synonyms = ["area"]
    description = "Sales region"

    [measures.stock_qty]
    unit = "units"
    aggregation = "sum"
    synonyms = ["stock", "stock level"]

    [measures.days_of_cover]
    expression = "stock_qty / avg_daily_usage"
    unit = "days"
    aggregation = "min"

Every declared column is required in every row; columns of the data file that the
schema does not declare are not loaded. An integer time column holds years (``YEARS``,
checked at load): a table of yearly figures ("year = 1990") answers for years, ranges
of them and periods made of whole years, and declines a month or a week.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from types import MappingProxyType

from ragcore.errors import InvalidInputError, quoted
from ragcore.text.value_words import plural, singular
from ragcore.types import _Vocabulary

MAX_TABLE_NAME_CHARS = 48
YEARS = range(1000, 10000)
"""The values an integer time column may hold: years of four digits."""
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_RESERVED = frozenset({"rowid", "oid", "_rowid_", "value"})  # names the query SQL uses
_GLOSS = re.compile(r"(?<![\w-])([^\W_][\w./-]*)\s*\(([^()]+)\)")
"""A value glossed with its name in a dimension's description: "EWR (Newark)"."""
_TOKEN = re.compile(r"\s*(?:([A-Za-z_][A-Za-z0-9_]*)|(\d+(?:\.\d+)?)|([-+*/()]))")
_HEAD = re.compile(
    r"^\s*(.*?)(?:\s+(?:per|at|in|from|of|for|by|with|on|over|during|across)\s|[:;,(]|$)",
    re.IGNORECASE | re.DOTALL,
)
"""A description's head: "Instrument calibrations" of "Instrument calibrations per
instrument tag, ...", "Completed bookings" of "Completed bookings at a resort hotel":
what one row is."""
_GLOSSES = re.compile(r"\s*\([^()]*\)")
"""Words in parentheses: "Completed (not cancelled) bookings" opens with "bookings"."""
_PER_ROW = re.compile(
    r"\b(?:one|each|a)\s+row\s+(?:per|for\s+(?:each|every|one|a))\s+([a-z]+)", re.IGNORECASE
)
"""A description naming what one row is: "one row per booking"."""


class ColumnType(_Vocabulary):
    """A column's type; dates and months are stored as ISO text, so they sort as text."""

    TEXT = "text"
    INTEGER = "integer"
    REAL = "real"
    DATE = "date"
    """``YYYY-MM-DD``."""
    MONTH = "month"
    """``YYYY-MM`` (monthly figures)."""

    @property
    def numeric(self) -> bool:
        return self in (ColumnType.INTEGER, ColumnType.REAL)

    @property
    def temporal(self) -> bool:
        return self in (ColumnType.DATE, ColumnType.MONTH)


class Aggregation(_Vocabulary):
    """How a measure's values over the selected rows become one figure."""

    SUM = "sum"
    AVG = "avg"
    MIN = "min"
    MAX = "max"
    COUNT = "count"
    MEDIAN = "median"
    """The middle value of the selected rows (the mean of the two middle ones)."""
    SHARE = "share"
    """A group's total as a percentage of the total over every group: the whole keeps
    the query's filters but those on its grouped columns ("the share of 2025's cost
    spent at Hillcrest": grouped and filtered by site, over all sites of 2025). Only for
    measures that add up (own aggregation sum or count)."""
    LATEST = "latest"
    """The figure at the most recent time of the selected rows: those rows only, combined
    by the measure's own aggregation (summed when that is ``latest`` too), e.g. a stock
    level rather than a flow. Needs a time column."""
    EARLIEST = "earliest"
    """The figure at the earliest time of the selected rows, combined as for ``latest``:
    "the first order of QuickFix Industrial" is the row (or rows) of its earliest order
    date. Needs a time column."""


class Order(_Vocabulary):
    """Ranking direction: ``desc`` for "highest", "top 3"; ``asc`` for "lowest"."""

    DESC = "desc"
    ASC = "asc"


@dataclass(frozen=True)
class Dimension:
    """A column a question filters or groups by ("East region", "per model")."""

    column: str
    synonyms: tuple[str, ...] = ()
    description: str = ""
    within: str | None = None
    """The dimension its values are unique within: with ``within = "site"``, "Line 2" at
    two sites is two lines, so a query grouping by line or naming one groups by site too."""

    @property
    def aliases(self) -> tuple[tuple[str, str], ...]:
        """(name, value) of each value the description glosses with a proper name:
        "JFK (John F. Kennedy), LGA (LaGuardia)" -> ("John F. Kennedy", "JFK"),
        ("LaGuardia", "LGA"). Only a gloss of capitalised words without digits is a
        name: "P1 (most urgent)" and "PX-200 (not the same as PX-2000)" are no names."""
        out = []
        for m in _GLOSS.finditer(self.description):
            value, gloss = m.group(1), " ".join(m.group(2).split())
            words = gloss.split()
            if words and all(w[:1].isupper() for w in words) and not re.search(r"\d", gloss):
                out.append((gloss, value))
        return tuple(out)


@dataclass(frozen=True)
class Measure:
    """A number a question asks for: a column, or an expression over numeric columns."""

    name: str
    column: str | None = None
    expression: str | None = None
    unit: str = ""
    aggregation: Aggregation = Aggregation.SUM
    synonyms: tuple[str, ...] = ()
    description: str = ""

    @property
    def derived(self) -> bool:
        return self.expression is not None

    @property
    def tokens(self) -> tuple[str, ...]:
        """The expression's tokens (identifiers, numbers, operators), or the column."""
        if self.expression is None:
            return (self.column or self.name,)
        return tuple(tokenize(self.expression, "measure", self.name))

    @property
    def counts_rows(self) -> bool:
        """Whether the measure counts rows (``expression = "1"``: "number of orders")."""
        return self.tokens == ("1",)

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns this measure reads, in order of first use."""
        names = [t for t in self.tokens if _IDENTIFIER.match(t)]
        return tuple(dict.fromkeys(names))


@dataclass(frozen=True)
class TableSchema:
    """What one table holds, as its schema file declares it."""

    name: str
    description: str
    time_column: str | None
    columns: Mapping[str, ColumnType]
    dimensions: tuple[Dimension, ...] = ()
    measures: tuple[Measure, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "columns", MappingProxyType(dict(self.columns)))

    @property
    def yearly(self) -> bool:
        """Whether the time column holds years (an integer column): its figures are
        per year, so a period is read as the years it covers."""
        column = self.time_column
        return column is not None and self.columns[column] is ColumnType.INTEGER

    @property
    def sql_name(self) -> str:
        """The SQLite table holding the rows."""
        return f"data_{self.name}"

    @property
    def rows_noun(self) -> str | None:
        """What the table's rows are called, first of ``rows_nouns``; None when nothing
        names them."""
        return next(iter(self.rows_nouns), None)

    @property
    def rows_nouns(self) -> tuple[str, ...]:
        """Every plural naming the table's rows: the one its name ends in ("orders" of
        purchase_orders) unless a dimension goes by it (each row of "atlantic_storms" is
        an observation of a storm, the storm_name dimension: "how many storms" counts no
        rows); the one its description names a row by ("... one row per booking ...");
        and the one its description opens with, before "per", a preposition or the first
        punctuation, words in parentheses left out ("calibrations" of calibration_log
        described "Instrument calibrations per instrument tag, ...", "bookings" of
        "Completed (not cancelled) bookings at a resort hotel"). A word that is a whole
        name of a column, dimension or measure is none ("sales" of "Monthly home sales":
        the measure, not the rows)."""
        names = [*self.columns, *(s for d in self.dimensions for s in d.synonyms)]
        names += [n for m in self.measures for n in (m.name, *m.synonyms)]
        taken = {singular(n.strip().lower().replace("_", " ")) for n in names}
        dimensions = {
            singular(n.strip().lower().replace("_", " "))
            for d in self.dimensions
            for n in (d.column, *d.synonyms)
        }
        found: list[str] = []
        last = self.name.split("_")[-1]
        if singular(last) != last and singular(last) not in dimensions:
            taken.discard(singular(last))  # the table's own name: its rows, whatever else
            found.append(last)
        if (per := _PER_ROW.search(self.description)) is not None:
            found.append(plural(per.group(1).lower()))
        said = self.rows_head.split()
        word = said[-1].lower() if said else ""
        # a name ("Monthly home sales in Texas") is no noun of rows
        if word.isalpha() and singular(word) != word and not (len(said) > 1 and said[-1] != word):
            found.append(word)
        return tuple(dict.fromkeys(w for w in found if w.isalpha() and singular(w) not in taken))

    @property
    def rows_head(self) -> str:
        """The words the description opens with, naming what one row is: "Completed
        bookings" of "Completed (not cancelled) bookings at a resort hotel, ..."."""
        head = _HEAD.match(_GLOSSES.sub(" ", self.description))
        return head.group(1).strip() if head else ""

    @property
    def counting(self) -> Measure | None:
        """The measure counting rows that a question may ask for when the schema declares
        none ("how many stores issues" of stores_issues): ``<row>_count``, named by the
        rows' names (``rows_nouns``). None when the schema declares one, when its rows
        have no name, or when a declared measure already goes by one of them
        ("shortages" may be a measure of its own)."""
        rows = self.rows_nouns
        if not rows or any(m.counts_rows for m in self.measures):
            return None
        said = {singular(n.strip().lower()) for m in self.measures for n in (m.name, *m.synonyms)}
        rows = tuple(r for r in rows if singular(r) not in said)
        name = f"{singular(rows[0])}_count" if rows else ""
        if not rows or name in self.columns:
            return None
        return Measure(
            name,
            expression="1",
            unit=rows[0],
            aggregation=Aggregation.SUM,
            synonyms=tuple(s for r in rows for s in (f"number of {r}", f"{r} count")),
            description=f"Number of {rows[0]} (each row counts one)",
        )

    @property
    def aliases(self) -> tuple[tuple[str, str, str], ...]:
        """(name, column, value) of the names the dimensions' descriptions give their
        values (``Dimension.aliases``): each whole gloss ("Delta Air Lines") and each of
        its capitalised words of three letters or more that no other gloss of the column
        has and no name of the schema is made of ("Delta", not "Air" of two glosses nor
        "Airlines" of the "airline" dimension). A question names a value by one only
        where it writes it capitalised, as a name."""
        own = {
            singular(w.lower())
            for n in (
                *self.columns,
                *(s for d in self.dimensions for s in d.synonyms),
                *(n for m in self.measures for n in (m.name, *m.synonyms)),
            )
            for w in re.split(r"[\W_]+", n)
            if w
        }
        out: list[tuple[str, str, str]] = []
        for dimension in self.dimensions:
            glosses = dimension.aliases
            out += [(gloss, dimension.column, value) for gloss, value in glosses]
            seen: dict[str, set[str]] = {}
            for gloss, value in glosses:
                for word in set(gloss.split()):
                    seen.setdefault(word, set()).add(value)
            for gloss, value in glosses:
                for word in dict.fromkeys(gloss.split()):
                    letters = word.strip(".")
                    if (
                        len(letters) >= 3
                        and letters.isalpha()
                        and seen[word] == {value}
                        and singular(letters.lower()) not in own
                        and word != gloss
                    ):
                        out.append((letters, dimension.column, value))
        return tuple(out)

    def measure(self, name: str) -> Measure:
        for measure in self.measures:
            if measure.name == name:
                return measure
        if (counting := self.counting) is not None and counting.name == name:
            return counting
        raise InvalidInputError(
            f"table {self.name!r} has no measure {name!r}; "
            f"its measures: {', '.join(m.name for m in self.measures) or 'none'}"
        )

    def dimension(self, column: str) -> Dimension:
        for dimension in self.dimensions:
            if dimension.column == column:
                return dimension
        raise InvalidInputError(
            f"table {self.name!r} has no dimension {column!r}; "
            f"its dimensions: {', '.join(d.column for d in self.dimensions) or 'none'}"
        )


@dataclass(frozen=True)
class Period:
    """A period a query compares with others: its name in the question ("Q2 2026") and
    its inclusive dates."""

    label: str
    start: date
    end: date


@dataclass(frozen=True)
class TableQuery:
    """One question about one table, in terms of its schema only.

    ``aggregation`` None means the measure's own. ``filters`` are (dimension column,
    value) pairs: pairs of one column are alternatives (a row with either value), those
    of different columns must all hold ("P-101 or P-1010, at Riverside"). The time
    window is inclusive and needs the table's time column. ``group_by`` names
    dimensions, the time column, or a period of the time column that is no column of
    its own ("year"; "month" of a date column). ``order`` ranks the groups by the
    figure; ``limit`` keeps the first ones ("top 3"). ``periods`` compares two or
    more periods of the time column ("Q2 2026 vs Q3 2026"): a figure each, grouped by
    the period (result column ``period``) before ``group_by``, earliest first; the rows
    are those of the periods, so it goes without a time window. ``dated_by`` names the
    date column the window, the periods and ``earliest``/``latest`` select rows by
    ("closed in 2026": closed_date); None: the table's time column. ``as_of``: the end
    of a period the question named as a value of a dimension ("the 2000 season" of a
    season column), which the filters select instead of a time window: what the
    figures are dated (selects no rows itself).
    """

    table: str
    measure: str
    aggregation: Aggregation | None = None
    group_by: tuple[str, ...] = ()
    filters: tuple[tuple[str, str | float], ...] = ()
    time_from: date | None = None
    time_to: date | None = None
    order: Order | None = None
    limit: int | None = None
    periods: tuple[Period, ...] = ()
    dated_by: str | None = None
    as_of: date | None = None


def check_table_name(name: object, source: str = "table name") -> str:
    """``name`` if it can name a table (lower-case letters, digits, ``_``)."""
    if not isinstance(name, str) or not _NAME.match(name) or len(name) > MAX_TABLE_NAME_CHARS:
        raise InvalidInputError(
            f"{source}: table name {quoted(name)} is not usable; use 1 to {MAX_TABLE_NAME_CHARS} "
            "lower-case letters, digits and '_', starting with a letter"
        )
    return name


def tokenize(expression: str, source: str, key: str) -> list[str]:
    """The tokens of a derived measure's expression: identifiers, numbers, ``+ - * / ( )``.

    Anything else, or tokens that do not form an arithmetic expression, is an
    InvalidInputError naming ``source`` and ``key``.
    """
    tokens: list[str] = []
    position = 0
    text = expression.rstrip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise InvalidInputError(
                f"{source}: key {key!r}: expression {expression!r} has {text[position:]!r} "
                "at character "
                f"{position + 1}; use column names, numbers and + - * / ( ) only"
            )
        tokens.append(next(g for g in match.groups() if g is not None))
        position = match.end()
    if not tokens or not _well_formed(tokens):
        raise InvalidInputError(
            f"{source}: key {key!r}: expression {expression!r} is not a complete "
            'arithmetic expression (e.g. "stock_qty / avg_daily_usage")'
        )
    return tokens


def _well_formed(tokens: list[str]) -> bool:
    """expr := term (("+"|"-") term)*; term := factor (("*"|"/") factor)*;
    factor := "-" factor | "(" expr ")" | identifier | number."""
    position = 0

    def factor() -> bool:
        nonlocal position
        if position >= len(tokens):
            return False
        token = tokens[position]
        position += 1
        if token == "-":
            return factor()
        if token == "(":
            if not expr() or position >= len(tokens) or tokens[position] != ")":
                return False
            position += 1
            return True
        return token not in "+-*/()"

    def chain(operand: Callable[[], bool], operators: str) -> bool:
        nonlocal position
        if not operand():
            return False
        while position < len(tokens) and tokens[position] in operators:
            position += 1
            if not operand():
                return False
        return True

    def term() -> bool:
        return chain(factor, "*/")

    def expr() -> bool:
        return chain(term, "+-")

    return expr() and position == len(tokens)


def load_schema(path: Path | str) -> TableSchema:
    """The schema in the TOML file ``path``; InvalidInputError naming the file and key."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"cannot read the table schema {path}: {exc}") from exc
    return parse_schema(text, str(path), default_name=path.stem)


def parse_schema(text: str, source: str, *, default_name: str | None = None) -> TableSchema:
    """The schema in TOML ``text`` (from ``source``, for messages)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInputError(f"{source}: not valid TOML: {exc}") from exc
    _only(
        data,
        {"name", "description", "time_column", "columns", "dimensions", "measures"},
        source,
        "",
    )
    name = check_table_name(data.get("name", default_name), source)
    description = _text(data, "description", source, "", required=True)
    columns = _columns(data.get("columns"), source)
    time_column = data.get("time_column")
    if time_column is not None:
        if not isinstance(time_column, str) or time_column not in columns:
            raise _unknown_column(source, "time_column", time_column, columns)
        if not columns[time_column].temporal and columns[time_column] is not ColumnType.INTEGER:
            raise InvalidInputError(
                f"{source}: key 'time_column': column {time_column!r} is "
                f"{columns[time_column]}; the time column must be a date or month column, "
                "or an integer column of years"
            )
    dimensions = tuple(
        _dimension(key, value, columns, source)
        for key, value in _table(data, "dimensions", source).items()
    )
    _check_within(dimensions, source)
    measures = tuple(
        _measure(key, value, columns, source)
        for key, value in _table(data, "measures", source).items()
    )
    if not measures:
        raise InvalidInputError(f"{source}: key 'measures': declare at least one measure")
    for measure in measures:
        dated = measure.aggregation in (Aggregation.LATEST, Aggregation.EARLIEST)
        if dated and time_column is None:
            raise InvalidInputError(
                f"{source}: key 'measures.{measure.name}.aggregation': "
                f"{measure.aggregation.value!r} needs a time_column"
            )
    return TableSchema(name, description, time_column, columns, dimensions, measures)


def _columns(value: object, source: str) -> dict[str, ColumnType]:
    if not isinstance(value, dict) or not value:
        raise InvalidInputError(
            f"{source}: key 'columns': declare the columns as a table of name = type "
            f"({', '.join(ColumnType.values())})"
        )
    columns = {}
    for name, kind in value.items():
        if not _IDENTIFIER.match(name) or name.lower() in _RESERVED:
            raise InvalidInputError(
                f"{source}: key 'columns.{name}': a column name is letters, digits and '_', "
                f"and not one of {', '.join(sorted(_RESERVED))}"
            )
        parsed = ColumnType.parse(kind)
        if parsed is None:
            raise InvalidInputError(
                f"{source}: key 'columns.{name}': unknown type {kind!r}; use one of "
                f"{', '.join(ColumnType.values())}"
            )
        columns[name] = parsed
    return columns


def _dimension(
    key: str, value: object, columns: Mapping[str, ColumnType], source: str
) -> Dimension:
    where = f"dimensions.{key}"
    if not isinstance(value, dict):
        raise InvalidInputError(f"{source}: key {where!r}: expected a table")
    _only(value, {"column", "synonyms", "description", "within"}, source, where)
    column = value.get("column", key)
    if column not in columns:
        raise _unknown_column(source, f"{where}.column", column, columns)
    within = value.get("within")
    if within is not None and not isinstance(within, str):
        raise InvalidInputError(f"{source}: key '{where}.within': expected a dimension's name")
    return Dimension(
        column=column,
        synonyms=_synonyms(value, source, where),
        description=_text(value, "description", source, where),
        within=within,
    )


def _check_within(dimensions: tuple[Dimension, ...], source: str) -> None:
    """``within`` names another dimension, itself within none: one level, no cycles."""
    by_column = {d.column: d for d in dimensions}
    for dimension in dimensions:
        if dimension.within is None:
            continue
        where = f"dimensions.{dimension.column}.within"
        parent = by_column.get(dimension.within)
        if parent is None or dimension.within == dimension.column:
            others = ", ".join(c for c in by_column if c != dimension.column) or "none"
            raise InvalidInputError(
                f"{source}: key {where!r}: {dimension.within!r} is not another dimension; "
                f"its dimensions: {others}"
            )
        if parent.within is not None:
            raise InvalidInputError(
                f"{source}: key {where!r}: {parent.column!r} is itself within "
                f"{parent.within!r}; name the outermost dimension"
            )


def _measure(key: str, value: object, columns: Mapping[str, ColumnType], source: str) -> Measure:
    where = f"measures.{key}"
    if not isinstance(value, dict):
        raise InvalidInputError(f"{source}: key {where!r}: expected a table")
    if not _IDENTIFIER.match(key):
        raise InvalidInputError(f"{source}: key {where!r}: a measure name is letters, digits, '_'")
    _only(
        value,
        {"column", "expression", "unit", "aggregation", "synonyms", "description"},
        source,
        where,
    )
    expression = value.get("expression")
    column = value.get("column")
    if expression is not None and column is not None:
        raise InvalidInputError(
            f"{source}: key {where!r}: give a column or an expression, not both"
        )
    if expression is None:
        column = key if column is None else column
        read = [column]
    else:
        if not isinstance(expression, str):
            raise InvalidInputError(f"{source}: key '{where}.expression': expected a string")
        read = [
            t for t in tokenize(expression, source, f"{where}.expression") if _IDENTIFIER.match(t)
        ]
    for name in read:
        if name not in columns:
            raise _unknown_column(
                source, f"{where}.{'expression' if expression else 'column'}", name, columns
            )
        if not columns[name].numeric:
            raise InvalidInputError(
                f"{source}: key {where!r}: column {name!r} is {columns[name]}, not a number"
            )
    aggregation = Aggregation.parse(value.get("aggregation", Aggregation.SUM.value))
    if aggregation is None:
        raise InvalidInputError(
            f"{source}: key '{where}.aggregation': unknown aggregation "
            f"{value.get('aggregation')!r}; use one of {', '.join(Aggregation.values())}"
        )
    return Measure(
        name=key,
        column=column,
        expression=expression,
        unit=_text(value, "unit", source, where),
        aggregation=aggregation,
        synonyms=_synonyms(value, source, where),
        description=_text(value, "description", source, where),
    )


def _only(data: dict, allowed: set[str], source: str, where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        prefix = f"{where}." if where else ""
        raise InvalidInputError(
            f"{source}: key {prefix + unknown[0]!r} is not a schema key; "
            f"use {', '.join(sorted(allowed))}"
        )


def _table(data: dict, key: str, source: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise InvalidInputError(f"{source}: key {key!r}: expected a table of named entries")
    return value


def _text(data: dict, key: str, source: str, where: str, *, required: bool = False) -> str:
    value = data.get(key, "")
    name = f"{where}.{key}" if where else key
    if not isinstance(value, str) or (required and not value.strip()):
        raise InvalidInputError(f"{source}: key {name!r}: expected a non-empty string")
    return value


def _synonyms(data: dict, source: str, where: str) -> tuple[str, ...]:
    value = data.get("synonyms", [])
    if not isinstance(value, list) or not all(isinstance(s, str) and s.strip() for s in value):
        raise InvalidInputError(f"{source}: key '{where}.synonyms': expected a list of strings")
    return tuple(value)


def _unknown_column(
    source: str, key: str, column: object, columns: Mapping[str, ColumnType]
) -> InvalidInputError:
    return InvalidInputError(
        f"{source}: key {key!r} names column {column!r}, which is not declared in "
        f"[columns] ({', '.join(columns)})"
    )


__all__ = [
    "YEARS",
    "Aggregation",
    "ColumnType",
    "Dimension",
    "Measure",
    "Order",
    "TableQuery",
    "TableSchema",
    "check_table_name",
    "load_schema",
    "parse_schema",
    "tokenize",
]
