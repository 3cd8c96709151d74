"""The date a document says it takes effect: "Effective 1 July 2021", "is effective from
1 July 2024", "takes effect on 1 March 2023", "comes into force on 2022-01-01".

A rule or revision is often issued (its metadata date) weeks before it applies; a
question about the months in between is answered by the version it replaces.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from datetime import date

from ragcore.text.lexicon import pattern, words


@functools.cache
def _months() -> dict[str, int]:
    """Month names (rules/words.toml, words.months, January first) and their numbers."""
    return {m: i for i, m in enumerate(words("words", "months"), 1)}


def _effective() -> re.Pattern[str]:
    """The date a document takes effect on (rules/words.toml, patterns.effective_date)."""
    return pattern("words", "effective_date")


def effective_date(texts: Iterable[str]) -> date | None:
    """The earliest date ``texts`` say their document takes effect on, or None."""
    found = [d for text in texts if (d := _in_text(text))]
    return min(found) if found else None


@functools.lru_cache(maxsize=4096)  # the same chunks are cited question after question
def _in_text(text: str) -> date | None:
    found = [d for m in _effective().finditer(text) if (d := _date(m))]
    return min(found) if found else None


def _date(m: re.Match[str]) -> date | None:
    try:
        if m.group("iso"):
            return date.fromisoformat(m.group("iso"))
        if m.group("day"):
            day, month, year = m.group("day"), m.group("month"), m.group("year")
        else:
            day, month, year = m.group("day2"), m.group("month2"), m.group("year2")
        return date(int(year), _months()[month.lower()], int(day))
    except ValueError:
        return None
