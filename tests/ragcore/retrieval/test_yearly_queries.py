"""A table whose time is a year (an integer time column), on both stores: loaded only
when every value is a year, queried by whole years (windows, periods compared, "per
year"), never by a month or a quarter; the same rows on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from ragcore.errors import InvalidInputError, InvalidQueryError
from ragcore.retrieval.tables import AnyTableReader, PostgresTableReader, TableReader
from ragcore.storage.postgres import PostgresStore
from ragcore.storage.store import Store
from ragcore.tabular import Aggregation, Order, Period, TableQuery, parse_schema

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "yearly"
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.process)]


@pytest.fixture(scope="module")
def plain() -> Iterator[sqlite3.Connection]:
    """The fixture's rows in a plain SQLite table: the figures to expect."""
    import csv

    with open(FIXTURE / "gapminder.csv", encoding="utf-8", newline="") as file:
        rows = list(csv.reader(file))
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE TABLE g (country TEXT, continent TEXT, region TEXT, year INTEGER, "
        "life_expectancy REAL, fertility REAL, population INTEGER, gdp INTEGER)"
    )
    conn.executemany("INSERT INTO g VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows[1:])
    yield conn
    conn.close()


def _opened(request, tmp_path, kind: str) -> Iterator[AnyTableReader]:
    if kind == "sqlite":
        store: Store | PostgresStore = Store(tmp_path / "data")
        reader: AnyTableReader = TableReader(store)
    else:
        store = PostgresStore(request.getfixturevalue("postgres_url"), dimension=4)
        reader = PostgresTableReader(store)
    reader.tables.ingest(
        FIXTURE / "gapminder.csv", table="gapminder", schema=FIXTURE / "gapminder.toml"
    )
    yield reader
    reader.close()
    store.close()


@pytest.fixture(params=BACKENDS)
def reader(request, tmp_path) -> Iterator[AnyTableReader]:
    yield from _opened(request, tmp_path, request.param)


def _one(plain: sqlite3.Connection, sql: str, *params: object) -> object:
    return plain.execute(sql, params).fetchone()[0]


def test_an_integer_time_column_is_a_column_of_years():
    schema = parse_schema((FIXTURE / "gapminder.toml").read_text("utf-8"), "gapminder.toml")
    assert schema.time_column == "year" and schema.yearly
    text = '[columns]\nname = "text"\nn = "real"\n[measures.n]\n'
    with pytest.raises(InvalidInputError, match="integer column of years"):
        parse_schema(f'description = "x"\ntime_column = "name"\n{text}', "s.toml", default_name="s")


def test_a_window_of_years_reads_the_years_it_covers(reader, plain):
    # "between 1980 and 1989", "since 2000": the dates' years, both ends included
    result = reader.run(
        TableQuery(
            "gapminder",
            "gdp",
            filters=(("country", "China"),),
            time_from=date(1980, 1, 1),
            time_to=date(1989, 12, 31),
        )
    )
    expected = _one(
        plain, "SELECT sum(gdp) FROM g WHERE country = 'China' AND year BETWEEN 1980 AND 1989"
    )
    assert result.rows[0][0] == expected and len(result.row_ids[0]) == 10
    since = reader.run(
        TableQuery(
            "gapminder", "fertility", filters=(("country", "Kenya"),), time_from=date(2000, 1, 1)
        )
    )
    average = _one(plain, "SELECT avg(fertility) FROM g WHERE country = 'Kenya' AND year >= 2000")
    assert since.rows[0][0] == pytest.approx(average)


def test_per_year_groups_by_the_column_and_the_latest_is_each_year_s_own(reader, plain):
    # population's own aggregation is "latest": per year, each year's figure (not only
    # the last year's), and "year" names the column whatever the column is called
    result = reader.run(
        TableQuery(
            "gapminder",
            "population",
            group_by=("year",),
            filters=(("country", "India"),),
            time_from=date(2005, 1, 1),
        )
    )
    expected = plain.execute(
        "SELECT year, population FROM g WHERE country = 'India' AND year >= 2005 ORDER BY year"
    ).fetchall()
    assert [(int(y), p) for y, p in result.rows] == expected
    latest = reader.run(
        TableQuery(
            "gapminder", "population", filters=(("country", "India"),), time_from=date(2005, 1, 1)
        )
    )
    assert latest.rows[0][0] == expected[-1][1]


def test_which_year_ranks_the_years(reader, plain):
    result = reader.run(
        TableQuery(
            "gapminder",
            "life_expectancy",
            group_by=("year",),
            filters=(("country", "Nigeria"),),
            order=Order.DESC,
            limit=1,
        )
    )
    best = plain.execute(
        "SELECT year, life_expectancy FROM g WHERE country = 'Nigeria' "
        "ORDER BY life_expectancy DESC LIMIT 1"
    ).fetchone()
    assert (int(result.rows[0][0]), result.rows[0][1]) == pytest.approx(best)


def test_years_compared_give_a_figure_each(reader, plain):
    periods = (
        Period("1990", date(1990, 1, 1), date(1990, 12, 31)),
        Period("2000", date(2000, 1, 1), date(2000, 12, 31)),
    )
    result = reader.run(
        TableQuery("gapminder", "population", filters=(("country", "Kenya"),), periods=periods)
    )
    expected = plain.execute(
        "SELECT year, population FROM g WHERE country = 'Kenya' AND year IN (1990, 2000) "
        "ORDER BY year"
    ).fetchall()
    assert [(int(p), v) for p, v in result.rows] == expected


def test_a_month_or_quarter_of_a_table_of_years_is_refused(reader):
    for period in ("month", "quarter"):
        with pytest.raises(InvalidQueryError, match="holds years only"):
            reader.run(TableQuery("gapminder", "gdp", group_by=(period,)))
    assert reader.run(TableQuery("gapminder", "gdp", aggregation=Aggregation.MAX)).rows


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_value_that_is_no_year_is_refused_naming_its_row(request, tmp_path, kind):
    for reader in _opened(request, tmp_path, kind):
        lines = (FIXTURE / "gapminder.csv").read_text("utf-8").splitlines()
        bad = lines[:5]
        bad[3] = bad[3].replace(",1962,", ",19620,")
        (tmp_path / "bad.csv").write_text("\n".join(bad) + "\n", "utf-8")
        with pytest.raises(InvalidInputError, match=r"row 3, column 'year': 19620 is not a year"):
            reader.tables.ingest(
                tmp_path / "bad.csv",
                table="gapminder",
                schema=FIXTURE / "gapminder.toml",
                replace=True,
            )
        # nothing stored changes: the table loaded before is whole
        assert reader.tables.get("gapminder").row_count == 416
