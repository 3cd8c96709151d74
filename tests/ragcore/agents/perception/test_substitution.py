"""Substitution follow-ups (``perception.substitution``): "And the 737-800?", "And the
A320 blue reservoir?" put a thing in place of the previous question's, and say so."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.agents.perception.conversation import turn_state, turn_summary, with_names
from ragcore.agents.perception.model import Replacement


@pytest.fixture(scope="module")
def agent():
    return PerceptionAgent(clock=lambda: date(2026, 12, 2), nlp=None)


def follow(agent: PerceptionAgent, first: str, second: str):
    return agent.follow_up(agent.run(second), agent.run(first))


def test_a_name_the_patterns_do_not_read_takes_the_place_of_the_model(agent):
    found = follow(
        agent,
        "How many hydraulic systems does the A320 have, and at what pressure?",
        "And the 737-800?",
    )
    assert found is not None
    assert (
        found.question == "How many hydraulic systems does the 737-800 have, and at what pressure?"
    )
    assert found.replaced == (Replacement("A320", "737-800", "MODEL"),)


def test_the_same_noun_told_apart_replaces_its_phrase_and_the_one_joined_to_it(agent):
    found = follow(
        agent,
        "How much fluid do the A320 green reservoir and the 737 reservoir A hold?",
        "And the A320 blue reservoir?",
    )
    assert found is not None
    assert found.question == "How much fluid do the A320 blue reservoir hold?"
    assert found.replaced == (Replacement("A320 green reservoir", "A320 blue reservoir"),)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("What does E4027 mean on the HP-400?", "And E4031?"),  # an identifier: by kind
        ("Which lockout rules changed in 2023?", "What about 2021?"),  # a time
        ("How much fluid does the A320 green reservoir hold?", "And the reservoir?"),
        ("What does E4027 mean on the HP-400?", "And how do I clear it?"),  # its own question
    ],
)
def test_what_is_no_substitution_is_left_to_the_other_rules(agent, first, second):
    found = follow(agent, first, second)
    assert found is None or found.replaced == ()


def test_a_name_put_in_place_is_a_thing_of_its_kind_for_the_next_turns(agent):
    rewritten = agent.run("How many hydraulic systems does the 737-800 have?")
    rewritten = replace(rewritten, replaced=(Replacement("A320", "737-800", "MODEL"),))
    summary = turn_summary(rewritten, (), followed=True)
    state = turn_state(rewritten.question, summary)
    assert [(r.text, r.label) for r in state.entities] == [("737-800", "MODEL")]
    again = with_names(agent.run(rewritten.question), state.entities)
    assert "737-800" in again.identifiers


def test_it_is_the_thing_the_previous_answer_gave_for_the_kind_asked(agent):
    from ragcore.agents.perception.conversation import answered_value

    question = "What fluid do I top up the A320 hydraulic reservoirs with?"
    answer = "Refill with phosphate ester fluid through the ground service panel [1]."
    assert answered_value(question, answer) == "phosphate ester fluid"
    assert answered_value("How often is the oil changed?", "Every 400 hours [1].") is None
    first = agent.run(question)
    summary = turn_summary(first, (), followed=False, answer=answer)
    found = agent.follow_up(
        agent.run("How does it have to be stored?"), first, (turn_state(question, summary),)
    )
    assert found is not None
    assert found.question == "How does the phosphate ester fluid have to be stored?"


def test_a_version_asked_of_a_figure_is_not_carried_to_a_new_subject(agent):
    previous = agent.run("How often do lockout devices have to be inspected in the 2021 rule?")
    found = agent.follow_up(agent.run("And retraining?"), previous)
    assert found is None or "2021" not in found.question
    period = agent.run("How often were lockout devices inspected in 2021?")
    carried = agent.follow_up(agent.run("And retraining?"), period)
    assert carried is not None and "2021" in carried.question


def test_once_it_is_exceeded_is_the_limit_the_previous_answer_named(agent):
    from ragcore.agents.perception.conversation import answered_limit

    answer = (
        "The compressors are below the 85 dB(A) action level at 1 m, but the room often "
        "exceeds it [1]."
    )
    assert answered_limit(answer) == "85 dB(A) action level"
    assert answered_limit("Error E2210 means the temperature exceeded 105 °C. Check [1].") is None
    question = "Do I need hearing protection in the compressor room?"
    first = agent.run(question)
    state = turn_state(question, turn_summary(first, (), followed=False, answer=answer))
    found = agent.follow_up(
        agent.run("What does the regulation require once it's exceeded?"), first, (state,)
    )
    assert found is not None
    assert "85 dB(A) action level" in found.question
    # "it" that is not exceeded is not the limit
    other = agent.follow_up(agent.run("Where is it kept?"), first, (state,))
    assert other is None or "85 dB(A)" not in other.question


@pytest.mark.parametrize(
    ("first", "second", "rewritten", "old", "new"),
    [
        (
            "How much fluid does reservoir A on the B737-800 hold?",
            "And reservoir B?",
            "How much fluid does reservoir B on the B737-800 hold?",
            "reservoir A",
            "reservoir B",
        ),
        (
            "What does the regulation require above 85 dB(A)?",
            "And above 90?",
            "What does the regulation require above 90 dB(A)?",
            "above 85",
            "above 90",
        ),
        (
            "How much does the green reservoir hold?",
            "And the blue one?",
            "How much does the blue reservoir hold?",
            "green reservoir",
            "blue reservoir",
        ),
    ],
)
def test_a_designator_or_one_puts_the_thing_in_place(agent, first, second, rewritten, old, new):
    found = follow(agent, first, second)
    assert found is not None
    assert found.question == rewritten
    assert found.replaced == (Replacement(old, new),)
