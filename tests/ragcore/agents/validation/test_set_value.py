"""A question that sets a key to a value asks what that value does (``Asks.set_value``,
``answer_types.set_value``, ``answer_type.set_value``): the answer names the value; a
sentence on the key at another value, or on the key alone, answers something else."""

from __future__ import annotations

from dataclasses import replace

from sources import check, document, evidence, findings, perceive

from ragcore.agents.generation.extractive import ExtractiveGenerator

HOMING = document("mill/homing", "MX-40 mill homing")
CHUNK = (
    "SEEK_RATE sets the speed of the seek stage in mm per second.\n\n"
    "If SEEK_RATE is non-zero, the MX-40 looks for its home switch first.\n\n"
    "A value of zero makes the MX-40 skip the seek stage: it assumes no home switch."
)
QUESTION = "What does leaving SEEK_RATE at 0 do when homing the MX-40?"


def test_the_key_and_the_value_a_question_sets_are_read():
    assert perceive(QUESTION).asks.set_value == ("SEEK_RATE", 0.0)
    assert perceive("what does SEEK_RATE = 5 do?").asks.set_value == ("SEEK_RATE", 5.0)
    assert perceive("What does SEEK_RATE do?").asks.set_value is None


def test_an_answer_about_the_key_at_another_value_is_not_ok():
    cited = [evidence(1, CHUNK, HOMING)]
    other = "If SEEK_RATE is non-zero, the MX-40 looks for its home switch first [1]."
    assert ("answer_type.set_value", "off_question") in findings(check(QUESTION, other, cited))
    right = "A value of zero makes the MX-40 skip the seek stage: it assumes no home switch [1]."
    assert ("answer_type.set_value", "off_question") not in findings(check(QUESTION, right, cited))


def test_the_generator_answers_with_the_sentence_naming_the_value():
    draft = ExtractiveGenerator().generate(
        QUESTION, [evidence(1, CHUNK, HOMING)], perceive(QUESTION)
    )
    assert draft.statements[0].text.startswith("A value of zero makes the MX-40 skip")


def test_the_block_the_key_heads_answers_over_a_sentence_naming_it_in_passing():
    overview = evidence(
        1,
        "The defaults for unspecified SEEK_RATE, LATCH_RATE and HOME_OFFSET on the MX-40 "
        "are zero, so they may be left out for immediate homing.",
        HOMING,
    )
    overview = replace(overview, hit=replace(overview.hit, section="Homing > Immediate homing"))
    block = evidence(
        2,
        "A value of zero makes the MX-40 skip the seek stage: it assumes no home switch.",
        HOMING,
    )
    block = replace(block, hit=replace(block.hit, section="Homing > SEEK_RATE"))
    draft = ExtractiveGenerator().generate(QUESTION, [overview, block], perceive(QUESTION))
    assert "skip the seek stage" in draft.text
