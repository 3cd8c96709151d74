"""Words of a question with their places, and the edits a follow-up's rewrite makes to
a question's text (``followup``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_WORD = re.compile(r"\w+(?:[-/.]\w+)*")
ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
ARTICLES = frozenset(["the", "a", "an"])


@dataclass(frozen=True)
class Word:
    text: str
    lower: str
    start: int
    end: int


def split_words(text: str) -> list[Word]:
    """The words of ``text`` with their places (an identifier, "CP-200", is one word)."""
    return [Word(m.group(0), m.group(0).lower(), m.start(), m.end()) for m in _WORD.finditer(text)]


def end_with(text: str, extra: str) -> str:
    """``text`` with ``extra`` before its closing punctuation (a question mark if none)."""
    body = text.rstrip()
    end = len(body) - len(body.rstrip("?.!"))
    mark = body[len(body) - end :] if end else "?"
    return body[: len(body) - end].rstrip() + extra + mark


def apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def find(text: str, phrase: str) -> tuple[int, int] | None:
    pattern = r"\s+".join(re.escape(w) for w in phrase.split())
    m = re.search(rf"(?<!\w){pattern}(?!\w)", text, re.IGNORECASE)
    return m.span() if m else None
