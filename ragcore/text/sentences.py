"""Sentence boundaries of a text, as character spans."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from ragcore.text.lexicon import WordSet

# Abbreviations whose full stop ends no sentence ("e.g.", "Rev."): rules/words.toml.
_ABBREVIATIONS = WordSet("words", "abbreviations")


def ends_with_abbreviation(text: str) -> bool:
    """Whether ``text`` ends with an abbreviation's full stop ("… per Rev.", "i.e.")."""
    stripped = text.rstrip()
    if not stripped.endswith("."):
        return False
    words = stripped[:-1].rsplit(None, 1)
    return bool(words) and words[-1].lstrip("(\"'").lower() in _ABBREVIATIONS


# A sentence ends at . ! ? (optionally closed by quotes/brackets) before whitespace and
# a capital, digit or opening bracket; blank lines, headings and list items also end one.
_BOUNDARY = re.compile(
    r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[A-Z0-9])|\n\s*\n|\n(?=\s*(?:[#>*+-]|\d+[.)])\s)"
)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of ``text``, whitespace trimmed."""
    spans: list[tuple[int, int]] = []
    begin = 0
    for match in _BOUNDARY.finditer(text):
        before = text[begin : match.start()]
        last_word = before.rsplit(None, 1)[-1].rstrip(".!?\"')]").lower() if before.strip() else ""
        if "\n" not in match.group(0) and last_word in _ABBREVIATIONS:
            continue
        _append_trimmed(text, begin, match.start(), spans)
        begin = match.end()
    _append_trimmed(text, begin, len(text), spans)
    return spans


def _append_trimmed(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        spans.append((start, end))


# A sentence end the splitter leaves alone when the next sentence opens with a name in
# lower case ("… damp motion. moteus implements …").
_LOWER_START = re.compile(r"(?<=[a-z0-9)\]\"'])\.\s+(?=[a-z])")


def claims(sentences: Sequence[str]) -> Iterator[str]:
    """``sentences`` split also where the splitter leaves a sentence end alone because
    the next opens in lower case ("… is fixed. phases: 0 = …")."""
    for sentence in sentences:
        yield from _LOWER_START.split(sentence)
