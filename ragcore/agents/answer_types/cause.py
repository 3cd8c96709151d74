"""Whether a text gives a cause, for a question that describes a symptom and asks what is
wrong (``AnswerType.CAUSE``: "Stepper only moves one step each time I jog. What's
wrong?", "… — what's usually the cause?"). A sentence that restates the symptom or
points at a clue ("… and in the same direction, there is your clue") names no cause."""

from __future__ import annotations

from ragcore.agents.perception.asks import AnswerType, Asks
from ragcore.text.lexicon import pattern


def gives_a_cause(text: str) -> bool:
    """``text`` states a cause ("the most common reason … is that …", "caused by",
    "because", "means")."""
    return bool(pattern("lexicon", "cause_given").search(text))


def no_cause(asks: Asks, text: str) -> str | None:
    """Why ``text`` does not answer a question asking what is wrong, or None."""
    if asks.answer_type == AnswerType.CAUSE and not gives_a_cause(text):
        return "the question asks what is wrong; no sentence gives a cause"
    return None
