"""Quantities of ranges and spelled-out units: the first figure of a range takes the
unit written after the last one; "percent" is "%"."""

from __future__ import annotations

import pytest

from ragcore.text.quantities import quantities


def read(text: str) -> list[tuple[float, str]]:
    return [(q.value, q.unit) for q in quantities(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the inlet needs 15 to 40 mbar", [(15, "mbar"), (40, "mbar")]),
        ("keep the oil at 40–60 °C", [(40, "°C"), (60, "°C")]),
        ("set it between 3 and 4.5 bar", [(3, "bar"), (4.5, "bar")]),
        ("check it every 2 or 4 weeks", [(2, "weeks"), (4, "weeks")]),
        ("a gap of 1,100-1,300 mm", [(1100, "mm"), (1300, "mm")]),
        ("that is, 0.15 to 0.4 bar", [(0.15, "bar"), (0.4, "bar")]),
    ],
)
def test_the_first_figure_of_a_range_takes_the_units_of_the_last(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("raised in Rev. 3 to 900 s", [(900, "s")]),
        ("Section 7 to 12 bar", [(12, "bar")]),
        ("it went up in 2022 to 18 months", [(18, "months")]),
        ("the pump 3 and 12 bar", [(12, "bar")]),  # "and" only after "between"
    ],
)
def test_a_label_a_year_or_a_loose_and_before_a_quantity_is_no_range(text, expected):
    assert read(text) == expected


@pytest.mark.parametrize("text", ["falls below 70 percent", "falls below 70 per cent"])
def test_percent_spelled_out_is_the_percent_sign(text):
    assert read(text) == [(70, "%")]


def test_thousands_grouped_by_spaces_are_one_number():
    found = quantities("Nominal airflow: AH-12 12 000 m³/h; AH-16 16\u202f000 m³/h.")
    assert [(q.value, q.unit) for q in found] == [(12000, "m³/h"), (16000, "m³/h")]
    assert [q.value for q in quantities("every 3 500 h at 20 bar")] == [3500, 20]
