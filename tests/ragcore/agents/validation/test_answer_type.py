"""Answerability by kind (``checks/answer_type``): an answer is of the kind the question
asks for — a figure, the asked code's meaning, a part number — whatever words it shares
with the question."""

from __future__ import annotations

from sources import check, document, evidence, findings, perceive

from ragcore.agents.perception.asks import AnswerType

PUMP = [
    evidence(
        1,
        "The CP-200 relief valve pressure must be set by a trained technician. It opens at 10 bar.",
        document("manual-cp200", "CP-200 pump manual"),
    )
]
SEAL = [
    evidence(
        1,
        "Replace the mechanical seal (P/N 88-2041-09) every 1500 operating hours. "
        "Order seals from the service desk.",
        document("manual-cp200", "CP-200 pump manual"),
    )
]
CODES = [
    evidence(
        1,
        "Error E4027 means the hydraulic oil pressure fell below 150 bar. "
        "Error E4031 means the platen guard is open.",
        document("manual-hp400", "HP-400 press manual"),
    )
]


def test_the_answer_type_is_read_from_the_questions_form():
    kinds = {
        "What pressure does the CP-200 relief valve open at?": AnswerType.FIGURE,
        "What does error E4027 mean on the HP-400?": AnswerType.MEANING,
        "What is the part number of the CP-200 seal?": AnswerType.PART_NUMBER,
        "How do I replace the CP-200 seal?": AnswerType.PROCEDURE,
        "Can the CP-200 run dry?": AnswerType.YES_NO,
        "How many seals does the CP-200 have?": AnswerType.COUNT,
        "Who services the CP-200?": AnswerType.ANY,
    }
    assert {q: perceive(q).asks.answer_type for q in kinds} == kinds


def test_a_value_question_answered_without_a_figure_is_not_of_the_asked_kind():
    question = "What pressure does the CP-200 relief valve open at?"
    wrong = "The CP-200 relief valve pressure must be set by a trained technician [1]."
    assert findings(check(question, wrong, PUMP)) == [("answer_type.figure", "off_question")]
    right = "The CP-200 relief valve opens at 10 bar [1]."
    assert findings(check(question, right, PUMP)) == []


def test_a_part_number_question_needs_a_part_number_the_question_does_not_give():
    question = "What is the part number of the CP-200 seal?"
    wrong = "Order seals from the service desk [1]."
    assert ("answer_type.part_number", "off_question") in findings(check(question, wrong, SEAL))
    right = "The CP-200 mechanical seal is P/N 88-2041-09 [1]."
    assert findings(check(question, right, SEAL)) == []


def test_a_meaning_question_needs_the_asked_code_in_the_answer_or_its_source():
    question = "What does error E4027 mean on the HP-400?"
    right = "Error E4027 means the hydraulic oil pressure fell below 150 bar [1]."
    assert findings(check(question, right, CODES)) == []
    other = [evidence(1, "The platen guard is open.", document("manual-hp400", "HP-400 press"))]
    wrong = "The platen guard is open [1]."
    assert ("answer_type.meaning", "off_question") in findings(check(question, wrong, other))


def test_an_answer_that_only_repeats_the_question_answers_nothing():
    cited = [
        evidence(
            1,
            "RTAPI: ERROR: Unexpected realtime delay on task n. The usual cause is a "
            "BASE_PERIOD set too short for the machine.",
            document("lcnc-latency", "LinuxCNC latency"),
        )
    ]
    question = "Getting 'RTAPI: ERROR: Unexpected realtime delay on task n' - what's the cause?"
    echo = "RTAPI: ERROR: Unexpected realtime delay on task n [1]."
    assert ("answer_type.echo", "off_question") in findings(check(question, echo, cited))
    right = "The usual cause is a BASE_PERIOD set too short for the machine [1]."
    assert findings(check(question, right, cited)) == []


AIR_FILTERS = [
    evidence(
        1,
        "The AC-75 delivers 7.5 m³/min of free air. Replace the air filter (P/N 61-0075-11) "
        "every 2000 hours.",
        document("manual-ac75", "AC-75 compressor manual"),
    ),
    evidence(
        2,
        "The AC-110 delivers 11.0 m³/min of free air. Replace the air filter (P/N 61-0110-04) "
        "every 2000 hours.",
        document("manual-ac110", "AC-110 compressor manual"),
    ),
]


def test_part_numbers_of_models_named_side_by_side_are_asked_of_each_model():
    question = "Which part numbers are the air filters of the AC-75 and AC-110?"
    assert perceive(question).sides == ("AC-75", "AC-110")
    # a decimal figure is no part number: the flow of each is not the answer
    wrong = "The AC-75 delivers 7.5 m³/min of free air [1]. The AC-110 delivers 11.0 m³/min [2]."
    assert findings(check(question, wrong, AIR_FILTERS)) == [
        ("answer_type.part_number", "off_question"),
        ("answer_type.part_number", "off_question"),
    ]
    half = (
        "AC-75: Replace the air filter (P/N 61-0075-11) every 2000 hours [1]. "
        "The AC-110 delivers 11.0 m³/min of free air [2]."
    )
    report = check(question, half, AIR_FILTERS)
    assert [(i.rule, i.entity) for i in report.issues] == [("answer_type.part_number", "AC-110")]
    right = (
        "AC-75: Replace the air filter (P/N 61-0075-11) every 2000 hours [1]. "
        "AC-110: Replace the air filter (P/N 61-0110-04) every 2000 hours [2]."
    )
    assert findings(check(question, right, AIR_FILTERS)) == []
