"""Timeliness (``checks/timeliness``): a cited document is in force for the asked interval
(``timeliness.outside_interval``), not superseded (``timeliness.superseded``) and not
outranked by a newer, at least as authoritative one (``timeliness.outranked``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from sources import (
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

# -- in force from the date a document states ------------------------------------------------
RULE = [
    evidence(
        1,
        "Rule GS-19 replaces GS-12. Effective 1 September 2019. Gas detectors alarm at 10 % LEL.",
        document("gs19", "Gas Safety Rule GS-19", updated_at=date(2019, 5, 20)),
    )
]


ALARM = "Gas detectors alarm at 10 % LEL under GS-19 [1]."


def test_a_rule_cited_for_a_month_before_it_took_effect_is_outside_the_interval():
    report = check("In July 2019, at what level did gas detectors alarm?", ALARM, RULE)
    assert findings(report) == [("timeliness.outside_interval", "outside_interval")], report.issues
    [issue] = report.issues
    assert "in force from 2019-09-01" in issue.message


def test_a_rule_cited_for_a_month_after_it_took_effect_is_in_the_interval():
    report = check("In October 2019, at what level did gas detectors alarm?", ALARM, RULE)
    assert findings(report) == [], report.issues


# -- a newer rule cited to say it did not apply yet -------------------------------------------
GS12_RULE = document(
    "gs12", "Gas Safety Rule GS-12", updated_at=date(2012, 3, 1), superseded_by="gs19"
)


GS19_RULE = document(
    "gs19", "Gas Safety Rule GS-19", updated_at=date(2019, 5, 20), supersedes="gs12"
)


RULES = [
    evidence(1, "Gas detectors alarm at 20 % LEL.", GS12_RULE),
    evidence(
        2, "Rule GS-19 replaces GS-12. Effective 1 September 2019. Alarm at 10 % LEL.", GS19_RULE
    ),
]


def test_a_newer_rule_cited_beside_the_one_then_in_force_is_not_outside_the_interval():
    question = "In July 2019, at what level did gas detectors alarm?"
    answer = "At 20 % LEL: GS-12 still applied [1], as GS-19 only took effect on "
    answer += "1 September 2019 [2]."
    report = check(question, answer, RULES)
    assert findings(report) == [], report.issues


def test_the_newer_rule_alone_for_a_month_before_it_took_effect_is_still_outside():
    question = "In July 2019, at what level did gas detectors alarm?"
    report = check(question, "Gas detectors alarm at 10 % LEL under GS-19 [2].", RULES)
    assert findings(report) == [("timeliness.outside_interval", "outside_interval")]


# -- a successor that takes effect after its date ------------------------------------------
DUST_RULE_2016 = document(
    "reg-dust-2016",
    "Quarry Dust Control Regulation 2016",
    updated_at=date(2016, 5, 1),
    superseded_by="reg-dust-2023",
)


DUST_RULE_2023 = document(
    "reg-dust-2023",
    "Quarry Dust Control Regulation 2023",
    updated_at=date(2023, 1, 16),
    version=2,
    supersedes="reg-dust-2016",
)


def test_the_old_rule_answers_for_a_month_before_its_successor_took_effect():
    retrieved = [
        evidence(
            1, "The respirable silica limit is 0.1 mg/m³ over an 8-hour shift.", DUST_RULE_2016
        ),
        evidence(2, "Effective 1 March 2023. The silica limit is 0.05 mg/m³.", DUST_RULE_2023),
    ]
    validator = Validator(documents=lambda ids: {d.id: d for d in (DUST_RULE_2016, DUST_RULE_2023)})
    question = "What was the respirable crystalline silica limit in January 2023?"
    for cited_answer, superseded in (
        ("In January 2023 the limit was 0.1 mg/m³ over an 8-hour shift [1].", False),
        ("In April 2023 the limit was 0.1 mg/m³ over an 8-hour shift [1].", None),
    ):
        if superseded is None:  # the same answer for a month after: the newer rule applied
            question = "What was the respirable crystalline silica limit in April 2023?"
        draft = Draft(cited_answer, split_statements(cited_answer), "test")
        report = validator.check(draft, retrieved, perceive(question))
        expected = [("timeliness.superseded", "superseded")] if superseded is None else []
        assert findings(report) == expected, report.issues


# -- a question that names the superseded version ------------------------------------------
CSM_2018 = document(
    "reg-csm-2018",
    "CSM-2018 Server Room Maintenance Standard",
    updated_at=date(2018, 3, 1),
    superseded_by="reg-csm-2022",
)


CSM_2022 = document(
    "reg-csm-2022",
    "CSM-2022 Server Room Maintenance Standard",
    updated_at=date(2022, 3, 1),
    version=2,
    supersedes="reg-csm-2018",
)


VERSIONS = Validator(documents=lambda ids: {d.id: d for d in (CSM_2018, CSM_2022)})


CSM_2018_RULE = [
    evidence(1, "Condenser coils of air handlers are cleaned every 12 months.", CSM_2018)
]


def _report(question: str, answer: str, cited):
    return VERSIONS.check(
        Draft(answer, split_statements(answer), "test"), cited, perceive(question)
    )


def test_a_question_naming_the_superseded_version_may_cite_it():
    answer = "CSM-2018 set coil cleaning for air handlers at every 12 months [1]."
    # (not "CRAH coils": a source that never names CRAH does not answer for it —
    # answer_type.named_term; the check here is the version's)
    question = "Under CSM-2018, how often were air handler coils cleaned?"
    report = _report(question, answer, CSM_2018_RULE)
    assert findings(report) == [], report.issues


def test_a_question_about_today_citing_the_superseded_version_is_caught():
    answer = "Air handler coils are cleaned every 12 months [1]."
    report = _report("How often must CRAH coils be cleaned today?", answer, CSM_2018_RULE)
    assert findings(report) == [("timeliness.superseded", "superseded")], report.issues


def test_a_current_manual_beside_a_rule_named_by_its_year_is_in_its_period():

    manual = document("manual-sx12-v2", "SX-12 Smoke Damper Manual (Rev. 2)")  # 2024
    rule = replace(
        document(
            "reg-fpstc-2021", "Fire Protection Testing Code 2021", updated_at=date(2021, 3, 1)
        ),
        doc_type="regulation",
    )
    cited = [
        evidence(1, "The dampers must be fully open within 30 s.", manual),
        evidence(2, "Dampers shall open fully within 30 s.", rule),
    ]
    answer = "Yes: the SX-12 dampers open within 30 s [1], the 30 s limit of the 2021 Code [2]."
    current = "Do the SX-12's current damper opening times satisfy the 2021 Testing Code?"
    assert findings(check(current, answer, cited)) == []
    then = "Did the SX-12's damper opening times satisfy the Testing Code in 2021?"
    assert findings(check(then, answer, cited)) == [
        ("timeliness.outside_interval", "outside_interval")
    ]


HOW_CHANGED = "How did the seal interval change between revisions?"


def test_a_question_about_a_change_is_about_history_and_a_plain_one_is_not():
    assert perceive(HOW_CHANGED).constraints.history is True
    assert perceive("How often is the oil changed?").constraints.history is False


# -- revisions -------------------------------------------------------------------------------
OLD = document(
    "manual-cp200-v1",
    "CP-200 Manual revision 1",
    updated_at=date(2022, 1, 10),
    superseded_by="manual-cp200-v2",
)


NEW = document(
    "manual-cp200-v2",
    "CP-200 Manual revision 2",
    updated_at=date(2024, 5, 2),
    version=2,
    supersedes="manual-cp200-v1",
)


REVISIONS = [
    evidence(1, "Replace the CP-200 mechanical seal every 2000 operating hours.", OLD),
    evidence(2, "Replace the CP-200 mechanical seal every 3000 operating hours.", NEW),
]


def test_a_change_question_may_cite_the_superseded_revision_beside_its_successor():
    answer = (
        "Replace the CP-200 mechanical seal every 2000 operating hours [1]. "
        "Revision 2 replaces this with every 3000 operating hours [2]."
    )
    assert findings(check(HOW_CHANGED, answer, REVISIONS)) == []


OLD_ONLY = "Replace the CP-200 mechanical seal every 2000 operating hours [1]."


def test_a_plain_question_answered_from_the_superseded_revision_only_is_superseded():
    report = check("What is the seal interval?", OLD_ONLY, REVISIONS[:1])
    [issue] = report.issues
    assert (issue.check, issue.rule, issue.kind) == (
        "timeliness",
        "timeliness.superseded",
        "superseded",
    )
    assert issue.document_ids == ("manual-cp200-v1", "manual-cp200-v2")


def test_a_change_question_answered_in_the_present_from_the_old_revision_only_is_superseded():
    assert findings(check(HOW_CHANGED, OLD_ONLY, REVISIONS[:1])) == [
        ("timeliness.superseded", "superseded")
    ]


def test_a_newer_document_outranks_a_figure_only_in_a_sentence_about_the_same_thing():
    old = document("faq-ef50", "Forklift FAQ (EF-50)", updated_at=date(2021, 1, 10))
    new = document("guide-ef50", "EF-50 hydraulics guide", updated_at=date(2023, 10, 18))
    answer = "The EF-50 needs a periodic service every 250 hours [1]."
    about_oil = evidence(2, "Change the EF-50 hydraulic oil every 2000 h.", new)
    cited = [evidence(1, "The EF-50 needs a periodic service every 250 h.", old), about_oil]
    assert findings(check("How often is the EF-50 serviced?", answer, cited)) == []
    about_service = evidence(2, "The EF-50 periodic service is now due every 500 h.", new)
    cited = [cited[0], about_service]
    assert findings(check("How often is the EF-50 serviced?", answer, cited)) == [
        ("timeliness.outranked", "outranked")
    ]


def test_a_change_question_naming_years_may_cite_both_versions():
    old = document(
        "reg-2020", "Charging rule 2020", updated_at=date(2020, 3, 1), superseded_by="reg-2025"
    )
    new = document(
        "reg-2025", "Charging rule 2025", updated_at=date(2025, 1, 1), supersedes="reg-2020"
    )
    question = "What changed in the ventilation requirement between the 2020 and 2025 rules?"
    answer = "The minimum was raised from 6 air changes per hour [1] to 8 air changes per hour [2]."
    cited = [
        evidence(1, "Charging rooms need 6 air changes per hour.", old),
        evidence(2, "Charging rooms need 8 air changes per hour.", new),
    ]
    report = check(question, answer, cited)
    assert findings(report) == []


def test_a_superseded_document_is_caught(sample_engine):
    validator = sample_validator(sample_engine)
    q = "How often should the CP-200 seal be replaced?"
    ev = evidence_of(sample_engine, "manual-cp200-v1", query=q)
    text = "Replace the mechanical seal (P/N 88-2041-07) every 2000 operating hours [1]."
    report = validator.check(draft(text), ev, perceive(q))
    [issue] = report.issues
    assert (issue.check, issue.rule, issue.kind) == (
        "timeliness",
        "timeliness.superseded",
        "superseded",
    )
    assert issue.document_ids == ("manual-cp200-v1", "manual-cp200-v2")


def test_a_superseded_document_is_right_for_a_question_about_its_own_time(sample_engine):
    validator = sample_validator(sample_engine)
    q = "What seal interval did the CP-200 manual give in 2022?"
    ev = evidence_of(sample_engine, "manual-cp200-v1", query=q)
    text = "Replace the mechanical seal (P/N 88-2041-07) every 2000 operating hours [1]."
    assert validator.check(draft(text), ev, perceive(q)).passed


def test_a_document_outside_the_time_interval_is_caught(sample_engine):
    validator = sample_validator(sample_engine)
    q = "What did the lockout rule require before March 2024?"
    ev = evidence_of(sample_engine, "reg-loto-2024", query="lockout devices inspected")
    text = "Lockout devices must now be inspected every 6 months instead of every 12 months [1]."
    [issue] = validator.check(draft(text), ev, perceive(q)).issues
    assert (issue.rule, issue.kind) == ("timeliness.outside_interval", "outside_interval")
    assert "reg-loto-2024" in issue.message


def test_a_figure_a_newer_more_authoritative_document_overrides_is_caught(sample_engine):
    validator = sample_validator(sample_engine)
    q = "How often should the CP-200 seal be replaced?"
    ev = evidence_of(sample_engine, "faq-cp200-seal", "manual-cp200-v2", query=q)
    text = "Replace the CP-200 mechanical seal every 2000 operating hours [1]."
    [issue] = validator.check(draft(text), ev, perceive(q)).issues
    assert (issue.rule, issue.kind) == ("timeliness.outranked", "outranked")
    assert issue.document_ids == ("faq-cp200-seal", "manual-cp200-v2")
