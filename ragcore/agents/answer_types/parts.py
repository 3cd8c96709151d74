"""Whether a text answers every part of a question that asks two things at once
(``Asks.parts``: "Which pins on the ODrive are for CAN, and how do I terminate the
bus?"). An answer about the termination alone leaves the pins unanswered: each part's
distinctive words (or their family: "terminate" → "termination") must be in it."""

from __future__ import annotations

from ragcore.agents.perception.asks import Asks
from ragcore.text.families import families, in_family
from ragcore.text.terms import terms


def unanswered_part(asks: Asks, text: str) -> str | None:
    """Why ``text`` leaves a part of the question unanswered, or None."""
    said = families(terms(text))
    for part in asks.parts:
        if part.wanted and not any(in_family(t, said) for t in part.wanted):
            return f"the question asks two things; nothing in the answer is about {part.text!r}"
    return None
