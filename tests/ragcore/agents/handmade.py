"""Evidence built by hand for the agents' tests (a document's metadata and a chunk of it),
and the validator's report on an answer citing it."""

from __future__ import annotations

from datetime import date

from conftest import TODAY

from ragcore.agents.evidence import Draft, Evidence, split_statements
from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.agents.validation import ValidationReport, Validator
from ragcore.documents import DocumentInfo
from ragcore.retrieval.search import Hit


def document(
    doc_id: str,
    title: str,
    *,
    updated_at: date = date(2024, 1, 15),
    version: int = 1,
    supersedes: str | None = None,
    superseded_by: str | None = None,
) -> DocumentInfo:
    return DocumentInfo(
        id=doc_id,
        knowledge_base="default",
        title=title,
        source="",
        doc_type="manual",
        authority=3,
        updated_at=updated_at,
        version=version,
        supersedes=supersedes,
        metadata={},
        checksum="0" * 64,
        ingested_at="2026-01-01T00:00:00Z",
        superseded_by=superseded_by,
    )


def evidence(number: int, text: str, doc: DocumentInfo) -> Evidence:
    hit = Hit(
        chunk_id=100 + number,
        document_id=doc.id,
        text=text,
        start=0,
        end=len(text),
        start_byte=0,
        end_byte=len(text.encode()),
        position=0,
        entities=(),
        numeric_density=0.0,
        score=1.0,
        scores={},
        document=doc,
    )
    return Evidence(number, hit, 1.0, 0.5)


CP200 = document(
    "manual-cp200", "CP-200 centrifugal pump manual", updated_at=date(2024, 5, 2), version=2
)
PUMP = [
    evidence(1, "The CP-200 centrifugal pump delivers a rated flow of 120 L/min at 6 bar.", CP200),
    evidence(2, "The maximum operating pressure of the CP-200 is 10 bar.", CP200),
]
"""The CP-200's flow and pressure, and nothing about its weight (answerability)."""

perceive = PerceptionAgent(nlp=None, clock=lambda: TODAY).run
"""Perception without spaCy, on the tests' fixed day."""
_validator = Validator()


def check(question: str, answer: str, cited: list[Evidence]) -> ValidationReport:
    """The validator's report on ``answer`` to ``question`` citing ``cited``."""
    draft = Draft(answer, split_statements(answer), "test")
    return _validator.check(draft, cited, perceive(question))


def findings(report: ValidationReport) -> list[tuple[str, str]]:
    """Every finding of ``report``, in order: the rule that found it and its kind."""
    return [(i.rule, i.kind) for i in report.issues]


def outcome(report: ValidationReport) -> tuple[bool, list[tuple[str, str]]]:
    """The whole outcome: whether the answer passed, and every finding."""
    return report.passed, findings(report)
