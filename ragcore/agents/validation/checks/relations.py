"""Relations an answer states between figures, checked against them: "A is louder than
B" (and "A holds 30, B 60, so B is bigger"), "raises X to A, up from B", "more often".

A relation holds when the figures bound to its sides agree with its direction; the
comparative words and their directions, by the dimension of the figures, are
``[comparatives]`` in ``rules/attributes.toml``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from ragcore.agents.attributes import Comparatives
from ragcore.agents.evidence import Evidence, Statement, is_table_evidence
from ragcore.agents.perception.asks import Asks
from ragcore.agents.perception.model import Perception
from ragcore.agents.reading import identifiers, term_set
from ragcore.agents.validation.figures import binding
from ragcore.agents.validation.model import AnswerModel, StatementModel
from ragcore.agents.validation.registry import Finding, Scope, check
from ragcore.text.arithmetic import figures
from ragcore.text.citations import strip_citations
from ragcore.text.lexicon import pattern
from ragcore.text.quantities import (
    YEAR,
    YEAR_IN,
    Quantity,
    attribute_units,
    mask_identifiers,
    number_spans,
    quantities,
)
from ragcore.text.terms import model_terms, terms
from ragcore.text.units import convert, dimension
from ragcore.types import Check, IssueKind, Route

# Change words said of a time, not of the figures it is reached at.
_TIMED = re.compile(r"^(?:shorten|lengthen|extend)", re.IGNORECASE)
# "than 3 °C", "than about 100 L/min", "than minus 20 °C": a bound, not another side.
_THAN_A_FIGURE = r"than\s+(?:(?:about|around|approximately|roughly|some|minus)\s+)?[-−]?\d"
# What puts two things side by side in one statement: "louder than", "68 against 72".
_COMPARED = re.compile(
    r"\b(?:than|against|compared (?:with|to)|whereas|while|instead of|versus|vs)\b",
    re.IGNORECASE,
)
_FREQUENCY = re.compile(r"\b(more|less)\s+(?:often|frequent(?:ly)?)\b", re.IGNORECASE)
# How often, said in a word: "monthly sampling, compared with quarterly".
_PERIODS = {
    "hourly": (1.0, "h"),
    "daily": (1.0, "days"),
    "weekly": (1.0, "weeks"),
    "fortnightly": (2.0, "weeks"),
    "monthly": (1.0, "months"),
    "quarterly": (3.0, "months"),
    "annually": (1.0, "years"),
    "yearly": (1.0, "years"),
}
_PERIOD = re.compile(rf"\b(?:{'|'.join(_PERIODS)})\b", re.IGNORECASE)
# One of a unit of time, said without a number: "every month", "once a year".
_EVERY_UNIT = re.compile(
    r"\b(?:every|each|once\s+an?|per)\s+(hour|day|week|month|year|shift)\b", re.I
)
_PLAIN_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])")
# A change of a figure: "raises the threshold to 3.5 mm/s, up from 4.5 mm/s".
_RISE = re.compile(r"\b(?:rais|increas|extend|lengthen)\w*|\bup\s+from\b", re.IGNORECASE)
_FALL = re.compile(
    r"\b(?:lower(?:s|ed)?|reduc\w*|decreas\w*|shorten\w*|cuts?)\b|\bdown\s+from\b",
    re.IGNORECASE,
)
# What names the other side of a comparison: "… than the KB-16", "compared with the
# TX-1000", "well above the TX-1000".
_COMPARED_SIDE = re.compile(
    r"\b(?:than|against|compared (?:with|to)|versus|vs|above|below|over|under)\b", re.IGNORECASE
)
# A verdict before a colon that the figures after it back: "Less often: A every 800 h and
# B every 1,000 h".
_VERDICT_COLON = re.compile(r"^\s*(?:[\w-]+\s+){0,3}[\w-]+\s*:\s")


def _conclusion() -> re.Pattern[str]:
    """A statement that draws a conclusion from the figures before it ("so", "hence")."""
    return pattern("lexicon", "conclusion")


def subjects(e: Evidence, chunk: bool = True) -> set[str]:
    """Identifier terms of an evidence's document (title, metadata) and chunk entities."""
    doc = e.document
    words = [doc.title, *doc.metadata.values(), *(e.hit.entities if chunk else ())]
    return model_terms(terms(" ".join(words)))


# A revision named as a side: "Rev. 1", "Revision 2".
_REVISION = re.compile(r"\bRev(?:ision)?\.?\s*(\d+)\b", re.IGNORECASE)


def _mentions(side: str, e: Evidence) -> bool:
    if revision := _REVISION.fullmatch(side.strip()):
        # A revision's figures are its document's, whatever other revisions it mentions.
        number = int(revision.group(1))
        titled = _REVISION.search(e.document.title)
        return (int(titled.group(1)) if titled else e.document.version) == number
    key = set(terms(side))
    return bool(key) and (key <= subjects(e) or key <= set(terms(e.text)))


def _written_at(side: str, text: str) -> int:
    """Where ``text`` first names ``side`` however it is typed ("ac75" as "AC-75", "737"
    in "B737-800"), by its letters and digits; past the end when it does not."""
    places = [i for i, c in enumerate(text) if c.isalnum()]
    compact = "".join(text[i] for i in places).lower()
    key = "".join(c for c in side.lower() if c.isalnum())
    at = compact.find(key) if key else -1
    return places[at] if at >= 0 else len(text)


def _verdict_before_colon(text: str, word: str) -> bool:
    """Whether the comparative ``word`` is a verdict the colon after it explains."""
    verdict = _VERDICT_COLON.match(text)
    return verdict is not None and word.lower() in verdict.group(0).lower()


def relation_problem(
    s: Statement, by_number, perception: Perception, comparatives: Comparatives
) -> str | None:
    """Why "A is <comparative> than B" is not backed by the cited figures, or None."""
    found = comparatives.find(s.text)
    # "A is louder than B", or "A holds 30 and B 60, so A has the bigger magazine".
    if found is None or not (
        _COMPARED.search(s.text)
        or _conclusion().search(s.text)
        or _verdict_before_colon(s.text, found[0])
    ):
        return None
    word, direction = found
    said = [m.start() for m in re.finditer(rf"\b{word}\s+than\b", s.text, re.IGNORECASE)]
    if said and all(_BOUND.match(s.text, start) for start in said):
        return None  # "weaker than −125 Pa", "falls faster than expected"
    frequency = _FREQUENCY.search(s.text)
    if frequency:  # "more often" is the shorter interval
        word = frequency.group(0)
        direction = "lower" if frequency.group(1).lower() == "more" else "higher"
    lowered = set(terms(s.text))
    # The question's sides, else (a question naming none: "Which breaker takes longer?")
    # the things the statement itself compares.
    sides = perception.sides or _stated_sides(s.text, comparatives)
    mentioned = sorted(
        (side for side in sides if set(terms(side)) <= lowered),
        key=lambda side: _written_at(side, s.text),
    )
    if len(mentioned) < 2:
        return None
    a, b = mentioned[:2]
    # After "so"/"therefore" the comparison is about the side named there; the figures
    # before it come in the order the sides were named. "A 30, B 60, so B has the bigger"
    # says A has the smaller.
    # So it is when the comparative comes after "so" and the contrast before it ("A 720
    # rpm, while B 680 rpm, so B turns faster").
    conclusion = _conclusion().search(s.text)
    if conclusion and _COMPARED.search(s.text):
        rest = s.text[conclusion.end() :]
        if word.lower() not in rest.lower() or _COMPARED.search(rest):
            conclusion = None
    after = set(terms(s.text[conclusion.end() :])) if conclusion else set()
    turned = set(terms(b)) <= after and not set(terms(a)) <= after
    # "A takes 85 N·m, while B needs a higher 120 N·m": the word after the contrast is
    # said of the side named there.
    if not conclusion and (contrast := pattern("lexicon", "while_clause").search(s.text)):
        rest = s.text[contrast.end() :].lower()
        turned = (
            b.lower() in rest
            and a.lower() not in rest
            and word.lower() in rest
            and not re.search(r"\bthan\b", rest)  # "… while B is louder than A" names both
        )
    # "DSE-2018 … every 6 months, whereas DSE-2024 … every 3 months, so sampling is now
    # more frequent": what is now done is the later edition's.
    if conclusion and re.search(r"\bnow\b", s.text[conclusion.end() :], re.IGNORECASE):
        years = [YEAR_IN.findall(side) for side in (a, b)]
        if all(years) and int(years[1][-1]) > int(years[0][-1]):
            turned = True
    cited = [by_number[n] for n in s.citations if n in by_number]
    # The statement's own figures or words ("louder") say what is compared; else the
    # question's ("... more flow ...").
    own = tuple(q.unit for q in quantities(s.text))
    # A statement of table figures names the rows by stored values ("DELTA AIR LINES"),
    # no attribute of a document ("air" flow): its own figures say what is compared.
    tabled = bool(cited) and all(is_table_evidence(e) for e in cited)
    units = own if tabled else own + attribute_units(s.text)
    if not tabled:
        units = units or perception.constraints.units + perception.asks.attribute_units
    stated_numbers = [float(n) for n in _PLAIN_NUMBER.findall(mask_identifiers(s.text))]
    if tabled and not own:
        # "A (87 strikes) is 11 strikes higher than B (76 strikes)": the sides' counts,
        # not the days of the period the statement opens with
        undated = _ISO_DATE.sub(" ", mask_identifiers(s.text))
        stated_numbers = [float(n) for n in _PLAIN_NUMBER.findall(undated)]
        if len(stated_numbers) == 3:
            stated_numbers = _without_difference(stated_numbers)
    # "A keeps more events: 50, while B keeps 200": the figures in order. Two bare figures
    # of the statement's own are what it compares, whatever unit its words suggest ("6
    # starts per hour" are no hours).
    if not units or (not own and len(stated_numbers) == 2):
        if len(stated_numbers) != 2:
            return None
        first, second = stated_numbers
        holds = (first > second if direction == "higher" else first < second) != turned
        if holds:
            return None
        return f"'{a} {word} than {b}' contradicts the stated figures ({first:g} vs {second:g})"
    # Each side's cited figures per unit; compare in the first unit both sides have.
    figures: dict[str, dict[str, list[float]]] = {}
    for side in (a, b):
        figures[side] = {}
        for e in cited:
            if _mentions(side, e):
                for q in quantities(e.text):
                    figures[side].setdefault(q.unit, []).append(q.value)
    # A side given in another unit of the same dimension ("3.4 t" against "145 kg")
    # is compared converted.
    for side in (a, b):
        for u in units:
            if u not in figures[side]:
                converted = [
                    c
                    for other, values in figures[side].items()
                    for v in values
                    if (c := convert(v, other, u)) is not None
                ]
                if converted:
                    figures[side][u] = converted
    unit = next((u for u in units if u in figures[a] and u in figures[b]), None)
    if unit is None:
        missing = b if any(u in figures[a] for u in units) else a
        return f"'{word}' has no cited figure for {missing} to compare"
    if not frequency:  # "faster" is the shorter time, the higher speed
        direction = comparatives.direction(word, unit) or direction
    # The figures stated for the sides: before a conclusion ("…, so B allows 10 °C more").
    end = conclusion.start() if conclusion else len(s.text)
    stated = [q.value for q in quantities(s.text[:end]) if q.unit == unit]
    if len(stated) == 3:  # "A, at 12,000 L/h, has 4,000 L/h more than B at 8,000 L/h"
        stated = _without_difference(stated)
    if len(stated) == 2:  # "A is louder than B (72 vs 69 dB(A))": A's figure comes first
        for side, value in zip((a, b), stated):
            if value not in figures[side][unit]:
                return f"{value:g} {unit} is not a cited figure for {side}"
        values = dict(zip((a, b), stated))
    else:
        values = {side: figures[side][unit][0] for side in (a, b)}
    holds = (values[a] > values[b] if direction == "higher" else values[a] < values[b]) != turned
    if not holds:
        return (
            f"'{a} {word} than {b}' contradicts the cited figures ({values[a]:g} vs {values[b]:g})"
        )
    return None


_ISO_DATE = re.compile(r"\b\d{4}-\d{2}(?:-\d{2})?\b")
"""A day or month as a table statement names its period ("1993-01-01 to 1993-12-31")."""


def _without_difference(values: list[float]) -> list[float]:
    """Three figures of which one is the difference of the other two: those two."""
    for i, value in enumerate(values):
        others = values[:i] + values[i + 1 :]
        if abs(abs(others[0] - others[1]) - value) < 1e-9:
            return others
    return values


# "more than 5 s", "weaker than −125 Pa" bound a figure, and "faster than expected"
# compares with no named thing: neither compares two sides.
_BOUND = re.compile(
    rf"\b[a-z]+\s+(?:{_THAN_A_FIGURE}"
    r"|than\s+(?:(?:is|was|were|are)\s+)?(?:expected|anticipated|planned|usual|"
    r"normal|before|necessary|needed|intended|originally|previously)\b)",
    re.IGNORECASE,
)


def _stated_sides(text: str, comparatives: Comparatives) -> tuple[str, ...]:
    """The things a statement compares when the question names none ("Which breaker
    charges faster?"): the names it gives, when it states one comparison and no bound
    ("… for more than 5 s"); else none."""
    plain = strip_citations(text)
    words = {w for w in re.findall(r"[a-z]+", plain.lower()) if w in comparatives.words}
    if len(words) != 1 or _BOUND.search(plain):
        return ()
    names = tuple(dict.fromkeys(plain[a:b] for _, a, b in identifiers(plain)))
    if len(names) >= 2:
        return names
    # Two revisions of one document compared ("Rev. 1 runs at 720 rpm, Rev. 2 at 680").
    revisions = {int(m.group(1)): m.group(0) for m in _REVISION.finditer(plain)}
    return tuple(revisions.values()) if len(revisions) >= 2 else names


def change_problem(s: Statement) -> str | None:
    """Why "raises X to A, up from B" (or "extends X from B to A") has the wrong direction."""
    rise, fall = _RISE.search(s.text), _FALL.search(s.text)
    change = rise or fall
    if change is None or (rise and fall):  # no change stated, or both ways: nothing to check
        return None
    # Figures with units, else bare ones: "… now at 8 broken wires, compared with 10". A
    # time is shortened or lengthened, not the pressure it is reached at ("reach 9 bar
    # from 0 bar within 12 minutes; … shortened this to 10 minutes").
    timed = _TIMED.search(change.group(0))
    stated = [q for q in quantities(s.text) if not timed or dimension(q.unit) == "duration"] or [
        Quantity(value, "", start, end) for value, start, end in number_spans(s.text)
    ]
    pairs = [(p, q) for p, q in zip(stated, stated[1:]) if p.unit == q.unit]
    if not pairs:
        return None
    first, second = pairs[0]
    between = s.text[first.end : second.start].lower()
    now = re.search(r"\bnow\b", s.text[: first.start], re.IGNORECASE)
    verb = change.start() < first.start
    # "lowered it to A, compared with B" reads the new figure first; "lowered: the 2016
    # edition gave A, while the 2021 edition gives B" tells each in its turn.
    if _in_turn(s.text, first, second):
        old, new = first.value, second.value
    elif re.search(r"\bfrom\b", between) or ((now or verb) and _COMPARED.search(between)):
        # "to A, up from B", "now A, versus B", "lowered it to A, compared with B"
        new, old = first.value, second.value
    elif re.search(r"\bto\b", between) and re.search(r"\bfrom\s*$", s.text[: first.start].lower()):
        old, new = first.value, second.value  # "from B to A"
    else:
        return None
    said = "raises" if rise else "lowers"
    if (new > old) == bool(rise) or new == old:
        return None
    return f"'{said}' contradicts the figures: {old:g} {first.unit} before, {new:g} after"


def _in_turn(text: str, first: Quantity, second: Quantity) -> bool:
    """Whether the two figures are told in the order of their editions or revisions: a
    year or revision number before the first, and a later one between them ("the 2016
    edition gave 20 m/s [1], while the 2021 edition gives 18 m/s", "Rev. 1 … Rev. 2")."""
    before, between = text[: first.start], text[first.end : second.start]
    for label in (YEAR_IN, _REVISION):
        earlier, later = label.findall(before)[-1:], label.findall(between)[:1]
        if earlier and later and int(earlier[0]) < int(later[0]):
            return True
    return False


def frequency_problem(s: Statement, perception: Perception) -> str | None:
    """Why "X is done more often, every 3000 h, compared with every 2000 h" is wrong:
    more often is the shorter interval (first figure: the subject's; the later
    edition's in a change told in turn that says what is "now" done). Other comparisons
    of the question's sides are checked by ``relation_problem`` instead."""
    frequency = _FREQUENCY.search(s.text)
    if frequency is None or not _COMPARED.search(s.text):
        return None
    stated = sorted(quantities(s.text) + _period_words(s.text), key=lambda q: q.start)
    # "every 12 months, compared with every 2 years": compared in the first one's unit.
    pairs = [
        (p, then)
        for p, q in zip(stated, stated[1:])
        if (then := convert(q.value, q.unit, p.unit)) is not None
    ]
    if not pairs or pairs[0][0].value == pairs[0][1]:
        return None
    first, second = pairs[0]
    mine, other = first.value, second
    # "… 2018 required every 6 months, whereas 2024 requires every 3 months, so sampling
    # is now less frequent": what is now done is the later edition's.
    later = stated[stated.index(first) + 1]
    if _in_turn(s.text, first, later) and re.search(r"\bnow\b", s.text[later.end :], re.I):
        mine, other = other, mine  # a change, whatever sides the question compares
    elif perception.route == Route.COMPARISON:
        return None
    more = frequency.group(1).lower() == "more"
    if (mine < other) == more:
        return None
    return (
        f"'{frequency.group(0)}' contradicts the figures: every {mine:g} {first.unit} "
        f"against every {other:g} {first.unit}"
    )


def concluded_frequency_problem(s: Statement) -> str | None:
    """Why "… every 6 months and the door check every 3 months, so the thermometric test
    is done more often" is wrong: the conclusion's subject is the thing whose words stand
    before one of the two figures, and more often is the shorter interval."""
    conclusion = _conclusion().search(s.text)
    frequency = _FREQUENCY.search(s.text, conclusion.end()) if conclusion else None
    if conclusion is None or frequency is None or _COMPARED.search(s.text):
        return None
    before = strip_citations(s.text[: conclusion.start()])
    stated = sorted(quantities(before) + _period_words(before), key=lambda q: q.start)
    if (
        len(stated) != 2
        or (second := convert(stated[1].value, stated[1].unit, stated[0].unit)) is None
    ):
        return None
    # The conclusion's subject, without the words that say nothing of what it is about.
    subject = set(terms(s.text[conclusion.end() : frequency.start()])) - term_set("state_words")
    # Each figure's own words: from the previous figure (or the start) up to it.
    owners = [
        set(terms(before[: stated[0].start])),
        set(terms(before[stated[0].end : stated[1].start])),
    ]
    shared = [len(subject & own) for own in owners]
    if shared[0] == shared[1] or stated[0].value == second:
        return None
    mine, other = (stated[0].value, second) if shared[0] > shared[1] else (second, stated[0].value)
    more = frequency.group(1).lower() == "more"
    if (mine < other) == more:
        return None
    return (
        f"'{frequency.group(0)}' contradicts the figures: every {mine:g} against every "
        f"{other:g} {stated[0].unit}"
    )


# "45 s …, which is slower than braking, which takes 50 s": a comparative word before "than".
_THAN = re.compile(r"\b([a-z]+)\s+(than)\b", re.IGNORECASE)


def inline_comparison_problem(s: Statement, comparatives: Comparatives) -> str | None:
    """Why "The CR-22 takes 45 s to accelerate, which is slower than braking, which takes
    50 s" is wrong: the statement's first figure is compared, by the word before "than",
    with the first figure after it in the same dimension."""
    text = strip_citations(s.text)
    for m in _THAN.finditer(text):
        word = m.group(1).lower()
        if word not in comparatives.words or _THAN_FIGURE.match(text, m.start(2)):
            continue  # "warmer than 3 °C", "more than 50 s": a bound, not a comparison
        stated = quantities(text)
        first = next((q for q in stated if q.end <= m.start()), None)
        if first is None:
            continue
        after = [
            (q, value)
            for q in stated
            if q.start >= m.end() and (value := convert(q.value, q.unit, first.unit)) is not None
        ]
        if not after or after[0][1] == first.value:
            continue
        direction = comparatives.direction(word, first.unit)
        if (first.value > after[0][1]) == (direction == "higher"):
            continue
        return (
            f"'{m.group(0)}' contradicts the figures: {first.value:g} {first.unit} against "
            f"{after[0][0].value:g} {after[0][0].unit}"
        )
    return None


def stated_figures(text: str) -> list[Quantity]:
    """The quantities ``text`` states, with the intervals its period words name
    ("monthly": 1 month)."""
    return quantities(text) + _period_words(text)


def _period_words(text: str) -> list[Quantity]:
    """The intervals that "monthly", "quarterly" … name, as quantities."""
    return [
        Quantity(*_PERIODS[m.group(0).lower()], m.start(), m.end()) for m in _PERIOD.finditer(text)
    ]


# What makes a number a label rather than a figure: "Rev. 2", "Section 4", "the 2017 code".
_LABELLED = re.compile(
    r"(?:\b[A-Z][a-z]{0,5}\.|\b(?i:rev|revision|edition|version|section|clause|part|no))\s*$"
)


def single_figure_comparison(
    asks: Asks, answer: str, compared: bool, comparatives: Comparatives, *, ordered: bool = False
) -> str | None:
    """Why an answer to a two-sided question ("Is A louder or quieter than B?", "Does A
    or B need it more often?", "Which is faster, A or B?": ``asks.choice``) states a
    comparison on fewer than two figures, or None: "More often: Rev. 2 asks for every 4
    months [1], shorter than Rev. 1" gives Rev. 1 no figure. ``compared``: the question
    was read as a comparison of named sides. ``ordered``: the question itself asks which
    side is more ("which holds more, A or B?"), so an answer giving one side's figure and
    no comparison ("A holds 14 litres") has not answered it either."""
    if not (compared or asks.choice):
        return None
    text = strip_citations(answer)
    compares = comparatives.find(text) or _FREQUENCY.search(text) or _above_a_name(text)
    if not compares:
        if not ordered:
            return None
        # No comparison stated: the figures it gives, whatever they are figures of ("from
        # 500 to 400 h" is two), are all it gives to choose by.
        found = quantities(text) + _period_words(text)
        given: set[tuple[float, str | None]] = {(q.value, q.unit) for q in found}
        # "every month" is one month
        given |= {(1.0, m.group(1).lower()) for m in _EVERY_UNIT.finditer(text)}
        # and the numbers in no unit it knows ("±2 mL", "1,500 spindle hours")
        masked = mask_identifiers(text)
        taken = [(q.start, q.end) for q in found]
        given |= {
            (value, None)
            for value, start, end in number_spans(text)
            if not any(a <= start < b for a, b in taken)
            and not YEAR.match(masked[start:end])
            and not _LABELLED.search(masked[:start])
            and not _DESIGNATION_END.search(masked[:start])
        }
        if len(given - set(asks.quantities)) >= 2:
            return None
        return "the question asks which is more; the answer gives one figure and compares nothing"
    masked = mask_identifiers(text)
    # A figure the question states is where or how both are measured ("louder at 1 m"),
    # no side's figure.
    # So is a figure after another one's "at" ("78 dB(A) at 1 m", "90 kW at 80 °C").
    found = quantities(text)
    # So are the ends of a span it is measured over ("from 20 °C to 0 °C").
    conditions = (
        set(asks.quantities)
        | {
            (q.value, q.unit)
            for before, q in zip(found, found[1:])
            if _AT.match(masked[before.end : q.start])
        }
        | {
            (q.value, q.unit)
            for first, second in zip(found, found[1:])
            if _FROM.search(masked[: first.start]) and _TO.match(masked[first.end : second.start])
            for q in (first, second)
        }
    )
    stated: set[tuple[float, str | None]] = set(
        {(q.value, q.unit) for q in found + _period_words(text)} - conditions
    )
    taken = [(q.start, q.end) for q in quantities(text) + _period_words(text)]
    for value, start, end in number_spans(text):
        number = masked[start:end]
        if any(a <= start < b for a, b in taken) or YEAR.match(number):
            continue
        if not _LABELLED.search(masked[:start]):
            stated.add((value, None))
    if len(stated) >= 2:
        return None
    return "the comparison gives a figure for one side only"


_AT = re.compile(r"^\s*(?:measured\s+)?at\s*$", re.IGNORECASE)
# The end of a designation a number belongs to: "5W-40" (an oil grade) is no figure.
_DESIGNATION_END = re.compile(r"\d[A-Za-z]-$")
_FROM = re.compile(r"\bfrom\s+$", re.IGNORECASE)
_TO = re.compile(r"^\s*to\s*$", re.IGNORECASE)
_THAN_FIGURE = re.compile(rf"\b{_THAN_A_FIGURE}", re.IGNORECASE)
# "well above the XR-40's …", "below that of the KB-16": a position relative to a named
# thing compares with it (relative to a figure, "above 5 bar", it is a bound).
_ABOVE = re.compile(
    r"\b(?:above|below|exceeds?|exceeding)\s+(?:that\s+of\s+)?(?:the\s+)?", re.IGNORECASE
)


def _above_a_name(text: str) -> bool:
    starts = {a for _, a, _ in identifiers(text)}
    return any(m.end() in starts for m in _ABOVE.finditer(text))


def one_sided(statements: Sequence[Statement], comparatives: Comparatives) -> str | None:
    """The side of a comparison that no figure of the answer is given for, or None:
    "The KB-25 allows 2.5 mm [1], more than the KB-16" compares two models with one
    figure. The side missing is the one no figure is bound to."""
    given: set[str] = set()
    stated: set[tuple[float, str | None]] = set()
    compared: list[str] = []
    for s in statements:
        text = strip_citations(s.text)
        for f in figures(text):
            stated.add((f.value, f.unit))
            if (entity := binding(text, f.start, f.start + 1).entity) is not None:
                given.add(entity)
        names = list(dict.fromkeys(n for n, _, _ in identifiers(text)))
        # "more than 110 °C" bounds a figure; it compares no sides.
        unbounded = _BOUND.sub(" ", text)
        if len(names) >= 2 and comparatives.find(unbounded) and _COMPARED_SIDE.search(unbounded):
            compared += names
    sides = list(dict.fromkeys(compared))
    if not sides or len(stated) >= len(sides):
        return None
    missing = next((n for n in sides if n not in given), sides[-1])
    return f"no figure is given for {missing.upper()}, the other side"


# Superlatives and the order of a table query's rows they name the first of.
_SUPERLATIVES = {
    **dict.fromkeys(["highest", "most", "largest", "biggest", "greatest", "top"], "DESC"),
    **dict.fromkeys(["lowest", "least", "fewest", "smallest", "bottom"], "ASC"),
}
_ORDERED = re.compile(r'ORDER BY "value" IS NULL, "value" (ASC|DESC)')


def ranking_problem(s: Statement, evidence: Sequence[Evidence]) -> str | None:
    """Why "the CP-350 had the highest shortage rate" is not the first row of the ranked
    table result the answer draws on, or None. A table's rows are evidence in the query's
    order; "highest" names the first row of a descending query, "lowest" its last."""
    word = next((w for w in re.findall(r"[a-z]+", s.text.lower()) if w in _SUPERLATIVES), None)
    rows = sorted(
        (e for e in evidence if is_table_evidence(e) and _ORDERED.search(e.query)),
        key=lambda e: e.hit.position,
    )
    if word is None or len(rows) < 2:
        return None
    order = _ORDERED.search(rows[0].query)
    assert order is not None
    named = {n for n, _, _ in identifiers(strip_citations(s.text))}
    if not named:
        return None
    first = rows[0] if _SUPERLATIVES[word] == order.group(1) else rows[-1]
    theirs = {n for n, _, _ in identifiers(first.text)}
    if named & theirs or not any(named & {n for n, _, _ in identifiers(e.text)} for e in rows):
        return None
    said, top = (", ".join(sorted(n.upper() for n in ns)) for ns in (named, theirs))
    where = "first" if first is rows[0] else "last"
    return f"'{word}' names {said}, but the table's {where} row is {top}"


# -- the checks ------------------------------------------------------------------------
@check(Check.CONSISTENCY, Scope.STATEMENT, rules=("relations.comparative",))
def comparative(answer: AnswerModel, s: StatementModel) -> Iterator[Finding]:
    comparatives = answer.judges.attributes.comparatives
    if problem := relation_problem(s.drafted, answer.by_number, answer.perception, comparatives):
        yield _relation("relations.comparative", problem, s)


@check(Check.CONSISTENCY, Scope.STATEMENT, rules=("relations.ranking",))
def ranking(answer: AnswerModel, s: StatementModel) -> Iterator[Finding]:
    if problem := ranking_problem(s.drafted, tuple(answer.by_number.values())):
        yield _relation("relations.ranking", problem, s)


@check(Check.CONSISTENCY, Scope.STATEMENT, rules=("relations.change",))
def change(answer: AnswerModel, s: StatementModel) -> Iterator[Finding]:
    if problem := change_problem(s.drafted):
        yield _relation("relations.change", problem, s)


@check(Check.CONSISTENCY, Scope.STATEMENT, rules=("relations.frequency",))
def frequency(answer: AnswerModel, s: StatementModel) -> Iterator[Finding]:
    if problem := frequency_problem(s.drafted, answer.perception):
        yield _relation("relations.frequency", problem, s)


@check(Check.CONSISTENCY, Scope.STATEMENT, rules=("relations.concluded_frequency",))
def concluded_frequency(answer: AnswerModel, s: StatementModel) -> Iterator[Finding]:
    if problem := concluded_frequency_problem(s.drafted):
        yield _relation("relations.concluded_frequency", problem, s)


@check(Check.CONSISTENCY, Scope.STATEMENT, rules=("relations.inline",))
def inline(answer: AnswerModel, s: StatementModel) -> Iterator[Finding]:
    if problem := inline_comparison_problem(s.drafted, answer.judges.attributes.comparatives):
        yield _relation("relations.inline", problem, s)


def _relation(rule: str, problem: str, s: StatementModel) -> Finding:
    return Finding(rule, IssueKind.UNSUPPORTED_RELATION, problem, s.text)
