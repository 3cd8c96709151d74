"""Compound units read by a rule over the unit table (issue 27): two units divided or
multiplied ("g/kWh", "gal/h", "kW·h") are a unit of their derived dimension, named as a
listed compound of that make is ("gal/h" is a flow, as L/min is), without a row per
spelling; what the rule would misread has its own row ("kg/cm²" is a pressure)."""

from __future__ import annotations

import pytest

from ragcore.errors import ConfigError
from ragcore.text.quantities import quantities, units_asked, units_named
from ragcore.text.unit_table import UNITS_FILE, load_unit_table
from ragcore.text.units import agrees, convert, dimension, in_units


def read(text: str) -> list[tuple[float, str]]:
    return [(q.value, q.unit) for q in quantities(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("PM was capped at 0.025 g/kWh", [(0.025, "g/kWh")]),
        ("fuel use at full load: 8.5 l/h", [(8.5, "L/h")]),  # listed: the row wins
        ("a feed of 5 kg/hour", [(5, "kg/h")]),  # a listed unit, spelled otherwise
        ("the burner takes 4 gal/h", [(4, "gal/h")]),
        ("a solar load of 800 W/m² at noon", [(800, "W/m²")]),
        ("oil pressure 4.5 kg/cm² at idle", [(4.5, "kgf/cm²")]),
        ("the spindle turns at 3000 rev/min", [(3000, "rpm")]),
        ("a 2.5 mm² supply cable", [(2.5, "mm²")]),  # an area, not 2.5 mm
    ],
)
def test_a_compound_of_known_units_is_read_as_one_unit(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "the plant runs 24 h/day",  # one dimension over itself: a share, no unit read
        "a yield of 950 kWh/a",  # "a" is per year here, not per ampere
        "2 M2 screws hold the cover",  # "m2" is left out: M2 is a thread
    ],
)
def test_what_is_no_compound_unit_stays_unread(text):
    assert read(text) == []


def test_a_compound_takes_the_named_dimension_of_its_make():
    assert dimension("g/kWh") == "mass/energy"
    assert dimension("gal/h") == "flow" == dimension("L/min")
    assert convert(1, "gal/h", "L/h") == pytest.approx(3.785411784)
    assert agrees(60, "L/h", 1, "L/min")
    assert convert(1, "kgf/cm²", "bar") == pytest.approx(0.980665)
    assert convert(1, "g/kWh", "bar") is None


def test_a_compound_named_without_a_figure_is_the_unit_asked_for():
    question = "What is the specific fuel consumption in g/kWh at 75 % load?"
    assert units_named(question) == units_asked(question) == ("g/kWh",)
    # with its figure it is a condition, not the unit asked for
    assert units_asked("What is the injection timing at 210 g/kWh?") == ()


def test_two_listed_compounds_of_one_make_must_agree(tmp_path):
    text = UNITS_FILE.read_text(encoding="utf-8").replace(
        'name = "L/h"\nspellings = ["l/h"]\ndimension = "flow"',
        'name = "L/h"\nspellings = ["l/h"]\ndimension = "fuel rate"',
    )
    bad = tmp_path / "units.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unit\.L/h\.factor"):
        load_unit_table(bad)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Written with the word that divides, a compound is the one written with "/".
        ("- Water consumption: 8.5 L per kg in the standard programme", [(8.5, "L/kg")]),
        ("PM may not exceed 0.02 g per kWh", [(0.02, "g/kWh")]),
        ("the supply drops by 0.2 bar a minute", [(0.2, "bar/min")]),
        ("the dryer takes 3 kg an hour", [(3, "kg/h")]),
        ("a solar load of 800 W per m² at noon", [(800, "W/m²")]),
        ("the sludge weighs 1.2 kilograms per litre", [(1.2, "kg/L")]),
        ("between 8 and 9 L per kg", [(8, "L/kg"), (9, "L/kg")]),  # the range too
        ("it uses 8.5 L of water per kg", [(8.5, "L/kg")]),  # of what, then per what
        ("500 kg of CO2 per hour", [(500, "kg/h")]),
        # No unit after the word, or no compound of the two: the figure keeps its unit.
        ("* Heatsink with basic fan cooling: 75A per channel", [(75, "A")]),
        ("the plant runs 8 hours per day", [(8, "h")]),  # one dimension: a share
        ("a drift of 5 % per year", [(5, "%")]),  # % converts to nothing
        ("shims of 2 mm per m of rail", [(2, "mm")]),
        ("a top-up of 5 L per 100 h", [(5, "L"), (100, "h")]),  # a figure, not a unit
    ],
)
def test_a_unit_divided_by_a_word_is_the_compound_it_writes(text, expected):
    assert read(text) == [(pytest.approx(v), u) for v, u in expected]


def test_both_spellings_of_a_compound_are_one_quantity():
    (source,) = quantities("- Water consumption: 8.5 L per kg")
    (answer,) = quantities("The WX-80 uses 8.5 L/kg")
    assert (source.value, source.unit) == (answer.value, answer.unit)
    assert agrees(answer.value, answer.unit, source.value, source.unit)
    assert agrees(8500, "L/t", source.value, source.unit)  # and converts as one


def test_a_compound_named_with_its_dividing_word_is_the_unit_asked_for():
    assert units_asked("How many litres per kilogram does the WX-80 use?") == ("L/kg",)
    assert units_asked("What is the PM limit in g per kWh?") == ("g/kWh",)
    assert units_asked("How many litres of water per kg of linen?") == ("L/kg",)
    # a unit divided by what is no unit is named alone
    assert units_named("How many amps per channel?") == ("A",)


def test_a_figure_per_each_of_another_unit_is_in_the_unit_it_counts():
    # "How much water …" is answered in litres, per kg of linen or not; a listed
    # compound is a unit of its own: a flow is no volume.
    assert in_units("L/kg", ("L", "m³")) and in_units("L", ("L",))
    assert not in_units("L/min", ("L", "m³")) and not in_units("kg/L", ("L",))
