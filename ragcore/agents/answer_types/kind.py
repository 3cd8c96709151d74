"""Whether a text names one of the kind a question asks for, or who does what it asks.

- **A kind** (``AnswerType.KIND``: "Which grease goes in the axis 1-3 gearboxes?", "What
  oil goes in the way-lube tank?"): a sentence names one — the kind's head noun with
  words of its own before it that the question did not say ("5W-40 synthetic oil",
  "phosphate ester fluid"), or beside it a name with a digit or capitals ("grease EP2",
  "oil: ISO VG 46", "ISO VG 220 oil"), or a model of its own ("charged with the CH-80"
  for "Which charger …?"). A text that speaks of the kind only as the
  question does ("Replace the grease in the axis 1 to 3 gearboxes every 10000 hours"),
  or never names it and states only figures ("Check the way-lube tank weekly; it holds
  2.5 litres"), gives an interval or a capacity of the place it goes, not what goes
  there. A text naming no
  figure and not the kind's word ("Wear goggles and nitrile gloves" for "What PPE …?")
  names its members, and is left to the other checks.
- **Who** (``AnswerType.AGENT``: "Who signs the hot work permit?"): a sentence says the
  act asked about, by word family ("signed by the area supervisor"), or names who by a
  relative clause (``lexicon.agent_given``: "only the person who applied it may remove
  it"). A text about the thing acted on that says neither ("A fire watch must stay for
  at least 60 minutes") tells no one.
"""

from __future__ import annotations

import re

from ragcore.agents.perception.asks import AnswerType, Asks
from ragcore.agents.perception.conversation import answered_phrase
from ragcore.agents.reading import identifiers, term_set
from ragcore.text.families import families, in_family
from ragcore.text.lexicon import pattern
from ragcore.text.quantities import quantities
from ragcore.text.sentences import split_sentences
from ragcore.text.terms import terms

# A name beside the kind's noun: a token with a digit or two capitals ("EP2", "VG",
# "5W-40", "Mobilgrease"), within a few characters after the noun ("grease EP2",
# "oil: ISO VG 46").
_NAME_AFTER = re.compile(r"^\W{0,3}(?:[A-Z][\w-]*[A-Z0-9][\w-]*|[\w-]*\d[\w-]*)")
# A name before the kind's noun, within a few words: "ISO VG 220 oil", "5W-40 synthetic
# oil", "EP2 grease" (a token with two capitals, or letters and digits together).
_NAME_BEFORE = re.compile(
    r"(?:\b[A-Z][A-Za-z]*[A-Z][\w-]*|\b[A-Za-z]+\d[\w-]*|\b\d+[A-Za-z][\w-]*)"
    r"(?:[\s-]+[\w-]+){0,2}\s+$"
)
# A figure bound to the noun right after it ("a reach of 1450 mm", "its concentration
# between 6 % and 8 %"): the noun is a measure, and the question asked for its value.
_MEASURED = re.compile(
    r"^\s*(?:[\w-]+\s+){0,6}?(?:of|between|is|are|was|at|from|to|:|=)\s+(?:[a-z]+\s+)?(?=\d)"
)
# A figure right before a word of the kind, or one word before it ("a 55 mm screw", "12 mm
# wire ropes", "three filter stages"): the question asked a measure or a count of it
# ("What screw diameter …?").
_FIGURE_BEFORE = re.compile(r"(?:\d[\d.,–-]*\s*[^\s\d,;:.]{0,6}|\b[a-z]+)\s+(?:[a-z-]+\s+)?$")


def no_kind(asks: Asks, text: str) -> str | None:
    """Why ``text`` names no one of the kind asked for, or None."""
    if asks.answer_type != AnswerType.KIND or not asks.kind or not text.strip():
        return None
    head = asks.kind.split()[-1]
    sentences = [text[a:b] for a, b in split_sentences(text)]
    words = asks.kind.split()
    if any(_names_one(head, s, asks.terms) or _measured(words, s) for s in sentences):
        return None
    head_terms = set(terms(head))
    spoken_of = any(head_terms & set(terms(s)) for s in sentences)
    if not spoken_of and not all(quantities(s) for s in sentences):
        return None  # members named by their own words ("goggles and gloves")
    return f"the question asks which {asks.kind}; the answer names none"


def _names_one(head: str, sentence: str, said: frozenset[str]) -> bool:
    if answered_phrase(head, sentence, set(said)):
        return True
    # a model of its own ("must be charged with the CH-80" for "Which charger …?")
    if any(not set(terms(name)) <= said for name, _, _ in identifiers(sentence)):
        return True
    for start, end in _spans_of(head, sentence):
        for name in (_NAME_AFTER.match(sentence[end:]), _NAME_BEFORE.search(sentence[:start])):
            # a model the question names ("the RA-6 grease") is where it goes, no kind
            if name and not set(terms(name.group(0))) <= said:
                return True
    return False


def _measured(kind: list[str], sentence: str) -> bool:
    """Whether ``sentence`` gives a figure of a word of the kind ("a reach of 1450 mm", "a
    55 mm screw", "three filter stages"): the "kind" was a measure or a count ("What
    screw diameter does the HX-350 use?"), answered by its value."""
    numbers = term_set("number_words")
    for word in kind:
        for start, end in _spans_of(word, sentence):
            after = _MEASURED.match(sentence[end:])
            # the figure opens right there, with its unit ("to 0.15–0.25 mm"; not "to 3
            # gearboxes")
            given = quantities(sentence[end + after.end() :][:30]) if after else []
            if given and given[0].start == 0:
                return True
            before = _FIGURE_BEFORE.search(sentence[:start])
            if before and (quantities(before.group(0)) or set(terms(before.group(0))) & numbers):
                return True
    return False


def _spans_of(head: str, sentence: str) -> list[tuple[int, int]]:
    """Where each word of ``sentence`` that is ``head`` in any inflection stands."""
    wanted = terms(head)
    found = re.finditer(r"[A-Za-z][\w-]*", sentence)
    return [m.span() for m in found if terms(m.group(0)) == wanted]


def no_agent(asks: Asks, text: str) -> str | None:
    """Why ``text`` says nothing of who does the asked act, or None."""
    if asks.answer_type != AnswerType.AGENT or not asks.act or not text.strip():
        return None
    if in_family(asks.act, families(terms(text))):
        return None
    if pattern("lexicon", "agent_given").search(text):
        return None
    return f"the question asks who does it ({asks.act}); the answer says nothing of who"
