"""Validation: the fact checker. It never rewrites an answer; it judges and reports.

Three checks, each a list of issues as data, claim by claim:

- **traceability**: every key statement cites evidence (a short opening verdict and a
  conclusion from cited figures lean on their neighbours' citations), every citation
  points at a retrieved chunk, and the cited chunks support the statement: its figures
  appear there with their units (or converted) and for the same entity (``figures``),
  or are worked out from the answer's own figures; numbers the question supplies are
  context; a claim without a figure is bound to the entity of the sentence stating it
  (``facts``); its content terms are covered above ``support_threshold``, or its
  meaning is close to a cited sentence (``support``); so is every clause; a claim
  joined on after a statement's last citation (", and …") cites nothing;
- **timeliness**: the cited documents fall inside the question's time interval, none is
  superseded by a newer version in the store (unless the question asks about a change
  or an earlier version), and none is contradicted by a newer, at least as
  authoritative document among the evidence (a figure it no longer has);
- **consistency**: a comparison cites data for every side; "A is louder than B", "more
  often", "raises … up from" agree with the figures (``relations``); the answer gives
  what the question asks for (``attributes``, else the focus of its form: ``focus``),
  not another kind of it that the sources label apart ("lift motor", "drive motors"),
  about the code or model it names.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from ragcore.agents.attributes import (
    Attribute,
    AttributeTable,
    addresses,
    default_attributes,
    load_attributes,
)
from ragcore.agents.evidence import Draft, Evidence, Statement, is_table_evidence
from ragcore.agents.facts import misbound_claim
from ragcore.agents.figures import check_figures, identifiers
from ragcore.agents.focus import (
    asked_attributes,
    in_spelled_unit,
    no_measure,
    off_focus,
    other_kind,
)
from ragcore.agents.perception.agent import Perception
from ragcore.agents.perception.time import dated_range
from ragcore.agents.relations import (
    CONCLUSION,
    change_problem,
    concluded_frequency_problem,
    frequency_problem,
    inline_comparison_problem,
    one_sided,
    ranking_problem,
    relation_problem,
    single_figure_comparison,
    subjects,
)
from ragcore.agents.support import SemanticSupport
from ragcore.config import DEFAULT_SEMANTIC_THRESHOLD, DEFAULT_SUPPORT_THRESHOLD
from ragcore.documents import DocumentInfo, identifiers_of, named_identifiers
from ragcore.inference.reranker import Reranker
from ragcore.text.arithmetic import Figure, derived, figures
from ragcore.text.citations import CITATION, strip_citations
from ragcore.text.counts import backed as count_backed
from ragcore.text.counts import counts, enumerated
from ragcore.text.effective import effective_date
from ragcore.text.families import families, in_family
from ragcore.text.quantities import (
    number_spans,
    numbers,
    quantities,
)
from ragcore.text.sentences import split_sentences
from ragcore.text.terms import model_terms, terms
from ragcore.types import Check, IssueKind, Route

_PAST = re.compile(
    r"\b(?:was|were|had|used to|previously|originally|specified|required|earlier)\b",
    re.IGNORECASE,
)
_CODE_TERM = re.compile(r"^e\d+$")  # an error code as a term: e03, e4027
# An answer's opening verdict, backed by the statements after it: "Yes.", "No, …",
# "Lower.", "The RO-300 pre-filter." (a few words, no figure).
_VERDICT = re.compile(r"^\s*(?:(?:yes|no)\b|(?:\S+\s+){0,4}\S+[.!]?\s*$)", re.IGNORECASE)
_YES_NO = re.compile(
    r"^\s*(?:can|could|is|are|was|were|does|do|did|will|would|should|may|must|has|have)\b"
    r"(?![^?]*\bor\b)",  # "Is it higher or lower …?" asks which
    re.IGNORECASE,
)
# A question for a reason ("Why was the interval extended?") asks for no attribute's figure.
_WHY = re.compile(r"^\s*(?:why|how\s+come|for\s+what\s+reason|what\s+is\s+the\s+reason)\b", re.I)
# "What does the TS-400 do once utility power comes back?" asks what happens, not for the
# attribute its clause names.
_WHAT_HAPPENS = re.compile(
    r"^\s*what\s+(?:happens|(?:does|do|did|will|should|must)\b[^?]*\bdo)\b", re.IGNORECASE
)
# Where one claim of a statement ends and another begins.
_CLAUSE = re.compile(
    r",\s+and\s+|;\s+|,\s+(?:after|before|during|until)?\s*which\s+"
    r"|\s+and\s+(?=(?:it|they|this|the\s+\w+)\s)"
)
# A proper name of two or more capitalised words, not at the start of the statement:
# "manufactured by Gridline Controls". A name the sources never use is invented.
_NAME = re.compile(r"(?<=[a-z,;:] )[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+")
# Words that relate claims rather than state them ("raised", "still", "whereas"):
# a source states the figures, not how an answer links them.
_LINKING_TERMS = frozenset(
    terms(
        "raised raises increased extended extends lowered lowers reduced reduces decreased "
        "shortened changed unchanged still now whereas while respectively instead "
        "bring brings brought down cut cuts "
        "halved doubled tripled against versus compared contrast"
    )
)


# Words that frame a claim rather than state it: how an answer reports its source ("the
# manual requires", "Rev. 2 gives"), when a rule applies ("in effect since", which
# timeliness checks against the document's dates, as it checks "current" against newer
# versions), light verbs and particles ("makes", "went up", "goes out"), connectives
# ("but", "so", "whatever") and how far a comparison goes ("only marginally", "far
# heavier": the relation check reads the figures). A paraphrase uses them freely; the
# source need not.
_FRAME_TERMS = frozenset(
    terms(
        "require requires required requirement say says said state states stated specify "
        "specifies specified specification give gives gave given list lists listed "
        "effect effective apply applies applied applicable force valid "
        "make makes made go goes went gone take takes took taken had "
        "up out over under between since until within per via "
        "but so yet therefore thus hence however whatever whichever although though because "
        "same figure value "
        "acceptable sufficient adequate enough compliant complies comply meets satisfies governs "
        "current currently today latest "
        "only just slightly marginally barely somewhat considerably significantly far much "
        "roughly approximately around nearly almost circa"
    )
)
# Numbers written as words are figures, checked as quantities, not as words.
_NUMBER_WORDS = frozenset(
    terms(
        "one two three four five six seven eight nine ten eleven twelve twenty thirty forty "
        "fifty sixty hundred thousand half third quarter twice minus"
    )
)
# A verdict opening a statement ("Yes, …", "No. …"): it answers the question; the rest
# of the statement is the claim the sources must support.
_LEADING_VERDICT = re.compile(r"^\s*(?:yes|no)\b[\s,.;:—–-]*", re.IGNORECASE)


@functools.cache
def _relation_terms() -> frozenset[str]:
    """Linking, framing and comparative words (the shipped table's), left out of word
    coverage."""
    comparatives = frozenset(default_attributes().comparatives.words)
    return _LINKING_TERMS | _FRAME_TERMS | _NUMBER_WORDS | comparatives | {"than", "vs"}


@dataclass(frozen=True)
class Issue:
    """One failed expectation: which check, what kind, and what it is about.

    Kinds: ``uncited``, ``invalid_citation``, ``unsupported``, ``unsupported_number``
    (traceability); ``superseded``, ``outside_interval``, ``outranked`` (timeliness);
    ``unsupported_claim``, ``wrong_entity``, ``unit_mismatch`` (traceability, per
    claim); ``missing_side``, ``unsupported_relation``, ``off_question`` (consistency);
    ``no_evidence`` (the generator found nothing to answer from) and
    ``attribute_not_found`` (nothing about what was asked).
    """

    check: Check
    kind: IssueKind
    message: str
    statement: str | None = None
    chunk_ids: tuple[int, ...] = ()
    document_ids: tuple[str, ...] = ()
    entity: str | None = None


@dataclass(frozen=True)
class CheckResult:
    name: Check
    issues: tuple[Issue, ...]
    checked: int
    """How many statements (traceability, consistency) or documents (timeliness) it saw."""

    @property
    def passed(self) -> bool:
        return not self.issues


@dataclass(frozen=True)
class ValidationReport:
    checks: tuple[CheckResult, ...]
    support: tuple[float, ...]
    """Support score (0–1) of each statement, in order."""

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def issues(self) -> tuple[Issue, ...]:
        return tuple(i for c in self.checks for i in c.issues)


class Validator:
    """Checks a draft against the evidence it was written from.

    ``documents`` looks up current document metadata by id (``Store.documents``), so a
    document superseded after it was retrieved is still caught; ``scorer`` is an
    optional cross-encoder whose support score is averaged with the lexical one.
    """

    def __init__(
        self,
        *,
        support_threshold: float = DEFAULT_SUPPORT_THRESHOLD,
        documents: Callable[[Iterable[str]], Mapping[str, DocumentInfo]] | None = None,
        scorer: Reranker | None = None,
        attributes: AttributeTable | None = None,
        semantic: SemanticSupport | None = None,
        semantic_threshold: float = DEFAULT_SEMANTIC_THRESHOLD,
    ) -> None:
        self.support_threshold = support_threshold
        self._documents = documents
        self._scorer = scorer
        self._attributes = attributes or load_attributes()
        self._semantic = semantic
        self.semantic_threshold = semantic_threshold

    def check(
        self, answer: Draft, evidence: Sequence[Evidence], perception: Perception
    ) -> ValidationReport:
        by_number = {
            e.number: e for e in evidence if answer.shown is None or e.number in answer.shown
        }
        if answer.abstained:
            if answer.reason:  # the generator knows what is missing
                issue = Issue(Check.TRACEABILITY, IssueKind.ATTRIBUTE_NOT_FOUND, answer.reason)
            else:
                why = "no retrieved evidence answers it"
                issue = Issue(Check.TRACEABILITY, IssueKind.NO_EVIDENCE, why)
            return ValidationReport((CheckResult(Check.TRACEABILITY, (issue,), 0),), ())
        trace_issues, support = [], []
        # Numbers the question supplies ("before 2025") are context, not claims.
        given = numbers(perception.question)
        asked = frozenset(_content_terms(perception.question))
        # What a statement without its own identifier is about: the previous statement's
        # one identifier, else the question's ("it", "its", "the pump").
        # A code the question names as one ("fault code E-34") is no subject in any
        # statement: what it means on a model is a claim about the model.
        codes = _codes(perception.question)
        subject = _single({name for name, _, _ in identifiers(perception.question)} - codes)
        operands = figures(answer.text)  # what a worked-out figure may be computed from
        earlier: frozenset[tuple[float, str]] = frozenset()  # figures cited statements gave
        for statement in _leaning(answer.statements, operands, answer.text):
            found, score = self._traceability(
                statement, by_number, given, asked, subject, operands, earlier, codes
            )
            trace_issues += found
            support.append(score)
            if statement.citations:
                earlier |= {(q.value, q.unit) for q in quantities(statement.text)}
            subject = _single({n for n, _, _ in identifiers(statement.text)}) or subject
        cited = [by_number[n] for n in answer.citations if n in by_number]
        checks = (
            CheckResult(Check.TRACEABILITY, tuple(trace_issues), len(answer.statements)),
            self._timeliness(answer, cited, evidence, perception),
            self._consistency(answer, by_number, perception),
        )
        return ValidationReport(checks, tuple(support))

    # -- traceability ----------------------------------------------------------------
    def _traceability(
        self,
        s: Statement,
        by_number,
        given: set[float],
        asked: frozenset[str],
        subject: str | None,
        operands: Sequence[Figure],
        earlier: frozenset[tuple[float, str]] = frozenset(),
        asked_codes: frozenset[str] = frozenset(),
    ) -> tuple[list[Issue], float]:
        content = _content_terms(s.text)
        key = len(content) >= 2 or numbers(s.text)
        if not s.citations:
            if not key:
                return [], 1.0
            return [
                Issue(Check.TRACEABILITY, IssueKind.UNCITED, "the statement cites nothing", s.text)
            ], 0.0
        issues = []
        invented = [n for n in s.citations if n not in by_number]
        if invented:
            listed = ", ".join(f"[{n}]" for n in invented)
            issues.append(
                Issue(
                    Check.TRACEABILITY,
                    IssueKind.INVALID_CITATION,
                    f"{listed} points at no passage the answer was given (there are "
                    f"{len(by_number)})",
                    s.text,
                )
            )
        if not key:
            return issues, 1.0  # "Not by default [1]." states nothing to support
        if trailing := _after_last_citation(s.text):
            issues.append(
                Issue(
                    Check.TRACEABILITY,
                    IssueKind.UNCITED,
                    f"{trailing!r} comes after the statement's last citation and cites nothing",
                    s.text,
                )
            )
        cited = [by_number[n] for n in s.citations if n in by_number]
        if not cited:
            return issues, 0.0
        chunk_ids = tuple(e.chunk_id for e in cited)
        documents = tuple(dict.fromkeys(e.document.id for e in cited))
        source = " ".join(f"{_dated_title(e)} {e.text}" for e in cited)
        figure_check = check_figures(s.text, cited, subject, operands, earlier)
        problems = list(figure_check.problems)
        codes = _codes(s.text) | asked_codes
        named = {n for n, _, _ in identifiers(s.text)} - codes
        claimed = frozenset(named or ([subject] if subject else []))
        if not any(p.kind == IssueKind.WRONG_ENTITY for p in problems) and (
            misbound := misbound_claim(s.text, cited, claimed, codes)
        ):
            problems.append(misbound)
        for problem in problems:
            involved = problem.evidence or tuple(cited)
            issues.append(
                Issue(
                    Check.TRACEABILITY,
                    problem.kind,
                    problem.message,
                    s.text,
                    tuple(e.chunk_id for e in involved),
                    tuple(dict.fromkeys(e.document.id for e in involved)),
                )
            )
        for name in _NAME.findall(strip_citations(s.text)):
            if name.lower() not in source.lower():
                issues.append(
                    Issue(
                        Check.TRACEABILITY,
                        IssueKind.UNSUPPORTED_CLAIM,
                        f"{name!r} appears in no cited source",
                        s.text,
                        chunk_ids,
                        documents,
                    )
                )
        in_source = numbers(source) | figure_check.found | given
        unbacked = {
            value
            for value, start, _ in number_spans(s.text)
            if value not in in_source and not derived(Figure(value, None, start), operands)
        }
        # A count needs its noun beside its number: "12 filter cartridges" is not backed
        # by a source's "8 cartridges" and "every 12 months".
        texts = [source, *(e.text for e in cited)]
        for count in counts(s.text, _relation_terms()):
            if (
                count.value not in given
                and count.value not in unbacked
                and not count_backed(count, texts)
                and not enumerated(count, s.text)
                and not derived(Figure(count.value, None, count.start), operands)
            ):
                issues.append(
                    Issue(
                        Check.TRACEABILITY,
                        IssueKind.UNSUPPORTED_NUMBER,
                        f"{count.value:g} {count.words}: no cited sentence gives that number "
                        "of them",
                        s.text,
                        chunk_ids,
                        documents,
                    )
                )
        missing = sorted(unbacked | {q.value for q in figure_check.unmatched} - given)
        if missing:
            listed = ", ".join(f"{n:g}" for n in missing)
            issues.append(
                Issue(
                    Check.TRACEABILITY,
                    IssueKind.UNSUPPORTED_NUMBER,
                    f"{listed} appears in no cited chunk",
                    s.text,
                    chunk_ids,
                    documents,
                )
            )
        # A figure found in the sources is a supported term of the claim: "Three years
        # [1]" or "13 bar, which is 1.3 MPa [1]" are supported though few words match.
        backed = sum(q.value in figure_check.found for q in quantities(s.text))
        score = self._support(s.text, content, source, cited, backed, asked)
        supported = score >= self.support_threshold
        if not supported and (meaning := self._meaning(s.text, cited)):
            supported, score = True, max(score, meaning)
        clause = (
            self._weakest_clause(s.text, source, cited, figure_check.found) if supported else None
        )
        if clause:
            issues.append(
                Issue(
                    Check.TRACEABILITY,
                    IssueKind.UNSUPPORTED_CLAIM,
                    f"{clause[0]!r} is not supported (support {clause[1]:.2f})",
                    s.text,
                    chunk_ids,
                    documents,
                )
            )
        if not supported:
            issues.append(
                Issue(
                    Check.TRACEABILITY,
                    IssueKind.UNSUPPORTED,
                    f"support {score:.2f} is below {self.support_threshold:.2f}"
                    + (" (nor close enough in meaning)" if self._semantic else ""),
                    s.text,
                    chunk_ids,
                    documents,
                )
            )
        return issues, score

    def _meaning(self, text: str, cited) -> float:
        """Semantic support, counted only at or above its own threshold (0 without it)."""
        if self._semantic is None:
            return 0.0
        score = self._semantic.score(_LEADING_VERDICT.sub("", strip_citations(text)), cited)
        return score if score >= self.semantic_threshold else 0.0

    def _weakest_clause(
        self, text: str, source: str, cited, found: frozenset[float] = frozenset()
    ) -> tuple[str, float] | None:
        """A clause of a several-claim statement that the sources do not cover, or None:
        "85 dB(A) [1]" supported does not carry ", and … may not work more than 4 hours".
        A figure of the clause found in the sources (``found``) is a covered term, as in
        the statement's support ("Rev. 2 brings that down to every 18 months")."""
        clauses = [c for c in _CLAUSE.split(strip_citations(text)) if c.strip()]
        # "… every 300 h [1], always as a complete set so the rotor stays balanced": what
        # a statement adds after its citation is a claim of its own.
        if (tail := _after_citations(text)) is not None and _TAIL.match(tail):
            clauses.append(_TAIL.sub("", tail))
        if len(clauses) < 2:
            return None
        have = families(terms(source))
        for clause in clauses[1:]:  # the first is the statement's own subject and verb
            if _IN_FORCE.search(clause):
                continue  # when a rule applied is the timeliness check's to judge
            content = _content_terms(clause)
            backed = sum(q.value in found for q in quantities(clause))
            share = (_covered(content, have) + backed) / (len(set(content)) + backed or 1)
            if (
                len(content) >= 3
                and share < self.support_threshold
                and not self._meaning(clause, cited)
            ):
                return clause.strip(), share
        return None

    def _support(
        self,
        text: str,
        content: list[str],
        source: str,
        cited,
        backed: int,
        asked: frozenset[str] = frozenset(),
    ) -> float:
        wanted = set(content)
        have = families(terms(source))
        # Words the question supplies are context, like its numbers ("before a day's
        # production" echoed from the question): left out when the claim has at least two
        # words of its own (an answer that only restates the question keeps them).
        if len({t for t in wanted if t not in asked}) >= 2:
            wanted = {t for t in wanted if t not in asked or in_family(t, have)}
        if not wanted and not backed:
            return 1.0
        lexical = (_covered(wanted, have) + backed) / (len(wanted) + backed)
        if self._scorer is None:
            return lexical
        logits = self._scorer.score(text, [e.text for e in cited])
        return (lexical + 1 / (1 + math.exp(-float(max(logits))))) / 2

    # -- timeliness -----------------------------------------------------------------
    def _timeliness(self, answer, cited, evidence, perception) -> CheckResult:
        ids = list(dict.fromkeys(e.document.id for e in cited))
        current = dict(self._documents(ids)) if self._documents else {}
        docs = {e.document.id: current.get(e.document.id, e.document) for e in cited}
        successors = [d.superseded_by for d in docs.values() if d.superseded_by]
        newer_docs = self._documents(successors) if self._documents and successors else {}
        interval = perception.constraints.time
        after, before = dated_range(interval)
        # In force from its date, or from the later date its text says it takes effect.
        starts = {
            doc_id: _in_force_from(doc, evidence) if interval is not None else doc.updated_at
            for doc_id, doc in docs.items()
        }
        in_interval = {
            doc_id: interval is None
            or (
                start is not None
                and (after is None or start >= after)
                and (before is None or start <= before)
            )
            for doc_id, start in starts.items()
        }
        issues = []
        for doc in docs.values():
            newer = doc.superseded_by
            # The successor applies from the date its text says it takes effect, cited or not.
            newer_date = starts.get(newer) or (
                _in_force_from(newer_docs[newer], evidence) if newer in newer_docs else None
            )
            start = starts[doc.id]
            # A newer version cited beside the one it replaced, which was in force then,
            # says why the older one applied ("the 2024 rule only took effect in March").
            replaced = any(d.superseded_by == doc.id and in_interval[d.id] for d in docs.values())
            # A question about a change names the versions' periods, not one interval.
            # One that asks for the current version of something and names a year ("Do
            # the SX-12's current damper times satisfy the 2021 Code?") dates the rule,
            # not the manual.
            current_manual = perception.constraints.latest and doc.doc_type != "regulation"
            if not (
                in_interval[doc.id] or replaced or perception.constraints.history or current_manual
            ):
                when = doc.updated_at.isoformat() if doc.updated_at else "undated"
                if start is not None and start != doc.updated_at:
                    when += f", in force from {start.isoformat()}"
                issues.append(
                    Issue(
                        Check.TIMELINESS,
                        IssueKind.OUTSIDE_INTERVAL,
                        f"{doc.id} ({when}) is outside {interval.text!r}",
                        document_ids=(doc.id,),
                    )
                )
            # A question about a past period may rightly cite the version of that period:
            # its successor took effect after the period.
            historical = (
                interval is not None
                and interval.end is not None
                and newer_date is not None
                and newer_date > interval.end
            ) or self._about_the_past(answer, doc, newer, docs, perception)
            # "Under CSM-2018, how often …" asks about the version it names.
            historical = historical or _asked_version(doc, newer_docs.get(newer), perception)
            if newer is not None and not historical:
                issues.append(
                    Issue(
                        Check.TIMELINESS,
                        IssueKind.SUPERSEDED,
                        f"{doc.id} is superseded by {newer}",
                        document_ids=(doc.id, newer),
                    )
                )
        if interval is None and not perception.constraints.history:
            issues += _outranked(answer, {e.number: e for e in evidence})
        return CheckResult(Check.TIMELINESS, tuple(issues), len(docs))

    @staticmethod
    def _about_the_past(answer: Draft, doc, newer: str | None, docs, perception) -> bool:
        """A question about a change or an earlier version may cite the superseded
        document for the old figure: beside the newer one (the current figure), or in
        statements that speak of the past ("Revision 1 specified ...")."""
        if newer is None or not perception.constraints.history:
            return False
        if newer in docs:
            return True
        return all(_PAST.search(s.text) for s in answer.statements if s.citations)

    # -- consistency ----------------------------------------------------------------
    def _consistency(self, answer: Draft, by_number, perception: Perception) -> CheckResult:
        issues = []
        sides = perception.sides if perception.route == Route.COMPARISON else ()
        for side in sides:
            if not any(_has_data_for(side, s, by_number) for s in answer.statements):
                issues.append(
                    Issue(
                        Check.CONSISTENCY,
                        IssueKind.MISSING_SIDE,
                        f"no cited figure for {side}",
                        entity=side,
                    )
                )
        # A yes/no question ("Can the BC-9 drive a DP-24 at its full rated output?") asks
        # whether, and a why-question for a reason, not for the attribute it names.
        whether = any(p.match(perception.question) for p in (_YES_NO, _WHY, _WHAT_HAPPENS))
        comparatives = self._attributes.comparatives
        if missing := one_sided(answer.statements, comparatives) or single_figure_comparison(
            perception.question, answer.text, bool(sides), comparatives
        ):
            issues.append(Issue(Check.CONSISTENCY, IssueKind.MISSING_SIDE, missing))
        asked = () if whether else asked_attributes(perception.question, self._attributes)
        if in_spelled_unit(perception.question, answer.text):
            asked = ()  # "… in m³/h?" is answered in m³/h, whatever the attribute's words
        if not any(
            addresses(asked, _without_compounds(s.text), perception.question)
            for s in answer.statements
        ):
            names = " or ".join(a.name for a in asked)
            message = f"the question asks for the {names}; the answer gives none"
            issues.append(Issue(Check.CONSISTENCY, IssueKind.OFF_QUESTION, message))
        elif focus_reason := self._off_focus(answer, by_number, perception, whether) or no_measure(
            perception.question, strip_citations(answer.text)
        ):
            issues.append(Issue(Check.CONSISTENCY, IssueKind.OFF_QUESTION, focus_reason))
        if unbacked := _unbacked_attribute(asked, answer, by_number):
            issues.append(Issue(Check.CONSISTENCY, IssueKind.UNSUPPORTED_CLAIM, unbacked))
        if contrast := self._attributes.contrast(perception.question, answer.text):
            message = (
                f"the question asks about the {contrast[0]} one; the answer is about {contrast[1]}"
            )
            issues.append(Issue(Check.CONSISTENCY, IssueKind.OFF_QUESTION, message))
        cited = [by_number[n].text for n in answer.citations if n in by_number]
        if kind := other_kind(perception.question, strip_citations(answer.text), cited):
            issues.append(Issue(Check.CONSISTENCY, IssueKind.OFF_QUESTION, kind))
        if other := _other_subject(answer, by_number, perception):
            issues.append(Issue(Check.CONSISTENCY, IssueKind.OFF_QUESTION, other))
        for s in answer.statements:
            problem = (
                relation_problem(s, by_number, perception, self._attributes.comparatives)
                or ranking_problem(s, tuple(by_number.values()))
                or change_problem(s)
                or frequency_problem(s, perception)
                or concluded_frequency_problem(s)
                or inline_comparison_problem(s, self._attributes.comparatives)
            )
            if problem:
                issues.append(
                    Issue(Check.CONSISTENCY, IssueKind.UNSUPPORTED_RELATION, problem, s.text)
                )
        return CheckResult(Check.CONSISTENCY, tuple(issues), len(answer.statements))

    def _off_focus(
        self, answer: Draft, by_number, perception: Perception, whether: bool
    ) -> str | None:
        """An attribute the table does not list, read from the question's form ("What
        payload can the RB-12 carry?"); not for yes/no, why, comparison or change questions,
        nor for answers from a table (its query names what was asked)."""
        if whether or perception.route == Route.COMPARISON or perception.constraints.history:
            return None
        if any(is_table_evidence(by_number[n]) for n in answer.citations if n in by_number):
            return None
        return off_focus(perception.question, strip_citations(answer.text), self._attributes)


# A hyphenated compound before a noun describes the noun: a "variable-speed drive" or a
# "high-pressure hose" gives no speed or pressure.
_COMPOUND = re.compile(r"\b[A-Za-z]+-[A-Za-z]+\b(?=\s+[A-Za-z])")


def _without_compounds(text: str) -> str:
    """``text`` with its hyphenated compound modifiers blanked (figures kept)."""
    return _COMPOUND.sub(lambda m: " " * len(m.group(0)), text)


def _unbacked_attribute(asked: Sequence[Attribute], answer: Draft, by_number) -> str | None:
    """Why the answer gives an asked attribute without units (colour, maker, warranty)
    that none of its cited sources speaks of, or None: such a value is no figure that
    the source check would compare ("supplied painted in safety yellow")."""
    for attribute in asked:
        if attribute.units:
            continue
        for s in answer.statements:
            cited = [by_number[n] for n in s.citations if n in by_number]
            if (
                cited
                and attribute.addressed_by(strip_citations(s.text))
                and not any(attribute.addressed_by(f"{e.document.title} {e.text}") for e in cited)
            ):
                return f"the answer gives the {attribute.name}; no cited source speaks of it"
    return None


def _has_data_for(side: str, s: Statement, by_number) -> bool:
    cited = [by_number[n] for n in s.citations if n in by_number]
    key = set(terms(side))
    said = set(terms(s.text))
    # Named in the statement, or the statement names no side and a cited document is
    # about this one (its title or metadata; a chunk that merely mentions it is not).
    about = (
        key <= said
        or bool((short := _short_name(side)) and short <= said)
        or any(key <= subjects(e, chunk=False) for e in cited)
    )
    return about and bool(cited) and bool(numbers(s.text))


def _short_name(side: str) -> set[str]:
    """What a side of several words is called for short: its capitalised abbreviation
    or model ("Lumora LIC" → LIC, "Nordvolt BMS" → BMS); an answer names a make once,
    then the thing. Empty for one word, or when no word is written in capitals."""
    words = side.split()
    if len(words) < 2:
        return set()
    return {t for w in words if len(w) > 1 and w.isupper() for t in terms(w)}


def _outranked(answer: Draft, by_number) -> list[Issue]:
    """Cited figures that a newer, at least as authoritative document no longer states:
    it gives other figures in the same unit, in sentences about the same thing (two
    content words in common; the hydraulic oil's interval does not outrank the
    service interval)."""
    issues = []
    for s in answer.statements:
        stated = quantities(s.text)
        if not stated:
            continue
        about = set(_content_terms(s.text)) - model_terms(terms(s.text))
        values = {(q.value, q.unit) for q in stated}
        units = {q.unit for q in stated}
        for n in s.citations:
            old = by_number.get(n)
            if old is None or old.document.updated_at is None:
                continue
            for other in by_number.values():
                doc = other.document
                if (
                    n == other.number
                    or doc.id == old.document.id
                    or doc.updated_at is None
                    or doc.updated_at <= old.document.updated_at
                    or doc.authority < old.document.authority
                    or not (subjects(other, chunk=False) & subjects(old, chunk=False))
                ):
                    continue
                theirs = {
                    (q.value, q.unit)
                    for sentence in _sentences_of(other.text)
                    if len(about & set(_content_terms(sentence))) >= 2
                    for q in quantities(sentence)
                    if q.unit in units
                }
                if theirs and not theirs & values:
                    issues.append(
                        Issue(
                            Check.TIMELINESS,
                            IssueKind.OUTRANKED,
                            f"{old.document.id} is contradicted by the newer {doc.id} "
                            f"(authority {doc.authority}, {doc.updated_at.isoformat()})",
                            s.text,
                            (old.chunk_id, other.chunk_id),
                            (old.document.id, doc.id),
                        )
                    )
                    break
    return issues


def _leaning(
    statements: Sequence[Statement], operands: Sequence[Figure], text: str = ""
) -> list[Statement]:
    """``statements`` with three kinds of uncited ones checked against a neighbour's
    citations: a short verdict before the cited backing ("Yes.", "The RO-300
    pre-filter.", "Within 30 days."), a conclusion from cited figures ("… is
    therefore 4 dB(A) above that limit"), and a sentence of a paragraph that cites once
    after its last full stop ("Run the pump first. Warm the oil below −15 °C.[1]").
    Any other uncited sentence stays uncited: a fact needs its own citation."""
    out = list(statements)
    closing = _paragraph_citations(statements, text)
    cited_figures = {(f.value, f.unit) for t in statements if t.citations for f in figures(t.text)}
    for i, s in enumerate(statements):
        if s.citations:
            continue
        stated = figures(s.text)
        after = next((t for t in statements[i + 1 :] if t.citations), None)
        before = next((t for t in reversed(statements[:i]) if t.citations), None)
        # A short verdict may state the figure it answers with ("Within 30 days."): the
        # figure is then checked against the backing statement's sources.
        if i == 0 and after and _VERDICT.match(s.text):
            out[i] = replace(s, citations=after.citations)
        elif (
            before
            and CONCLUSION.search(s.text)
            and all((f.value, f.unit) in cited_figures or derived(f, operands) for f in stated)
        ):
            out[i] = replace(s, citations=before.citations)
        elif closing.get(i):
            out[i] = replace(s, citations=closing[i])
    return out


# Only citations after the full stop close a paragraph: "A. B [1]." cites B alone
# (fault sets' authors wrote it for a missing citation of A).
_CLOSING = re.compile(r"[.!?]\s*(?:\[\d+\]\s*)+$")


def _paragraph_citations(statements: Sequence[Statement], text: str) -> dict[int, tuple[int, ...]]:
    """The citations each uncited statement takes from the end of its paragraph: the
    paragraph's last statement cites after its full stop, and no other statement of the
    paragraph cites."""
    out: dict[int, tuple[int, ...]] = {}
    where, pending = 0, list[int]()
    for i, s in enumerate(statements):
        found = text.find(s.text, where)
        if found < 0:
            return {}
        if pending and "\n" in text[where:found]:
            pending = []  # a new paragraph
        where = found + len(s.text)
        if not s.citations:
            pending.append(i)
            continue
        if pending and _CLOSING.search(s.text):
            out |= dict.fromkeys(pending, s.citations)
        pending = []
    return out


def _in_force_from(doc: DocumentInfo, evidence: Sequence[Evidence]) -> date | None:
    """The date ``doc`` applies from: its own date, or the later date its retrieved text
    says it takes effect ("Effective 1 March 2024")."""
    start = doc.updated_at
    said = effective_date(e.text for e in evidence if e.document.id == doc.id)
    return max(start, said) if start is not None and said else start


# A claim of its own joined on after a citation: ", and …", "; …", ", but …" (a ", which"
# clause leans on the noun before it; "…, so …" concludes from the cited figures).
_JOINED = re.compile(r"^\s*(?:,\s*(?:and|but)\s+|;\s*)(?!(?:so|therefore|thus|hence)\b)")


# A clause about when a document applied: "…, which stayed in force until the 2023
# edition took effect on 1 July 2023".
_IN_FORCE = re.compile(
    r"\b(?:in force|took effect|takes effect|came into force|comes into force|"
    r"superseded|was replaced|were replaced)\b",
    re.IGNORECASE,
)
# A clause joined on after a statement's last citation by a comma.
_TAIL = re.compile(r"^\s*,\s*(?!(?:so|therefore|thus|hence|which|i\.e\.|e\.g\.)\b)(?=\w)")


def _asked_version(doc: DocumentInfo, newer: DocumentInfo | None, perception: Perception) -> bool:
    """Whether the question names this version ("Under CSM-2018, how often …"): an
    identifier of its title or metadata that its successor does not share."""
    if newer is None:
        return False
    asked = named_identifiers(perception.question) & identifiers_of(doc)
    return bool(asked - identifiers_of(newer))


def _after_last_citation(text: str) -> str | None:
    """A claim the statement adds after its last citation, or None: a citation covers
    what comes before it, so "… weekly [1], and the results go to the health office
    every quarter." leaves the second claim uncited."""
    rest = _after_citations(text)
    if rest is None or not _JOINED.match(rest):
        return None
    claim = _JOINED.sub("", rest).strip().rstrip(".!")
    return claim if len(_content_terms(claim)) >= 3 else None


def _after_citations(text: str) -> str | None:
    """What ``text`` says after its last citation marker; None when it cites nothing."""
    ends = [m.end() for m in CITATION.finditer(text)]
    return text[ends[-1] :] if ends else None


def _dated_title(e: Evidence) -> str:
    """The title a cited chunk stands under, with its document's date: "Rev. 2 (March
    2024)" is supported by the document's own metadata."""
    when = e.document.updated_at
    return f"{e.document.title} {when.isoformat()}" if when else e.document.title


# An identifier read as a code by the words around it: "fault F-21", "E-07 indicates …".
_CODE_BEFORE = re.compile(r"\b(?:fault|error|alarm|warning|event|code)s?\s+$", re.IGNORECASE)
_CODE_AFTER = re.compile(
    r"^\s*(?:means?|meant|indicates?|signals?|signifies|stands?\s+for|denotes?|shows?)\b",
    re.IGNORECASE,
)


def _codes(text: str) -> frozenset[str]:
    """The identifiers ``text`` uses as codes: a code names what the controller reports,
    not the model a claim is about ("On the YCU-8, F-21 signals …" is about the YCU-8)."""
    return frozenset(
        name
        for name, start, end in identifiers(text)
        if _CODE_BEFORE.search(text[max(0, start - 20) : start])
        or _CODE_AFTER.match(text[end : end + 30])
    )


def _single(names: set[str]) -> str | None:
    return next(iter(names)) if len(names) == 1 else None


def _other_subject(answer: Draft, by_number, perception: Perception) -> str | None:
    """Why the answer is about another code or model than the question, or None.

    Codes must match by name ("E03?" answered with E07); a model may also be named by
    the cited documents' titles ("5W-40 oil" cited from the GX-500 manual is about it).
    """
    asked = set(model_terms(terms(" ".join(perception.identifiers))))
    said = model_terms(terms(answer.text))
    cited = [by_number[n] for n in answer.citations if n in by_number]
    documents = set().union(*(subjects(e, chunk=False) for e in cited))
    for kind, named, also in (
        ("code", lambda ids: {i for i in ids if _CODE_TERM.match(i)}, set()),
        ("model", lambda ids: {i for i in ids if not _CODE_TERM.match(i)}, documents),
    ):
        wanted, given = named(asked), named(said)
        if wanted and given and not wanted & (given | also):
            return (
                f"the question asks about the {kind} {', '.join(sorted(wanted)).upper()}; "
                f"the answer names {', '.join(sorted(given)).upper()}"
            )
    return None


def _content_terms(text: str) -> list[str]:
    """The words a statement's support is measured on: not its figures and units, which
    are checked as quantities (a correct "17.4 psi" for "1.2 bar" shares no words with
    its source), nor the comparison words."""
    masked = list(text)
    for q in quantities(text):
        masked[q.start : q.end] = " " * (q.end - q.start)
    words = terms("".join(masked))
    return [t for t in words if t not in _relation_terms() and not t.isdigit()]


def _covered(wanted: Iterable[str], have: frozenset[str]) -> int:
    """How many of ``wanted`` have a word of their family in ``have`` (``families``)."""
    return sum(in_family(t, have) for t in set(wanted))


def _sentences_of(text: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text)]
