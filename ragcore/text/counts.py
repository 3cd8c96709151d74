"""Counts: a bare number with the noun it counts ("12 filter cartridges", "8 air changes
per hour"). A count is backed by a source sentence (or line) that gives the same number
with the same noun; the number alone elsewhere in the source (12 months) is not.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ragcore.text.families import families, in_family
from ragcore.text.lexicon import pattern
from ragcore.text.quantities import (
    YEAR,
    mask_identifiers,
    number_spans,
    quantities,
    word_number_spans,
)
from ragcore.text.sentences import split_sentences
from ragcore.text.tables import number_table
from ragcore.text.terms import terms

# Rules as data (rules/words.toml): a number that is a label, not a count ("Rev. 2",
# "Section 4", "Class 3": patterns.label_before_count); a day of a month, a date ("1
# September 2022", "from 15 March": patterns.month_after); a number word after "the",
# "about" … that counts nothing new ("the two probes") or is worked out ("about ten
# units": patterns.not_counted_before); one before "can", "altogether" … that counts no
# noun ("three can sit") or the answer's own list ("two options: …":
# patterns.no_noun_after).
_CONTRAST = re.compile(r",\s+(?:where|whereas|while)\s+|;\s+", re.IGNORECASE)


@functools.cache
def _repeats() -> frozenset[str]:
    """Words that repeat rather than count things: "no more than 5 times in an hour"."""
    return frozenset(terms("times time fold"))


@functools.cache
def _ordinal() -> re.Pattern[str]:
    """An ordinal backs its count: "after the third unsuccessful attempt" is three
    attempts (rules/numbers.toml [ordinals])."""
    return re.compile(rf"\b(?:{'|'.join(number_table('ordinals'))})\b", re.IGNORECASE)


# The (up to) two words after a number: "12 filter cartridges".
_NEXT = re.compile(r"^\s+([A-Za-z][A-Za-z-]+)(?:\s+([A-Za-z][A-Za-z-]+))?")


@dataclass(frozen=True)
class Count:
    value: float
    start: int
    nouns: tuple[str, ...]
    """The content terms of the words after the number."""
    words: str = ""
    """Those words as written."""


def counts(text: str, ignore: frozenset[str] = frozenset()) -> list[Count]:
    """The counts of ``text``: bare numbers (no unit, no label, no year) followed by
    content words, which are the counted nouns (``ignore``: words that count nothing,
    like "per" or "under")."""
    masked = mask_identifiers(text)
    taken = [(q.start, q.end) for q in quantities(text)]
    out = []
    written = [
        s
        for s in word_number_spans(masked)
        if not pattern("words", "not_counted_before").search(masked[: s[1]])
        and not pattern("words", "no_noun_after").match(masked[s[2] :])
    ]
    month_after = pattern("words", "month_after")
    labelled = pattern("words", "label_before_count")
    for value, start, end in sorted(number_spans(text) + written):
        if any(a <= start < b for a, b in taken) or YEAR.match(masked[start:end]):
            continue
        if month_after.match(masked[end:]) and value == int(value) and 1 <= value <= 31:
            continue
        if labelled.search(masked[:start]) or not (after := _NEXT.match(masked[end:])):
            continue
        nouns = tuple(t for w in after.groups() if w for t in terms(w) if t not in ignore)
        if nouns and nouns[0].isalpha() and nouns[0] not in _repeats():
            out.append(Count(value, start, nouns, " ".join(w for w in after.groups() if w)))
    return out


# The list a count introduces: "three filter stages: an F7 pre-filter, an F9 bag filter
# and an H14 final filter".
_LIST = re.compile(r"\s*:\s*([^.;:\[]+)")
_ITEM_BREAK = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")


def enumerated(count: Count, text: str) -> bool:
    """Whether ``text`` lists exactly the counted things right after the count: a count
    of the answer's own list needs no source to give the number (its items are claims
    of their own)."""
    after = text.find(count.words, count.start)
    listed = _LIST.match(text, after + len(count.words)) if after >= 0 else None
    if listed is None:
        return False
    items = [i for i in _ITEM_BREAK.split(listed.group(1).strip()) if i.strip()]
    return len(items) == count.value


def backed(count: Count, sources: Iterable[str]) -> bool:
    """Whether a sentence or line of ``sources`` gives the count's number with one of
    its nouns."""
    return any(
        count.value in numbers and any(in_family(n, keys) for n in count.nouns)
        for text in sources
        for numbers, keys in _pieces(text)
    )


@functools.lru_cache(maxsize=4096)  # the same chunks are cited question after question
def _pieces(text: str) -> tuple[tuple[frozenset[float], frozenset[str]], ...]:
    # Sentences, and lines of one sentence (a list item, a table row: "Nozzles: 6"); each
    # side of a contrast stands alone ("three strings, where the PW-300 takes two").
    lines = [line for line in text.split("\n") if len(split_sentences(line)) <= 1]
    spans = [text[a:b] for a, b in split_sentences(text)] + lines
    pieces = [p for span in spans for p in _CONTRAST.split(span) if p]
    ordinals = number_table("ordinals")
    return tuple(
        (
            frozenset(v for v, _, _ in number_spans(p) + word_number_spans(p))
            | {ordinals[m.group(0).lower()] for m in _ordinal().finditer(p)},
            families(terms(p)),
        )
        for p in pieces
    )
