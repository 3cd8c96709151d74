"""Substitution follow-ups: an opener and a thing in place of one the previous question
asked about, the rest of that question borrowed.

- **A name of its own** that the identifier patterns do not read ("And the 737-800?"
  after "How many hydraulic systems does the A320 have?") takes the place of the
  previous question's identifier — a model's, when it named one — and counts as a thing
  of that kind for the rest of the conversation ("Which aircraft has more?").
- **The same noun, told apart otherwise** ("And the A320 blue reservoir?" after "How
  much fluid do the A320 green reservoir and the 737 reservoir A hold?", "And reservoir
  B?" after reservoir A) takes the place of the previous question's phrase of that noun;
  a phrase joined to it by "and" with the same noun goes with it (the follow-up asks of
  one thing). "One" is that noun ("And the blue one?" after "the green reservoir").

Either way the rewrite says what replaced what (``Replacement``), so validation can tell
an answer about the new thing from the previous one's figure again
(``validation.checks.substitution``). Anything else is left to the other follow-up rules
(``followup``): a new identifier the patterns read ("And E4031?"), a time ("What about
2021?"), a question of its own after the opener.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace

from ragcore.agents.perception.model import Entity, Perception, Replacement
from ragcore.agents.perception.rules import FollowupRules
from ragcore.agents.perception.wording import ARTICLES, Word, apply, split_words
from ragcore.text import lexicon
from ragcore.text.terms import terms
from ragcore.types import EntitySource

_MAX_WORDS = 4
"""A fragment longer than this is a question of its own, not a thing put in place."""
# A name: letters and digits joined ("737-800", "A321neo"), not a bare number ("90").
_NAME = re.compile(r"(?=.*\d)(?:[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+|(?=.*[A-Za-z])[A-Za-z0-9]+)")
# Between two phrases joined as one subject: "… reservoir and the 737 reservoir A".
_JOINED = re.compile(r"\s*,?\s*(?:and|or)\s+(?:the\s+)?", re.IGNORECASE)
# A designator after the noun: "reservoir A", "system 2".
_DESIGNATOR = re.compile(r"\s+[A-Z0-9]{1,2}\b")
_DESIGNATOR_WORD = re.compile(r"[A-Z]|\d{1,2}")


@dataclass(frozen=True)
class Substitution:
    """The previous question with a thing of the follow-up in place of one of its own."""

    question: str
    replaced: tuple[Replacement, ...]
    reasons: tuple[str, ...]


def substitute(new: Perception, previous: Perception, rules: FollowupRules) -> Substitution | None:
    """``new`` as the previous question with what it names in place, when ``new`` is an
    opener and a short noun phrase doing so; else None."""
    fragment = _fragment(new, rules)
    if fragment is None or new.constraints.time is not None:
        return None
    before = _identifiers(previous)
    known = {e.text for e in before}
    if any(e.text not in known for e in _identifiers(new)):
        return None  # a new identifier: the ellipsis rules replace it by kind
    if len(fragment) == 1 and _NAME.fullmatch(fragment[0].text) and fragment[0].text not in known:
        return _named(fragment[0].text, previous, before)
    if len(fragment) == 1 and fragment[0].lower in _VARIANTS:
        return _variant(fragment[0], previous)
    if fragment[-1].lower in _ONE and len(fragment) > 1:
        # "the new one" after "the old kit": the noun told apart by a word of the same
        # kind (an age, a colour) before any other modified noun ("interval went")
        said = {w.lower for w in fragment[:-1]}
        kin = next((k for k in (_VARIANTS, _AGES) if said & k), None)
        noun = (_modified_noun(previous, kin) if kin else None) or _modified_noun(previous)
        if noun is None:
            return None
        fragment = [*fragment[:-1], replace(fragment[-1], text=noun.text, lower=noun.lower)]
    return _same_noun(fragment, previous)


_ONE = frozenset(["one", "ones"])


_VARIANTS = lexicon.WordSet("lexicon", "variant_modifiers")
_AGES = lexicon.WordSet("lexicon", "age_modifiers")


def _modified_noun(previous: Perception, by: AbstractSet[str] | None = None) -> Word | None:
    """What "the blue one" names: the previous question's first word told apart by the
    word before it ("reservoir" in "the green reservoir"), an identifier or figure aside;
    with ``by``, told apart by one of those words."""
    words = split_words(previous.question)
    names = {e.text for e in _identifiers(previous)}
    for before, word in zip(words, words[1:], strict=False):
        if by is not None and before.lower not in by:
            continue
        if (
            terms(before.text)
            and terms(word.text)
            and before.text not in names
            and word.text not in names
            and not any(c.isdigit() for c in before.text + word.text)
        ):
            return word
    return None


def _fragment(new: Perception, rules: FollowupRules) -> list[Word] | None:
    words = split_words(new.question)
    lower = tuple(w.lower for w in words)
    opener = next((o for o in rules.openers if lower[: len(o)] == o), None)
    if opener is None:
        return None
    rest = words[len(opener) :]
    while rest and rest[0].lower in ARTICLES:
        rest = rest[1:]
    if not rest or len(rest) > _MAX_WORDS:
        return None
    if rest[0].lower in lexicon.words("lexicon", "question_starts"):
        return None
    if rules.points_back(w.lower for w in rest):
        return None
    return rest


def _variant(word: Word, previous: Perception) -> Substitution | None:
    """ "And blue?" after "a320 green reservoir capacity": the previous question with the
    word that told its thing apart ("green", ``lexicon.variant_modifiers``) replaced."""
    noun = _modified_noun(previous, _VARIANTS)
    if noun is None:
        return None
    words = split_words(previous.question)
    before = next(b for b, w in zip(words, words[1:], strict=False) if w.start == noun.start)
    if before.lower == word.lower:
        return None  # the same one again
    old, new = f"{before.text} {noun.text}", f"{word.text} {noun.text}"
    return Substitution(
        apply(previous.question, [(before.start, before.end, word.text)]),
        (Replacement(old, new),),
        (f"substitution: {new!r} in place of {old!r}",),
    )


def _named(name: str, previous: Perception, before: list[Entity]) -> Substitution | None:
    if not before:
        return None
    old = next((e for e in before if e.label == "MODEL"), before[0])
    edits = [(e.start, e.end, name) for e in _identifiers(previous) if e.text == old.text]
    return Substitution(
        apply(previous.question, edits),
        (Replacement(old.text, name, old.label),),
        (f"substitution: {name} in place of {old.text}",),
    )


def _same_noun(fragment: list[Word], previous: Perception) -> Substitution | None:
    words = split_words(previous.question)
    last = fragment[-1]
    if len(fragment) > 1 and _DESIGNATOR_WORD.fullmatch(last.text):
        # "reservoir B" for "reservoir A": the noun and its designator
        head = terms(fragment[-2].text)
        phrases = [
            (i, i + 1)
            for i, w in enumerate(words[:-1])
            if head
            and terms(w.text) == head
            and _DESIGNATOR_WORD.fullmatch(words[i + 1].text)
            and words[i + 1].text != last.text
        ]
        if len(phrases) != 1:
            return None
        start, end = phrases[0]
    else:
        head = terms(last.text)
        if not head:
            return None
        width = len(fragment)
        phrases = [_phrase(words, i, width) for i, w in enumerate(words) if terms(w.text) == head]
        if not phrases:
            return None
        own = {t for w in fragment for t in terms(w.text)}
        # the phrase sharing most with the fragment ("A320" in "the A320 green reservoir")
        start, end = max(phrases, key=lambda p: len(own & _terms(words[p[0] : p[1] + 1])))
        if not own - _terms(words[start : end + 1]):
            return None  # "And the reservoir?": nothing of its own to put in place
    old = previous.question[words[start].start : words[end].end]
    new = " ".join(w.text for w in fragment)
    cut_from, cut_to = words[start].start, words[end].end
    for s, e in phrases:
        if s > end:  # "… green reservoir and the 737 reservoir A": the other goes
            gap = previous.question[cut_to : words[s].start]
            if _JOINED.fullmatch(gap):
                tail = _DESIGNATOR.match(previous.question, words[e].end)
                cut_to = tail.end() if tail else words[e].end
        elif e < start:
            gap = previous.question[words[e].end : cut_from]
            if _JOINED.fullmatch(gap):
                cut_from = words[s].start
    text = previous.question[:cut_from] + new + previous.question[cut_to:]
    return Substitution(
        text, (Replacement(old, new),), (f"substitution: {new!r} in place of {old!r}",)
    )


def _phrase(words: list[Word], head: int, width: int) -> tuple[int, int]:
    """The noun phrase ending at ``words[head]``: the content words before it, at most
    as many as the fragment has."""
    start = head
    while start > 0 and head - start < width and terms(words[start - 1].text):
        start -= 1
    return start, head


def _terms(words: list[Word]) -> set[str]:
    return {t for w in words for t in terms(w.text)}


def _identifiers(p: Perception) -> list[Entity]:
    return [e for e in p.entities if e.source == EntitySource.PATTERN]
