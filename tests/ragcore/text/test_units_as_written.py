"""Quantities as manuals write them (issue 27): figures glued to a one-letter unit
("3.3V", "10s"), electrical and data-rate units ("25 mA", "9600 baud", "0.020 ohm"), and
the codes and labels that must stay no quantity ("940-0128A", "V1.2", "M5", "#10")."""

from __future__ import annotations

import pytest

from ragcore.errors import ConfigError
from ragcore.text.quantities import quantities, units_asked
from ragcore.text.unit_table import UNITS_FILE, load_unit_table
from ragcore.text.units import agrees, convert, dimension


def read(text: str) -> list[tuple[float, str]]:
    return [(q.value, q.unit) for q in quantities(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the watchdog fires after a timeout of 10s", [(10, "s")]),
        ("the logic runs at 3.3V", [(3.3, "V")]),
        ("DTR set to +5V by apcupsd", [(5, "V")]),
        ("the 50W resistor included with your ODrive", [(50, "W")]),
        ("peak phase current 120A, continuous 40 A", [(120, "A"), (40, "A")]),
        ("a supply of 12V-56V", [(12, "V"), (56, "V")]),
        ("an input range of 10 to 30V", [(10, "V"), (30, "V")]),
        ("a sensor output of 0-5V", [(0, "V"), (5, "V")]),
        ("settle for 5-30s", [(5, "s"), (30, "s")]),
        ("the UPS talks at 2400 bps", [(2400, "bps")]),
        ("set the port to 9600 baud", [(9600, "baud")]),
        ("the CAN bus runs at 125 kbps, CAN FD at 5 Mbps", [(125, "kbps"), (5, "Mbps")]),
        ("up to 120 Amps", [(120, "A")]),
        ("outputs rated for +40VDC and 25 mA", [(40, "V"), (25, "mA")]),
        ("on 220/230/240 VAC units, 24 VDC coils", [(240, "V"), (24, "V")]),
        ("an internal resistance of 0.020 ohm", [(0.02, "Ω")]),
        ("120 Ohms at each end; 20 milliohms per cell", [(120, "Ω"), (20, "milliohms")]),
        ("a 4.7K ohm pull-up, or 4.7kOhms", [(4.7, "kΩ"), (4.7, "kΩ")]),
        ("a very bad 300 µs latency, a 200 ns setup time", [(300, "µs"), (200, "ns")]),
        ("a step rate up to 200 kHz on the 2.4 GHz radio", [(200, "kHz"), (2.4, "GHz")]),
        ("a capacitor between 470nF and 4.7uF", [(470, "nF"), (4.7, "µF")]),
        ("a length of 22AWG wire", [(22, "AWG")]),
        ("the radio draws 250 mW; the park 2 MW", [(250, "mW"), (2, "MW")]),
        ("a ripple of 50 mV", [(50, "mV")]),
        ("a 1.5 kW motor that closes in 500 ms", [(1.5, "kW"), (500, "ms")]),
    ],
)
def test_a_figure_as_manuals_write_it_is_a_quantity(text, expected):
    found = read(text)
    # "20 milliohms" is read in its canonical spelling
    expected = [(v, "mΩ" if u == "milliohms" else u) for v, u in expected]
    assert found == [(pytest.approx(v), u) for v, u in expected]


@pytest.mark.parametrize(
    "text",
    [
        "use the 940-0128A cable",  # a part's code: leading zero
        "the 0x0A status byte",
        "SU420SI          0E 95 0A 8C",  # a register dump: bytes, not amperes
        "29 99 0B 8A    1A",
        "08 95 10 94    8A     737.x",
        "set the E3 DIP switch",
        "firmware V1.2",
        "an M5 bolt",
        "a #10 screw",
        "the AC-110V contactor",
        "the GHR-08V housing",
        "introduced in the 1950s",
        "a 10S battery",  # a cell count: "S" is not glued
        "interval: 60m",  # minutes in a config, or metres: "m" is not glued
        "an int32s field",
        "version 2.4V",
        "fill with 5W-40 oil",  # an oil grade, not watts
        "a 0W-20 or 10W-30 engine oil",
    ],
)
def test_codes_labels_and_years_are_no_quantity(text):
    assert read(text) == []


def test_the_new_units_convert_within_their_dimension():
    assert dimension("mA") == dimension("A") == "current"
    assert convert(25, "mA", "A") == pytest.approx(0.025)
    assert convert(20, "mΩ", "Ω") == pytest.approx(0.02)
    assert convert(4.7, "kΩ", "Ω") == pytest.approx(4700)
    assert convert(300, "µs", "ms") == pytest.approx(0.3)
    assert convert(2.4, "GHz", "MHz") == pytest.approx(2400)
    assert convert(125, "kbps", "bps") == pytest.approx(125_000)
    assert convert(9600, "baud", "bps") == 9600
    assert convert(250, "mW", "W") == pytest.approx(0.25)
    assert agrees(0.5, "s", 500, "ms")
    assert convert(5, "A", "V") is None


def test_only_a_spaced_units_one_letter_spelling_may_be_glued(tmp_path):
    text = UNITS_FILE.read_text(encoding="utf-8").replace(
        'name = "kW"\nspellings = ["kw"]', 'name = "kW"\nspellings = ["kw"]\nglued = ["kW"]'
    )
    bad = tmp_path / "units.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unit\.kW\.glued"):
        load_unit_table(bad)


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("max CAN cable length for the ODrive at 1 Mbps?", ()),  # a condition
        ("What is the flow in m³/h at 10 bar?", ("m³/h",)),
        ("How many mA does the input draw at 24 V?", ("mA",)),
    ],
)
def test_a_unit_given_with_its_figure_is_no_unit_asked_for(question, asked):
    assert units_asked(question) == asked
