"""What a question asks, read from its words (``perception.asks``): the attributes it
names and the focus of its form."""

from __future__ import annotations

import pytest

from ragcore.agents.attributes import default_attributes
from ragcore.agents.perception.asks import (
    AnswerType,
    QuestionForm,
    asked_sentence,
    asking_clause,
    read_asks,
)


def test_an_attribute_name_that_modifies_another_noun_is_not_asked():
    table = default_attributes()
    names = lambda q: {a.name for a in read_asks(q, table).attributes}  # noqa: E731
    assert "pressure" not in names("How long are the pressure gauge calibration certificates kept?")
    assert "flow" not in names("Who may reset the flow switch on the RT-4?")
    assert "pressure" in names("What is the pressure setting of the RT-4 relief valve?")
    assert "noise" in names("What noise level does the RT-4 reach?")
    assert "interval" in names("How did the RT-4 greasing interval change?")
    assert "temperature" in names("Which runs hotter fluid, the RT-4 or the RT-6?")


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        ("What is the lift height of the OH-10?", "lift height"),
        ("What payload can the RB-12 carry?", "payload"),
        ("How many tools does the VMC-600 hold?", "tools"),
        ("How often must the RB-12 gearbox oil be changed?", "the RB-12 gearbox oil"),
        ("What does E04 mean on the UV-80?", ""),  # a code's meaning
        ("What is fault E2215 on the AC-110?", ""),
        ("Can the BC-9 drive a DP-24?", ""),  # no form with a focus
    ],
)
def test_the_focus_is_the_noun_phrase_of_the_questions_form(question, phrase):
    assert ((found := read_asks(question).focus) and found.phrase or "") == phrase


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        (
            "I want the proxy to reject writes with a Modbus error. What readonly value do I set?",
            "What readonly value do I set?",
        ),
        ("Changed upsd.conf — how do I reload it?", "how do I reload it?"),
        # "Rev. 2" ends no sentence, nor does a qualifier's comma; a question of one
        # sentence is all asked.
        ("In March 2022, what minimum UV dose did the rules require?", None),
        ("How did the TX-50 interval change from Rev. 1 to Rev. 2?", None),
        ("What is the lift height of the OH-10?", None),
        # Written as a chat: the asked sentence opens in lower case, or after a name in
        # capitals, when a question opens there; "e.g. the" ends no sentence.
        (
            "my PC only has one NIC. can I run the mesa card through a USB dongle instead?",
            "can I run the mesa card through a USB dongle instead?",
        ),
        (
            "Just unboxed a brand new Smart-UPS. Should I run a runtime calibration on it?",
            "Should I run a runtime calibration on it?",
        ),
        ("Is it e.g. the 56V version that is rated for 24V?", None),
    ],
)
def test_the_asked_sentence_follows_what_a_technician_tells_first(question, asked):
    assert asked_sentence(question) == (asked or question)


def test_the_focus_is_read_from_the_asked_sentence_and_from_how_much():
    told = "I want the proxy to reject writes with a Modbus error. What readonly value do I set?"
    assert read_asks(told).focus.phrase == "readonly value"
    assert read_asks("How much RAM does a PC need at minimum?").focus.phrase == "RAM"


@pytest.mark.parametrize(
    ("question", "form", "answer_type"),
    [
        ("and how many rollers does the BX-3 have?", "value", "count"),
        ("So why was the BX-3 belt speed lowered?", "why", "reason"),
        ("ok, is the BX-3 rated for outdoor use?", "yes_no", "yes_no"),
        ("Then how often do the rollers get greased?", "value", "figure"),
        ("And the BX-4?", "value", "any"),  # an opener and nothing after it to read
    ],
)
def test_the_form_is_read_after_the_words_that_carry_the_conversation_on(
    question, form, answer_type
):
    asks = read_asks(question)
    assert (asks.form, asks.answer_type) == (form, answer_type)


def test_a_where_question_asks_for_a_place_and_a_what_do_i_do_question_for_an_action():
    assert read_asks("Where are the BX-3 spare belts kept?").answer_type == "place"
    assert read_asks("ok, where does the sensor go?").answer_type == "place"
    assert read_asks("What do we do if the BX-3 belt slips?").answer_type == "action"
    assert read_asks("What has to be done before the BX-3 is restarted?").answer_type == "action"
    assert read_asks("What does the BX-3 do when the belt slips?").answer_type != "action"


@pytest.mark.parametrize(
    ("question", "form", "answer_type"),
    [
        # The topic a chat puts first, after a dash or as a label, does not hide how it
        # asks.
        (
            "odrivetool - what's the command that lists every error set on the board?",
            QuestionForm.VALUE,
            None,
        ),
        (
            "Belkin F6C150-RKM-2U: will a straight-through serial cable work with it?",
            QuestionForm.YES_NO,
            AnswerType.YES_NO,
        ),
        (
            "Belkin F6C150: where does the serial cable plug in?",
            QuestionForm.VALUE,
            AnswerType.PLACE,
        ),
        (
            "moteus in mode 11 - how often must the watchdog be fed?",
            QuestionForm.VALUE,
            AnswerType.FIGURE,
        ),
        ("my PC only has one NIC. can I use a USB dongle instead?", QuestionForm.YES_NO, None),
        # A hyphen between figures is no dash: the question still opens with "What".
        ("What is the range 10 - 20 V for?", QuestionForm.VALUE, AnswerType.PURPOSE),
    ],
)
def test_the_form_is_read_where_a_chat_opens_to_ask(question, form, answer_type):
    asks = read_asks(question)
    assert asks.form == form
    if answer_type is not None:
        assert asks.answer_type == answer_type


def test_the_subject_a_chat_puts_first_stays_in_the_asked_sentence():
    question = "odrive on a CAN bus - what bitrate is it running if I never changed it?"
    assert asking_clause(question) == "what bitrate is it running if I never changed it?"
    assert asked_sentence(question) == question
