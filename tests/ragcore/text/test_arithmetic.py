"""Figures an answer works out from its own figures, and the quantities read from text."""

from __future__ import annotations

import pytest

from ragcore.text.arithmetic import Figure, derived, figures
from ragcore.text.quantities import quantities


def last_is_derived(text: str) -> bool:
    found = figures(text)
    return derived(found[-1], found)


@pytest.mark.parametrize(
    "text",
    [
        "13 bar, tested at 1.43 times that pressure, gives about 18.6 bar",
        "84 dB(A) against a limit of 80 dB(A): 4 dB(A) above it",
        "220 °C and 230 °C, so the second allows 10 °C more",
        "3.2 m³/h of permeate at 70 % recovery needs roughly 4.6 m³/h of feed",
        "65 % and 70 %, an increase of 5 %",
    ],
)
def test_a_sum_difference_product_or_ratio_of_stated_figures_is_derived(text):
    assert last_is_derived(text)


@pytest.mark.parametrize(
    "text",
    [
        "every 1,000 h or every 12 months; replace at 5 %",
        "the safety time is 5 s after the 30 s prepurge",
        "220 °C and 230 °C, so the second allows 12 °C more",
        "13 bar at 1.43 times gives 20 bar",
    ],
)
def test_a_figure_that_is_no_combination_of_the_others_is_not_derived(text):
    assert not last_is_derived(text)


def test_a_figure_is_not_derived_from_itself():
    assert not derived(Figure(5.0, "bar", 0), [Figure(5.0, "bar", 10), Figure(0.0, None, 20)])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a 5-second delay", [(5.0, "s")]),
        ("lifts at 4 m/min", [(4.0, "m/min")]),
        ("holds 4.2 m³", [(4.2, "m³")]),
        ("below 18 mbar", [(18.0, "mbar")]),
        ("weighs 145 t", [(145.0, "t")]),
        ("about 106 US gallons", [(106.0, "gal")]),
        ("2,500 kg/h of steam", [(2500.0, "kg/h")]),
        ("kept for three years", [(3.0, "years")]),
        ("a two-hour run", [(2.0, "h")]),
        ("24 L/h and 10 µg/L", [(24.0, "L/h"), (10.0, "µg/L")]),
        ("a 16 A fuse", [(16.0, "A")]),
        ("at 5 a.m.", []),  # a time, not amperes
        ("the 1990s", []),  # a decade, not seconds
    ],
)
def test_quantities_read_from_text(text, expected):
    assert [(q.value, q.unit) for q in quantities(text)] == expected


def test_a_listing_of_many_figures_is_no_calculation():
    listing = [Figure(float(v), "units", i) for i, v in enumerate(range(10, 150, 10))]
    assert not derived(Figure(30.0, "units", 99), listing)  # 10 + 20, but one of 14


# -- a figure raised by a percentage -------------------------------------------------------
def test_a_figure_raised_by_a_percentage_is_worked_out():
    answer = "An operating time more than 20 % above the nominal 60 s, so over about 72 s."
    assert derived(Figure(72, "s", 0), figures(answer))
    assert not derived(Figure(75, "s", 0), figures(answer))
