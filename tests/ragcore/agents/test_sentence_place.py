"""A sentence read where it stands (issue 27): a question worded apart from its manual
shares too few words with the sentence that answers it, but names the sentence's place —
its section, the sentences before it, the product its chunk is about. When no sentence
shares enough of the question by its own words, each is read with its place, for a
question whose answer a sentence can be checked against; any other is still declined."""

from __future__ import annotations

from handmade import document, evidence, perceive

from ragcore.agents.generation.extractive import ExtractiveGenerator

SETUP = document("moteus/docs_guides_electrical-setup", "Electrical Setup")
POWER = (
    "Electrical Connections\n\n"
    "Power: Power is provided via either the onboard XT30 connector, or on "
    "board-mountable moteus controllers, via the power pads that are interleaved with the "
    "A, B, and C phase pads. The power input is NOT protected against reverse polarity. "
    "Polarity should be triple checked before applying power, or irreversible damage may "
    "result."
)


def test_a_yes_no_question_is_answered_by_the_sentence_its_chunk_makes_about_the_product():
    # "The power input is NOT protected …" never names the XT30 and shares under half of
    # the question's other words; its chunk names the XT30 and no sibling.
    question = "is the XT30 power input on moteus protected if I wire the battery backwards?"
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, POWER, SETUP)], perceive(question)
    )
    assert not draft.abstained
    assert draft.text == "The power input is NOT protected against reverse polarity [1]."


def test_without_its_place_the_same_sentence_answers_nothing():
    # The same sentence in a chunk that names no XT30: it is about no XT30.
    question = "is the XT30 power input on moteus protected if I wire the battery backwards?"
    alone = "The power input is NOT protected against reverse polarity. Check it twice."
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, alone, SETUP)], perceive(question)
    )
    assert draft.abstained


FAQ = document("nut-doc/faq", "Network UPS Tools FAQ")
STALE = (
    "What does it mean when upsc says data stale?\n\n"
    "It means your UPS driver hasn't updated things in a little while. Note: some drivers "
    "occasionally need more time to update than the default value of MAXAGE (in upsd.conf) "
    "allows."
)


def test_the_faq_question_a_sentence_answers_is_its_place():
    question = (
        "upsc keeps saying 'data stale'. what does that mean, and what upsd.conf setting "
        "can I raise if the driver is just slow to update?"
    )
    draft = ExtractiveGenerator().generate(question, [evidence(1, STALE, FAQ)], perceive(question))
    assert not draft.abstained
    assert "hasn't updated things" in draft.text or "MAXAGE" in draft.text
    # Without the FAQ's question above it, nothing shares enough of the question.
    bare = STALE.split("\n\n", 1)[1]
    draft = ExtractiveGenerator().generate(question, [evidence(1, bare, FAQ)], perceive(question))
    assert draft.abstained


URCAP = document("ur-ros-driver/ur_robot_driver_doc_setup_tool_communication", "Tool comms")
TOOL = (
    "Setting up the tool communication on an e-Series robot\n\n"
    "The URCap creates a serial port on the network. "
    "This document will guide you through installing the URCap needed for this and "
    "setting up your ROS launch files to utilize the robot's tool communication."
)


def test_a_question_of_no_checkable_kind_is_not_answered_from_the_place_alone():
    # "Which URCap …?" asks for a name no check reads: the sentences of the right section
    # are on its topic and name none, so the place does not let them in.
    question = (
        "I want to use the RS485 port on the tool flange from my PC. "
        "Which URCap has to be installed?"
    )
    perception = perceive(question)
    draft = ExtractiveGenerator().generate(question, [evidence(1, TOOL, URCAP)], perception)
    assert draft.abstained


def test_the_place_is_read_only_when_no_sentence_shares_enough_by_itself():
    # A sentence sharing enough of the question itself answers as before: its place
    # does not reorder the answer.
    question = "Is the moteus power input protected against reverse polarity?"
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, POWER, SETUP)], perceive(question)
    )
    assert draft.text == "The power input is NOT protected against reverse polarity [1]."
