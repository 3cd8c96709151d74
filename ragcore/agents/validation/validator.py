"""The validator: parses the answer once (``model``), runs every registered check
(``registry``, ``checks/``) and groups their findings into a report by check."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from ragcore.agents.attributes import AttributeTable, load_attributes
from ragcore.agents.evidence import Draft, Evidence
from ragcore.agents.perception.model import Perception
from ragcore.agents.validation.checks import ordered_checks
from ragcore.agents.validation.model import Judges, parse_answer
from ragcore.agents.validation.registry import Finding, RegisteredCheck, Scope
from ragcore.agents.validation.report import CheckResult, Issue, ValidationReport
from ragcore.agents.validation.semantic import SemanticSupport
from ragcore.config import DEFAULT_SEMANTIC_THRESHOLD, DEFAULT_SUPPORT_THRESHOLD
from ragcore.documents import DocumentInfo
from ragcore.inference.reranker import Reranker
from ragcore.types import Check, IssueKind

_ORDER = (Check.TRACEABILITY, Check.TIMELINESS, Check.CONSISTENCY)


class Validator:
    """Checks a draft against the evidence it was written from.

    ``documents`` looks up current document metadata by id (``Store.documents``), so a
    document superseded after it was retrieved is still caught; ``scorer`` is an
    optional cross-encoder whose support score is averaged with the lexical one;
    ``semantic`` an optional embedder-based support for paraphrases.
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
        self.semantic_threshold = semantic_threshold
        self._judges = Judges(
            support_threshold,
            semantic_threshold,
            attributes or load_attributes(),
            scorer,
            semantic,
            documents,
        )

    def check(
        self, answer: Draft, evidence: Sequence[Evidence], perception: Perception
    ) -> ValidationReport:
        if answer.abstained:
            return _abstained(answer)
        model = parse_answer(answer, evidence, perception, self._judges)
        results = []
        for kind in _ORDER:
            registered = [c for c in ordered_checks() if c.check == kind]
            issues = [
                _issue(c, finding)
                for c in registered
                if c.scope == Scope.ANSWER
                for finding in c.run(model)
            ]
            issues += [
                _issue(c, finding)
                for s in model.statements
                for c in registered
                if c.scope == Scope.STATEMENT
                for finding in c.run(model, s)
            ]
            seen = (
                len(model.cited_documents) if kind == Check.TIMELINESS else len(answer.statements)
            )
            results.append(CheckResult(kind, tuple(issues), seen))
        return ValidationReport(tuple(results), tuple(s.support[0] for s in model.statements))


def _issue(registered: RegisteredCheck, finding: Finding) -> Issue:
    if finding.rule not in registered.rules:
        raise ValueError(f"{registered.name} reported {finding.rule!r}, not one of its rules")
    return Issue(
        registered.check,
        finding.kind,
        finding.message,
        finding.statement,
        finding.chunk_ids,
        finding.document_ids,
        finding.entity,
        finding.rule,
    )


def _abstained(answer: Draft) -> ValidationReport:
    """The generator found nothing to answer from; it says what is missing when it knows."""
    if answer.reason:
        issue = Issue(
            Check.TRACEABILITY,
            IssueKind.ATTRIBUTE_NOT_FOUND,
            answer.reason,
            rule="answerability.attribute_not_found",
        )
    else:
        issue = Issue(
            Check.TRACEABILITY,
            IssueKind.NO_EVIDENCE,
            "no retrieved evidence answers it",
            rule="answerability.no_evidence",
        )
    return ValidationReport((CheckResult(Check.TRACEABILITY, (issue,), 0),), ())
