"""Citations (``checks/citations``): every key statement cites a passage it was given
(``citations.uncited``, ``citations.invalid``), and nothing is joined on after the last
citation (``citations.after_last``)."""

from __future__ import annotations

from sources import (
    FILTER,
    check,
    document,
    draft,
    evidence,
    evidence_of,
    findings,
    perceive,
    sample_validator,
)

from ragcore.agents.evidence import Draft, split_statements
from ragcore.agents.validation import Validator


# -- a claim joined on after the last citation ------------------------------------------------
def test_a_claim_joined_on_after_the_last_citation_is_uncited():
    question = "How often is the ZT-9 intake filter renewed?"
    answer = "The ZT-9 intake filter element is renewed every 400 h [1], and the old element "
    answer += "must be returned to the supplier for recycling."
    report = check(question, answer, FILTER)
    assert ("citations.after_last", "uncited") in findings(report), report.issues


def test_a_citation_of_a_passage_the_writer_was_not_given_is_invalid():
    cited = [
        evidence(1, "The ES-90 drive motor is rated 11 kW.", document("es90", "ES-90 Manual")),
        evidence(2, "The ES-80 drive motor is rated 7.5 kW.", document("es80", "ES-80 Manual")),
    ]
    answer = "The ES-80 drive motor is rated 7.5 kW [2]."
    perception = perceive("What power is the ES-80 drive motor?")
    shown_one = Draft(answer, split_statements(answer), "test", shown=(1,))
    report = Validator().check(shown_one, cited, perception)
    assert findings(report) == [("citations.invalid", "invalid_citation")], report.issues
    shown_both = Draft(answer, split_statements(answer), "test", shown=(1, 2))
    assert not Validator().check(shown_both, cited, perception).issues


def test_an_invented_citation_is_caught(sample_engine):
    validator = sample_validator(sample_engine)
    q = "What torque for the HP-400 platen bolts?"
    ev = evidence_of(sample_engine, "manual-hp400-v2", query=q)
    report = validator.check(draft("Tighten the platen bolts to 52 N·m [4]."), ev, perceive(q))
    [issue] = report.issues
    assert (issue.check, issue.rule, issue.kind) == (
        "traceability",
        "citations.invalid",
        "invalid_citation",
    )
    assert "[4]" in issue.message


def test_an_uncited_and_an_unsupported_statement_are_caught(sample_engine):
    validator = sample_validator(sample_engine)
    q = "What torque for the HP-400 platen bolts?"
    ev = evidence_of(sample_engine, "manual-hp400-v2", query=q)
    report = validator.check(
        draft("The platen bolts take 52 N·m. The press frame is painted bright orange [1]."),
        ev,
        perceive(q),
    )
    assert findings(report) == [
        ("citations.uncited", "uncited"),
        ("support.statement", "unsupported"),
    ]
    assert report.support[1] < validator.support_threshold
