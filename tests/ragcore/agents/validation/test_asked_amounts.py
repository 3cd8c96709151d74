"""What a question tells is no ask (issue 27): a figure the question gives ("above 130
kW") is its condition, so a limit is answered by a figure of its own ("0.02 g/kWh", a
compound unit read by rule), not by the echo; and what it tells before its question
word ("With 3 phases and 16 A, how much …?") joins no second ask with its "and"."""

from __future__ import annotations

from sources import check, document, evidence, findings, perceive

from ragcore.agents.answer_types.focus import off_focus

EMISSIONS = [
    evidence(
        1,
        "For engines above 130 kW, particulate matter (PM) may not exceed 0.02 g/kWh.",
        document("stage-v", "Emission rules for non-road engines"),
    )
]


def test_a_limit_is_answered_by_a_figure_the_question_does_not_give():
    question = "What particulate limit does the rule set for engines above 130 kW?"
    answer = "For engines above 130 kW, PM may not exceed 0.02 g/kWh [1]."
    asks = perceive(question).asks
    assert asks.value_shape == "limit"  # a limit is a figure
    assert off_focus(asks, answer) is None
    assert check(question, answer, EMISSIONS).passed
    # the question's own figure, echoed, is no limit; nor is a figure in no unit read
    echo = "PM from engines above 130 kW is capped by the rule [1]."
    assert off_focus(asks, echo) == (
        "the question asks about the particulate limit; the answer does not name it"
    )
    assert not check(question, echo, EMISSIONS).passed
    # a time is no amount of dust
    when = "PM from these engines is measured at least every 6 months [1]."
    assert off_focus(asks, when) is not None
    # nor a figure of the thing stated as no bound
    hot = "PM filters on these engines regenerate at 600 °C [1]."
    assert off_focus(asks, hot) is not None


CHARGER = [
    evidence(
        1,
        "3 (phases) x 16A (minCurrent) x 230V (mains voltage) = 11040W (minimum power to charge).",
        document("wallbox", "Wallbox configuration"),
    )
]


def test_a_condition_told_before_the_question_joins_no_asks():
    question = "With 3 phases and minCurrent 16 A, how much surplus does the wallbox need?"
    assert perceive(question).asks.parts == ()
    answer = "3 (phases) x 16A (minCurrent) x 230V (mains voltage) = 11040W [1]."
    assert ("sides.every_part", "missing_side") not in findings(check(question, answer, CHARGER))
    # told first or not, two clauses that each ask are two asks
    two = "For the PX press, how often is the oil changed, and how often is the filter changed?"
    assert len(perceive(two).asks.parts) == 2
