"""The word a stored table value is looked up by, and the words a question offers.

Perception (``agents.perception.data_question``) reads a filter value only where the
question spells the value's words, in order, as tokens compared lowercase without a
possessive 's (a leading "P/N" of the value dropped). So a value can be named by a
question only if the value's first such word is one of the question's: the value index
kept at load (``storage.table_values``) files every distinct value under that word,
and a question is matched against the values filed under its own words only, not
against every row. The tokenizing here is perception's, repeated so this bottom layer
needs nothing above it; a test pins that both agree.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_WORD = re.compile(r"[^\W_]+(?:[-/.'’][^\W_]+)*")
_COMPOUND = re.compile(r"[^\W\d_]+(?:[-/][^\W\d_]+)+")
_PART = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_POSSESSIVE = re.compile(r"['’]s$")
_PART_NUMBER = ("p/n", "pn")
_PREFIX = re.compile(r"^\s*P/?N\s*", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")
_LETTERS = re.compile(r"[^\W\d_]+")


def _exact(word: str) -> str:
    return _POSSESSIVE.sub("", word.lower())


def _tokens(text: str) -> Iterator[str]:
    for m in _WORD.finditer(text):
        whole = m.group(0)
        if _COMPOUND.fullmatch(whole):
            yield from (_exact(p.group(0)) for p in _PART.finditer(whole))
        else:
            yield _exact(whole)


def singular(word: str) -> str:
    """Plurals folded crudely but the same way on both sides: "rates" -> "rate"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("xes", "ches", "shes", "sses")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def plural(word: str) -> str:
    """A noun's plural, crudely, so that ``singular`` folds it back: "booking" ->
    "bookings", "entry" -> "entries", "box" -> "boxes"; a plural stays as it is."""
    if singular(word) != word:
        return word
    if len(word) > 3 and word.endswith("y") and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("x", "ch", "sh", "ss")):
        return word + "es"
    return word + "s"


def words(text: str) -> list[str]:
    """The tokens of ``text`` as perception compares values: lowercase, without a
    possessive 's; a compound of letters as its words, an identifier whole."""
    return list(_tokens(text))


def lookup_word(value: object) -> str:
    """The word a stored value is filed under: the first of its words ("" for none)."""
    first = next(tokens := _tokens(str(value)), "")  # lazily: a load keys every value
    return next(tokens, "") if first in _PART_NUMBER else first


def question_words(question: str) -> frozenset[str]:
    """Every word of ``question`` a value's ``lookup_word`` could be: its tokens in the
    plural and the singular ("boilers" names "boiler"), and (generously) each whole word
    before a compound is split."""
    tokens = words(question)
    whole = {_exact(m.group(0)) for m in _WORD.finditer(question)}
    return frozenset(tokens) | {singular(t) for t in tokens} | whole


def shape(value: object) -> str:
    """ "CP-200" -> "A-9", "88-2041-09" -> "9-9-9": what kind of identifier it is (as
    perception's ``_shape``)."""
    return _LETTERS.sub("A", _DIGITS.sub("9", _PREFIX.sub("", str(value))))


__all__ = ["lookup_word", "question_words", "shape", "singular", "words"]
