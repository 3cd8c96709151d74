"""Whether a text gives its figures at another condition than the one the question asks
at: "rated output at 60 Hz?" is not answered by "500 kVA … at 400 V and 50 Hz" — that is
the output at 50 Hz. The question's condition is a figure after "at" or "@"
(``perception.condition``); a text stating a figure of the same unit
and never the asked one states another condition. A state the question sets ("noise with
the canopy off", ``Asks.states``) is named by a text giving what holds in it: one that
never names the canopy gives the ordinary figure."""

from __future__ import annotations

import re

from ragcore.agents.perception.asks import Asks
from ragcore.text.quantities import quantities
from ragcore.text.terms import terms

# A figure after these bounds a range ("rated above 3,000 kg"), no condition of its own.
_BOUND = re.compile(
    r"\b(?:above|below|over|under|exceeding|exceeds?|than|to|up\s+to|at\s+least|at\s+most|"
    r"from|between|within|beyond|min(?:imum)?|max(?:imum)?)\s*$",
    re.IGNORECASE,
)


def other_condition(asks: Asks, text: str) -> str | None:
    """Why ``text`` is about another condition than the question's, or None."""
    said = set(terms(text))
    for thing in asks.states:
        if not set(terms(thing)) <= said:
            return f"the question asks with the {thing} in another state; the answer never names it"
    found = quantities(text)
    if any(
        _BOUND.search(text[: q.start])
        for q in found
        if any(q.unit == u for _, u in asks.conditions)
    ):
        return None  # "trucks rated above 3,000 kg": a bound, whether it holds is not read here
    given = {(q.value, q.unit) for q in found}
    for value, unit in sorted(asks.conditions):
        same_unit = {v for v, u in given if u == unit}
        if same_unit and value not in same_unit:
            stated = ", ".join(f"{v:g} {unit}" for v in sorted(same_unit))
            return f"the question asks at {value:g} {unit}; the figures given are at {stated}"
    return None
