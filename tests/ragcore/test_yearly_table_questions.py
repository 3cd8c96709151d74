"""Questions about a table whose time is a year (Gapminder figures per country and year,
an integer ``year`` column, no dates): years, ranges of years, since/before/after a year,
"last year" against the clock, decades, "per year" and "which year", each figure checked
against plain SQL on the same rows; a period finer than a year is declined naming the
constraint, never dropped. The same answers on the PostgreSQL store."""

from __future__ import annotations

import csv
import sqlite3
from datetime import date
from pathlib import Path

import pytest

from ragcore import Config, Engine
from ragcore.agents.perception.time import find_times
from ragcore.types import AnswerStatus

pytestmark = pytest.mark.integration

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "yearly"
TODAY = date(2012, 6, 1)
"""The day after the data (1960-2011): "last year" is 2011."""


def _load(engine: Engine) -> None:
    engine.ingest_table(
        FIXTURE / "gapminder.csv", table="gapminder", schema=FIXTURE / "gapminder.toml"
    )


@pytest.fixture(scope="module")
def tables(tmp_path_factory, real_embedder):
    """(engine, sqlite3 connection holding the same rows as table ``g``)."""
    folder = tmp_path_factory.mktemp("yearly")
    with open(FIXTURE / "gapminder.csv", encoding="utf-8", newline="") as file:
        rows = list(csv.reader(file))
    plain = sqlite3.connect(":memory:")
    plain.execute(
        "CREATE TABLE g (country TEXT, continent TEXT, region TEXT, year INTEGER, "
        "life_expectancy REAL, fertility REAL, population INTEGER, gdp INTEGER)"
    )
    plain.executemany("INSERT INTO g VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows[1:])
    config = Config(data_dir=folder / "data")
    with Engine(config, embedder=real_embedder, clock=lambda: TODAY) as engine:
        _load(engine)
        yield engine, plain
    plain.close()


def _stated(value: float | int) -> str:
    """A figure as the answer states it (floats to two decimals)."""
    if isinstance(value, float):
        return f" {round(value, 2):g} "
    return f" {value} "


ONE_FIGURE = [
    (
        "What was the life expectancy in Japan in 1990?",
        "SELECT avg(life_expectancy) FROM g WHERE country = 'Japan' AND year = 1990",
    ),
    (
        "What was the GDP of China between 1980 and 1989?",
        "SELECT sum(gdp) FROM g WHERE country = 'China' AND year BETWEEN 1980 AND 1989",
    ),
    (
        "What was the GDP of France from 1995 through 1999?",
        "SELECT sum(gdp) FROM g WHERE country = 'France' AND year BETWEEN 1995 AND 1999",
    ),
    (
        "What was the average fertility in Kenya since 2000?",
        "SELECT avg(fertility) FROM g WHERE country = 'Kenya' AND year >= 2000",
    ),
    (
        "What was the fertility in India before 1970?",
        "SELECT avg(fertility) FROM g WHERE country = 'India' AND year < 1970",
    ),
    (
        "What was the fertility in India after 2008?",
        "SELECT avg(fertility) FROM g WHERE country = 'India' AND year > 2008",
    ),
    (
        "What was the life expectancy in France last year?",
        "SELECT avg(life_expectancy) FROM g WHERE country = 'France' AND year = 2011",
    ),
    (
        "What was the life expectancy in Japan in the 1960s?",
        "SELECT avg(life_expectancy) FROM g WHERE country = 'Japan' AND year BETWEEN 1960 AND 1969",
    ),
    (  # the measure's own aggregation is the latest: the population of 2005
        "What was the population of India in 2005?",
        "SELECT population FROM g WHERE country = 'India' AND year = 2005",
    ),
    (
        "What was the total GDP of Asia in 2011?",
        "SELECT sum(gdp) FROM g WHERE continent = 'Asia' AND year = 2011",
    ),
]


@pytest.mark.parametrize(("question", "sql"), ONE_FIGURE)
def test_a_period_of_whole_years_selects_those_years(tables, question, sql):
    engine, plain = tables
    answer = engine.ask(question)
    assert answer.status == AnswerStatus.OK, answer.issues
    (expected,) = plain.execute(sql).fetchone()
    assert _stated(expected) in answer.text, answer.text


def test_per_year_gives_each_year_s_figure(tables):
    engine, plain = tables
    answer = engine.ask("What was the population of China per year since 2005?")
    assert answer.status == AnswerStatus.OK, answer.issues
    for year, population in plain.execute(
        "SELECT year, population FROM g WHERE country = 'China' AND year >= 2005"
    ):
        assert f"of year {year} is {population} people" in answer.text, answer.text
    annual = engine.ask("What was the annual GDP of Brazil since 2008?")
    assert annual.status == AnswerStatus.OK, annual.issues
    for year, gdp in plain.execute(
        "SELECT year, gdp FROM g WHERE country = 'Brazil' AND year >= 2008"
    ):
        assert f"of year {year} is {gdp} USD" in annual.text, annual.text


def test_which_year_names_the_year_with_its_figure(tables):
    engine, plain = tables
    answer = engine.ask("Which year had the highest life expectancy in Nigeria?")
    assert answer.status == AnswerStatus.OK, answer.issues
    year, value = plain.execute(
        "SELECT year, life_expectancy FROM g WHERE country = 'Nigeria' "
        "ORDER BY life_expectancy DESC LIMIT 1"
    ).fetchone()
    assert f"of year {year} is{_stated(value)}" in answer.text, answer.text
    # tied years are all named
    lowest = engine.ask("In which year was the fertility in China the lowest?")
    assert lowest.status == AnswerStatus.OK, lowest.issues
    for (year,) in plain.execute(
        "SELECT year FROM g WHERE country = 'China' AND fertility = "
        "(SELECT min(fertility) FROM g WHERE country = 'China')"
    ):
        assert f"of year {year} is" in lowest.text, lowest.text


def test_years_compared_give_a_figure_each(tables):
    engine, plain = tables
    answer = engine.ask("What was the population of Kenya in 1990 vs 2000?")
    assert answer.status == AnswerStatus.OK, answer.issues
    for year, population in plain.execute(
        "SELECT year, population FROM g WHERE country = 'Kenya' AND year IN (1990, 2000)"
    ):
        assert f"of period {year} is {population} people" in answer.text, answer.text


@pytest.mark.parametrize(
    "question",
    [
        "What was the life expectancy in Japan in March 1990?",
        "What was the GDP of China in Q3 2005?",
        "What was the fertility in Nigeria in week 12 of 1990?",
        "What was the fertility in Nigeria on 1 March 1990?",
        "What was the GDP of China since June 2000?",
        "What was the GDP of China per month in 2005?",
        "What was the GDP of Brazil per quarter in 2005?",
        "What was the GDP of Brazil per week in 2005?",
        "What was the GDP of Brazil per day in 2005?",
        "What was the monthly GDP of Brazil in 2005?",
        "What was the GDP of Japan in the past 3 years?",
    ],
)
def test_a_period_finer_than_a_year_is_declined_naming_it(tables, question):
    engine, _ = tables
    answer = engine.ask(question)
    assert answer.status == AnswerStatus.NO_ANSWER, answer.text
    assert "the table holds years only (year)" in answer.issues[0].message


def test_a_decade_is_a_period_only_where_it_says_when():
    def spans(text: str) -> list[tuple[date | None, date | None]]:
        return [(t.start, t.end) for t, _ in find_times(text, (), lambda: TODAY)]

    assert spans("life expectancy in the 1960s?") == [(date(1960, 1, 1), date(1969, 12, 31))]
    assert spans("during the 1990's in Kenya") == [(date(1990, 1, 1), date(1999, 12, 31))]
    assert spans("the COP in the 1980s bungalow case study") == []  # a word of a name


@pytest.mark.process
def test_the_same_answers_on_postgres(tables, tmp_path, postgres_url, real_embedder):
    lite, _ = tables
    config = Config(data_dir=tmp_path / "pg", store_url=postgres_url)
    with Engine(config, embedder=real_embedder, clock=lambda: TODAY) as pg:
        _load(pg)
        for question in (
            *(q for q, _ in ONE_FIGURE),
            "What was the population of China per year since 2005?",
            "Which year had the highest life expectancy in Nigeria?",
            "What was the population of Kenya in 1990 vs 2000?",
            "What was the GDP of China per month in 2005?",
        ):
            answers = [engine.ask(question) for engine in (lite, pg)]
            assert answers[1].status == answers[0].status, question
            assert answers[1].text == answers[0].text, question
