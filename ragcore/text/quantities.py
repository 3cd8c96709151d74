"""Numbers and quantities in text, as generation and validation compare them.

Identifiers (``CP-200``, ``E4027``, ``P/N 88-2041-09``) and citation markers (``[2]``)
contain digits but are not numbers; they are masked before numbers are read.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ragcore.errors import ConfigError
from ragcore.text import lexicon
from ragcore.text.citations import CITATION
from ragcore.text.identifiers import ENTITY_PATTERNS
from ragcore.text.tables import number_table
from ragcore.text.unit_table import COMPOUND_OPERATORS, UnitTable, unit_table

# Thousands grouped by commas or by (thin, no-break) spaces: "12,000", "16 000".
_NUMBER = (
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?"
    r"|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:\.\d+)?(?![\d,]\d)"
    r"|\d+(?:\.\d+)?"
)
# Small numbers written as words count before a unit ("three years", "a two-hour run"):
# rules/numbers.toml [numbers].
_BARE_NUMBER = re.compile(rf"(?<![\w.])({_NUMBER})(?![\w])")


@dataclass(frozen=True)
class _Rules:
    """The units of ``rules/units.toml`` and the patterns that find them."""

    table: UnitTable
    quantity: re.Pattern[str]
    """A figure (or a number in words) and a unit: groups 1 and 2."""
    unit_word: re.Pattern[str]
    """A unit without a figure: group 1."""
    count_word: re.Pattern[str]
    """Counts written as words ("three parallel strings"), two to twelve: "one" and
    "zero" are left out ("one of the sensors", "zero-point" are rarely counts)."""
    fraction: re.Pattern[str]
    """A fraction in words that is a share ("seven tenths", "two-thirds"; groups: the
    count, the part), not one of a time ("two thirds of an hour")."""
    fraction_of_time: re.Pattern[str]
    """A share of a time unit: "half a minute", "three tenths of a second" (groups: the
    count, the part or 3: "half", 4: the unit)."""
    one_time_unit: re.Pattern[str]
    """One of a time unit: "within a day", "for an hour" (groups "one", "unit")."""
    label_before: re.Pattern[str]
    """Text before a number that makes it a label: "Rev. 1 to 600 s", "Section 4"."""
    per_unit: re.Pattern[str] | None
    """A word that divides and the unit it divides by, after a unit, perhaps after what
    it is of: " per kg", " of CO2 per hour" (group "unit"); None for a table with no such
    words."""


@functools.cache
def _rules() -> _Rules:
    """Built once, on first use, and checked against every unit's examples."""
    return unit_rules(unit_table())


def unit_rules(table: UnitTable) -> _Rules:
    """The patterns that find ``table``'s units, checked against each unit's example
    (which must be found) and counter-example (which must not): a ``ConfigError``
    naming the file and the unit's key otherwise."""
    # Spellings in the table's order: a spelling another begins with comes after it.
    unit = "|".join(re.escape(u) for u, _ in table.spellings)
    numbers = number_table("numbers")
    word_number = "|".join(sorted(numbers, key=len, reverse=True))
    # A fraction in words: "seven tenths", "two-thirds" (groups: the count, the part).
    in_parts = (
        "(" + "|".join(w for w, n in numbers.items() if 1 <= n <= 9) + ")[- ]"
        "(" + "|".join(f"{part}s?" for part in number_table("fractions")) + ")"
    )
    time_unit = "|".join(lexicon.words("words", "time_units"))
    per = "|".join(re.escape(w) for w in table.per_words)
    # "… per kg", "… of water per kg", "… of CO2 an hour".
    per_unit = (
        rf"(?:\s+of(?:\s+[\w-]+){{1,2}}?)?\s+(?:{per})\s+(?P<unit>{unit})(?![\w/³²])(?!-\w)"
        if per
        else None
    )
    # A unit, or two divided or multiplied ("g/kWh", "kW·h"): read by _compound_unit.
    unit = rf"(?:{unit})(?:[{COMPOUND_OPERATORS}](?:{unit}))?"
    rules = _Rules(
        table=table,
        quantity=re.compile(
            rf"(?<![\w.])({_NUMBER}|\b(?:{word_number})\b)(?:\s*|-)({unit})(?![\w/³²])",
            re.IGNORECASE,
        ),
        unit_word=re.compile(rf"(?<![\w/])({unit})(?![\w/³²])", re.IGNORECASE),
        count_word=re.compile(
            r"\b(" + "|".join(w for w, n in numbers.items() if 2 <= n <= 12) + r")\b",
            re.IGNORECASE,
        ),
        fraction=re.compile(
            rf"\b{in_parts}\b(?!\s+of\s+an?\s+(?:{time_unit}|mile|inch)\b)", re.IGNORECASE
        ),
        fraction_of_time=re.compile(
            rf"\b(?:{in_parts}|(?:a\s+)?(half))\s+(?:of\s+)?an?\s+({time_unit})\b",
            re.IGNORECASE,
        ),
        one_time_unit=lexicon.pattern("words", "one_time_unit"),
        label_before=lexicon.pattern("words", "label_before_figure"),
        per_unit=re.compile(per_unit, re.IGNORECASE) if per_unit else None,
    )
    for name, row in table.units.items():
        if not any(q.unit == name for q in _find(row.example, rules)):
            raise ConfigError(
                f"{table.path.name}:unit.{name}.example", row.example, f"finds no {name}"
            )
        if row.counter_example and any(q.unit == name for q in _find(row.counter_example, rules)):
            raise ConfigError(
                f"{table.path.name}:unit.{name}.counter_example",
                row.counter_example,
                f"finds {name}",
            )
    return rules


def units_named(text: str) -> tuple[str, ...]:
    """Units ``text`` spells out without a figure ("in MPa", "how many pounds"), in their
    canonical spelling; one-letter units only as written in capitals ("in L")."""
    rules = _rules()
    masked = mask_identifiers(text)
    found = []
    end = 0  # the end of a compound read across its dividing word: its bottom is read
    for m in rules.unit_word.finditer(masked):
        if m.start() < end:
            continue
        unit = _unit_of(m.group(1), rules.table)
        if not unit:
            continue
        # "litres per kilogram", "g per kWh" are L/kg and g/kWh, as "8.5 L per kg" is.
        divided = _divided(masked, unit, m.end(), rules)
        if divided is not None:
            unit, end = divided
        elif len(m.group(1)) <= 2 and m.group(1) not in rules.table.named_alone:
            continue
        found.append(unit)
    return tuple(dict.fromkeys(found))


def units_asked(text: str) -> tuple[str, ...]:
    """The units of ``units_named`` that ``text`` names without a figure ("… in m³/h?",
    "how many pounds"): a unit with its figure ("the cable length at 1 Mbps?") is a
    condition of the question, not the unit its answer is in."""
    return units_named(mask_quantities(text))


def attribute_units(text: str) -> tuple[str, ...]:
    """The units a text's attribute words point at: "louder" → dB(A), "flow" → L/min."""
    attributes = unit_table().attributes
    found = [u for w in re.findall(r"[a-z]+", text.lower()) for u in attributes.get(w, ())]
    return tuple(dict.fromkeys(found))


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str
    start: int
    end: int


@functools.lru_cache(maxsize=8192)
def mask_identifiers(text: str) -> str:
    """``text`` with identifiers and citation markers blanked (same length, same offsets)."""
    for pattern in (*ENTITY_PATTERNS, CITATION):
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    return text


def mask_quantities(text: str) -> str:
    """``text`` with its quantities ("10000 hours", "7.5 kW") blanked (same length, same
    offsets): what is left names things, not figures."""
    for q in quantities(text):
        text = text[: q.start] + " " * (q.end - q.start) + text[q.end :]
    return text


def numbers(text: str) -> set[float]:
    """Every number in ``text`` that is not part of an identifier or a citation."""
    return {value for value, _, _ in number_spans(text)}


def number_spans(text: str) -> list[tuple[float, int, int]]:
    """Each number of ``numbers`` with where it starts and ends."""
    return [
        (_value(m.group(1)), m.start(), m.end())
        for m in _BARE_NUMBER.finditer(mask_identifiers(text))
    ]


# A share written as a fraction is a percentage: "four-fifths of its rated capacity".
# rules/numbers.toml [fractions]: a part and how many of it make a whole.


@functools.cache
def _fractions() -> dict[str, float]:
    """A part's share of the whole, singular and plural: "third", "thirds" → 1/3."""
    parts = {w: 1 / n for w, n in number_table("fractions").items()}
    return parts | {f"{w}s": v for w, v in parts.items()}


def _share(count: str | None, part: str) -> float:
    """The share a fraction in words is: ("three", "tenths") → 0.3, (None, "half") → 0.5."""
    if count is None:
        return 0.5
    return round(number_table("numbers")[count.lower()] * _fractions()[part.lower()], 6)


def word_number_spans(text: str) -> list[tuple[float, int, int]]:
    """Small numbers written as words, from two to twelve, with where they are."""
    values = number_table("numbers")
    return [
        (values[m.group(1).lower()], m.start(), m.end()) for m in _rules().count_word.finditer(text)
    ]


def quantities(text: str) -> list[Quantity]:
    """Numbers followed by a unit, with the unit in its canonical spelling; the first
    figure of a range takes the unit of the last ("20 to 50 mbar": 20 mbar, 50 mbar)."""
    return list(_quantities(text))


# A pure function of its text, memoised: validation reads the same evidence sentences
# and answer clauses many times per question.
@functools.lru_cache(maxsize=8192)
def _quantities(text: str) -> tuple[Quantity, ...]:
    return _find(text, _rules())


def _glued_to_a_code(masked: str, m: re.Match[str], rules: _Rules) -> bool:
    glued = len(m.group(2)) == 1 and m.group(0)[len(m.group(1))].isalpha()
    if not glued:
        return False
    before = masked[m.start() - 1] if m.start() else " "
    if before == "-" and _glued_range_end(masked, m):
        return False
    return (
        before.isalnum() or before in "-./_" or bool(rules.label_before.search(masked[: m.start()]))
    )


def _glued_range_end(masked: str, m: re.Match[str]) -> bool:
    """The second figure of a range written glued ("0-5V", "5-30s", "12V-56V"): a lower
    number before the hyphen, bare or in the same unit; "LEAP-1A" and "940-0128A" end
    codes."""
    unit = re.escape(m.group(2))
    start = re.search(rf"(?<![\w.-])(\d+(?:\.\d+)?)(?:{unit})?-$", masked[: m.start()])
    return start is not None and float(start.group(1)) < _value(m.group(1))


def _find(text: str, rules: _Rules) -> tuple[Quantity, ...]:
    masked = mask_identifiers(text)
    table = rules.table
    found = [
        Quantity(_signed(masked, m.start(), _value(m.group(1)), unit), unit, m.start(), m.end())
        for m in rules.quantity.finditer(masked)
        if (unit := _unit_of(m.group(2), table))
        # A one-letter unit needs a space or hyphen: "1990s" is a decade, "5 s" and
        # "a 5-second delay" durations; but for its glued spellings ("5V", "10s").
        if m.group(2).lower() not in table.spaced
        or not m.group(0)[len(m.group(1))].isalpha()
        or _glued(masked, m, rules)
        if m.group(2) not in table.not_as_written  # amperes are "A": "5 a.m." is a time
        # A one-letter unit written against its figure ("75A", "44V") is no unit where
        # the figure ends a code ("940-0128A", "v3.6A") or numbers a label ("Figure 3A").
        if not _glued_to_a_code(masked, m, rules)
        # "Rev. 2 runs 1.5 % NaOH": a label's number followed by a verb is no figure.
        if not (
            m.group(2).lower() in table.verbs and rules.label_before.search(masked[: m.start()])
        )
    ]
    found += [
        Quantity(round(100 * _share(m.group(1), m.group(2)), 1), "%", m.start(), m.end())
        for m in rules.fraction.finditer(masked)
    ]
    # "within a day", "for an hour": one of a time unit.
    found += [
        Quantity(1.0, table.canonical[m.group("unit").lower()], m.start("one"), m.end())
        for m in rules.one_time_unit.finditer(masked)
    ]
    # "half a minute", "three tenths of a second": a share of a time unit.
    found += [
        Quantity(
            _share(m.group(1), m.group(2)), table.canonical[m.group(4).lower()], m.start(), m.end()
        )
        for m in rules.fraction_of_time.finditer(masked)
    ]
    found = [_per_unit(masked, q, rules) for q in found]
    return tuple(_with_range_starts(masked, sorted(found, key=lambda q: q.start), rules))


# A figure of digits with no leading zero ("0128A" is a part's code, "0.5A" a current).
_PLAIN_FIGURE = re.compile(r"(?!0\d)[\d,. \u00a0\u202f]+")


def _glued(text: str, m: re.Match[str], rules: _Rules) -> bool:
    """A one-letter unit written against its figure ("5V", "50W", "10s") is read when the
    spelling may be glued (units.toml ``glued``, case counts: "10S" is a cell count) and
    the figure is a plain one: digits without a leading zero, no year ("1990s" is a
    decade), no label's number ("Rev. 2A")."""
    figure = m.group(1)
    return (
        m.group(2) in rules.table.glued
        and _PLAIN_FIGURE.fullmatch(figure) is not None
        and not YEAR.match(figure)
        and not rules.label_before.search(text[: m.start()])
        and not _in_hex_dump(text, m)
        and not _code_tail(text, m)
    )


# What follows a glued figure: a hyphen and a number, with the unit it is in if any.
_TAIL = re.compile(r"-\d+(?:\.\d+)?([A-Za-z]?)")


def _code_tail(text: str, m: re.Match[str]) -> bool:
    """A glued figure followed by a hyphen and a number in no unit of its own is a code
    or a grade ("5W-40" oil, "3A-2"), not a figure: "12V-56V" is a range."""
    tail = _TAIL.match(text, m.end())
    return tail is not None and tail.group(1) != m.group(2)


# A byte in hex: "0E", "8C", "95" (a register dump: "0E 95 0A 8C", "10 94    8A").
_HEX_BYTE = re.compile(r"[0-9A-F]{2}")


def _in_hex_dump(text: str, m: re.Match[str]) -> bool:
    """A figure glued to a hex digit ("8A", "0A") beside a two-character byte is a byte
    too: "10 94    8A" is a dump, "a limit of 10A" a current."""
    if m.group(2) not in "ABCDEF":
        return False
    before = text[max(0, m.start() - 12) : m.start()].split()[-1:]
    after = text[m.end() : m.end() + 12].split()[:1]
    return any(_HEX_BYTE.fullmatch(t) for t in before + after)


def _per_unit(text: str, q: Quantity, rules: _Rules) -> Quantity:
    """``q``, or ``q`` in the compound the words after it divide its unit into: "8.5 L
    per kg" is 8.5 L/kg, the quantity "8.5 L/kg" is, and "500 kg of CO2 per hour" 500
    kg/h. Safe where it is no compound:
    "75A per channel" (no unit), "8 h a day" (a share), "5 % per year" (% converts to
    nothing) keep their unit."""
    divided = _divided(text, q.unit, q.end, rules)
    if divided is None:
        return q
    return Quantity(q.value, divided[0], q.start, divided[1])


def _divided(text: str, unit: str, at: int, rules: _Rules) -> tuple[str, int] | None:
    """(the compound, where it ends) when the words at ``at`` divide the canonical
    ``unit`` by a unit ("… per kg", "… a day") and the two make a compound unit
    (``_unit_of``); None otherwise, and for a unit already a compound."""
    if rules.per_unit is None or any(op in unit for op in COMPOUND_OPERATORS):
        return None
    m = rules.per_unit.match(text, at)
    if m is None:
        return None
    compound = _unit_of(f"{unit}/{m.group('unit')}", rules.table)
    return None if compound is None else (compound, m.end())


# The first figure of a range or a choice, written bare before the one with the unit:
# "20 to 50 mbar", "5–30 °C", "3 or 6 months", "between 6 and 8 bar".
_RANGE_START = re.compile(
    rf"(?<![\w.,])({_NUMBER})\s*(?:(?:to|or)\s+|[–—-]\s*|(?P<and>and\s+))\+?$", re.IGNORECASE
)
_BETWEEN = re.compile(r"\bbetween\s+$", re.IGNORECASE)
# What makes a number a label, not a figure ("Rev. 1 to 600 s", "Section 4 to 10 bar"):
# rules/words.toml, patterns.label_before_figure.
YEAR_DIGITS = r"(?:19|20)\d\d"
"""A year as digits (1900–2099): a date, not a figure or a count. The one definition;
patterns that look for a year are built from it."""
YEAR = re.compile(rf"^{YEAR_DIGITS}$")
"""A number that is a year: the whole of a number's text is a year."""
YEAR_IN = re.compile(rf"\b({YEAR_DIGITS})\b")
"""A year within a text ("the 2016 edition", "DSE-2018"); group 1 is the year."""


def _with_range_starts(text: str, found: list[Quantity], rules: _Rules) -> list[Quantity]:
    """``found`` with the bare first figure of each range before its quantity, in the
    quantity's unit."""
    out: list[Quantity] = []
    for q in found:
        before = text[max(0, q.start - 40) : q.start]
        m = _RANGE_START.search(before)
        head = before[: m.start(1)] if m else ""
        if (
            m
            and (not m.group("and") or _BETWEEN.search(head))
            and not rules.label_before.search(head)
            and not YEAR.match(m.group(1))
        ):
            start = q.start - len(before) + m.start(1)
            if not out or out[-1].end <= start:
                value = _signed(text, start, _value(m.group(1)), q.unit)  # "-25 to +70 °C"
                out.append(Quantity(value, q.unit, start, start + len(m.group(1))))
        out.append(q)
    return out


# A minus before a temperature: "-80 °C", "(−50 °C)", "minus 20 °C"; not the dash of a
# range ("5-30 °C").
_MINUS = re.compile(r"(?:(?:^|[\s(:;,=])[-−]|\bminus\s+)$", re.IGNORECASE)


def _signed(text: str, start: int, value: float, unit: str) -> float:
    if unit in ("°C", "°F") and _MINUS.search(text[max(0, start - 7) : start]):
        return -value
    return value


def _canonical(unit: str, table: UnitTable) -> str:
    """A unit as matched (case ignored) in its canonical spelling; "mΩ" is not "MΩ"."""
    return table.exact.get(unit) or table.canonical[unit.lower()]


# Where a compound's second unit starts: "g/kWh", "kW·h", "kW⋅h".
_OPERATOR = re.compile(rf"[{COMPOUND_OPERATORS}]")


def _unit_of(spelling: str, table: UnitTable) -> str | None:
    """A unit as matched in its canonical spelling: a listed spelling, or a compound the
    table does not list, read by a rule over its rows ("g/kWh" is mass over energy,
    "gal/h" a flow: ``UnitTable.linear_of``). None for a compound that is no unit: one
    of a unit the table cannot convert ("rpm/min"), a spelling that is no unit as
    written ("kWh/a" is per year, not per ampere), or a ratio of one dimension ("h/day",
    "mm/m" are shares)."""
    if spelling.lower() in table.canonical:
        return _canonical(spelling, table)
    m = _OPERATOR.search(spelling)
    if m is None:
        return None
    parts = spelling[: m.start()], spelling[m.end() :]
    if any(p in table.not_as_written or p.lower() not in table.canonical for p in parts):
        return None
    top, bottom = (_canonical(p, table) for p in parts)
    name = f"{top}{'/' if m.group(0) == '/' else '·'}{bottom}"
    if name in table.units:
        return name  # "kg/hour" is the listed kg/h
    linear = table.linear_of(top), table.linear_of(bottom)
    if linear[0] is None or linear[1] is None or linear[0][0] == linear[1][0]:
        return None
    return name


def _value(number: str) -> float:
    word = number_table("numbers").get(number.lower())
    if word is not None:
        return word
    return float(re.sub(r"[,\s\u00a0\u202f]", "", number))
