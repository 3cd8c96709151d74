"""Traceability, first: every key statement cites, every citation points at a passage
the answer was given, and nothing is joined on after a statement's last citation."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ragcore.agents.reading import content_terms
from ragcore.agents.validation.model import AnswerModel, StatementModel
from ragcore.agents.validation.registry import Finding, Scope, check
from ragcore.text.citations import CITATION
from ragcore.types import Check, IssueKind

# A claim of its own joined on after a citation: ", and …", "; …", ", but …" (a ", which"
# clause leans on the noun before it; "…, so …" concludes from the cited figures).
_JOINED = re.compile(r"^\s*(?:,\s*(?:and|but)\s+|;\s*)(?!(?:so|therefore|thus|hence)\b)")


@check(
    Check.TRACEABILITY,
    Scope.STATEMENT,
    rules=("citations.uncited", "citations.invalid", "citations.after_last"),
)
def citations(answer: AnswerModel, s: StatementModel) -> Iterator[Finding]:
    if not s.citations:
        if s.key:
            yield Finding(
                "citations.uncited", IssueKind.UNCITED, "the statement cites nothing", s.text
            )
        return
    if s.invented:
        listed = ", ".join(f"[{n}]" for n in s.invented)
        yield Finding(
            "citations.invalid",
            IssueKind.INVALID_CITATION,
            f"{listed} points at no passage the answer was given (there are "
            f"{len(answer.by_number)})",
            s.text,
        )
    if s.key and (trailing := after_last_citation(s.text)):
        yield Finding(
            "citations.after_last",
            IssueKind.UNCITED,
            f"{trailing!r} comes after the statement's last citation and cites nothing",
            s.text,
        )


def after_last_citation(text: str) -> str | None:
    """A claim the statement adds after its last citation, or None: a citation covers
    what comes before it, so "… weekly [1], and the results go to the health office
    every quarter." leaves the second claim uncited."""
    rest = after_citations(text)
    if rest is None or not _JOINED.match(rest):
        return None
    claim = _JOINED.sub("", rest).strip().rstrip(".!")
    return claim if len(content_terms(claim)) >= 3 else None


def after_citations(text: str) -> str | None:
    """What ``text`` says after its last citation marker; None when it cites nothing."""
    ends = [m.end() for m in CITATION.finditer(text)]
    return text[ends[-1] :] if ends else None
