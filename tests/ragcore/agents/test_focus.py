"""What a question asks for, read from its form, and answers about something else."""

from __future__ import annotations

import pytest

from ragcore.agents.attributes import load_attributes
from ragcore.agents.perception.asks import read_asks
from ragcore.agents.validation.checks.focus import off_focus

TABLE = load_attributes()


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
    ("question", "answer"),
    [
        ("What is the lift height of the OH-10?", "The OH-10 has a span of 18 m [1]."),
        ("What payload can the RB-12 carry?", "The RB-12 reaches up to 1,450 mm [1]."),
        ("How many tools does the VMC-600 hold?", "The VMC-600 X-axis travel is 600 mm [1]."),
    ],
)
def test_an_answer_naming_another_attribute_is_off_focus(question, answer):
    assert off_focus(read_asks(question, TABLE), answer)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What is the lift height of the OH-10?", "The OH-10 lift height is 9 m [1]."),
        ("What was the lead limit for drinking water in 2020?", "10 µg/L, under the 2016 rules."),
        ("What is the rated output of the KG-150?", "The KG-150 is rated 150 kVA [1]."),
        ("How many pounds of refrigerant does the PC-600 hold?", "It holds 118 kg, about 260 lb."),
        ("How many litres per minute can a DP-24 deliver?", "About 0.4 L/min [1]."),
    ],
)
def test_an_answer_about_the_focus_terse_or_in_the_asked_unit_is_on_focus(question, answer):
    assert off_focus(read_asks(question, TABLE), answer) is None
