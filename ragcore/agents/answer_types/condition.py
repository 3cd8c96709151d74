"""Whether a text gives its figures at another condition than the one the question asks
at: "rated output at 60 Hz?" is not answered by "500 kVA … at 400 V and 50 Hz" — that is
the output at 50 Hz. The question's condition is a figure after "at" or "@"
(``perception.condition``); a text stating a figure of the same unit
and never the asked one states another condition."""

from __future__ import annotations

from ragcore.agents.perception.asks import Asks
from ragcore.text.quantities import quantities


def other_condition(asks: Asks, text: str) -> str | None:
    """Why ``text`` is about another condition than the question's, or None."""
    given = {(q.value, q.unit) for q in quantities(text)}
    for value, unit in sorted(asks.conditions):
        same_unit = {v for v, u in given if u == unit}
        if same_unit and value not in same_unit:
            stated = ", ".join(f"{v:g} {unit}" for v in sorted(same_unit))
            return f"the question asks at {value:g} {unit}; the figures given are at {stated}"
    return None
