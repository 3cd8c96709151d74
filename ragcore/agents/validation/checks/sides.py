"""Consistency of a comparison: it cites data for every side the question names, gives
a figure for each side it compares, and two figures when the question asks to choose; a
question naming several models answers each; a follow-up's answer is about the thing the
follow-up named, not the previous turn's."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ragcore.agents.answer_types import unmet
from ragcore.agents.evidence import Statement
from ragcore.agents.perception.asks import AnswerType, answers_part
from ragcore.agents.reading import identifiers, term_set
from ragcore.agents.validation.asked import names_model
from ragcore.agents.validation.checks.relations import (
    one_sided,
    single_figure_comparison,
    stated_figures,
    subjects,
)
from ragcore.agents.validation.figures import family
from ragcore.agents.validation.model import AnswerModel
from ragcore.agents.validation.registry import Finding, Scope, check
from ragcore.text.citations import strip_citations
from ragcore.text.identifiers import CODE_TERM
from ragcore.text.quantities import mask_quantities, numbers
from ragcore.text.terms import STOPWORDS, model_terms, terms
from ragcore.text.units import dimension
from ragcore.types import Action, Check, IssueKind, Route


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("sides.missing",))
def every_side(answer: AnswerModel) -> Iterator[Finding]:
    dimensions = _compared_dimensions(answer)
    for side in _sides(answer):
        if not any(_has_data_for(side, s, answer, dimensions) for s in answer.draft.statements):
            what = "figure" if _of_figures(answer) else "answer"
            yield Finding(
                "sides.missing", IssueKind.MISSING_SIDE, f"no cited {what} for {side}", entity=side
            )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("sides.one_sided", "sides.single_figure"))
def figures_for_both(answer: AnswerModel) -> Iterator[Finding]:
    comparatives = answer.judges.attributes.comparatives
    if missing := one_sided(answer.draft.statements, comparatives):
        yield Finding("sides.one_sided", IssueKind.MISSING_SIDE, missing)
    compared = bool(_sides(answer))
    ordered = answer.perception.orders_sides
    if single := single_figure_comparison(
        answer.asks, answer.draft.text, compared, comparatives, ordered=ordered
    ):
        yield Finding("sides.single_figure", IssueKind.MISSING_SIDE, single)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("sides.one_source",))
def both_sides_sourced(answer: AnswerModel) -> Iterator[Finding]:
    """A question asking which of two is more whose sides perception could not name
    ("which gets looked at more often, this or the leap fan blades?") is not answered
    from one document that compares nothing and names one model at most: the figures it
    gives ("from 750 to 500 flight cycles") are one side's, however many. A brochure's
    "the VF-20, at 93.0 % against 91.5 % for the VF-10" names both; a question about
    versions (history) is answered by one document's change."""
    perception = answer.perception
    if not perception.orders_sides or perception.asked_sides or perception.constraints.history:
        return
    if not answer.draft.statements:
        return
    text = strip_citations(answer.draft.text)
    if answer.judges.attributes.comparatives.find(text):
        return
    if len({e.document.id for e in answer.cited}) == 1 and len(_models_named(text)) < 2:
        yield Finding(
            "sides.one_source",
            IssueKind.MISSING_SIDE,
            "the question asks which of two is more; the answer cites one document and "
            "compares nothing",
        )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("sides.same_thing",))
def same_thing_of_each(answer: AnswerModel) -> Iterator[Finding]:
    """A question asking the same of several models ("grease interval + amount for
    cp-200 and cp-350") is answered with the same thing of each: when one side's
    statements say a word of what the question asks about (its content words before the
    sides that are no model, attribute or question word: "grease") and another side's
    never do, that
    side was answered with something else of it ("cp-200: … the seal interval was
    shortened …")."""
    perception = answer.perception
    sides = perception.asked_sides or answer.asks.side_by_side
    if len(sides) < 2 or not answer.draft.statements:
        return
    if perception.orders_sides or perception.action == Action.COMPARE:
        return  # a comparison is judged by the figures compared (``every_side``)
    if answer.asks.answer_type not in _THING_VALUES:
        return  # what a code means on each ("What does E-14 mean on …") is no thing
    thing = _asked_thing(answer, sides)
    if not thing:
        return
    if (by_side := _statements_by_side(answer, sides)) is None:
        return
    said = {
        side: set().union(*(set(terms(s.text)) for s in about)) & thing
        for side, about in by_side.items()
    }
    for side in sides:
        others = set().union(*(said[o] for o in sides if o != side))
        if missing := others - said[side]:
            written = perception.written_as(missing)
            yield Finding(
                "sides.same_thing",
                IssueKind.OFF_QUESTION,
                f"the answer for {side} never says {', '.join(dict.fromkeys(written))}, which "
                "it says for the other side: it may be about something else of it",
                entity=side,
            )
            return


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("sides.each_answered",))
def each_side_answered(answer: AnswerModel) -> Iterator[Finding]:
    """A question asking the same of several models ("oil intervals for the gx500 and the
    ac-110") is answered for each with what it asks of the asked thing: one clause of a
    side's statements says the thing ("oil") and gives what is asked
    (``answer_types.unmet``: a figure, a part number). A side whose clause with a figure
    is about another thing ("AC-110: Drain the condensate from the receiver tank daily
    and check the oil level") was not answered while another side was: the answer is
    one side's, not ``ok``. (A comparison's figures are ``every_side``'s.)"""
    perception = answer.perception
    sides = perception.asked_sides or answer.asks.side_by_side
    if len(sides) < 2 or not answer.draft.statements or _of_figures(answer):
        return
    if answer.asks.answer_type not in _THING_VALUES:
        return
    if answer.asks.answer_type == AnswerType.PART_NUMBER:
        return  # each side's part number is ``answer_type.part_number``'s
    thing = _asked_thing(answer, sides)
    if not thing:
        return
    if (by_side := _statements_by_side(answer, sides)) is None:
        return
    named = perception.identifiers
    unanswered = []
    for side, about in by_side.items():
        clauses = [c for s in about for c in _CLAUSES.split(strip_citations(s.text))]
        if not any(thing & set(terms(c)) and not unmet(answer.asks, named, c) for c in clauses):
            unanswered.append(side)
    if unanswered and len(unanswered) < len(sides):
        yield Finding(
            "sides.each_answered",
            IssueKind.MISSING_SIDE,
            f"the question asks the same of {', '.join(sides)}; the answer for "
            f"{', '.join(unanswered)} does not give it",
            entity=unanswered[0],
        )


# Where a statement's clauses part: "Drain the condensate daily | and check the oil level".
_CLAUSES = re.compile(r"\s*(?:;|,?\s+and\s+(?=[a-z]+\s+(?:the|a|an|its|their)\b))\s*")


def _statements_by_side(
    answer: AnswerModel, sides: tuple[str, ...]
) -> dict[str, list[Statement]] | None:
    """Each side's statements, or None when a side has none (that is ``every_side``'s or
    ``every_model``'s to report)."""
    by_side = {
        side: [s for s in answer.draft.statements if _has_data_for(side, s, answer)]
        for side in sides
    }
    return by_side if all(by_side.values()) else None


def _asked_thing(answer: AnswerModel, sides: tuple[str, ...]) -> set[str]:
    """What the question asks about of each side: its content words before the sides that
    are no model, attribute or question word ("grease" in "grease interval + amount for
    cp-200 and cp-350")."""
    perception = answer.perception
    attribute_words = {t for a in answer.asks.named_attributes for w in a.words for t in w}
    names = {t for side in sides for t in terms(side)}
    # what is asked of each is said before the sides; words among and after them tell
    # the sides apart ("the HP-400 and the CV-12 gearbox": the gearbox is the CV-12's)
    asked = perception.terms_before(sides)
    return (
        (set(answer.asks.content_terms) & asked)
        - names
        - model_terms(answer.asks.content_terms)
        - attribute_words
        - STOPWORDS
        - term_set("generic")
        - term_set("question_starts")
    )


# The answer types whose answer is a value of a thing ("grease interval + amount"): each
# side's is of the same thing.
_THING_VALUES = frozenset([AnswerType.FIGURE, AnswerType.COUNT, AnswerType.PART_NUMBER])


def _models_named(text: str) -> set[str]:
    """The model identifiers ``text`` names (no codes)."""
    return {
        "".join(terms(name))
        for name, _, _ in identifiers(text)
        if not any(CODE_TERM.match(t) for t in terms(name))
    }


def _sides(answer: AnswerModel) -> tuple[str, ...]:
    """A comparison's sides, or those of a question asking which is more or the same of
    each model, however it typed them (``Perception.asked_sides``)."""
    return answer.perception.asked_sides


def _of_figures(answer: AnswerModel) -> bool:
    """The sides are compared by figures: a comparison, or a question asking which of
    them is more."""
    return answer.perception.action == Action.COMPARE or answer.perception.orders_sides


def _has_data_for(
    side: str, s: Statement, answer: AnswerModel, dimensions: frozenset[str] = frozenset()
) -> bool:
    """``s`` gives data for ``side``: it names it or cites its document, with a figure
    when the sides are compared by figures — of the ``dimensions`` compared, when known."""
    cited = [answer.by_number[n] for n in s.citations if n in answer.by_number]
    key = set(terms(side))
    said = set(terms(mask_quantities(s.text)))  # "above 75 °C" names no "75"
    # Named in the statement, or the statement names no side and a cited document is
    # about this one (its title or metadata; a chunk that merely mentions it is not). A
    # model is named however written ("B737-800" for the 737), not by a figure.
    # A table's statement names its rows by their values, not by the table's words for
    # them or their dimension: "category 4 observations" is answered by "... of category
    # category 4 is ..." of a table described as "... track observations ...", "Brake
    # Repair jobs" by "service type Brake Repair" of a dimension also named "job".
    described = {
        w
        for e in cited
        if e.document.doc_type == "table"
        for w in terms(" ".join((e.document.title, *e.document.metadata.values())))
    }
    rest = key - described
    about = (
        key <= said
        or bool(described and rest and rest < key and rest <= said)
        or bool((short := _short_name(side)) and short <= said)
        or any(key <= subjects(e, chunk=False) for e in cited)
        or (
            len(key) == 1
            and (
                names_model(side, s.text)
                or any(names_model(side, f"{e.document.id} {e.document.title}") for e in cited)
            )
        )
    )
    # A comparison is of figures; the same asked of each model side by side ("What oil do
    # the HP-400 and the HP-500 take?") is answered by whatever the question asks.
    figure = _of_figures(answer)
    if not (about and cited):
        return False
    if not figure:
        return True
    # The figure compared is of what is compared: "which is louder?" is not answered for
    # the AC-110 by its air delivery beside the AC-75's noise level.
    if dimensions:
        return any(dimension(q.unit) in dimensions for q in stated_figures(strip_citations(s.text)))
    return bool(numbers(s.text))


def _compared_dimensions(answer: AnswerModel) -> frozenset[str]:
    """The dimensions the answer compares in: of the units the question asks in or its
    asked attributes are measured in (dB(A) for "louder", a time for "how often"), those
    some statement gives a figure in. Empty when none does: the question's units are then
    no measure of the answer ("water per kilogram" is answered in L per kg)."""
    if not _of_figures(answer):
        return frozenset()
    asks, constraints = answer.asks, answer.perception.constraints
    units = {*constraints.units, *(u for a in asks.attributes for u in a.units)}
    asked = {dimension(u) for u in units}
    given = {
        dimension(q.unit)
        for s in answer.draft.statements
        for q in stated_figures(strip_citations(s.text))
    }
    return frozenset(asked & given)


def _short_name(side: str) -> set[str]:
    """What a side of several words is called for short: its capitalised abbreviation
    or model ("Lumora LIC" → LIC, "Nordvolt BMS" → BMS); an answer names a make once,
    then the thing. Empty for one word, or when no word is written in capitals."""
    words = side.split()
    if len(words) < 2:
        return set()
    return {t for w in words if len(w) > 1 and w.isupper() for t in terms(w)}


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("sides.every_model",))
def every_model(answer: AnswerModel) -> Iterator[Finding]:
    """A question asking the same of several models, named side by side ("What oil do
    the HP-400 and the HP-500 take?"), is answered for each: an answer that speaks of some
    and says nothing of another — neither names it nor cites a document about it —
    answered half the question. Models in other roles ("Does the PX-3 fit the HP-250?")
    need no answer each. (A comparison's sides are ``every_side``'s to check.)"""
    perception = answer.perception
    if perception.route == Route.COMPARISON:
        return
    asked = {name: set(terms(name)) for name in answer.asks.side_by_side}
    if len(asked) < 2:
        return
    said = set(terms(answer.draft.text))
    about = set().union(*(subjects(e, chunk=False) for e in answer.cited))
    written = " ".join(
        (answer.draft.text, *(f"{e.document.id} {e.document.title}" for e in answer.cited))
    )
    missing = [
        name
        for name, key in asked.items()
        if not key <= said | about
        and not (_NUMBER.fullmatch(name) and _names_number(name, written))
    ]
    if missing and len(missing) < len(asked):
        yield Finding(
            "sides.every_model",
            IssueKind.MISSING_SIDE,
            f"the question names {', '.join(asked)}; the answer says nothing of "
            f"{', '.join(missing)}",
        )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("sides.every_thing",))
def every_thing(answer: AnswerModel) -> Iterator[Finding]:
    """A question coordinating things that are no models and asking of each ("hot work
    and confined space - who has to stay on watch for each?"; ``Asks.each_of``) is
    answered for each: a thing whose words neither the answer nor a cited document's id
    or title says was left out, and the answer names it."""
    things = answer.asks.each_of
    if len(things) < 2 or not answer.draft.statements:
        return
    said = set(terms(answer.draft.text))
    titles = [set(terms(f"{e.document.id} {e.document.title}")) for e in answer.cited]
    missing = []
    for thing in things:
        key = set(terms(thing)) - STOPWORDS
        if key and not key <= said and not any(key <= t for t in titles):
            missing.append(thing)
    if missing and len(missing) < len(things):
        yield Finding(
            "sides.every_thing",
            IssueKind.MISSING_SIDE,
            f"the question asks of {' and '.join(things)}; the answer says nothing of "
            f"{', '.join(missing)}",
            entity=missing[0],
        )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("sides.every_part",))
def every_part(answer: AnswerModel) -> Iterator[Finding]:
    """A question joining several asks with "and" ("How often are lockout devices
    inspected, and how often are safety valves tested?", "how much oil and what grade?";
    perception's ``Asks.parts``) is answered for each. With fewer cited statements and
    sources than asks, a part that no statement and no sentence of a cited source answers
    (``answers_part``: more than half its own words, or the attribute it names: "what
    grade": "ISO VG 46") was left out — the answer cites only what speaks of the other —
    and the answer names it."""
    parts = answer.asks.parts
    cited = [s for s in answer.draft.statements if s.citations]
    sources = {n for s in cited for n in s.citations}
    if len(parts) < 2 or not cited or len(cited) >= len(parts) or len(sources) >= len(parts):
        # a cited statement or source per ask: words are too weak to tell a paraphrase
        # ("on detection the contactor opens" for "how does it react when it triggers?")
        # from a statement about something else
        return
    # what the statements say, or a cited source's sentences: a paraphrase ("shows E02"
    # for "which code is displayed") is no part left out while its source says it
    said = [s.text for s in cited] + [
        sentence for e in answer.cited for sentence in _SENTENCE_END.split(e.text)
    ]
    missing = [p for p in parts if not any(answers_part(p, parts, t) for t in said)]
    if missing and len(missing) < len(parts):
        yield Finding(
            "sides.every_part",
            IssueKind.MISSING_SIDE,
            f"the question also asks {'; '.join(repr(p.text) for p in missing)}; no cited "
            "statement answers it",
        )


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")

# A model named by a bare number ("the 737", perception's ``number_as_name``).
_NUMBER = re.compile(r"\d+(?:-\d+)?")


def _names_number(number: str, text: str) -> bool:
    """``text`` names the model a bare number stands for: the number, not inside a longer
    one ("B737-800" names the 737; "1737" does not)."""
    return re.search(rf"(?<![\d.]){re.escape(number)}(?![\d]|\.\d)", text) is not None


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("sides.borrowed",))
def about_what_was_introduced(answer: AnswerModel) -> Iterator[Finding]:
    """A follow-up's answer is about what the follow-up named: "And E4031?" after a
    question about E4027 borrows the rest of that question, and an answer that never names
    E4031 nor cites a document about it alone is the previous entity's answer again — a
    figure borrowed from the turn before is ``wrong_entity``, not ``ok``."""
    introduced = answer.perception.introduced
    if not introduced or not answer.draft.statements:
        return
    said = set(terms(answer.draft.text))
    asked = set(answer.asks.terms)
    for name in introduced:
        key = set(terms(name))
        # A cited document is about the name when its title or metadata names it and no
        # sibling the question does not name (a manual listing E4027 and E4031 is about
        # both: its E4027 sentence is no answer about E4031).
        about = any(
            key <= (named := subjects(e, chunk=False))
            and not any(family(n) == family(k) for n in named - asked for k in key)
            for e in answer.cited
        )
        if key and not key <= said and not about:
            yield Finding(
                "sides.borrowed",
                IssueKind.WRONG_ENTITY,
                f"the follow-up asks about {name}; the answer never names it and cites no "
                "document about it: it may be the previous question's answer",
                entity=name,
            )
