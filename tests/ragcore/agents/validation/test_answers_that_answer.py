"""An ``ok`` answer holds the asked fact (issue 27, precision of ``ok`` on real manuals):
what an informal question asks is read where it hides — after a sentence ending in an
acronym or a question written in lower case, "meaning?" after a register's value, "what
is X for, as opposed to Y?", "what does X change?", "what do I set X to?", a goal written
with its prefix ("re-read"), a why question about doing something — and an answer of
another kind is not ``ok``: a purpose answered by when a thing is used, a what-to-set
answered by another thing's value."""

from __future__ import annotations

from sources import check, document, evidence, findings, perceive

from ragcore.agents.perception.asks import AnswerType, asked_sentence

GS2 = document("linuxcnc-gs2", "GS2 VFD driver")
UPS = document("apc-smart", "APC smart protocol")
ODRIVE = document("odrive-hoverboard", "ODrive hoverboard guide")
CT = document("yhdc-report", "YHDC SCT-013-000 test report")
NUT = document("nut-faq", "NUT FAQ")
HOMING = document("lcnc-homing", "LinuxCNC homing configuration")
HAL = document("lcnc-integrator", "LinuxCNC integrator manual")


def test_the_asked_sentence_starts_after_an_acronym_or_before_a_lower_case_question_word():
    assert asked_sentence("I fitted a resistor on my GS2 VFD. What does -R change?") == (
        "What does -R change?"
    )
    assert asked_sentence("hall sensors as the encoder on odrive. what do I set the cpr to?") == (
        "what do I set the cpr to?"
    )
    # one capital before a full stop ends no sentence
    assert asked_sentence("Use socket No. 5 for what?") == "Use socket No. 5 for what?"


def test_meaning_after_a_registers_value_asks_what_that_value_means():
    question = "apc smart protocol - status register comes back as 50. meaning?"
    asks = perceive(question).asks
    assert (asks.answer_type, asks.signals) == (AnswerType.MEANING, ("50",))
    passage = "This register indicates the overall UPS status. 50 = On battery, battery low."
    cited = [evidence(1, passage, UPS)]
    wrong = (
        "This register indicates the overall UPS status [1]."  # quoted: its chunk's 50 is not said
    )
    assert ("answer_type.signal", "off_question") in findings(check(question, wrong, cited))
    right = "50 = On battery, battery low [1]."
    assert findings(check(question, right, cited)) == []


def test_a_purpose_question_with_a_contrast_or_what_it_changes_asks_for_a_purpose():
    for question in (
        "homing config: what is HOME_LATCH_VEL for, as opposed to HOME_SEARCH_VEL?",
        "I've installed a braking resistor on my GS2 VFD. What does the -R option of "
        "gs2_vfd actually change?",
    ):
        assert perceive(question).asks.answer_type == AnswerType.PURPOSE, question


def test_when_a_thing_should_be_used_is_not_what_it_does():
    question = "What does the -R option of gs2_vfd actually change?"
    passage = (
        "'-R' or '--braking-resistor' This option should be used when a braking resistor "
        "is installed on the GS2 VFD. It disables deceleration over-voltage stall prevention."
    )
    cited = [evidence(1, passage, GS2)]
    wrong = (
        "'-R' or '--braking-resistor' This option should be used when a braking resistor "
        "is installed on the GS2 VFD [1]."
    )
    assert findings(check(question, wrong, cited)) == [("answer_type.purpose", "off_question")]
    right = "It disables deceleration over-voltage stall prevention [1]."
    assert findings(check(question, right, cited)) == []


def test_a_what_to_set_answer_names_the_setting():
    question = "using hall sensors as the encoder on odrive. what do I set the encoder cpr to?"
    cited = [
        evidence(
            1,
            "For the hall encoder we recommend about 22nF between each signal pin and GND. "
            "The encoder CPR should be set to 6 times the number of pole pairs.",
            ODRIVE,
        )
    ]
    # it names the encoder (the focus check's half), not the CPR
    wrong = "For the hall encoder we recommend about 22nF between each signal pin and GND [1]."
    assert findings(check(question, wrong, cited)) == [("answer_type.to_set", "off_question")]
    right = "The encoder CPR should be set to 6 times the number of pole pairs [1]."
    assert findings(check(question, right, cited)) == []


def test_a_goal_written_with_its_prefix_is_the_asked_verb():
    question = "changed upsd.conf, how do I make upsd re-read it without a full restart"
    assert perceive(question).asks.goal == "read"
    shown = [
        evidence(1, "You may have to change the groups of upsd.conf to make them owned.", NUT),
        evidence(2, "To make upsd re-read its configuration, send it a SIGHUP.", NUT),
    ]
    wrong = "You may have to change the groups of upsd.conf to make them owned [1]."
    assert ("answer_type.goal", "off_question") in findings(check(question, wrong, shown))


def test_a_why_question_about_doing_something_is_answered_about_doing_it():
    question = "why would I need to debounce the limit switch inputs at all?"
    assert perceive(question).asks.goal == "debounc"
    shown = [
        evidence(
            1,
            "This flag determines whether LinuxCNC will ignore the limit switch input "
            "while homing.",
            HOMING,
        ),
        evidence(
            2,
            "Mechanical switch contacts bounce, so you debounce the limit switch inputs to "
            "avoid multiple operations from one closure.",
            HAL,
        ),
    ]
    wrong = (
        "This flag determines whether LinuxCNC will ignore the limit switch input while homing [1]."
    )
    assert ("answer_type.goal", "off_question") in findings(check(question, wrong, shown))
    right = (
        "Mechanical switch contacts bounce, so you debounce the limit switch inputs to avoid "
        "multiple operations from one closure [2]."
    )
    assert ("answer_type.goal", "off_question") not in findings(check(question, right, shown))


def test_the_point_of_a_thing_asks_its_purpose_and_its_kind_need_not_be_said():
    question = "what's the point of the modbusproxy section in evcc.yaml?"
    asks = perceive(question).asks
    assert asks.answer_type == AnswerType.PURPOSE
    assert asks.focus is not None and asks.focus.phrase == "the modbusproxy section"
    proxy = document("evcc-modbusproxy", "modbusproxy")
    passage = (
        "The modbusproxy allows evcc to share existing Modbus connections with other systems. "
        "The modbusproxy section sits at the top level of evcc.yaml."
    )
    cited = [evidence(1, passage, proxy)]
    # names the thing by its name, not as a section
    right = (
        "The modbusproxy allows evcc to share existing Modbus connections with other systems [1]."
    )
    assert findings(check(question, right, cited)) == []
    wrong = "The modbusproxy section sits at the top level of evcc.yaml [1]."
    assert findings(check(question, wrong, cited)) == [("answer_type.purpose", "off_question")]


def test_a_situation_asked_of_it_is_decided_by_its_judging_word_said_of_it():
    question = (
        "If I only care about apparent power and I don't have an AC-AC adapter, does it "
        "matter which way round the CT is clipped on?"
    )
    assert perceive(question).asks.impersonal == "matter"
    passage = (
        "If you are interested in reading only apparent power, and you don't have an AC-AC "
        "adapter, it does not matter. The CT must be clipped around one conductor only."
    )
    cited = [evidence(1, passage, CT)]
    right = (
        "If you are interested in reading only apparent power, and you don't have an AC-AC "
        "adapter, it does not matter [1]."
    )
    assert ("answer_type.yes_no", "off_question") not in findings(check(question, right, cited))
    wrong = "The CT must be clipped around one conductor only [1]."
    assert ("answer_type.yes_no", "off_question") in findings(check(question, wrong, cited))
