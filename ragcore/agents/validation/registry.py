"""The check registry: every check of the validator, in the order it runs, and the rule
ids each may report.

A check is a function registered with ``@check(Check.X, Scope.Y, rules=(...))``: a
statement check runs on each statement of the answer (``run(model, statement)``), an
answer check once (``run(model)``). Each yields ``Finding``s naming one of its rules;
the validator runs every check — nothing hides behind another's finding — and turns
the findings into ``Issue``s of the check's kind. ``checks/__init__.py`` names the
check modules in the order they run (``in_order``); within a module, checks run in the
order they are defined.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from ragcore.types import Check, IssueKind

if TYPE_CHECKING:
    from ragcore.agents.validation.model import AnswerModel, StatementModel


class Scope(StrEnum):
    STATEMENT = "statement"  # run on each statement, in order
    ANSWER = "answer"  # run once on the whole answer


@dataclass(frozen=True)
class Finding:
    """What a check found, before it becomes an ``Issue`` of the check's kind."""

    rule: str
    kind: IssueKind
    message: str
    statement: str | None = None
    chunk_ids: tuple[int, ...] = ()
    document_ids: tuple[str, ...] = ()
    entity: str | None = None


StatementCheck = Callable[["AnswerModel", "StatementModel"], Iterable[Finding]]
AnswerCheck = Callable[["AnswerModel"], Iterable[Finding]]


@dataclass(frozen=True)
class RegisteredCheck:
    name: str
    module: str
    check: Check
    scope: Scope
    rules: tuple[str, ...]
    run: Callable[..., Iterable[Finding]]


REGISTRY: list[RegisteredCheck] = []


def check(kind: Check, scope: Scope, *, rules: tuple[str, ...]) -> Callable[[Any], Any]:
    """Register the decorated function as a check of ``kind`` reporting ``rules``."""

    def register(run: Callable[..., Iterable[Finding]]) -> Callable[..., Iterable[Finding]]:
        taken = {r for c in REGISTRY for r in c.rules}
        if clash := taken & set(rules):
            raise ValueError(f"rule ids registered twice: {sorted(clash)}")
        REGISTRY.append(RegisteredCheck(run.__name__, run.__module__, kind, scope, rules, run))
        return run

    return register


def in_order(modules: Sequence[str]) -> tuple[RegisteredCheck, ...]:
    """The registered checks, module by module in the order of ``modules`` (names under
    ``ragcore.agents.validation.checks``), each module's in definition order."""
    where = {f"{__package__}.checks.{name}": i for i, name in enumerate(modules)}
    unknown = {c.module for c in REGISTRY} - set(where)
    if unknown:
        raise ValueError(f"checks registered outside the listed modules: {sorted(unknown)}")
    return tuple(sorted(REGISTRY, key=lambda c: where[c.module]))  # stable: definition order


def rule_ids() -> dict[str, RegisteredCheck]:
    """Every rule id and the check that reports it."""
    return {rule: c for c in REGISTRY for rule in c.rules}
