"""Table schemas: what a schema file may declare, and the precise error for what it may not."""

from __future__ import annotations

import pytest

from ragcore.errors import InvalidInputError
from ragcore.tabular import (
    Aggregation,
    ColumnType,
    TableQuery,
    load_schema,
    parse_schema,
    tokenize,
)

GOOD = """
description = "stock"
time_column = "day"
[columns]
region = "text"
qty = "integer"
usage = "real"
day = "date"
[dimensions.region]
synonyms = ["area"]
[dimensions.zone]
column = "region"
[measures.qty]
unit = "units"
synonyms = ["stock"]
[measures.cover]
expression = "qty / (usage + 0.5) * 2"
unit = "days"
aggregation = "min"
"""


def test_a_schema_file_declares_columns_dimensions_and_measures(tmp_path):
    path = tmp_path / "stock.toml"
    path.write_text(GOOD, "utf-8")
    schema = load_schema(path)
    assert schema.name == "stock"  # the file's stem when the file names none
    assert schema.sql_name == "data_stock"
    assert schema.columns == {
        "region": ColumnType.TEXT,
        "qty": ColumnType.INTEGER,
        "usage": ColumnType.REAL,
        "day": ColumnType.DATE,
    }
    assert schema.dimension("region").synonyms == ("area",)
    assert schema.measure("qty").aggregation is Aggregation.SUM
    cover = schema.measure("cover")
    assert cover.derived and cover.columns == ("qty", "usage")
    assert cover.tokens == ("qty", "/", "(", "usage", "+", "0.5", ")", "*", "2")
    with pytest.raises(InvalidInputError, match="no measure 'price'.*qty, cover"):
        schema.measure("price")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ('expression = "qty / (usage + 0.5) * 2"', 'expression = "qty; DROP TABLE x"'),
            r"key 'measures.cover.expression'.*has '; DROP TABLE x' at character 4",
        ),
        (
            ('expression = "qty / (usage + 0.5) * 2"', 'expression = "qty / count(usage)"'),
            r"measures.cover.expression.*not a complete arithmetic expression",
        ),
        (
            ('expression = "qty / (usage + 0.5) * 2"', 'expression = "qty / price"'),
            r"key 'measures.cover.expression' names column 'price'.*not declared",
        ),
        (
            ('expression = "qty / (usage + 0.5) * 2"', 'expression = "qty / region"'),
            r"column 'region' is text, not a number",
        ),
        (
            ('[dimensions.zone]\ncolumn = "region"', '[dimensions.zone]\ncolumn = "zone"'),
            r"key 'dimensions.zone.column' names column 'zone'",
        ),
        (
            ('time_column = "day"', 'time_column = "usage"'),
            r"time column must be a date or month column, or an integer column of years",
        ),
        (('time_column = "day"', 'time_column = "when"'), r"key 'time_column' names column 'when'"),
        (('qty = "integer"', 'qty = "int"'), r"key 'columns.qty': unknown type 'int'"),
        (('qty = "integer"', 'rowid = "integer"'), r"key 'columns.rowid'"),
        (('aggregation = "min"', 'aggregation = "mode"'), r"unknown aggregation 'mode'"),
        (('unit = "units"', 'unit = "units"\nformula = "x"'), r"'measures.qty.formula' is not a"),
        (('description = "stock"', 'description = ""'), r"key 'description'"),
        (('synonyms = ["area"]', 'synonyms = "area"'), r"dimensions.region.synonyms"),
        (
            ('synonyms = ["area"]', 'synonyms = ["area"]\nwithin = "site"'),
            r"'dimensions.region.within': 'site' is not another dimension",
        ),
        (('synonyms = ["area"]', 'within = "region"'), r"'region' is not another dimension"),
        (("[columns]", 'name = "Bad Name"\n[columns]'), r"table name 'Bad Name' is not usable"),
    ],
)
def test_a_bad_schema_is_an_error_naming_the_file_and_key(tmp_path, change, message):
    old, new = change
    assert old in GOOD
    path = tmp_path / "stock.toml"
    path.write_text(GOOD.replace(old, new, 1), "utf-8")
    with pytest.raises(InvalidInputError, match=message) as caught:
        load_schema(path)
    assert str(path) in str(caught.value)


def test_latest_needs_a_time_column_and_a_schema_needs_a_measure():
    no_time = GOOD.replace('time_column = "day"\n', "").replace(
        'aggregation = "min"', 'aggregation = "latest"'
    )
    with pytest.raises(InvalidInputError, match="'latest' needs a time_column"):
        parse_schema(no_time, "s.toml", default_name="s")
    no_measures = GOOD.split("[measures.qty]")[0]
    with pytest.raises(InvalidInputError, match="at least one measure"):
        parse_schema(no_measures, "s.toml", default_name="s")
    with pytest.raises(InvalidInputError, match="not valid TOML"):
        parse_schema("columns = [", "s.toml", default_name="s")


@pytest.mark.parametrize("expression", ["a / b", "-a + 2.5 * (b - c)", "((a))", "a*b/c-d"])
def test_tokenizer_accepts_arithmetic(expression):
    assert "".join(tokenize(expression, "f", "k")) == expression.replace(" ", "")


@pytest.mark.parametrize(
    "expression", ["", "a /", "(a", "a b", "a ** b", "a % b", "'a'", "a.b", "1e5", "a)"]
)
def test_tokenizer_rejects_anything_else(expression):
    with pytest.raises(InvalidInputError, match="f: key 'k'"):
        tokenize(expression, "f", "k")


def test_a_table_query_is_frozen_and_defaults_to_the_measure_s_aggregation():
    query = TableQuery("stock", "qty")
    assert query.aggregation is None and query.group_by == () and query.limit is None
    with pytest.raises(AttributeError):
        query.limit = 3  # type: ignore[misc]


def _schema(name: str, description: str, dimension: str = "site") -> str:
    return f"""
name = "{name}"
description = "{description}"
[columns]
{dimension} = "text"
qty = "integer"
[dimensions.{dimension}]
synonyms = ["{dimension.replace("_", " ")}", "{dimension.split("_")[0]}"]
[measures.qty]
unit = "units"
"""


@pytest.mark.parametrize(
    ("name", "description", "dimension", "nouns"),
    [
        ("purchase_orders", "Delivered purchase orders per supplier", "site", ("orders",)),
        # the description's head, words in parentheses left out, before a preposition
        (
            "resort_stays",
            "Completed (not cancelled) bookings at a resort",
            "site",
            ("stays", "bookings"),
        ),
        # "one row per ..." names a row too
        ("stays", "Stays at a hotel, one row per booking by date", "site", ("stays", "bookings")),
        # a table named for what a dimension holds: its rows are observations of storms
        ("atlantic_storms", "Storm track observations from NOAA", "storm_name", ("observations",)),
        ("line_energy", "Monthly energy use per site", "site", ()),
    ],
)
def test_rows_are_named_by_the_table_s_name_and_its_description(
    name, description, dimension, nouns
):
    schema = parse_schema(_schema(name, description, dimension), name)
    assert schema.rows_nouns == nouns
    counting = schema.counting
    if nouns:
        assert counting is not None and all(f"number of {n}" in counting.synonyms for n in nouns)
    else:
        assert counting is None
