"""rules/units.toml: every unit finds its examples, converts as the table it replaced,
and a bad entry is a ConfigError naming the file and the key."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ragcore.errors import ConfigError
from ragcore.text.quantities import quantities, unit_rules, units_named
from ragcore.text.tables import load_number_tables, load_synonym_groups
from ragcore.text.unit_table import Unit, load_unit_table, unit_table
from ragcore.text.units import convert, dimension

UNITS = [pytest.param(unit, id=name) for name, unit in unit_table().units.items()]


@pytest.mark.parametrize("unit", UNITS)
def test_every_unit_finds_its_example_and_not_its_counter_example(unit: Unit):
    assert unit.name in [q.unit for q in quantities(unit.example)]
    if unit.counter_example:
        assert unit.name not in [q.unit for q in quantities(unit.counter_example)]


# The conversion table units.toml replaced (ragcore/text/units.py before issue 25), as
# it was written: unit -> (dimension, factor to the dimension's base unit).
OLD_LINEAR: dict[str, tuple[str, float]] = {
    "bar": ("pressure", 1e5),
    "psi": ("pressure", 6894.757293),
    "kPa": ("pressure", 1e3),
    "mbar": ("pressure", 100.0),
    "MPa": ("pressure", 1e6),
    "Pa": ("pressure", 1.0),
    "L/min": ("flow", 1 / 60_000),
    "m³/min": ("flow", 1 / 60),
    "m³/h": ("flow", 1 / 3600),
    "m³/s": ("flow", 1.0),
    "L/s": ("flow", 1e-3),
    "L/h": ("flow", 1 / 3_600_000),
    "mg/L": ("concentration", 1e-3),
    "µg/L": ("concentration", 1e-6),
    "gal/min": ("flow", 3.785411784e-3 / 60),
    "cfm": ("flow", 0.028316846592 / 60),
    "L": ("volume", 1e-3),
    "gal": ("volume", 3.785411784e-3),
    "m³": ("volume", 1.0),
    "ft³": ("volume", 0.028316846592),
    "kg/h": ("mass flow", 1.0),
    "kg/min": ("mass flow", 60.0),
    "t/h": ("mass flow", 1000.0),
    "N·m": ("torque", 1.0),
    "lbf·ft": ("torque", 1.3558179483),
    "kg": ("mass", 1.0),
    "g": ("mass", 1e-3),
    "lb": ("mass", 0.45359237),
    "t": ("mass", 1000.0),
    "W": ("power", 1.0),
    "kW": ("power", 1000.0),
    "hp": ("power", 745.699872),
    "MW": ("power", 1e6),
    "kWh": ("energy", 1.0),
    "MWh": ("energy", 1000.0),
    "V": ("voltage", 1.0),
    "kV": ("voltage", 1000.0),
    "Ω": ("resistance", 1.0),
    "kΩ": ("resistance", 1e3),
    "MΩ": ("resistance", 1e6),
    "mΩ": ("resistance", 1e-3),
    "ms": ("duration", 1 / 3_600_000),
    "s": ("duration", 1 / 3600),
    "min": ("duration", 1 / 60),
    "h": ("duration", 1.0),
    "days": ("duration", 24.0),
    "weeks": ("duration", 168.0),
    "months": ("duration", 730.5),
    "years": ("duration", 8766.0),
    "m/s": ("speed", 1.0),
    "km/h": ("speed", 1 / 3.6),
    "m/min": ("speed", 1 / 60),
    "mm": ("length", 1e-3),
    "cm": ("length", 1e-2),
    "m": ("length", 1.0),
    "ft": ("length", 0.3048),
    "in": ("length", 0.0254),
}
OLD_TEMPERATURE = {"°C": (1.0, 0.0), "°F": (5 / 9, -32 * 5 / 9)}  # to °C: value * a + b


@pytest.mark.parametrize("unit", sorted(OLD_LINEAR))
def test_every_unit_measures_what_it_did(unit: str):
    assert dimension(unit) == OLD_LINEAR[unit][0]
    assert unit_table().linear[unit] == OLD_LINEAR[unit]


def test_conversions_between_all_pairs_are_those_of_the_old_table():
    table = unit_table()
    # The old table's units convert as they did; units added since (currents, rates,
    # frequencies: test_units_as_written.py) are checked where they were added.
    assert set(OLD_LINEAR) <= set(table.linear)
    assert dict(table.affine) == OLD_TEMPERATURE
    for a, (dim_a, factor_a) in OLD_LINEAR.items():
        for b, (dim_b, factor_b) in OLD_LINEAR.items():
            expected = None if dim_a != dim_b else (2.5 if a == b else 2.5 * factor_a / factor_b)
            assert convert(2.5, a, b) == expected, (a, b)
        for t in OLD_TEMPERATURE:
            assert convert(2.5, a, t) is None and convert(2.5, t, a) is None
    assert dimension("°C") == dimension("°F") == "temperature"
    assert convert(100.0, "°C", "°F") == pytest.approx(212.0)
    assert convert(-40.0, "°F", "°C") == pytest.approx(-40.0)
    assert convert(32.0, "°F", "°C") == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize(
    ("value", "unit", "to", "expected"),
    [
        (10, "bar", "psi", 145.03773773),
        (1, "m³/min", "L/min", 1000),
        (60, "L/min", "L/s", 1),
        (100, "cfm", "m³/h", 169.901079552),
        (1, "gal", "L", 3.785411784),
        (100, "N·m", "lbf·ft", 73.756214928),
        (1, "years", "h", 8766),
        (90, "m/min", "m/s", 1.5),
        (1, "MΩ", "mΩ", 1e9),
        (5, "hp", "kW", 3.72849936),
    ],
)
def test_a_conversion_worked_out_by_hand(value: float, unit: str, to: str, expected: float):
    assert convert(value, unit, to) == pytest.approx(expected)


def test_spellings_longest_first_and_the_flows_generated():
    spellings = [s for s, _ in unit_table().spellings]
    canonical = unit_table().canonical
    assert spellings.index("l/min") < spellings.index("l")
    assert spellings.index("bar (g)") < spellings.index("bar")
    assert spellings.index("dB(A)") < spellings.index("db")
    flows = [s for s in spellings[:63] if " per " in s or " a " in s or " an " in s]
    assert len(flows) == 63 and spellings[0] == "cubic metres per minute"
    assert canonical["liters an hour"] == "L/h" and canonical["m3 a second"] == "m³/s"
    assert len(spellings) == len(canonical) == 287
    assert [q.unit for q in quantities("a 5 s delay, the 1990s, at 5 a.m., 3 mΩ, 3 MΩ")] == [
        "s",
        "mΩ",
        "MΩ",
    ]
    assert units_named("in L or in kg, not in l") == ("L", "kg")


UNIT = """
[attributes]
louder = ["dB(A)"]

[[unit]]
name = "dB(A)"
spellings = ["dB(A)", "db"]
convertible = false
example = "72 dB(A) at 1 m"

[[unit]]
name = "bar"
spellings = ["bar"]
dimension = "pressure"
factor = 1e5
example = "PB-120: 9 bar."
"""


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (("factor = 1e5\n", ""), r"units\.toml:unit\.bar\.factor"),
        (('dimension = "pressure"\n', ""), r"units\.toml:unit\.bar\.dimension"),
        (('["bar"]', '["bar", "DB"]'), r"units\.toml:unit\.bar\.spellings.*maps to two units"),
        (('["bar"]', '["bar", "bar"]'), r"units\.toml:unit\.bar\.spellings.*listed twice"),
        (('["dB(A)", "db"]', '["db", "dB(A)"]'), r"units\.toml:unit\.dB\(A\)\.spellings"),
        (('louder = ["dB(A)"]', 'louder = ["dBA"]'), r"units\.toml:attributes\.louder"),
        (("factor = 1e5", 'factor = "1 / x"'), r"units\.toml:unit\.bar\.factor"),
        (("factor = 1e5", "factor = 1e5\nspaced = true"), r"units\.toml:unit\.bar\.spaced"),
        (
            ("convertible = false", "convertible = false\nfactor = 1.0"),
            r"unit\.dB\(A\)\.convertible",
        ),
        (('example = "PB-120: 9 bar."', ""), r"units\.toml:unit\.bar\.example"),
        (('name = "bar"', 'name = "bar"\nshort = true'), r"units\.toml:unit\.bar\.short"),
        (('name = "bar"', 'name = "dB(A)"'), r"units\.toml:unit\.dB\(A\)"),
    ],
)
def test_a_bad_entry_names_the_file_and_the_key(tmp_path: Path, change, key):
    path = tmp_path / "units.toml"
    assert UNIT.count(change[0]) == 1
    path.write_text(UNIT.replace(*change), encoding="utf-8")
    with pytest.raises(ConfigError, match=key):
        load_unit_table(path)


def test_a_good_table_loads_and_an_example_that_finds_nothing_is_named(tmp_path: Path):
    path = tmp_path / "units.toml"
    path.write_text(UNIT, encoding="utf-8")
    table = load_unit_table(path)
    assert table.linear == {"bar": ("pressure", 1e5)}
    assert table.attributes == {"louder": ("dB(A)",)}
    unit_rules(table)
    path.write_text(UNIT.replace("PB-120: 9 bar.", "PB-120: 9 psi."), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"units\.toml:unit\.bar\.example.*finds no bar"):
        unit_rules(load_unit_table(path))
    path.write_text(UNIT + 'counter_example = "rated 9 bar"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"units\.toml:unit\.bar\.counter_example"):
        unit_rules(load_unit_table(path))


def test_the_shipped_tables_load_and_a_bad_entry_is_named(tmp_path: Path):
    rules = Path(__file__).resolve().parents[3] / "ragcore" / "rules"
    assert load_number_tables(rules / "numbers.toml")["numbers"]["twelve"] == 12.0
    assert load_synonym_groups(rules / "synonyms.toml")[0][4:6] == ("halt", "halts")
    bad = tmp_path / "numbers.toml"
    bad.write_text("[numbers]\none = 1\n[ordinals]\nsecond = true\n[fractions]\nthird = 3\n")
    with pytest.raises(ConfigError, match=r"numbers\.toml:ordinals\.second"):
        load_number_tables(bad)
    bad = tmp_path / "synonyms.toml"
    bad.write_text('groups = ["stop halt", "halt cease"]\n')
    with pytest.raises(ConfigError, match=r"synonyms\.toml:groups\[1\].*halt"):
        load_synonym_groups(bad)


@pytest.mark.process
def test_importing_the_text_layer_reads_no_units_file():
    code = (
        "import ragcore.text.quantities, ragcore.text.units, ragcore.text.counts\n"
        "from ragcore.text.unit_table import unit_table\n"
        "from ragcore.text.tables import number_table, synonym_groups\n"
        "assert unit_table.cache_info().currsize == 0\n"
        "assert number_table.cache_info().currsize == 0\n"
        "assert synonym_groups.cache_info().currsize == 0\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[3])
