"""Numbers and quantities in text, as generation and validation compare them.

Identifiers (``CP-200``, ``E4027``, ``P/N 88-2041-09``) and citation markers (``[2]``)
contain digits but are not numbers; they are masked before numbers are read.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ragcore.text.citations import CITATION
from ragcore.text.identifiers import ENTITY_PATTERNS

# Units as written in the documents, longest first so "L/min" wins over "L".
_UNITS = (
    # A volume "per minute", "an hour" or "a second" is a flow, however it is written.
    *(
        (f"{volume} {each} {per}", f"{canonical}/{short}")
        for volume, canonical in (
            ("cubic metres", "m³"),
            ("cubic meters", "m³"),
            ("m³", "m³"),
            ("m3", "m³"),
            ("litres", "L"),
            ("liters", "L"),
            ("l", "L"),
        )
        for each in ("per", "a", "an")
        for per, short in (
            ("minute", "min"),
            ("hour", "h"),
            ("second", "s"),
        )
    ),
    ("persons per hour", "persons/h"),
    ("people per hour", "persons/h"),
    ("passengers per hour", "persons/h"),
    ("persons/h", "persons/h"),
    ("cubic feet", "ft³"),
    ("cubic foot", "ft³"),
    ("cu ft", "ft³"),
    ("ft³", "ft³"),
    ("ft3", "ft³"),
    ("litres per minute", "L/min"),
    ("liters per minute", "L/min"),
    ("litres per hour", "L/h"),
    ("liters per hour", "L/h"),
    ("cubic metres per hour", "m³/h"),
    ("cubic meters per hour", "m³/h"),
    ("kilograms per hour", "kg/h"),
    ("cubic metres per second", "m³/s"),
    ("cubic meters per second", "m³/s"),
    ("m³/s", "m³/s"),
    ("m3/s", "m³/s"),
    ("m³/min", "m³/min"),
    ("m3/min", "m³/min"),
    ("m³/h", "m³/h"),
    ("m3/h", "m³/h"),
    ("l/min", "L/min"),
    ("l/h", "L/h"),
    ("mg/l", "mg/L"),
    ("µg/l", "µg/L"),
    ("µs/cm", "µS/cm"),
    ("l/s", "L/s"),
    ("us gallons per minute", "gal/min"),
    ("gallons per minute", "gal/min"),
    ("us gal/min", "gal/min"),
    ("gal/min", "gal/min"),
    ("cfm", "cfm"),
    ("ft³/min", "cfm"),
    ("gpm", "gal/min"),
    ("kg/h", "kg/h"),
    ("kg/min", "kg/min"),
    ("t/h", "t/h"),
    ("m/min", "m/min"),
    ("m³", "m³"),
    ("m3", "m³"),
    ("cubic metres", "m³"),
    ("cubic meters", "m³"),
    ("dB(A)", "dB(A)"),
    ("decibels", "dB(A)"),
    ("dba", "dB(A)"),
    ("db", "dB(A)"),
    ("n·m", "N·m"),
    ("nm", "N·m"),
    ("n m", "N·m"),
    ("kva", "kVA"),
    # Electrical units with their SI prefixes: energy, power, voltage, resistance.
    ("kwh", "kWh"),
    ("mwh", "MWh"),
    ("kw", "kW"),
    ("mw", "MW"),
    ("kv", "kV"),
    ("megohms", "MΩ"),
    ("megohm", "MΩ"),
    ("mω", "MΩ"),  # "mΩ" (milliohms) is told apart by its case in _canonical
    ("kω", "kΩ"),
    ("kohm", "kΩ"),
    ("ω", "Ω"),
    ("mbar", "mbar"),
    ("millibar", "mbar"),
    ("bar(g)", "bar"),
    ("bar (g)", "bar"),
    ("barg", "bar"),
    ("bar", "bar"),
    ("psig", "psi"),
    ("psi", "psi"),
    ("kpa", "kPa"),
    ("mpa", "MPa"),
    ("pascals", "Pa"),
    ("pa", "Pa"),
    ("lbf·ft", "lbf·ft"),
    ("lbf ft", "lbf·ft"),
    ("lbf-ft", "lbf·ft"),
    ("lb·ft", "lbf·ft"),
    ("lb-ft", "lbf·ft"),
    ("ft·lb", "lbf·ft"),
    ("ft-lb", "lbf·ft"),
    ("°c", "°C"),
    ("°f", "°F"),
    ("degrees celsius", "°C"),
    ("degrees fahrenheit", "°F"),
    ("degrees", "°"),  # an angle: "tilted by more than 10°"
    ("degree", "°"),
    ("°", "°"),
    ("%", "%"),
    ("per cent", "%"),
    ("percent", "%"),
    ("millimetres", "mm"),
    ("millimeters", "mm"),
    ("centimetres", "cm"),
    ("centimeters", "cm"),
    ("metres", "m"),
    ("meters", "m"),
    ("metre", "m"),
    ("meter", "m"),
    ("inches", "in"),
    ("inch", "in"),
    ("mg/m³", "mg/m³"),
    ("mg/m3", "mg/m³"),
    ("µg/m³", "µg/m³"),
    ("µg/m3", "µg/m³"),
    ("mm/s", "mm/s"),
    ("mm", "mm"),
    ("operating hours", "h"),
    ("running hours", "h"),
    ("hours", "h"),
    ("hour", "h"),
    ("hrs", "h"),
    ("hr", "h"),
    ("h", "h"),
    ("flight cycles", "cycles"),
    ("cycles", "cycles"),
    ("runs", "runs"),
    ("minutes", "min"),
    ("minute", "min"),
    ("mins", "min"),
    ("seconds", "s"),
    ("second", "s"),
    ("secs", "s"),
    ("sec", "s"),
    ("months", "months"),
    ("month", "months"),
    ("years", "years"),
    ("year", "years"),
    ("days", "days"),
    ("day", "days"),
    ("weeks", "weeks"),
    ("week", "weeks"),
    ("litres", "L"),
    ("liters", "L"),
    ("us gallons", "gal"),
    ("us gal", "gal"),
    ("gallons", "gal"),
    ("gallon", "gal"),
    ("gal", "gal"),
    ("l", "L"),
    ("kg", "kg"),
    ("kilograms", "kg"),
    ("tonnes", "t"),
    ("tonne", "t"),
    ("t", "t"),
    ("pounds", "lb"),
    ("lbs", "lb"),
    ("lb", "lb"),
    ("grams", "g"),
    ("gram", "g"),
    ("g", "g"),
    ("rpm", "rpm"),
    ("hp", "hp"),
    ("volts", "V"),
    ("watts", "W"),
    ("kn", "kN"),
    ("amperes", "A"),
    ("amps", "A"),
    ("hz", "Hz"),
    ("cm", "cm"),
    ("ms", "ms"),
    ("m/s", "m/s"),
    ("km/h", "km/h"),
    ("ft", "ft"),
    ("feet", "ft"),
    ("min", "min"),
    ("m", "m"),
    ("s", "s"),
    ("v", "V"),
    ("w", "W"),
    ("a", "A"),
)
# Thousands grouped by commas or by (thin, no-break) spaces: "12,000", "16 000".
_NUMBER = (
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?"
    r"|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:\.\d+)?(?![\d,]\d)"
    r"|\d+(?:\.\d+)?"
)
# Small numbers written as words count before a unit: "three years", "a two-hour run".
_WORDS = {
    w: float(n)
    for n, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
} | {"thirty": 30.0, "forty": 40.0, "fifty": 50.0, "sixty": 60.0, "hundred": 100.0}
_WORD_NUMBER = "|".join(sorted(_WORDS, key=len, reverse=True))
_UNIT = "|".join(re.escape(u) for u, _ in _UNITS)
_QUANTITY = re.compile(
    rf"(?<![\w.])({_NUMBER}|\b(?:{_WORD_NUMBER})\b)(?:\s*|-)({_UNIT})(?![\w/³])", re.IGNORECASE
)
_BARE_NUMBER = re.compile(rf"(?<![\w.])({_NUMBER})(?![\w])")
_CANONICAL = {u.lower(): c for u, c in _UNITS}
_RATES = frozenset(c for c in _CANONICAL.values() if "/" in c)
_SPACED = frozenset({"s", "m", "v", "t", "a", "w"})


# Attribute words and the units a comparison about them is in ("louder" → dB(A)).
ATTRIBUTE_UNITS = {
    "loud": ("dB(A)",),
    "louder": ("dB(A)",),
    "quieter": ("dB(A)",),
    "noise": ("dB(A)",),
    "noisy": ("dB(A)",),
    "flow": ("L/min", "m³/min"),
    "air": ("m³/min",),
    "delivery": ("m³/min", "L/min"),
    "pressure": ("bar", "psi"),
    "power": ("kW", "kVA"),
    "powerful": ("kW", "kVA"),
    "motor": ("kW",),
    "torque": ("N·m",),
    "temperature": ("°C",),
    "hotter": ("°C",),
    "interval": ("h", "cycles", "months"),
}


_SHORT_UNITS = frozenset({"kg", "kW", "kN", "mm", "cm", "L", "V", "A", "h"})
_UNIT_WORD = re.compile(rf"(?<![\w/])({_UNIT})(?![\w/³])", re.IGNORECASE)


def units_named(text: str) -> tuple[str, ...]:
    """Units ``text`` spells out without a figure ("in MPa", "how many pounds"), in their
    canonical spelling; one-letter units only as written in capitals ("in L")."""
    found = [
        _CANONICAL[m.group(1).lower()]
        for m in _UNIT_WORD.finditer(mask_identifiers(text))
        if len(m.group(1)) > 2 or m.group(1) in _SHORT_UNITS
    ]
    return tuple(dict.fromkeys(found))


def attribute_units(text: str) -> tuple[str, ...]:
    """The units a text's attribute words point at: "louder" → dB(A), "flow" → L/min."""
    found = [u for w in re.findall(r"[a-z]+", text.lower()) for u in ATTRIBUTE_UNITS.get(w, ())]
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


def numbers(text: str) -> set[float]:
    """Every number in ``text`` that is not part of an identifier or a citation."""
    return {value for value, _, _ in number_spans(text)}


def number_spans(text: str) -> list[tuple[float, int, int]]:
    """Each number of ``numbers`` with where it starts and ends."""
    return [
        (_value(m.group(1)), m.start(), m.end())
        for m in _BARE_NUMBER.finditer(mask_identifiers(text))
    ]


# Counts written as words ("three parallel strings"); "one" and "zero" are left out: "one
# of the sensors", "zero-point" are rarely counts.
_COUNT_WORD = re.compile(
    r"\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b", re.IGNORECASE
)


# A share written as a fraction is a percentage: "four-fifths of its rated capacity".
_FRACTIONS = {"third": 1 / 3, "quarter": 1 / 4, "fifth": 1 / 5, "tenth": 1 / 10}
_FRACTIONS |= {f"{w}s": v for w, v in _FRACTIONS.items()}
# A fraction in words: "seven tenths", "two-thirds" (groups: the count, the part).
_IN_PARTS = r"(one|two|three|four|five|six|seven|eight|nine)[- ](thirds?|quarters?|fifths?|tenths?)"
_FRACTION = re.compile(
    rf"\b{_IN_PARTS}\b"
    r"(?!\s+of\s+an?\s+(?:hour|minute|second|day|week|month|year|mile|inch)\b)",  # a time
    re.IGNORECASE,
)


_FRACTION_OF_TIME = re.compile(
    rf"\b(?:{_IN_PARTS}|(?:a\s+)?(half))"
    r"\s+(?:of\s+)?an?\s+(second|minute|hour|day|week|month|year)\b",
    re.IGNORECASE,
)


_ONE_TIME_UNIT = re.compile(
    r"\b(?:within|in|after|for|under|up\s+to|at\s+least|at\s+most)\s+(?P<one>an?)\s+"
    r"(?P<unit>second|minute|hour|day|week|month|year)\b(?!\s+(?:or|and)\s+(?:a|an|two)\b)",
    re.IGNORECASE,
)


def _share(count: str | None, part: str) -> float:
    """The share a fraction in words is: ("three", "tenths") → 0.3, (None, "half") → 0.5."""
    if count is None:
        return 0.5
    return round(_WORDS[count.lower()] * _FRACTIONS[part.lower()], 6)


def word_number_spans(text: str) -> list[tuple[float, int, int]]:
    """Small numbers written as words, from two to twelve, with where they are."""
    return [(_WORDS[m.group(1).lower()], m.start(), m.end()) for m in _COUNT_WORD.finditer(text)]


def quantities(text: str) -> list[Quantity]:
    """Numbers followed by a unit, with the unit in its canonical spelling; the first
    figure of a range takes the unit of the last ("20 to 50 mbar": 20 mbar, 50 mbar)."""
    return list(_quantities(text))


# A pure function of its text, memoised: validation reads the same evidence sentences
# and answer clauses many times per question.
@functools.lru_cache(maxsize=8192)
def _quantities(text: str) -> tuple[Quantity, ...]:
    masked = mask_identifiers(text)
    found = [
        Quantity(
            _signed(masked, m.start(), _value(m.group(1)), unit := _canonical(m.group(2))),
            unit,
            m.start(),
            m.end(),
        )
        for m in _QUANTITY.finditer(masked)
        # A one-letter unit needs a space or hyphen: "1990s" is a decade, "5 s" and
        # "a 5-second delay" durations.
        if m.group(2).lower() not in _SPACED or not m.group(0)[len(m.group(1))].isalpha()
        if m.group(2) != "a"  # amperes are "A": "5 a.m." is a time
        # "Rev. 2 runs 1.5 % NaOH": a label's number followed by a verb is no figure.
        if not (m.group(2).lower() in _VERB_UNITS and _LABEL_BEFORE.search(masked[: m.start()]))
    ]
    found += [
        Quantity(round(100 * _share(m.group(1), m.group(2)), 1), "%", m.start(), m.end())
        for m in _FRACTION.finditer(masked)
    ]
    # "within a day", "for an hour": one of a time unit.
    found += [
        Quantity(1.0, _CANONICAL[m.group("unit").lower()], m.start("one"), m.end())
        for m in _ONE_TIME_UNIT.finditer(masked)
    ]
    # "half a minute", "three tenths of a second": a share of a time unit.
    found += [
        Quantity(_share(m.group(1), m.group(2)), _CANONICAL[m.group(4).lower()], m.start(), m.end())
        for m in _FRACTION_OF_TIME.finditer(masked)
    ]
    found = [_rate_of(masked, q) for q in found]
    return tuple(_with_range_starts(masked, sorted(found, key=lambda q: q.start)))


# "500 kg of CO2 per hour" is 500 kg/h.
_OF_PER = re.compile(r"\s+of\s+(?:[\w-]+\s+){1,2}?per\s+(hour|minute)\b", re.IGNORECASE)
_PER = {"hour": "h", "minute": "min"}


def _rate_of(text: str, q: Quantity) -> Quantity:
    """``q``, or the rate it starts when the words after it say "of … per hour"."""
    m = _OF_PER.match(text, q.end)
    if m is None or (rate := f"{q.unit}/{_PER[m.group(1).lower()]}") not in _RATES:
        return q
    return Quantity(q.value, rate, q.start, m.end())


# The first figure of a range or a choice, written bare before the one with the unit:
# "20 to 50 mbar", "5–30 °C", "3 or 6 months", "between 6 and 8 bar".
_RANGE_START = re.compile(
    rf"(?<![\w.,])({_NUMBER})\s*(?:(?:to|or)\s+|[–—-]\s*|(?P<and>and\s+))\+?$", re.IGNORECASE
)
_BETWEEN = re.compile(r"\bbetween\s+$", re.IGNORECASE)
# What makes a number a label, not a figure: "Rev. 1 to 600 s", "Section 4 to 10 bar".
_LABEL_BEFORE = re.compile(
    r"(?:\b[A-Z][a-z]{0,5}\.|\b(?i:rev|revision|edition|version|section|clause|chapter|"
    r"annex|table|figure|page|part|item|step|stage|phase|level|class|zone|type|no))\s*$"
)
# Units that are also verbs ("the pump runs …").
_VERB_UNITS = frozenset({"runs"})
YEAR = re.compile(r"^(?:19|20)\d\d$")
"""A number that is a year (1990–2099): a date, not a figure or a count."""


def _with_range_starts(text: str, found: list[Quantity]) -> list[Quantity]:
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
            and not _LABEL_BEFORE.search(head)
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


def _canonical(unit: str) -> str:
    """A unit as matched (case ignored) in its canonical spelling; "mΩ" is not "MΩ"."""
    return "mΩ" if unit == "mΩ" else _CANONICAL[unit.lower()]


def _value(number: str) -> float:
    word = _WORDS.get(number.lower())
    if word is not None:
        return word
    return float(re.sub(r"[,\s\u00a0\u202f]", "", number))
