"""Table questions as outsiders ask them (issue 28), over the s42 development tables
(benchmarks/tables_s42: FAA wildlife strikes, five cities' daily weather; real public
data), each figure checked against plain SQL on the same rows. The questions are other
phrasings of the classes the set's misses fell in, not its own: an adjective grading a
quantity names the measure ("colder", "the hottest city", "how windy"); a stored name
said by its first word ("Southwest" of "SOUTHWEST AIRLINES"); a sentence's opening
capital is no name; a span of years is no condition on the figure; "the highest
temperature" over a period is the highest of the daily highs."""

from __future__ import annotations

import csv
import sqlite3
from datetime import date
from pathlib import Path

import pytest

from ragcore import Config, Engine
from ragcore.types import AnswerStatus

pytestmark = pytest.mark.integration

S42 = Path(__file__).resolve().parents[2] / "benchmarks" / "tables_s42"
TODAY = date(2026, 12, 6)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """(engine over the s42 tables, sqlite3 holding the same rows)."""
    folder = tmp_path_factory.mktemp("s42")
    plain = sqlite3.connect(":memory:")
    with Engine(Config(data_dir=folder / "data"), clock=lambda: TODAY) as engine:
        for name in ("city_weather", "wildlife_strikes"):
            with open(S42 / f"{name}.csv", encoding="utf-8", newline="") as file:
                rows = list(csv.reader(file))
            plain.execute(f"CREATE TABLE {name} ({', '.join(rows[0])})")
            marks = ", ".join("?" * len(rows[0]))
            plain.executemany(f"INSERT INTO {name} VALUES ({marks})", rows[1:])
            engine.ingest_table(S42 / f"{name}.csv", table=name, schema=S42 / f"{name}.toml")
        yield engine, plain
    plain.close()


def _one(plain: sqlite3.Connection, sql: str) -> object:
    return plain.execute(sql).fetchone()[0]


def _figure(value: object) -> str:
    number = float(value)  # type: ignore[arg-type]
    return f"{number:g}" if number == int(number) else f"{number:.2f}".rstrip("0")


def test_a_comparative_adjective_names_the_measure_it_grades(tables):
    engine, plain = tables
    answer = engine.ask("Which city was colder on average in 2016, Beijing or Chicago?")
    assert answer.status == AnswerStatus.OK, answer.issues
    for city in ("Beijing", "Chicago"):
        truth = _one(
            plain,
            "SELECT round(avg(CAST(avg_temp AS REAL)), 2) FROM city_weather WHERE city = "
            f"'{city}' AND date LIKE '2016%'",
        )
        assert f"city {city} is {_figure(truth)} °F" in answer.text, (truth, answer.text)


def test_a_superlative_before_a_dimension_ranks_it(tables):
    engine, plain = tables
    answer = engine.ask("the hottest city in 2017?")
    assert answer.status == AnswerStatus.OK, answer.issues
    city, value = plain.execute(
        "SELECT city, round(avg(CAST(avg_temp AS REAL)), 2) AS t FROM city_weather "
        "WHERE date LIKE '2017%' GROUP BY city ORDER BY t DESC LIMIT 1"
    ).fetchone()
    assert f"city {city} is {_figure(value)} °F" in answer.text, answer.text


def test_an_adjective_two_measures_fit_is_uncertain_naming_both(tables):
    engine, _ = tables
    answer = engine.ask("how windy was Auckland in May 2016")
    assert answer.status == AnswerStatus.UNCERTAIN, answer.text
    assert "avg_wind" in answer.text and "high_wind" in answer.text, answer.text


def test_a_stored_name_said_by_its_first_word_filters_by_it(tables):
    engine, plain = tables
    answer = engine.ask("What was the average speed of Southwest strikes in 1995?")
    assert answer.status == AnswerStatus.OK, answer.issues
    truth = _one(
        plain,
        "SELECT round(avg(CAST(speed_kt AS REAL)), 2) FROM wildlife_strikes WHERE operator = "
        "'SOUTHWEST AIRLINES' AND strike_date LIKE '1995%'",
    )
    assert f"is {_figure(truth)} kt" in answer.text, (truth, answer.text)
    assert "SOUTHWEST AIRLINES" in answer.text, answer.text


def test_a_first_word_opening_several_names_is_no_pick(tables):
    engine, _ = tables
    # several operators open with "American": none is chosen for the question
    answer = engine.ask("What was the average height of American strikes?")
    assert answer.status != AnswerStatus.OK, answer.text


def test_a_sentence_s_capital_is_no_name(tables):
    engine, plain = tables
    answer = engine.ask(
        "Do strikes on take-off run happen faster than on landing roll? Show the average "
        "speed of each."
    )
    assert answer.status == AnswerStatus.OK, answer.issues
    for phase in ("Take-off run", "Landing Roll"):
        truth = _one(
            plain,
            "SELECT round(avg(CAST(speed_kt AS REAL)), 2) FROM wildlife_strikes WHERE "
            f"flight_phase = '{phase}'",
        )
        assert f"{_figure(truth)} kt" in answer.text, (phase, truth, answer.text)


def test_a_span_of_years_is_no_condition_and_the_highest_is_the_maximum(tables):
    engine, plain = tables
    answer = engine.ask("What is the highest temperature Mumbai reached over 2016-2017?")
    assert answer.status == AnswerStatus.OK, answer.issues
    truth = _one(
        plain, "SELECT max(CAST(high_temp AS INTEGER)) FROM city_weather WHERE city = 'Mumbai'"
    )
    assert f"is {truth} °F" in answer.text, (truth, answer.text)
    # a figure over a threshold stays declined
    over = engine.ask("How many days was Mumbai over 90 degrees in 2016?")
    assert over.status != AnswerStatus.OK, over.text


def test_named_values_compared_by_their_count_state_each_side_and_the_relation(tables):
    engine, plain = tables
    # "AIR" of "DELTA AIR LINES" is no air flow: the table statement's figures are checked
    answer = engine.ask("Which had more strikes in 1994, Delta or United?")
    assert answer.status == AnswerStatus.OK, answer.issues
    for operator in ("DELTA AIR LINES", "UNITED AIRLINES"):
        truth = _one(
            plain,
            "SELECT count(*) FROM wildlife_strikes WHERE operator = "
            f"'{operator}' AND strike_date LIKE '1994%'",
        )
        assert f"operator {operator} is {truth} strikes" in answer.text, (truth, answer.text)


def test_an_extreme_in_no_direction_is_uncertain_naming_the_highest_and_the_lowest(tables):
    engine, _ = tables
    answer = engine.ask("What was the extreme temperature in Beijing in July 2016?")
    assert answer.status == AnswerStatus.UNCERTAIN, answer.text
    assert "high_temp" in answer.text and "low_temp" in answer.text, answer.text


def test_a_ranking_of_an_average_with_nothing_to_rank_is_declined_naming_it(tables):
    engine, _ = tables
    # one average of the year would drop "highest": never a figure without it
    answer = engine.ask("What was the highest average wind speed in 2016?")
    assert answer.status == AnswerStatus.NO_ANSWER, answer.text
    assert "'highest'" in " ".join(i.message for i in answer.issues), answer.issues
