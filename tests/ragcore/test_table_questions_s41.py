"""Table questions as outsiders ask them (issue 28), over the s41 development tables
(benchmarks/tables_s41: hotel bookings, Atlantic storm observations; real public data),
each figure checked against plain SQL on the same rows: rows named as the description
names them ("one row per booking", "... track observations ..."), a stored value that is
a word of every question ("AND", "One") read only as stored, the measure an aggregation
word stands before, a noun after a measure's name, part of a measure's name, a period a
unit is said of, and the sides of a comparison named by the rows' words."""

from __future__ import annotations

import csv
import sqlite3
from datetime import date
from pathlib import Path

import pytest

from ragcore import Config, Engine
from ragcore.types import AnswerStatus

pytestmark = pytest.mark.integration

S41 = Path(__file__).resolve().parents[2] / "benchmarks" / "tables_s41"
S40 = Path(__file__).resolve().parents[2] / "benchmarks" / "tables_s40"
TODAY = date(2026, 12, 6)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """(engine over the s41 tables and s40's fleet service events, sqlite3 holding the
    same rows)."""
    folder = tmp_path_factory.mktemp("s41")
    plain = sqlite3.connect(":memory:")
    with Engine(Config(data_dir=folder / "data"), clock=lambda: TODAY) as engine:
        for where, name in ((S41, "hotel_stays"), (S41, "atlantic_storms"), (S40, "fleet_service")):
            with open(where / f"{name}.csv", encoding="utf-8", newline="") as file:
                rows = list(csv.reader(file))
            plain.execute(f"CREATE TABLE {name} ({', '.join(rows[0])})")
            marks = ", ".join("?" * len(rows[0]))
            plain.executemany(f"INSERT INTO {name} VALUES ({marks})", rows[1:])
            engine.ingest_table(where / f"{name}.csv", table=name, schema=where / f"{name}.toml")
        yield engine, plain
    plain.close()


def _one(plain: sqlite3.Connection, sql: str) -> object:
    return plain.execute(sql).fetchone()[0]


@pytest.mark.parametrize(
    ("question", "table", "where"),
    [
        # "one row per booking" in the description, not the table's name ("stays")
        (
            "how many bookings arrived in Q4 2016",
            "hotel_stays",
            "arrival_date BETWEEN '2016-10-01' AND '2016-12-31'",
        ),
        (
            "How many bookings from ESP were on half board?",
            "hotel_stays",
            "country = 'ESP' AND meal_plan = 'half board'",
        ),
        # "storm track observations": the description's head; "storm" says which rows
        (
            "How many storm track observations were logged in Sept 2017?",
            "atlantic_storms",
            "obs_date BETWEEN '2017-09-01' AND '2017-09-30'",
        ),
        (
            "How many of Irma's observations were at category 5?",
            "atlantic_storms",
            "storm_name = 'Irma' AND category = 'category 5'",
        ),
    ],
)
def test_rows_are_counted_by_the_names_the_description_gives_them(tables, question, table, where):
    engine, plain = tables
    truth = _one(plain, f"SELECT count(*) FROM {table} WHERE {where}")
    answer = engine.ask(question)
    assert answer.status == AnswerStatus.OK, answer.issues
    assert f" is {truth} " in answer.text, (truth, answer.text)


def test_a_table_named_for_what_a_dimension_holds_counts_none_of_them(tables):
    engine, _ = tables
    # each row of atlantic_storms is an observation: "how many storms" is no row count
    answer = engine.ask("How many storms were there in 2005?")
    assert answer.status != AnswerStatus.OK, answer.text


def test_a_value_that_is_a_plain_word_is_read_only_as_stored(tables):
    engine, plain = tables
    # "and" is no country AND (Andorra), "ones" no storm named One
    answer = engine.ask(
        "For 2017 arrivals, how did the avg price per room compare between online travel "
        "agent and offline travel agent bookings?"
    )
    assert answer.status == AnswerStatus.OK, answer.issues
    for segment in ("online travel agent", "offline travel agent"):
        truth = _one(
            plain,
            "SELECT round(avg(avg_price_per_room), 2) FROM hotel_stays WHERE market_segment = "
            f"'{segment}' AND arrival_date LIKE '2017%'",
        )
        assert f"{segment} is {truth} EUR" in answer.text, (truth, answer.text)
    pressure = engine.ask(
        "Average central pressure for category 4 observations versus category 5 ones?"
    )
    assert pressure.status == AnswerStatus.OK, pressure.issues
    assert "One" not in pressure.text, pressure.text


def test_the_measure_an_aggregation_word_stands_before_is_the_one_asked(tables):
    engine, plain = tables
    answer = engine.ask(
        "Do GBR guests book further ahead than PRT guests? Give me the average lead time for each."
    )
    truth = _one(
        plain, "SELECT round(avg(lead_time_days), 2) FROM hotel_stays WHERE country = 'GBR'"
    )
    assert f"lead time days of country GBR is {truth} days" in answer.text, (truth, answer.text)
    assert "guests" not in answer.text.split("[1]")[0], answer.text


@pytest.mark.parametrize(
    ("question", "said"),
    [
        # a noun after a measure's name makes another name: no figure of the guests
        ("What was the average guest review score for July 2017 arrivals?", "'review'"),
        # "no" leaves rows out: never the count of every booking
        ("How many bookings had no special requests?", "'no'"),
        # a week said of a day: not the figure of the day
        ("How many bookings in the week of 2017-05-01?", "week"),
    ],
)
def test_a_constraint_the_query_cannot_apply_is_declined_naming_it(tables, question, said):
    engine, _ = tables
    answer = engine.ask(question)
    assert answer.status == AnswerStatus.NO_ANSWER, answer.text
    assert said in answer.issues[0].message, answer.issues


@pytest.mark.parametrize(
    ("question", "readings"),
    [
        ("What was the average storm diameter in 2018?", ("tropical_storm_wind", "hurricane_wind")),
        (
            "What was the average waiting time in days for guests arriving in May 2017?",
            ("days_in_waiting_list",),
        ),
        ("How many bookings were in room type D in July 2017?", ("reserved_room", "assigned_room")),
    ],
)
def test_part_of_a_name_two_readings_fit_is_uncertain_naming_them(tables, question, readings):
    engine, _ = tables
    answer = engine.ask(question)
    assert answer.status == AnswerStatus.UNCERTAIN, answer.text
    assert all(r in answer.text for r in readings), answer.text


def test_a_figure_per_row_named_by_the_rows_name_is_their_average(tables):
    engine, plain = tables
    answer = engine.ask("Which depot had the highest parts cost per event?")
    truth = plain.execute(
        "SELECT depot, round(avg(parts_cost), 2) AS v FROM fleet_service GROUP BY depot "
        "ORDER BY v DESC LIMIT 1"
    ).fetchone()
    assert answer.status == AnswerStatus.OK, answer.issues
    assert truth[0] in answer.text and f"{truth[1]:.2f}".rstrip("0").rstrip(".") in answer.text, (
        truth,
        answer.text,
    )


def test_the_sides_of_a_comparison_named_by_the_rows_words_are_answered(tables):
    engine, plain = tables
    answer = engine.ask(
        "What was the average labour hours for Brake Repair jobs vs Tyre Change jobs?"
    )
    assert answer.status == AnswerStatus.OK, answer.issues
    truth = _one(
        plain,
        "SELECT round(avg(labour_hours), 2) FROM fleet_service WHERE service_type = 'Brake Repair'",
    )
    assert f"{truth:.2f}".rstrip("0").rstrip(".") in answer.text, (truth, answer.text)


def test_a_figure_asked_in_a_unit_is_the_measure_in_that_unit(tables):
    engine, plain = tables
    knots = _one(plain, "SELECT max(CAST(max_wind_kt AS INTEGER)) FROM atlantic_storms")
    answer = engine.ask("What's the highest wind speed in mph ever recorded?")
    assert answer.status == AnswerStatus.OK, answer.issues
    assert "mph" in answer.text and f"{round(knots * 1.15078, 2)}" in answer.text, answer.text


def test_a_condition_on_the_figure_written_after_it_is_declined(tables):
    engine, _ = tables
    answer = engine.ask("What was the average price per night for stays of 7 nights or more?")
    assert answer.status == AnswerStatus.NO_ANSWER, answer.text
    assert "7 nights or more" in answer.issues[0].message, answer.issues


def test_rows_of_two_periods_compared_are_compared_by_their_count(tables):
    engine, plain = tables
    answer = engine.ask("How did bookings in July 2017 compare to July 2016?")
    assert answer.status == AnswerStatus.OK, answer.issues
    for month in ("2017-07", "2016-07"):
        truth = _one(plain, f"SELECT count(*) FROM hotel_stays WHERE arrival_date LIKE '{month}%'")
        assert f" is {truth} stays" in answer.text, (truth, answer.text)


@pytest.mark.parametrize(
    "question",
    [
        "What was the average lead time for bookings with children?",
        "How many bookings with 2 adults in May 2017?",
    ],
)
def test_rows_selected_by_another_measure_s_figure_are_declined(tables, question):
    engine, _ = tables
    answer = engine.ask(question)
    assert answer.status == AnswerStatus.NO_ANSWER, answer.text
    assert "selects rows by their" in answer.issues[0].message, answer.issues


def test_a_title_before_a_name_is_no_filter_and_how_long_no_measure(tables):
    engine, plain = tables
    # "Hurricane Maria" is the storm at every status, not its hurricane observations
    truth = _one(
        plain,
        "SELECT round(avg(CAST(max_wind_kt AS REAL)), 2) FROM atlantic_storms "
        "WHERE storm_name = 'Maria' AND obs_date LIKE '2017%'",
    )
    answer = engine.ask("Average wind speed of Hurricane Maria in 2017?")
    assert answer.status == AnswerStatus.OK, answer.issues
    assert f"{truth:.2f}".rstrip("0").rstrip(".") in answer.text, (truth, answer.text)
    # "how long": a duration, not the "long" (longitude) of the schema
    lasted = engine.ask("How long did Katrina last?")
    assert lasted.status != AnswerStatus.OK and "longitude is" not in lasted.text, lasted.text
