"""Time expressions in a question, resolved against a clock into date intervals."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
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
    counted_back: bool = field(default=False, compare=False)
    """Counted back from today ("the past 6 months", "last quarter", "this week")."""


_MONTHS = {m.lower()[:3]: i for i, m in enumerate(calendar.month_name) if m}


_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


_NUMBERS = {word: n for n, word in enumerate(_WORDS, 1)}


_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3}
_ORDINALS |= {"fourth": 4, "4th": 4}


_Y = r"(?:19|20)\d{2}"


_MON = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)


# A year by its number or relative to today ("of last year", "this year").
_YEAR_REF = rf"(?:{_Y}|(?:last|previous|this|current|next)\s+year)"


_OF_Y = rf"(?:\s+(?:of\s+)?{_YEAR_REF})"


# A day of the month: "1", "01", "1st", "31st"; never the first digits of a longer number.
_DAY_OF_MONTH = r"(?:[12]\d|3[01]|0?[1-9])(?!\d)(?:st|nd|rd|th)?"


# A day in words: "1 March 2026", "1st of March", "March 1, 2026", "Mar 1".
_DAY_IN_WORDS = (
    rf"{_DAY_OF_MONTH}\s+(?:of\s+)?{_MON}\.?(?:,?\s+{_Y})?"
    rf"|{_MON}\.?\s+{_DAY_OF_MONTH}(?:,?\s+{_Y})?"
)


# One period, as written (no context): a day (2025-03-11, 1 March 2026), an ISO week
# (week 12 of 2026, 2026-W12), a quarter (Q3 2026, the third / last quarter of 2025),
# a half (H1 2026, the second half of last year), a month (March 2023, March) or a year.
# Without a year, a day, month, "Q3" or "H1" is the latest one that has begun (resolved
# against the clock).
_PERIOD_WORDS = (
    rf"\d{{4}}-\d{{2}}-\d{{2}}|{_Y}-(?:0[1-9]|1[0-2])|{_DAY_IN_WORDS}|{_Y}-?w\d{{2}}"
    rf"|(?:iso\s+)?(?:week|wk)\s+\d{{1,2}}{_OF_Y}?"
    rf"|q[1-4]{_OF_Y}?|(?:first|second|third|fourth|1st|2nd|3rd|4th|last|final)\s+quarter{_OF_Y}"
    rf"|h[12]{_OF_Y}?|(?:first|second|1st|2nd|last|final)\s+half{_OF_Y}"
    rf"|{_MON}\.?(?:\s+(?:of\s+)?{_YEAR_REF})?|{_Y}"
)


# One period, not glued to an identifier ("2026-" of a masked "2026-W12" is no year).
_PERIOD = rf"(?<![\w/.-])(?:{_PERIOD_WORDS})(?![\w/]|[-.][\d\s])"


_N = r"(?:\d{1,3}|" + "|".join(_NUMBERS) + ")"


_BOUND = r"since|from|after|before|prior\s+to|until|till|up\s+to|through|by"


_UNIT = r"(day|week|month|quarter|year)"


_IN_THE = r"(?:(?:in|over|within)\s+)?(?:the\s+)?"


# A decade said as a time ("in the 1960s", "during the 1990s?"), not as a word of a name
# ("the 1980s bungalow"): after "in the" and before no other word than a joining one.
_DECADE = (
    r"\b(?:in|during|over|throughout|across)\s+the\s+((?:1[0-9]|20)\d0)['’]?s\b"
    r"(?!\s+(?!(?:and|or|in|for|at|of|vs|versus|compared|than|per|by|with)\b)[a-z])"
)


_TIME = tuple(  # the earliest match wins; at the same position, the earlier kind
    (kind, re.compile(pattern, re.IGNORECASE))
    for kind, pattern in (
        (
            "between",
            rf"\b(?:between|from)\s+(?:the\s+)?({_PERIOD})\s+"
            rf"(?:and|to|through|until|till)\s+(?:the\s+)?({_PERIOD})",
        ),
        ("between", rf"(?<![\w/.-])({_Y})\s*(?:[-–]|\bto\b)\s*({_Y})(?![\w/]|[-.]\d)"),
        (  # "July–September 2026", "Jul-Sep", "June to August 2026" (no "from")
            "range",
            rf"(?:\b(?:in|during|for|over)\s+(?:the\s+)?)?(?<![\w/.-])({_PERIOD_WORDS})"
            r"\s*(?:[-–—]|\s(?:to|through|thru|until|till)\s)"
            rf"\s*({_PERIOD_WORDS})(?![\w/]|[-.][\d\s])",
        ),
        (  # "since the start of the year": of this one
            "from_start",
            rf"\b(?:since|from)\s+the\s+(?:start|beginning)\s+of\s+(?:the|this)\s+{_UNIT}\b",
        ),
        (  # "since March", "until the end of Q2", "since the start of 2026"
            "bound",
            rf"\b({_BOUND})\s+(?:the\s+)?(?:(start|beginning|end)\s+of\s+(?:the\s+)?)?"
            rf"({_PERIOD})",
        ),
        ("rolling", rf"\b{_IN_THE}(?:last|past)\s+({_N})\s+{_UNIT}s?\b"),
        ("relative", rf"\b(last|previous|past|this|current|next|coming)\s+{_UNIT}\b"),
        ("to_date", r"\b(?:year[-\s]to[-\s]date|ytd)\b"),
        ("part", rf"\b(early|mid|late)[-\s]+({_Y})(?![\w/]|[-.]\d)"),
        ("decade", _DECADE),
        ("point", rf"(?:\b(in|during|of|for)\s+(?:the\s+)?)?({_PERIOD})"),
    )
)


_DAY = timedelta(days=1)
_DAY_NUMBER = re.compile(r"\d{1,2}(?!\d|-)")
_DAY_LEAD = re.compile(r"(?:^|[,;:(]|\b(?:on|the))\s*$", re.IGNORECASE)  # "on 1 March"
_COMPARED = re.compile(r"\bcompar\w*\s+(?:the\s+)?$", re.IGNORECASE)
_THIRDS = {"early": 1, "mid": 5, "late": 9}  # first month of a third of the year
_YEAR = re.compile(_Y)


def _months(year: int, first: int, count: int) -> tuple[date, date]:
    """``count`` whole months from month ``first`` of ``year``."""
    last_year, last = divmod(year * 12 + first - 1 + count - 1, 12)
    return date(year, first, 1), date(
        last_year, last + 1, calendar.monthrange(last_year, last + 1)[1]
    )


def _latest_begun(span_in: Callable[[int], tuple[date, date]], today: date) -> tuple[date, date]:
    """The latest of a yearless period ("March", "Q3") that has begun by ``today``."""
    span = span_in(today.year)
    return span if span[0] <= today else span_in(today.year - 1)


_ISO_MONTH = re.compile(rf"({_Y})-(\d{{2}})")


_ISO_WEEK = re.compile(rf"({_Y})-?w(\d{{2}})", re.IGNORECASE)


_ONE_WORD_PERIOD = re.compile(
    rf"(?<![\w/.-])(?:{_Y}-?w\d{{2}}|q[1-4]-q[1-4]|h1-h2)(?![\w/])", re.IGNORECASE
)


def one_word_periods(text: str) -> tuple[tuple[int, int], ...]:
    """Spans of periods written as one word that look like identifiers ("2026-W40",
    "Q2-Q3"): periods, not identifiers."""
    return tuple(m.span() for m in _ONE_WORD_PERIOD.finditer(text))


_DAY_FIRST = re.compile(rf"(\d{{1,2}})\D*?\s+(?:of\s+)?({_MON})", re.IGNORECASE)


_MONTH_FIRST = re.compile(rf"({_MON})\.?\s+(\d{{1,2}})(?!\d)", re.IGNORECASE)


_YEAR_WORDS = re.compile(r"\b(last|previous|this|current|next)\s+year\b", re.IGNORECASE)


_YEAR_STEP = {"last": -1, "previous": -1, "this": 0, "current": 0, "next": 1}


def _year_named(text: str, today: date) -> int | None:
    """The year a period's words name: "2026", "of last year" (against ``today``)."""
    if named := _YEAR.search(text):
        return int(named.group(0))
    if relative := _YEAR_WORDS.search(text):
        return today.year + _YEAR_STEP[relative.group(1).lower()]
    return None


def _interval(text: str, today: date, year: int | None = None) -> tuple[date, date] | None:
    """The whole period ``text`` names (a day, week, quarter, half, month or year); None
    for an impossible one. A period without a year is in ``year`` if given, else the
    latest one that has begun by ``today``."""
    text = text.strip()
    words = text.lower().replace(".", " ").replace(",", " ").split()
    named = _YEAR.search(text)
    if named and named.end() - named.start() == len(text):  # a year alone
        return date(int(text), 1, 1), date(int(text), 12, 31)
    if named and (week_of := _ISO_WEEK.fullmatch(text)):  # 2026-W12
        words = ["week", week_of.group(2)]
    elif named and (month_of := _ISO_MONTH.fullmatch(text)):  # 2026-05
        return _months(int(month_of.group(1)), int(month_of.group(2)), 1)
    elif named and "-" in text:
        try:
            return date.fromisoformat(text), date.fromisoformat(text)
        except ValueError:
            return None  # "2023-14-05" is no date
    relative_year = _year_named(text, today)
    at = relative_year if relative_year is not None else year
    if words[0] == "iso":
        words = words[1:]
    head = words[0]
    span_in: Callable[[int], tuple[date, date]]
    day_first, month_first = _DAY_FIRST.match(text), _MONTH_FIRST.match(text)
    if head in ("week", "wk"):
        week = int(words[1])

        def span_in(y: int) -> tuple[date, date]:
            return date.fromisocalendar(y, week, 1), date.fromisocalendar(y, week, 7)

    elif day_first or month_first:  # "1 March 2026", "March 1, 2026": one day
        found = day_first or month_first
        assert found is not None
        day_text, month_text = found.groups() if day_first else found.groups()[::-1]
        day, month = int(day_text), _MONTHS[month_text.lower()[:3]]

        def span_in(y: int) -> tuple[date, date]:
            return date(y, month, day), date(y, month, day)

    elif head[0] == "q" and head[1:].isdigit() or "quarter" in words:
        quarter = int(head[1:]) if head[0] == "q" else _ORDINALS.get(head, 4)  # last: 4

        def span_in(y: int) -> tuple[date, date]:
            return _months(y, 3 * quarter - 2, 3)

    elif head[0] == "h" and head[1:].isdigit() or "half" in words:
        half = int(head[1:]) if head[0] == "h" else _ORDINALS.get(head, 2)  # last: 2

        def span_in(y: int) -> tuple[date, date]:
            return _months(y, 6 * half - 5, 6)

    else:
        month = _MONTHS[head[:3]]

        def span_in(y: int) -> tuple[date, date]:
            return _months(y, month, 1)

    try:
        return span_in(at) if at is not None else _latest_begun(span_in, today)
    except ValueError:
        return None  # week 60, 31 February


def _months_ago(day: date, months: int) -> date:
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def _between(first: str, last: str, today: date) -> tuple[date, date] | None:
    """From the start of ``first`` to the end of ``last``. A first period without a year
    takes the last one's ("between June and August 2026"), the year before when it would
    start later ("from November to February 2026"); a last one without a year takes the
    first one's, the year after when it would end earlier ("from November 2025 to
    February"). A last period inside the first ends it: "2026 through August" is
    January to August 2026, not all of 2026."""
    if _year_named(last, today) is None and _year_named(first, today) is not None:
        opening = _interval(first, today)
        if opening is None:
            return None
        closing = _interval(last, today, opening[0].year)
        if closing is not None and closing[1] < opening[0]:
            closing = _interval(last, today, opening[0].year + 1)
    else:
        closing = _interval(last, today)
        if closing is None:
            return None
        unnamed = _year_named(first, today) is None
        opening = _interval(first, today, closing[1].year if unnamed else None)
        if opening is not None and opening[0] > closing[0] and unnamed:
            opening = _interval(first, today, closing[1].year - 1)
    if opening is None or closing is None:
        return None
    if opening[0] <= closing[0]:
        return opening[0], closing[1]
    return min(opening[0], closing[0]), max(opening[1], closing[1])


def _relative(which: str, unit: str, today: date) -> tuple[date, date]:
    """ "last month", "this quarter" (until today), "next year"."""
    step = {"last": -1, "previous": -1, "next": 1, "coming": 1}.get(which, 0)
    if unit == "week":
        start = today - timedelta(days=today.weekday()) + timedelta(weeks=step)
        end = start + timedelta(days=6)
    else:
        size = {"month": 1, "quarter": 3, "year": 12}[unit]
        first = (today.month - 1) // size * size + 1  # this period's first month
        year, month0 = divmod(today.year * 12 + first - 1 + step * size, 12)
        start, end = _months(year, month0 + 1, size)
    return start, (end if step else today)


def _bound(m: re.Match[str], today: date, year: int | None = None) -> tuple | None:
    """(start, end) of "since March", "until the end of Q2", "before 2024": one end open.
    A period without a year is in ``year`` if given, else the latest begun."""
    span = _interval(m.group(3), today, year)
    if span is None:
        return None
    if m.group(2):  # "the start of 2026": its first day; "the end of Q2": its last
        edge = span[1] if m.group(2).lower() == "end" else span[0]
        span = (edge, edge)
    word = m.group(1).lower().split()[0]
    if word in ("since", "from", "after"):
        return (span[1] + _DAY if word == "after" else span[0]), None
    if word in ("before", "prior"):
        return None, span[0] - _DAY
    return None, span[1]  # until, till, up to, through, by


def _resolve(kind: str, m: re.Match[str], clock: Callable[[], date]) -> tuple | None:
    """(start, end) of a time match, or None when it names no real interval."""
    today = clock()
    if kind == "between":
        return _between(m.group(1), m.group(2), today)
    if kind == "range":
        if _COMPARED.search(m.string[: m.start()]):
            return None  # "compare March to April": two periods, not one from-to
        if _YEAR.fullmatch(m.group(2).strip()) and not _YEAR.search(m.group(1)):
            return None  # "H1-2026" is H1 of 2026, not H1 until the end of 2026
        return _between(m.group(1), m.group(2), today)
    if kind == "point":
        if (
            m.group(1) is None
            and _year_named(m.group(2), today) is None
            and not _joined_to_dated(m, today)
        ):
            return None  # "may", "Q3" alone: a word or a label, not a period
        if (
            m.group(1) is None
            and _DAY_NUMBER.match(m.group(2))
            and not _DAY_LEAD.search(m.string[: m.start()])
        ):
            return None  # "Line 1 March 2026": a line's number, not the 1st of March
        return _interval(m.group(2), today)
    if kind == "bound":
        return _bound(m, today)
    if kind == "part":  # "mid-2019": a third of the year
        year, opening = int(m.group(2)), _THIRDS[m.group(1).lower()]
        return _months(year, opening, 4)
    if kind == "decade":  # "in the 1960s": 1960 to 1969
        first = int(m.group(1))
        return date(first, 1, 1), date(first + 9, 12, 31)
    if kind == "from_start":
        return _relative("this", m.group(1).lower(), today)[0], None
    if kind == "to_date":
        return date(today.year, 1, 1), today
    which, unit = m.group(1).lower(), m.group(2).lower()
    if kind == "rolling" or which == "past":  # "past 6 months", "past year": up to today
        count = 1 if kind != "rolling" else _NUMBERS.get(which) or int(which)
        if unit in ("day", "week"):
            return today - timedelta(days=count * (7 if unit == "week" else 1)), today
        months = {"month": 1, "quarter": 3, "year": 12}[unit]
        return _months_ago(today, count * months), today
    return _relative(which, unit, today)


def find_time(
    masked: str, units: Iterable[re.Pattern[str]], clock: Callable[[], date]
) -> tuple[TimeConstraint, tuple[int, int]] | None:
    """The first time expression of the question: (TimeConstraint, span), or None.

    A number followed by one of ``units`` is a duration ("2000 h"), not a year.
    """
    found = find_times(masked, units, clock)
    return found[0] if found else None


def find_times(
    masked: str, units: Iterable[re.Pattern[str]], clock: Callable[[], date]
) -> tuple[tuple[TimeConstraint, tuple[int, int]], ...]:
    """Every time expression of the question, in order, none overlapping another: the
    earliest first and, at one position, the earlier kind ("Q2 2026 vs Q3 2026")."""
    units = tuple(units)
    today = clock()
    candidates = []
    for rank, (kind, pattern) in enumerate(_TIME):
        for m in pattern.finditer(masked):
            after = masked[m.end() :].lstrip()
            if any(unit.match(after) for unit in units):
                continue  # "2000 h" is a duration, not a year
            if (resolved := _resolve(kind, m, clock)) is not None:
                candidates.append((m.start(), rank, m, resolved))
    taken: list[tuple[re.Match[str], str, tuple[date | None, date | None]]] = []
    for _, rank, m, resolved in sorted(candidates, key=lambda c: c[:2]):
        if taken and m.start() < taken[-1][0].end():
            continue  # inside the one taken: "June" of "between June and August 2026"
        taken.append((m, _TIME[rank][0], resolved))
    taken = _bounded(masked, taken, today)
    spans = [resolved for _, _, resolved in taken]
    for k in range(len(taken) - 2, -1, -1):  # "Q3 and Q4 2025": Q3 of 2025 too
        if (
            shared := _shared_year(masked, taken[k], taken[k + 1], spans[k + 1], today)
        ) is not None:
            spans[k] = shared
    return tuple(
        (
            TimeConstraint(start, end, " ".join(m.group(0).split()), counted_back=_back(kind, m)),
            m.span(),
        )
        for (m, kind, _), (start, end) in zip(taken, spans, strict=True)
    )


def _back(kind: str, m: re.Match[str]) -> bool:
    """Whether the period is counted back from today ("the last 3 months", "the past
    year") rather than made of whole calendar periods."""
    return kind == "rolling" or kind == "relative" and m.group(1).lower() == "past"


_JOINED = re.compile(r"\s*(?:,|&|and|or|vs\.?|versus)\s*", re.IGNORECASE)


_NEXT_PERIOD = re.compile(rf"(?:the\s+)?({_PERIOD})", re.IGNORECASE)


def _joined_to_dated(m: re.Match[str], today: date) -> bool:
    """Whether a period named alone is joined to one with a year: "May or June 2026"
    names May (of 2026, ``_shared_year``), where "may" alone is a verb."""
    after = m.string[m.end() :]
    joined = _JOINED.match(after)
    if joined is None or joined.group(0).strip() in ("", ","):
        return False  # "It may, June 2026 aside, …": a comma joins no periods
    following = _NEXT_PERIOD.match(after, joined.end())
    return following is not None and _year_named(following.group(1), today) is not None


def _bounded(
    masked: str,
    taken: list[tuple[re.Match[str], str, tuple[date | None, date | None]]],
    today: date,
) -> list[tuple[re.Match[str], str, tuple[date | None, date | None]]]:
    """A period followed by a bound without a year is one interval, the bound in the
    period's year: "in 2026 up to September" is January to September 2026, "in 2025
    since March" March to December 2025 (not two periods to compare)."""
    out = list(taken)
    k = 0
    while k + 1 < len(out):
        (m, kind, (start, end)), (n, other, _) = out[k], out[k + 1]
        joined = not masked[m.end() : n.start()].strip(" ,")
        if kind != "point" or other != "bound" or not joined or start is None or end is None:
            k += 1
            continue
        if _year_named(n.group(3), today) is not None:
            k += 1
            continue
        bound = _bound(n, today, start.year)
        if bound is None:
            k += 1
            continue
        low = max(start, bound[0]) if bound[0] is not None else start
        high = min(end, bound[1]) if bound[1] is not None else end
        if low > high:
            k += 1
            continue
        whole = re.compile(re.escape(masked[m.start() : n.end()])).search(masked, m.start())
        assert whole is not None
        out[k : k + 2] = [(whole, "bounded", (low, high))]
        k += 1
    return out


def _shared_year(
    masked: str,
    first: tuple[re.Match[str], str, tuple[date | None, date | None]],
    second: tuple[re.Match[str], str, tuple[date | None, date | None]],
    second_span: tuple[date | None, date | None],
    today: date,
) -> tuple[date, date] | None:
    """A period without a year joined to one with a year ("Q3 and Q4 2025", "March or
    April 2026") is of that year (the one before when it would start later: "December
    and January 2026"); None when they are not so joined."""
    (m, kind, _), (n, other, _) = first, second
    if kind != "point" or other != "point" or not _JOINED.fullmatch(masked[m.end() : n.start()]):
        return None
    if _year_named(m.group(2), today) is not None or _year_named(n.group(2), today) is None:
        return None
    start, end = second_span
    if start is None or end is None:
        return None
    span = _interval(m.group(2), today, end.year)
    if span is not None and span[0] > start:
        span = _interval(m.group(2), today, end.year - 1)
    return span
