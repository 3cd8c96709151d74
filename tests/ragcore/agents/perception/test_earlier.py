"""Questions for the figure of an earlier version (``Constraints.earlier``): "the old
revision", "the 1998 handbook", "before the bulletin", "used to" — and the questions that
only look like them (a step before a change, today's figure, "since" a revision). A
version follow-up goes back to the topic's turn its own words ask about. Real perception
rules, no spaCy; invented phrasings."""

from __future__ import annotations

from datetime import date

import pytest
from test_conversation import session

from ragcore.agents.perception.agent import PerceptionAgent


@pytest.fixture(scope="module")
def agent():
    return PerceptionAgent(clock=lambda: date(2026, 12, 2), nlp=None)


@pytest.mark.parametrize(
    "question",
    [
        "What belt interval did the old RX-9 revision give?",
        "what did the 1998 handbook say about the KT-4 rope?",
        "What was the KT-4 rope inspection interval before the bulletin?",
        "KT-4 rope interval prior to the amendment?",
        "How often did the RX-9 belt use to be renewed?",
        "What did the previous edition require for the KT-4 rope?",
        "What the RX-9 belt tension used to be?",
    ],
)
def test_an_earlier_version_is_asked_for(agent, question):
    constraints = agent.run(question).constraints
    assert constraints.earlier and constraints.history, question


@pytest.mark.parametrize(
    "question",
    [
        "How often is the RX-9 belt renewed?",
        "What must be done before the change of the KT-4 rope?",
        "What should I back up before the firmware update?",
        "What changed in revision 2 of the RX-9 manual?",
        "Since the 2024 revision, how often is the KT-4 rope inspected?",
        # "used to" in the passive is a purpose, not a version
        "Which buffer solution is used to calibrate the KT-4 load cell?",
        "Can the RX-9 bypass key be used to finish a lift after the cut-out?",
    ],
)
def test_no_earlier_version_is_asked_for(agent, question):
    assert not agent.run(question).constraints.earlier, question


def test_the_version_words_are_kept_not_what_is_asked_of_the_version(agent):
    asked = agent.run("What was the KT-4 rope inspection interval before the bulletin?")
    assert asked.constraints.earlier == "before bulletin"


def test_a_version_follow_up_goes_back_to_the_turn_its_words_ask_about(agent):
    rewrites = [
        rewrite
        for _, rewrite in session(
            agent,
            "How often is the grease changed on the KT-4 crane?",
            "and how much grease does the gearbox take",
            "what did the 1998 handbook say for the grease change?",
        )
    ]
    assert rewrites[2] is not None
    assert "how often" in rewrites[2].lower() and "1998 handbook" in rewrites[2], rewrites


def test_a_dated_version_asked_in_the_present_is_no_earlier_one(agent):
    assert not agent.run("What does the 2024 rule require for the KT-4 rope?").constraints.earlier
    assert agent.run("What did the 2019 rule require for the KT-4 rope?").constraints.earlier


def test_whether_the_figure_was_always_so_asks_the_previous_question_of_that_version(agent):
    rewrites = [
        rewrite
        for _, rewrite in session(
            agent,
            "What tension does the RX-9 drive belt take?",
            "was that always the figure? what did the older handbook say",
        )
    ]
    assert rewrites[1] == "What tension does the RX-9 drive belt take in the older handbook?"


def test_a_figure_from_elsewhere_asks_the_turn_that_asked_for_such_a_figure(agent):
    rewrites = [
        rewrite
        for _, rewrite in session(
            agent,
            "how often is the RX-9 drive belt renewed?",
            "what's the part number of that belt?",
            "the old wall chart says 600 hours though, which is right?",
        )
    ]
    assert rewrites[2] == (
        "How often is the RX-9 drive belt renewed? "
        "The old wall chart says 600 hours though, which is right?"
    )


def test_a_choice_between_things_in_play_is_no_figure_challenged(agent):
    rewrites = [
        rewrite
        for _, rewrite in session(
            agent, "How loud is the RX-9 at 1 m?", "and the RX-12?", "which is louder?"
        )
    ]
    assert rewrites[2] is None or "wall chart" not in rewrites[2]
    assert rewrites[2] is None or "says" not in rewrites[2]
