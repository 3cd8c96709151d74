"""Time expressions in a question, resolved against a clock into date intervals."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, timedelta


def dated_range(interval: TimeConstraint | None) -> tuple[date | None, date | None]:
    """The document dates that answer for an interval: those in force during it.

    A document dated by the interval's end was in force during it ("in 2022" accepts the
    2021 manual); an open-ended interval ("since 2024") wants documents from its start.
    """
    if interval is None:
        return None, None
    if interval.end is not None:
        return None, interval.end
    return interval.start, None


@dataclass(frozen=True)
class TimeConstraint:
    """An inclusive date interval; ``None`` is an open end. ``text``: the words it came from."""

    start: date | None
    end: date | None
    text: str


_MONTHS = {m.lower()[:3]: i for i, m in enumerate(calendar.month_name) if m}


_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


_NUMBERS = {word: n for n, word in enumerate(_WORDS, 1)}


_Y = r"(?:19|20)\d{2}"


_MON = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)


# A day (2025-03-11), a month (March 2023) or a year, not glued to an identifier.
_POINT = rf"(?<![\w/.-])(?:\d{{4}}-\d{{2}}-\d{{2}}|{_MON}\.?\s+{_Y}|{_Y})(?![\w/]|[-.]\d)"


_N = r"(?:\d{1,3}|" + "|".join(_NUMBERS) + ")"


_BOUND = r"since|from|after|before|prior\s+to|until|till|up\s+to|through|by"


_UNIT = r"(day|week|month|year)"


_IN_THE = r"(?:(?:in|over|within)\s+)?(?:the\s+)?"


_TIME = tuple(  # the earliest match wins; at the same position, the earlier kind
    (kind, re.compile(pattern, re.IGNORECASE))
    for kind, pattern in (
        ("between", rf"\b(?:between|from)\s+({_POINT})\s+(?:and|to|through|until)\s+({_POINT})"),
        ("between", rf"(?<![\w/.-])({_Y})\s*(?:[-–]|\bto\b)\s*({_Y})(?![\w/]|[-.]\d)"),
        ("bound", rf"\b({_BOUND})\s+({_POINT})"),
        ("rolling", rf"\b{_IN_THE}(?:last|past)\s+({_N})\s+{_UNIT}s?\b"),
        ("relative", rf"\b(last|previous|past|this|current)\s+{_UNIT}\b"),
        ("part", rf"\b(early|mid|late)[-\s]+({_Y})(?![\w/]|[-.]\d)"),
        ("point", rf"(?:\b(?:in|during|of|for)\s+)?({_POINT})"),
    )
)


_DAY = timedelta(days=1)
_THIRDS = {"early": 1, "mid": 5, "late": 9}  # first month of a third of the year


def _interval(text: str) -> tuple[date, date] | None:
    """The whole day, month or year ``text`` names; None for an impossible day."""
    parts = text.replace(".", " ").split()
    if len(parts) == 2:  # month and year
        year, month = int(parts[1]), _MONTHS[parts[0][:3].lower()]
        return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])
    if len(text) == 4:
        return date(int(text), 1, 1), date(int(text), 12, 31)
    try:
        return date.fromisoformat(text), date.fromisoformat(text)
    except ValueError:
        return None  # "2023-14-05" is no date


def _months_ago(day: date, months: int) -> date:
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def _resolve(kind: str, m: re.Match[str], clock: Callable[[], date]) -> tuple | None:
    """(start, end) of a time match, or None when it names no real interval."""
    if kind == "between":
        first, last = _interval(m.group(1)), _interval(m.group(2))
        return (min(first[0], last[0]), max(first[1], last[1])) if first and last else None
    if kind in ("bound", "point"):
        span = _interval(m.group(m.lastindex or 1))
        if span is None or kind == "point":
            return span
        word = m.group(1).lower().split()[0]
        if word in ("since", "from", "after"):
            return (span[1] + _DAY if word == "after" else span[0]), None
        if word in ("before", "prior"):
            return None, span[0] - _DAY
        return None, span[1]  # until, till, up to, through, by
    if kind == "part":  # "mid-2019": a third of the year
        year, opening = int(m.group(2)), _THIRDS[m.group(1).lower()]
        closing = opening + 3
        return date(year, opening, 1), date(year, closing, calendar.monthrange(year, closing)[1])
    today = clock()
    which, unit = m.group(1).lower(), m.group(2).lower()
    if kind == "rolling" or which == "past":  # "past 6 months", "past year": up to today
        count = 1 if kind != "rolling" else _NUMBERS.get(which) or int(which)
        if unit in ("day", "week"):
            return today - timedelta(days=count * (7 if unit == "week" else 1)), today
        return _months_ago(today, count * (12 if unit == "year" else 1)), today
    back = int(which in ("last", "previous"))  # else "this"/"current": the one until today
    if unit == "year":
        start, end = date(today.year - back, 1, 1), date(today.year - back, 12, 31)
    elif unit == "month":
        start = _months_ago(today.replace(day=1), back)
        end = _months_ago(start, -1) - _DAY
    else:
        start = today - timedelta(days=today.weekday() + 7 * back)
        end = start + timedelta(days=6)
    return start, (end if back else today)


def find_time(
    masked: str, units: Iterable[re.Pattern[str]], clock: Callable[[], date]
) -> tuple[TimeConstraint, tuple[int, int]] | None:
    """The first time expression of the question: (TimeConstraint, span), or None.

    A number followed by one of ``units`` is a duration ("2000 h"), not a year.
    """
    units = tuple(units)
    best = None
    for rank, (kind, pattern) in enumerate(_TIME):
        for m in pattern.finditer(masked):
            after = masked[m.end() :].lstrip()
            if any(unit.match(after) for unit in units):
                continue  # "2000 h" is a duration, not a year
            if (resolved := _resolve(kind, m, clock)) is not None:
                if best is None or (m.start(), rank) < best[0]:
                    best = ((m.start(), rank), m, resolved)
                break
    if best is None:
        return None
    _, m, (start, end) = best
    return TimeConstraint(start, end, " ".join(m.group(0).split())), m.span()
