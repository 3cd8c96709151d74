"""Issue 27, answers that are not answers: a board or code the question names with
digits and letters ("7Q44B", "F.UV2") that neither the answer nor its sources name
(``answer_type.named_term``); an answer that only repeats the question, a manual page's
title line included (``answer_type.echo``); a question for a file or for what a thing
limits something to, answered without a file name or a figure (``answer_type.shape``)."""

from __future__ import annotations

from sources import check, document, evidence, findings, perceive

from ragcore.agents.answer_types.echo import adds_nothing
from ragcore.agents.answer_types.shape import unshaped
from ragcore.agents.generation.extractive import ExtractiveGenerator

STEPS = document("kx/stepgen", "KX stepgen driver")
STEPGEN = "The stepgen outputs of a card run at up to 5 MHz when the step length is 100 ns."


def test_a_board_named_with_digits_and_letters_must_be_named():
    question = "What is the maximum step rate of the Zeta 7Q44B stepgen outputs?"
    assert "7Q44B" in perceive(question).asks.named_terms
    answer = "The stepgen outputs of a card run at up to 5 MHz when the step length is 100 ns [1]."
    got = findings(check(question, answer, [evidence(1, STEPGEN, STEPS)]))
    assert ("answer_type.named_term", "off_question") in got
    named = STEPGEN.replace("of a card", "of the 7Q44B")
    said = answer.replace("of a card", "of the 7Q44B")
    assert ("answer_type.named_term", "off_question") not in findings(
        check(question, said, [evidence(1, named, STEPS)])
    )


def test_a_dotted_alarm_code_must_be_named():
    question = "What does alarm F.UV2 on a Kestrel drive mean?"
    assert "F.UV2" in perceive(question).asks.named_terms
    text = "The drive trips on undervoltage when the DC bus falls below 180 V."
    doc = document("kestrel/alarms", "Kestrel drive alarms")
    got = findings(check(question, text[:-1] + " [1].", [evidence(1, text, doc)]))
    assert any(rule.startswith("answer_type.") for rule, _ in got)


def test_figures_with_units_and_serial_framings_are_no_named_terms():
    asks = perceive("can I run a meter at 9600 8N1 and a 13A fuse with 24V solenoids?").asks
    assert not {"8N1", "13A", "24V"} & set(asks.named_terms)


def test_a_manual_page_title_line_adds_nothing():
    question = "what does the HAL glitchfilter component do?"
    asks = perceive(question).asks
    assert adds_nothing(asks, "GLITCHFILTER(9) HAL Component GLITCHFILTER(9)")
    assert not adds_nothing(asks, "It holds an input until it has been stable for a set time.")
    doc = document("hal/glitchfilter", "glitchfilter(9)")
    title = "GLITCHFILTER(9) HAL Component GLITCHFILTER(9)"
    got = findings(check(question, title + " [1].", [evidence(1, title, doc)]))
    assert ("answer_type.echo", "off_question") in got


def test_a_question_for_a_file_is_answered_with_a_file_name():
    question = "which plugin file do I need on the arm for forwarding the serial tool bus?"
    asks = perceive(question).asks
    assert asks.value_shape == "file"
    assert unshaped(asks.value_shape, "Install the plugin on the arm first.") is not None
    assert unshaped(asks.value_shape, "Install the serialfwd-1.2.0.plug plugin.") is None
    text = "Install the plugin on the arm before forwarding the serial tool bus."
    doc = document("arm/tool-bus", "Tool bus forwarding")
    got = findings(check(question, text[:-1] + " [1].", [evidence(1, text, doc)]))
    assert ("answer_type.shape", "off_question") in got


def test_what_a_thing_limits_something_to_asks_a_figure():
    question = "when the grid contact is active, what does the controller limit export to?"
    asks = perceive(question).asks
    assert asks.value_shape == "limit"
    text = "The controller limits export when the grid contact is active."
    doc = document("ctl/grid", "Grid contact")
    got = findings(check(question, text[:-1] + " [1].", [evidence(1, text, doc)]))
    assert ("answer_type.shape", "off_question") in got
    limited = "When the grid contact is active, export is limited to 60% of the rated power."
    assert ("answer_type.shape", "off_question") not in findings(
        check(question, limited[:-1] + " [1].", [evidence(1, limited, doc)])
    )


def test_a_file_of_another_kind_is_no_answer():
    asks = perceive("which plugin file do I need on the arm for forwarding the serial bus?").asks
    assert unshaped(asks.value_shape, "run robot_bringup.launch first", asks.terms) is not None
    assert unshaped(asks.value_shape, "install serialfwd-1.2.0.plug", asks.terms) is None


def test_a_share_of_something_else_is_no_amount_of_the_asked_thing():
    question = "How much load does the inverter need for a self-test to come out accurate?"
    doc = document("inv/selftest", "Inverter self-test")
    other = "For a self-test, wait for the inverter to charge its batteries to 100% capacity."
    got = findings(check(question, other[:-1] + " [1].", [evidence(1, other, doc)]))
    assert ("answer_type.figure", "off_question") in got
    right = "For the self-test to be accurate, the output load has to be more than 40%."
    assert ("answer_type.figure", "off_question") not in findings(
        check(question, right[:-1] + " [1].", [evidence(1, right, doc)])
    )


def test_a_status_printout_is_no_answer():
    question = "How many minutes of runtime does the unit give at half load?"
    dump = (
        "UPS : 001,037 DATE : Sun Apr 26 2009 STATUS : ONLINE LINEV : 123.0 Volts "
        "LOADPCT : 24.0 Percent TIMELEFT : 25.0 Minutes"
    )
    doc = document("ups/status", "Status printout")
    got = findings(check(question, dump + " [1].", [evidence(1, dump, doc)]))
    assert ("answer_type.cells", "off_question") in got


def test_what_a_thing_does_asks_its_purpose():
    question = "what does the HAL glitchfilter component do?"
    asks = perceive(question).asks
    assert asks.answer_type.value == "purpose"
    doc = document("hal/components", "HAL components")
    names_it = "The HAL layer of the controller includes a glitchfilter component."
    got = findings(check(question, names_it[:-1] + " [1].", [evidence(1, names_it, doc)]))
    assert ("answer_type.purpose", "off_question") in got
    does = "Its job is to monitor the input and hold the output until the input is stable."
    assert ("answer_type.purpose", "off_question") not in findings(
        check(question, does[:-1] + " [1].", [evidence(1, does, doc)])
    )
    assert perceive("What does the KX-4 do once mains power comes back?").asks.answer_type != (
        asks.answer_type
    )


def test_a_lower_case_name_with_a_digit_must_be_named():
    question = "which plugin file do I need for forwarding the rs232x tool bus?"
    assert "rs232x" in perceive(question).asks.named_terms
    text = "Select and open the extctl-1.0.plug plugin file and click open."
    doc = document("arm/install", "Installing the plugin")
    got = findings(check(question, text[:-1] + " [1].", [evidence(1, text, doc)]))
    assert ("answer_type.named_term", "off_question") in got
    assert "v3" not in perceive("is the pump v3 board fine?").asks.named_terms


def test_the_generator_passes_over_a_title_line_for_what_the_thing_does():
    question = "what does the HAL glitchfilter component do?"
    chunk = (
        "GLITCHFILTER(9) HAL Component GLITCHFILTER(9)\n\nThe HAL glitchfilter component "
        "watches an input. Its job is to monitor the input and to hold the output until "
        "the input has been stable for a set time."
    )
    doc = document("hal/glitchfilter", "HAL components")
    draft = ExtractiveGenerator().generate(question, [evidence(1, chunk, doc)], perceive(question))
    assert not draft.abstained
    # cited after the sentence it leans on, which names the component
    assert draft.text.startswith("The HAL glitchfilter component watches an input. Its job")
