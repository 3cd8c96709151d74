"""Whether a text is an answer of the kind a question asks for (``Asks.answer_type``):
a figure for a value question about an attribute measured in units, the code for a
question about a code's meaning, a part number for a question asking for one. The
extractive generator prefers sentences that are; the validator reports answers that
are not. Kinds without a test here (yes/no, a reason, steps) always pass."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ragcore.agents.perception.asks import AnswerType, Asks
from ragcore.text.identifiers import find_entities
from ragcore.text.quantities import (
    YEAR,
    mask_identifiers,
    number_spans,
    quantities,
    word_number_spans,
)
from ragcore.text.terms import terms

# A part or order number written without "P/N": "88-2041-09", "SK.400-12", "4471203".
_PART = re.compile(r"\b(?=[A-Z0-9./-]*\d)[A-Z0-9]+(?:[-/.][A-Z0-9]+)+\b|\b\d{5,}\b")
# A decimal ("7.5 m³/min", "11.0") is a figure, not a part number.
_DECIMAL = re.compile(r"\d+\.\d+")


def unmet(asks: Asks, identifiers: Iterable[str], text: str, sources: str = "") -> str | None:
    """Why ``text`` (drawn from ``sources``) is not of the kind the question asks for,
    or None; ``identifiers``: the question's models and codes as written (for a code's
    meaning, the codes the question uses as codes, when it marks some: "trip code OC1
    on the VF-S11" asks about OC1, whatever the VF-S11's manual says)."""
    named = tuple(identifiers)
    if asks.answer_type == AnswerType.FIGURE and asks.measure is None:
        if not gives_a_figure(asks, text):
            names = " or ".join(a.name for a in asks.attributes)
            return f"the question asks for a figure of the {names}; the answer gives none"
    elif asks.answer_type == AnswerType.MEANING:
        asked = set(asks.codes) or _code_terms(" ".join(named))
        if asked and not asked & (_code_terms(text) | _code_terms(sources)):
            listed = ", ".join(sorted(asked)).upper()
            return (
                f"the question asks what {listed} means; neither the answer nor its sources name it"
            )
    elif asks.answer_type == AnswerType.PART_NUMBER:
        asked_terms = set(terms(" ".join(named)))
        parts = [p for p in _PART.findall(text) if not _DECIMAL.fullmatch(p)]
        given = set(terms(" ".join((*find_entities(text), *parts)))) - asked_terms
        if not given:
            return "the question asks for a part number; the answer gives none"
    return None


def gives_a_figure(asks: Asks, text: str) -> bool:
    """A number (its unit is the attribute check's to judge: a unit ragcore does not know,
    "108 hL", is still a figure), or words that answer an asked attribute without one
    ("monthly")."""
    if quantities(text):
        return True
    masked = mask_identifiers(text)
    if any(not YEAR.match(masked[a:b]) for _, a, b in number_spans(masked)):
        return True
    if word_number_spans(masked):
        return True
    said = set(terms(text))
    return any(
        any(w <= said for w in a.answered_by) or any(p.search(text) for p in a.answered_by_patterns)
        for a in asks.attributes
    )


def _code_terms(text: str) -> set[str]:
    return {t for t in terms(text) if any(c.isdigit() for c in t)}
