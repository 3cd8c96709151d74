"""Units written out or with an electrical prefix: a volume per minute or hour is a
flow, and kV, kWh, MW and kΩ convert within their dimension."""

from __future__ import annotations

import pytest

from ragcore.text.quantities import quantities
from ragcore.text.units import agrees, convert, dimension


def read(text: str) -> list[tuple[float, str]]:
    return [(q.value, q.unit) for q in quantities(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("moves about 32 m³ per minute", [(32, "m³/min")]),
        ("moves 2 cubic metres per hour", [(2, "m³/h")]),
        ("drips 0.5 l per hour", [(0.5, "L/h")]),
        ("stores 2,000 kWh at 1,000 kW", [(2000, "kWh"), (1000, "kW")]),
        ("a 3.6 MW turbine", [(3.6, "MW")]),
        ("at least 50 kV in service", [(50, "kV")]),
        ("trips below 500 kΩ", [(500, "kΩ")]),
        ("holds 12 l", [(12, "L")]),
    ],
)
def test_units_written_out_or_prefixed_are_read(text, expected):
    assert read(text) == expected


def test_a_flow_per_hour_converts_to_one_per_minute():
    assert agrees(32, "m³/min", 1900, "m³/h")
    assert not agrees(32, "m³", 1900, "m³/h")


def test_electrical_units_convert_within_their_dimension():
    assert convert(1.2, "MWh", "kWh") == pytest.approx(1200)
    assert convert(33, "kV", "V") == pytest.approx(33000)
    assert convert(3, "MW", "kW") == pytest.approx(3000)
    assert dimension("kΩ") == "resistance"
    assert convert(50, "kV", "kW") is None
