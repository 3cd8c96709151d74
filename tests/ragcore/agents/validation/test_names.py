"""Names (``checks/names``): a proper name the cited sources never use is invented
(``names.invented``)."""

from __future__ import annotations

import pytest
from sources import check, document, evidence, findings

MAKER = [
    evidence(
        1,
        "The HX-5 heat pump is made by Nordvik Thermal in Sweden. Noise: 49 dB(A).",
        document("manual-hx5", "HX-5 heat pump manual"),
    )
]
QUESTION = "Who makes the HX-5 heat pump?"


def test_a_name_the_cited_source_uses_is_not_invented():
    answer = "The HX-5 heat pump is made by Nordvik Thermal in Sweden [1]."
    assert findings(check(QUESTION, answer, MAKER)) == []


def test_a_name_no_cited_source_uses_is_invented():
    answer = "The HX-5 heat pump is made by Gridline Controls in Sweden [1]."
    report = check(QUESTION, answer, MAKER)
    assert findings(report) == [("names.invented", "unsupported_claim")]
    [issue] = report.issues
    assert (issue.check, issue.statement) == ("traceability", answer)
    assert "'Gridline Controls'" in issue.message
    assert issue.document_ids == ("manual-hx5",)


def test_an_invented_name_beside_a_real_one_is_still_invented():
    answer = "The HX-5 heat pump is made by Nordvik Thermal, a Gridline Controls company [1]."
    assert findings(check(QUESTION, answer, MAKER)) == [("names.invented", "unsupported_claim")]


def test_a_real_name_opening_a_statement_is_not_invented():
    answer = "Nordvik Thermal makes the HX-5 heat pump [1]."
    assert findings(check(QUESTION, answer, MAKER)) == []


@pytest.mark.xfail(
    strict=True,
    reason="a name opening a statement is not read as a name (checks/names: _NAME), and the "
    "rest of the statement carries its support",
)
def test_an_invented_name_opening_a_statement_is_invented_too():
    answer = "Gridline Controls makes the HX-5 heat pump [1]."
    assert findings(check(QUESTION, answer, MAKER)) == [("names.invented", "unsupported_claim")]
