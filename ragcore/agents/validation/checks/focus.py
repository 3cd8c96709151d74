"""Whether an answer gives what the question asks for: its focus (read by perception:
"What is the lift height of the OH-10?" asks for the lift height; "How often must the
gearbox oil be changed?" about the gearbox oil), the measure its form wants (how often,
how long it takes, how many), and the kind of thing it names. An answer that names none
of the focus words, gives no figure first and addresses no attribute named by them
answers something else ("The OH-10 has a span of 18 m").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from ragcore.agents.answer_types.focus import in_spelled_unit, off_focus, terse
from ragcore.agents.attributes import Attribute, addresses
from ragcore.agents.evidence import is_table_evidence
from ragcore.agents.perception.asks import AnswerType, Asks, Measure
from ragcore.agents.reading import term_set, word_pairs
from ragcore.agents.validation.checks.relations import subjects
from ragcore.agents.validation.model import AnswerModel
from ragcore.agents.validation.registry import Finding, Scope, check
from ragcore.text.citations import strip_citations
from ragcore.text.families import families, in_family
from ragcore.text.identifiers import CODE_TERM
from ragcore.text.quantities import (
    YEAR,
    mask_identifiers,
    number_spans,
    quantities,
    word_number_spans,
)
from ragcore.text.terms import STOPWORDS, model_terms, terms
from ragcore.text.units import dimension
from ragcore.types import Check, IssueKind, Route

# "How often …?" is answered by a frequency: "every 500 h", "monthly", "twice a year",
# "6,000 h or 12 months, whichever comes first" — not by "72 h of back-up".
_FREQUENCY = re.compile(
    r"\b(?:every|each|per|once|twice|thrice|times\s+a|a\s+(?:day|week|month|year|shift)|"
    r"intervals?|annual(?:ly)?|daily|weekly|monthly|quarterly|yearly|hourly|fortnightly|"
    r"whichever|biennial(?:ly)?|continuous(?:ly)?)\b",
    re.IGNORECASE,
)


def no_frequency(asks: Asks, answer: str) -> str | None:
    """Why ``answer`` does not say how often, when the question asks it, or how often
    something else is done; else None."""
    if asks.measure != Measure.FREQUENCY:
        return None
    if not _FREQUENCY.search(answer):
        return "the question asks how often; the answer gives no interval or frequency"
    # "How often must the cylinders be hydrostatically tested?" is not answered by how
    # often they are checked: a qualified action must be named by one of its words.
    done = asks.done
    if done and done.how_often and len(done.terms) >= 2 and not terse(answer):
        said = families(terms(answer))
        if not any(in_family(t, said) for t in done.terms):
            return f"the question asks how often it is {done.verb}; the answer names no such thing"
    return None


def no_duration(asks: Asks, answer: str) -> str | None:
    """Why ``answer`` gives no time when the question asks how long something takes."""
    if asks.measure == Measure.DURATION and not any(
        dimension(q.unit) == "duration" for q in quantities(answer)
    ):
        return "the question asks how long it takes; the answer gives no time"
    return None


# "How many knives does the GR-450 have?" asks for a count: a figure with a unit
# ("380 rpm") is a measure of something else, unless the question names the unit
# ("How many hours …?") or asks how many times something is done.
def no_count(asks: Asks, answer: str) -> str | None:
    """Why ``answer`` gives no count when the question asks how many, else None: all its
    figures are measures in a unit."""
    if asks.measure != Measure.COUNT or asks.units or not quantities(answer):
        return None
    masked = mask_identifiers(answer)
    taken = [(q.start, q.end) for q in quantities(answer)]
    bare = [
        start
        for _, start, end in number_spans(masked) + word_number_spans(masked)
        if not any(a <= start < b for a, b in taken) and not YEAR.match(masked[start:end])
    ]
    if not bare:
        return "the question asks how many; the answer gives only measures"
    return _counts_another(asks, masked, bare)


def _counts_another(asks: Asks, masked: str, bare: Sequence[int]) -> str | None:
    """Why no bare number of ``masked`` (the answer, identifiers masked; ``bare``: where
    its bare numbers start) counts what the question asks the number of, or None: "How
    many blades does its fan have?" is not answered by "from 750 to 500 flight cycles",
    nor "How many fan blades …?" by "the turbine stage 1 blades" (a number after a word
    of ``lexicon.number_labels`` names a stage, it counts nothing). A number counts the
    asked thing when a word of it follows within a few words, in its clause ("24
    spiral-wound 8-inch elements", "40 × 12 V VRLA blocks"); a number that ends its
    clause ("It has 18.") stands for it."""
    counted, written = _counted(asks)
    if not counted:
        return None
    labels = term_set("number_labels")
    for start in bare:
        number = _NUMBER.match(masked, start)
        end = number.end() if number else start
        if start and _NUMBER_IN_CODE.match(masked, start - 1) or _NUMBER_IN_CODE.match(masked, end):
            continue  # "03" of "AD 2025-03-11"
        before = terms(masked[max(0, start - 30) : start])
        if before and before[-1] in labels:
            continue  # "stage 1 blades"
        clause = _CLAUSE_BREAK.split(masked[end:], maxsplit=1)[0]
        if not clause.strip():
            return None
        following = [t for t in terms(clause) if not t[:1].isdigit()][:_COUNTED_WITHIN]
        if any(_same(t, c) for t in following for c in counted):
            return None
    return f"the question asks how many {written}; no number of the answer counts them"


# A number as written ("24", "1,200", "2.5"), the clause after it, and a number within a
# code ("2025-03-11"); the counted noun comes within a few words ("24 spiral-wound 8-inch
# elements").
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_CLAUSE_BREAK = re.compile(r"[.;:!?,()](?:\s|$)|[;:!?,()]")
_NUMBER_IN_CODE = re.compile(r"[-/]\d")
_COUNTED_WITHIN = 4


def _counted(asks: Asks) -> tuple[list[str], str]:
    """The terms of what a how-many question counts, its head noun last, and the words
    as written: the focus of its form ("How many knives does …" → knives), else the
    words after "how many" ("how many fan blades on …" → fan, blades)."""
    if asks.focus is not None and asks.focus.wanted:
        wanted = [t for t in terms(asks.focus.phrase) if t in asks.focus.wanted]
        return wanted, asks.focus.phrase
    chain: list[tuple[str, str]] = []
    for modifier, head, phrase in asks.pairs:
        if (not chain and modifier == "many") or (chain and modifier == chain[-1][0]):
            chain.append((head, phrase.split()[-1]))
        elif chain:
            break
    generic = term_set("generic")
    kept = [(t, w) for t, w in chain if t not in generic and t not in STOPWORDS]
    return [t for t, _ in kept], " ".join(w for _, w in kept)


# The label of a data line: "- Lift motor: 18 kW", "**Winding temperature alarm:** 105 °C".
_LABEL = re.compile(r"^\s*(?:[-*•]\s*)?(?:\*\*)?([A-Za-z][^:\n]{2,60}?)(?:\*\*)?:", re.MULTILINE)


def _labels(text: str) -> list[str]:
    return _LABEL.findall(text)


def _lines(text: str) -> list[tuple[str, str]]:
    """Each data line of ``text`` as its label and what follows the label on its line."""
    return [(m.group(1), text[m.end() :].split("\n", 1)[0]) for m in _LABEL.finditer(text)]


def _same(a: str, b: str) -> bool:
    return in_family(a, families([b]))


def other_kind(asks: Asks, answer: str, sources: Sequence[str]) -> str | None:
    """Why ``answer`` gives another kind of the thing asked about, or None: "the winding
    temperature alarm" answered with "the top-oil temperature alarm", "the lift motor"
    with "the drive motors". Read only where the cited sources label data lines with
    both kinds ("- Lift motor: 18 kW", "- Drive motors: 2 x 7 kW"): a paraphrase
    ("sound pressure level" for "noise level") or a describing word ("the lower guard")
    is not another kind; nor are generic words ("rated", "maximum")."""
    said = families(terms(answer))
    answered = word_pairs(answer)
    named = [pair for source in sources for label in _labels(source) for pair in word_pairs(label)]
    asked_terms = asks.terms
    stated = {(q.value, q.unit) for q in quantities(answer)}
    generic = term_set("generic")
    for modifier, head, asked in asks.pairs:
        if modifier in generic or in_family(modifier, said):
            continue
        if not any(_same(m, modifier) and _same(h, head) for m, h, _ in named):
            continue
        # The answer's figure is the value of a line labelled with another kind of the
        # head ("Full clamping pressure: 180 bar" for the residual pressure), unless the
        # asked kind's line gives the same figure ("Hardwood dust: 5 mg/m³", "Softwood
        # dust: 5 mg/m³").
        lines = [(terms(label), label, value) for s in sources for label, value in _lines(s)]
        own = {
            (q.value, q.unit)
            for label_terms, _, value in lines
            if any(_same(t, head) for t in label_terms)
            and any(_same(t, modifier) for t in label_terms)
            for q in quantities(value)
        }
        for label_terms, label, value in lines:
            if (
                any(_same(t, head) for t in label_terms)
                # a label the question spells out is what it asks for
                and not set(label_terms) - STOPWORDS - generic <= asked_terms
                and not any(_same(t, modifier) for t in label_terms)
                and (stated - own) & {(q.value, q.unit) for q in quantities(value)}
            ):
                return (
                    f"the question asks about the {asked}; the answer gives the "
                    f"{label.strip().lower()}"
                )
        for other, thing, given in answered:
            if (
                _same(thing, head)
                and other not in generic
                and other not in asked_terms
                and not _same(other, modifier)
                and any(_same(m, modifier) and _same(h, head) for m, h, _ in named)
                and any(_same(m, other) and _same(h, head) for m, h, _ in named)
            ):
                return f"the question asks about the {asked}; the answer gives the {given}"
    return None


# -- the checks ------------------------------------------------------------------------
@check(
    Check.CONSISTENCY,
    Scope.ANSWER,
    rules=(
        "focus.attribute",
        "focus.phrase",
        "focus.frequency",
        "focus.duration",
        "focus.count",
        "focus.unbacked_attribute",
    ),
)
def what_is_asked(answer: AnswerModel) -> Iterator[Finding]:
    """The answer gives an asked attribute (``rules/attributes.toml``), else the focus of
    the question's form and the measure it asks for; an attribute without units that
    it gives is spoken of by a cited source."""
    asks = answer.asks
    # A yes/no question ("Can the BC-9 drive a DP-24 at its full rated output?") asks
    # whether, and a why-question for a reason, not for the attribute it names.
    asked = () if asks.whether else asks.attributes
    if in_spelled_unit(asks, answer.draft.text):
        asked = ()  # "… in m³/h?" is answered in m³/h, whatever the attribute's words
    if answer.cited and all(is_table_evidence(e) for e in answer.cited):
        # a table's figure is of the measure its query read from the question's own
        # words ("cost" → issue value); a document attribute ("price") does not judge it
        asked = ()
    statements = answer.draft.statements
    if not any(addresses(asked, _without_compounds(s.text), asks.terms) for s in statements):
        names = " or ".join(a.name for a in asked)
        message = f"the question asks for the {names}; the answer gives none"
        yield Finding("focus.attribute", IssueKind.OFF_QUESTION, message)
    else:  # an answer that gives none of the asked attributes is off the question already
        if reason := _off_focus(answer):
            yield Finding("focus.phrase", IssueKind.OFF_QUESTION, reason)
        text = strip_citations(answer.draft.text)
        for rule, measure in (
            ("focus.frequency", no_frequency),
            ("focus.duration", no_duration),
            ("focus.count", no_count),
        ):
            if reason := measure(asks, text):
                yield Finding(rule, IssueKind.OFF_QUESTION, reason)
    if unbacked := _unbacked_attribute(asked, answer):
        yield Finding("focus.unbacked_attribute", IssueKind.UNSUPPORTED_CLAIM, unbacked)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("focus.contrast",))
def the_asked_side(answer: AnswerModel) -> Iterator[Finding]:
    """ "The low-pressure cutout" is not answered with the high-pressure one."""
    attributes = answer.judges.attributes
    if contrast := attributes.contrast(answer.asks.terms, answer.draft.text):
        message = (
            f"the question asks about the {contrast[0]} one; the answer is about {contrast[1]}"
        )
        yield Finding("focus.contrast", IssueKind.OFF_QUESTION, message)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("focus.other_kind",))
def the_asked_kind(answer: AnswerModel) -> Iterator[Finding]:
    cited = [e.text for e in answer.cited]
    if kind := other_kind(answer.asks, strip_citations(answer.draft.text), cited):
        yield Finding("focus.other_kind", IssueKind.OFF_QUESTION, kind)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("focus.other_subject",))
def the_asked_subject(answer: AnswerModel) -> Iterator[Finding]:
    """The answer is about the code or model the question names. Codes must match by
    name ("E03?" answered with E07); a model may also be named by the cited documents'
    titles ("5W-40 oil" cited from the GX-500 manual is about it)."""
    asked = set(model_terms(terms(" ".join(answer.perception.identifiers))))
    said = model_terms(terms(answer.draft.text))
    documents = set().union(*(subjects(e, chunk=False) for e in answer.cited))
    for kind, is_code, also in (("code", True, set()), ("model", False, documents)):
        wanted = {i for i in asked if bool(CODE_TERM.match(i)) == is_code}
        given = {i for i in said if bool(CODE_TERM.match(i)) == is_code}
        if wanted and given and not wanted & (given | also):
            message = (
                f"the question asks about the {kind} {', '.join(sorted(wanted)).upper()}; "
                f"the answer names {', '.join(sorted(given)).upper()}"
            )
            yield Finding("focus.other_subject", IssueKind.OFF_QUESTION, message)
            return


# A hyphenated compound before a noun describes the noun: a "variable-speed drive" or a
# "high-pressure hose" gives no speed or pressure.
_COMPOUND = re.compile(r"\b[A-Za-z]+-[A-Za-z]+\b(?=\s+[A-Za-z])")


def _without_compounds(text: str) -> str:
    """``text`` with its hyphenated compound modifiers blanked (figures kept)."""
    return _COMPOUND.sub(lambda m: " " * len(m.group(0)), text)


def _off_focus(answer: AnswerModel) -> str | None:
    """An attribute the table does not list, read from the question's form ("What
    payload can the RB-12 carry?"); not for yes/no, why, comparison or change questions,
    questions for a code's meaning or a part number, nor for answers from a table (its
    query names what was asked)."""
    if _off_focus_skipped(answer):
        return None
    return off_focus(answer.asks, strip_citations(answer.draft.text))


def _off_focus_skipped(answer: AnswerModel) -> bool:
    perception = answer.perception
    if answer.asks.whether or perception.route == Route.COMPARISON:
        return True
    if answer.asks.answer_type in (AnswerType.MEANING, AnswerType.PART_NUMBER):
        return True  # the kind check judges these: "P/N 88-2041-09" names no "part number"
    return perception.constraints.history or any(is_table_evidence(e) for e in answer.cited)


def _unbacked_attribute(asked: Sequence[Attribute], answer: AnswerModel) -> str | None:
    """Why the answer gives an asked attribute without units (colour, maker, warranty)
    that none of its cited sources speaks of, or None: such a value is no figure that
    the source check would compare ("supplied painted in safety yellow")."""
    by_number = answer.by_number
    for attribute in asked:
        if attribute.units:
            continue
        for s in answer.draft.statements:
            cited = [by_number[n] for n in s.citations if n in by_number]
            if (
                cited
                and attribute.addressed_by(strip_citations(s.text))
                and not any(attribute.addressed_by(f"{e.document.title} {e.text}") for e in cited)
            ):
                return f"the answer gives the {attribute.name}; no cited source speaks of it"
    return None
