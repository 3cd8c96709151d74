"""How the agents read a sentence, one definition each: the things it names, the codes it
uses, the words a claim is measured on, and its pairs of adjacent words.

Perception reads the question with these; generation and validation read answers and
sources with the same ones, so a question and an answer are compared like for like.
The word sets come from ``rules/lexicon.toml``.
"""

from __future__ import annotations

import functools
import re

from ragcore.agents.attributes import default_attributes
from ragcore.text.citations import CITATION
from ragcore.text.identifiers import ENTITY_PATTERNS
from ragcore.text.lexicon import pattern, words
from ragcore.text.quantities import quantities
from ragcore.text.terms import model_terms, terms

# Error codes (E01, E4027, E-19) and protection ratings (IP65) belong to no one.
_CODE = re.compile(r"^(?:E-?\d+|IP\d\dK?)$")


def identifiers(text: str) -> list[tuple[str, int, int]]:
    """Things a figure can belong to in ``text``, with their spans ("PX-20" → "px20"):
    models and documents, not error codes (a code's figure is still the model's)."""
    found: dict[int, tuple[str, int, int]] = {}
    for entity in ENTITY_PATTERNS:
        for m in entity.finditer(text):
            names = model_terms(terms(m.group(0)))
            if names and m.start() not in found and not _CODE.match(m.group(0)):
                found[m.start()] = (min(names), m.start(), m.end())
    return sorted(found.values(), key=lambda f: f[1])


# A word and a year joined by a hyphen ("mid-2025", "pre-2020") is a time, not a model.
_WORD_YEAR = re.compile(r"^[a-z]{3,}(?:19|20)\d\d$")
_PLURAL = re.compile(r"(?<=\d)s\b")


def written_names(text: str) -> list[tuple[str, int, int]]:
    """``identifiers`` however a person types them: "ac-110", "cp500" and "Vm3000" name
    the AC-110, the CP-500 and the VM3000 as the capitalised spelling does. Read on the
    text in capitals (same length, so the spans hold); a word joined to a year
    ("mid-2025") is no name."""
    # a plural "s" after the digits ("VR-150s") is no part of the name
    singular = _PLURAL.sub(" ", text)
    return [
        (name, start, end)
        for name, start, end in identifiers(singular.upper())
        if not _WORD_YEAR.match(name)
    ]


def codes(text: str) -> frozenset[str]:
    """The identifiers ``text`` uses as codes: a code names what the controller reports,
    not the model a claim is about ("On the YCU-8, F-21 signals …" is about the YCU-8;
    "fault F-21", "E-07 indicates …")."""
    before, after = pattern("lexicon", "code_before"), pattern("lexicon", "code_after")
    return frozenset(
        name
        for name, start, end in identifiers(text)
        if before.search(text[max(0, start - 20) : start]) or after.match(text[end : end + 30])
    )


@functools.cache
def term_set(name: str) -> frozenset[str]:
    """The word set ``name`` of ``rules/lexicon.toml`` as content terms (stemmed)."""
    return frozenset(terms(" ".join(words("lexicon", name))))


@functools.cache
def relation_terms() -> frozenset[str]:
    """Linking, framing, number and comparative words (the shipped table's): how an
    answer relates and reports claims, left out of word coverage."""
    comparatives = frozenset(default_attributes().comparatives.words)
    own = term_set("linking") | term_set("frame") | term_set("number_words")
    return own | comparatives | {"than", "vs"}


def content_terms(text: str) -> list[str]:
    """The words a statement's support is measured on: not its figures and units, which
    are checked as quantities (a correct "17.4 psi" for "1.2 bar" shares no words with
    its source), nor the comparison words."""
    masked = list(text)
    for q in quantities(text):
        masked[q.start : q.end] = " " * (q.end - q.start)
    return [t for t in terms("".join(masked)) if t not in relation_terms() and not t.isdigit()]


def word_pairs(text: str) -> list[tuple[str, str, str]]:
    """Adjacent content words of ``text`` ("winding temperature", "temperature alarm"),
    as terms and as written; names, figures, punctuation and stopwords break a pair."""
    for breaking in (*ENTITY_PATTERNS, CITATION):
        text = breaking.sub(" | ", text)
    found = [
        (stems[0] if (stems := terms(w)) else "", w)
        for w in re.findall(r"[A-Za-z]+|[^\sA-Za-z]", text)
    ]
    return [
        (a, b, f"{x} {y}".lower())
        for (a, x), (b, y) in zip(found, found[1:])
        if a and b and a.isalpha() and b.isalpha()
    ]
