"""Whether a text gives a reason, for a why question about a change (``AnswerType.REASON``:
"Why was the oil interval shortened?"). The reason must be given in the clause that states what
the question asks about: "The platen bolt torque was raised after cracked washers were
found, and the oil change interval was shortened from 500 to 400 hours" gives the
torque's reason, not the interval's; a sentence that only restates the change ("AD
2025-03-11 reduces the interval from 750 to 500 flight cycles") gives none; nor does the
reason for the change of another thing of the same name ("Field data showed early seal
wear, so the seal interval was shortened" for "Why was the inspection interval
shortened?")."""

from __future__ import annotations

import functools
import re

from ragcore.agents.perception.asks import AnswerType, Asks
from ragcore.agents.reading import term_set, word_pairs
from ragcore.text.families import families, in_family
from ragcore.text.lexicon import pattern, words
from ragcore.text.terms import terms

# Two main clauses of one sentence: ", and" / ", while" / ", but" / a semicolon.
_CLAUSES = re.compile(r";\s*|,\s+(?:and|while|but|whereas)\s+", re.IGNORECASE)
_SENTENCES = re.compile(r"(?<=[.!?])\s+")


def gives_a_reason(asks: Asks, text: str) -> bool:
    """``text`` gives a reason: a sentence of it does, and where a sentence joins two
    statements, the one naming most of the question's content words does."""
    given = pattern("lexicon", "reason_given")
    for sentence in _SENTENCES.split(text):
        parts = [c for c in _CLAUSES.split(sentence) if c.strip()]
        scored = [
            (sum(in_family(t, families(terms(c))) for t in asks.content_terms), c) for c in parts
        ]
        best = max((n for n, _ in scored), default=0)
        about = [c for n, c in scored if n == best] if best else parts
        if any(
            given.search(c) and not _other_way(asks.terms, c) and not _other_thing(asks, c)
            for c in about
        ):
            return True
    return False


def _other_thing(asks: Asks, clause: str) -> bool:
    """``clause`` states the change of another thing than the question's: the part of it
    that states the change names the head of a word pair the question asks about
    ("inspection interval") with another describing word ("the seal interval was
    shortened") that the question does not use elsewhere either, and the clause never
    names the question's."""
    changing = [p for p in clause.split(",") if set(terms(p)) & _changes()]
    if not changing:
        return False
    said = set(terms(clause))
    generic = term_set("generic")
    # the pairs of the part that states the change: "With the new synthetic oil, the oil
    # change interval was extended" changes the interval, not the synthetic oil
    stated = [pair for part in changing for pair in word_pairs(part)]
    for modifier, head, _ in asks.pairs:
        if modifier in generic or modifier in _changes() or head in _changes():
            continue
        if in_family(modifier, families(said)):
            continue
        # A describing word the question uses itself names the same thing: "the seal
        # interval was shortened" is the change of "the seal replacement interval".
        asked = families(asks.content_terms)
        if any(
            h == head and m != modifier and m not in generic and not in_family(m, asked)
            for m, h, _ in stated
        ):
            return True
    return False


def _other_way(asked: frozenset[str], clause: str) -> bool:
    """``clause`` states a change only the other way than the question asks the reason
    of ("extended" for "shortened"); ``asked``: the question's terms."""
    said = set(terms(clause))
    down, up = _stems("changed_down"), _stems("changed_up")
    for one, other in ((down, up), (up, down)):
        if asked & one and not asked & other:
            return bool(said & other) and not said & one
    return False


def _changes() -> frozenset[str]:
    """A change either way: only a why question about one is judged here — a document
    that states a change often leaves out its reason, and the answer then restates the
    change; why a thing is as it is ("Why shouldn't it run above 6 bar?") is explained
    in too many ways to read."""
    return _stems("changed_down") | _stems("changed_up") | _stems("changed_other")


@functools.cache
def _stems(name: str) -> frozenset[str]:
    return frozenset(terms(" ".join(words("lexicon", name))))


def no_reason(asks: Asks, text: str) -> str | None:
    """Why ``text`` does not answer a why question, or None."""
    if (
        asks.answer_type == AnswerType.REASON
        and asks.terms & _changes()
        and text.strip()
        and not gives_a_reason(asks, text)
    ):
        return "the question asks why; no sentence gives the reason for what it asks about"
    return None
