"""An answer that names what the question names but says something else of it is not
``ok``: a yes/no question whether two things go together is not decided by what each can
do (``Asks.together``), one whose condition is a version not by a sentence without a
version (``Asks.versions``); a value asked to turn something on is not the value that
turns it off (``answer_type.switch``); the value to set is not the default alone
(``answer_type.to_set``); a signal named by its count of blinks is answered by that count
(``answer_type.signal``); a purpose question after a colon is one
(``answer_type.purpose``)."""

from __future__ import annotations

from sources import check, document, evidence, findings, perceive

from ragcore.agents.answer_types import only_the_default
from ragcore.agents.answer_types.switch import other_way
from ragcore.agents.answer_types.verdict import decides
from ragcore.agents.perception.asks import AnswerType, Switch

VALVES = document("valves/manual", "VB-8 valve block manual")
MIX = "can I mix 12v and 24v coils on one VB-8 valve block?"


def test_a_question_whether_two_things_go_together_is_read_as_such():
    assert perceive(MIX).asks.together
    assert perceive("can I leave the logger running while I use the VB-8 tester?").asks.together
    assert not perceive("Can the VB-8 valve block switch 24v coils?").asks.together


def test_what_each_can_do_does_not_decide_whether_they_go_together():
    asks = perceive(MIX).asks
    assert not decides(asks, "The VB-8 valve block can switch both 12V and 24V coils.")
    assert decides(asks, "All coils on one VB-8 valve block must be the same voltage.")


def test_a_capability_answer_to_a_together_question_is_not_ok():
    cited = [evidence(1, "The VB-8 valve block can switch both 12V and 24V coils.", VALVES)]
    answer = "The VB-8 valve block can switch both 12V and 24V coils [1]."
    assert ("answer_type.yes_no", "off_question") in findings(check(MIX, answer, cited))
    cited = [evidence(1, "All coils on one VB-8 valve block must be the same voltage.", VALVES)]
    answer = "All coils on one VB-8 valve block must be the same voltage [1]."
    assert ("answer_type.yes_no", "off_question") not in findings(check(MIX, answer, cited))


def test_a_yes_no_question_on_a_version_is_decided_by_a_sentence_giving_one():
    question = "Can I load the VB-8 plugin on a panel still running firmware 5.0?"
    asks = perceive(question).asks
    assert asks.versions == ("5.0",)
    assert not decides(asks, "To use the VB-8 you need to load the vb8-x.x.x plugin.")
    assert decides(asks, "Loading the plugin needs firmware 5.1 or newer.")
    assert perceive("Can the VB-8 run at 2.5 bar?").asks.versions == ()


def test_the_value_for_the_other_way_is_no_answer():
    question = "what mode value turns on auto purge on the VB-8?"
    asks = perceive(question).asks
    assert asks.switch == Switch.ON
    assert other_way(asks, "mode: 1 or 2 = auto purge disabled, the set value is kept.")
    assert other_way(asks, "mode: 0 = auto purge enabled.") is None
    assert other_way(asks, "The mode value sets whether auto purge is enabled or disabled.") is None
    cited = [evidence(1, "mode: 1 or 2 = auto purge disabled, the set value is kept.", VALVES)]
    answer = "mode: 1 or 2 = auto purge disabled, the set value is kept [1]."
    assert ("answer_type.switch", "off_question") in findings(check(question, answer, cited))


def test_the_default_alone_does_not_say_what_to_set():
    question = "VB-8 on a slow bus - what value goes in register R12?"
    asks = perceive(question).asks
    assert asks.to_set
    assert only_the_default(
        asks, "This must match register R12 of the bus master (defaults to 9600)."
    )
    assert only_the_default(asks, "Set register R12 to 2 (19200 bps).") is None
    assert only_the_default(asks, "Set register R12 to 2 (the default is 9600).") is None
    assert not perceive("What is register R12 set to by default?").asks.to_set
    cited = [
        evidence(1, "This must match register R12 of the bus master (defaults to 9600).", VALVES)
    ]
    answer = "This must match register R12 of the bus master (defaults to 9600) [1]."
    assert ("answer_type.to_set", "off_question") in findings(check(question, answer, cited))


def test_a_terse_question_on_a_count_of_blinks_asks_its_meaning():
    question = "VB-8 status light blinking 3 times?"
    asks = perceive(question).asks
    assert (asks.answer_type, asks.signals) == (AnswerType.MEANING, ("3",))
    table = "Blinking; Valve block on and enabled. 3 blinks; Coil short, check wiring."
    cited = [evidence(1, table, VALVES)]
    answer = "Blinking; Valve block on and enabled [1]."
    assert ("answer_type.signal", "off_question") in findings(check(question, answer, cited))
    answer = "3 blinks; Coil short, check wiring [1]."
    assert ("answer_type.signal", "off_question") not in findings(check(question, answer, cited))


def test_a_purpose_question_after_a_colon_is_one():
    question = "Coil driver on the VB-8: what is the extra diode in the schematic actually for?"
    asks = perceive(question).asks
    assert asks.answer_type == AnswerType.PURPOSE
    assert asks.focus is not None and asks.focus.phrase == "the extra diode"


OPTIONS = (
    "-b, --bits n: Set number of data bits to n. This must match register R7 of the "
    "bus master. -r, --rate n: Set baud rate to n. This must match register R6 of the "
    "bus master."
)


def test_a_quoted_sentence_leaning_on_another_option_is_about_that_option():
    question = "Which register of the bus master has to match the VB-8 baud rate?"
    cited = [evidence(1, OPTIONS, VALVES)]
    wrong = "This must match register R7 of the bus master [1]."
    assert ("answer_type.leaning", "off_question") in findings(check(question, wrong, cited))
    right = "-r, --rate n: Set baud rate to n. This must match register R6 of the bus master [1]."
    assert ("answer_type.leaning", "off_question") not in findings(check(question, right, cited))


def test_settings_written_out_decide_no_yes_no_question():
    question = "I've only got the grey VB-8 cable - will the vbsmart driver work with it?"
    asks = perceive(question).asks
    assert not decides(asks, "[valves] driver = vbsmart port = /dev/whatever cable = VB-8")
    assert decides(asks, "The grey cable works with the vbsmart driver in smart mode.")


def test_the_cause_of_another_symptom_is_no_answer():
    from ragcore.agents.answer_types.cause import no_cause

    question = "The VB-8 clicks once each time I purge and never opens. What's wrong?"
    asks = perceive(question).asks
    assert asks.answer_type == AnswerType.CAUSE
    other = (
        "If you are seeing coils running hot after long runs, it is likely that the duty "
        "is too high."
    )
    assert no_cause(asks, other)
    same = "If the VB-8 clicks once and never opens, it is likely that the coil wires are swapped."
    assert no_cause(asks, same) is None
    plain = "The most common reason is that the coil wires are swapped."
    assert no_cause(asks, plain) is None


def test_a_step_for_another_goal_is_not_ok_when_a_source_on_the_asked_one_was_shown():
    question = "How do I make the VB-8 purge itself right after power-up?"
    assert perceive(question).asks.goal == "purg"
    startup = evidence(1, "You can make the VB-8 switch on its coils after booting.", VALVES)
    purging = evidence(2, "Purging at startup: set purge.on_start = True.", VALVES)
    answer = "You can make the VB-8 switch on its coils after booting [1]."
    assert ("answer_type.goal", "off_question") in findings(
        check(question, answer, [startup, purging])
    )
    assert ("answer_type.goal", "off_question") not in findings(check(question, answer, [startup]))
    right = "Purging at startup: set purge.on_start = True [2]."
    assert ("answer_type.goal", "off_question") not in findings(
        check(question, right, [startup, purging])
    )


def test_a_verb_that_asks_to_find_out_is_no_goal():
    assert perceive("How do I check if the VB-8 coil is seated correctly?").asks.goal is None
