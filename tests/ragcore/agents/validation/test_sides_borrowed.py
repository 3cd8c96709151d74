"""A follow-up's answer is about what the follow-up named (``checks/sides``): "And
E4031?" answered with the E4027 answer again is ``wrong_entity``."""

from __future__ import annotations

from dataclasses import replace

from sources import document, evidence, findings, perceive

from ragcore.agents.evidence import Draft, split_statements
from ragcore.agents.validation import Validator

# The manual's metadata lists both codes: it is about both, so it answers for neither alone.
HP400 = replace(
    document("manual-hp400", "HP-400 press manual"), metadata={"error_codes": "E4027, E4031"}
)
CODES = [
    evidence(
        1,
        "Error E4027 means the oil pressure fell below 150 bar. Check the accumulator "
        "precharge (90 bar nitrogen). Error E4031 means the oil temperature exceeded 65 °C.",
        HP400,
    )
]
HP500 = [evidence(1, "Check the accumulator precharge (80 bar).", document("m5", "HP-500 manual"))]


def check_follow_up(question: str, introduced: tuple[str, ...], answer: str, cited):
    perception = replace(perceive(question), introduced=introduced)
    draft = Draft(answer, split_statements(answer), "test")
    return Validator().check(draft, cited, perception)


def test_an_answer_that_never_names_the_new_code_is_the_previous_codes_answer():
    question = "What should the HP-400 precharge be (E4031)?"
    borrowed = "Check the accumulator precharge (90 bar nitrogen) [1]."
    report = check_follow_up(question, ("E4031",), borrowed, CODES)
    assert ("sides.borrowed", "wrong_entity") in findings(report)
    assert not report.passed
    right = "Error E4031 means the oil temperature exceeded 65 °C [1]."
    assert "sides.borrowed" not in [
        r for r, _ in findings(check_follow_up(question, ("E4031",), right, CODES))
    ]


def test_a_document_about_the_new_model_alone_answers_for_it():
    question = "What should the HP-500 precharge be?"
    answer = "Check the accumulator precharge (80 bar) [1]."
    assert findings(check_follow_up(question, ("HP-500",), answer, HP500)) == []


def test_the_same_question_asked_on_its_own_is_not_checked_so():
    question = "What should the HP-400 precharge be (E4031)?"
    borrowed = "Check the accumulator precharge (90 bar nitrogen) [1]."
    report = check_follow_up(question, (), borrowed, CODES)
    assert "sides.borrowed" not in [r for r, _ in findings(report)]
