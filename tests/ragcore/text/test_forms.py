"""A sentence's form, read from its text and what follows it in its chunk: headings and
synopses state nothing on their own; rows and items are units of a table or a list."""

from __future__ import annotations

import pytest

from ragcore.text.forms import Form, form_of


@pytest.mark.parametrize(
    ("text", "after", "form"),
    [
        ("The ODrive only supports the NTC type thermistor.", " Next", Form.STATEMENT),
        ("## Setup", "\n\n", Form.HEADING),
        ("Use the correct CAN baud rate", "\n\nBy default", Form.HEADING),
        ("Name: moteus-c1; Abs Max Voltage: 51V (<= 12S)", "\n\n", Form.ROW),
        ("- 512 MB or more of RAM", "\n\n", Form.ITEM),
        ("−p, −−parity [even,odd,none] (default odd) Set serial parity.", "\n\n", Form.ITEM),
        ("hy_vfd [OPTIONS]", "\n\n", Form.SYNOPSIS),
        ('loadrt hm2_eth [config="str[,str...]"][board_ip=ip[,ip...]]', "\n\n", Form.SYNOPSIS),
        # A short line that runs on into the next line is no title; a data line neither.
        ("Use the correct CAN baud rate", "\nBy default", Form.STATEMENT),
        ("Speed: 250 kbps", "\n\n", Form.STATEMENT),
        ("Set baud rate to <n>.", "\n\n", Form.STATEMENT),
    ],
)
def test_each_sentence_has_the_form_its_text_and_place_give(text, after, form):
    assert form_of(text, after) == form


def test_only_headings_and_synopses_are_no_answer_on_their_own():
    assert {f for f in Form if not f.answers_alone} == {Form.HEADING, Form.SYNOPSIS}
