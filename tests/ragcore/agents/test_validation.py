"""Validation on real evidence from the sample knowledge base: each check catches its fault."""

from __future__ import annotations

import pytest
from conftest import TODAY

from ragcore.agents.evidence import Draft, Evidence, split_statements
from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.agents.validation import Validator
from ragcore.storage.filters import SearchFilters

perceive = PerceptionAgent(nlp=None, clock=lambda: TODAY).run


def evidence_of(engine, *document_ids: str, query: str) -> list[Evidence]:
    """The best chunk of each document for ``query``, numbered in the order given."""
    out = []
    for doc_id in document_ids:
        hits = engine.search(query, k=50, filters=SearchFilters())
        hit = next(h for h in hits if h.document_id == doc_id)
        out.append(Evidence(len(out) + 1, hit, hit.score, 0.5))
    return out


def draft(text: str) -> Draft:
    return Draft(text, split_statements(text), "test")


@pytest.fixture
def validator(sample_engine) -> Validator:
    return Validator(documents=sample_engine.store.documents)


def kinds(report) -> list[str]:
    return [i.kind for i in report.issues]


def test_a_supported_cited_answer_passes(sample_engine, validator):
    q = "What torque for the HP-400 platen bolts?"
    ev = evidence_of(sample_engine, "manual-hp400-v2", query=q)
    report = validator.check(
        draft("Tighten the platen bolts to 52 N·m in a cross pattern [1]."), ev, perceive(q)
    )
    assert report.passed, report.issues
    assert [c.name for c in report.checks] == ["traceability", "timeliness", "consistency"]
    assert report.support[0] >= validator.support_threshold


def test_an_invented_citation_is_caught(sample_engine, validator):
    q = "What torque for the HP-400 platen bolts?"
    ev = evidence_of(sample_engine, "manual-hp400-v2", query=q)
    report = validator.check(draft("Tighten the platen bolts to 52 N·m [4]."), ev, perceive(q))
    [issue] = report.issues
    assert (issue.check, issue.kind) == ("traceability", "invalid_citation")
    assert "[4]" in issue.message


def test_an_unsupported_number_is_caught(sample_engine, validator):
    q = "What torque for the HP-400 platen bolts?"
    ev = evidence_of(sample_engine, "manual-hp400-v2", query=q)
    report = validator.check(draft("Tighten the platen bolts to 60 N·m [1]."), ev, perceive(q))
    [issue] = report.issues
    assert issue.kind == "unsupported_number"
    assert "60" in issue.message
    assert issue.chunk_ids == (ev[0].chunk_id,)
    assert issue.document_ids == ("manual-hp400-v2",)


def test_an_uncited_and_an_unsupported_statement_are_caught(sample_engine, validator):
    q = "What torque for the HP-400 platen bolts?"
    ev = evidence_of(sample_engine, "manual-hp400-v2", query=q)
    report = validator.check(
        draft("The platen bolts take 52 N·m. The press frame is painted bright orange [1]."),
        ev,
        perceive(q),
    )
    assert kinds(report) == ["uncited", "unsupported"]
    assert report.support[1] < validator.support_threshold


def test_a_superseded_document_is_caught(sample_engine, validator):
    q = "How often should the CP-200 seal be replaced?"
    ev = evidence_of(sample_engine, "manual-cp200-v1", query=q)
    text = "Replace the mechanical seal (P/N 88-2041-07) every 2000 operating hours [1]."
    report = validator.check(draft(text), ev, perceive(q))
    [issue] = report.issues
    assert (issue.check, issue.kind) == ("timeliness", "superseded")
    assert issue.document_ids == ("manual-cp200-v1", "manual-cp200-v2")


def test_a_superseded_document_is_right_for_a_question_about_its_own_time(sample_engine, validator):
    q = "What seal interval did the CP-200 manual give in 2022?"
    ev = evidence_of(sample_engine, "manual-cp200-v1", query=q)
    text = "Replace the mechanical seal (P/N 88-2041-07) every 2000 operating hours [1]."
    assert validator.check(draft(text), ev, perceive(q)).passed


def test_a_document_outside_the_time_interval_is_caught(sample_engine, validator):
    q = "What did the lockout rule require before March 2024?"
    ev = evidence_of(sample_engine, "reg-loto-2024", query="lockout devices inspected")
    text = "Lockout devices must now be inspected every 6 months instead of every 12 months [1]."
    [issue] = validator.check(draft(text), ev, perceive(q)).issues
    assert issue.kind == "outside_interval"
    assert "reg-loto-2024" in issue.message


def test_a_figure_a_newer_more_authoritative_document_overrides_is_caught(sample_engine, validator):
    q = "How often should the CP-200 seal be replaced?"
    ev = evidence_of(sample_engine, "faq-cp200-seal", "manual-cp200-v2", query=q)
    text = "Replace the CP-200 mechanical seal every 2000 operating hours [1]."
    [issue] = validator.check(draft(text), ev, perceive(q)).issues
    assert issue.kind == "outranked"
    assert issue.document_ids == ("faq-cp200-seal", "manual-cp200-v2")


COMPARE = "Which pump delivers more flow, CP-200 or CP-350?"


def test_a_comparison_with_data_for_both_sides_passes(sample_engine, validator):
    ev = evidence_of(sample_engine, "manual-cp200-v2", "manual-cp350", query="rated flow L/min")
    text = (
        "The CP-200 delivers a rated flow of 120 L/min at 6 bar [1]. "
        "The CP-350 delivers a rated flow of 210 L/min at 8 bar [2]. "
        "The CP-350 has more flow than the CP-200 (210 vs 120 L/min) [2][1]."
    )
    report = validator.check(draft(text), ev, perceive(COMPARE))
    assert report.passed, report.issues


def test_a_comparison_missing_a_side_is_caught(sample_engine, validator):
    ev = evidence_of(sample_engine, "manual-cp200-v2", "manual-cp350", query="rated flow L/min")
    text = "The CP-200 delivers a rated flow of 120 L/min at 6 bar [1]."
    [issue] = validator.check(draft(text), ev, perceive(COMPARE)).issues
    assert (issue.kind, issue.entity) == ("missing_side", "CP-350")


@pytest.mark.parametrize(
    ("claim", "problem"),
    [
        ("The CP-200 has more flow than the CP-350 [1][2].", "contradicts the cited figures"),
        ("The CP-200 is louder than the CP-350 [1][2].", "no cited figure"),
    ],
)
def test_an_unsupported_relation_is_caught(sample_engine, validator, claim, problem):
    ev = evidence_of(sample_engine, "manual-cp200-v2", "manual-cp350", query="rated flow L/min")
    text = (
        "The CP-200 delivers a rated flow of 120 L/min at 6 bar [1]. "
        f"The CP-350 delivers a rated flow of 210 L/min at 8 bar [2]. {claim}"
    )
    [issue] = validator.check(draft(text), ev, perceive(COMPARE)).issues
    assert (issue.check, issue.kind) == ("consistency", "unsupported_relation")
    assert problem in issue.message
    assert issue.statement == claim


def test_an_abstaining_draft_reports_no_evidence(validator):
    report = validator.check(
        Draft("Nothing found.", (), "test", abstained=True), [], perceive("What is E9999?")
    )
    assert kinds(report) == ["no_evidence"]
