"""Reading a table question by the schema's own words (issue 28): names of measures that
overlap, a value two dimensions hold, a year that is a dimension's value, a number
written as a range's bound, a shared head after a stored value.

An invented table of regional flights: one row per flight, its origin and arrival city
(the same cities in both), its timetable year (an integer dimension: the year the
timetable started, not the flight's date) and leg number, delays at departure and at
arrival, and their sum per flight.
"""

from __future__ import annotations

from datetime import date

from ragcore.agents.perception import PerceptionAgent
from ragcore.agents.perception.data_question import (
    Ambiguous,
    DataQuestion,
    Unexpressible,
    recognise,
)
from ragcore.tabular import Aggregation, parse_schema

TODAY = date(2026, 12, 3)
AGENT = PerceptionAgent(nlp=None, clock=lambda: TODAY)

FLIGHTS_TOML = """
name = "regional_flights"
description = "Regional flights, one row per flight: date, timetable, leg, cities, delays"
time_column = "flight_date"

[columns]
flight_date = "date"
timetable = "integer"
leg = "integer"
origin_city = "text"
arrival_city = "text"
departure_delay = "integer"
arrival_delay = "integer"

[dimensions.origin_city]
synonyms = ["origin", "departure city", "origin city"]
description = "City the flight left from, e.g. Lyon, Nantes"

[dimensions.arrival_city]
synonyms = ["destination", "arrival city", "destination city"]
description = "City the flight landed in, e.g. Lyon, Nantes"

[dimensions.timetable]
synonyms = ["timetable", "schedule"]
description = "Year the timetable started, e.g. 2024 for the 2024/25 timetable"

[dimensions.leg]
synonyms = ["leg"]
description = "Leg of the day's rotation, 1 to 6"

[measures.departure_delay]
unit = "min"
aggregation = "sum"
synonyms = ["departure delay", "delay at departure"]

[measures.arrival_delay]
unit = "min"
aggregation = "sum"
synonyms = ["arrival delay", "delay at arrival"]

[measures.total_delay]
expression = "departure_delay + arrival_delay"
unit = "min"
aggregation = "sum"
synonyms = ["total delay", "delay per flight", "delay minutes per trip"]
"""
FLIGHTS = parse_schema(FLIGHTS_TOML, "regional_flights.toml")
CITIES = ["Lyon", "Nantes", "Brest"]
VALUES = {
    "regional_flights": {
        "origin_city": CITIES,
        "arrival_city": CITIES,
        "timetable": [2023, 2024, 2025],
        "leg": [1, 2, 3, 4, 5, 6],
    }
}


def read(question: str) -> DataQuestion | Unexpressible | Ambiguous | None:
    perception = AGENT.run(question)
    return recognise(
        question,
        [FLIGHTS],
        today=TODAY,
        time=perception.constraints.time,
        periods=perception.constraints.periods,
        values=VALUES,
    )


def test_a_shorter_measure_name_before_a_synonyms_per_row_tail_is_the_measure_averaged():
    # "delay per flight" (the total delay) took "delay" from "departure delay": the words
    # past it, "per flight", say per row, so the departure delay is averaged, never the
    # total delay summed
    for question in ("average departure delay per flight", "departure delay per flight"):
        found = read(question)
        assert isinstance(found, DataQuestion), (question, found)
        assert found.query.measure == "departure_delay"
        assert found.query.aggregation is Aggregation.AVG


def test_a_synonym_saying_per_something_averages_its_measure_over_rows():
    found = read("delay minutes per trip in 2025")
    assert isinstance(found, DataQuestion), found
    assert found.query.measure == "total_delay"
    assert found.query.aggregation is Aggregation.AVG


def test_a_value_both_city_dimensions_hold_goes_to_the_side_the_measure_names():
    found = read("departure delay of Lyon vs Nantes in 2025")
    assert isinstance(found, DataQuestion), found
    assert set(found.query.filters) == {("origin_city", "Lyon"), ("origin_city", "Nantes")}
    found = read("arrival delay in Brest in 2025")
    assert isinstance(found, DataQuestion), found
    assert found.query.filters == (("arrival_city", "Brest"),)


def test_a_value_both_dimensions_hold_stays_ambiguous_when_the_measure_names_no_side():
    found = read("total delay of Lyon flights in 2025")
    assert isinstance(found, Ambiguous), found
    assert {v.column for v in found.values} == {"origin_city", "arrival_city"}


def test_a_year_beside_an_integer_dimensions_name_is_its_value_not_a_calendar_year():
    found = read("departure delay of Lyon flights in the 2024 timetable")
    assert isinstance(found, DataQuestion), found
    query = found.query
    assert ("timetable", 2024) in query.filters
    assert (query.time_from, query.time_to) == (None, None)
    assert query.as_of == date(2024, 12, 31)  # dated as the year named, for validation


def test_two_years_of_an_integer_dimension_are_compared_as_its_values():
    found = read("was the departure delay higher in the 2023 timetable or in the 2025 timetable?")
    assert isinstance(found, DataQuestion), found
    assert {v for c, v in found.query.filters if c == "timetable"} == {2023, 2025}
    assert found.query.periods == ()


def test_a_range_of_an_integer_dimension_is_each_of_its_values_never_calendar_years():
    for question in (
        "departure delay in timetables 2023 to 2025",
        "departure delay in the 2023 to 2025 timetables",
        "departure delay in timetables 2023-2025",
        "departure delay in timetables between 2023 and 2025",
        "departure delay from timetable 2023 to 2025",
    ):
        found = read(question)
        assert isinstance(found, DataQuestion), (question, found)
        query = found.query
        assert sorted(v for c, v in query.filters if c == "timetable") == [2023, 2024, 2025]
        assert (query.time_from, query.time_to, query.group_by) == (None, None, ())
    found = read("departure delay on legs 2-4 in 2025")
    assert isinstance(found, DataQuestion), found
    assert sorted(v for c, v in found.query.filters if c == "leg") == [2, 3, 4]
    assert found.query.group_by == ()  # one figure for the range, not one per leg


def test_a_number_written_as_a_ranges_bound_is_declined_not_read_as_one_value():
    for question in (
        "departure delay from leg 3 on in 2025",
        "departure delay of leg 4 onwards in 2025",
        "departure delay up to leg 2 in 2025",
    ):
        found = read(question)
        assert isinstance(found, Unexpressible), (question, found)
        assert "range of leg" in found.reason
    found = read("departure delay on leg 3 in 2025")
    assert isinstance(found, DataQuestion), found
    assert ("leg", 3) in found.query.filters


def test_a_head_two_measures_end_in_after_a_stored_value_is_ambiguous():
    found = read("what was the Nantes delay in 2025")
    assert isinstance(found, Ambiguous), found
    assert {r.measure for r in found.readings} >= {"departure_delay", "arrival_delay"}


def test_a_row_named_after_per_in_a_summed_measures_synonym_is_counted():
    # "delay minutes per trip": a trip is a row, so "how many trips" counts rows
    found = read("how many trips were there in 2025")
    assert isinstance(found, DataQuestion), found
    assert found.query.measure == "flight_count"
    assert (found.query.time_from, found.query.time_to) == (date(2025, 1, 1), date(2025, 12, 31))


def test_a_word_of_the_other_side_elsewhere_leaves_the_value_ambiguous():
    # the measure says departure, "destination" says arrival: no pick
    found = read("departure delay of Lyon flights, counted at the destination, in 2025")
    assert isinstance(found, Ambiguous), found
