"""Follow-ups by kind (issue 29, typed referents): identifiers as people type them, "it"
bound to what the predicate can apply to (a figure compared with a number or changed, a
machine's attribute after a code), a comparative said of one thing, a bare number of the
family in play, a version question naming its attribute, a topic-switch opener. Real
perception rules, no spaCy; the conversation kept as a session keeps it."""

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


def test_identifiers_typed_in_lower_case_or_without_the_hyphen_are_read(agent):
    found = agent.run("oil intervals for the gx500, the ac-110 and cfm56-7b? e4027 too").entities
    assert [(e.text, e.label) for e in found] == [
        ("gx500", "MODEL"),
        ("ac-110", "MODEL"),
        ("cfm56-7b", "MODEL"),
        ("e4027", "ERROR_CODE"),
    ]
    assert agent.run("the mid-2018 figures").entities == ()
    # a place named by a word and a number is no model (the warehouse of a table question)
    found = agent.run("How many CP-200 seal kits are in stock at East-1?").entities
    assert [(e.text, e.label) for e in found if e.label == "MODEL"] == [("CP-200", "MODEL")]


def test_its_after_a_typed_model_is_that_model(agent):
    assert converse(agent, "do i need to warm up the vm3000 spindle", "whats its top speed")[1] == (
        "Whats the vm3000 top speed?"
    )


def test_it_compared_with_a_number_or_changed_is_the_figure_asked_before(agent):
    rewritten = converse(
        agent,
        "leap-1a fan blade inspection interval?",
        "wasnt it 750 before?",
        "why did easa change it",
    )
    assert rewritten[1] is not None and "leap-1a" in rewritten[1]
    assert "inspection interval" in rewritten[1] and "750" in rewritten[1]
    assert rewritten[2] is not None and "inspection interval" in rewritten[2]


def test_a_machine_attribute_after_a_code_is_the_machine_s(agent):
    assert (
        converse(
            agent,
            "ra-6 lost calibration over the weekend",
            "also got E5120",
            "whats its max payload",
        )[2]
        == "Whats the ra-6 max payload?"
    )
    # what a code has stays the code's
    assert converse(agent, "What is E4027 on the HP-400?", "How do I clear it?")[1] == (
        "How do I clear E4027 (HP-400)?"
    )


def test_a_comparative_of_one_named_thing_compares_it_with_the_other_in_play(agent):
    rewritten = converse(
        agent,
        "How often should the CP-200 seal be replaced?",
        "does the CP-350 need it done more often?",
    )[1]
    assert rewritten == "does the CP-350 need the seal done more often than the CP-200?"


def test_bare_numbers_beside_a_model_in_play_are_its_family(agent):
    assert converse(agent, "cp-350 max fluid temp", "grease qty for the 350 and the 200?")[1] == (
        "grease qty for the cp-350 and the cp-200?"
    )
    # one model in play and one bare number asking more: any maker's 400
    rewritten = converse(agent, "How often are the ATR-72 filters replaced?", "the 400's filters?")
    assert "ATR-400" not in str(rewritten[1])


def test_whose_asks_a_choice_among_the_things_in_play(agent):
    assert converse(
        agent, "oil change interval of the AC-75?", "and the AC-110?", "whose oil lasts longer"
    )[2] == ("whose oil lasts longer, the AC-75 or the AC-110?")


def test_a_version_question_naming_an_attribute_asks_the_turn_that_asked_it(agent):
    assert converse(
        agent,
        "how often do i swap the seal on the cp200",
        "whats its part number",
        "what did the old revision say for the interval",
    )[2] == ("how often do i swap the seal on the cp200 in the old revision?")


def test_a_topic_switch_opener_stands_alone_and_is_left_out_when_continued(agent):
    rewritten = converse(
        agent,
        "How often should the CP-200 seal be replaced?",
        "unrelated - leap fan blade coating erosion limit",
        "New topic: what does E4027 mean on the HP-400?",
        "and E4031?",
    )
    assert rewritten[1] is None and rewritten[2] is None
    assert rewritten[3] == "what does E4031 mean on the HP-400?"


def test_a_judgement_of_that_is_of_the_figure_asked_before(agent):
    rewritten = converse(
        agent,
        "What does the LEAP-1A manual give as the fan blade inspection interval?",
        "Is that still valid?",
        "Why was it cut?",
    )
    assert rewritten[1] == "Is the LEAP-1A fan blade inspection interval still valid?"
    assert rewritten[2] is not None and "LEAP-1A" in rewritten[2]
    assert "inspection interval cut" in rewritten[2] and "valid" not in rewritten[2]


def test_an_attribute_fragment_asks_it_of_the_thing_of_the_model_asked_about(agent):
    assert converse(agent, "cv12 gearbx oil how much", "chnage interval")[1] == (
        "Chnage interval of the cv12 gearbx oil?"
    )
    # what the previous question asked ("part number") is no thing of the model
    assert converse(agent, "What's the RA-6 part number?", "replacement interval?")[1] == (
        "Replacement interval of the RA-6?"
    )


def test_numbers_joined_to_a_model_number_and_the_same_code(agent):
    assert converse(agent, "cp-200 faq?", "bearing temp limit on the 200 and 350")[1] == (
        "bearing temp limit on the cp-200 and cp-350"
    )
    assert converse(agent, "ac75 throwing E2210", "same code on the 110?")[1] == (
        "ac110 throwing E2210?"
    )


def test_a_version_by_its_number_of_an_attribute_not_asked_before(agent):
    assert converse(agent, "gx500 oil change interval", "what grade was in rev 1")[1] == (
        "what grade was in rev 1 (gx500)?"
    )


def test_has_it_always_been_that_figure_then_why_raised_speak_of_the_figure(agent):
    rewritten = converse(
        agent,
        "What torque do the platen bolts on the HP-400 press get?",
        "has it always been that figure?",
        "why was it raised?",
    )
    assert rewritten[1] == "Has the HP-400 torque always been that figure?"
    assert rewritten[2] == "why was the HP-400 torque raised?"


def test_back_to_a_thing_follows_the_earlier_topic_not_the_previous_turn(agent):
    rewritten = converse(
        agent,
        "What's the reach of the RA-6?",
        "How often is the gearbox grease replaced on it?",
        "Does the lockout/tagout rule require retraining, and how often?",
        "Back to the robot: what's its repeatability?",
    )
    assert rewritten[3] == "What's the RA-6 repeatability?"
