"""Traceability of what a statement claims: its figures (value, unit and entity, against
the cited sources: ``validation.figures``) and, for a claim without a figure, the
entity of the source sentence that states it (``validation.binding``)."""

from __future__ import annotations

from collections.abc import Iterator

from ragcore.agents.reading import identifiers
from ragcore.agents.validation.binding import misbound_claim
from ragcore.agents.validation.model import AnswerModel, StatementModel
from ragcore.agents.validation.registry import Finding, Scope, check
from ragcore.types import Check, IssueKind


@check(Check.TRACEABILITY, Scope.STATEMENT, rules=("figures.value", "binding.entity"))
def claimed_figures_and_facts(answer: AnswerModel, s: StatementModel) -> Iterator[Finding]:
    if not s.checked:
        return
    problems = list(s.figures.problems)
    rules = ["figures.value"] * len(problems)
    named = {n for n, _, _ in identifiers(s.text)} - s.codes
    claimed = frozenset(named or ([s.subject] if s.subject else []))
    if not any(p.kind == IssueKind.WRONG_ENTITY for p in problems) and (
        misbound := misbound_claim(s.text, s.cited, claimed, s.codes)
    ):
        problems.append(misbound)
        rules.append("binding.entity")
    for rule, problem in zip(rules, problems):
        involved = problem.evidence or s.cited
        yield Finding(
            rule,
            problem.kind,
            problem.message,
            s.text,
            tuple(e.chunk_id for e in involved),
            tuple(dict.fromkeys(e.document.id for e in involved)),
        )
