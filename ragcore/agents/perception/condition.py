"""The figures a question sets as the condition of what it asks: "rated output at 60
Hz?", "flow @ 8 bar" — a figure after "at" or "@" (``lexicon.condition_before``). An
answer's figures must be at that condition (``answer_types.condition``)."""

from __future__ import annotations

from ragcore.text.lexicon import pattern
from ragcore.text.quantities import quantities


def conditions(question: str) -> frozenset[tuple[float, str]]:
    """The figures ``question`` sets as the condition of what it asks ("at 60 Hz")."""
    before = pattern("lexicon", "condition_before")
    return frozenset(
        (q.value, q.unit) for q in quantities(question) if before.search(question[: q.start])
    )
