"""Answerability: the answer is of the kind the question asks for (``Asks.answer_type``,
tested by ``agents.answer_types``), whatever words it shares with it — a figure for a
value question about an attribute measured in units, the code for a question about a
code's meaning, a part number for a question asking for one. An answer that names the
asked thing but gives something else about it is not ``ok``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ragcore.agents.answer_types import (
    of_kind,
    only_the_default,
    other_code,
    sibling_keys,
    unbound_cells,
    unmet,
    unnamed_part,
    unnamed_products,
    unnamed_signal,
    unnamed_sources,
    unnamed_terms,
    unstated_default,
)
from ragcore.agents.answer_types.absence import unstated_absence
from ragcore.agents.answer_types.echo import adds_nothing, restates_the_claim
from ragcore.agents.answer_types.forward import leaning_on_a_block
from ragcore.agents.answer_types.leaning import leaning_elsewhere
from ragcore.agents.answer_types.pinpoint import unnamed_option
from ragcore.agents.answer_types.report import only_reports
from ragcore.agents.answer_types.set_value import unnamed_value
from ragcore.agents.answer_types.setting import unnamed_setting
from ragcore.agents.answer_types.shape import unshaped
from ragcore.agents.answer_types.switch import other_way
from ragcore.agents.answer_types.variant import other_variants
from ragcore.agents.answer_types.verdict import says, undecided
from ragcore.agents.answer_types.which import unbound_which
from ragcore.agents.evidence import Evidence, is_table_evidence
from ragcore.agents.perception.asks import AnswerType
from ragcore.agents.validation.checks.relations import subjects
from ragcore.agents.validation.model import AnswerModel, opens_with_verdict
from ragcore.agents.validation.registry import Finding, Scope, check
from ragcore.documents import DocumentInfo
from ragcore.text.citations import strip_citations
from ragcore.text.quantities import numbers
from ragcore.text.terms import terms
from ragcore.types import Check, IssueKind, Route

_RULES = {
    AnswerType.FIGURE: "answer_type.figure",
    AnswerType.MEANING: "answer_type.meaning",
    AnswerType.PART_NUMBER: "answer_type.part_number",
    AnswerType.PROCEDURE: "answer_type.procedure",
    AnswerType.OPTIONS: "answer_type.options",
    AnswerType.CAUSE: "answer_type.cause",
    AnswerType.REASON: "answer_type.reason",
    AnswerType.PURPOSE: "answer_type.purpose",
    AnswerType.PLACE: "answer_type.place",
    AnswerType.ACTION: "answer_type.action",
    AnswerType.KIND: "answer_type.kind",
    AnswerType.AGENT: "answer_type.agent",
}


# A condition the question sets (a figure, a state) holds whatever kind it asks for.
_CONDITION = "answer_type.condition"


@check(Check.CONSISTENCY, Scope.ANSWER, rules=(*_RULES.values(), _CONDITION))
def of_the_asked_kind(answer: AnswerModel) -> Iterator[Finding]:
    if answer.perception.route == Route.COMPARISON:
        # The sides check reads a comparison's figures; a kind no figure stands in for (a
        # part number of each model) is asked of every side's statement.
        if answer.asks.answer_type in (AnswerType.MEANING, AnswerType.PART_NUMBER):
            yield from _each_side(answer)
        return
    text = strip_citations(answer.draft.text)
    sources = " ".join(e.text for e in answer.cited)
    owners = set().union(*(subjects(e, chunk=False) for e in answer.cited))
    if reason := unmet(answer.asks, answer.perception.identifiers, text, sources, owners):
        rule = _RULES.get(answer.asks.answer_type, _CONDITION)
        yield Finding(rule, IssueKind.OFF_QUESTION, reason)
    elif answer.asks.answer_type == AnswerType.PART_NUMBER and (
        reason := unnamed_part(answer.perception.part_asked, text)
    ):
        yield Finding(_RULES[AnswerType.PART_NUMBER], IssueKind.OFF_QUESTION, reason)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.yes_no",))
def decides_the_question(answer: AnswerModel) -> Iterator[Finding]:
    """A yes/no question ("Will it start moving again once the script sends position
    commands?") is answered by a statement that states the asked relation or its
    negation (``answer_types.verdict``), not by one about the subject that says something
    else of it ("you can keep sending the same command over and over"). An answer that
    says its verdict itself ("No. Gas is never restored automatically …", "It is. The
    KW-4 washes with …") has decided:
    whether its reasons hold is the support checks' to judge (a paraphrase, "restored
    automatically" for "turn back on by itself", shares few words with the question).
    Otherwise an answer in its own words may leave the relation to a sentence of the
    chunks it cites; a quoted one decides by what it quotes."""
    if not answer.statements or answer.perception.route == Route.COMPARISON:
        return
    if opens_with_verdict(answer.draft.statements):
        return  # it says its verdict itself; the support checks judge its reasons
    said = [strip_citations(s.text) for s in answer.statements]
    sources = () if _quoted(answer) else [e.text for e in answer.cited]
    if reason := undecided(answer.asks, said, sources):
        yield Finding("answer_type.yes_no", IssueKind.OFF_QUESTION, reason)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.sibling_key",))
def about_the_asked_key(answer: AnswerModel) -> Iterator[Finding]:
    """A question naming a setting's key ("if LOWCHARGE is set", "HOME_SEARCH_VEL") is not
    answered by a statement on a neighbouring key of the same chunk ("RUNTIMELEFT halts
    it at 3 minutes"): when the answer names other keys and neither it nor the sections
    it cites name the asked one, its figures are the other keys' (``sibling_keys``)."""
    if not answer.statements or answer.perception.route == Route.COMPARISON:
        return
    text = strip_citations(answer.draft.text)
    said = " ".join((text, *(e.section for e in answer.cited)))
    if others := sibling_keys(answer.asks, said):
        asked = ", ".join(answer.asks.named_terms)
        yield Finding(
            "answer_type.sibling_key",
            IssueKind.WRONG_ENTITY,
            f"the question asks about {asked}; the answer is about {', '.join(others)}",
            chunk_ids=tuple(e.chunk_id for e in answer.cited),
            entity=others[0],
        )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.set_value",))
def about_the_set_value(answer: AnswerModel) -> Iterator[Finding]:
    """A question that sets a key to a value ("What does leaving HOME_SEARCH_VEL at 0
    do?") is answered about that value: the answer names it (``answer_types.set_value``),
    not the key at another value ("If HOME_SEARCH_VEL is non-zero, …")."""
    if not answer.statements:
        return
    if reason := unnamed_value(answer.asks, strip_citations(answer.draft.text)):
        yield Finding("answer_type.set_value", IssueKind.OFF_QUESTION, reason)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.cells",))
def binds_a_value_to_a_key(answer: AnswerModel) -> Iterator[Finding]:
    """An answer made only of a table flattened without its column names ("Homing Type;
    HOME_SEARCH_VEL; HOME_LATCH_VEL; Immediate; 0; 0; NO", ``lexicon.unlabelled_cells``)
    says of no value which key it belongs to, so it answers nothing about one. Rows of a
    data table, and labelled rows ("Min Voltage: 10V; …"), bind theirs. A status printout
    run into a sentence ("APC : 001,037,0906 DATE : … LINEV : 123.0 Volts …",
    ``lexicon.printout``) is one machine's sample output: no answer either."""
    if not answer.statements or any(is_table_evidence(e) for e in answer.cited):
        return
    if all(unbound_cells(strip_citations(s.text).strip()) for s in answer.statements):
        yield Finding(
            "answer_type.cells",
            IssueKind.OFF_QUESTION,
            "the answer is table cells without their column names, or a program's printout: "
            "no value in it is stated of what the question asks",
        )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.signal",))
def about_the_asked_signal(answer: AnswerModel) -> Iterator[Finding]:
    """A question about what a code or signal means or does ("trip code OC1", "the W4
    contact", "blinks 3 times") is answered by text that names it: the answer's own, or
    — for an answer that does not quote its sources — the cited sources'."""
    if not answer.asks.signals or not answer.statements:
        return
    text = strip_citations(answer.draft.text)
    sources = " ".join(e.text for e in answer.cited)
    if reason := unnamed_signal(answer.asks, text, sources, _quoted(answer)):
        yield Finding("answer_type.signal", IssueKind.OFF_QUESTION, reason)


def _quoted(answer: AnswerModel) -> bool:
    """Every statement is a passage of a chunk it cites, word for word."""
    return all(
        any(_flat(strip_citations(s.text)).rstrip(".") in _flat(e.text) for e in s.cited)
        for s in answer.statements
    )


def _flat(text: str) -> str:
    return " ".join(text.split())


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.shape",))
def a_value_of_the_asked_shape(answer: AnswerModel) -> Iterator[Finding]:
    """ "What port do I open?" is answered with a port ("3493/tcp"), not with a sentence
    that only names the port ("… connects via this TCP port"): the answer's own text
    holds a value of the shape the question's head noun asks for."""
    if answer.asks.value_shape is None or not answer.statements:
        return
    text = strip_citations(answer.draft.text)
    if reason := unshaped(answer.asks.value_shape, text, answer.asks.terms):
        yield Finding("answer_type.shape", IssueKind.OFF_QUESTION, reason)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.switch",))
def for_the_asked_way(answer: AnswerModel) -> Iterator[Finding]:
    """ "What phases value turns on auto switching?" is answered by the value that turns
    it on, not by the values that turn it off ("phases: 1 or 3 = Automatic switching
    disabled"; ``answer_types.switch``)."""
    if answer.asks.switch is None or not answer.statements:
        return
    if reason := other_way(answer.asks, strip_citations(answer.draft.text)):
        yield Finding("answer_type.switch", IssueKind.OFF_QUESTION, reason)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.code",))
def a_code_of_the_asked_family(answer: AnswerModel) -> Iterator[Finding]:
    """ "Which M code orients the spindle?" is answered with an M code ("M19")."""
    if answer.statements and (reason := other_code(answer.asks, answer.draft.text)):
        yield Finding("answer_type.code", IssueKind.OFF_QUESTION, reason)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.default",))
def states_the_default(answer: AnswerModel) -> Iterator[Finding]:
    """A question asking for the default value is answered by a statement of it ("upsd
    listens on TCP port 3493 by default"), not by how to change the setting."""
    if not answer.asks.default or not answer.statements:
        return
    text = strip_citations(answer.draft.text)
    sources = " ".join(e.text for e in answer.cited)
    if reason := unstated_default(answer.asks, text, sources, _quoted(answer)):
        yield Finding("answer_type.default", IssueKind.OFF_QUESTION, reason)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.to_set",))
def states_what_to_set(answer: AnswerModel) -> Iterator[Finding]:
    """A question asking what value to set ("what value goes in PD164?") is not answered
    by the setting's default alone ("… register PD164 (defaults to 38400)"), nor by a
    sentence that never names the setting, nor its section does ("what do I set the
    encoder cpr to?": a capacitor's value; ``answer_types.setting``)."""
    if not answer.asks.to_set or not answer.statements:
        return
    text = strip_citations(answer.draft.text)
    headed = " ".join((text, *(e.section for e in answer.cited)))
    reason = only_the_default(answer.asks, text) or unnamed_setting(answer.asks, headed)
    if reason:
        yield Finding("answer_type.to_set", IssueKind.OFF_QUESTION, reason)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.leaning",))
def leans_on_the_asked_thing(answer: AnswerModel) -> Iterator[Finding]:
    """A quoted sentence whose subject is a pronoun ("This must match the setting in
    register PD165 …") says its figure of what the sentence before it in the source
    names; left out of the answer and about something the question does not name (the
    parity option, for the baud rate), the figure is another thing's
    (``answer_types.leaning``)."""
    if not answer.statements or answer.perception.route == Route.COMPARISON:
        return
    text = strip_citations(answer.draft.text)
    if reason := leaning_elsewhere(answer.asks, text, [e.text for e in answer.cited]):
        yield Finding(
            "answer_type.leaning",
            IssueKind.OFF_QUESTION,
            reason,
            chunk_ids=tuple(e.chunk_id for e in answer.cited),
        )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.goal",))
def for_the_asked_goal(answer: AnswerModel) -> Iterator[Finding]:
    """A how-to question ("How do I make the ODrive home itself right after power-up?") is
    not answered by a step for another goal ("… make the ODrive turn on the motor power
    automatically after booting"), nor a why question about doing something ("why would
    I need to debounce the limit switch inputs?") by a sentence on the same inputs that
    never says it ("This flag determines whether LinuxCNC will ignore the limit switch
    input"): when neither the answer nor the chunks it cites (their
    text, section path and title) say the asked verb (``Asks.goal``: "home", "homing")
    while a source shown beside them does, a source on the asked goal was at hand."""
    goal = answer.asks.goal
    if goal is None or not answer.statements or not answer.cited:
        return
    text = strip_citations(answer.draft.text)
    cited = {e.chunk_id for e in answer.cited}
    if says(goal, " ".join((text, *(_read(e) for e in answer.cited)))):
        return
    if any(says(goal, _read(e)) for e in answer.by_number.values() if e.chunk_id not in cited):
        asked = "why" if answer.asks.answer_type == AnswerType.REASON else "how"
        yield Finding(
            "answer_type.goal",
            IssueKind.OFF_QUESTION,
            f"the question asks {asked} to {goal}; neither the answer nor its sources say it, "
            "while another source shown does",
            chunk_ids=tuple(cited),
        )


def _read(evidence: Evidence) -> str:
    return f"{evidence.document.title} {evidence.section} {evidence.text}"


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.product",))
def about_the_named_product(answer: AnswerModel) -> Iterator[Finding]:
    """A question about a product or version named without a model number ("the ODrive
    Pro", "the roboRIO", "r1.2") is answered from sources that name it: a UPS manual's
    input voltage is no answer for the ODrive Pro, nor the r1.1 notes for r1.2."""
    if not answer.cited:
        return
    for name in unnamed_products(answer.asks, answer.cited):
        yield Finding(
            "answer_type.product",
            IssueKind.WRONG_ENTITY,
            f"the question asks about the {name}; no cited source names it",
            chunk_ids=tuple(e.chunk_id for e in answer.cited),
            document_ids=tuple(dict.fromkeys(e.document.id for e in answer.cited)),
            entity=name,
        )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.named_term",))
def about_the_named_term(answer: AnswerModel) -> Iterator[Finding]:
    """A question naming an acronym or a key ("a PTC thermistor", "over USB",
    "HOME_SEARCH_VEL") is answered by text that names it or from sources that do: a
    passage on the thermistor limits that never says PTC, or the radio's address for
    the USB one, answers something else. A comparison's sides are the sides check's; the
    source the question names ("according to the FAA") is the credibility checks', the
    version it names as the one before ("before the AD") the timeliness checks'."""
    if not answer.statements or answer.perception.route == Route.COMPARISON:
        return
    text = strip_citations(answer.draft.text)
    constraints = answer.perception.constraints
    source = set(terms(constraints.source or ""))
    # the version named as the one before ("before the AD"): the earlier text that
    # answers predates it, and the timeliness checks see to which version answers
    source |= set(terms(constraints.earlier))
    for term in unnamed_terms(answer.asks, text, answer.cited):
        if set(terms(term)) <= source:
            continue
        yield Finding(
            "answer_type.named_term",
            IssueKind.OFF_QUESTION,
            f"the question asks about {term}; neither the answer nor its sources name it",
            chunk_ids=tuple(e.chunk_id for e in answer.cited),
            entity=term,
        )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.source",))
def from_the_named_source(answer: AnswerModel) -> Iterator[Finding]:
    """A question that names a document shown to the generator ("evcc", "upsd") is
    answered from sources that name it: apcupsd's port is no answer for evcc's web
    interface, while evcc's documentation was at hand."""
    if not answer.statements or answer.perception.route == Route.COMPARISON:
        return
    if any(is_table_evidence(e) for e in answer.cited):
        return
    shown = tuple(answer.by_number.values())
    text = strip_citations(answer.draft.text)
    for word in unnamed_sources(answer.asks, text, shown, answer.cited):
        yield Finding(
            "answer_type.source",
            IssueKind.WRONG_ENTITY,
            f"the question names '{word}', as a document shown does; the answer's sources "
            "never name it",
            chunk_ids=tuple(e.chunk_id for e in answer.cited),
            document_ids=tuple(dict.fromkeys(e.document.id for e in answer.cited)),
            entity=word,
        )


def _each_side(answer: AnswerModel) -> Iterator[Finding]:
    for side in answer.perception.sides:
        key = set(terms(side))
        mine = [s for s in answer.draft.statements if key <= set(terms(s.text))]
        text = strip_citations(" ".join(s.text for s in mine))
        cited = [answer.by_number[n] for s in mine for n in s.citations if n in answer.by_number]
        sources = " ".join(e.text for e in cited)
        if mine and (reason := unmet(answer.asks, (side,), text, sources)):
            rule = _RULES[answer.asks.answer_type]
            yield Finding(rule, IssueKind.OFF_QUESTION, f"{side}: {reason}", entity=side)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.echo",))
def says_more_than_the_question(answer: AnswerModel) -> Iterator[Finding]:
    """An answer that only repeats the question — no word or figure the question does not
    already have ("Getting 'Unexpected realtime delay' — why?" answered "Unexpected
    realtime delay on task n [1].") — answers nothing, whatever the form: "Why do they
    wear ear defenders in the compressor room?" is not answered by "Wear ear defenders in
    the compressor room." A yes/no answer may restate the question: its verdict is the
    answer."""
    if not answer.statements:
        return
    if adds_nothing(answer.asks, " ".join(strip_citations(s.text) for s in answer.statements)):
        yield Finding(
            "answer_type.echo",
            IssueKind.OFF_QUESTION,
            "the answer only repeats the question: it says nothing the question does not",
        )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.claim_restated",))
def judges_the_claim(answer: AnswerModel) -> Iterator[Finding]:
    """A yes/no question stating a figure to check ("the CP-350 is 78 dB(A) right, is
    that over it?") is not answered by that figure again: an answer that says no verdict
    of its own, compares nothing and gives no figure but the question's has not judged
    it (``echo.restates_the_claim``)."""
    if not answer.statements or opens_with_verdict(answer.draft.statements):
        return
    text = " ".join(strip_citations(s.text) for s in answer.statements)
    if answer.judges.attributes.comparatives.find(text):
        return
    if restates_the_claim(answer.asks, text):
        yield Finding(
            "answer_type.claim_restated",
            IssueKind.OFF_QUESTION,
            "the question asks whether its figure holds; the answer only gives that figure "
            "back, not what it is judged by",
        )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.named_document",))
def from_the_named_document(answer: AnswerModel) -> Iterator[Finding]:
    """A question asking what a kind of document says ("the manual's standard interval",
    "under the directive", ``lexicon.document_named``) is answered from that kind: a
    statement giving a figure that cites no document of it — its type, id, title or
    source naming the kind — gives another document's figure ("And the manual's standard
    interval for that engine?" answered with the directive's)."""
    kinds = answer.asks.documents
    if not kinds:
        return
    for statement in answer.statements:
        if not statement.cited or not numbers(strip_citations(statement.text)):
            continue
        documents = _documents(statement.cited)
        for kind in kinds:
            if not any(of_kind(d, kind) for d in documents):
                yield Finding(
                    "answer_type.named_document",
                    IssueKind.OFF_QUESTION,
                    f"the question asks what the {kind} says; a figure is cited from "
                    f"{', '.join(dict.fromkeys(e.document.id for e in statement.cited))}",
                    statement.text,
                )
                return


def _documents(cited: Sequence[Evidence]) -> list[DocumentInfo]:
    return list({e.document.id: e.document for e in cited}.values())


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.variant",))
def about_the_named_variant(answer: AnswerModel) -> Iterator[Finding]:
    """A question naming a variant by its number ("LinuxCNC 2.9", "Raspberry Pi 5") is
    not answered by text naming the same name with other numbers only ("…/linuxcnc-2.8.1-
    pi4.zip") while neither it nor its sources give the asked number
    (``answer_types.variant``): that is a sibling's answer."""
    variants = answer.asks.variants
    if not variants or not answer.statements or answer.perception.route == Route.COMPARISON:
        return
    text = strip_citations(answer.draft.text)
    sources = [f"{e.document.title} {e.section} {e.text}" for e in answer.cited]
    if others := other_variants(variants, text, sources):
        asked = ", ".join(f"{n} {v}" for n, v in variants)
        yield Finding(
            "answer_type.variant",
            IssueKind.WRONG_ENTITY,
            f"the question asks about {asked}; the answer names {', '.join(others)}",
            chunk_ids=tuple(e.chunk_id for e in answer.cited),
            entity=others[0],
        )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.which",))
def names_the_one_that_does_it(answer: AnswerModel) -> Iterator[Finding]:
    """ "Which GS2 parameter sets the Modbus slave address?" is answered by a sentence
    that names a parameter (or its code) and says it sets the slave address
    (``answer_types.which``), not by one naming a parameter for something else beside
    one naming a command-line option that sets it."""
    if not answer.statements or answer.perception.route == Route.COMPARISON:
        return
    if reason := unbound_which(answer.asks, strip_citations(answer.draft.text)):
        yield Finding("answer_type.which", IssueKind.OFF_QUESTION, reason)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.report",))
def asserts_something(answer: AnswerModel) -> Iterator[Finding]:
    """An answer made only of first-person reports ("I have an APC Smart-UPS connected
    with a grey APC serial cable and it won't work", a FAQ's question;
    ``answer_types.report``) restates a problem: it answers nothing."""
    said = [strip_citations(s.text).strip() for s in answer.statements]
    if only_reports(said):
        yield Finding(
            "answer_type.report",
            IssueKind.OFF_QUESTION,
            "the answer only reports someone's own situation (a question quoted from a FAQ "
            "or a user's report): it states nothing of what was asked",
        )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.option",))
def names_the_asked_option(answer: AnswerModel) -> Iterator[Finding]:
    """ "What does the -k flag do?" is answered by text that names -k, itself or under a
    heading or section that does (``answer_types.pinpoint``): a manual page's chunk names
    every option, so its naming -k says nothing of the sentence quoted from it."""
    if not answer.asks.options or not answer.statements:
        return
    text = strip_citations(answer.draft.text)
    sections, chunks = [e.section for e in answer.cited], [e.text for e in answer.cited]
    if reason := unnamed_option(answer.asks, text, sections, chunks):
        yield Finding(
            "answer_type.option",
            IssueKind.OFF_QUESTION,
            reason,
            chunk_ids=tuple(e.chunk_id for e in answer.cited),
        )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.absence",))
def says_what_holds_without_it(answer: AnswerModel) -> Iterator[Finding]:
    """ "If I leave LISTEN out of upsd.conf, can other servers connect?" is answered by
    what holds when LISTEN is absent ("If you do not specify a LISTEN directive, upsd
    only listens on the loopback interface"), not by what it does when given
    (``answer_types.absence``)."""
    if not answer.asks.absent or not answer.statements:
        return
    if reason := unstated_absence(answer.asks, strip_citations(answer.draft.text)):
        yield Finding("answer_type.absence", IssueKind.OFF_QUESTION, reason)


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("answer_type.block",))
def stands_on_its_own(answer: AnswerModel) -> Iterator[Finding]:
    """A statement that ends by introducing a block ("… edit your ups.conf to look like
    this:") or speaks of one shown beside it ("The above command says: …") without
    giving it has left out what holds the asked content: the configuration, the
    command, the list (``answer_types.forward``)."""
    said = [strip_citations(s.text) for s in answer.statements]
    if statement := leaning_on_a_block(said):
        yield Finding(
            "answer_type.block",
            IssueKind.OFF_QUESTION,
            "a statement introduces or speaks of a block (a command, a configuration, a "
            "list) beside it in its source that the answer leaves out",
            statement,
            chunk_ids=tuple(e.chunk_id for e in answer.cited),
        )
