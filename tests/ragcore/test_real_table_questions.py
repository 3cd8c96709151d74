"""Table questions as people ask them, over real public tables (benchmarks/tables_real:
nycflights13 flights, ggplot2 txhousing), each figure checked against plain SQL on the same
rows: values named by the names their schema glosses them with, row conditions declined,
never answered for all rows."""

from __future__ import annotations

import csv
import sqlite3
from datetime import date
from pathlib import Path

import pytest

from ragcore import Config, Engine
from ragcore.tabular import Dimension
from ragcore.types import AnswerStatus

pytestmark = pytest.mark.integration

REAL = Path(__file__).resolve().parents[2] / "benchmarks" / "tables_real"
TODAY = date(2026, 12, 6)
EVERY = 10
"""Every tenth flight: all carriers, airports and months, a fast load."""


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """(engine, sqlite3 connection holding the same rows)."""
    folder = tmp_path_factory.mktemp("real")
    with open(REAL / "flights.csv", encoding="utf-8", newline="") as file:
        rows = list(csv.reader(file))
    flights = [rows[0], *rows[1::EVERY]]
    with open(folder / "flights.csv", "w", encoding="utf-8", newline="") as file:
        csv.writer(file).writerows(flights)
    plain = sqlite3.connect(":memory:")
    plain.execute(f"CREATE TABLE flights ({', '.join(flights[0])})")
    plain.executemany(f"INSERT INTO flights VALUES ({', '.join('?' * 8)})", flights[1:])
    with open(REAL / "txhousing.csv", encoding="utf-8", newline="") as file:
        housing = list(csv.reader(file))
    plain.execute(f"CREATE TABLE txhousing ({', '.join(housing[0])})")
    plain.executemany(f"INSERT INTO txhousing VALUES ({', '.join('?' * 7)})", housing[1:])
    with Engine(Config(data_dir=folder / "data"), clock=lambda: TODAY) as engine:
        engine.ingest_table(folder / "flights.csv", table="flights", schema=REAL / "flights.toml")
        engine.ingest_table(
            REAL / "txhousing.csv", table="txhousing", schema=REAL / "txhousing.toml"
        )
        yield engine, plain
    plain.close()


def _count(plain: sqlite3.Connection, where: str, *params: str) -> int:
    return plain.execute(f"SELECT count(*) FROM flights WHERE {where}", params).fetchone()[0]


@pytest.mark.parametrize(
    ("question", "where", "params"),
    [
        # the origin glossed "EWR (Newark)", the carrier "UA (United Air Lines)"
        (
            "How many flights did UA operate out of Newark in September 2013?",
            "carrier = ? AND origin = ? AND flight_date LIKE '2013-09%'",
            ("UA", "EWR"),
        ),
        (
            "How many flights left LaGuardia in July 2013?",
            "origin = ? AND flight_date LIKE '2013-07%'",
            ("LGA",),
        ),
        ("How many Delta flights went to ATL in 2013?", "carrier = ? AND dest = ?", ("DL", "ATL")),
        (
            "How many flights did United Air Lines fly to ORD in 2013?",
            "carrier = ? AND dest = ?",
            ("UA", "ORD"),
        ),
        # a verb saying only that the rows happened selects none
        (
            "How many flights departed from EWR in Q3 2013?",
            "origin = ? AND flight_date BETWEEN '2013-07-01' AND '2013-09-30'",
            ("EWR",),
        ),
    ],
)
def test_a_value_named_by_its_glossed_name_is_a_filter(tables, question, where, params):
    engine, plain = tables
    answer = engine.ask(question)
    assert answer.status == AnswerStatus.OK, answer.issues
    assert f" {_count(plain, where, *params)} flights" in answer.text, answer.text


def test_a_gloss_that_is_no_name_names_no_value(tables):
    # "P1 (most urgent)", "PX-200 (not the same as PX-2000)": no names; "Kennedy" of
    # "JFK (John F. Kennedy)" is one, written as a name.
    engine, _ = tables
    flights = next(s for s in engine.table_catalog.schemas if s.name == "flights")
    names = {name: value for name, _, value in flights.aliases}
    assert names["Kennedy"] == "JFK" and names["Delta Air Lines"] == "DL"
    assert "Air" not in names and "Airlines" not in names  # two glosses', the dimension's
    assert (
        Dimension("priority", description="P1 (most urgent), P2 or P4 (least urgent)").aliases == ()
    )
    assert Dimension("product", description="e.g. PX-200 (not the same as PX-2000)").aliases == ()


@pytest.mark.parametrize(
    "question",
    [
        "How many flights were cancelled in March 2013?",
        "How many flights were delayed in March 2013?",
        "How many flights were diverted in 2013?",
        "How many flights were on time in 2013?",
        "How many AA flights diverted in 2013?",
        "How many new homes were sold in Dallas in 2014?",
        "How many homes were listed in Austin in June 2014?",  # listings, not sales
    ],
)
def test_a_row_condition_the_query_cannot_state_is_declined_not_dropped(tables, question):
    engine, _ = tables
    answer = engine.ask(question)
    assert answer.status == AnswerStatus.NO_ANSWER, answer.text
    assert answer.issues and "cannot answer" in answer.issues[0].message


def _figure(answer_text: str, value: float) -> bool:
    return f" {round(value, 2):g} " in answer_text


def test_a_measure_s_name_turned_round_is_the_name_not_two_measures(tables):
    # "sales volume" written "volume of sales": the volume, not volume and sales
    engine, plain = tables
    answer = engine.ask(
        "What was the total volume of sales in Dallas in the first quarter of 2015?"
    )
    assert answer.status == AnswerStatus.OK, answer.issues
    (total,) = plain.execute(
        "SELECT sum(CAST(volume AS INTEGER)) FROM txhousing "
        "WHERE city = 'Dallas' AND month BETWEEN '2015-01' AND '2015-03'"
    ).fetchone()
    assert f" {total} USD" in answer.text, answer.text
    delay = engine.ask("What was the delay of departures at JFK in 2013?")
    assert delay.status == AnswerStatus.OK, delay.issues
    (expected,) = plain.execute(
        "SELECT avg(CAST(dep_delay AS INTEGER)) FROM flights WHERE origin = 'JFK'"
    ).fetchone()
    assert _figure(delay.text, expected), delay.text


def test_the_words_of_a_name_read_apart_in_any_verb_form(tables):
    # "time made up" in "how much time did the flights make up"
    engine, plain = tables
    answer = engine.ask("How much time did DL flights from LGA make up on average in 2013?")
    assert answer.status == AnswerStatus.OK, answer.issues
    (expected,) = plain.execute(
        "SELECT avg(CAST(dep_delay AS INTEGER) - CAST(arr_delay AS INTEGER)) FROM flights "
        "WHERE carrier = 'DL' AND origin = 'LGA'"
    ).fetchone()
    assert "time made up" in answer.text and _figure(answer.text, expected), answer.text


def test_which_of_two_named_values_with_a_verb_of_the_measure_compares_them(tables):
    engine, _ = tables
    answer = engine.ask("Houston or Dallas - which sold more homes in 2014?")
    assert answer.status == AnswerStatus.OK, answer.issues
    assert "city Houston (" in answer.text and "higher than of city Dallas" in answer.text
    # no values named: no figure of the largest month-and-city row instead
    alone = engine.ask("Which sold more homes in 2014?")
    assert alone.status == AnswerStatus.NO_ANSWER, alone.text


def test_a_word_two_measures_are_named_by_is_ambiguous_not_a_pick(tables):
    engine, _ = tables
    answer = engine.ask("How late were UA flights out of EWR in July 2013?")
    assert answer.status == AnswerStatus.UNCERTAIN, answer.text
    assert "dep_delay" in answer.text and "arr_delay" in answer.text
    # as a condition on the rows it is declined ("late" selects flights)
    counted = engine.ask("How many flights arrived late in 2013?")
    assert counted.status == AnswerStatus.NO_ANSWER, counted.text


def test_an_extreme_of_a_row_count_is_declined_not_answered_one(tables):
    # each row counts one: "the longest flight" is no maximum of the flight count
    engine, _ = tables
    for question in (
        "What was the longest flight in 2013?",
        "What was the average number of flights per airline in 2013?",
    ):
        answer = engine.ask(question)
        assert answer.status == AnswerStatus.NO_ANSWER, answer.text
        assert "each row counts one" in answer.issues[0].message
    ranked = engine.ask("Which airline had the most flights in 2013?")
    assert ranked.status == AnswerStatus.OK and "carrier UA" in ranked.text, ranked.text


def test_two_values_combined_are_one_figure(tables):
    # "combined" is also a word of summing: still one figure for both, not one each
    engine, plain = tables
    answer = engine.ask("How many homes were sold in Austin and Dallas combined in 2014?")
    assert answer.status == AnswerStatus.OK, answer.issues
    (total,) = plain.execute(
        "SELECT sum(CAST(sales AS INTEGER)) FROM txhousing "
        "WHERE city IN ('Austin', 'Dallas') AND month LIKE '2014-%'"
    ).fetchone()
    assert f" {total} homes" in answer.text and "higher than" not in answer.text, answer.text


def test_which_value_has_the_most_rows_of_a_kind_names_it(tables):
    # "the most DL flights": the rows' kind between the ranking word and their name
    engine, plain = tables
    answer = engine.ask("Which destination had the most DL flights from JFK in 2013?")
    assert answer.status == AnswerStatus.OK, answer.issues
    top = plain.execute(
        "SELECT dest, count(*) AS n FROM flights WHERE carrier = 'DL' AND origin = 'JFK' "
        "GROUP BY dest ORDER BY n DESC LIMIT 1"
    ).fetchone()
    assert f"dest {top[0]} is {top[1]} flights" in answer.text, answer.text


def test_a_single_row_s_extreme_is_the_extreme_over_rows(tables):
    engine, plain = tables
    answer = engine.ask("What was the longest air time of a single flight from EWR in 2013?")
    assert answer.status == AnswerStatus.OK, answer.issues
    (longest,) = plain.execute(
        "SELECT max(CAST(air_time AS INTEGER)) FROM flights WHERE origin = 'EWR'"
    ).fetchone()
    assert f" {longest} minutes" in answer.text, answer.text
    total = engine.ask("What was the total air time of a single flight from EWR in 2013?")
    assert total.status == AnswerStatus.NO_ANSWER, total.text


def test_values_compared_by_their_glossed_names_are_stated_with_them(tables):
    # "Delta vs United": each side's figure names the side as asked, so it is checked
    engine, plain = tables
    answer = engine.ask("Delta vs United: average arrival delay in 2013")
    assert answer.status == AnswerStatus.OK, answer.issues
    for code, name in (("DL", "Delta Air Lines"), ("UA", "United Air Lines")):
        (expected,) = plain.execute(
            "SELECT avg(CAST(arr_delay AS INTEGER)) FROM flights WHERE carrier = ?", (code,)
        ).fetchone()
        assert f"carrier {code} ({name}) is {round(expected, 2):g} minutes" in answer.text
    airports = engine.ask("Which airport had more flights in July 2013, Kennedy or Newark?")
    assert airports.status == AnswerStatus.OK, airports.issues
    assert "origin JFK (John F Kennedy)" in airports.text  # no full stop inside a sentence
    periods = engine.ask("DL miles flown, Q2 2013 vs Q3 2013")
    assert periods.status == AnswerStatus.OK, periods.issues


@pytest.mark.parametrize(
    ("question", "named"),
    [
        # a word of a name next to a stored value: no ranking word, no kind of value
        ("How many homes were sold in Greater Houston in 2014?", "Greater Houston"),
        ("How many homes were sold in Dallas County in 2014?", "Dallas County"),
    ],
)
def test_a_name_the_table_lacks_around_a_stored_value_is_declined(tables, question, named):
    engine, _ = tables
    answer = engine.ask(question)
    assert answer.status == AnswerStatus.NO_ANSWER, answer.text
    # the whole name, as named ("no city 'Dallas County'": the stored names closest first)
    assert f"{named!r}" in answer.issues[0].message, answer.issues[0].message


def test_a_kind_of_value_after_in_the_is_every_value_of_that_kind(tables):
    # "in the counties": every city value ending in "County", not all areas ("in" is no
    # grouping word for being the first word of "in each")
    engine, plain = tables
    answer = engine.ask("Total homes sold in the counties in 2014")
    assert answer.status == AnswerStatus.OK, answer.issues
    (total,) = plain.execute(
        "SELECT sum(CAST(sales AS INTEGER)) FROM txhousing "
        "WHERE city LIKE '% County' AND month LIKE '2014-%'"
    ).fetchone()
    assert f" {total} homes" in answer.text, answer.text
    airport = engine.ask("How many flights left JFK Airport in 2013?")  # a word of origin's
    assert airport.status == AnswerStatus.OK, airport.issues


def test_a_decline_names_the_table_holding_the_values_asked_about(tables):
    # "air time" is a measure of flights only; the reason is about the table holding
    # Austin, not that flights holds no Austin
    engine, _ = tables
    answer = engine.ask("What was the average air time in Austin in 2014?")
    assert answer.status == AnswerStatus.NO_ANSWER, answer.text
    assert "table 'txhousing' holds Austin" in answer.issues[0].message
