"""Answerability: the answer is of the kind the question asks for (``Asks.answer_type``),
whatever words it shares with it — a figure for a value question about an attribute
measured in units, the code for a question about a code's meaning, a part number for a
question asking for one. An answer that names the asked thing but gives something else
about it is not ``ok``."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ragcore.agents.perception.asks import AnswerType
from ragcore.agents.validation.model import AnswerModel
from ragcore.agents.validation.registry import Finding, Scope, check
from ragcore.text.citations import strip_citations
from ragcore.text.identifiers import find_entities
from ragcore.text.quantities import (
    YEAR,
    mask_identifiers,
    number_spans,
    quantities,
    word_number_spans,
)
from ragcore.text.terms import terms
from ragcore.types import Check, IssueKind, Route


@check(
    Check.CONSISTENCY,
    Scope.ANSWER,
    rules=("answer_type.figure", "answer_type.meaning", "answer_type.part_number"),
)
def of_the_asked_kind(answer: AnswerModel) -> Iterator[Finding]:
    asks, perception = answer.asks, answer.perception
    if perception.route == Route.COMPARISON:
        return  # the sides check reads a comparison's figures
    text = strip_citations(answer.draft.text)
    if asks.answer_type == AnswerType.FIGURE and asks.measure is None:
        if not _gives_a_figure(answer, text):
            names = " or ".join(a.name for a in asks.attributes)
            yield Finding(
                "answer_type.figure",
                IssueKind.OFF_QUESTION,
                f"the question asks for a figure of the {names}; the answer gives none",
            )
    elif asks.answer_type == AnswerType.MEANING:
        asked = _code_terms(" ".join(perception.identifiers))
        cited = " ".join(e.text for e in answer.cited)
        if asked and not asked & (_code_terms(text) | _code_terms(cited)):
            listed = ", ".join(sorted(asked)).upper()
            yield Finding(
                "answer_type.meaning",
                IssueKind.OFF_QUESTION,
                f"the question asks what {listed} means; neither the answer nor its sources "
                "name it",
            )
    elif asks.answer_type == AnswerType.PART_NUMBER:
        asked = set(terms(" ".join(perception.identifiers)))
        given = set(terms(" ".join((*find_entities(text), *_PART.findall(text))))) - asked
        if not given:
            yield Finding(
                "answer_type.part_number",
                IssueKind.OFF_QUESTION,
                "the question asks for a part number; the answer gives none",
            )


# A part or order number written without "P/N": "88-2041-09", "SK.400-12", "4471203".
_PART = re.compile(r"\b(?=[A-Z0-9./-]*\d)[A-Z0-9]+(?:[-/.][A-Z0-9]+)+\b|\b\d{5,}\b")


def _gives_a_figure(answer: AnswerModel, text: str) -> bool:
    """A number (its unit is the attribute check's to judge: a unit ragcore does not know,
    "108 hL", is still a figure), or words that answer the attribute without one
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
        for a in answer.asks.attributes
    )


def _code_terms(text: str) -> set[str]:
    return {t for t in terms(text) if any(c.isdigit() for c in t)}
