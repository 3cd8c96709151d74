"""Sides and subjects read however the question was typed (``validation.asked``): a
question asking which side is more needs a figure of each side, a question asking the
same of several models an answer for each, and an answer from another model's document
(a sister model's manual) is ``wrong_entity`` — with the models written "ac-110", "cp500"
or "the 737" as well as "AC-110"."""

from __future__ import annotations

from dataclasses import replace

from sources import check, document, evidence, findings

AC110 = document("manual-ac110", "AC-110 screw compressor manual")
AC75 = document("manual-ac75", "AC-75 screw compressor manual")
CP350 = document("manual-cp350", "CP-350 process pump manual")
CP200 = document("manual-cp200", "CP-200 centrifugal pump manual")
A320 = document("manual-a320", "A320 hydraulic system manual")
B737 = document("manual-b737", "B737-800 hydraulic system manual")

MOTORS = [
    evidence(1, "The CP-350 motor draws 7.5 kW at full load.", CP350),
    evidence(2, "The AC-110 is driven by a 75 kW motor.", AC110),
]


def test_a_choice_between_models_typed_in_lower_case_needs_a_figure_for_each():
    question = "bigger motor: ac-110 or the cp-350 pump?"
    one = "The motor draws 7.5 kW at full load [1]."
    assert findings(check(question, one, MOTORS[:1])) == [
        ("sides.missing", "missing_side"),
        ("sides.single_figure", "missing_side"),
    ]
    both = "The AC-110's motor is 75 kW [2]; the CP-350's draws 7.5 kW [1]."
    assert findings(check(question, both, MOTORS)) == []


RESERVOIRS = [
    evidence(1, "The green reservoir holds 14 litres at the normal level.", A320),
    evidence(2, "Reservoir A holds 22.7 litres at the full mark.", B737),
]


def test_one_figure_without_a_comparison_does_not_answer_which_holds_more():
    question = "which holds more, a320 green or 737 reservoir A"
    one = "The green reservoir holds 14 litres at the normal level [1]."
    assert ("sides.single_figure", "missing_side") in findings(check(question, one, RESERVOIRS))
    both = "Reservoir A of the 737 holds 22.7 litres [2], the A320 green reservoir 14 litres [1]."
    assert findings(check(question, both, RESERVOIRS)) == []


NOISE = [
    evidence(1, "The AC-75's noise level is 69 dB(A) at 1 m.", AC75),
    evidence(2, "The AC-110's noise level is 72 dB(A) at 1 m.", AC110),
]


def test_the_same_asked_of_two_models_typed_in_lower_case_is_answered_for_each():
    question = "noise levels of the ac-75 and ac-110?"
    one = "The AC-75's noise level is 69 dB(A) at 1 m [1]."
    report = check(question, one, NOISE[:1])
    assert findings(report) == [("sides.missing", "missing_side")]
    assert report.issues[0].entity == "ac-110"
    both = "The AC-75's noise level is 69 dB(A) at 1 m [1], the AC-110's 72 dB(A) [2]."
    assert findings(check(question, both, NOISE)) == []


SEALS = [
    evidence(
        1,
        "Field data showed early seal wear, so the seal interval was shortened from 2000 to "
        "1500 operating hours.",
        CP200,
    )
]


def test_a_sister_models_manual_does_not_answer_for_the_model_asked():
    report = check("seal interval on the cp-500?", "The seal interval is 1500 h [1].", SEALS)
    assert ("subject.other_model", "off_question") in findings(report)
    asked = check("seal interval on the cp-200?", "The seal interval is 1500 h [1].", SEALS)
    assert findings(asked) == []


def test_another_models_manual_does_not_answer_a_model_named_by_its_number():
    cited = [evidence(1, "Never mix fluids of different types.", A320)]
    report = check("what fluid type goes in the 737 ones", "Never mix fluids [1].", cited)
    assert findings(report) == [("subject.other_model", "off_question")]


def test_a_rule_or_a_document_about_no_one_model_answers_for_any():
    rule = replace(document("reg-hot-work", "Hot work safety rule 2026"), doc_type="regulation")
    cited = [evidence(1, "A fire watch must stay for at least 60 minutes after the work.", rule)]
    answer = "A fire watch must stay for at least 60 minutes after the work [1]."
    assert findings(check("How long must the fire watch stay at the hp-400?", answer, cited)) == []
    faq = document("faq-hearing", "Hearing protection FAQ")
    cited = [evidence(1, "Wear ear defenders in the compressor room.", faq)]
    answer = "Wear ear defenders in the compressor room [1]."
    assert "subject.other_model" not in {
        rule for rule, _ in findings(check("do i need ear defenders near the ac75?", answer, cited))
    }


def test_a_model_named_without_its_prefix_is_the_documents():
    cited = [evidence(1, "The B737-800 has two main hydraulic systems, A and B.", B737)]
    answer = "The B737-800 has two main hydraulic systems, A and B [1]."
    question = "How many hydraulic systems does the 737-800 have?"
    assert "subject.other_model" not in {
        rule for rule, _ in findings(check(question, answer, cited))
    }


def test_a_figure_is_no_name_of_the_side_a_follow_up_adds():
    spindle = document("manual-vm3000", "VM-3000 machining centre manual")
    cited = [evidence(1, "Error E3301 means the spindle drive overheated above 110 °C.", spindle)]
    answer = "Error E3301 means the spindle drive overheated above 110 °C [1]."
    found = {rule for rule, _ in findings(check("more than the 110?", answer, cited))}
    assert {"sides.missing", "subject.other_model"} <= found


def test_a_side_named_by_its_number_is_named_by_the_full_model_name():
    question = "which holds more, the A320 green reservoir or the 737 reservoir A?"
    both = "The B737-800 reservoir A holds 22.7 litres [2], the A320 green one 14 litres [1]."
    assert findings(check(question, both, RESERVOIRS)) == []


def test_a_side_compared_by_a_figure_of_something_else_has_no_figure():
    question = "Which is louder, the AC-75 or the AC-110?"
    cited = [NOISE[0], evidence(2, "The AC-110 delivers 11.0 m³/min of free air.", AC110)]
    other = "The AC-75's noise level is 69 dB(A) at 1 m [1]. The AC-110 delivers 11.0 m³/min [2]."
    report = check(question, other, cited)
    assert ("sides.missing", "missing_side") in findings(report)
    assert "AC-110" in {i.entity for i in report.issues}
    both = "The AC-110 is louder: 72 dB(A) [2] against 69 dB(A) for the AC-75 [1]."
    assert findings(check(question, both, NOISE)) == []


def test_two_figures_in_units_unknown_or_unread_still_answer_which_is_more():
    fillers = document("faq-fillers", "Filler accuracy FAQ")
    cited = [evidence(1, "The BF-90 fills to ±1.5 mL; the BF-60 achieves ±2 mL.", fillers)]
    answer = "The BF-90: it fills to ±1.5 mL, while the BF-60 achieves ±2 mL [1]."
    question = "Which filler is more accurate, the BF-60 or the BF-90?"
    assert "sides.single_figure" not in {
        rule for rule, _ in findings(check(question, answer, cited))
    }


def test_a_model_named_in_the_plural_is_the_model():
    battery = document("manual-vr150", "Stratos VR-150 battery manual")
    cited = [evidence(1, "VR-150 terminals are tightened to 10 N·m.", battery)]
    answer = "VR-150 terminals are tightened to 10 N·m [1]."
    question = "What torque goes on the terminals if they are Stratos VR-150s?"
    assert "subject.other_model" not in {
        rule for rule, _ in findings(check(question, answer, cited))
    }


def test_every_month_is_a_figure_beside_every_three_months():
    ls3 = document("manual-ls3", "LS-3 gas detector manual")
    gp9 = document("manual-gp9", "GP-9 oxygen analyser manual")
    cited = [
        evidence(1, "Calibrate the LS-3 gas sensors every month.", ls3),
        evidence(2, "Calibrate the GP-9 analyser every 3 months.", gp9),
    ]
    question = "Which gets calibrated more often: the LS-3's gas sensors or the GP-9's analyser?"
    answer = (
        "The LS-3 sensors, calibrated every month [1], against every 3 months for the GP-9 [2]."
    )
    assert "sides.single_figure" not in {
        rule for rule, _ in findings(check(question, answer, cited))
    }
