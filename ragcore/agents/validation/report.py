"""What validation returns: issues, grouped by check, with each statement's support."""

from __future__ import annotations

from dataclasses import dataclass

from ragcore.types import Check, IssueKind


@dataclass(frozen=True)
class Issue:
    """One failed expectation: which check, what kind, what it is about, and the rule
    that found it (``registry``: "figures.value", "relations.comparative", …).

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
    rule: str = ""


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
