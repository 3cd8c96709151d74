"""Generators turn a question and its numbered evidence into a cited answer draft.

``ExtractiveGenerator`` (the default) needs no model weights: it picks the sentences of
the evidence that best cover the question, and cites each with the ``[n]`` of its
chunk. For a comparison it picks the best sentence for each side and, when the question
asks which is louder / bigger / …, states the relation from the figures of both
sentences. When no evidence covers the question it says so instead of answering.

Among the sentences of the best one's document near it by word overlap (``_BAND``; the
document stays with overlap weighted by the evidence's score), closeness in meaning to
the question (``QuestionSimilarity``, the engine's embedder; only those sentences) and
a section named for the answer type ("Troubleshooting" for a cause) choose; a question
word naming the collection a document is filed under (``answer_types.names``) keeps out
the sentences of documents that never name it.

What is asked picks among sentences that merely share words: a value asked of a key
("what value goes in PD164?") is answered by a sentence giving the key a value
(``binding``), not one naming it beside another figure; a figure or a value of a shape
stated tersely ("upsd listens on TCP port 3493 by default.") is looked for among the
sentences sharing half as many words when none sharing enough gives it (``_near``); what
a thing is for, in a sentence leaning on the one naming it, is read with its antecedent;
a yes/no question's subject may be named by the document's title; the block a
sentence introduces ("… look like this:" and a ups.conf section; ``lexicon.leans_forward``)
is part of it, as its chunk has it and bounded (``_BLOCK_CHARS``), and a sentence whose
chunk does not hold its block, or that speaks of a block shown beside it, is no answer
on its own. When no sentence shares enough of the question by its own words, a question
whose answer a sentence can be checked against (``_checkable``) is looked for among the
sentences read where they stand: with their section path, heading, the FAQ question they
answer, the sentence before them and the identifiers their chunk names (``_in_context``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from typing import Protocol

from ragcore.agents.answer_types import (
    enters,
    named_keys,
    other_code,
    sibling_keys,
    unbound_cells,
    unmet,
    unnamed_products,
    unnamed_signal,
    unstated_default,
)
from ragcore.agents.answer_types.absence import unstated_absence
from ragcore.agents.answer_types.condition import other_condition
from ragcore.agents.answer_types.echo import adds_nothing
from ragcore.agents.answer_types.focus import names_focus
from ragcore.agents.answer_types.forward import leaning_on_a_block
from ragcore.agents.answer_types.names import document_names, unnamed_here
from ragcore.agents.answer_types.options import lists_options
from ragcore.agents.answer_types.pinpoint import unnamed_option
from ragcore.agents.answer_types.set_value import names_value
from ragcore.agents.answer_types.shape import unshaped
from ragcore.agents.answer_types.verdict import decides
from ragcore.agents.attributes import (
    AttributeTable,
    Comparatives,
    addresses,
    load_attributes,
)
from ragcore.agents.evidence import NO_ANSWER, Draft, Evidence, Statement, is_table_evidence
from ragcore.agents.generation.binding import asked_keys, binds
from ragcore.agents.generation.similarity import QuestionSimilarity
from ragcore.agents.perception.asks import (
    AnswerType,
    Asks,
    Comparison,
    QuestionForm,
    answers_part,
    read_asks,
)
from ragcore.agents.perception.model import Constraints, Perception
from ragcore.agents.perception.time import TimeConstraint
from ragcore.agents.reading import content_terms, word_pairs
from ragcore.agents.reading import identifiers as identifiers_in
from ragcore.text.families import families, in_family
from ragcore.text.identifiers import ENTITY_PATTERNS
from ragcore.text.lexicon import WordSet, pattern, words
from ragcore.text.products import sibling_named
from ragcore.text.quantities import Quantity, quantities
from ragcore.text.sentences import split_sentences
from ragcore.text.terms import coverage, model_terms, terms
from ragcore.text.units import in_units
from ragcore.types import EntitySource, Route

DEFAULT_MIN_RELEVANCE = 0.4
DEFAULT_MAX_STATEMENTS = 2
# How close to the best sentence's word overlap another's must be to be chosen with it,
# or instead of it for being closer in meaning.
_BAND = 0.8
# How much standing in a section named for the answer type counts: a tie-breaker among
# near-ties of word overlap, less than a tenth of a cosine's range.
SECTION_WEIGHT = 0.05
# How much a sentence's cosine to the question counts beside its word overlap (both 0..1).
SIMILARITY_WEIGHT = 1.0
_QUESTION = re.compile(r"\?\s*(?:\[\d+\]\s*)*[\"')\]]*$")
IDENTIFIER_WEIGHT = 3.0  # a question's model number or error code matters most
CODE_LABELS = frozenset({"ERROR_CODE", "PART_NUMBER"})
_INSTRUCTION_VERBS = WordSet("lexicon", "instruction_verbs")
# Words of the comparison itself, not of what is compared: a side's sentence lacks them.
_COMPARISON_WORDS = frozenset(terms("versus compare comparison much powerful max maximum"))
# A sentence that starts by pointing back at a subject named earlier in its document.
_LEANING = re.compile(r"^(Its|It)\s+(?=[a-z])")
# A subject that stands for what the sentence before names ("It disables …").
_PRONOUN_SUBJECT = re.compile(r"^(?:It|Its|This|These|They|Their)\b")
_DESIGNATION = re.compile(r"\bAD\s*\d{4}-\d{2}-\d{2}\b|\b[A-Z]{2,}-\d{4}\b")
_HEADING = re.compile(r"^\s*#")
# A table row rendered as labelled cells: "Name: moteus-c1; Min Voltage: 10V; …".
_LABELLED_CELL = re.compile(r"^[^:;]{1,40}: \S")
_ROW_CELLS = 3
_SHORT = 12  # a line this short is a scrap
# How long a block a sentence introduces may be to be kept with it ("… look like this:"
# and a four-line ups.conf section): a longer one is no part of a short answer.
_BLOCK_CHARS = 400
# A paragraph: lines up to a blank one. A list item opens with a bullet or a number.
_PARAGRAPH = re.compile(r"[^\n]*\S[^\n]*(?:\n[^\n]*\S[^\n]*)*")
_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s")
_TITLE_WORDS = 8  # a heading line is short: "Setting up a Raspberry Pi for CAN Communications"
_HEADING_MARKS = re.compile(r"^[#.\s]+")  # "## Setup", "#. Use the correct CAN baud rate"
# How many sentences back a leaning sentence's antecedent may go: "… select Settings.
# There select System and then URCaps. There, click the plus sign …".
_ANTECEDENTS = 2
# How many sentences of its paragraph a procedure's answer keeps after the one chosen:
# a manual's procedure is a paragraph or a list, not one sentence of it.
_STEPS = 8


class Generator(Protocol):
    """Writes an answer from numbered evidence; every statement should cite ``[n]``."""

    name: str

    def generate(
        self, question: str, evidence: Sequence[Evidence], perception: Perception | None = None
    ) -> Draft: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class _Reading:
    """How much of the question a sentence covers read where it stands (``_in_context``)."""

    identifiers: float
    words: float
    score: float


@dataclass(frozen=True)
class _Sentence:
    text: str
    evidence: Evidence
    identifiers: float
    """Share of the question's identifiers (model numbers, codes) the sentence is about."""
    words: float
    """Share of the question's other content terms in the sentence or its document title."""
    score: float
    """Overall relevance, weighted by the evidence's own score, for ranking."""
    subjects: frozenset[str]
    """Identifiers the sentence is about (normalised terms, e.g. "cp200")."""
    names_codes: bool = False
    """The sentence itself names every error code / part number of the question."""
    context: str = ""
    """The sentence before it in its chunk (captions and labels skipped; with the one
    before that when it leans too), when it leans on it ("There, click …", "When that
    happens, …"): cited with it. Its words do not score the sentence: a sentence is
    chosen for what it says itself."""
    steps: tuple[str, ...] = ()
    """The sentences after it in its paragraph (at most ``_STEPS``): a procedure's steps,
    kept together when the question asks how to do something."""
    heading: str = ""
    """The heading it stands under: the last heading line before it in its chunk, else
    the last part of the chunk's section path ("Use the correct CAN baud rate")."""
    lead: str = ""
    """The heading, when the answer cites it before the sentence: it names what the
    question asks about and the sentence does not ("Use the correct CAN baud rate: By
    default, ODrive uses 250 kbps")."""
    similarity: float = 0.0
    """Cosine of the question to the sentence (``QuestionSimilarity``), when the
    generator has one and more than one sentence is left to choose from."""
    placed: bool = False
    """It stands where an answer of the asked type lives (``_placed``): under a
    "Troubleshooting" section for a cause, "Specifications" for a figure."""
    bound: bool = False
    """It gives the key the question asks the value of a value (``binding``): each such
    sentence of the best document is an answer, however few words it shares ("phases: 0 =
    Automatic switching enabled" beside "phases: 1 or 3 = … disabled")."""
    own_words: float = 0.0
    """Share of the question's other content terms in the sentence itself (its
    document title aside): what a sentence stating a value tersely must share (``_near``)."""
    unfinished: bool = False
    """It ends by introducing a block (``lexicon.leans_forward``) its chunk does not
    hold within ``_BLOCK_CHARS``: alone, it gives none of what it introduces."""
    then: str = ""
    """The sentence after it in its paragraph, cited with it: it carries the figure or
    value the question asks for, which this one, naming the subject, does not ("If
    BATTERYLEVEL is specified, … below the specified percentage. The default is 5
    percent."; ``_with_next``)."""
    in_context: _Reading | None = None
    """The sentence read where it stands (``_in_context``): its relevance with the
    question's terms and identifiers also counted from its section path, its heading, the
    FAQ question it answers and the sentence before it."""

    @property
    def rank(self) -> float:
        """What the answer is chosen by: word overlap, closeness in meaning, and the
        section it stands in."""
        return self.score + SIMILARITY_WEIGHT * self.similarity + SECTION_WEIGHT * self.placed


PAIR_WEIGHT = 0.2
"""A side's sentence naming the asked thing by the question's two words ("compressor oil")
ranks above one sharing the words apart ("oil level", "oil separator")."""


class ExtractiveGenerator:
    """Answers with the best-supported sentences of the evidence, each cited."""

    name = "extractive"

    def __init__(
        self,
        *,
        max_statements: int = DEFAULT_MAX_STATEMENTS,
        min_relevance: float = DEFAULT_MIN_RELEVANCE,
        attributes: AttributeTable | None = None,
        similarity: QuestionSimilarity | None = None,
    ) -> None:
        self.max_statements = max_statements
        self.min_relevance = min_relevance
        self._attributes = attributes or load_attributes()
        self._similarity = similarity

    def close(self) -> None:
        """Nothing to free: the embedder behind its similarity is the engine's."""

    def generate(
        self, question: str, evidence: Sequence[Evidence], perception: Perception | None = None
    ) -> Draft:
        """Table evidence (a data question) answers first, one statement per result row
        in the query's order; the documents' sentences, if any were retrieved, follow."""
        table = [e for e in evidence if is_table_evidence(e)]
        if not table:
            return self._earlier_first(question, evidence, perception)
        statements = [s for e in table for s in _table_statements(e)]
        text_evidence = [e for e in evidence if not is_table_evidence(e)]
        if text_evidence:
            prose = self._earlier_first(question, text_evidence, perception)
            if not prose.abstained:
                statements += prose.statements
        return Draft(" ".join(s.text for s in statements), tuple(statements), self.name)

    def _earlier_first(
        self, question: str, evidence: Sequence[Evidence], perception: Perception | None
    ) -> Draft:
        """A question for an earlier version's figure ("the old revision", "before the
        AD") is answered from the superseded documents when they answer it, else from
        documents a newer one among the evidence overrides, else from all: the current
        revision's sentence reads closer ("the interval was shortened …") but gives the
        current figure."""
        if perception is not None and perception.constraints.earlier:
            for older in (
                [e for e in evidence if e.document.superseded_by],
                [e for e in evidence if _overridden(e, evidence)],
            ):
                if older and len(older) < len(evidence):
                    draft = self._generate(question, older, perception)
                    if not draft.abstained:
                        return draft
        return self._generate(question, evidence, perception)

    def _generate(
        self, question: str, evidence: Sequence[Evidence], perception: Perception | None = None
    ) -> Draft:
        asked = perception.constraints if perception else Constraints()
        asks = perception.asks if perception else read_asks(question, self._attributes)
        # "since 2024" says which documents, not what the answer must contain.
        # Nor do the words naming an earlier version ("the old revision", "the 2019
        # manual"): the current revision's title says "revision" too.
        wanted = set(asks.terms) - set(terms(asked.time.text if asked.time else ""))
        wanted -= set(terms(asked.earlier)) - model_terms(terms(asked.earlier))
        # Nor do the words asking for the current version ("what oil does it take now?").
        wanted -= set(terms(asked.latest_words))
        if perception is not None and perception.route == Route.COMPARISON and perception.sides:
            statements = self._compare(evidence, perception, wanted)
        else:
            identifiers = _question_identifiers(perception) | _numbered(perception, evidence)
            codes = _question_identifiers(perception, CODE_LABELS)
            sentences = [
                s
                for e in evidence
                for s in _sentences(e, wanted, identifiers, codes, asks.signals, asks.options)
            ]
            known = set().union(*(s.subjects for s in sentences))
            # A question about a model or code the evidence never mentions has no answer here.
            if not identifiers <= known:
                sentences = []
            # Nor one about a product or version its chunk and document never name (a
            # sibling's manual: another product, another revision).
            named_here = [s for s in sentences if not unnamed_products(asks, [s.evidence])]
            if sentences and not named_here:
                missing = " or ".join(unnamed_products(asks, evidence))
                reason = f"the evidence never names the {missing}"
                return Draft(NO_ANSWER, (), self.name, abstained=True, reason=reason)
            sentences = named_here
            # Nor one about a system the question names by the name its documents go
            # by ("the evcc web interface"), from a document that never names it.
            systems = document_names(asks.content_terms, evidence)
            here = [s for s in sentences if not unnamed_here(systems, s.evidence)]
            if sentences and not here:
                missing = " or ".join(sorted(systems))
                reason = f"the sentences found are from documents that never name {missing}"
                return Draft(NO_ANSWER, (), self.name, abstained=True, reason=reason)
            sentences = here
            relevant = [s for s in sentences if self._relevant(s, asked)]
            if not relevant and _checkable(asks):
                # No sentence shares enough of the question by what it says itself: a
                # question worded apart from its manual names the place of its answer more
                # than the answer ("is the XT30 power input on moteus protected if I wire
                # the battery backwards?": "The power input is NOT protected against
                # reverse polarity." under "Electrical Connections", the XT30 named in the
                # sentences before). Each sentence is then read where it stands
                # (``_in_context``) — for a question whose answer a sentence can be checked
                # against (``_checkable``): for any other, a sentence of the right place
                # is on the topic and says nothing the checks could hold it to (measured:
                # 13 answers gained for 16 wrong ``ok`` on the six manual sets).
                sentences = [_in_context(s) for s in sentences]
                relevant = [s for s in sentences if self._relevant(s, asked)]
            # Answer only what was asked: "what does it weigh?" is not answered by its flow.
            wanted_attributes = asks.attributes
            table = self._attributes
            candidates = [
                s
                for s in relevant
                if _addresses_an_ask(asks, s.text) and not table.contrast(asks.terms, s.text)
            ]
            # Sentences about the subject (its model or code), relevant by words or not.
            about = [s for s in sentences if s.identifiers >= 0.5] if identifiers else relevant
            if asks.answer_type == AnswerType.MEANING and asks.signals:
                # What a code or a numbered signal means is told by its entry ("- "39
                # (outside bounds)": servopos.position_min … are not configured"), which
                # shares few of the question's words: the sentences that open an entry
                # of every asked signal are about it.
                about = [
                    *about,
                    *(s for s in sentences if s not in about and enters(asks.signals, s.text)),
                ]
            # Of the kind asked for, when any is (a figure, the code's meaning, a part
            # number). A code's meaning or a part number is looked for among all the
            # sentences about the subject, not only those sharing words; a figure is not (a
            # figure of the subject's is no answer for another of its attributes).
            named = perception.identifiers if perception else ()
            widened = asks.answer_type in (AnswerType.MEANING, AnswerType.PART_NUMBER) or bool(
                asks.signals
            )
            pool = [*candidates, *(s for s in about if widened and s not in candidates)]
            if asks.answer_type == AnswerType.KIND and asks.kind:
                # one of a kind is named tersely ("The sump holds 62 litres of 15W-40
                # oil"): a sentence about the subject naming the kind's noun
                head = set(terms(asks.kind.split()[-1]))
                pool += [s for s in about if s not in pool and head <= set(terms(s.text))]
            if asks.answer_type == AnswerType.PURPOSE and asks.focus is not None:
                # What a thing is for is often said in a sentence leaning on the one
                # naming it ("… it is a good idea to add a capacitor as shown as well.
                # This will help reduce the effect of electrical noise."): a sentence
                # about the subject that, with what it leans on, names the thing is
                # looked for however few of the question's other words it shares, in
                # the documents of the sentences that share enough.
                documents = {s.evidence.document.id for s in relevant}
                pool += [
                    s
                    for s in sentences
                    if s not in pool
                    and s.context
                    and s.evidence.document.id in documents
                    and names_focus(asks, _said(s))
                ]
            if asks.answer_type == AnswerType.YES_NO and asks.relation:
                # A yes/no question's answer states the asked relation; a sentence about
                # the subject that does is looked for however few other words it shares.
                pool += [s for s in about if s not in pool and decides(asks, s.text)]
            if asks.set_value is not None:
                # "What does leaving HOME_SEARCH_VEL at 0 do?": a sentence under the key
                # (its heading or section) that names the value, however few of the
                # question's words it shares ("A value of zero causes …").
                key, value = asks.set_value
                pool += [
                    s
                    for s in sentences
                    if s not in pool
                    and key in f"{s.heading} {s.evidence.section} {s.text}"
                    and names_value(value, s.text)
                ]
            # A value asked of a key ("what value goes in PD164?"): a sentence that gives
            # the key a value, however few of the question's other words it shares
            # ("Set register PD164 (baud rate) to 2"; ``binding``).
            keys = asked_keys(question, named) if asks.form == QuestionForm.VALUE else ()
            if keys:
                pool += [s for s in sentences if s not in pool and _binds(keys, s)]
            # A sentence that gives the key its value needs no next one to carry it.
            pool = [s if _binds(keys, s) else _with_next(s, asks, named) for s in pool]

            def fits(s: _Sentence) -> bool:
                return (
                    _addresses_an_ask(asks, s.text)
                    and not table.contrast(asks.terms, s.text)
                    and not unmet(asks, named, _read_on(s, asks), s.evidence.text)
                    and not unnamed_signal(asks, f"{s.lead} {s.context} {s.text}", quoted=True)
                    and not unstated_default(asks, f"{s.context} {s.text}", quoted=True)
                    and not other_code(asks, s.text)
                    # A sentence giving the asked key a value has the shape asked:
                    # "- deny: …" under "readonly" is a value, though not a number.
                    and (
                        not unshaped(asks.value_shape, _read_on(s, asks), asks.terms)
                        or _binds(keys, s)
                    )
                    # Nor a sentence that only repeats the question (a manual page's
                    # title line, "DEBOUNCE(9) HAL Component DEBOUNCE(9)").
                    and not adds_nothing(asks, _read_on(s, asks))
                    # Nor one about another option of a manual page than the asked
                    # one, nor one saying what a setting does when given for a
                    # question on its absence, nor one leaning on a block it leaves out.
                    and not unnamed_option(
                        asks, _said(s), (s.heading, s.evidence.section), (s.evidence.text,)
                    )
                    and not unstated_absence(asks, f"{_said(s)} {s.then}")
                    and not _leans_on_a_block(s)
                )

            fitting = [s for s in pool if fits(s)]
            if not fitting and _asks_a_value(asks):
                # A value is often stated tersely, in fewer of the question's words than
                # the sentences around it that only talk about it ("upsd listens on TCP
                # port 3493 by default."): when none of those gives the value asked, one
                # sharing half as many words that does (``_near``).
                # It names every word of what the question asks (its focus), itself or
                # under its heading, and gives the asked key a value, if any. A
                # question without a focus is not widened ("what feed-in limit applies
                # …?" would take any limit), nor is an attribute enough for its words
                # (any inspection interval is no answer to how often ladders are
                # inspected): a terse sentence that shares the subject's name and holds
                # a figure is no answer ("upsd listens on TCP port 3493 by default." for
                # the default MAXAGE of upsd.conf).
                near = [s for s in sentences if s not in pool and self._near(s, asked)]
                near = [t for t in (_with_next(s, asks, named) for s in near) if fits(t)]
                if keys:
                    near = [s for s in near if _binds(keys, s)]
                fitting = [
                    s if _names_every(asks, _said(s)) else replace(s, lead=s.heading)
                    for s in near
                    if _names_every(asks, f"{_said(s)} {s.heading}")
                ]
            if asks.form == QuestionForm.WHY:
                # A why question is answered by a sentence that gives a reason, when one
                # about the subject does ("The directive was issued after two reports of
                # blade damage"), over one that only restates what changed.
                given = pattern("lexicon", "reason_given")
                reasons = [s for s in fitting if given.search(s.text)] or [
                    s
                    for s in about
                    if given.search(s.text) and set(terms(s.text)) & set(asks.content_terms)
                ]
                fitting = reasons or fitting
            # Not a sentence on a neighbouring key of the one the question names ("if
            # low_charge is set" answered by "runtime_left halts it at 3 minutes"): its
            # figures are the other key's, unless its heading or antecedent names the
            # asked one.
            fitting = [
                s
                for s in fitting
                if not sibling_keys(asks, f"{s.heading} {s.context} {s.text} {s.then}")
            ]
            if asks.set_value is not None:
                # About the value the question sets, not the key at another value.
                key, value = asks.set_value
                fitting = [
                    s for s in fitting if names_value(value, f"{s.context} {s.text} {s.then}")
                ] or fitting
                # and of those, one in the block the key heads (its heading or section)
                # over one that names it in passing ("The default values for unspecified
                # HOME_SEARCH_VEL, HOME_LATCH_VEL, … are zero").
                fitting = [
                    s for s in fitting if key in f"{s.heading} {s.evidence.section}"
                ] or fitting
            # Of those, the ones that give the asked key a value, when any does: "This
            # must match the setting in register PD164 (defaults to 38400)" names the key
            # and gives the driver's rate.
            fitting = [replace(s, bound=True) for s in fitting if _binds(keys, s)] or fitting
            # A table flattened without its column names binds no value to its key
            # ("Homing Type; HOME_SEARCH_VEL; …; Immediate; 0; 0; NO"): a sentence that
            # fits answers instead, when one does.
            # Nor does a program's status printout ("APC : … LINEV : 123.0 Volts …").
            fitting = [s for s in fitting if not unbound_cells(s.text)] or fitting
            # Not a sentence naming a sibling of the asked product in its place (a
            # table's "Name: moteus-c1; Abs Max Voltage: 51V" row for the moteus-r4,
            # whose row is in the same chunk): its figures are the sibling's.
            fitting = [
                s for s in fitting if not any(sibling_named(p, _said(s)) for p in asks.products)
            ] or fitting
            if asks.answer_type == AnswerType.YES_NO and asks.relation:
                # A yes/no question is answered by a sentence that states the asked
                # relation or its negation (``verdict``), when one does; the subject may
                # be named by its document's title, the sentence calling it by a short
                # name ("can i mix 12v and 24v solenoids on one rev pneumatic hub?": "…
                # all solenoids connected to a single PH must be the same voltage" in
                # "Wiring Pneumatics - REV Pneumatic Hub").
                fitting = [
                    s for s in fitting if decides(asks, f"{s.evidence.document.title}. {s.text}")
                ] or fitting
            # Of those, the ones that name what the question's form asks about ("What CAN
            # baud rate …?": the baud rate), when any does: a sentence that names the
            # subject but states something else of it is no answer.
            # A sentence under a heading that names it counts too, cited after its heading;
            # the whole phrase before its head alone ("CAN baud rate" before "Default Rate").
            # Not for a focus that is the subject of what is done ("How often does an air
            # receiver need a hydrostatic test?": the interval is asked, not the receiver).
            if asks.done is None and asks.measure is None:
                fitting = (
                    _naming_focus(asks, fitting, every=True)
                    or _naming_focus(asks, fitting)
                    or fitting
                )
            # Failing those, a sentence sharing the question's words, but never one that
            # only repeats them (a manual page's title line).
            # Nor one stating its figures at another condition than the asked one ("at 50
            # Hz" for "at 60 Hz?"): that figure is of another thing.
            fallback = [
                s
                for s in candidates
                if not adds_nothing(asks, s.text) and not other_condition(asks, s.text)
            ]
            fallback = [s for s in fallback if not _leans_on_a_block(s)] or fallback
            if not fitting and asks.answer_type in _NAMED_ONLY and relevant:
                # "Which grease goes in the gearboxes?" is not answered by when the grease
                # is changed, nor "who signs the permit?" by how long it is valid: a
                # sentence on the topic that names no such thing is no fallback
                reason = _unmet_by_all(asks, named, relevant) or "no sentence names one"
                return Draft(NO_ANSWER, (), self.name, abstained=True, reason=reason)
            chosen = fitting or fallback
            if asked.time is not None and not asked.latest:
                chosen = _in_period(chosen, asked.time)
            elif not (asked.history or asks.documents):
                chosen = _current(chosen)
            statements = self._best(chosen, asks.answer_type, question)
            # Not a yes/no question judging each against a figure it gives ("are the
            # AC-75 and the AC-110 above the 85 dB(A) action level?"): each side's own
            # figure does not say where the limit is stated.
            judged = asks.form == QuestionForm.YES_NO and bool(asks.quantities)
            sides = [] if judged else _sides_asked(perception, identifiers)
            if statements and len(sides) > 1:
                statements = self._each_side(sides, chosen, asks, question)
            if statements and len(asks.parts) > 1:
                statements += _for_parts(asks, statements, about if identifiers else sentences)
            unaddressed = wanted_attributes and not any(
                addresses(wanted_attributes, s.text) for s in about
            )
            if (relevant or unaddressed and about) and not statements:
                if wanted_attributes:
                    names = " or ".join(a.name for a in wanted_attributes)
                    reason = f"the evidence is about the subject but gives no {names}"
                else:  # the requirement no sentence met, of the best one sharing words
                    reason = _unmet_by_all(asks, named, relevant) or (
                        "the sentences sharing the question's words only repeat it or "
                        "tell of something else"
                    )
                return Draft(NO_ANSWER, (), self.name, abstained=True, reason=reason)
        if not statements:
            return Draft(NO_ANSWER, (), self.name, abstained=True)
        return Draft(" ".join(s.text for s in statements), tuple(statements), self.name)

    def _relevant(self, s: _Sentence, asked: Constraints) -> bool:
        # A figure in the unit asked for ("how many grams" → "25 g") is half an answer;
        # any figure helps a question that asks for one.
        if _has_unit(s.text, asked.units):
            bonus = 0.2
        else:
            bonus = 0.1 if asked.quantitative and quantities(s.text) else 0.0
        # A sentence that names the question's error code or part number needs fewer of
        # its other words ("E4031, what's wrong?" is answered by "E4031 means ...").
        needed = self.min_relevance / 2 if s.names_codes else self.min_relevance
        return s.identifiers >= 0.5 and s.words + bonus >= needed

    def _near(self, s: _Sentence, asked: Constraints) -> bool:
        """``s`` is about the subject and shares itself (its document's title aside) at
        least half the words ``_relevant`` asks for: a sentence that states a value
        tersely ("upsd listens on TCP port 3493 by default."), not any sentence of a
        document whose title holds the question's words ("Speed: 250 kbps; value:
        250000" in the ODrive CAN guide)."""
        return self._relevant(replace(s, words=2 * s.own_words), asked)

    def _band(self, sentences: list[_Sentence], kind: AnswerType, question: str) -> list[_Sentence]:
        """The sentences of the best one's document near it by word overlap (within
        ``_BAND`` of it), best first: by overlap, closeness in meaning to the question
        (when the generator has the embedder's similarity and there is a choice) and
        section together. Closeness only reorders the near-ties of overlap; it never
        brings in a sentence overlap finds clearly worse, nor another document: which
        document answers stays with overlap weighted by the evidence's own score
        (authority, recency, supersession — the airworthiness directive's 500 cycles
        over the manual's 750, whose sentence may read closer). Not for a procedure,
        whose answer starts at its first step."""
        best = min(sentences, key=lambda s: (-s.score, s.evidence.number))
        document = best.evidence.document.id
        band = [
            s
            for s in sentences
            if (s.score >= _BAND * best.score or s.bound) and s.evidence.document.id == document
        ]
        band = [replace(s, placed=_placed(s, kind)) for s in band]
        prose = [s for s in band if _reads_as_sentence(s.text)]
        if self._similarity is not None and len(prose) > 1 and kind != AnswerType.PROCEDURE:
            cosines = self._similarity.scores(question, [s.text for s in prose])
            close = {id(s): c for s, c in zip(prose, cosines, strict=True)}
            # A caption or a table row is neither helped nor held back by it.
            neutral = sum(cosines) / len(cosines)
            band = [replace(s, similarity=close.get(id(s), neutral)) for s in band]
        # A step is not put before the step it follows ("There select System …" after
        # "… select Settings"): a sentence ranks as high as the best of the sentences
        # after it in its paragraph that lean on it or are steps.
        # Not an item of a list of values ("- deny: Write access is blocked …"), which
        # follows no other item.
        leans, step = pattern("lexicon", "leans_on_context"), pattern("lexicon", "step")
        item = pattern("lexicon", "value_item")
        rank = {
            id(s): max(
                [
                    s.rank,
                    *(
                        t.rank
                        for t in band
                        if t is not s
                        and t.text in s.steps
                        and (leans.match(t.text) or step.search(t.text))
                        and not item.match(t.text)
                    ),
                ]
            )
            for s in band
        }
        return sorted(band, key=lambda s: (-rank[id(s)], s.evidence.number))

    def _best(
        self, sentences: list[_Sentence], kind: AnswerType = AnswerType.ANY, question: str = ""
    ) -> list[Statement]:
        if not sentences:
            return []
        ranked = self._band(sentences, kind, question)
        chosen: list[_Sentence] = []
        for s in ranked:
            if len(chosen) == self.max_statements:
                break
            if chosen and s.evidence.document.id != chosen[0].evidence.document.id:
                continue  # more from the best document, not a second opinion from another
            if any(
                coverage(terms(s.text), set(terms(f"{c.context} {c.text}"))) > 0.8 for c in chosen
            ):
                continue  # says nothing new
            if any(c.text == s.context for c in chosen):
                s = replace(s, context="")  # its antecedent is in the answer already
            if any(c.lead == s.lead for c in chosen):
                s = replace(s, lead="")  # its heading is in the answer already
            chosen.append(s)
        if kind == AnswerType.PROCEDURE and chosen:
            # a procedure: its steps, from the best sentence's paragraph
            return [_cite(chosen[0], steps=True)]
        if kind == AnswerType.MEANING and chosen:
            chosen[0] = _with_remedy(chosen[0])
        if kind == AnswerType.OPTIONS and chosen and not lists_options(chosen[0].text):
            # the choices, from the sentence after the best one that lists them
            return [_cite(replace(chosen[0], steps=_through_options(chosen[0])), steps=True)]
        return [_cite(s) for s in chosen]

    def _each_side(
        self,
        sides: Sequence[tuple[str, frozenset[str]]],
        sentences: list[_Sentence],
        asks: Asks,
        question: str,
    ) -> list[Statement]:
        """The same thing asked of each model named side by side ("What does E1102 mean
        on the CP-200 and on the CP-350?"): the best answer about each, from its own
        document, named by it; a side none answers is left out (the validator names it)."""
        out: list[Statement] = []
        for side, mine in sides:
            own = [s for s in sentences if _about_side(mine, s.subjects)]
            if own:
                best = self._band(own, asks.answer_type, question)[0]
                labelled = _cite(best, label=_as_written(side, best.evidence))
                if labelled.text not in (o.text for o in out):
                    out.append(labelled)
        return out

    def _compare(self, evidence, perception, wanted) -> list[Statement]:
        """The best sentence about each side, then the relation the question asks for."""
        units = perception.constraints.units + perception.asks.attribute_units
        asked_by = perception.asks.comparison
        if asked_by is not None and asked_by.difference and not units:
            # "How much heavier is …?" with no unit of what is compared: any two figures
            # of the sides would do, and none answers it.
            return []
        side_terms = {side: set(terms(side)) for side in perception.sides}
        asked_pairs = {(a, b) for a, b, _ in perception.asks.pairs}
        comparatives = self._attributes.comparatives
        wanted = wanted - _COMPARISON_WORDS - set(terms(" ".join(comparatives.words)))
        asked = Constraints(quantitative=True, units=units)  # a comparison is about figures
        per_side = []
        for side, mine in side_terms.items():
            # Score each side without the other sides' names, which its sentences lack.
            others = set().union(*(t for s, t in side_terms.items() if s != side))
            sentences = [
                s
                for e in evidence
                for s in _sentences(e, wanted - others, mine)
                if mine <= s.subjects and (self._relevant(s, asked) or _has_unit(s.text, units))
            ]
            # Of the kind asked for (a part number for "which part numbers …"), when any is.
            sentences = [
                s for s in sentences if not unmet(perception.asks, (side,), s.text, s.evidence.text)
            ] or ([] if _kind_fixed(perception.asks) else sentences)
            # Of the attribute asked for ("how much oil … hold": a capacity), when any is.
            named = perception.asks.named_attributes
            sentences = [s for s in sentences if addresses(named, s.text)] or sentences
            if sentences:
                # Prefer a figure in the unit asked about, from a sentence about the side
                # itself rather than one of its parts or codes (E1140 on the CP-350), that
                # names the thing asked as the question does ("compressor oil", not the
                # "oil level" or the "oil separator").
                best = max(
                    sentences,
                    key=lambda s: (
                        s.score
                        + 0.3 * _has_unit(s.text, units)
                        - 0.3 * bool(model_terms(terms(s.text)) - mine - others)
                        + PAIR_WEIGHT * _shares_a_pair(asked_pairs, s.text)
                    ),
                )
                per_side.append((side, best))
        # each side named as its document writes it ("CP-350" for "cp-350"): the checks
        # read a model by the identifier patterns
        per_side = [(_as_written(side, s.evidence), s) for side, s in per_side]
        unique: dict[tuple[int, str], tuple[str, _Sentence]] = {}
        for side, s in per_side:  # sides may share a sentence (read once per side)
            unique.setdefault((s.evidence.number, s.text), (side, s))
        statements = [_cite(s, label=side) for side, s in unique.values()]
        relation = _relation(perception.asks.comparison, per_side, units, comparatives)
        return statements + ([relation] if relation else [])


def _in_context(s: _Sentence) -> _Sentence:
    """``s`` scored as read where it stands (``_Sentence.in_context``)."""
    r = s.in_context
    if r is None:
        return s
    return replace(s, identifiers=r.identifiers, words=r.words, score=r.score)


def _as_written(side: str, e: Evidence) -> str:
    """``side`` as ``e``'s document or chunk writes it ("cp-350" → "CP-350"), else as
    the question wrote it."""
    wanted = "".join(terms(side))
    text = f"{e.document.title}. {e.text}"
    found = [text[start:end] for _, start, end in identifiers_in(text)]
    for name in found:
        if "".join(terms(name)) == wanted:
            return name
    if wanted.isdigit():  # a model named by its number: "737" of the B737-800's manual
        for name in found:
            if _numbers(wanted, "".join(terms(name))):
                return name
    return side


def _shares_a_pair(pairs: AbstractSet[tuple[str, str]], text: str) -> bool:
    """``text`` has two adjacent content words of the question's, in its order."""
    return bool(pairs) and any((a, b) in pairs for a, b, _ in word_pairs(text))


def _for_parts(
    asks: Asks, statements: Sequence[Statement], sentences: Sequence[_Sentence]
) -> list[Statement]:
    """For each ask of the question (``Asks.parts``) no statement answers, the best
    sentence that does, from any document ("How often are lockout devices inspected, and
    how often are safety valves tested?": one rule each); none when none does (the
    validator then names the part left out)."""
    added: list[Statement] = []
    for part in asks.parts:
        if any(answers_part(part, asks.parts, t.text) for t in (*statements, *added)):
            continue
        found = [t for t in sentences if answers_part(part, asks.parts, t.text)]
        if found:
            best = min(found, key=lambda t: (-t.score, t.evidence.number))
            added.append(_cite(best))
    return added


def _unmet_by_all(asks: Asks, named: Sequence[str], sentences: Sequence[_Sentence]) -> str:
    """What the best of ``sentences`` (by score) lacks of what the question asks for
    (``unmet``), or "" when it lacks nothing a check names."""
    for s in sorted(sentences, key=lambda s: -s.score)[:1]:
        return unmet(asks, named, _read_on(s, asks), s.evidence.text) or ""
    return ""


def _leans_on_a_block(s: _Sentence) -> bool:
    """``s`` introduces a block its chunk does not give with it, or speaks of one shown
    beside it ("The above command says: …"; ``answer_types.forward``)."""
    return s.unfinished or leaning_on_a_block([_said(s)]) is not None


# The answer types only a sentence naming the thing asked for answers: one of a kind,
# who does something (``answer_types.kind``).
_NAMED_ONLY = frozenset([AnswerType.KIND, AnswerType.AGENT])


def _asks_a_value(asks: Asks) -> bool:
    """The question asks for a figure or a value of a shape of its own (a port, a line
    speed, a limit; not any "value")."""
    shaped = asks.value_shape is not None and asks.value_shape != "value"
    return shaped or asks.answer_type == AnswerType.FIGURE


def _checkable(asks: Asks) -> bool:
    """A sentence can be checked against what the question asks: a figure, a count, a
    value of a shape, an interval or a time, a code's meaning, a part number, the choices,
    or yes/no on a relation a sentence states or denies. A question of any other kind is
    answered by whatever is on its topic, which is all a sentence read through its place
    (``_in_context``) would show."""
    typed = asks.answer_type in (
        AnswerType.FIGURE,
        AnswerType.COUNT,
        AnswerType.MEANING,
        AnswerType.PART_NUMBER,
        AnswerType.OPTIONS,
    )
    verdict = asks.answer_type == AnswerType.YES_NO and bool(asks.relation)
    return typed or verdict or _asks_a_value(asks) or asks.measure is not None


def _binds(keys: Sequence[str], s: _Sentence) -> bool:
    """``s`` (with the sentence after it, when that carries the value) gives one of the
    asked ``keys`` a value (``binding.binds``)."""
    return bool(keys) and binds(keys, f"{s.text} {s.then}".strip(), s.heading)


def _names_every(asks: Asks, text: str) -> bool:
    """``text`` names every word of the question's focus (by word family), when it has
    one with words; a figure of the asked attribute does not stand in for them."""
    if asks.focus is None or not asks.focus.wanted:
        return False
    said = families(terms(text))
    return all(in_family(t, said) for t in asks.focus.wanted)


def _said(s: _Sentence) -> str:
    """What the answer citing ``s`` says: the sentence, after the one it leans on."""
    return f"{s.context} {s.text}" if s.context else s.text


def _naming_focus(asks: Asks, sentences: list[_Sentence], every: bool = False) -> list[_Sentence]:
    """The sentences that name the focus of the question's form (``names_focus``), with
    the sentence they lean on and are cited after, else those under a heading that
    names it, to be cited after it."""
    return [s for s in sentences if names_focus(asks, _said(s), every)] or [
        replace(s, lead=s.heading) for s in sentences if names_focus(asks, s.heading, every)
    ]


# How many sentences after a chosen one may list the choices it introduces: "… a warning
# time of two minutes (the factory default). There are four settings: 2, 5, 7 or 10
# minutes."
_OPTIONS_AFTER = 2


def _with_next(s: _Sentence, asks: Asks, named: Sequence[str]) -> _Sentence:
    """``s`` with the sentence after it (``then``) when the question asks for a figure
    or a value of a shape, ``s`` gives none and the next sentence of its paragraph does
    ("… falls below the specified percentage. The default is 5 percent."), naming no
    model, code or key ``s`` does not (the next block's: "runtime_left … 3 minutes";
    ``answer_types.named_keys``)."""
    if (asks.answer_type != AnswerType.FIGURE and asks.value_shape is None) or not s.steps:
        return s
    if _gives_the_value(asks, named, s.text, s.evidence.text):
        return s
    after = s.steps[0]
    if not _gives_the_value(asks, named, f"{s.text} {after}", s.evidence.text):
        return s
    own = set(terms(s.text))
    new_names = model_terms(set(terms(after))) - own
    new_keys = {k for k in named_keys(after) if not set(terms(k)) <= own}
    return s if new_names or new_keys else replace(s, then=after)


def _gives_the_value(asks: Asks, named: Sequence[str], text: str, sources: str) -> bool:
    return not unmet(asks, named, text, sources) and not unshaped(
        asks.value_shape, text, asks.terms
    )


def _read_on(s: _Sentence, asks: Asks) -> str:
    """What a sentence gives towards the answer type asked: itself, with the rest of its
    paragraph for a procedure (its steps) and the next sentences for the choices; with
    the sentence after it when that carries the value (``then``)."""
    if s.then:
        return f"{s.text} {s.then}"
    if asks.answer_type == AnswerType.PROCEDURE:
        return " ".join((s.text, *s.steps))
    if asks.answer_type == AnswerType.OPTIONS:
        return " ".join((s.text, *s.steps[:_OPTIONS_AFTER]))
    return s.text


def _through_options(s: _Sentence) -> tuple[str, ...]:
    """The sentences after ``s`` up to the one that lists the choices."""
    for i, t in enumerate(s.steps[:_OPTIONS_AFTER]):
        if lists_options(t):
            return s.steps[: i + 1]
    return ()


def _kind_fixed(asks: Asks) -> bool:
    """The question asks for a kind of answer no other sentence stands in for: a part
    number, a code's meaning (a figure of another attribute is no part number)."""
    return asks.answer_type in (AnswerType.MEANING, AnswerType.PART_NUMBER)


def _table_statements(e: Evidence) -> list[Statement]:
    """Each rendered row of table evidence as a statement citing it."""
    return [
        Statement(f"{e.text[a:b].strip().rstrip('.')} [{e.number}].", (e.number,))
        for a, b in split_sentences(e.text)
        if e.text[a:b].strip()
    ]


def _sentences(
    e: Evidence,
    wanted: set[str],
    identifiers: set[str],
    codes: AbstractSet[str] = frozenset(),
    signals: Sequence[str] = (),
    options: Sequence[str] = (),
) -> list[_Sentence]:
    """Every sentence of the evidence, scored by how much of the question it covers.

    A question identifier counts as covered when the sentence names it, or when its
    document is about it (title, metadata) and the sentence names no sibling identifier
    (``E4031`` in a sentence is not about ``E4027``). A sentence under a heading that
    names every code or signal the question asks about (``signals``: "### When starting
    the program on the TP, I get a C207A0 error.") is about it: the heading's words count
    as its own, and the answer cites it after the heading.
    """
    doc = e.document
    about = set(terms(" ".join([doc.title, *doc.metadata.values()])))
    words = {_singular(t) for t in wanted - identifiers}
    leans = pattern("lexicon", "leans_on_context")
    out: list[_Sentence] = []
    heading = e.section.rsplit(">", 1)[-1].strip()
    before: list[str] = []  # the sentence before, and the one before that if it leans
    paragraphs: list[int] = []  # each sentence's paragraph, for the steps after it
    paragraph, last_end = 0, 0
    forward = pattern("lexicon", "leans_forward")
    # Where a sentence stands (``_in_context``): the chunk's section path, the FAQ question
    # it answers (since the last heading) and the sentence before it; the identifiers the
    # chunk names are its subjects too, as its document's are, unless it names a sibling.
    section = set(terms(e.section))
    chunk_names = _identifier_terms(set(terms(e.text)))
    asked_line, previous = "", ""
    for start, end in split_sentences(e.text):
        raw = e.text[start:end]
        text = " ".join(raw.split())
        if "\n\n" in e.text[last_end:start]:
            paragraph += 1
        last_end = end
        if _HEADING.match(raw) and _HEADING_MARKS.sub("", text):
            heading = _HEADING_MARKS.sub("", text)
        elif _title_line(text, e.text[end : end + 2]):
            heading = text
        if _HEADING.match(raw) or len(text) < _SHORT or _QUESTION.search(text):
            before = []
            paragraph += 1
            previous = ""
            if _QUESTION.search(text):
                asked_line = text
            elif _HEADING.match(raw) or heading == text:
                asked_line = ""
            continue  # a heading, a scrap, or a question (an FAQ's): no answer to cite
        if heading == text:
            asked_line = ""
        context = " ".join(before) if leans.match(text) else ""
        if not context and before and _names_option_before(options, text, before[-1]):
            # "It disables deceleration over-voltage stall prevention" tells of the
            # asked option only after the sentence naming it ("−R, −−braking−resistor
            # This argument should be used when …"): that sentence names its subject.
            context = before[-1]
        if text[-1] in ".!?:":  # a caption or label line is no antecedent: skip it
            before = [*before, text] if leans.match(text) else [text]
            before = before[-_ANTECEDENTS:]
        own = set(terms(text))
        # Under the heading of the asked code ("… I get a C207A0 error."), a sentence
        # that does not name it tells of it: the heading goes with it.
        lead = heading if signals and _names_signals(signals, heading, text) else ""
        own_and_lead = own | set(terms(lead))
        named = _identifier_terms(own)
        inherited = {t for t in _identifier_terms(about) if not _has_sibling(t, named)}
        subjects = frozenset(named | inherited)
        id_share = coverage(identifiers, subjects)
        word_share = coverage(words, {_singular(t) for t in own_and_lead | about})
        n_ids, n_words = IDENTIFIER_WEIGHT * len(identifiers), len(words)
        overall = (n_ids * id_share + n_words * word_share) / ((n_ids + n_words) or 1)
        score = overall * (0.5 + 0.5 * e.score)
        names_codes = bool(codes) and codes <= own
        own_share = coverage(words, {_singular(t) for t in own})
        surround = own_and_lead | about | section | set(terms(f"{heading} {asked_line} {previous}"))
        placed_subjects = subjects | {t for t in chunk_names if not _has_sibling(t, named)}
        placed_ids = coverage(identifiers, placed_subjects)
        placed_words = coverage(words, {_singular(t) for t in surround})
        placed = (n_ids * placed_ids + n_words * placed_words) / ((n_ids + n_words) or 1)
        # Among the sentences of one place, which share its words alike, the one saying
        # more of the question itself ranks first.
        placed_score = (placed + own_share) / 2 * (0.5 + 0.5 * e.score)
        previous = text
        out.append(
            _Sentence(
                text,
                e,
                id_share,
                word_share,
                score,
                subjects,
                names_codes,
                context,
                (),
                heading,
                lead,
                own_words=own_share,
                in_context=_Reading(placed_ids, placed_words, placed_score),
            )
        )
        paragraphs.append(paragraph)
        if forward.search(text):
            # The command, configuration or list a sentence ends by introducing ("… it
            # can be cleared by sending:" and "d stop" on a line of its own; "… edit
            # your ups.conf to look like this:" and its section) is part of it; without
            # it, in its chunk and bounded, the sentence gives none of it. The block's
            # own sentences stay sentences of their own ("- deny: Write access is
            # blocked …" answers alone).
            if block := _introduced(e.text, end):
                out[-1] = replace(out[-1], text=f"{text} {block}")
            else:
                out[-1] = replace(out[-1], unfinished=True)
    whole = [
        replace(
            s,
            steps=tuple(
                t.text
                for t, p in zip(out[i + 1 : i + 1 + _STEPS], paragraphs[i + 1 : i + 1 + _STEPS])
                if p == paragraphs[i]
            ),
        )
        for i, s in enumerate(out)
    ]
    # A sentence told under the asked code's heading is read on through the sentence
    # after it when that leans on it ("… only when the fieldbus is enabled after the
    # driver has started. Otherwise you will run into #204 …"): a code's entry is short.
    whole = [
        replace(s, then=s.steps[0]) if s.lead and s.steps and leans.match(s.steps[0]) else s
        for s in whole
    ]
    # A table row read as its labelled cells ("Name: moteus-c1; … Abs Max Voltage: 51V
    # (<= 12S); Peak Output: 20A; …") is also read cell by cell, each with the cell
    # naming the row: the asked cell answers, not the row's other columns (its "Peak
    # Output" is no answer to an input voltage, nor a reason to pass the row over).
    return whole + [
        _scored(c, s, wanted, identifiers, codes) for s in whole for c in _cells(s.text)
    ]


def _introduced(text: str, end: int) -> str | None:
    """The block a sentence ending at ``end`` of ``text`` introduces, flattened: the
    rest of its paragraph or the paragraph after it, with the items after that when it
    is a list, up to ``_BLOCK_CHARS``; None when ``text`` holds none (the sentence ends
    its chunk, or a heading follows) or it is longer."""
    block = ""
    for m in _PARAGRAPH.finditer(text, end):
        paragraph = m.group(0)
        if not block and _HEADING.match(paragraph):
            return None
        if block and not (_ITEM.match(paragraph) and _ITEM.match(block)):
            break
        if len(block) + len(paragraph) > _BLOCK_CHARS:
            if not block:
                return None
            break
        block = f"{block}\n{paragraph}" if block else paragraph
    return " ".join(block.split()) if block else None


def _names_option_before(options: Sequence[str], text: str, before: str) -> bool:
    """``text`` opens with a pronoun, names none of the asked ``options`` and the
    sentence ``before`` it names one (``answer_types.pinpoint``)."""
    if not options or not _PRONOUN_SUBJECT.match(text):
        return False
    asked = Asks(options=tuple(options))
    return unnamed_option(asked, text) is not None and unnamed_option(asked, before) is None


def _names_signals(signals: Sequence[str], heading: str, text: str) -> bool:
    """``heading`` names every one of ``signals`` and ``text`` does not name them all."""
    asked = Asks(signals=tuple(signals))
    return unnamed_signal(asked, heading, quoted=True) is None and bool(
        unnamed_signal(asked, text, quoted=True)
    )


def _cells(text: str) -> list[str]:
    """The cells of a table row rendered as labelled cells, each after the row's first
    (its name): none for text that is not such a row."""
    cells = [c.strip() for c in text.rstrip(".").split("; ")]
    if len(cells) < _ROW_CELLS or not all(_LABELLED_CELL.match(c) for c in cells):
        return []
    return [f"{cells[0]}; {c}." for c in cells[1:]]


def _scored(
    text: str, row: _Sentence, wanted: set[str], identifiers: set[str], codes: AbstractSet[str]
) -> _Sentence:
    """``text`` (a cell of ``row``) scored as ``row`` is, in its place."""
    e = row.evidence
    [cell] = [
        s
        for s in _sentences(replace(e, hit=replace(e.hit, text=text)), wanted, identifiers, codes)
        if s.text == text
    ] or [replace(row, text=text)]
    return replace(cell, evidence=e, heading=row.heading, context="", steps=())


_SECTIONS = {
    AnswerType.CAUSE: "sections_for_cause",
    AnswerType.MEANING: "sections_for_meaning",
    AnswerType.FIGURE: "sections_for_figure",
}


def _placed(s: _Sentence, kind: AnswerType) -> bool:
    """``s`` stands under a section, or in a document, named for the answer ``kind``
    (``words.sections_for_<kind>`` of ``rules/lexicon.toml``)."""
    if (name := _SECTIONS.get(kind)) is None:
        return False
    where = f"{s.evidence.section} {s.heading} {s.evidence.document.title}"
    return bool(set(terms(where)) & _section_terms(name))


@functools.cache
def _section_terms(name: str) -> frozenset[str]:
    return frozenset(terms(" ".join(words("lexicon", name))))


def _reads_as_sentence(text: str) -> bool:
    """A sentence that ends as one: not a caption ("Disconnected battery of a robot mid
    match") or a table row, which read close to any question about their subject and
    state nothing of it."""
    return text[-1] in ".!?"


def _title_line(text: str, after: str) -> bool:
    """A line that reads as a heading: a few words without closing punctuation, a blank
    line after it ("Use the correct CAN baud rate", "Example Configuration"); not a data
    line ("Speed: 250 kbps; value: 250000")."""
    return (
        after.startswith("\n\n")
        and text[-1] not in ".!?:;,)]"
        and ";" not in text
        and ": " not in text
        and len(text.split()) <= _TITLE_WORDS
    )


def _singular(term: str) -> str:
    """One term for a noun in -ing and its plural: ``terms`` makes "bearing" "bear" but
    "bearings" "bearing" ("Which one tolerates hotter bearings?" is answered by "Bearing
    temperature must stay below 80 °C")."""
    return term[:-3] if term.endswith("ing") and len(term) > 6 else term


def _sides_asked(
    perception: Perception | None, identifiers: set[str]
) -> list[tuple[str, frozenset[str]]]:
    """The models a question asks the same thing of (``Perception.asked_sides``, else
    its models side by side), each with its terms, when every one is a model the
    question names by a pattern (``identifiers``)."""
    if perception is None:
        return []
    named = perception.asked_sides or perception.asks.side_by_side
    sides = [(side, frozenset(terms(side))) for side in named]
    numbered = set(perception.numbered_models)
    if not all(mine and (mine <= identifiers or side in numbered) for side, mine in sides):
        return []
    return sides


def _addresses_an_ask(asks: Asks, text: str) -> bool:
    """``text`` addresses the attributes asked, or, of a question joining asks
    (``Asks.parts``: "the standby power rating and its fuel consumption"), answers one
    of them: each part is answered by a sentence of its own (``_for_parts``)."""
    if addresses(asks.attributes, text):
        return True
    return len(asks.parts) > 1 and any(answers_part(p, asks.parts, text) for p in asks.parts)


def _in_period(sentences: list[_Sentence], period: TimeConstraint) -> list[_Sentence]:
    """Of sentences that answer, those of documents dated in the period the question
    names, when any are ("Which engine oil did the 2019 GX-500 manual specify?": the
    2019 revision, not the 2025 one), as the validator holds the answer to it."""

    def dated_in(s: _Sentence) -> bool:
        when = s.evidence.document.updated_at
        return (
            when is not None
            and (period.start is None or when >= period.start)
            and (period.end is None or when <= period.end)
        )

    return [s for s in sentences if dated_in(s)] or sentences


def _with_remedy(s: _Sentence) -> _Sentence:
    """A code's meaning read on through what its entry says to do, the sentence after
    it in its paragraph opening with an instruction verb and naming no code ("Error
    E2210 means the discharge temperature exceeded 105 °C. Clean the cooler and check
    the oil level before restarting."): a technician reporting a code asks both."""
    if s.then or not s.steps:
        return s
    after = s.steps[0]
    first = re.match(r"\W*([A-Za-z]+)", after)
    if first is None or first.group(1).lower() not in _INSTRUCTION_VERBS.words():
        return s
    if any(m.group("code") for m in pattern("lexicon", "asked_signal").finditer(after)):
        return s
    return replace(s, then=after)


def _current(sentences: list[_Sentence]) -> list[_Sentence]:
    """Of sentences that answer, none of a document that a more authoritative one, no
    older, contradicts or makes precise about the same thing (two content words in
    common; half of the older sentence's when it gives no figure): the help desk's FAQ
    ("Run the GX-500 … at 30 % load") gives way to the manual ("… at least 40 % load"),
    "the hydraulic pressure dropped too low" to "… fell below 150 bar", as the validator
    would hold the FAQ outranked. Not when the question asks about a time, an earlier
    version or a kind of document (the caller's test)."""

    def outranks(t: _Sentence, s: _Sentence) -> bool:
        new, old = t.evidence.document, s.evidence.document
        if (
            new.id == old.id
            or new.authority <= old.authority
            or new.updated_at is None
            or old.updated_at is None
            or new.updated_at < old.updated_at
            or not t.subjects & s.subjects
        ):
            return False
        said = set(content_terms(s.text)) - model_terms(terms(s.text))
        common = said & set(content_terms(t.text))
        if len(common) < 2:
            return False
        theirs = {(q.value, q.unit) for q in quantities(t.text)}
        mine = {(q.value, q.unit) for q in quantities(s.text)}
        if not mine:  # a figure where the older one, saying mostly the same, gives none
            return bool(theirs) and 2 * len(common) >= len(said)
        shared = {u for _, u in mine} & {u for _, u in theirs}
        return bool(shared) and not theirs & mine  # another figure in the same unit

    outranked = {
        s.evidence.document.id for s in sentences if any(outranks(t, s) for t in sentences)
    }
    kept = [s for s in sentences if s.evidence.document.id not in outranked]
    return kept or sentences


def _numbered(perception: Perception | None, evidence: Sequence[Evidence]) -> set[str]:
    """The models of the evidence's documents the question names by a bare number
    (``Perception.numbered_models``: "the 737" for the B737-800), as terms."""
    if perception is None or not perception.numbered_models:
        return set()
    models = set().union(*(_document_models(e) for e in evidence))
    return {m for n in perception.numbered_models for m in models if _numbers(n, m)}


def _numbers(number: str, model: str) -> bool:
    """Whether a bare ``number`` ("737") is the number of ``model`` as terms ("b737800"):
    its digits there, not inside a longer number."""
    return re.search(rf"(?<!\d){re.escape(number)}", model) is not None


def _about_side(side: frozenset[str], subjects: AbstractSet[str]) -> bool:
    """A sentence about ``subjects`` is about the side: it names each of its terms, a
    bare number as the number of a model ("737" of "b737800")."""
    return all(
        t in subjects or (t.isdigit() and any(_numbers(t, s) for s in subjects)) for t in side
    )


def _question_identifiers(perception: Perception | None, labels=None) -> set[str]:
    """The question's model numbers and codes (of ``labels``) as terms ("CP-200" → "cp200")."""
    if perception is None:
        return set()
    names = [
        e.text
        for e in perception.entities
        if e.source == EntitySource.PATTERN and (labels is None or e.label in labels)
    ]
    return {t for t in terms(" ".join(names)) if any(c.isdigit() for c in t)}


def _has_sibling(identifier: str, named: set[str]) -> bool:
    """Whether ``named`` holds another identifier of the same family (cp350 for cp200)."""
    prefix = _prefix(identifier)
    return bool(prefix) and any(n != identifier and _prefix(n) == prefix for n in named)


def _cite(s: _Sentence, label: str = "", steps: bool = False) -> Statement:
    """The sentence with its citation, after the sentence it leans on if any; ``label``
    names its subject if the sentence doesn't."""
    text = s.text.rstrip()
    instruction = pattern("lexicon", "instruction")
    if steps and any(instruction.search(t) or lists_options(t) for t in s.steps):
        text = " ".join((text, *(t.rstrip() for t in s.steps)))
    elif s.then:
        text = f"{text} {s.then.rstrip()}"
    if s.context:
        lead = s.context.rstrip()
        text = f"{lead if lead[-1] in '.!?:' else lead + '.'} {text}"
    elif s.lead:
        text = f"{s.lead.rstrip(' .:')}: {text}"
    body = _standalone(text, s.evidence)
    if label and not set(terms(label)) <= set(terms(body)):
        body = f"{label}: {body}"
    end = body[-1] if body[-1] in ".!?" else "."
    body = body.rstrip(".!?")
    return Statement(f"{body} [{s.evidence.number}]{end}", (s.evidence.number,))


def _standalone(sentence: str, e: Evidence) -> str:
    """``sentence`` naming its subject when it leans on its context: "Its noise level is
    69 dB(A)" from the AC-75 manual becomes "The AC-75's noise level is 69 dB(A)"."""
    m = _LEANING.match(sentence)
    subject = _document_subject(e)
    if m is None or subject is None:
        return sentence
    rest = sentence[m.end() :]
    named = subject if e.document.doc_type == "regulation" else f"The {subject}"
    return f"{named}'s {rest}" if m.group(1) == "Its" else f"{named} {rest}"


def _document_subject(e: Evidence) -> str | None:
    """What a document is about, as its title writes it: a rule's designation
    ("AD 2025-03-11"), else the one identifier of the title ("AC-75")."""
    title = e.document.title
    if e.document.doc_type == "regulation":  # "It" is the rule itself, not what it covers
        designation = _DESIGNATION.search(title)
        return designation.group(0) if designation else None
    names = {m.group(0) for p in ENTITY_PATTERNS for m in p.finditer(title)}
    return next(iter(names)) if len(names) == 1 else None


def _has_unit(text: str, units: tuple[str, ...]) -> bool:
    return any(in_units(q.unit, units) for q in quantities(text))


def _relation(
    asked: Comparison | None, per_side, units, comparatives: Comparatives
) -> Statement | None:
    """ "The AC-110 is louder than the AC-75 (72 vs 69 dB(A)) [2][1]." from both figures."""
    if asked is None or len(per_side) != 2 or asked.phrase is None:
        return None
    word, phrase = (asked.word, asked.direction), asked.phrase
    figures: list[dict[str, Quantity]] = [
        {q.unit: q for q in reversed(quantities(s.text))} for _, s in per_side
    ]
    shared = set(figures[0]) & set(figures[1])
    # The unit the question is about; without one, the only unit both figures share.
    common = [u for u in units if u in shared] if units else sorted(shared)
    if not common or (not units and len(common) > 1):
        return None
    unit = common[0]
    (a, sa), (b, sb) = per_side
    va, vb = figures[0][unit].value, figures[1][unit].value
    if va == vb:
        return None
    first_higher = va > vb
    if (comparatives.direction(word[0], unit) or word[1]) == "lower":  # "faster": less time
        first_higher = not first_higher
    (winner, wv, we), (loser, lv, le) = (
        ((a, va, sa), (b, vb, sb)) if first_higher else ((b, vb, sb), (a, va, sa))
    )
    n, m = we.evidence.number, le.evidence.number
    cites = f"[{n}]" if n == m else f"[{n}][{m}]"
    text = f"The {winner} {phrase} than the {loser} ({wv:g} {unit} vs {lv:g} {unit})"
    if asked.difference:  # "how much louder?": by the difference, worked out
        text += f", which makes it {round(abs(wv - lv), 6):g} {unit} {word[0]}"
    text += f" {cites}."
    return Statement(text, tuple(dict.fromkeys((n, m))))


def _prefix(identifier: str) -> str:
    """The leading letters of an identifier term: "cp200" → "cp", "e4027" → "e"."""
    return identifier[: len(identifier) - len(identifier.lstrip("abcdefghijklmnopqrstuvwxyz"))]


def _identifier_terms(words: set[str]) -> set[str]:
    """Terms that look like identifiers: models and codes, and long numbers (P/Ns)."""
    return model_terms(words) | {w for w in words if w.isdigit() and len(w) >= 6}


def _overridden(e: Evidence, evidence: Sequence[Evidence]) -> bool:
    """Whether a newer document among ``evidence`` about the same model overrides
    ``e``'s (the manual an airworthiness directive changed), nothing marking it
    superseded."""
    doc = e.document
    if doc.updated_at is None or doc.supersedes or doc.superseded_by:
        return False
    about = _document_models(e)
    return any(
        o.document.id != doc.id
        and o.document.updated_at is not None
        and o.document.updated_at > doc.updated_at
        and about & _document_models(o)
        for o in evidence
    )


def _document_models(e: Evidence) -> set[str]:
    """The model and code terms of ``e``'s document title and metadata."""
    doc = e.document
    return set(model_terms(terms(" ".join([doc.title, *doc.metadata.values()]))))
