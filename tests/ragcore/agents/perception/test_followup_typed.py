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
