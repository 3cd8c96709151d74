"""Answerability: a draft the generator abstained from is reported, not checked — as
nothing about what was asked when the generator says what is missing
(``answerability.attribute_not_found``), else as no evidence (``answerability.no_evidence``)."""

from __future__ import annotations

from sources import PUMP, findings, outcome, perceive

from ragcore.agents.evidence import NO_ANSWER, Draft
from ragcore.agents.generation import ExtractiveGenerator
from ragcore.agents.validation import Validator

validator = Validator()


def test_the_validator_turns_a_reasoned_abstention_into_attribute_not_found():
    question = "What does the CP-200 pump weigh?"
    draft = ExtractiveGenerator().generate(question, PUMP, perceive(question))
    report = validator.check(draft, PUMP, perceive(question))
    [issue] = report.issues
    assert (issue.check, issue.kind) == ("traceability", "attribute_not_found")
    assert "weight" in issue.message
    assert outcome(report) == (
        False,
        [("answerability.attribute_not_found", "attribute_not_found")],
    )


def test_the_validator_reports_an_abstention_without_a_reason_as_no_evidence():
    draft = Draft(NO_ANSWER, (), "test", abstained=True)
    report = validator.check(draft, PUMP, perceive("What does the CP-200 weigh?"))
    assert findings(report) == [("answerability.no_evidence", "no_evidence")]


def test_an_abstaining_draft_reports_no_evidence():
    report = validator.check(
        Draft("Nothing found.", (), "test", abstained=True), [], perceive("What is E9999?")
    )
    assert findings(report) == [("answerability.no_evidence", "no_evidence")]
