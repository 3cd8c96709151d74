"""A document about one model does not answer a question about another: "seal interval on
the cp-500?" answered from the CP-200 manual gives the CP-200's figure, a sister model's,
and "what fluid goes in the 737?" answered from the A320 manual gives the A320's. Such an
answer is not ``ok``, whatever it says. (Reported as ``off_question``: a ``wrong_entity``
would make ``elsewhere`` turn answers other checks already find about another subject
from ``uncertain`` into ``no_answer``.)

A model the question names (however typed, ``Perception.written_models``) is covered when the
answer names it or a cited source does (its text, title or metadata). One not covered is
answered from another model's document when a cited document is about one model only
(``figures.document_entity``) and that is its sister (same letters: CP-200 for the
CP-500), or when no model the question names is covered at all. A rule's document covers
whatever it regulates, and a document about no one model (a FAQ on hearing protection)
is about none: neither is another model's.
"""

from __future__ import annotations

from collections.abc import Iterator

from ragcore.agents.evidence import Evidence, is_table_evidence
from ragcore.agents.validation.asked import key, names_model
from ragcore.agents.validation.figures import document_entity, family
from ragcore.agents.validation.model import AnswerModel
from ragcore.agents.validation.registry import Finding, Scope, check
from ragcore.text.citations import strip_citations
from ragcore.types import Check, IssueKind


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("subject.other_model",))
def about_the_asked_model(answer: AnswerModel) -> Iterator[Finding]:
    asked = {key(name): name for name, _, _ in answer.perception.written_models}
    if not asked or not answer.draft.statements or not answer.cited:
        return
    written = " ".join((strip_citations(answer.draft.text), *map(_described, answer.cited)))
    uncovered = [k for k in asked if not names_model(k, written)]
    if not uncovered:
        return
    none_covered = len(uncovered) == len(asked)
    for e in answer.cited:
        if e.document.doc_type == "regulation" or is_table_evidence(e):
            continue
        other = document_entity(e)
        if other is None or other in asked:
            continue
        sister = next((k for k in uncovered if family(k) == family(other)), None)
        if sister is None and not none_covered:
            continue
        missing = asked[sister or uncovered[0]]
        yield Finding(
            "subject.other_model",
            IssueKind.OFF_QUESTION,
            f"the question asks about {missing}; the answer is from the document about "
            f"{other.upper()} ({e.document.id}), and neither names {missing}",
            chunk_ids=tuple(c.chunk_id for c in answer.cited if c.document.id == e.document.id),
            document_ids=(e.document.id,),
            entity=missing,
        )
        return


def _described(e: Evidence) -> str:
    """What a cited source says and is called: its id, title, metadata and text."""
    values = " ".join(map(str, e.document.metadata.values()))
    return f"{e.document.id} {e.document.title} {values} {e.text}"
