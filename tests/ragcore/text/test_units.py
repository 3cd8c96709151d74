"""Units: what each measures, conversions between them, and quantities read from text."""

from __future__ import annotations

import pytest

from ragcore.text.quantities import quantities
from ragcore.text.units import agrees, convert, dimension


def read(text: str) -> list[tuple[float, str]]:
    return [(q.value, q.unit) for q in quantities(text)]


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("rated at 145 psi", 145, "psi"),
        ("a drop of 20 kPa", 20, "kPa"),
        ("tested to 1.6 MPa", 1.6, "MPa"),
        ("delivers 27 m³/h", 27, "m³/h"),
        ("delivers 27 m3/h", 27, "m³/h"),
        ("drains at 7.5 L/s", 7.5, "L/s"),
        ("pumps 119 gal/min", 119, "gal/min"),
        ("pumps 119 gpm", 119, "gal/min"),
        ("holds 5 gallons", 5, "gal"),
        ("tighten to 38 lbf·ft", 38, "lbf·ft"),
        ("tighten to 38 lbf ft", 38, "lbf·ft"),
        ("boils at 194 °F", 194, "°F"),
        ("boils at 194°F", 194, "°F"),
        ("weighs 20 lb", 20, "lb"),
        ("weighs 20 lbs", 20, "lb"),
        ("a 15 hp motor", 15, "hp"),
        ("a reach of 10 ft", 10, "ft"),
        ("a reach of 10 feet", 10, "ft"),
        ("a cable of 32 m", 32, "m"),
        ("hold for 5 s", 5, "s"),
        ("wait 10 min", 10, "min"),
        ("wait 30 seconds", 30, "s"),
        ("wait 5 minutes", 5, "min"),
        ("a belt speed of 2 m/s", 2, "m/s"),
        ("a top speed of 40 km/h", 40, "km/h"),
        ("an alarm at 4.5 mm/s", 4.5, "mm/s"),
        ("every 2000 running hours", 2000, "h"),
        ("every 2000 operating hours", 2000, "h"),
        ("every 48 months", 48, "months"),
        ("a flow of 1,200 L/min", 1200, "L/min"),
    ],
)
def test_each_unit_is_read_in_its_canonical_spelling(text, value, unit):
    assert read(text) == [(value, unit)]


# "10s", "5V" are read (units.toml ``glued``: tests/ragcore/text/test_units_as_written.py);
# "m" is not glued ("interval: 60m" is minutes in a config), "10S" is a cell count.
@pytest.mark.parametrize("text", ["the 1990s", "5m", "10S", "in the 2020s", "int32s"])
def test_a_one_letter_unit_stuck_to_its_number_is_no_quantity(text):
    assert quantities(text) == []


@pytest.mark.parametrize(("text", "expected"), [("5 s", [(5, "s")]), ("32 m", [(32, "m")])])
def test_a_one_letter_unit_after_a_space_is_a_quantity(text, expected):
    assert read(text) == expected


def test_identifiers_and_citations_are_not_quantities():
    assert read("Error E4027 on the HP-400 at 150 bar [2].") == [(150, "bar")]


@pytest.mark.parametrize(
    ("unit", "measures"),
    [
        ("bar", "pressure"),
        ("psi", "pressure"),
        ("kPa", "pressure"),
        ("MPa", "pressure"),
        ("L/min", "flow"),
        ("m³/h", "flow"),
        ("L/s", "flow"),
        ("gal/min", "flow"),
        ("L", "volume"),
        ("gal", "volume"),
        ("N·m", "torque"),
        ("lbf·ft", "torque"),
        ("kg", "mass"),
        ("lb", "mass"),
        ("kW", "power"),
        ("hp", "power"),
        ("m", "length"),
        ("ft", "length"),
        ("s", "duration"),
        ("min", "duration"),
        ("h", "duration"),
        ("months", "duration"),
        ("years", "duration"),
        ("°C", "temperature"),
        ("°F", "temperature"),
    ],
)
def test_each_unit_knows_what_it_measures(unit, measures):
    assert dimension(unit) == measures


def test_a_unit_without_relatives_is_its_own_dimension():
    assert dimension("dB(A)") == "dB(A)"


@pytest.mark.parametrize(
    ("value", "unit", "to", "expected"),
    [
        (450, "L/min", "m³/h", 27),
        (16, "bar", "MPa", 1.6),
        (48, "months", "years", 4),
        (90, "°C", "°F", 194),
        (194, "°F", "°C", 90),
        (-40, "°C", "°F", -40),
        (10, "bar", "kPa", 1000),
        (1, "h", "min", 60),
        (7, "bar", "bar", 7),
    ],
)
def test_a_value_converts_to_another_unit_of_its_dimension(value, unit, to, expected):
    assert convert(value, unit, to) == pytest.approx(expected)


@pytest.mark.parametrize(("unit", "to"), [("L", "kg"), ("kg", "L"), ("bar", "°C"), ("h", "m")])
def test_units_of_different_dimensions_never_convert(unit, to):
    assert convert(1, unit, to) is None


@pytest.mark.parametrize(
    ("stated", "stated_unit", "source", "source_unit"),
    [
        (145, "psi", 10, "bar"),
        (27, "m³/h", 450, "L/min"),
        (1.6, "MPa", 16, "bar"),
        (4, "years", 48, "months"),
        (194, "°F", 90, "°C"),
        (17.4, "psi", 1.2, "bar"),
        (10, "bar", 10, "bar"),
        (3, "ft", 1, "m"),
    ],
)
def test_a_stated_quantity_agrees_with_its_source_converted_and_rounded(
    stated, stated_unit, source, source_unit
):
    assert agrees(stated, stated_unit, source, source_unit)


@pytest.mark.parametrize(
    ("stated", "stated_unit", "source", "source_unit"),
    [
        (1.2, "psi", 1.2, "bar"),
        (1, "kg", 1, "L"),
        (150, "psi", 10, "bar"),
        (10.5, "bar", 10, "bar"),
        (5, "years", 48, "months"),
        (2, "years", 20000, "h"),
    ],
)
def test_a_stated_quantity_that_is_not_the_source_does_not_agree(
    stated, stated_unit, source, source_unit
):
    assert not agrees(stated, stated_unit, source, source_unit)


def test_speeds_in_metres_per_second_and_kilometres_per_hour_convert():
    assert dimension("m/s") == dimension("km/h") == "speed"
    assert agrees(36, "km/h", 10, "m/s")


# -- units read from answers' sentences ----------------------------------------------------
def test_pascals_and_flows_per_second_are_units():
    found = quantities("At least 50 Pa above ambient; about 2.6 m³/s, or 60 litres a minute")
    assert [(q.value, q.unit) for q in found] == [(50, "Pa"), (2.6, "m³/s"), (60, "L/min")]
    assert agrees(2.6, "m³/s", 9500, "m³/h")
    assert agrees(10.6, "m³/s", 38000, "m³/h")
    assert not agrees(2.6, "m³/s", 9500, "m³/min")


def test_temperatures_below_zero_keep_their_sign():
    found = quantities("set point -80 °C, which is -112 °F; colder than minus 20 °C; 5-30 °C")
    assert [q.value for q in found] == [-80, -112, -20, 5, 30]
    assert agrees(-112, "°F", -80, "°C") and not agrees(112, "°F", -80, "°C")


def test_cubic_feet_and_people_per_hour_are_units():
    found = quantities("about 25.7 cubic feet; 11,000 persons per hour")
    assert [(q.value, q.unit) for q in found] == [(25.7, "ft³"), (11000, "persons/h")]
    assert agrees(25.7, "ft³", 728, "L")


def test_a_fraction_is_a_percentage_but_of_an_hour_a_time():
    found = quantities("below four-fifths of its rated capacity, or two-thirds of it")
    assert [(q.value, q.unit) for q in found] == [(80.0, "%"), (66.7, "%")]
    assert [(q.value, q.unit) for q in quantities("three quarters of an hour")] == [(0.75, "h")]


def test_shares_of_time_inches_megohms_and_concentrations_are_quantities():
    found = quantities(
        "three tenths of a second, half a minute, 59 inches, 10 MΩ, 50 mΩ, 5 mg/m³, 7 metres"
    )
    assert [(q.value, q.unit) for q in found] == [
        (0.3, "s"),
        (0.5, "min"),
        (59, "in"),
        (10, "MΩ"),
        (50, "mΩ"),
        (5, "mg/m³"),
        (7, "m"),
    ]


def test_degrees_are_an_angle_unless_celsius():
    found = quantities("tilted by no more than 10 degrees, or 10°; 25 degrees Celsius")
    assert [(q.value, q.unit) for q in found] == [(10, "°"), (10, "°"), (25, "°C")]


def test_a_conversion_rounded_to_one_significant_figure_agrees():
    assert agrees(0.03, "m/s", 2, "m/min")


def test_gauge_pressure_units_a_rate_of_a_substance_and_a_revisions_verb():
    said = [(q.value, q.unit) for q in quantities("2.5 bar (g), roughly 36 psig, or 3 barg")]
    assert said == [(2.5, "bar"), (36.0, "psi"), (3.0, "bar")]
    assert [(q.value, q.unit) for q in quantities("up to 500 kg of CO2 per hour")] == [
        (500.0, "kg/h")
    ]
    assert [q.unit for q in quantities("Rev. 2 runs 1.5 % NaOH")] == ["%"]
    assert [q.unit for q in quantities("It made 2 runs")] == ["runs"]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # Manuals write volts and amperes against the figure.
        ("* Heatsink with basic fan cooling: 75A per channel", [(75, "A")]),
        ("Name: moteus-r4; Abs Max Voltage: 44V (<= 10S)", [(44, "V")]),
        ("either 12v or 24v solenoids", [(12, "V"), (24, "V")]),
        ("a 2A-rated fuse", [(2, "A")]),
        # Not where the figure ends a code, numbers a label or is a model's own.
        ("the 940-0128A cable", []),
        ("Figure 3A shows the wiring", []),
        ("LEAP-1A fan blades", []),
        ("a C207A0 error", []),
        ("step 5a then", []),
        ("in the 1990s", []),
    ],
)
def test_volts_and_amperes_written_against_the_figure_are_read(text, found):
    assert read(text) == found
