"""A value the question gives itself is no answer to a question for a value of a shape
(``answer_types.shape.unshaped`` with the question's terms, ``answer_type.shape``):
"with a 1p/3p charger, what phases value …?" is not answered by "set to 1p or 3p"."""

from __future__ import annotations

from sources import check, document, evidence, findings, perceive

from ragcore.agents.answer_types.shape import unshaped

QUESTION = (
    "KX-7 loadpoint with a 1p/3p switching charger, what phases value turns on auto switching?"
)
DOC = document("kx7/loadpoints", "KX-7 loadpoint configuration")


def test_the_questions_own_values_are_left_out():
    asks = perceive(QUESTION).asks
    echo = "If the charger is set to 1p or 3p by a switch, the phases value is not needed."
    assert unshaped(asks.value_shape, echo, asks.terms) is not None
    assert unshaped(asks.value_shape, echo) is None  # without them, "1p" reads as a value
    assert unshaped(asks.value_shape, "Set phases: 0 for automatic switching.", asks.terms) is None


def test_an_answer_that_only_repeats_the_questions_values_is_not_ok():
    text = "If the charger is set to 1p or 3p by a switch, the phases value is not needed."
    cited = [evidence(1, text, DOC)]
    answer = text.rstrip(".") + " [1]."
    assert ("answer_type.shape", "off_question") in findings(check(QUESTION, answer, cited))
