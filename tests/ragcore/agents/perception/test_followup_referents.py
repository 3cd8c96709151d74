"""Follow-ups whose words point at a referent the conversation holds (issue 29, e29): a
part asked about ("the seal on the CP-200 pump") is what a next "it" of its number
means, a thing the previous answer named ("the oil filter") is what "that filter" means,
a bare number is a model of the family in play, a version's own words choose no earlier
turn, and a fragment's question is what an ellipsis asks again. Real perception rules,
no spaCy; the conversation kept as a session keeps it."""

from __future__ import annotations

from datetime import date

import pytest
from test_conversation import session

from ragcore.agents.perception.agent import PerceptionAgent


@pytest.fixture(scope="module")
def agent():
    return PerceptionAgent(clock=lambda: date(2026, 12, 2), nlp=None)


def converse(agent: PerceptionAgent, *turns: str | tuple[str, str]) -> list[str | None]:
    return [rewrite for _, rewrite in session(agent, *turns)]


def test_its_part_number_after_a_part_asked_about_is_the_parts(agent):
    assert (
        converse(
            agent,
            "How often do I need to swap the mechanical seal on the CP-200 pump?",
            "what's its part number?",
        )[1]
        == "What's the CP-200 mechanical seal part number?"
    )


def test_it_after_a_part_asked_about_is_the_part_with_its_model(agent):
    assert (
        converse(
            agent,
            "How often should the controller backup battery on the RA-6 robot be swapped?",
            "what happens if it goes flat?",
        )[1]
        == "What happens if the RA-6 controller backup battery goes flat?"
    )


def test_a_part_of_the_part_and_an_attribute_of_the_model_stay_the_models(agent):
    # "its air filter" is the compressor's; "the payload of" names no part; "the coolant
    # replaced on" is a verb's object, no part
    assert (
        converse(
            agent,
            "How often do I change the oil on the AC-110?",
            "Which part number is its air filter?",
        )[1]
        == "Which part number is the AC-110 air filter?"
    )
    assert (
        converse(
            agent, "What's the reach of the RA-6 robot?", "How often is the grease replaced on it?"
        )[1]
        == "How often is the grease replaced on RA-6?"
    )
    assert (
        converse(
            agent,
            "How often is the coolant replaced on the GX-500 generator?",
            "what happens if it runs low?",
        )[1]
        == "What happens if GX-500 runs low?"
    )


def test_a_plural_pronoun_is_no_singular_part(agent):
    assert (
        converse(
            agent,
            "How often should the controller backup battery on the RA-6 robot be swapped?",
            "what are their payloads?",
        )[1]
        == "What are the RA-6 payloads?"
    )


def test_why_and_which_after_a_part_speak_of_the_part_not_of_a_pronoun(agent):
    assert (
        converse(
            agent,
            "How often do I need to swap the mechanical seal on the CP-200 pump?",
            "why'd they shorten it?",
        )[1]
        == "why'd they shorten the CP-200 mechanical seal interval?"
    )


def test_that_noun_is_the_one_the_previous_answer_named(agent):
    answer = "Change the engine oil and the oil filter every 500 running hours [1]."
    assert (
        converse(
            agent,
            ("oil change interval on the GX-500 genset?", answer),
            "what's the part number of that filter?",
        )[1]
        == "What's the part number of that GX-500 oil filter?"
    )
    # the asker said which one: nothing is added
    assert (
        converse(
            agent,
            ("oil change interval on the GX-500 genset?", answer),
            "what's the part number of that flush filter?",
        )[1]
        == "What's the part number of that GX-500 flush filter?"
    )


def test_a_bare_number_is_the_model_of_that_number_in_play(agent):
    assert (
        converse(
            agent,
            "How often is the compressor oil changed on the AC-75?",
            "How often is the compressor oil changed on the AC-110?",
            "is that longer than on the 75?",
        )[2]
        == "is the AC-110 compressor oil longer than on the AC-75?"
    )


def test_a_bare_ellipsis_number_is_a_model_of_the_family_in_play(agent):
    # and the fragment asked of the CP-200 is what the ellipsis asks again
    assert (
        converse(agent, "max fluid temp for the CP-200?", "bearing temp limit?", "and on the 350?")[
            2
        ]
        == "Bearing temp limit of the CP-350?"
    )
    # a year is no model
    assert (
        converse(
            agent, "What torque for the HP-400 platen bolts?", "What was it in the 2020 manual?"
        )[1]
        == "What torque for the HP-400 platen bolts in the 2020 manual?"
    )


def test_the_words_of_a_version_choose_no_earlier_turn(agent):
    # "change" in "before the change" is no word of the oil changes asked two turns back
    assert (
        converse(
            agent,
            "How many running hours between oil changes on the GX-500 generator?",
            "what load for the monthly test?",
            "and before the change?",
        )[2]
        == "What load for the monthly test (GX-500) before the change?"
    )


def test_their_after_a_question_about_one_model_is_the_several_named_before(agent):
    assert (
        converse(
            agent,
            "give me the air filter part numbers for the AC-110 and the AC-75",
            "what's the air filter P/N for the GX-500 then?",
            "why do their tanks need draining every day anyway?",
        )[2]
        == "Why do the AC-110 and the AC-75 tanks need draining every day anyway?"
    )


def test_their_after_a_plural_part_is_that_part(agent):
    assert (
        converse(
            agent,
            "What torque do the platen bolts on the HP-400 press get?",
            "anything I have to do with them after tightening?",
        )[1]
        == "Anything I have to do with the HP-400 platen bolts after tightening?"
    )
