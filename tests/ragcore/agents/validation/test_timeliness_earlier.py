"""A question for the figure before a change (``Constraints.earlier``: "the old revision",
"the 1998 handbook", "before the bulletin") is answered from the earlier version or by a
sentence stating the change (``timeliness.not_earlier`` otherwise), and the superseded
version it cites for it is not ``timeliness.superseded``. Invented documents."""

from __future__ import annotations

from datetime import date

from sources import check, document, evidence, findings

OLD = document("rx9-v1", "RX-9 blower manual", updated_at=date(2018, 4, 2), superseded_by="rx9-v2")
NEW = document(
    "rx9-v2", "RX-9 blower manual, revision 2", updated_at=date(2023, 6, 1), supersedes="rx9-v1"
)
SOURCES = [
    evidence(1, "Renew the RX-9 drive belt every 800 operating hours.", NEW),
    evidence(2, "Renew the RX-9 drive belt every 600 operating hours.", OLD),
    evidence(3, "The RX-9 belt interval was extended from 600 to 800 operating hours.", NEW),
]
QUESTION = "What was the RX-9 belt interval in the old revision?"


def test_the_current_figure_alone_is_not_the_earlier_one():
    report = check(QUESTION, "Renew the RX-9 drive belt every 800 operating hours [1].", SOURCES)
    assert findings(report) == [("timeliness.not_earlier", "outside_interval")], report.issues
    [issue] = report.issues
    assert "earlier version" in issue.message and "rx9-v2" in issue.message


def test_the_superseded_revision_answers_it_and_is_not_flagged_superseded():
    report = check(QUESTION, "Renew the RX-9 drive belt every 600 operating hours [2].", SOURCES)
    assert findings(report) == [], report.issues


def test_a_sentence_stating_the_change_gives_the_figure_before_it():
    answer = "The RX-9 belt interval was extended from 600 to 800 operating hours [3]."
    report = check(QUESTION, answer, SOURCES)
    assert findings(report) == [], report.issues


def test_the_same_answer_to_a_question_for_the_current_figure_passes():
    question = "How often is the RX-9 drive belt renewed?"
    report = check(question, "Renew the RX-9 drive belt every 800 operating hours [1].", SOURCES)
    assert findings(report) == [], report.issues


# -- a manual a newer bulletin overrides, nothing marking it superseded ---------------------
HANDBOOK = document("kt4-handbook", "KT-4 crane handbook", updated_at=date(2019, 2, 1))
BULLETIN = document("kt4-sb-07", "Service bulletin SB-07 for the KT-4", updated_at=date(2025, 9, 1))
CRANE = [
    evidence(1, "Inspect the KT-4 hoist rope every 200 lifts.", HANDBOOK),
    evidence(2, "SB-07: inspect the KT-4 hoist rope every 120 lifts.", BULLETIN),
]


def test_the_overridden_handbook_answers_what_it_was_before_the_bulletin():
    question = "What was the KT-4 hoist rope inspection interval before the bulletin?"
    report = check(question, "Inspect the KT-4 hoist rope every 200 lifts [1].", CRANE)
    assert findings(report) == [], report.issues
    report = check(question, "SB-07: inspect the KT-4 hoist rope every 120 lifts [2].", CRANE)
    assert findings(report) == [("timeliness.not_earlier", "outside_interval")], report.issues
