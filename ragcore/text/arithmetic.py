"""Figures an answer works out from its own figures: "13 bar … at 1.43 times that
pressure, which gives about 18.6 bar", "84 dB(A) … the limit is 80 dB(A) … 4 dB(A)
above it". Such a figure is in no source, yet it is supported when its operands are.

Only figures the answer itself states are operands, so a changed figure passes only if
it happens to be a sum, difference, product or ratio of two others stated beside it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from ragcore.text.quantities import number_spans, quantities
from ragcore.text.units import convert, dimension


@dataclass(frozen=True)
class Figure:
    value: float
    unit: str | None
    """None for a bare number ("1.43 times", "11 links")."""
    start: int


def figures(text: str) -> list[Figure]:
    """Every figure of ``text``: quantities with their unit, other numbers bare."""
    stated = quantities(text)
    found = [Figure(q.value, q.unit, q.start) for q in stated]
    found += [
        Figure(value, None, start)
        for value, start, _ in number_spans(text)
        if not any(q.start <= start < q.end for q in stated)
    ]
    return sorted(found, key=lambda f: f.start)


MAX_OPERANDS = 12
"""Beyond this many figures an answer is a listing, not a calculation: pairs of them
would match by chance (and cost n² per figure)."""


def derived(target: Figure, operands: Iterable[Figure]) -> bool:
    """Whether ``target`` is the sum, difference, product or ratio of two ``operands``
    (in its unit; a product or ratio takes one bare or percentage factor), their
    percentage, or one of them raised or lowered by the other's percentage."""
    distinct = list(dict.fromkeys((f.value, f.unit) for f in operands))
    if len(distinct) > MAX_OPERANDS:
        return False
    pool = [Figure(v, u, 0) for v, u in distinct if (v, u) != (target.value, target.unit)]
    for a, b in itertools.permutations(pool, 2):
        for result in _results(a, b, target.unit):
            if _rounds_to(result, target.value):
                return True
    return False


def _results(a: Figure, b: Figure, unit: str | None) -> list[float]:
    out: list[float] = []
    if unit is None:
        if a.unit is None and b.unit is None:
            out += [a.value + b.value, a.value - b.value, a.value * b.value]
            out += [a.value / b.value] if b.value else []
        return out
    if unit == "%" and b.value and a.unit == b.unit and a.unit != "%":  # "5 % more"
        out += [100 * a.value / b.value, 100 * (a.value - b.value) / b.value]
    x, y = _in(a, unit), _in(b, unit)
    if x is not None and y is not None:
        out += [x + y, x - y]
    if x is not None and b.unit in (None, "%"):  # "1.43 times", "at 70 % recovery"
        factor = b.value / 100 if b.unit == "%" else b.value
        out += [x * factor] + ([x / factor] if factor else [])
        if b.unit == "%":  # "20 % above the nominal 60 s": 72 s
            out += [x * (1 + factor), x * (1 - factor)]
    return out


def _in(f: Figure, unit: str) -> float | None:
    if f.unit is None or dimension(f.unit) != dimension(unit):
        return None
    if dimension(unit) == "temperature" and f.unit != unit:
        return None  # a temperature difference does not convert like a temperature
    return convert(f.value, f.unit, unit)


def _rounds_to(result: float, stated: float) -> bool:
    """Rounded as written ("18.6" for 18.59), or within 1 % ("about 60")."""
    written = f"{stated:g}"
    decimals = len(written.split(".")[1]) if "." in written else 0
    return abs(result - stated) <= 0.5 * 10.0**-decimals + 1e-9 or abs(
        result - stated
    ) <= 0.01 * abs(stated)
