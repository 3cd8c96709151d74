"""Recognising a question about a declared table, and reading it into a ``TableQuery``.

No LLM: the question's words are matched against each table's schema (measure and
dimension names and synonyms, plurals folded, any case), against the distinct values of
its dimension columns (passed in, so this module reads nothing), and against the word
lists of ``rules/data_question.toml`` (aggregations, rankings, groupings). The query it
returns names only the schema's own identifiers and the table's own stored values: no
word of the question reaches it except through that lookup, so no question can choose
what is read. A question that clearly asks about a table (it names a measure) but asks
for something the schema cannot express gets ``Unexpressible`` with the reason shown to
the user, never a guessed query.
"""

from __future__ import annotations

import difflib
import itertools
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import TypeVar

from ragcore.agents.perception.agent import MAX_QUESTION_CHARS
from ragcore.agents.perception.rules import DEFAULT_RULES, load_rules
from ragcore.agents.perception.time import TimeConstraint
from ragcore.errors import ConfigError, InvalidInputError, InvalidQueryError
from ragcore.tabular import (
    Aggregation,
    ColumnType,
    Measure,
    Order,
    Period,
    TableQuery,
    TableSchema,
)
from ragcore.text.value_words import plural, singular
from ragcore.types import _Vocabulary

DATA_RULES = Path(__file__).resolve().parents[2] / "rules" / "data_question.toml"
MAX_LIMIT = 100
"""The largest "top N" a question may ask for."""
MAX_RANGE = 400
"""The most whole numbers a range of an integer dimension is read as ("seasons 1990 to
1999" is ten)."""

T = TypeVar("T")
Value = str | int | float
Values = Mapping[str, Mapping[str, Sequence[Value]]]
"""Table name -> dimension column -> the column's distinct stored values."""
Known = Callable[[str, str | None, str], Sequence[Value]]
"""(table, column or None for any dimension, a value the question names that the table
lacks) -> the stored values to name instead (``TableCatalog.known``)."""


_PREPOSITION = re.compile(r"^(?:(?:in|during|of|for|the)\s+)+", re.IGNORECASE)
_ONE_DAY = timedelta(days=1)
_A_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
"""Words before a period's name: "in 2025" is named "2025"."""


class Role(_Vocabulary):
    """What some words of a data question were read as."""

    MEASURE = "measure"
    AGGREGATION = "aggregation"
    ORDER = "order"
    LIMIT = "limit"
    GROUP_BY = "group_by"
    FILTER = "filter"
    TIME = "time"
    TEXT = "text"


@dataclass(frozen=True)
class Match:
    """Words of the question (``text``) and what they were read as (``reads``), for the
    trace: why the query is what it is."""

    role: Role
    text: str
    reads: str


@dataclass(frozen=True)
class DataQuestion:
    """A question a table answers. ``needs_text``: it also asks for a procedure or an
    explanation, which the documents answer."""

    query: TableQuery
    needs_text: bool
    matched: tuple[Match, ...]
    text_part: str = ""
    """The words the documents answer ("how do I clear E4027?"), when ``needs_text``."""


@dataclass(frozen=True)
class Unexpressible:
    """A data question the schema cannot express; ``reason`` is shown to the user."""

    reason: str
    table: str | None = None


class Directness(_Vocabulary):
    """How directly the question's words name a measure (issue 28): by the measure's own
    name or column ("parts cost"), by a synonym as the schema writes it ("cost of
    parts"), or only through a verb ("spent" of a measure named "spend", "spent on
    parts" of the parts cost, a measure named by a verb of paying alone)."""

    OWN = "own name"
    SYNONYM = "synonym"
    VERB = "verb"


_DIRECTNESS = {Directness.VERB: 1, Directness.SYNONYM: 2, Directness.OWN: 3}


@dataclass(frozen=True)
class Reading:
    """One measure the question's words read: ``table``.``measure``, named by ``words``
    of the question, ``how`` directly."""

    table: str
    measure: str
    words: tuple[str, ...]
    how: Directness

    def describe(self) -> str:
        said = " + ".join(repr(w) for w in self.words)
        return f"{self.table}.{self.measure} ({said}, by its {self.how})"


@dataclass(frozen=True)
class ValueReading:
    """One dimension a value the question names is stored under: ``table``.``column`` =
    ``value``, named by ``words``."""

    table: str
    column: str
    value: str | int | float
    words: str

    def describe(self) -> str:
        return f"{self.table}.{self.column} = {self.value!r}"


@dataclass(frozen=True)
class Ambiguous:
    """A data question whose words read two measures or more alike (issue 28: "spent on
    parts" is purchase orders' spend and work orders' parts cost), or name a value two
    dimensions hold ("direct" as a sales channel and as a market segment): no pick, the
    answer is ``uncertain`` naming each reading."""

    readings: tuple[Reading, ...]
    values: tuple[ValueReading, ...] = ()
    """The dimensions holding the value the question names, when that is what is
    ambiguous."""

    @property
    def reason(self) -> str:
        if self.values:
            said = "; ".join(v.describe() for v in self.values)
            return (
                f"{self.values[0].words!r} is a value of {len(self.values)} dimensions alike: "
                f"{said}; name the one meant (e.g. '{self.values[0].words} "
                f"{self.values[0].column.replace('_', ' ')}')"
            )
        said = "; ".join(r.describe() for r in self.readings)
        return (
            f"the question reads as {len(self.readings)} measures alike: {said}; "
            "name the one meant (e.g. by its own name)"
        )


# --- the rules file -------------------------------------------------------------------

Phrase = tuple[str, ...]


@dataclass(frozen=True)
class _Words:
    aggregations: tuple[tuple[Phrase, Aggregation], ...]
    ranking: tuple[tuple[Phrase, Order], ...]
    triggers: tuple[Phrase, ...]
    which: frozenset[str]
    skip: frozenset[str]
    link: frozenset[str]
    time_units: frozenset[str]
    numbers: Mapping[str, int]
    text: tuple[Phrase, ...]
    thresholds: re.Pattern[str]
    clock: re.Pattern[str]
    """A time of day ("18:00", "6am"): no query selects rows by it."""
    stopwords: frozenset[str]
    everyday: frozenset[str]
    overall: frozenset[str]
    listing: frozenset[str]
    subjects: frozenset[str]
    negations: frozenset[str]
    bounds_before: frozenset[str]
    """Words before a number making it a bound of a range ("from", "up to")."""
    bounds_after: frozenset[str]
    """Words after a number making it a bound of a range ("on", "onwards")."""
    auxiliaries: frozenset[str]
    reading: frozenset[str]
    rows: tuple[tuple[Phrase, Aggregation], ...]
    """Words asking for the earliest or latest row ("the first order"), with which."""
    periodic: Mapping[str, str]
    """A word of one time unit -> the unit it groups by ("monthly" -> "month")."""
    together: tuple[Phrase, ...]
    """Values of one column named with these are summed together, not compared."""
    change: frozenset[str]
    """Words asking how a figure changed: two sides needed."""
    verb_forms: Mapping[str, tuple[str, ...]]
    """A verb's base form -> its other forms ("spend" -> "spent"): a measure's one-word
    name is written in any of them."""
    joined: tuple[Phrase, ...] = ()
    """Words joining periods into one window when a total is asked ("May and June")."""
    paying_verbs: frozenset[str] = frozenset()
    """Verbs of paying ("spent", "paid"): the figure is money, not which money."""
    paying_nouns: frozenset[str] = frozenset()
    """Money words of a measure's name a verb of paying stands for ("cost")."""
    conditions: tuple[Phrase, ...] = ()
    """Words selecting rows by a condition ("on time"): never idle when unread."""
    one_row: frozenset[str] = frozenset()
    """Words saying one row ("a single shift"): idle for a maximum or minimum."""
    inverted: tuple[Phrase, ...] = ()
    """Words joining a name turned round: "volume of sales" of "sales volume"."""
    happening: frozenset[str] = frozenset()
    """Verbs saying only that the rows happened ("were received"): they select none."""
    compare: frozenset[str] = frozenset()
    """Words comparing two sides ("versus", "compared"): the sides are each a figure."""
    having: frozenset[str] = frozenset()
    """Words before another measure that select rows by it ("with children")."""
    row_words: tuple[str, ...] = ()
    """Words naming any table's rows ("records", "entries"), beside its own names."""
    qualities: Mapping[str, tuple[Phrase, ...]] = field(default_factory=dict)
    """An adjective grading a quantity ("windiest") -> the quantity's nouns ("wind
    speed", "wind"): it names the measure so named; its comparative and superlative
    forms are rankings too."""
    either: frozenset[str] = frozenset()
    """Words of an extreme in no direction ("the extreme temperature"): the highest or
    the lowest, unsaid."""
    quality_bases: frozenset[str] = frozenset()
    """The plain forms of those adjectives ("how windy"): they name, and rank nothing."""

    @cached_property
    def grouping(self) -> frozenset[str]:
        """Every word of grouping: "across all sites" sums over them, it asks nothing else."""
        return frozenset(w for p in self.triggers for w in p) | self.overall | self.listing

    @cached_property
    def forms(self) -> Mapping[str, frozenset[str]]:
        """Each form of a verb of ``verb_forms`` -> its other forms ("make" -> "made",
        "makes", "making"; "made" -> "make", ...), folded as names are."""
        out: dict[str, frozenset[str]] = {}
        for base, others in self.verb_forms.items():
            family = frozenset(_norm(w) for w in (base, *others))
            for form in family:
                out[form] = family - {form}
        return out

    @cached_property
    def extremes(self) -> tuple[tuple[Phrase, Order], ...]:
        """Every extreme word with its order: "maximum", "peak", "highest", "most"."""
        aggregated = tuple((p, _EXTREMES[a]) for p, a in self.aggregations if a in _EXTREMES)
        return aggregated + self.ranking


def _fail(key: str, value: object, reason: str) -> ConfigError:
    return ConfigError(f"data question rules {key}", value, f"{reason} (rules file {DATA_RULES})")


def _strings(data: Mapping, key: str, where: str) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise _fail(f"{where}.{key}", value, "expected a list of non-empty strings")
    return tuple(value)


@cache
def _words() -> _Words:
    """The shipped word lists; a broken file is a ConfigError naming the key."""
    try:
        data = tomllib.loads(DATA_RULES.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError("data question rules", str(DATA_RULES), f"cannot read: {exc}") from exc
    aggregations = data.get("aggregations", {})
    ranking = data.get("ranking", {})
    grouping = data.get("grouping", {})
    for name in aggregations:
        if Aggregation.parse(name) is None:
            raise _fail("aggregations", name, f"use one of {Aggregation.values()}")
    rows = data.get("rows", {})
    for name in rows:
        if name not in (Aggregation.EARLIEST.value, Aggregation.LATEST.value):
            raise _fail("rows", name, "use earliest or latest")
    for name in ranking:
        if Order.parse(name) is None:
            raise _fail("ranking", name, f"use one of {Order.values()}")
    qualities = data.get("qualities", {})
    graded: list[tuple[str, Order]] = []
    for name, quality in qualities.items():
        if not isinstance(quality, dict) or not _strings(quality, "nouns", f"qualities.{name}"):
            raise _fail(f"qualities.{name}", quality, "give its nouns, base, more and less")
        for key, order in (("more", Order.DESC), ("less", Order.ASC)):
            graded += [(w, order) for w in _strings(quality, key, f"qualities.{name}")]
    try:
        thresholds = re.compile(
            "|".join(f"(?:{p})" for p in _strings(data.get("thresholds", {}), "patterns", "")),
            re.IGNORECASE,
        )
    except re.error as exc:
        raise _fail("thresholds.patterns", str(exc), "invalid regular expression") from exc
    try:
        clock = re.compile(
            "|".join(f"(?:{p})" for p in _strings(data.get("clock", {}), "patterns", "")),
            re.IGNORECASE,
        )
    except re.error as exc:
        raise _fail("clock.patterns", str(exc), "invalid regular expression") from exc
    numbers = _strings(data.get("numbers", {}), "words", "numbers")
    periodic = data.get("periodic", {})
    units = {_norm(w) for w in _strings(grouping, "time_units", "grouping")}
    for word, unit in periodic.items():
        if not isinstance(unit, str) or _norm(unit) not in units:
            raise _fail(f"periodic.{word}", unit, f"use one of grouping.time_units {sorted(units)}")

    def phrases(words: Iterable[str]) -> tuple[Phrase, ...]:
        return tuple(p for p in (_phrase(w) for w in words) if p)

    return _Words(
        aggregations=tuple(
            (p, Aggregation(name))
            for name in aggregations
            for p in phrases(_strings(aggregations, name, "aggregations"))
        ),
        ranking=tuple(
            (p, Order(name))
            for name in ranking
            for p in phrases(_strings(ranking, name, "ranking"))
        )
        + tuple((p, order) for w, order in graded if (p := _phrase(w))),
        qualities={
            _norm(w): phrases(_strings(quality, "nouns", name))
            for name, quality in qualities.items()
            for key in ("base", "more", "less")
            for w in _strings(quality, key, name)
        },
        either=frozenset(_norm(w) for w in _strings(data.get("either", {}), "words", "either")),
        quality_bases=frozenset(
            _norm(w) for quality in qualities.values() for w in _strings(quality, "base", "")
        ),
        triggers=phrases(_strings(grouping, "triggers", "grouping")),
        which=frozenset(_norm(w) for w in _strings(grouping, "which", "grouping")),
        skip=frozenset(_norm(w) for w in _strings(grouping, "skip", "grouping")),
        link=frozenset(_norm(w) for w in _strings(grouping, "link", "grouping")),
        time_units=frozenset(_norm(w) for w in _strings(grouping, "time_units", "grouping")),
        numbers={w.lower(): n for n, w in enumerate(numbers, 1)},
        text=phrases(_strings(data.get("text", {}), "phrases", "text")),
        thresholds=thresholds,
        clock=clock,
        stopwords=load_rules(DEFAULT_RULES).stopwords,
        everyday=frozenset(_norm(w) for w in _strings(data.get("everyday", {}), "words", "")),
        overall=frozenset(_norm(w) for w in _strings(grouping, "overall", "grouping")),
        listing=frozenset(_norm(w) for w in _strings(grouping, "listing", "grouping")),
        subjects=frozenset(_exact(w) for w in _strings(data.get("verbs", {}), "subjects", "verbs")),
        negations=frozenset(
            _exact(w) for w in _strings(data.get("negations", {}), "words", "negations")
        ),
        bounds_before=frozenset(
            " ".join(_norm(w) for w in p.split())
            for p in _strings(data.get("bounds", {}), "before", "bounds")
        ),
        bounds_after=frozenset(
            _norm(w) for w in _strings(data.get("bounds", {}), "after", "bounds")
        ),
        auxiliaries=frozenset(
            _exact(w) for w in _strings(data.get("verbs", {}), "auxiliaries", "verbs")
        ),
        reading=frozenset(_norm(w) for w in _strings(data.get("reading", {}), "words", "reading")),
        rows=tuple(
            (p, Aggregation(name)) for name in rows for p in phrases(_strings(rows, name, "rows"))
        ),
        periodic={_norm(w): _norm(u) for w, u in periodic.items()},
        together=phrases(_strings(data.get("together", {}), "words", "together")),
        change=frozenset(_norm(w) for w in _strings(data.get("change", {}), "words", "change")),
        verb_forms={
            base.lower(): _strings(forms, base, "verb_forms")
            for forms in [data.get("verb_forms", {})]
            for base in forms
        },
        joined=phrases(_strings(data.get("joined", {}), "words", "joined")),
        paying_verbs=frozenset(
            _norm(w) for w in _strings(data.get("paying", {}), "verbs", "paying")
        ),
        paying_nouns=frozenset(
            _norm(w) for w in _strings(data.get("paying", {}), "nouns", "paying")
        ),
        one_row=frozenset(_norm(w) for w in _strings(data.get("one_row", {}), "words", "one_row")),
        inverted=phrases(_strings(data.get("inverted", {}), "words", "inverted")),
        conditions=phrases(_strings(data.get("conditions", {}), "phrases", "conditions")),
        happening=frozenset(
            _exact(w) for w in _strings(data.get("verbs", {}), "happening", "verbs")
        ),
        row_words=_strings(data.get("row_words", {}), "words", "row_words"),
        having=frozenset(_norm(w) for w in _strings(data.get("having", {}), "words", "having")),
        compare=frozenset(_norm(w) for w in _strings(data.get("compare", {}), "words", "compare")),
    )


# --- words ----------------------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+(?:[-/.'’][^\W_]+)*")
_POSSESSIVE = re.compile(r"['’]s$")
_IDENTIFIER = re.compile(r"^(?=.*\d)(?:(?=.*[^\W\d_])|.*\d[-/]\d)")
_NUMBER = re.compile(r"^\d+$")
_SPAN = re.compile(r"(\d+)[-–](\d+)")
# Measures that count things: "how many <things>" asks for the measure, not for rows.
_COUNTED_UNITS = frozenset({("unit",), ("units",), ("piece",), ("pieces",), ("pcs",), ("items",)})
_EXTREMES = {Aggregation.MAX: Order.DESC, Aggregation.MIN: Order.ASC}
_NAMED_PERIODS = {"week": "in week 12 of 2026", "day": "on 2026-03-11", "hour": "on 2026-03-11"}
"""How to name one period of a unit a query cannot group by."""
_PERIOD_WORDS = frozenset(
    {"last", "this", "next", "previous", "past", "coming", "current"}
    | {"first", "second", "third", "fourth", "q1", "q2", "q3", "q4"}  # "first quarter of 2026"
)
_UNIT_DAYS = {
    "day": (1, 1),
    "week": (7, 7),
    "month": (28, 31),
    "quarter": (90, 92),
    "year": (365, 366),
}
"""How many days a period of each unit spans."""
_DATE_WORDS = frozenset({"date", "day", "month", "time", "at", "on", "year"})
"""Words of a date column's name that say only that it is a date ("closed_date")."""
_ROW_GAP = 4
"""Words that may stand between "earliest" and the rows' name ("earliest QuickFix
Industrial order")."""
_COUNT_GAP = 4
"""Words a count may stand before the rows it counts: "how many of Irma's observations"."""
_ORDINAL = re.compile(r"^\d+(?:st|nd|rd|th)$", re.IGNORECASE)


def _stem(word: str) -> str:
    """A word without its inflection, crudely: "monitored", "monitoring" -> "monitor",
    "shipped" -> "ship"."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    if len(word) > 4 and word[-1] == word[-2] and word[-1] not in "aeiousl":
        word = word[:-1]  # "shipp" -> "ship"
    return word


def _exact(word: str) -> str:
    return _POSSESSIVE.sub("", word.lower())


def _norm(word: str) -> str:
    return singular(_exact(word))


@dataclass(frozen=True)
class _Token:
    raw: str
    exact: str
    """Lowercase, without a possessive 's: how stored values are matched."""
    norm: str
    """``exact`` in the singular: how schema names and rule words are matched."""
    start: int
    end: int

    @property
    def plural(self) -> bool:
        return self.norm != self.exact


_COMPOUND = re.compile(r"[^\W\d_]+(?:[-/][^\W\d_]+)+")
_PART = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def _tokens(text: str) -> list[_Token]:
    """Words as matched; a compound of letters is its words ("purchase-order lines" as
    "purchase order lines"), an identifier stays whole ("CP-200", "88-2041-09")."""
    tokens = []
    for m in _WORD.finditer(text):
        parts = _PART.finditer(m.group(0)) if _COMPOUND.fullmatch(m.group(0)) else [m]
        for part in parts:
            start = m.start() + part.start() if part is not m else m.start()
            word = part.group(0)
            tokens.append(_Token(word, _exact(word), _norm(word), start, start + len(word)))
    return tokens


def _opens_sentence(text: str, token: _Token) -> bool:
    """Whether ``token`` begins the question or a sentence of it ("... in Chicago?
    Compare the ..."): its capital is the sentence's, no sign of a name."""
    before = text[: token.start].rstrip(" \t\n\"'“‘(")
    return not before or before[-1] in ".?!;:"


def _capitalised(text: str, token: _Token) -> bool:
    """Whether ``token`` is written with a capital of its own, as a name is: not the one
    opening a sentence (``_opens_sentence``)."""
    return token.raw[:1].isupper() and not _opens_sentence(text, token)


def _phrase(text: str) -> Phrase:
    """Schema or rule words as matched: "shortage_rate" -> ("shortage", "rate")."""
    return _name_keys(text)[1]


def _value_key(value: Value) -> Phrase:
    """A stored value as matched: lowercase words, without a leading "P/N"."""
    words = _name_keys(str(value))[0]
    return words[1:] if words[:1] in (("p/n",), ("pn",)) else words


def _happening(word: str, happening: frozenset[str]) -> bool:
    """Whether ``word`` is a verb of the rows happening in any of its forms: "arriving"
    and "arrives" of "arrive", "shipping" of "ship"."""
    if word in happening:
        return True
    for suffix, ends in (("ing", ("", "e")), ("es", ("", "e")), ("s", ("",))):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            bases = {base + end for end in ends}
            if len(base) > 3 and base[-1] == base[-2]:
                bases.add(base[:-1])  # "shipping" -> "ship"
            if bases & happening:
                return True
    return False


def _function_word(key: Phrase) -> bool:
    """Whether a stored value is one word every question may hold ("and", "one", "no"):
    it is read as the value only where written as stored, in a name's or a code's case
    ("AND" the country code, "One" the storm), never from the plain word ("between A and
    B", "which one", "category 5 ones")."""
    words = _words()
    return len(key) == 1 and (key[0] in words.stopwords or key[0] in words.numbers)


def _value_phrases(
    stored: Iterable[tuple[Value, T]],
) -> tuple[list[tuple[Phrase, T]], list[tuple[Phrase, T]]]:
    """The stored values as matched (lowercase words, ``attr="exact"``), and apart those
    that are function words (``_function_word``), as stored (``attr="raw"``); a function
    word stored in lowercase ("no") is read by no question."""
    plain: list[tuple[Phrase, T]] = []
    cased: list[tuple[Phrase, T]] = []
    for value, label in stored:
        if not (key := _value_key(value)):
            continue
        if not _function_word(key):
            plain.append((key, label))
            if len(key) > 1 and (spelled := _spelled(key)) != key:
                plain.append((spelled, label))  # "category five" of "category 5"
        elif (text := str(value).strip()) != text.lower():
            cased.append(((text,), label))
    return plain, cased


def _spelled(key: Phrase) -> Phrase:
    """A value's words with its small numbers spelled out ("category 5" -> "category
    five"), as a question may write them; a number alone is no such name."""
    words = {n: w for w, n in _words().numbers.items()}
    return tuple(words.get(int(w), w) if w.isdigit() and len(w) < 3 else w for w in key)


def _claim_values(
    claims: _Claims, plain: list[tuple[Phrase, T]], cased: list[tuple[Phrase, T]]
) -> list[tuple[int, int, T]]:
    """Every occurrence of the values (``_value_phrases``), in question order."""
    found = claims.claim(plain, attr="exact") + claims.claim(cased, attr="raw")
    return sorted(found, key=lambda f: f[0])


def _shape(text: str) -> str:
    """ "CP-200" -> "A-9", "88-2041-09" -> "9-9-9": what kind of identifier it is."""
    text = re.sub(r"^\s*P/?N\s*", "", text, flags=re.IGNORECASE)
    return re.sub(r"[^\W\d_]+", "A", re.sub(r"\d+", "9", text))


@lru_cache(maxsize=1 << 16)
def _name_keys(name: str) -> tuple[Phrase, Phrase]:
    """Words of a schema name or stored value, as spelled and folded (cached: every
    question reads the same names)."""
    words = _tokens(name)
    return tuple(t.exact for t in words), tuple(t.norm for t in words)


@dataclass
class _Claims:
    """Which tokens are taken, by what; claims never overlap."""

    tokens: list[_Token]
    used: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._starts: dict[str, dict[str, list[int]]] = {"exact": {}, "norm": {}, "raw": {}}
        for i, token in enumerate(self.tokens):
            self._starts["raw"].setdefault(token.raw, []).append(i)
            self._starts["exact"].setdefault(token.exact, []).append(i)
            self._starts["norm"].setdefault(token.norm, []).append(i)

    def find(self, phrase: Phrase, attr: str = "norm") -> Iterable[tuple[int, int]]:
        n = len(phrase)
        for i in self._starts[attr].get(phrase[0], ()) if phrase else ():
            if i + n <= len(self.tokens) and all(
                getattr(self.tokens[i + k], attr) == phrase[k] and i + k not in self.used
                for k in range(n)
            ):
                yield i, i + n

    def claim(
        self, phrases: Iterable[tuple[Phrase, T]], attr: str = "norm"
    ) -> list[tuple[int, int, T]]:
        """Every occurrence of the phrases, longest first; in question order."""
        found = []
        for phrase, label in sorted(phrases, key=lambda p: -len(p[0])):
            for i, j in list(self.find(phrase, attr)):
                if not any(k in self.used for k in range(i, j)):
                    self.used.update(range(i, j))
                    found.append((i, j, label))
        return sorted(found, key=lambda f: f[0])

    def claim_names(self, names: Iterable[tuple[str, T]]) -> list[tuple[int, int, T]]:
        """Like ``claim`` for schema names: of two names of one length, the one spelled
        as in the question wins ("shortages" before "shortage" folded from it)."""
        entries: dict[tuple[Phrase, str], T] = {}
        for name, label in names:
            exact, norm = _name_keys(name)
            if exact:
                entries.setdefault((exact, "exact"), label)
                entries.setdefault((norm, "norm"), label)
        found = []
        for (phrase, attr), label in sorted(
            entries.items(), key=lambda e: (-len(e[0][0]), e[0][1] != "exact")
        ):
            found += self.claim([(phrase, label)], attr)
        return sorted(found, key=lambda f: f[0])

    def text(self, question: str, i: int, j: int) -> str:
        return question[self.tokens[i].start : self.tokens[j - 1].end]


# --- recognising ----------------------------------------------------------------------


def recognise(
    question: str,
    schemas: Sequence[TableSchema],
    *,
    today: date,
    time: TimeConstraint | None,
    values: Values | None = None,
    known: Known | None = None,
    periods: Sequence[TimeConstraint] = (),
    identifiers: Mapping[str, frozenset[str]] | None = None,
) -> DataQuestion | Unexpressible | Ambiguous | None:
    """The table query ``question`` asks for; None if it names no declared measure.

    ``time``: the interval perception read ("last month"), applied to the table's time
    column; ``periods``: every period it read, when it names several ("Q2 2026 vs Q3
    2026"), compared with a figure each. ``values``: the distinct stored values of each
    table's dimension columns (table -> column -> values); a filter is one of these,
    spelled as stored. They may be only those the question could name and an example of
    each shape (``TableCatalog.values_for``), with ``known`` then giving the values to
    list for a value the table lacks. ``identifiers``: per table, the dimensions with a
    value of their own in every row ("the cost per work order" is an average over
    rows). Of several tables the one holding most of the values the question names is
    read ("QuickFix Industrial" is a supplier of one table only), then the one whose
    measure it names most specifically. When that one's measure is named only through a
    verb ("spent") and another table's query reads a measure from the same words ("spent
    on parts": purchase orders' spend, work orders' parts cost), the question is
    ``Ambiguous`` naming both; a measure named by its own name or a synonym as written
    is a confident pick.
    """
    text = _check(question, schemas, values)
    if time is not None and not isinstance(time, TimeConstraint):
        raise InvalidInputError(f"time must be a TimeConstraint or None, not {time!r}")
    words = _words()
    tokens = _tokens(text)
    periods = tuple(periods) if len(periods) > 1 else ()
    time_span = set().union(*(_time_span(text, tokens, t) for t in (time, *periods)))
    Key = tuple[int, int, bool, int, int, int]
    read: list[tuple[Key, DataQuestion | Unexpressible | Ambiguous, _Reader]] = []
    for rank, schema in enumerate(schemas):
        per_row = (identifiers or {}).get(schema.name, frozenset())
        dated = _undimensioned(tokens, schema, time, periods, lambda t: _time_span(text, tokens, t))
        if isinstance(dated, Unexpressible):
            read.append(
                (
                    (0, 0, False, 0, 0, -rank),
                    dated,
                    _Reader(text, tokens, time_span, schema, words, values or {}, known, per_row),
                )
            )
            continue
        own_time, own_periods, as_of = dated
        span = set().union(*(_time_span(text, tokens, t) for t in (own_time, *own_periods)))
        reader = _Reader(text, tokens, span, schema, words, values or {}, known, per_row)
        found = reader.read(own_time, today, own_periods)
        if found is not None and as_of is not None and isinstance(found[1], DataQuestion):
            query = replace(found[1].query, as_of=as_of)
            found = (found[0], replace(found[1], query=query))
        if found is not None:
            score, result = found
            held = _held(tokens, time_span, (values or {}).get(schema.name, {}))
            answered = not isinstance(result, Unexpressible)
            read.append(((held, score[0], answered, *score[1:], -rank), result, reader))
    if not read:
        return None
    (held, *_), best, reader = max(read, key=lambda r: r[0])
    if isinstance(best, Unexpressible) and not held and values:
        # "How much did homes cost in Austin": the table holding Austin names no "cost";
        # say so, not that the table read for "cost" holds no Austin
        named = named_rows(text, schemas, values=values, time=time, periods=periods)
        if named is not None and named.table != best.table:
            return Unexpressible(
                f"table {named.table!r} holds {', '.join(named.values)} but the question "
                f"names none of its measures ({', '.join(named.measures)})",
                named.table,
            )
    return _alike(best, reader, [(result, other) for _, result, other in read]) or best


def _alike(
    best: DataQuestion | Unexpressible | Ambiguous,
    reader: _Reader,
    read: Sequence[tuple[DataQuestion | Unexpressible | Ambiguous, _Reader]],
) -> Ambiguous | None:
    """The readings of other tables as good as ``best``'s when its measure is named only
    through a verb: each a whole query of its own (a table missing a value the question
    names reads nothing) whose measure the same words name."""
    chosen = reader.reading()
    if not isinstance(best, DataQuestion) or chosen is None or chosen.how is not Directness.VERB:
        return None
    span = reader.readings[reader.chosen][1] if reader.chosen is not None else frozenset()
    others = []
    for result, other in read:
        reading = other.reading()
        if other is reader or not isinstance(result, DataQuestion) or reading is None:
            continue
        assert other.chosen is not None
        if other.readings[other.chosen][1] & span:
            others.append(reading)
    return Ambiguous((chosen, *others)) if others else None


@dataclass(frozen=True)
class NamedRows:
    """A table whose rows the question names by their stored values ("Line 2", "Night")
    though it names none of the table's measures: a document answer must speak of the
    same things, or the question is one the table cannot answer."""

    table: str
    values: tuple[str, ...]
    """The stored values named, as stored ("CP-200" of "the CP-200's")."""
    measures: tuple[str, ...]
    """What the table can give a figure of, for the reason shown."""


def named_rows(
    question: str,
    schemas: Sequence[TableSchema],
    *,
    values: Values,
    time: TimeConstraint | None,
    periods: Sequence[TimeConstraint] = (),
) -> NamedRows | None:
    """The table whose stored values the question names most (words inside a period it
    states do not count), with those values; None when it names none. For a question
    ``recognise`` read as no data question: it still speaks of that table's rows."""
    text = _check(question, schemas, values)
    tokens = _tokens(text)
    periods = tuple(periods) if len(periods) > 1 else ()
    time_span = set().union(*(_time_span(text, tokens, t) for t in (time, *periods)))
    best: tuple[int, NamedRows] | None = None
    for schema in schemas:
        stored = values.get(schema.name, {})
        claims = _Claims(tokens, set(time_span))
        plain, cased = _value_phrases((v, str(v)) for vs in stored.values() for v in vs)
        found = _claim_values(claims, plain, cased)
        held = sum(j - i for i, j, _ in found)
        if held and (best is None or held > best[0]):
            named = tuple(dict.fromkeys(value for _, _, value in found))
            measures = tuple(m.name for m in schema.measures)
            best = (held, NamedRows(schema.name, named, measures))
    return None if best is None else best[1]


def _held(tokens: list[_Token], time_span: set[int], stored: Mapping[str, Sequence[Value]]) -> int:
    """How many words of the question name values the table stores, as spelled: a table
    a question names things of is the one it asks about, whatever measure word it uses.
    A name of capitalised words that shares a word with a stored name of several words
    but is none ("Depot West" of a table holding "Depot North") counts too: it names a
    thing of that table, which the table lacks, not the "West" region of another."""
    claims = _Claims(tokens, set(time_span))
    phrases, cased = _value_phrases((v, None) for values in stored.values() for v in values)
    held = sum(j - i for i, j, _ in _claim_values(claims, phrases, cased))
    named = {w for key, _ in phrases if len(key) > 1 for w in key}
    run: list[int] = []
    for k in range(len(tokens) + 1):
        if k < len(tokens) and k not in claims.used and tokens[k].raw[:1].isupper():
            run.append(k)
            continue
        if len(run) > 1 and any(tokens[r].exact in named for r in run):
            claims.used.update(run)
            held += len(run)
        run = []
    # "the North depot" of a stored "Depot North": its words side by side in another order
    for key, _ in phrases:
        n = len(key)
        if n < 2:
            continue
        for i in range(len(tokens) - n + 1):
            span = range(i, i + n)
            if not claims.used & set(span) and sorted(tokens[k].exact for k in span) == sorted(key):
                claims.used.update(span)
                held += n
    return held


def _check(question: object, schemas: object, values: object) -> str:
    if not isinstance(question, str):
        raise InvalidQueryError(f"the question must be text (a str), not {type(question).__name__}")
    if not (text := question.strip()):
        raise InvalidQueryError("the question is empty; ask something, e.g. 'total stock?'")
    if len(text) > MAX_QUESTION_CHARS:
        raise InvalidQueryError(
            f"the question has {len(text)} characters, more than {MAX_QUESTION_CHARS}; "
            "shorten it or split it into several questions"
        )
    if isinstance(schemas, str | bytes) or not isinstance(schemas, Sequence):
        raise InvalidInputError("schemas must be a sequence of TableSchema (from load_schema)")
    names = []
    for schema in schemas:
        if not isinstance(schema, TableSchema):
            raise InvalidInputError(
                f"schemas must hold TableSchema objects (from load_schema), not {schema!r}"
            )
        names.append(schema.name)
    if len(set(names)) < len(names):
        raise InvalidInputError(f"two schemas name the same table: {sorted(names)}")
    if values is None:
        return text
    if not isinstance(values, Mapping):
        raise InvalidInputError("values must map a table name to {dimension column: values}")
    by_name = dict(zip(names, schemas, strict=True))
    for table, columns in values.items():
        if table not in by_name:
            raise InvalidInputError(
                f"values name table {table!r}, which is not among the schemas ({names})"
            )
        if not isinstance(columns, Mapping):
            raise InvalidInputError(f"values[{table!r}] must map dimension columns to values")
        dimensions = [d.column for d in by_name[table].dimensions]
        for column, stored in columns.items():
            if column not in dimensions:
                raise InvalidInputError(
                    f"values[{table!r}] names {column!r}, which is no dimension of the "
                    f"table; its dimensions: {', '.join(dimensions) or 'none'}"
                )
            if isinstance(stored, str | bytes) or not isinstance(stored, Sequence):
                raise InvalidInputError(f"values[{table!r}][{column!r}] must be a sequence")
            bad = [v for v in stored if isinstance(v, bool) or not isinstance(v, Value)]
            if bad:
                raise InvalidInputError(
                    f"values[{table!r}][{column!r}] holds {bad[0]!r}; values are str or numbers"
                )
    return text


def _time_span(text: str, tokens: list[_Token], time: TimeConstraint | None) -> set[int]:
    """The tokens of the words perception read the time from ("last month"), without a
    preposition before them: "the share of 2025's downtime" keeps its "of"."""
    named = _PREPOSITION.sub("", time.text) if time is not None else ""
    if time is None or not named.strip():
        return set()
    pattern = r"\s+".join(re.escape(w) for w in named.split())
    m = re.search(pattern, text, re.IGNORECASE)
    if m is None:
        return set()
    return {i for i, t in enumerate(tokens) if t.start < m.end() and m.start() < t.end}


def _undimensioned(
    tokens: list[_Token],
    schema: TableSchema,
    time: TimeConstraint | None,
    periods: tuple[TimeConstraint, ...],
    span_of: Callable[[TimeConstraint | None], set[int]],
) -> tuple[TimeConstraint | None, tuple[TimeConstraint, ...], date | None] | Unexpressible:
    """The periods perception read, less those that name a value of an integer
    dimension of ``schema`` by its name beside the year ("the 2000 season", "season
    1995" of a season dimension holding the year a season started): a value of that
    dimension (read as a filter), not the calendar year of the time column. A range so
    named ("seasons 1990 to 1999") is no single value: declined naming it, never read
    as the calendar years. Last: the end of the first period dropped, the date the
    figures are of (``TableQuery.as_of``)."""
    names = _integer_names(schema)
    ranged = {k for a, b, *_ in _ranges(tokens, names) for k in range(a, b)}
    if not names:
        return time, periods, None

    def beside(k: int) -> bool:
        before = k - 1
        while before >= 0 and tokens[before].norm in ("the", "in", "of", "for", "during"):
            before -= 1
        near = [before, k + 1]
        return any(0 <= n < len(tokens) and tokens[n].norm in names for n in near)

    dropped: list[TimeConstraint] = []
    for constraint in dict.fromkeys(c for c in (time, *periods) if c is not None):
        span = sorted(span_of(constraint))
        years = [k for k in span if _A_YEAR.search(tokens[k].raw)]
        if not years or not any(beside(k) or k in ranged for k in years):
            continue
        if (len(years) > 1 or len(span) > 1) and not set(years) <= ranged:
            return Unexpressible(
                f"table {schema.name!r}: {constraint.text!r} names a range of values of an "
                "integer dimension, which a query cannot select; name one value at a time",
                schema.name,
            )
        dropped.append(constraint)
    if not dropped:
        return time, periods, None
    kept = tuple(p for p in periods if p not in dropped)
    as_of = dropped[0].end or dropped[0].start
    return (None if time in dropped else time), (kept if len(kept) > 1 else ()), as_of


def _integer_names(schema: TableSchema) -> dict[str, str]:
    """One-word names of the integer dimensions ("season", "round") -> their column."""
    names: dict[str, str] = {}
    for d in schema.dimensions:
        if schema.columns.get(d.column) is ColumnType.INTEGER:
            for n in (d.column, *d.synonyms):
                if len(_phrase(n)) == 1:
                    names[_norm(n)] = d.column
    return names


def _ranges(tokens: list[_Token], names: Mapping[str, str]) -> list[tuple[int, int, str, int, int]]:
    """(first token, end, column, low, high) of each closed range of an integer dimension
    named beside it: "seasons 1990 to 1999", "matchdays 1-17", "rounds between 3 and 5",
    "from round 2 to 4", "the 1990 to 1999 seasons". At most ``MAX_RANGE`` numbers."""
    joining = {"to", "through", "thru", "until", "till", "and"}
    found = []
    for k in range(len(tokens)):
        if (m := _SPAN.fullmatch(tokens[k].raw)) is not None:
            low, high, end = int(m.group(1)), int(m.group(2)), k + 1
        elif (
            k + 2 < len(tokens)
            and _NUMBER.match(tokens[k].raw)
            and tokens[k + 1].norm in joining
            and _NUMBER.match(tokens[k + 2].raw)
        ):
            low, high, end = int(tokens[k].raw), int(tokens[k + 2].raw), k + 3
        else:
            continue
        if not low < high or high - low + 1 > MAX_RANGE:
            continue
        first = k
        if first > 0 and tokens[first - 1].norm in ("from", "between"):
            first -= 1
        if first > 0 and tokens[first - 1].norm in names:
            column, first = names[tokens[first - 1].norm], first - 1
            if first > 0 and tokens[first - 1].norm == "from":
                first -= 1
        elif end < len(tokens) and tokens[end].norm in names:
            column, end = names[tokens[end].norm], end + 1
        else:
            continue
        found.append((first, end, column, low, high))
    return found


def _additive(measure: Measure) -> bool:
    """Whether the measure's figures add up over rows (a quantity, not a rate or ratio)."""
    return measure.aggregation in (Aggregation.SUM, Aggregation.COUNT, Aggregation.LATEST)


def _allowed(measure: Measure, schema: TableSchema) -> tuple[Aggregation, ...]:
    """The aggregations that make sense for a measure: a rate or ratio (its own
    aggregation avg, min or max) is neither summed, shared nor "latest" (which sums the
    rows of the most recent time); "latest" needs a time column."""
    allowed = [Aggregation.AVG, Aggregation.MEDIAN, Aggregation.MIN, Aggregation.MAX]
    if _additive(measure):
        allowed.insert(0, Aggregation.SUM)
        if measure.aggregation is not Aggregation.LATEST:
            allowed.append(Aggregation.SHARE)
        if schema.time_column is not None:
            allowed.append(Aggregation.LATEST)
    return tuple(allowed)


@dataclass(frozen=True)
class _Mention:
    """A dimension named in the question: tokens [i, j) name ``column``."""

    column: str
    i: int
    j: int


class _Reader:
    """Reads one question against one schema."""

    def __init__(
        self,
        text: str,
        tokens: list[_Token],
        time_span: set[int],
        schema: TableSchema,
        words: _Words,
        values: Values,
        known: Known | None = None,
        identifiers: frozenset[str] = frozenset(),
    ) -> None:
        self.text = text
        self.tokens = tokens
        self.claims = _Claims(tokens, set(time_span))
        self.time_span = frozenset(time_span)
        """The words of the periods perception read."""
        if (counting := schema.counting) is not None:  # "how many stores issues"
            schema = replace(schema, measures=(*schema.measures, counting))
        self.schema = schema
        self.words = words
        self.values = {
            column: tuple(dict.fromkeys(stored))
            for column, stored in values.get(schema.name, {}).items()
        }
        self.known = known
        self.identifiers = identifiers
        """Dimensions with a value of their own in every row: "per" one is "per row"."""
        self.per_row = False
        self.comparing = False
        """Two periods compared: the rows named alone are compared by their count."""
        self.rows_named: list[int] = []
        """Where the question names the table's rows ("work orders", "orders")."""
        self.row_extreme: tuple[int, int, Aggregation] | None = None
        """The words asking for the earliest or latest row ("the first order")."""
        self.matched: list[Match] = []
        self.readings: dict[Measure, tuple[Directness, frozenset[int]]] = {}
        """Each measure the question's words name: how directly, and by which words."""
        self.chosen: Measure | None = None
        self.valued: dict[int, str] = {}
        """The words naming a stored value, with its column."""
        self.named: set[int] = set()
        """The words naming a value, a dimension or a measure: a word right after one
        describes it ("the CV-12 conveyor belt", "which warehouse holds", "flights
        left"), unless it selects rows ("flights diverted")."""
        self.overlaps: list[tuple[Measure, Measure]] = []
        """Two measures whose names overlap in the question's words, neither reading
        the other's ("reported cases per week": "reported cases" and "cases per
        week"): ambiguous while both are left."""
        self.measured: set[int] = set()
        """The words naming a measure: after one, only a verb saying the rows happened
        ("homes sold") describes it; a noun makes another name ("guest review score" is
        no figure of the guests)."""

    @cached_property
    def rows_nouns(self) -> tuple[str, ...]:
        """The names of the table's rows (``TableSchema.rows_nouns``), and the nouns its
        summed measures' synonyms give a row by "per" ("goals per game" of a table of
        matches: a game is a row, so "how many games" counts them). Not a time unit, a
        dimension's name, nor of a ratio (an expression dividing: "cases per week")."""
        found = list(self.schema.rows_nouns)
        if not found:
            return ()
        dimensions = {_norm(n) for d in self.schema.dimensions for n in (d.column, *d.synonyms)}
        for measure in self.schema.measures:
            if measure.aggregation is not Aggregation.SUM or "/" in (measure.expression or ""):
                continue
            for synonym in measure.synonyms:
                said = _phrase(synonym)
                for k in range(len(said) - 1):
                    noun = said[k + 1]
                    if said[k] != "per" or not noun.isalpha() or k + 2 != len(said):
                        continue
                    if _norm(noun) not in self.words.time_units | dimensions:
                        found.append(plural(singular(noun)))
        return tuple(dict.fromkeys(found))

    def reading(self, measure: Measure | None = None) -> Reading | None:
        """How the question reads ``measure`` (by default the one chosen)."""
        measure = measure or self.chosen
        if measure is None or measure not in self.readings:
            return None
        how, span = self.readings[measure]
        words = tuple(self.tokens[k].raw for k in sorted(span))
        return Reading(self.schema.name, measure.name, words, how)

    def note(self, role: Role, i: int, j: int, reads: str) -> None:
        self.matched.append(Match(role, self.claims.text(self.text, i, j), reads))

    def unexpressible(self, reason: str) -> Unexpressible:
        return Unexpressible(f"table {self.schema.name!r}: {reason}", self.schema.name)

    def read(
        self, time: TimeConstraint | None, today: date, periods: tuple[TimeConstraint, ...] = ()
    ) -> tuple[tuple[int, int, int], DataQuestion | Unexpressible | Ambiguous] | None:
        """((how specific the measure's words are, how many other words fit, how many words
        it read), result), or None when the question names none of the table's measures."""
        vague = self._unread_periods()
        measures = self._measures()
        if not measures:
            if (shared := self._shared_head()) is not None:
                return (1, 0, 0), shared  # "the error on TT-210": as-found or as-left
            return None
        if (unit := self._unit_of(time)) is not None:
            return (max(j - i for i, j, _ in measures), 0, 0), unit
        if vague:
            i, j = vague[0]
            return (max(j - i for i, j, _ in measures), 0, 0), self.unexpressible(
                f"it cannot tell which period {self.claims.text(self.text, i, j)!r} is; name "
                "a month or a year (e.g. 'March 2026', 'last month', 'in 2025')"
            )
        specific = max(j - i for i, j, _ in measures)
        result = self._query(measures, time, today, periods)
        if isinstance(result, DataQuestion) and not self._grounded(measures):
            return None
        fits = len(self.matched)
        if isinstance(result, DataQuestion) and (unread := self._unread(result)):
            result = self._either(unread) or self._partial(unread) or self._unapplied(unread)
        # of readings alike, the one reading more of the question's words: "part
        # category" (a column) over "part" (another table's part number)
        return (specific, fits, len(self.claims.used)), result

    def _unread(self, result: DataQuestion) -> list[_Token]:
        """The words of the question no part of the query read: each could be a
        constraint (a share, a status, a supplier the table does not hold) that the
        figure would silently leave out. Idle words (``_idle``) and the part the
        documents answer are not counted, but a word describing the rows is ("the delay
        of late orders": "late" of the measure's "days late" says which orders)."""
        query = result.query
        columns = {c for c, _ in query.filters} | set(query.group_by)
        idle = self._idle(self.schema.measure(query.measure), columns)
        text_from = len(self.text)
        if result.needs_text:
            text_from = self.text.find(result.text_part)
        tokens, used, words = self.tokens, self.claims.used, self.words
        plain = words.stopwords | words.skip
        describing = set()
        # the words of the table's own name for its rows: "open purchase orders" of
        # purchase_orders, "storm track observations" of "... storm and hurricane track
        # observations from ..."
        own = {*_phrase(self.schema.name), *_phrase(self.schema.rows_head)}
        for i in self.rows_named:  # the words right before the rows' name
            k = i - 1
            while k >= 0 and k not in used and tokens[k].norm not in plain:
                if tokens[k].norm not in own:
                    describing.add(k)
                k -= 1
        # Words that add no constraint by where they stand: a value's description right
        # after it ("the CV-12 conveyor belt"), a verb right after what it tells of
        # ("which warehouse holds", "did we receive", "were received"; not "were short").
        # Only a verb saying that the rows happened: "were cancelled", "flights
        # diverted", "did they divert" select rows, which the query does not.
        following = set()
        for k in range(1, len(tokens)):
            token, prior = tokens[k], tokens[k - 1].exact
            if k in used or k in describing or _capitalised(self.text, token):
                continue
            happened = _happening(token.exact, words.happening)
            verb = happened and (prior in words.subjects or prior in words.auxiliaries)
            selecting = token.exact.endswith("ed") and not happened
            # a noun after a measure's name makes another name ("guest review score")
            renaming = k - 1 in self.measured and k - 1 not in self.valued and not happened
            if (
                k - 1 in self.named
                and not selecting
                and not renaming
                or verb
                or (k - 1 in following and prior not in plain)
            ):
                following.add(k)
        extreme = query.aggregation in (Aggregation.MAX, Aggregation.MIN)
        # "Dallas County", "Greater Houston": a capitalised word next to a value, not one
        # of its dimension's names ("JFK Airport"), is a name the table may not hold
        naming = {
            k
            for k, t in enumerate(tokens)
            if k > 0
            and _capitalised(self.text, t)
            and t.raw[1:].islower()  # a word of a name, not a code or "OR"
            and (column := self.valued.get(k - 1, self.valued.get(k + 1))) is not None
            and t.norm not in self._own_words(column)
        }
        conditions = {  # "on time", "late": rows selected by a condition
            k
            for phrase in words.conditions
            for i, j in _Claims(tokens, set(used)).find(phrase)
            for k in range(i, j)
        }
        return [
            token
            for k, token in enumerate(tokens)
            if k not in used
            and token.start < text_from
            and not (extreme and token.norm in words.one_row)  # "of a single flight"
            and (
                token.exact in words.negations  # a query selects rows, it leaves none out
                or k in conditions
                or k in naming
                or k in describing
                or not (idle(token) or k in following)
            )
        ]

    def _idle(self, measure: Measure, columns: Iterable[str] = ()) -> Callable[[_Token], bool]:
        """Whether a word adds no constraint: stopwords, the verbs and nouns of asking
        for a recorded figure (rules file, ``[reading]``), words of the table's name,
        description and time column ("opened in 2025"), of the measure's names, unit,
        description and columns ("how many hours was it", "labour plus parts"), and of
        the names of the dimension ``columns`` the query reads ("shipped to Riverside
        North" filters ship_to_site), in any inflection ("shipped", "ship") but the
        time column's. A word of another measure's names is no word of the table's
        description: "the least water per tonne" asks for a ratio to the output."""
        words, schema = self.words, self.schema
        own: tuple[str, ...] = (measure.name, *measure.synonyms, measure.unit)
        own += (measure.description, *measure.tokens)
        for dimension in schema.dimensions:
            if dimension.column in columns:
                own += (dimension.column, *dimension.synonyms)
        others = tuple(
            name
            for m in schema.measures
            if m is not measure
            for name in (m.name, *m.synonyms, *m.columns)
        )

        def split(texts: Iterable[str]) -> set[str]:
            return {_norm(w) for text in texts for w in re.split(r"[\W_]+", text) if w}

        described = split(own)
        described |= split((schema.name, schema.description)) - (split(others) - described)
        # a value's name in the table's description ("out of New York (JFK, LaGuardia,
        # Newark)") is a filter the query reads, or a constraint it cannot apply
        described -= {_norm(name) for name, _, _ in schema.aliases if " " not in name}
        stems = {_stem(w) for w in described}
        # The time column's words only as written: "opened" reads opened_date, the
        # status "open" does not.
        described |= {_norm(w) for w in re.split(r"[\W_]+", schema.time_column or "")}

        def idle(word: str) -> bool:
            norm = _norm(word)
            return (
                norm in described
                or _stem(norm) in stems
                or norm in words.stopwords
                or word.lower() in words.stopwords
                or norm in words.skip
                or norm in words.link
                or norm in words.which
                or norm in words.time_units
                or norm in words.grouping
                or norm in words.reading
                or word.lower() in words.numbers
                or word.isdigit()
            )

        return lambda token: all(idle(p) for p in re.split(r"[-/.'’]", token.raw) if p)

    def _either(self, unread: list[_Token]) -> Ambiguous | None:
        """ "The extreme temperature": an extreme in no direction (``_Words.either``) of a
        measure whose highest and lowest are measures of their own ("maximum
        temperature", "minimum temperature"): both read, ambiguous, named both. None
        when another word is unread too, or no such pair exists (declined as unread)."""
        chosen = self.chosen
        if chosen is None or any(t.norm not in self.words.either for t in unread):
            return None
        said = {self.tokens[k].norm for k in self.readings.get(chosen, (None, frozenset()))[1]}
        found: dict[Order, list[Measure]] = {}
        for measure in self.schema.measures:
            for name in (measure.name, *measure.synonyms):
                phrase = _phrase(name)
                for p, order in self.words.extremes:
                    rest = set(phrase[len(p) :])
                    opens = phrase[: len(p)] == p and rest and rest <= said
                    if opens and measure not in found.get(order, []):
                        found.setdefault(order, []).append(measure)
        if len(found) < 2 or any(len(ms) != 1 for ms in found.values()):
            return None
        words = tuple(t.raw for t in unread) + tuple(
            self.tokens[k].raw for k in sorted(self.readings[chosen][1])
        )
        return Ambiguous(
            tuple(
                Reading(self.schema.name, ms[0].name, words, Directness.SYNONYM)
                for ms in found.values()
            )
        )

    def _partial(self, unread: list[_Token]) -> Ambiguous | None:
        """Words the query left unread that are words of other measures' names ("the
        average waiting time": "days in waiting list", and "lead time"; "Irma's wind
        field": the "tropical storm wind field" and the "hurricane wind field", not the
        "wind" read): the question names a measure in part, and two fit. Ambiguous,
        naming them, rather than a figure of the measure read or no answer at all. The
        measure read stays one of them unless its words and the unread ones stand side
        by side, a longer name of the others ("wind field"). With one reading only, or
        any word that leaves rows out or selects them, None: declined as unread."""
        words, chosen = self.words, self.chosen
        if chosen is None or any(t.exact in words.negations for t in unread):
            return None
        free = _Claims(self.tokens)
        if any(any(free.find(phrase)) for phrase in words.conditions):
            return None  # "on time", "late": a condition on the rows, not a name
        plain = words.stopwords | words.skip | words.which
        position = {id(t): k for k, t in enumerate(self.tokens)}
        span = self.readings[chosen][1] if chosen in self.readings else frozenset()
        found: list[Measure] = []
        superseded = False
        for token in unread:
            k = position[id(token)]
            if token.norm in plain or _capitalised(self.text, token):
                continue  # a name the table may not hold: declined naming it
            if k > 0 and self.tokens[k - 1].exact in words.auxiliaries:
                return None  # "were short": a condition on the rows, not a name
            named = [
                m
                for m in self.schema.measures
                if m is not chosen
                and not m.counts_rows
                and any(token.norm in _phrase(n) for n in (m.name, *m.synonyms))
            ]
            if not named:
                return None  # a word no measure has: a constraint left out
            found += [m for m in named if m not in found]
            beside = {self.tokens[c].norm for c in span if abs(c - k) == 1}
            superseded = superseded or any(
                beside & set(_phrase(n)) for m in named for n in (m.name, *m.synonyms)
            )
        readings = [*found, *([] if superseded else [chosen])]
        if len(readings) < 2:
            return None
        said = tuple(t.raw for t in unread if t.norm not in plain)
        chosen_reading = self.reading(chosen)
        return Ambiguous(
            tuple(
                chosen_reading
                if m is chosen and chosen_reading is not None
                else Reading(self.schema.name, m.name, said, Directness.SYNONYM)
                for m in readings
            )
        )

    def _unapplied(self, unread: list[_Token]) -> Unexpressible:
        """Why a question with words the query cannot read gets no figure: a name (a
        supplier, a plant) the table does not hold, or words it has nothing for."""
        negations = [t.raw for t in unread if t.exact in self.words.negations]
        if negations:
            return self.unexpressible(
                f"it cannot leave rows out ({negations[0]!r}): a query selects the rows it "
                "names; ask for those you want, or for each value and the total"
            )
        names = [t for t in unread if _capitalised(self.text, t)]
        if names:
            name, column = self._name_around(self.tokens.index(names[0]))
            if column is not None:  # "Depot West" beside "Depot North", "Depot South"
                return self._no_value(column, name)
            stored = [str(v) for v in self._known(None, name)]
            close = difflib.get_close_matches(name, stored, n=3, cutoff=0.6)
            hint = f"; the closest it holds: {', '.join(close)}" if close else ""
            return self.unexpressible(f"it holds nothing named {name!r}{hint}")
        said = ", ".join(repr(t.raw) for t in unread)
        return self.unexpressible(
            f"it has nothing for {said} in the question (no measure, value, period or "
            "grouping of it); a figure without it would answer another question"
        )

    def _name_around(self, k: int) -> tuple[str, str | None]:
        """The name token ``k`` is a word of: the run of capitalised words around it
        ("Depot West", whose "Depot" may read as the depot dimension; "Dallas County" of
        a stored "Dallas"), and the one column whose stored names of several words share
        a word with it (None when none or several do): a value that looks like a stored
        one but is not."""
        capital = [t.raw[:1].isupper() for t in self.tokens]
        i, j = k, k + 1
        while i > 0 and capital[i - 1] and not _opens_sentence(self.text, self.tokens[i]):
            i -= 1
        while (
            j < len(self.tokens) and capital[j] and not _opens_sentence(self.text, self.tokens[j])
        ):
            j += 1
        words = {t.exact for t in self.tokens[i:j]}
        sharing = [
            column
            for column, stored in self.values.items()
            if any(len(key) > 1 and words & set(key) for v in stored if (key := _value_key(v)))
        ]
        column = sharing[0] if len(sharing) == 1 else None
        return self.claims.text(self.text, i, j), column

    def _grounded(self, measures: list[tuple[int, int, Measure]]) -> bool:
        """Whether the question is about the table, not only using a word of it: an
        everyday word ("cost", "price") with a model name asks about the equipment
        ("How much does a GX-500 cost?"). Any other measure word, or a grouping,
        ranking, aggregation, period or dimension named in words, says the table."""
        if any(j - i > 1 or self.tokens[i].norm not in self.words.everyday for i, j, _ in measures):
            return True
        strong = {Role.GROUP_BY, Role.ORDER, Role.LIMIT, Role.AGGREGATION, Role.TIME}
        if any(m.role in strong for m in self.matched):
            return True
        names = [n for d in self.schema.dimensions for n in (d.column, *d.synonyms)]
        fresh = _Claims(self.tokens)
        return any(any(fresh.find(key)) for n in names if (key := _name_keys(n)[1]))

    # -- the parts of a question -------------------------------------------------------

    def _unit_of(self, time: TimeConstraint | None) -> Unexpressible | None:
        """A unit of time said of a period read shorter than it ("the week of 2017-05-01"
        read as the day): declined naming it, never the figure of the day instead."""
        if time is None or time.start is None or time.end is None:
            return None
        days = (time.end - time.start).days + 1
        tokens, span = self.tokens, self.time_span
        for k, token in enumerate(tokens[:-1]):
            lengths = _UNIT_DAYS.get(token.norm)
            if lengths is None or k in span:
                continue
            of = tokens[k + 1].norm == "of" and k + 2 in span
            # a longer period holds units of its own ("which month of 2017"): only one
            # shorter than the unit said of it is not it
            if (of or k + 1 in span) and days < lengths[0]:
                said = self.claims.text(self.text, k, max(span) + 1)
                return self.unexpressible(
                    f"it reads {time.text!r} as {time.start}..{time.end}, no {token.norm}, and "
                    f"cannot tell which {token.norm} {said!r} is; name it (e.g. "
                    f"{_NAMED_PERIODS.get(token.norm, 'March 2026')!r})"
                )
        return None

    def _unread_periods(self) -> list[tuple[int, int]]:
        """Periods perception did not read ("last quarter", "next month"): claimed, so
        that "last" is not read as a measure, and refused, so that the figure is not
        given for all time instead."""
        found = []
        tokens, used = self.claims.tokens, self.claims.used
        for k, token in enumerate(tokens):
            if token.norm not in _PERIOD_WORDS or k in used:
                continue
            end = k + 1
            if end < len(tokens) and self._number(tokens[end]) is not None:
                end += 1
            if token.norm.startswith("q") and token.norm[1:].isdigit():  # "Q1 2026"
                used.add(k)
                found.append((k, k + 1))
                continue
            if end < len(tokens) and tokens[end].norm in self.words.time_units and end not in used:
                used.update(range(k, end + 1))
                found.append((k, end + 1))
        return found

    def _measures(self) -> list[tuple[int, int, Measure]]:
        before = set(self.claims.used)  # the periods': no measure's words
        names: list[tuple[str, Measure]] = []
        rows = self.rows_nouns
        forms = self.words.verb_forms
        verbal: set[tuple[Phrase, Measure]] = set()
        for measure in self.schema.measures:
            names += [(n, measure) for n in (measure.name, *measure.synonyms)]
            spelled = [  # "spent" of a measure named "spend"
                (form, measure)
                for n in measure.synonyms
                for form in forms.get(n.strip().lower(), ())
            ]
            names += spelled
            verbal |= {(_phrase(form), m) for form, m in spelled}
            if measure.column is not None:
                names.append((measure.column, measure))
            if measure.counts_rows and rows:
                # a measure counting rows is named by the rows' name: "the most orders"
                # of purchase_orders, whatever its synonyms say
                names += [(self.schema.name, measure), *((r, measure) for r in rows)]
                names += [(r, measure) for r in self.words.row_words]
        names += self._extreme_variants(names)
        names += self._inverted(names)
        counted = self._counted_identifiers()
        # "I need to order an air filter": a verb, not the orders measure. "per purchase
        # order": a longer name of a dimension, not the "purchases" measure.
        dimensions = [(n, d.column) for d in self.schema.dimensions for n in d.synonyms]
        longer = _Claims(self.tokens, set(self.claims.used)).claim_names(dimensions)
        found = counted
        # a synonym two measures of the table share, as spelled (else as folded: of
        # "shortage" and "shortages", the question's "shortages" is the latter's only)
        sharing: dict[tuple[str, Phrase], list[Measure]] = {}
        for name, measure in names:
            for attr, key in zip(("exact", "norm"), _name_keys(name), strict=True):
                if measure not in sharing.setdefault((attr, key), []):
                    sharing[attr, key].append(measure)
        claimed = self._overlapping(self.claims.claim_names(names), names, before)
        for i, j, m in claimed:
            if j - i == 1 and i > 0 and self.tokens[i - 1].norm == "how":
                # "how long did it last": the question's word, not the "long" (longitude)
                self.claims.used.discard(i)
                continue
            if any(a <= i and j <= b and b - a > j - i for a, b, _ in longer):
                self.claims.used.difference_update(range(i, j))  # the dimension's words
            elif not (j - i == 1 and i > 0 and self.tokens[i - 1].norm == "to"):
                exact = ("exact", tuple(t.exact for t in self.tokens[i:j]))
                norm = ("norm", tuple(t.norm for t in self.tokens[i:j]))
                found += [(i, j, o) for o in sharing.get(exact) or sharing.get(norm) or [m]]
        spans: dict[tuple[int, Measure], frozenset[int]] = {}
        # A measure named in words apart: "the value of all spare parts in stock" names
        # the stock value ("value of stock"), not only the stock ("in stock") it is
        # computed from. Other measures' words are not free, nor words of aggregation:
        # "total parts cost" is no "total cost".
        used = self.claims.used
        named = {m for _, _, m in found}
        aggregating = {w for p, _ in self.words.aggregations for w in p}
        plain = self.words.stopwords | aggregating
        # the rows' name is free too when nothing else is read: "the calibrations take"
        # reads "time taken" or "calibration time" whether or not they are counted
        for rows_free in (False, True):
            if rows_free and any(not m.counts_rows for _, _, m in found):
                break
            for measure in self.schema.measures:
                over = {
                    k
                    for i, j, m in found
                    if m.column in measure.columns or rows_free and m.counts_rows
                    for k in range(i, j)
                }
                present = {
                    t.norm: k
                    for k, t in reversed(list(enumerate(self.tokens)))
                    if k not in used or k in over
                }
                # a verb of the name in any of its forms: "time made up" in "how much
                # time did the flights make up"
                for token_form, k in list(present.items()):
                    for form in self.words.forms.get(token_form, ()):
                        present.setdefault(form, k)
                for synonym in () if measure in named else measure.synonyms:
                    words = [w for w in _phrase(synonym) if w not in plain]
                    if len(words) >= 2 and all(w in present for w in words):
                        k = present[words[0]]
                        found.append((k, k + 1, measure))
                        spans[k, measure] = frozenset(present[w] for w in words)
                        break
        found += self._paid(found, before, plain, spans)
        found += self._graded(found)
        units: dict[Phrase, list[Measure]] = {}
        for measure in self.schema.measures:
            if unit := _phrase(measure.unit):
                units.setdefault(unit, []).append(measure)
        cues = [(("how", "many", *u), ms[0]) for u, ms in units.items() if len(ms) == 1]
        found = sorted(found + self.claims.claim(cues), key=lambda f: f[0])
        paying = self.words.paying_verbs  # "cost" is a noun as written, "spend" either
        for i, j, m in found:
            span = spans.get((i, m), frozenset(range(i, j)))
            said = tuple(t.norm for t in self.tokens[i:j])
            if (i, m) in spans and any(self.tokens[k].norm in paying for k in span):
                how = Directness.VERB  # "spent on parts": the verb stands for "cost"
            elif (said, m) in verbal or all(w in paying for w in said):
                how = Directness.VERB  # "spent", a measure named "spend"
            elif self._named_as_itself(i, j, m):
                how = Directness.OWN
            else:
                how = Directness.SYNONYM
            was = self.readings.get(m)
            if was is not None:
                how = max(how, was[0], key=_DIRECTNESS.__getitem__)
                span |= was[1]
            self.readings[m] = (how, span)
        return found

    def _overlapping(
        self,
        claimed: list[tuple[int, int, Measure]],
        names: list[tuple[str, Measure]],
        before: set[int],
    ) -> list[tuple[int, int, Measure]]:
        """Measure names claimed longest first, checked against shorter names of other
        measures that overlap them from the left ("home goals per match": "goals per
        match", a synonym of the total goals, took "goals" from "home goals"). When the
        longer name's words past the shorter one are "per" and the rows' name ("per
        match"), the shorter name is the measure and "per match" the average over rows
        it asks for; any other overlap reads two measures alike (``overlaps``: the
        answer names both, never one picked by length)."""
        rows = {singular(r) for r in self.rows_nouns}
        free = _Claims(self.tokens, set(before))
        out = []
        for i, j, m in claimed:
            rival = None
            for name, other in names:
                if other is m or other.counts_rows:
                    continue
                for a, b in free.find(_name_keys(name)[1]):
                    if a < i < b < j:
                        rival = (a, b, other)
                        break
                if rival is not None:
                    break
            if rival is None:
                out.append((i, j, m))
                continue
            a, b, other = rival
            tail = [t.norm for t in self.tokens[b:j]]
            if len(tail) == 2 and tail[0] == "per" and singular(tail[1]) in rows:
                self.claims.used.difference_update(range(b, j))
                self.claims.used.update(range(a, b))
                out.append((a, b, other))
            else:
                self.claims.used.update(range(a, b))
                self.overlaps.append((m, other))
                out += [(i, j, m), (a, b, other)]
        return sorted(out, key=lambda f: f[0])

    def _named_per_row(self, measure: Measure) -> bool:
        """Whether the words naming ``measure`` say "per" one thing that is neither a
        time unit nor a dimension ("goals per game", a synonym of the total goals): the
        figure of one row, so over several rows its average, not its sum ("per month"
        groups, "per site" groups or ranks; those are read as groupings)."""
        if measure not in self.readings:
            return False
        span = sorted(self.readings[measure][1])
        dimensions = {  # a dimension's one-word name: "per site" groups
            _norm(n) for d in self.schema.dimensions for n in (d.column, *d.synonyms)
        }
        for k in span:
            if self.tokens[k].norm != "per" or k + 1 not in span:
                continue
            noun = self.tokens[k + 1].norm
            if noun.isalpha() and noun not in self.words.time_units and noun not in dimensions:
                return True
        return False

    def _graded(self, found: list[tuple[int, int, Measure]]) -> list[tuple[int, int, Measure]]:
        """Measures named by an adjective grading their quantity (``_Words.qualities``):
        "which was warmer" names the temperature, "how windy" every wind measure (two
        fit: ambiguous, named both). A measure the question names itself is the one
        graded ("the windiest city by average wind speed"): the adjective names nothing
        more. A plain form ("windy") is read here; a comparative or superlative is left
        to the ranking it also is."""
        named = {
            w
            for _, _, m in found
            if not m.counts_rows
            for n in (m.name, *m.synonyms, m.column or "")
            for w in _phrase(n)
        }
        graded: list[tuple[int, int, Measure]] = []
        for k, token in enumerate(self.tokens):
            nouns = self.words.qualities.get(token.norm)
            if nouns is None or k in self.claims.used:
                continue
            plain = token.norm in self.words.quality_bases
            own = bool(named & {w for n in nouns for w in n})  # its measure named itself
            measures = [] if own else self._by_noun(nouns)
            if plain and (measures or own):
                self.claims.used.add(k)
            graded += [(k, k + 1, m) for m in measures]
        return graded

    def _by_noun(self, nouns: tuple[Phrase, ...]) -> list[Measure]:
        """The measures a quantity's noun names: named so exactly, else with the noun
        among the words of a name ("wind" of "max wind" and "average wind")."""
        measures = [m for m in self.schema.measures if not m.counts_rows]

        def names(m: Measure) -> list[Phrase]:
            return [_phrase(n) for n in (m.name, *m.synonyms, m.column or "") if n]

        for noun in nouns:
            if exact := [m for m in measures if noun in names(m)]:
                return exact
        for noun in nouns:
            if some := [m for m in measures if any(set(noun) <= set(p) for p in names(m))]:
                return some
        return []

    def _paid(
        self,
        found: list[tuple[int, int, Measure]],
        before: set[int],
        plain: frozenset[str],
        spans: dict[tuple[int, Measure], frozenset[int]],
    ) -> list[tuple[int, int, Measure]]:
        """Measures named by the other words of a name and a verb of paying standing for
        its money word (rules file, ``[paying]``): "what was spent on parts" names the
        "parts cost", "spent on labour" the "labour cost" (whose "labour" another
        measure's synonym may have read). Words of a period are no measure's. With no
        measure named otherwise, the verb alone reads a measure named by a money word
        alone whose figures add up ("how much was charged to CC-410": its "cost")."""
        words = self.words
        verbs = [
            k for k, t in enumerate(self.tokens) if t.norm in words.paying_verbs and k not in before
        ]
        if not verbs:
            return []
        named = {m for _, _, m in found}
        present = {t.norm: k for k, t in reversed(list(enumerate(self.tokens))) if k not in before}
        paid = []
        for measure in self.schema.measures:
            if measure in named:
                continue
            for name in (measure.name, *(measure.column or "",), *measure.synonyms):
                said = [w for w in _phrase(name) if w not in plain]
                money = [w for w in said if w in words.paying_nouns]
                other = [w for w in said if w not in words.paying_nouns]
                if len(money) == 1 and other and all(w in present for w in other):
                    k = present[other[0]]
                    paid.append((k, k + 1, measure))
                    spans[k, measure] = frozenset({*(present[w] for w in other), verbs[0]})
                    break
        if paid or found:
            return paid
        # "how much was charged to CC-410": the verb alone, for a measure named by a
        # money word alone ("cost") whose figures add up (money paid is summed; a price
        # is not what was paid)
        k = verbs[0]
        for measure in self.schema.measures:
            alone = {p[0] for n in (measure.name, *measure.synonyms) if len(p := _phrase(n)) == 1}
            if _additive(measure) and alone & words.paying_nouns:
                paid.append((k, k + 1, measure))
                spans[k, measure] = frozenset({k})
        return paid

    def _counted_identifiers(self) -> list[tuple[int, int, Measure]]:
        """ "How many P1 tickets": an identifier's name in the plural (a ticket number is
        every row's own) names the measure counting rows; "per ticket" stays a dimension."""
        counting = next((m for m in self.schema.measures if m.counts_rows), None)
        if counting is None or not self.identifiers:
            return []
        plurals = []
        for d in self.schema.dimensions:
            if d.column in self.identifiers:
                for name in (d.column, *d.synonyms):
                    exact = _name_keys(name)[0]
                    if exact and not exact[-1].endswith("s"):
                        plurals.append(((*exact[:-1], exact[-1] + "s"), counting))
        return self.claims.claim(plurals, attr="exact")

    def _inverted(self, names: list[tuple[str, Measure]]) -> list[tuple[str, Measure]]:
        """A name of two or more words turned round (rules file, ``[inverted]``): "sales
        volume" is also "volume of sales", "departure delay" "delay of departure". Not a
        name with a stopword in it ("months of inventory" is turned already)."""
        plain = self.words.stopwords
        variants = []
        for name, measure in names:
            phrase = _phrase(name)
            if len(phrase) < 2 or any(w in plain for w in phrase):
                continue
            words = _name_keys(name)[0]
            for joint in self.words.inverted:
                variants.append((" ".join((words[-1], *joint, *words[:-1])), measure))
        return variants

    def _extreme_variants(self, names: list[tuple[str, Measure]]) -> list[tuple[str, Measure]]:
        """A name opening with an extreme word in every other word of that extreme:
        "maximum bearing temperature" is also the "highest bearing temperature" (not the
        highest average one)."""
        extremes = {order: [p for p, o in self.words.extremes if o is order] for order in Order}
        variants = []
        for name, measure in names:
            phrase = _phrase(name)
            for same in extremes.values():
                opening = next((p for p in same if phrase[: len(p)] == p), None)
                if opening is not None and len(phrase) > len(opening):
                    rest = phrase[len(opening) :]
                    variants += [(" ".join((*p, *rest)), measure) for p in same if p != opening]
        return variants

    def _choose(
        self, measures: list[tuple[int, int, Measure]]
    ) -> Measure | Unexpressible | Ambiguous:
        """The measure asked for: a derived measure over the others named ("at current
        stock, how many days ..." asks for days of cover, not stock)."""
        named = list(dict.fromkeys(m for _, _, m in measures))
        if len(named) > 1:  # "the average days to close of emergency work orders"
            rows = {
                m for i, j, m in measures if m.counts_rows and not self._counted(i, j, measures)
            }
            named = [m for m in named if m not in rows] or named
        if len(named) > 1:  # "the highest wind speed in mph": the measure in that unit
            units = [m for m in named if self._in_unit(m)]
            named = units if len(units) == 1 else named
        if len(named) > 1:  # "GBR guests ... the average lead time": what is aggregated
            bound = {m for i, _, m in measures if self._aggregated(i)}
            named = [m for m in named if m in bound] if len(bound) == 1 else named
        if len(named) > 1:  # "landed cost of purchase orders": named as itself, not a synonym
            own = {m for i, j, m in measures if self._named_as_itself(i, j, m)}
            named = [m for m in named if m in own] or named
        for m, other in self.overlaps:
            if m in named and other in named:
                readings = (self.reading(m), self.reading(other))
                return Ambiguous(tuple(r for r in readings if r is not None))
        if len(named) > 1:
            by_words = self._by_words(named)
            if isinstance(by_words, Ambiguous):
                return by_words
            named = by_words
        if len(named) == 1:
            return self._asked(named[0], measures)
        covering = [
            m
            for m in named
            if m.derived
            and all(o is m or o.column in m.columns for o in named if not o.derived)
            and sum(o.derived for o in named) == 1
        ]
        if covering:
            return covering[0]
        names = ", ".join(m.name for m in named)
        return self.unexpressible(f"the question asks for several measures ({names}); ask for one")

    def _selecting(
        self, measure: Measure, measures: list[tuple[int, int, Measure]]
    ) -> Unexpressible | None:
        """Another measure named after a word of having ("bookings with children",
        "stays with 2 adults", "orders that had freight"): rows selected by a condition on
        its figure, which no query states; declined naming it, never the figure of every
        row. The rows' own name is none ("orders with ..." says which rows)."""
        having = self.words.having
        skip = self.words.skip | {"any", "some"}
        for i, j, m in measures:
            if m is measure or m.counts_rows or self._glossing(i):
                continue
            k = i - 1
            while k >= 0 and (self.tokens[k].norm in skip or self._number(self.tokens[k])):
                k -= 1
            if k >= 0 and self.tokens[k].norm in having:
                said = self.claims.text(self.text, k, j)
                return self.unexpressible(
                    f"it selects rows by their {m.name} ({said!r}), a condition on a figure "
                    "that a query cannot state; ask for all rows, or name them by their values"
                )
        return None

    def _in_unit(self, measure: Measure) -> bool:
        """Whether the question asks for the figure "in" the measure's unit ("in mph",
        "in knots"): the figure asked is that one. A unit other measures share ("in
        days": lead time, waiting days) tells none; a name is no unit ("in stock")."""
        unit = _phrase(measure.unit)
        if not unit or any(
            m is not measure and m.unit == measure.unit for m in self.schema.measures
        ):
            return False
        found = _Claims(self.tokens).find(unit)
        return any(i > 0 and self.tokens[i - 1].norm == "in" for i, _ in found)

    def _aggregated(self, i: int) -> bool:
        """Whether an aggregation or ranking word stands right before token ``i`` ("the
        average lead time", "the highest rate"): the figure the question asks for."""
        norms = [t.norm for t in self.tokens]
        k = i
        while k > 0 and norms[k - 1] in ("the", "a", "an"):
            k -= 1
        # not "current" (latest): "at current stock, how many days" asks for days of cover
        phrases = [p for p, a in self.words.aggregations if a is not Aggregation.LATEST]
        phrases += [p for p, _ in self.words.ranking]
        return any(k >= len(p) and tuple(norms[k - len(p) : k]) == p for p in phrases)

    def _by_words(self, named: list[Measure]) -> list[Measure] | Ambiguous:
        """Of measures the question names, those its words read best: a reading holding
        another's words and more ("spent on labour": the labour cost, over the labour
        hours of "labour"); a measure named by a verb of paying alone ("spend") yields to
        one named by other words ("spend on freight": the freight cost). Two measures
        left read from the very same words (a synonym both declare) fit alike:
        ambiguous, no pick."""
        paying = self.words.paying_verbs
        spans = {m: self.readings[m][1] if m in self.readings else frozenset() for m in named}
        named = [m for m in named if not any(spans[o] > spans[m] for o in named)]

        def paid(span: frozenset[int]) -> bool:
            return bool(span) and all(self.tokens[k].norm in paying for k in span)

        named = [m for m in named if not paid(spans[m])] or named

        def alike(a: Measure, b: Measure) -> bool:
            return bool(spans[a]) and spans[a] == spans[b]

        same = [m for m in named if any(o is not m and alike(m, o) for o in named)]
        if same:
            return Ambiguous(tuple(r for m in same if (r := self.reading(m)) is not None))
        return named

    def _named_extremes(
        self, measure: Measure, measures: list[tuple[int, int, Measure]]
    ) -> list[tuple[int, int, Order]]:
        """The extreme words ("highest", "maximum", "peak") that open the words naming
        ``measure`` ("the highest temperature"), as rankings."""
        norms = [t.norm for t in self.tokens]
        return [
            (i, i + len(p), order)
            for i, j, m in measures
            if m is measure
            for p, order in self.words.extremes
            if len(p) < j - i and tuple(norms[i : i + len(p)]) == p
        ]

    def _superlative_name(
        self, measure: Measure, measures: list[tuple[int, int, Measure]]
    ) -> tuple[int, int, Order] | None:
        """A superlative ("highest", "lowest") opening the words naming ``measure`` where
        the schema's own name opens with another extreme word ("lowest temperature" of
        "minimum temperature"): the question asks for the extreme of the period, not
        for the measure as the schema aggregates it. Its own name as written ("the
        minimum temperature") reads as the schema says."""
        norms = tuple(t.norm for t in self.tokens)
        own = {_phrase(n) for n in (measure.name, *measure.synonyms, measure.column or "")}
        ranking = {p for p, _ in self.words.ranking}
        for i, j, order in self._named_extremes(measure, measures):
            named = next((b for a, b, m in measures if a == i and m is measure), j)
            if norms[i:j] in ranking and norms[i:named] not in own:
                return i, j, order
        return None

    def _shared_word(self) -> Ambiguous | None:
        """For a question naming only the rows and asking no count of them: a word of
        its own that is a word of the names of two measures or more, and of no other
        ("how late were the flights": "late departure", "late arrival"), reads them
        alike: ambiguous, no pick. A word of one measure's name alone reads none."""
        plain = self.words.stopwords | self.words.skip
        if self._aggregating_other():
            return None
        for k, token in enumerate(self.tokens):
            if k in self.claims.used or token.norm in plain:
                continue
            named = [
                m
                for m in self.schema.measures
                if not m.counts_rows
                and any(token.norm in _phrase(n) for n in (m.name, *m.synonyms))
            ]
            if len(named) > 1:
                readings = (
                    Reading(self.schema.name, m.name, (token.raw,), Directness.SYNONYM)
                    for m in named
                )
                return Ambiguous(tuple(readings))
        return None

    def _aggregating_other(self) -> bool:
        """Whether an aggregation word stands right before a word that no name of the
        table's holds ("the average attendance"): the question asks for a figure the
        table lacks, which a word shared by its measures cannot make ambiguous."""
        words = self.words
        plain = words.stopwords | words.skip
        known = {
            w
            for m in self.schema.measures
            for n in (m.name, *m.synonyms, m.column or "")
            for w in _phrase(n)
        }
        known |= {w for d in self.schema.dimensions for w in self._own_words(d.column)}
        for phrase, _ in words.aggregations:
            for _, j in _Claims(self.tokens).find(phrase):
                if j < len(self.tokens) and j not in self.claims.used:
                    token = self.tokens[j]
                    if token.norm not in plain | known and token.norm.isalpha():
                        return True
        return False

    def _shared_head(self) -> Ambiguous | None:
        """For a question naming no measure but some of the table's stored values ("What
        was the error on TT-210?", "How many hours did VH-31 rack up?"): a word standing
        alone (after no other word of content) that ends a name of two measures or more
        ("as-found error", "as-left error"; "labour hours", "VOR hours") reads them
        alike: ambiguous, no pick, rather than no table answer at all. A word that
        another word qualifies ("the flow rate of the CP-200") names something else."""
        stored, cased = _value_phrases((v, None) for vs in self.values.values() for v in vs)
        held = _Claims(self.tokens, set(self.claims.used))
        words = self.words
        dimensions = {w for d in self.schema.dimensions for w in self._own_words(d.column)}
        qualifying = {t.norm for t in self.tokens} & dimensions
        # "the average storm diameter in 2018": an aggregation of the table's period or
        # of its things (a dimension named) speaks of its rows too
        aggregated = any(any(held.find(p)) for p, _ in words.aggregations) and bool(
            self.claims.used or qualifying
        )
        if (
            not _claim_values(held, stored, cased)
            and not self._ranked_dimension()
            and not aggregated
        ):
            return None
        plain = words.stopwords | words.skip | words.which | words.reading
        plain |= {w for p, _ in words.aggregations for w in p}
        for k, token in enumerate(self.tokens):
            if k in held.used or token.norm in plain:
                continue
            if (
                k > 0
                and k - 1 not in held.used
                and self.tokens[k - 1].norm not in plain | qualifying
            ):
                # "flow rate": another word makes it a name of its own; a stored value
                # before it says which rows ("the measles rate"), it names nothing
                continue
            named = [
                m
                for m in self.schema.measures
                if not m.counts_rows
                and any(_phrase(n)[-1:] == (token.norm,) for n in (m.name, *m.synonyms))
            ]
            if len(named) > 1:
                readings = (
                    Reading(self.schema.name, m.name, (token.raw,), Directness.SYNONYM)
                    for m in named
                )
                return Ambiguous(tuple(readings))
        return None

    def _ranked_dimension(self) -> bool:
        """Whether the question asks which of a dimension's values ranks first ("which
        depot had the most ..."): it is about this table's rows, whatever else it names."""
        fresh = _Claims(self.tokens)
        norms = {t.norm for t in self.tokens}
        ranking = any(any(fresh.find(p)) for p, _ in self.words.ranking)
        if not ranking or not norms & self.words.which:
            return False
        names = [n for d in self.schema.dimensions for n in (d.column, *d.synonyms)]
        return any(any(fresh.find(key)) for n in names if (key := _name_keys(n)[1]))

    def _asked(
        self, measure: Measure, measures: list[tuple[int, int, Measure]]
    ) -> Measure | Unexpressible | Ambiguous:
        """``measure``, unless it counts rows and the question only names the rows: "how
        much did we spend on emergency work orders" asks for no count of them; "how
        many", "the number of", "the total", "fewer" or "the most" work orders do."""
        if not measure.counts_rows:
            return measure
        norms = [t.norm for t in self.tokens]
        rows = {w for p, _ in self.words.rows for w in p}  # "the most recent order"
        for i, j, m in measures:
            # "the most work orders", "the most emergency work orders" (a few words
            # between, none another measure's: the rows' kind, read as a value)
            taken = {k for a, b, o in measures if o is not m for k in range(a, b)}
            taken |= {k for k in range(max(0, i - _ROW_GAP), i) if norms[k] in rows}
            ranked = any(
                tuple(norms[max(0, end - len(p)) : end]) == p
                for end in range(i, max(0, i - _ROW_GAP) - 1, -1)
                if not taken & set(range(end, i))
                for p, _ in self.words.ranking
            )
            ranked = (
                ranked
                or any(  # "what percent of work orders": a share of their count
                    tuple(norms[max(0, i - len(p)) : i]) == p
                    for p, a in self.words.aggregations
                    if a is Aggregation.SHARE
                )
            )
            if m is measure and (
                ranked
                or self.comparing
                or self._named_as_itself(i, j, m)
                or self._counted(i, j, measures, totals=True)
            ):
                return measure
        if (row := self._row_extreme(measure, measures)) is not None:
            self.row_extreme = row  # "the earliest QuickFix Industrial order": its row
            return measure
        if (shared := self._shared_word()) is not None:
            return shared  # "how late were the flights": departure or arrival delay
        figures = ", ".join(m.name for m in self.schema.measures if not m.counts_rows)
        return self.unexpressible(
            f"it names the {measure.name.replace('_', ' ')}s' rows but asks for no count of "
            f"them; ask 'how many …' or name the figure ({figures})"
        )

    def _row_extreme(
        self, measure: Measure, measures: list[tuple[int, int, Measure]]
    ) -> tuple[int, int, Aggregation] | None:
        """An earliest or latest word ("first", "most recent") at most ``_ROW_GAP`` words
        before where the rows are named: "the earliest QuickFix Industrial order"."""
        if self.schema.time_column is None:
            return None
        norms = [t.norm for t in self.tokens]
        named = sorted({i for i, _, m in measures if m is measure} | set(self.rows_named))
        for i in named:
            for phrase, which in self.words.rows:
                for start in range(max(0, i - _ROW_GAP - len(phrase)), i - len(phrase) + 1):
                    end = start + len(phrase)
                    if tuple(norms[start:end]) == phrase and not any(
                        k in self.claims.used for k in range(start, i)
                    ):
                        return start, end, which
        return None

    def _named_as_itself(self, i: int, j: int, measure: Measure) -> bool:
        """Whether tokens [i, j) spell the measure's own name or column, not a synonym."""
        words = tuple(t.norm for t in self.tokens[i:j])
        return words in (_phrase(measure.name), _phrase(measure.column or ""))

    def _glossing(self, i: int) -> bool:
        """Whether token ``i`` is inside parentheses."""
        before = self.text[: self.tokens[i].start]
        return before.count("(") > before.count(")")

    def _counted(
        self, i: int, j: int, measures: list[tuple[int, int, Measure]], totals: bool = False
    ) -> bool:
        """Whether a count is asked for by the words of tokens [i, j) or the few before
        them, back to another measure ("how many P1 orders", "the number of work
        orders"; with ``totals`` "the total orders" too): else a measure that counts rows
        names the rows ("the average days to close of emergency work orders")."""
        taken = {k for a, b, m in measures if (a, b) != (i, j) for k in range(a, b)}
        start = i
        while start > 0 and i - start < _COUNT_GAP and start - 1 not in taken:
            start -= 1
        window = tuple(t.norm for t in self.tokens[start:j])
        asking = (Aggregation.COUNT, Aggregation.SUM) if totals else (Aggregation.COUNT,)
        counts = [p for p, a in self.words.aggregations if a in asking]
        return any(window[k : k + len(p)] == p for p in counts for k in range(len(window)))

    def _filters(self) -> tuple[list[tuple[int, int, str, Value]], Ambiguous | None]:
        phrases, cased = _value_phrases(
            (value, (column, value)) for column, stored in self.values.items() for value in stored
        )
        ranged = self._integer_ranges()  # before single values: "seasons 1990 to 1999"
        found = _claim_values(self.claims, phrases, cased) + ranged
        every = phrases + [(_value_key(key[0]), label) for key, label in cased]
        if (shared := self._shared_value(found, every)) is not None:
            return [], shared
        found += self._aliases()
        found += self._opening(phrases)
        # "the boilers", "cooling fans": a value named in the plural (or singular), when
        # no other value of its column reads the same folded
        folded: dict[tuple[str, Phrase], list[tuple[Phrase, tuple[str, Value]]]] = {}
        for key, (column, value) in phrases:
            norm = tuple(singular(w) for w in key)
            folded.setdefault((column, norm), []).append((norm, (column, value)))
        found += self.claims.claim([e[0] for e in folded.values() if len(e) == 1], attr="norm")
        found += self._kinds(phrases)
        filters: list[tuple[int, int, str, Value]] = []
        titles = self._titles(found)
        for i, j, (column, value) in found:
            if (i, j) in titles:
                self.note(Role.FILTER, i, j, f"title of {titles[i, j]}, no filter")
                continue
            if (
                i > 0
                and self.tokens[i - 1].exact in ("p/n", "pn")
                and i - 1 not in self.claims.used
            ):
                self.claims.used.add(i - 1)
                i -= 1
            self.named.update(range(i, j))
            self.valued.update({k: column for k in range(i, j)})
            if not any(f[2:] == (column, value) for f in filters):
                filters.append((i, j, column, value))
                self.note(Role.FILTER, i, j, f"{column} = {value}")
        return filters, None

    def _integer_ranges(self) -> list[tuple[int, int, tuple[str, Value]]]:
        """A closed range of an integer dimension named by its name (``_ranges``): every
        whole number of it, alternatives summed together (values it does not store
        select no rows). An open range ("from round 18 on") is left to ``_bounded``,
        which declines it."""
        found: list[tuple[int, int, tuple[str, Value]]] = []
        used = self.claims.used
        for first, end, column, low, high in _ranges(self.tokens, _integer_names(self.schema)):
            if any(n in used for n in range(first, end)):
                continue
            used.update(range(first, end))
            found += [(first, end, (column, v)) for v in range(low, high + 1)]
        return found

    def _bounded(self, filters: list[tuple[int, int, str, Value]]) -> Unexpressible | None:
        """A number read as a value of a dimension but written as a bound of a range
        ("from matchday 18 on", "rounds up to 10", "after week 30"): the rows past it, not
        those of the value; a query selects by values, so declined naming it, never the
        figure of the one value (rules file, ``[bounds]``)."""
        words = self.words
        for i, j, column, value in filters:
            if not isinstance(value, int | float) and not _NUMBER.match(str(value)):
                continue
            k = i - 1
            names = self._own_words(column)
            while k >= 0 and (self.tokens[k].norm in names or self.tokens[k].norm == "the"):
                k -= 1
            before = self.tokens[k].norm if k >= 0 else ""
            after = self.tokens[j].norm if j < len(self.tokens) else ""
            two = " ".join(t.norm for t in self.tokens[max(k - 1, 0) : k + 1])
            if (
                before in words.bounds_before
                or two in words.bounds_before
                or after in (words.bounds_after)
            ):
                said = self.claims.text(self.text, max(k, 0), min(j + 1, len(self.tokens)))
                return self.unexpressible(
                    f"{said!r} asks for a range of {column} values, which a query cannot "
                    f"select; ask for one {column.replace('_', ' ')} at a time"
                )
        return None

    def _titles(
        self, found: list[tuple[int, int, tuple[str, Value]]]
    ) -> dict[tuple[int, int], str]:
        """Values read from capitalised words right before the name of another column's
        value ("Hurricane Maria", "Doctor Lee"): a title of that name, not a filter of
        the rows (the storm called Hurricane Maria is Maria at every status). Only for a
        value stored in lowercase (a kind, not a name)."""
        starts = {i: (j, column) for i, j, (column, _) in found}
        titles = {}
        for i, j, (column, value) in found:
            text = str(value)
            after = starts.get(j)
            if (
                after is not None
                and after[1] != column
                and text == text.lower()
                and all(t.raw[:1].isupper() for t in self.tokens[i:j])
                and self.tokens[j].raw[:1].isupper()
            ):
                titles[i, j] = self.claims.text(self.text, j, after[0])
        return titles

    def _shared_value(
        self,
        found: list[tuple[int, int, tuple[str, Value]]],
        phrases: list[tuple[Phrase, tuple[str, Value]]],
    ) -> Ambiguous | None:
        """A value the question names that two dimensions hold alike ("direct" as a
        sales channel and as a market segment): claimed for one of them only, it would
        be a silent pick. The question tells them apart by naming the dimension next to
        the value ("the direct channel", "segment Direct"); else ambiguous, no pick."""
        holders: dict[Phrase, list[tuple[str, Value]]] = {}
        for key, label in phrases:
            if label[0] not in {c for c, _ in holders.get(key, [])}:
                holders.setdefault(key, []).append(label)
        for n, (i, j, _) in enumerate(found):
            key = tuple(t.exact for t in self.tokens[i:j])
            alike = holders.get(key, [])
            if len(alike) < 2:
                continue
            fresh = _Claims(self.tokens)
            beside = []
            for other, stored in alike:
                names = [other, *self.schema.dimension(other).synonyms]
                keys = [k for name in names if (k := _name_keys(name)[1])]
                if any(a == j or b == i for k in keys for a, b in fresh.find(k)):
                    beside.append((other, stored))
            if len(beside) == 1:
                found[n] = (i, j, beside[0])  # "the direct channel": the channel's
                continue
            if (side := self._measure_side(alike)) is not None:
                found[n] = (i, j, side)  # "Bayern's home goals": the home team's
                continue
            words = self.claims.text(self.text, i, j)
            readings = tuple(ValueReading(self.schema.name, c, v, words) for c, v in alike)
            return Ambiguous((), readings)
        return None

    def _measure_side(self, alike: list[tuple[str, Value]]) -> tuple[str, Value] | None:
        """Of dimensions holding one value alike (a home team and an away team), the one
        the measure the question reads shares a word with that the others' names lack
        ("home goals" of Bayern: the home team's; "away goals": the away team's). Only
        when every measure read says the same side; else None (no pick)."""
        read = [m for m in self.readings if not m.counts_rows]
        if not read:
            return None
        own = {
            column: {
                w
                for name in (column, *self.schema.dimension(column).synonyms)
                for w in _name_keys(name)[1]
            }
            for column, _ in alike
        }
        sides = set()
        for measure in read:
            said = {self.tokens[k].norm for k in self.readings[measure][1]}
            fits = [
                (column, value)
                for column, value in alike
                if said & (own[column] - set().union(*(own[c] for c in own if c != column)))
            ]
            if len(fits) != 1:
                return None
            sides.add(fits[0])
        if len(sides) != 1:
            return None
        side = sides.pop()
        # "away goals Bayern conceded at home": a word of another side elsewhere in the
        # question says otherwise; no pick
        spans = {k for m in read for k in self.readings[m][1]}
        others = set().union(*(own[c] for c in own if c != side[0])) - own[side[0]]
        if any(t.norm in others for k, t in enumerate(self.tokens) if k not in spans):
            return None
        return side

    def _aliases(self) -> list[tuple[int, int, tuple[str, Value]]]:
        """Stored values named by the names their dimension's description glosses them
        with (``TableSchema.aliases``: "Newark" of "EWR (Newark)", "Delta" of "DL (Delta
        Air Lines)"): a gloss of several words as written in any case, one word only
        capitalised, as a name ("United", not "united")."""
        stored = {(c, str(v)): v for c, vs in self.values.items() for v in vs}
        whole: list[tuple[Phrase, tuple[str, Value]]] = []
        single: dict[str, tuple[str, Value]] = {}
        for name, column, value in self.schema.aliases:
            if (column, value) not in stored:
                continue
            label = (column, stored[column, value])
            if len(name.split()) > 1:
                whole.append((_value_key(name), label))
            else:
                single.setdefault(name, label)
        found = self.claims.claim(whole, attr="exact")
        # "Laguardia" of "LaGuardia": a name capitalised, in another case inside
        folded = {name.casefold(): label for name, label in single.items()}
        for k, token in enumerate(self.tokens):
            raw = _POSSESSIVE.sub("", token.raw)
            named = single.get(raw) or (folded.get(raw.casefold()) if raw[:1].isupper() else None)
            if named is not None and k not in self.claims.used:
                self.claims.used.add(k)
                found.append((k, k + 1, named))
        return found

    def _opening(
        self, phrases: list[tuple[Phrase, tuple[str, Value]]]
    ) -> list[tuple[int, int, tuple[str, Value]]]:
        """A stored name of several words said by its first word alone ("Delta" of
        "DELTA AIR LINES", "southwest" of "SOUTHWEST AIRLINES"): read as that value when
        the word opens exactly one value of the table and is itself none, written as a
        name (capitalised, or in a question without capitals at all). Not a word of the
        schema's names or of the rules' function words. A word opening several values
        ("United" of two airlines) is no pick: the unknown-value check names them."""
        opening: dict[str, list[tuple[str, Value]]] = {}
        whole: set[str] = set()
        for key, label in phrases:
            if len(key) == 1:
                whole.add(key[0])
            elif label not in opening.setdefault(key[0], []):
                opening[key[0]].append(label)
        own = {w for n in self._schema_names() for w in _phrase(n)}
        lowercase = self.text == self.text.lower()
        found = []
        for k, token in enumerate(self.tokens):
            labels = opening.get(token.exact, [])
            if (
                len(labels) != 1
                or k in self.claims.used
                or token.exact in whole
                or token.norm in own
                or len(token.exact) < 3
                or _function_word((token.exact,))
                or not (token.raw[:1].isupper() or lowercase)
            ):
                continue
            self.claims.used.add(k)
            found.append((k, k + 1, labels[0]))
        return found

    def _kinds(
        self, phrases: list[tuple[Phrase, tuple[str, Value]]]
    ) -> list[tuple[int, int, tuple[str, Value]]]:
        """ "the pumps": a word that is the last word of one column's values ("centrifugal
        pump", "vacuum pump") names every one of them, as alternatives; not a word of the
        schema's own names, nor one that ends values of two columns, nor one asked about
        ("which pump", "per pump": which one of them, not all of them)."""
        own = {w for n in self._schema_names() for w in _phrase(n)}
        words = self.words
        asking = (
            words.which
            | words.overall
            | words.listing
            | {p[0] for p in words.triggers if len(p) == 1}
        )
        heads: dict[str, dict[str, list[Value]]] = {}
        for key, (column, value) in phrases:
            if len(key) > 1:
                heads.setdefault(singular(key[-1]), {}).setdefault(column, []).append(value)
        found = []
        for k, token in enumerate(self.tokens):
            named = heads.get(token.norm, {})
            if k in self.claims.used or token.norm in own or len(named) != 1:
                continue
            if k > 0 and (token.raw[:1].isupper() or self.tokens[k - 1].raw[:1].isupper()):
                continue  # "Dallas County": a word of a name, not every county
            before = [i for i in range(k) if self.tokens[i].norm not in self.words.skip]
            # "which pump", "per pump", "for each pump"; not the "in" of "in each": "in
            # the counties" names them
            if before and (self.tokens[before[-1]].norm in asking or self._trigger_at(before[-1])):
                continue
            self.claims.used.add(k)
            ((column, values),) = named.items()
            found += [(k, k + 1, (column, value)) for value in values]
        return found

    def _schema_names(self) -> list[str]:
        """Every name the schema gives a column or measure."""
        names = [c for c in self.schema.columns]
        names += [n for d in self.schema.dimensions for n in d.synonyms]
        return names + [n for m in self.schema.measures for n in (m.name, *m.synonyms)]

    def _mentions(self) -> list[_Mention]:
        """Where the question names a dimension, the time column or a period of it that
        a query groups by ("per month" of a date column: its month; "which year")."""
        names: list[tuple[str, str]] = []
        for d in self.schema.dimensions:
            names += [(n, d.column) for n in (d.column, *d.synonyms)]
        if (column := self.schema.time_column) is not None:
            kind = self.schema.columns[column]
            extra = ["month"] if kind is ColumnType.MONTH else ["date", "day"]
            if self.schema.yearly:  # "per day" of a table of years: no grouping by year
                extra = []
            names += [(n, column) for n in (column, *extra)]
            names += [
                (period, period)
                for period in ("month", "quarter", "year")
                if period not in self.schema.columns and (period, column) not in names
            ]
        taken = {_phrase(n) for n, _ in names} | {
            _phrase(n) for m in self.schema.measures for n in (m.name, *m.synonyms)
        }
        for d in self.schema.dimensions:  # "part_number" is also named "part"
            if len(words := d.column.split("_")) > 1 and (words[0],) not in taken:
                names.append((words[0], d.column))
        by_unit = dict(names)  # "monthly" groups as "per month" does
        names += [(w, by_unit[u]) for w, u in self.words.periodic.items() if u in by_unit]
        return [_Mention(c, i, j) for i, j, c in self.claims.claim_names(names)]

    def _number(self, token: _Token) -> int | None:
        if _NUMBER.match(token.raw):
            return int(token.raw)
        return self.words.numbers.get(token.exact)

    def _own_words(self, column: str) -> frozenset[str]:
        """The words of a dimension's names ("material" of "material group")."""
        names = [column]
        names += [n for d in self.schema.dimensions if d.column == column for n in d.synonyms]
        return frozenset(w for n in names for w in _phrase(n))

    def _before(self, i: int, own: frozenset[str] = frozenset()) -> tuple[int, int | None]:
        """The index of the word before token ``i`` that is no skipped word, number or
        word of the dimension's ``own`` names ("per material category"), and the number
        skipped on the way ("which three models" -> three)."""
        number = None
        k = i - 1
        while k >= 0:
            token = self.tokens[k]
            if token.norm in self.words.skip or token.norm in own and k not in self.claims.used:
                k -= 1
            elif (n := self._number(token)) is not None and number is None:
                number = n
                k -= 1
            else:
                break
        return k, number

    def _trigger_at(self, k: int) -> bool:
        """Whether a grouping trigger ("per", "for each") ends at token ``k``."""
        for phrase in self.words.triggers:
            n = len(phrase)
            if k - n + 1 >= 0 and tuple(t.norm for t in self.tokens[k - n + 1 : k + 1]) == phrase:
                return True
        return False

    # -- putting them together ---------------------------------------------------------

    def _query(
        self,
        measures: list[tuple[int, int, Measure]],
        time: TimeConstraint | None,
        today: date,
        periods: tuple[TimeConstraint, ...] = (),
    ) -> DataQuestion | Unexpressible | Ambiguous:
        schema, words = self.schema, self.words
        needs_text = [(i, j) for p in words.text for i, j in _Claims(self.tokens).find(p)]
        if needs_text and len({m for _, _, m in measures}) > 1:
            # "which region had the lowest shortage rate, and what causes shortages?"
            start = min(i for i, _ in needs_text)
            earlier = [m for m in measures if m[1] <= start]
            measures = earlier or [m for m in measures if m[0] >= start]
        # "the total cost (labour plus parts)": a measure named in parentheses glosses
        # the one named before them; its words are read, it is not asked for.
        outside = [m for m in measures if not self._glossing(m[0])]
        measures = outside or measures
        # the rows: named by a measure counting them, or by the table's name's plural
        self.rows_named = [i for i, _, m in measures if m.counts_rows]
        rows = {singular(r) for r in self.rows_nouns}
        if rows:
            rows |= {_norm(r) for r in self.words.row_words}
        self.rows_named += [k for k, t in enumerate(self.tokens) if t.norm in rows]
        # "how did bookings in July 2017 compare to July 2016": the rows of two periods
        # compared, or of a change between them, are compared by their count
        comparing = words.change | words.compare
        self.comparing = len(periods) > 1 and any(t.norm in comparing for t in self.tokens)
        chosen = self._choose(measures)
        if isinstance(chosen, Unexpressible | Ambiguous):
            return chosen
        measure = self.chosen = chosen
        if self.row_extreme is not None:
            i, j, which = self.row_extreme
            self.claims.used.update(range(i, j))
            self.note(Role.AGGREGATION, i, j, which.value)
        if needs_text:  # "…, and how many hours was it?" asks for the figure itself
            idle = self._idle(measure)
            start = min(i for i, _ in needs_text)
            if all(
                idle(t)
                for k, t in enumerate(self.tokens[start:], start)
                if k not in self.claims.used
            ):
                needs_text = []
        for i, j, m in measures:
            self.named.update(range(i, j))  # "flights departed", "homes sold"
            if not m.counts_rows:  # the rows' name: "bookings through the direct channel"
                self.measured.update(range(i, j))
            if m is measure:
                self.note(Role.MEASURE, i, j, measure.name)
        if (selected := self._selecting(measure, measures)) is not None:
            return selected
        if threshold := self._threshold():
            return self.unexpressible(
                f"a condition on the figure ({threshold.group(0)!r}) cannot be expressed; ask for "
                "the ranking instead (e.g. 'which ... had the highest ...')"
            )
        filters, problem = self._filters()
        if problem is not None:
            return problem
        if (bound := self._bounded(filters)) is not None:
            return bound
        for hour in words.clock.finditer(self.text):
            # "at 18:00" of a table of days: unless a stored value reads it ("Shift 06:00")
            inside = [k for k, t in enumerate(self.tokens) if hour.start() <= t.start < hour.end()]
            if not any(k in self.claims.used for k in inside):
                return self.unexpressible(
                    f"it cannot select rows by the time of day ({hour.group(0).strip()!r}): its "
                    "rows are read by day or month; ask for the whole day or period"
                )
        mentions = self._mentions()
        self.named.update(k for m in mentions for k in range(m.i, m.j))
        # "Greater Houston": a capitalised word right before a value is a word of a name
        # the table may not hold, not a ranking or aggregation word
        names = {
            i - 1
            for i, _, _, _ in filters
            if i > 1
            and i - 1 not in self.claims.used
            and self.tokens[i - 1].raw[:1].isupper()
            and self.tokens[i - 1].raw[1:].islower()
        }
        self.claims.used |= names
        aggregations = self.claims.claim(words.aggregations)
        rankings = self.claims.claim(words.ranking)
        self.claims.used -= names
        limit: int | None = None  # "top 3", "the three highest", "bottom five"
        used = self.claims.used  # "higher, 2024 or 2025": a period is no limit
        for i, j, _ in rankings:
            after = self._number(self.tokens[j]) if j < len(self.tokens) and j not in used else None
            before = self._number(self.tokens[i - 1]) if i > 0 and i - 1 not in used else None
            if after is not None:
                limit = after
                self.claims.used.add(j)
            elif before is not None:
                limit = before
                self.claims.used.add(i - 1)
        extremes = [(i, j, _EXTREMES[a]) for i, j, a in aggregations if a in _EXTREMES]
        ranked = rankings or extremes  # "which region had the maximum ..." ranks too
        if len({o for _, _, o in ranked}) > 1:
            return self.unexpressible("the question asks for both the highest and the lowest")
        grouping = self._grouping(mentions, filters, bool(ranked))
        if isinstance(grouping, Unexpressible):
            return grouping
        group_by, number, single, ranking = grouping
        if (finer := self._finer_than_years(group_by)) is not None:
            return finer
        limit = number if number is not None else limit
        columns = [column for _, _, column, _ in filters]
        # "P-101 vs P-1010": values of one column named apart, a figure each ("the pumps"
        # names two values with one word: alternatives, summed together)
        spans = {(c, i) for i, _, c, _ in filters}
        compared = [c for c in dict.fromkeys(columns) if sum(s[0] == c for s in spans) > 1]
        fresh = _Claims(self.tokens)  # "combined" is also read as a sum
        if compared and any(any(fresh.find(p)) for p in words.together):
            compared = []  # "Riverside and Hillcrest together": one figure for both
        for column in compared:  # "P-101 vs P-1010", "Riverside or Hillcrest": a figure each
            if column not in group_by:
                group_by.append(column)
        unknown = self._unknown(
            mentions, ranked, needs_text, self._idle(measure), measure, bool(compared)
        )
        if unknown is not None:
            return unknown
        aggregation = self._aggregation(measure, aggregations, mentions, time)
        if isinstance(aggregation, Unexpressible):
            return aggregation
        periods_grouped = [
            c for c in group_by if c == schema.time_column or c not in schema.columns
        ]  # the time column, or a period of it ("year"; "month" of a date column)
        central = aggregation in (Aggregation.AVG, Aggregation.MEDIAN)
        if central and periods_grouped and _additive(measure):
            # "the average (median) monthly downtime" is the mean (median) of the months'
            # totals (months without rows counting 0), not each month's average row
            of = "mean" if aggregation is Aggregation.AVG else "median"
            return self.unexpressible(
                f"it cannot average {measure.name} over {periods_grouped[0]}s (the {of} of "
                f"their totals); ask for the total per {periods_grouped[0]}, or for the "
                "total of the period"
            )
        dated_by: str | None = None
        if time is not None or len(periods) > 1 or self.row_extreme is not None:
            dating = self._dated_by()
            if isinstance(dating, Unexpressible):
                return dating
            dated_by = dating
        if self.row_extreme is not None and schema.time_column is not None:
            # the row asked for, named by its identifiers and its time
            aggregation = self.row_extreme[2]
            # and by the columns the question names unfiltered ("who was the supplier")
            ids = [d.column for d in schema.dimensions if d.column in self.identifiers]
            asked = [m.column for m in mentions if m.column not in columns]
            dated = dated_by or schema.time_column
            rest = [c for c in (*group_by, *asked, dated) if c not in ids]
            group_by[:] = [*ids, *dict.fromkeys(rest)]
        if not measure.counts_rows and any(  # "the parts cost per event": one row
            k > 0 and self.tokens[k - 1].norm == "per" for k in self.rows_named
        ):
            self.per_row = True
        if self._named_per_row(measure):
            self.per_row = True
        if self.per_row and aggregation in (None, Aggregation.SUM) and _additive(measure):
            aggregation = Aggregation.AVG  # "the labour cost per work order"
        if aggregation is Aggregation.SHARE and not group_by:
            # "the share of 2025's cost spent at Hillcrest": Hillcrest's part of all sites
            parts = list(dict.fromkeys(columns))
            if len(parts) != 1:
                named = " or ".join(parts) or "a site, a supplier, a type"
                return self.unexpressible(
                    f"it cannot tell what the share is a part of; name one part ({named})"
                )
            group_by.append(parts[0])

        order = rankings[0][2] if rankings else None
        # "which asset had the highest temperature": an extreme word of the measure's own
        # name ranks too; else every asset is listed and none named.
        extremes = extremes or self._named_extremes(measure, measures)
        if (
            aggregation is None
            and not ranking
            and not group_by
            and len(periods) < 2
            and (superlative := self._superlative_name(measure, measures)) is not None
        ):
            # "the lowest temperature Beijing reached over 2016-2017": the lowest of the
            # daily lows, not their average (the measure's own aggregation)
            i, j, extreme = superlative
            highest = Aggregation.MAX if extreme is Order.DESC else Aggregation.MIN
            if measure.aggregation is not highest:  # else the measure's own already
                aggregation = highest
                self.note(Role.AGGREGATION, i, j, highest.value)
        if order is None and ranking and extremes:
            order = extremes[0][2]  # "which model had the maximum ...": max, then ranked
        if len(periods) > 1 and not rankings and not extremes:
            joined = self._one_window(periods)
            if isinstance(joined, Unexpressible):
                return joined
            if joined is not None:  # "how many work orders in May and June": both
                time, periods = joined, ()
        compared_periods = self._periods(periods, today)
        if isinstance(compared_periods, Unexpressible):
            return compared_periods
        for period in (
            *([time] if time is not None and not compared_periods else []),
            *(periods if compared_periods else ()),
        ):
            if (unmonthly := self._not_whole_months(period, dated_by, today)) is not None:
                return unmonthly
        changed = [
            t.raw
            for k, t in enumerate(self.tokens)
            if t.norm in words.change and k not in self.claims.used  # not "oil change"
        ]
        if changed and not (compared or compared_periods):
            # "how did downtime change from 2025 to 2026": one figure for the whole range
            # would answer another question
            return self.unexpressible(
                f"it asks how the figure changed ({changed[0]!r}) and names one period or "
                "value; name both sides (e.g. '2025 vs 2026', 'Riverside vs Hillcrest')"
            )
        if order is not None and not group_by and not compared_periods:
            if limit is not None and limit > 1:
                return self.unexpressible(
                    f"say what to rank by {measure.name}: "
                    + ", ".join(f"'top {limit} {d.column}s'" for d in schema.dimensions[:3])
                )
            i, j, _ = rankings[0]
            if aggregation is None:
                aggregation = Aggregation.MAX if order is Order.DESC else Aggregation.MIN
                self.note(Role.AGGREGATION, i, j, aggregation.value)
            elif aggregation not in _EXTREMES:
                # "the highest average price in 2016": the highest of what? One average
                # of the period would drop the word; the question is declined naming it
                said = self.claims.text(self.text, i, j)
                dimensions = ", ".join(d.column for d in schema.dimensions) or "none"
                return self.unexpressible(
                    f"it asks for the {said!r} {aggregation.value} but names nothing to rank; "
                    f"ask which of a dimension ({dimensions}) had it"
                )
            order, limit = None, None
        of_rows = (Aggregation.MAX, Aggregation.MIN, Aggregation.AVG, Aggregation.MEDIAN)
        if measure.counts_rows and aggregation in of_rows and self.row_extreme is None:
            # "the longest flight": each row counts one, so its maximum is 1 whatever
            # the rows; the question asks for a figure of the rows the table has none for
            figures = ", ".join(m.name for m in schema.measures if not m.counts_rows)
            said = next((m.text for m in self.matched if m.role is Role.AGGREGATION), "")
            return self.unexpressible(
                f"{said or aggregation.value!r} of {measure.name.replace('_', ' ')}s is no "
                f"figure (each row counts one); name the figure ({figures})"
            )
        elif order is not None:
            i, j, _ = (rankings or extremes)[0]
            self.note(Role.ORDER, i, j, order.value)
            if limit is None and single and not compared and not compared_periods:
                limit = 1  # "which model ...": the first; of the sides compared, each
        else:
            limit = None  # a number without a ranking is no limit
        if limit is not None:
            if not 1 <= limit <= MAX_LIMIT:
                return self.unexpressible(f"a ranking shows 1 to {MAX_LIMIT} rows, not {limit}")
            self.matched.append(Match(Role.LIMIT, str(limit), str(limit)))

        time_from = time_to = None
        if time is not None and not compared_periods:
            if schema.time_column is None:
                return self.unexpressible(
                    f"it holds no dated figures, so it cannot answer for {time.text!r}"
                )
            if time.start is not None and time.start > today:
                return self.unexpressible(f"{time.text!r} is after today; it holds no forecasts")
            time_from, time_to = time.start, time.end
            window = f"{time_from or '…'}..{time_to or '…'}"
            column = dated_by or schema.time_column
            self.matched.append(Match(Role.TIME, time.text, f"{column} {window}"))
        for i, j in needs_text:
            self.matched.append(Match(Role.TEXT, self.claims.text(self.text, i, j), "documents"))

        query = TableQuery(
            table=schema.name,
            measure=measure.name,
            aggregation=aggregation,
            group_by=self._with_outer(group_by, [column for _, _, column, _ in filters]),
            filters=tuple((column, value) for _, _, column, value in filters),
            time_from=time_from,
            time_to=time_to,
            order=order,
            limit=limit,
            periods=compared_periods,
            dated_by=dated_by,
        )
        text_part = ""
        if needs_text:
            text_part = self.text[self.tokens[min(i for i, _ in needs_text)].start :]
        return DataQuestion(query, bool(needs_text), tuple(self.matched), text_part)

    def _not_whole_months(
        self, period: TimeConstraint, dated_by: str | None, today: date
    ) -> Unexpressible | None:
        """A period a monthly time column cannot select exactly ("week 12", "since 15
        March" of monthly figures) is declined, naming it: its figure would be that of
        the whole months around it. A period counted back from today ("the past 6
        months") or running to today ("this year") stands for its months."""
        column = dated_by or self.schema.time_column
        if column is not None and self.schema.columns[column] is ColumnType.INTEGER:
            return self._not_whole_years(period, column, today)
        if column is None or self.schema.columns[column] is not ColumnType.MONTH:
            return None
        start, end = period.start, period.end
        starts = start is None or start.day == 1 or period.counted_back
        ends = end is None or end >= today or (end + _ONE_DAY).day == 1
        if starts and ends:
            return None
        return self.unexpressible(
            f"its figures are monthly ({column}), and {period.text!r} is not whole months; "
            "ask by month, quarter or year"
        )

    def _threshold(self) -> re.Match[str] | None:
        """The first condition on a figure ("above 5 %"), unless its number is a word of
        a period perception read: "over 2016-2017" is a span of years, not a figure over
        2016."""
        for found in self.words.thresholds.finditer(self.text):
            digit = re.search(r"\d", found.group(0))
            at = found.start() + (digit.start() if digit else 0)
            inside = [k for k, t in enumerate(self.tokens) if t.start <= at < t.end]
            if not inside or not set(inside) <= self.time_span:
                return found
        return None

    def _not_whole_years(
        self, period: TimeConstraint, column: str, today: date
    ) -> Unexpressible | None:
        """A period a time column of years cannot select exactly ("March 1990", "Q3
        2005", "since June 2000") is declined, naming it: the table holds years only, and
        the figure would be that of the whole years around it. A period running to today
        ("this year") stands for its years; one counted back from today ("the past 3
        years") starts inside a year, and whether that year counts is a guess."""
        start, end = period.start, period.end
        starts = start is None or (start.month, start.day) == (1, 1)
        ends = end is None or end >= today or (end.month, end.day) == (12, 31)
        if starts and ends:
            return None
        return self.unexpressible(
            f"the table holds years only ({column}), and {period.text!r} is not whole "
            "years; ask by year (e.g. 'in 1990', 'between 1990 and 1999', 'since 2000')"
        )

    def _finer_than_years(self, group_by: Sequence[str]) -> Unexpressible | None:
        """A grouping by a period shorter than a year ("per month", "quarterly") of a
        table whose time column holds years: declined, naming it."""
        if not self.schema.yearly:
            return None
        finer = [c for c in group_by if c in ("month", "quarter") and c not in self.schema.columns]
        return self._years_only(finer[0]) if finer else None

    def _years_only(self, unit: str) -> Unexpressible:
        return self.unexpressible(
            f"the table holds years only ({self.schema.time_column}); it cannot give a "
            f"figure per {unit}; ask per year"
        )

    def _dated_by(self) -> str | None | Unexpressible:
        """The date column a period selects rows by when the question names one other
        than the time column by a word of its own ("closed in 2026": closed_date,
        "delivered in March": delivery_date); None: the time column."""
        schema, claims = self.schema, self.claims
        dated = [c for c, k in schema.columns.items() if k in (ColumnType.DATE, ColumnType.MONTH)]
        if len(dated) < 2:
            return None
        named: dict[str, list[int]] = {}
        for column in dated:
            own = [_stem(_norm(w)) for w in column.split("_") if _norm(w) not in _DATE_WORDS]
            named[column] = [
                k
                for k, t in enumerate(self.tokens)
                if k not in claims.used
                and any(
                    min(len(s), len(stem := _stem(t.norm))) >= 4
                    and (stem.startswith(s) or s.startswith(stem))
                    for s in own
                )
            ]
        others = [c for c in dated if c != schema.time_column and named[c]]
        if not others:
            return None
        if len(others) > 1 or schema.time_column is not None and named[schema.time_column]:
            words = [self.tokens[named[c][0]].raw for c in dated if named[c]]
            return self.unexpressible(
                f"it names more than one date ({', '.join(map(repr, words))}); ask by one"
            )
        (column,) = others
        claims.used.update(named[column])
        k = named[column][0]
        self.note(Role.TIME, k, k + 1, column)
        return column

    def _with_outer(self, group_by: list[str], filtered: list[str]) -> tuple[str, ...]:
        """``group_by`` with the outer dimension (``within``) of each dimension grouped or
        filtered before it, unless that one is filtered to one value: "which line had
        the fewest alarms" groups by site and line, "Line 2" is a figure per site."""
        out = list(group_by)
        for dimension in self.schema.dimensions:
            outer = dimension.within
            named = dimension.column in out or dimension.column in filtered
            if outer is None or not named or outer in out or filtered.count(outer) == 1:
                continue
            at = out.index(dimension.column) if dimension.column in out else len(out)
            out.insert(at, outer)
        return tuple(out)

    def _one_window(
        self, periods: tuple[TimeConstraint, ...]
    ) -> TimeConstraint | Unexpressible | None:
        """The periods as one window, when joined by "and" (rules file, ``[joined]``)
        in a question asking for a total or a count and no change: "how many work orders
        in May and June 2026" is the count over both months. None: they are compared.
        Periods with a gap between them ("May and August") cannot be one window."""
        words = self.words
        if any(t.norm in words.change for t in self.tokens):
            return None
        fresh = _Claims(self.tokens)
        asking = [p for p, a in words.aggregations if a in (Aggregation.SUM, Aggregation.COUNT)]
        if not any(any(fresh.find(p)) for p in (*asking, *words.together)):
            return None
        spans = []
        for period in periods:
            found = sorted(_time_span(self.text, self.tokens, period))
            if not found or period.start is None or period.end is None:
                return None
            spans.append((found[0], found[-1] + 1, period))
        spans.sort(key=lambda s: s[0])
        for (_, end, _), (start, _, _) in itertools.pairwise(spans):
            between = tuple(t.norm for t in self.tokens[end:start])
            if between not in words.joined:
                return None  # "May or June", "May vs June", "May compared with June"
        ordered = sorted(periods, key=lambda p: p.start or date.min)
        for a, b in itertools.pairwise(ordered):
            assert a.end is not None and b.start is not None
            if b.start > a.end + _ONE_DAY:
                return self.unexpressible(
                    f"it asks for one figure over {a.text!r} and {b.text!r}, which are not "
                    "next to each other; ask for each period, or for the range from the "
                    "first to the last"
                )
        text = self.claims.text(self.text, spans[0][0], spans[-1][1])
        return TimeConstraint(ordered[0].start, max(p.end for p in ordered if p.end), text)

    def _periods(
        self, periods: tuple[TimeConstraint, ...], today: date
    ) -> tuple[Period, ...] | Unexpressible:
        """The periods compared ("Q2 2026 vs Q3 2026"), each with its dates, named by
        the question's words; none unless it names two or more."""
        if len(periods) < 2:
            return ()
        if self.schema.time_column is None:
            return self.unexpressible("it holds no dated figures, so it has no periods to compare")
        out = []
        for period in periods:
            if period.start is None or period.end is None:
                return self.unexpressible(
                    f"it compares periods, and {period.text!r} has no start or no end; "
                    "name each (e.g. 'Q2 2026 vs Q3 2026')"
                )
            if period.start > today:
                return self.unexpressible(f"{period.text!r} is after today; it holds no forecasts")
            label = _PREPOSITION.sub("", period.text)
            dated = [p for p in periods if _A_YEAR.search(p.text)]
            if dated and not _A_YEAR.search(label) and period.start.year == period.end.year:
                label = f"{label} {period.start.year}"  # "Q3 and Q4 2025": "Q3 2025"
            self.matched.append(
                Match(
                    Role.TIME,
                    period.text,
                    f"{self.schema.time_column} {period.start}..{period.end}",
                )
            )
            out.append(Period(label, period.start, period.end))
        if len({p.label for p in out}) < len(out):
            return self.unexpressible("it names one period twice; name each period once")
        return tuple(out)

    def _grouping(
        self,
        mentions: list[_Mention],
        filters: list[tuple[int, int, str, Value]],
        ranked: bool,
    ) -> tuple[list[str], int | None, bool, bool] | Unexpressible:
        """(dimensions grouped by, the number of groups asked for, whether one group is
        asked for ("which model"), whether a dimension is ranked rather than listed)."""
        words, tokens = self.words, self.tokens
        filtered = {k for i, j, _, _ in filters for k in range(i, j)}
        group_by: list[str] = []
        grouped: list[_Mention] = []
        totalled: list[_Mention] = []
        limit: int | None = None
        single = ranking = False
        for mention in mentions:
            if mention.i - 1 in filtered or mention.j in filtered:
                continue  # "East region", "model CP-200": the filter's own word
            k, number = self._before(mention.i, self._own_words(mention.column))
            before = tokens[k].norm if k >= 0 else ""
            # "across all regions (and months)", "over all warehouses": summed over,
            # not listed per region.
            every = any(tokens[x].norm in words.overall for x in range(k + 1, mention.i))
            listing = before in words.listing  # "list all suppliers": one figure each
            if not listing and (
                every or any(t.j == k and before in ("and", "or") for t in totalled)
            ):
                totalled.append(mention)
                continue
            after = mention.j
            while after < len(tokens) and tokens[after].norm in words.skip:
                after += 1
            linked = after < len(tokens) and tokens[after].norm in words.link
            listed = any(  # "per region and model", "by region, model"
                g.j == k + 1 or g.j == k and before in ("and", "or") for g in grouped
            )
            if before == "per" and mention.column in self.identifiers:
                self.per_row = True  # "the cost per work order": an average over rows
                continue
            periodic = tokens[mention.i].norm in words.periodic  # "the monthly run hours"
            if self._trigger_at(k) or listed or listing or periodic or before in ("top", "bottom"):
                kind = "group"
            elif (
                before in words.which
                or number is not None
                or linked
                and ranked
                or ranked
                and self._ranks_at(k)
                and mention.j not in self.measured
                and mention.j not in self.rows_named
            ):
                kind = "rank"  # "which city", "the windiest city", "highest city by ..."
            else:
                continue  # "for this part": no grouping asked for
            ranking = ranking or kind == "rank" or before in ("top", "bottom")
            if number is not None:
                limit = number
            elif kind == "rank" and (
                not tokens[mention.j - 1].plural or tokens[k + 1].norm == "of"
            ):
                single = True  # "which model", "which of the regions"
            grouped.append(mention)
            if mention.column not in group_by:
                group_by.append(mention.column)
                self.note(Role.GROUP_BY, mention.i, mention.j, mention.column)
        return group_by, limit, single, ranking

    def _ranks_at(self, k: int) -> bool:
        """Whether a superlative ends at token ``k``: "the windiest city" ranks cities
        (a comparative does not: "more bird strikes" compares the sides named)."""
        norms = tuple(t.norm for t in self.tokens[: k + 1])
        return (
            k >= 0
            and (norms[-1].endswith("est") or norms[-1] in ("most", "least"))
            and any(norms[len(norms) - len(p) :] == p for p, _ in self.words.ranking)
        )

    def _aggregation(
        self,
        measure: Measure,
        aggregations: list[tuple[int, int, Aggregation]],
        mentions: list[_Mention],
        time: TimeConstraint | None,
    ) -> Aggregation | None | Unexpressible:
        """The first aggregation asked for in so many words; None: the measure's own."""
        schema = self.schema
        allowed = _allowed(measure, schema)
        for i, j, asked in aggregations:
            if asked is Aggregation.COUNT:
                # "how many storm track observations": the dimension's name says which
                # rows, the rows' name after it is what is counted
                counted = [
                    m
                    for m in mentions
                    if m.i == j
                    and not (
                        measure.counts_rows and any(m.j <= k <= m.j + 2 for k in self.rows_named)
                    )
                ]
                if counted and _phrase(measure.unit) in _COUNTED_UNITS:
                    continue  # "how many spare parts are in stock": units on hand
                if counted:  # rows are no parts: a part has rows in several warehouses
                    return self.unexpressible(
                        f"it cannot count {self.claims.text(self.text, counted[0].i, j + 1)}"
                        f"; ask for {measure.name} per {counted[0].column} instead"
                    )
                continue  # "number of orders": the measure itself
            if asked is Aggregation.LATEST:
                column = schema.time_column
                dated = column is not None and schema.columns[column] is ColumnType.DATE
                if column is None or not _additive(measure) and (time or dated):
                    continue  # figures as of the stock count, or of the period asked for
                if not _additive(measure):
                    return self.unexpressible(
                        f"{measure.name} is given per {schema.time_column}; say which "
                        f"(e.g. {'last year' if schema.yearly else 'last month'!r})"
                    )
            if asked not in allowed:
                return self.unexpressible(
                    f"{measure.name} is a rate or ratio ({measure.aggregation.value} over "
                    f"rows), so it cannot be given as {asked.value}; ask for its "
                    + ", ".join(a.value for a in allowed)
                )
            if asked is Aggregation.SUM and measure.aggregation is Aggregation.LATEST:
                asked = Aggregation.LATEST  # "total stock": the latest stock, summed
            self.note(Role.AGGREGATION, i, j, asked.value)
            return asked
        return None

    def _unknown(
        self,
        mentions: list[_Mention],
        rankings: list,
        needs_text: list[tuple[int, int]],
        idle: Callable[[_Token], bool],
        measure: Measure,
        compared: bool = False,
    ) -> Unexpressible | None:
        """A grouping, ranking or filter the question asks for that the table lacks
        (``idle`` words name none: "across all monitored assets" of a monitoring log; a
        word of ``measure``'s own names does after "per": "CO2 per tonne" is a ratio).
        With values ``compared``, "which" and a word of the measure asks which of them
        ("Houston or Dallas - which sold more homes")."""
        words, tokens, used = self.words, self.tokens, self.claims.used
        text_from = min((i for i, _ in needs_text), default=len(tokens))
        in_text = {k for i, j in needs_text for k in range(i, j)}
        dimensions = ", ".join(d.column for d in self.schema.dimensions) or "none"

        def free(k: int) -> bool:
            token = tokens[k]
            return (
                k not in used
                and not idle(token)
                and token.norm not in words.stopwords
                and token.norm not in words.skip
                and token.norm not in words.time_units
                and self._number(token) is None
            )

        for k in range(len(tokens)):
            # "per supplier", "which supplier had the highest ...": no such dimension
            is_trigger = self._trigger_at(k)
            if k in in_text or not (is_trigger or tokens[k].norm in words.which and rankings):
                continue
            after = k + 1
            while after < len(tokens) and (
                tokens[after].norm in words.skip or self._number(tokens[after]) is not None
            ):
                after += 1
            part_of_dimension = any(  # "per material category": a word of the category's names
                m.i > after and tokens[after].norm in self._own_words(m.column) for m in mentions
            )
            own = {
                singular(w)
                for n in (measure.name, *measure.synonyms, measure.unit)
                for w in _phrase(n)
            }
            if after < len(tokens) and after not in used and tokens[after].norm in own:
                if compared and not is_trigger:
                    continue  # "Houston or Dallas - which sold more": which of the two
                return self.unexpressible(
                    f"it has no {measure.name} per {tokens[after].raw!r}, only totals and "
                    f"averages of it; its dimensions: {dimensions}"
                )
            unit = singular(tokens[after].norm) if after < len(tokens) else ""
            if after not in used and unit in words.time_units and k not in used:
                example = _NAMED_PERIODS.get(unit, "in Q3 2026")
                if self.schema.yearly and unit != "year":
                    return self._years_only(unit)
                return self.unexpressible(  # "per week": not summed over the weeks
                    f"it cannot give a figure per {unit}; ask per month, quarter or year, or "
                    f"name the period (e.g. {example!r})"
                )
            if (
                after < len(tokens)
                and free(after)
                and not part_of_dimension
                and not _IDENTIFIER.match(tokens[after].raw)
            ):
                return self.unexpressible(
                    f"it has no dimension {tokens[after].raw!r} to group by; its "
                    f"dimensions: {dimensions}"
                )
        for mention in mentions:
            # "the Line 5 assets": a value the table does not hold, named with its column
            after = mention.j
            if (
                after < len(tokens)
                and after not in used
                and (
                    self._number(tokens[after]) is not None or _IDENTIFIER.match(tokens[after].raw)
                )
            ):
                named = tokens[after].raw
                if self._number(tokens[after]) is not None:  # "Line 5", not "5"
                    named = self.claims.text(self.text, mention.i, after + 1)
                return self._no_value(mention.column, named)
            # "in North region": a value the table does not hold (a capitalised name)
            k = mention.i - 1
            if (
                k > 0
                and free(k)
                and tokens[k].raw[:1].isupper()
                and not _IDENTIFIER.match(tokens[k].raw)
                and not self._trigger_at(k)
            ):
                return self._no_value(mention.column, tokens[k].raw)
        shapes: dict[str, str] = {}
        for column, stored in self.values.items():
            for value in stored:
                shapes.setdefault(_shape(str(value)), column)
        for k, token in enumerate(tokens):
            # an identifier that names no stored value: "CP-999", "P/N 99-0000-01"
            if k in used or not _IDENTIFIER.match(token.raw) or _ORDINAL.match(token.raw):
                continue
            if (shaped := shapes.get(_shape(token.raw))) is not None:
                return self._no_value(shaped, token.raw)
            if k >= text_from:
                continue  # "... and how do I clear E4027?": the documents' identifier
            # "TT21", "VH12": a code of another shape than the stored "TT-21", named
            codes = [str(v) for v in self._known(None, token.raw)]
            folded = {re.sub(r"[\W_]", "", v).lower(): v for v in codes}
            close = difflib.get_close_matches(
                re.sub(r"[\W_]", "", token.raw).lower(), list(folded), n=3, cutoff=0.75
            )
            hint = f"; the closest it holds: {', '.join(folded[c] for c in close)}" if close else ""
            return self.unexpressible(
                f"it cannot filter by {token.raw!r}: none of its dimensions ({dimensions}) "
                f"holds that value{hint}"
            )
        return None

    def _known(self, column: str | None, value: str) -> Sequence[Value]:
        """The stored values of ``column`` (None: of every dimension) to name for a
        ``value`` the table lacks: from ``known`` when ``values`` is a subset."""
        if self.known is not None:
            return self.known(self.schema.name, column, value)
        if column is None:
            return [v for stored in self.values.values() for v in stored]
        return self.values.get(column, ())

    def _no_value(self, column: str, value: str) -> Unexpressible:
        stored = [str(v) for v in self._known(column, value)]
        close = difflib.get_close_matches(value, stored, n=3, cutoff=0.6)
        stored = [*close, *(v for v in stored if v not in close)]  # the closest first
        known = ", ".join(stored[:8]) + (", …" if len(stored) > 8 else "")
        return self.unexpressible(
            f"no {column} {value!r} in it" + (f" (its values: {known})" if known else "")
        )


__all__ = [
    "DATA_RULES",
    "MAX_LIMIT",
    "DataQuestion",
    "Known",
    "Match",
    "NamedRows",
    "Role",
    "Unexpressible",
    "Values",
    "named_rows",
    "recognise",
]
