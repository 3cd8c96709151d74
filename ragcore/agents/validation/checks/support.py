"""Traceability of words: the cited sources cover a statement's content terms above the
support threshold (or its meaning is close to a cited sentence), and so does every
clause of a statement of several claims."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ragcore.agents.reading import content_terms
from ragcore.agents.validation.checks.citations import after_citations
from ragcore.agents.validation.model import AnswerModel, StatementModel, covered
from ragcore.agents.validation.registry import Finding, Scope, check
from ragcore.text.citations import strip_citations
from ragcore.text.lexicon import pattern
from ragcore.text.quantities import quantities
from ragcore.types import Check, IssueKind

# A clause about when a document applied: "…, which stayed in force until the 2023
# edition took effect on 1 July 2023" (the timeliness check's to judge).
_IN_FORCE = re.compile(
    r"\b(?:in force|took effect|takes effect|came into force|comes into force|"
    r"superseded|was replaced|were replaced)\b",
    re.IGNORECASE,
)
# A clause joined on after a statement's last citation by a comma.
_TAIL = re.compile(r"^\s*,\s*(?!(?:so|therefore|thus|hence|which|i\.e\.|e\.g\.)\b)(?=\w)")


@check(Check.TRACEABILITY, Scope.STATEMENT, rules=("support.clause", "support.statement"))
def supported(answer: AnswerModel, s: StatementModel) -> Iterator[Finding]:
    if not s.checked:
        return
    score, enough = s.support
    if enough and (clause := _weakest_clause(answer, s)):
        yield Finding(
            "support.clause",
            IssueKind.UNSUPPORTED_CLAIM,
            f"{clause[0]!r} is not supported (support {clause[1]:.2f})",
            s.text,
            s.chunk_ids,
            s.document_ids,
        )
    if not enough:
        judges = answer.judges
        yield Finding(
            "support.statement",
            IssueKind.UNSUPPORTED,
            f"support {score:.2f} is below {judges.support_threshold:.2f}"
            + (" (nor close enough in meaning)" if judges.semantic else ""),
            s.text,
            s.chunk_ids,
            s.document_ids,
        )


def _weakest_clause(answer: AnswerModel, s: StatementModel) -> tuple[str, float] | None:
    """A clause of a several-claim statement that the sources do not cover, or None:
    "85 dB(A) [1]" supported does not carry ", and … may not work more than 4 hours".
    A figure of the clause found in the sources is a covered term, as in the
    statement's support ("Rev. 2 brings that down to every 18 months")."""
    clauses = [
        c for c in pattern("lexicon", "claim_break").split(strip_citations(s.text)) if c.strip()
    ]
    # "… every 300 h [1], always as a complete set so the rotor stays balanced": what
    # a statement adds after its citation is a claim of its own.
    if (tail := after_citations(s.text)) is not None and _TAIL.match(tail):
        clauses.append(_TAIL.sub("", tail))
    if len(clauses) < 2:
        return None
    found = s.figures.found
    threshold = answer.judges.support_threshold
    for clause in clauses[1:]:  # the first is the statement's own subject and verb
        if _IN_FORCE.search(clause):
            continue
        content = content_terms(clause)
        backed = sum(q.value in found for q in quantities(clause))
        share = (covered(content, s.have) + backed) / (len(set(content)) + backed or 1)
        if len(content) >= 3 and share < threshold and not answer.judges.meaning(clause, s.cited):
            return clause.strip(), share
    return None
