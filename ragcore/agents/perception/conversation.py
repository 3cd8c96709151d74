"""The conversation so far, as data a follow-up reads: per earlier turn, the question as
it was searched, the identifiers it named (with their labels), the identifiers its
answer introduced (a part number, a code), whether it asked about history, and whether
it leaned on the turn before it.

A session keeps this in each turn's perception summary (``turn_summary``); ``turn_state``
reads it back. Nothing here runs a model: a turn is read from what was recorded, so
the referents in play cost no second perception.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ragcore.agents.perception.model import Entity, Perception
from ragcore.agents.perception.wording import split_words
from ragcore.text.terms import terms
from ragcore.types import EntitySource

_IN_PLAY_TURNS = 4
"""How far back the entities in play reach ("which one is louder?" after three turns)."""


@dataclass(frozen=True)
class Referent:
    """A thing a follow-up can point at: an identifier and its label."""

    text: str
    label: str


@dataclass(frozen=True)
class TurnState:
    """One earlier turn, as the conversation keeps it."""

    question: str
    """As it was searched (its rewrite, if it had one)."""
    entities: tuple[Referent, ...] = ()
    """The identifiers the question named, in order."""
    answered: tuple[Referent, ...] = ()
    """Identifiers the answer named that the question did not (its part number, code)."""
    asked: tuple[str, ...] = ()
    """The identifiers the asker wrote (a rewrite may carry others from earlier turns)."""
    history: bool = False
    """It asked about an earlier version or a change."""
    followed: bool = False
    """It was a follow-up (rewritten from the turn before it)."""
    value: str | None = None
    """The thing its answer gave for a "what <kind> …?" question ("phosphate ester
    fluid" for "What fluid do I top up … with?"): what a next "it" most likely means."""
    cause: str | None = None
    """For a why question, the thing its answer blamed ("battery" for "If the battery runs
    flat while the power is off, the calibration is lost"): what a next "it" that is
    swapped or replaced means."""
    limit: str | None = None
    """A limit its answer named ("the 85 dB(A) action level"): what "once it's exceeded"
    means next."""
    written: str = ""
    """The question as the asker wrote it ("bearing temp limit?"), when kept."""
    said: str = ""
    """The start of its answer, when it answered: where "that filter" finds which filter
    ("the oil filter")."""
    names: tuple[Referent, ...] = ()
    """The other named entities its question was read with (spaCy's: an organisation, a
    date): reading the question again from them needs no second spaCy pass."""


def summarise(perception: Perception) -> dict[str, object]:
    """What a session keeps of a turn's perception (JSON-ready): enough to show and audit
    the turn; the next turn reads the rewritten question again rather than this."""
    c = perception.constraints
    return {
        "action": str(perception.action),
        "route": str(perception.route),
        "entities": [[e.text, e.label] for e in perception.entities],
        "sides": list(perception.sides),
        "time": None
        if c.time is None
        else {
            "text": c.time.text,
            "start": c.time.start and c.time.start.isoformat(),
            "end": c.time.end and c.time.end.isoformat(),
        },
        "source": c.source,
        "latest": c.latest,
        "history": c.history,
        "keywords": list(perception.keywords),
    }


def turn_summary(
    perception: Perception,
    answered: Sequence[Entity],
    followed: bool,
    asked: Sequence[Entity] = (),
    answer: str = "",
) -> dict[str, object]:
    """What a session keeps of a turn for the next ones to lean on (JSON-ready), beside
    ``summarise``: ``answered``, the identifiers found in the answer's text;
    ``asked``, those of the question as the asker wrote it; ``answer``, the answer's
    text when it answered (its ``value``)."""
    named = {i.lower() for i in perception.identifiers}
    new = dict.fromkeys((e.text, e.label) for e in answered if e.text.lower() not in named)
    return {
        "answered": [list(pair) for pair in new],
        "followed": followed,
        "asked": list(dict.fromkeys(e.text for e in asked)),
        # a name put in place of an identifier is a thing of its kind from now on
        "named": [[r.new, r.label] for r in perception.replaced if r.label],
        "value": answered_value(perception.question, answer),
        "limit": answered_limit(answer),
        "cause": answered_cause(perception, answer),
        "said": answer[:_SAID_CHARS],
    }


_SAID_CHARS = 600
"""How much of an answer a session keeps for the next turn's "that filter"."""


# "the 85 dB(A) action level", "a limit of 65 °C" is no phrase of this shape (left alone).
_LIMIT = re.compile(
    r"\b\d+(?:[.,]\d+)?\s*[^\s\d,.;:\[\]]+\s+(?:[a-z]+\s+)?(?:level|limit|threshold)\b"
)


# "an action level of 85 dB(A)": the same limit written noun first (a "noise level of"
# is a measured value, no limit)
_LIMIT_OF = re.compile(
    r"\b((?:[a-z]+\s+)?(?:limit|threshold)|action\s+level)\s+of\s+(\d+(?:[.,]\d+)?\s*[^\s\d,.;:\[\]]+)"
)


# "If the battery runs flat …", "Most often the accumulator has lost …", "Because the
# filter is clogged …": the thing a cause is told of, after a causal opener and an article
_CAUSE = re.compile(
    r"^\s*(?:if|when|once|because|since|most\s+often|usually|probably|likely)\s*,?\s+"
    r"(?:the|a|an|its|their)\s+([a-z]+)\b",
    re.IGNORECASE,
)
_WHY = re.compile(r"\bwhy\b|\bhow\s+come\b", re.IGNORECASE)


def answered_cause(perception: Perception, answer: str) -> str | None:
    """For a why question, the thing its answer blames first ("battery" for "If the
    battery runs flat …"), when the question did not name it; else None."""
    if not answer or not _WHY.search(perception.question):
        return None
    found = _CAUSE.match(answer)
    if found is None or set(terms(found.group(1))) & set(terms(perception.question)):
        return None
    return found.group(1)


def answered_limit(answer: str) -> str | None:
    """The first limit ``answer`` names as a figure and its noun ("85 dB(A) action
    level", also when written "an action level of 85 dB(A)"), for a next turn's "once
    it's exceeded" or "above it"."""
    found = _LIMIT.search(answer)
    if found:
        return found.group(0)
    found = _LIMIT_OF.search(answer)
    return f"{found.group(2)} {found.group(1)}" if found else None


# "What fluid do I top up … with?", "Which seal does the CP-200 use?", "What fluid goes
# into …?": a kind asked for.
_ASKED_KIND = re.compile(
    r"^\s*(?:what|which)\s+(?:kind\s+of\s+|type\s+of\s+)?([A-Za-z]+)\s+"
    r"(?:do|does|did|is|are|was|were|should|must|can|will|goes|go|fits|fit|gets)\b",
    re.IGNORECASE,
)
_VALUE_WORDS = 3


def answered_value(question: str, answer: str) -> str | None:
    """The thing ``answer`` gives for the kind ``question`` asks for ("What fluid …?"
    answered "Refill with phosphate ester fluid …" gives "phosphate ester fluid"): the
    kind's noun in the answer with the words before it the question did not say."""
    kind = _ASKED_KIND.match(question)
    if kind is None or not answer:
        return None
    return answered_phrase(kind.group(1), answer, set(terms(question)))


def answered_phrase(noun: str, answer: str, said: set[str]) -> str | None:
    """The first phrase of ``answer`` ending in ``noun`` with words before it that
    ``said`` (terms already said) does not hold ("oil filter" for "filter" in "Change
    the engine oil and the oil filter every 500 hours"), else None."""
    head = terms(noun)
    if not head:
        return None
    words = split_words(answer)
    for i, w in enumerate(words):
        if i == 0 or terms(w.text) != head:
            continue
        j = i
        while j > 0 and i - j < _VALUE_WORDS:
            before = terms(words[j - 1].text)
            if not before or set(before) & said or any(c.isdigit() for c in words[j - 1].text):
                break
            j -= 1
        if j < i:
            return answer[words[j].start : w.end]
    return None


def turn_state(question: str, summary: Mapping[str, object], written: str = "") -> TurnState:
    """A turn read back from its question as searched and its perception summary;
    ``written``: the question as asked, when it was rewritten."""
    entities = [*_pairs(summary.get("entities") or []), *_pairs(summary.get("named") or [])]
    answered = summary.get("answered") or []
    return TurnState(
        question,
        tuple(
            dict.fromkeys(
                Referent(str(text), str(label))
                for text, label in entities
                if label in _IDENTIFIER_LABELS
            )
        ),
        tuple(Referent(str(text), str(label)) for text, label in _pairs(answered)),
        history=bool(summary.get("history")),
        followed=bool(summary.get("followed")),
        value=str(value) if (value := summary.get("value")) else None,
        limit=str(limit) if (limit := summary.get("limit")) else None,
        cause=str(cause) if (cause := summary.get("cause")) else None,
        said=str(summary.get("said") or ""),
        written=written,
        names=tuple(
            Referent(str(text), str(label))
            for text, label in _pairs(summary.get("entities") or [])
            if label not in _IDENTIFIER_LABELS
        ),
        asked=tuple(str(a) for a in asked)
        if isinstance(asked := summary.get("asked"), list)
        else (),
    )


def names_a_time(summary: Mapping[str, object]) -> bool:
    """Whether a kept turn's question named a time or a version ("under the 2021 rule
    could a supervisor pull someone's lock?"): something a next "and now?" can set
    another version against, though the turn itself was not answered."""
    return isinstance(summary.get("time"), dict)


def in_play(turns: Sequence[TurnState], label: str | None = None) -> tuple[str, ...]:
    """The identifiers the conversation is about, nearest first: the previous turn's,
    then those of the turns it leaned on, back to the turn that began the topic (a
    question that stood alone naming what it asks about; one that names nothing, "Why
    was the oil interval shortened?", goes on with the topic before it). ``label``: only
    identifiers of that kind."""
    found: dict[str, None] = {}
    for turn in turns[:_IN_PLAY_TURNS]:
        for r in turn.entities:
            if label is None or r.label == label:
                found.setdefault(r.text, None)
        if not turn.followed and turn.entities:
            break
    return tuple(found)


def with_names(perception: Perception, named: Sequence[Referent]) -> Perception:
    """``perception`` with the identifiers a turn was recorded with that its patterns do
    not read ("737-800", put in place of the A320 by a substitution) as entities where
    its question names them."""
    have = {e.text for e in perception.entities}
    extra = []
    for r in named:
        if r.text in have:
            continue
        for m in re.finditer(rf"(?<![\w-]){re.escape(r.text)}(?![\w-])", perception.question):
            extra.append(Entity(r.text, r.label, EntitySource.PATTERN, m.start(), m.end()))
    if not extra:
        return perception
    entities = tuple(sorted((*perception.entities, *extra), key=lambda e: e.start))
    return replace(perception, entities=entities)


_IDENTIFIER_LABELS = frozenset({"MODEL", "ERROR_CODE", "PART_NUMBER"})


def _pairs(value: object) -> list[tuple[object, object]]:
    if not isinstance(value, list):
        return []
    return [(p[0], p[1]) for p in value if isinstance(p, list) and len(p) == 2]
