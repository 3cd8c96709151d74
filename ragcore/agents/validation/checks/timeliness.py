"""Timeliness: the cited documents fall inside the question's time interval, none is
superseded by a newer version in the store (unless the question asks about a change or
an earlier version), and none is contradicted by a newer, at least as authoritative
document among the evidence (a figure it no longer has). A question for an earlier
version's figure ("the old revision", "before the AD") is answered from that version —
a superseded document, or one a newer document among the evidence overrides — or by a
sentence that states the change with the figure before it, not by the current figure."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import date

from ragcore.agents.evidence import Evidence
from ragcore.agents.perception.time import dated_range
from ragcore.agents.reading import content_terms
from ragcore.agents.validation.checks.relations import subjects
from ragcore.agents.validation.model import AnswerModel
from ragcore.agents.validation.registry import Finding, Scope, check
from ragcore.documents import DocumentInfo, identifiers_of
from ragcore.text.effective import effective_date
from ragcore.text.lexicon import pattern
from ragcore.text.quantities import quantities
from ragcore.text.sentences import split_sentences
from ragcore.text.terms import model_terms, terms
from ragcore.types import Check, IssueKind

_PAST = re.compile(
    r"\b(?:was|were|had|used to|previously|originally|specified|required|earlier)\b",
    re.IGNORECASE,
)


@check(
    Check.TIMELINESS,
    Scope.ANSWER,
    rules=("timeliness.outside_interval", "timeliness.superseded"),
)
def in_date(answer: AnswerModel) -> Iterator[Finding]:
    perception, evidence = answer.perception, answer.evidence
    docs = answer.cited_documents
    lookup = answer.judges.documents
    successors = [d.superseded_by for d in docs.values() if d.superseded_by]
    newer_docs = lookup(successors) if lookup and successors else {}
    interval = perception.constraints.time
    # A question naming several periods ("in May and June 2026") asks about each: a
    # source dated in any of them is in date.
    periods = perception.constraints.periods
    windows = [dated_range(p) for p in (periods if len(periods) > 1 else (interval,))]
    # In force from its date, or from the later date its text says it takes effect.
    starts = {
        doc_id: _in_force_from(doc, evidence) if interval is not None else doc.updated_at
        for doc_id, doc in docs.items()
    }
    in_interval = {
        doc_id: interval is None
        or (
            start is not None
            and any(
                (after is None or start >= after) and (before is None or start <= before)
                for after, before in windows
            )
        )
        for doc_id, start in starts.items()
    }
    for doc in docs.values():
        newer = doc.superseded_by
        # The successor applies from the date its text says it takes effect, cited or not.
        newer_date = None
        if newer is not None:
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
            assert interval is not None  # in every interval when there is none
            when = doc.updated_at.isoformat() if doc.updated_at else "undated"
            if start is not None and start != doc.updated_at:
                when += f", in force from {start.isoformat()}"
            yield Finding(
                "timeliness.outside_interval",
                IssueKind.OUTSIDE_INTERVAL,
                f"{doc.id} ({when}) is outside {interval.text!r}",
                document_ids=(doc.id,),
            )
        # A question about a past period may rightly cite the version of that period:
        # its successor took effect after the period.
        historical = (
            interval is not None
            and interval.end is not None
            and newer_date is not None
            and newer_date > interval.end
        ) or _about_the_past(answer, newer, docs)
        # "Under CSM-2018, how often …" asks about the version it names.
        historical = historical or _asked_version(
            answer, doc, newer_docs.get(newer) if newer else None
        )
        if newer is not None and not historical:
            yield Finding(
                "timeliness.superseded",
                IssueKind.SUPERSEDED,
                f"{doc.id} is superseded by {newer}",
                document_ids=(doc.id, newer),
            )


@check(Check.TIMELINESS, Scope.ANSWER, rules=("timeliness.outranked",))
def outranked(answer: AnswerModel) -> Iterator[Finding]:
    """Cited figures that a newer, at least as authoritative document no longer states:
    it gives other figures in the same unit, in sentences about the same thing (two
    content words in common; the hydraulic oil's interval does not outrank the
    service interval)."""
    constraints = answer.perception.constraints
    if constraints.time is not None or constraints.history:
        return
    by_number = {e.number: e for e in answer.evidence}
    for s in answer.draft.statements:
        stated = quantities(s.text)
        if not stated:
            continue
        about = set(content_terms(s.text)) - model_terms(terms(s.text))
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
                    for a, b in split_sentences(other.text)
                    if len(about & set(content_terms(other.text[a:b]))) >= 2
                    for q in quantities(other.text[a:b])
                    if q.unit in units
                }
                if theirs and not theirs & values:
                    yield Finding(
                        "timeliness.outranked",
                        IssueKind.OUTRANKED,
                        f"{old.document.id} is contradicted by the newer {doc.id} "
                        f"(authority {doc.authority}, {doc.updated_at.isoformat()})",
                        s.text,
                        (old.chunk_id, other.chunk_id),
                        (old.document.id, doc.id),
                    )
                    break


@check(Check.TIMELINESS, Scope.ANSWER, rules=("timeliness.not_earlier",))
def earlier_version(answer: AnswerModel) -> Iterator[Finding]:
    """A question for the figure before a change (``Constraints.earlier``) answered only
    from current documents, with no statement of the change ("from 2000 to 1500 hours"):
    the current figure, not the one asked for."""
    if not answer.perception.constraints.earlier:
        return
    docs = answer.cited_documents
    if not docs or any(d.superseded_by for d in docs.values()):
        return
    change = pattern("lexicon", "states_a_change")
    if any(change.search(s.text) for s in answer.draft.statements if s.citations):
        return
    if any(_overridden(e, answer.evidence) for e in answer.cited):
        return
    cited = ", ".join(docs)
    yield Finding(
        "timeliness.not_earlier",
        IssueKind.OUTSIDE_INTERVAL,
        f"the question asks for the figure of an earlier version, before a change; {cited} "
        "give the current figure only (no superseded revision, no figure it changed from)",
        document_ids=tuple(docs),
    )


def _overridden(cited: Evidence, evidence: Sequence[Evidence]) -> bool:
    """Whether ``cited`` is from a document that a newer one among the evidence, about
    the same thing, overrides (the manual an airworthiness directive changed): the
    earlier version, though nothing marks it superseded."""
    doc = cited.document
    if doc.updated_at is None or doc.supersedes:
        return False
    about = subjects(cited, chunk=False)
    return any(
        e.document.id != doc.id
        and e.document.updated_at is not None
        and e.document.updated_at > doc.updated_at
        and about & subjects(e, chunk=False)
        for e in evidence
    )


def _about_the_past(
    answer: AnswerModel, newer: str | None, docs: Mapping[str, DocumentInfo]
) -> bool:
    """A question about a change or an earlier version may cite the superseded
    document for the old figure: beside the newer one (the current figure), or in
    statements that speak of the past ("Revision 1 specified ...")."""
    if newer is None or not answer.perception.constraints.history:
        return False
    if newer in docs or answer.perception.constraints.earlier:  # the version asked for
        return True
    return all(_PAST.search(s.text) for s in answer.draft.statements if s.citations)


def _asked_version(answer: AnswerModel, doc: DocumentInfo, newer: DocumentInfo | None) -> bool:
    """Whether the question names this version ("Under CSM-2018, how often …"): an
    identifier of its title or metadata that its successor does not share."""
    if newer is None:
        return False
    asked = answer.asks.identifiers & identifiers_of(doc)
    return bool(asked - identifiers_of(newer))


def _in_force_from(doc: DocumentInfo, evidence: Sequence[Evidence]) -> date | None:
    """The date ``doc`` applies from: its own date, or the later date its retrieved text
    says it takes effect ("Effective 1 March 2024")."""
    start = doc.updated_at
    said = effective_date(e.text for e in evidence if e.document.id == doc.id)
    return max(start, said) if start is not None and said else start
