"""Follow-ups and questions as people write them (issue 29, s41): what a turn names and
what its pronouns stand for. Things coordinated and asked of each are read as sides, a
bare number beside a model is a model, "that" after "anything" starts a clause, a
question tag's "it" points nowhere, "them" after a model's plural part is that part, and
an ellipsis about a thing no code has keeps the machine in play. Real perception rules,
no spaCy."""

from __future__ import annotations

from datetime import date

import pytest
from test_conversation import session

from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.agents.perception.condition import conditions
from ragcore.agents.perception.each import things_each


@pytest.fixture(scope="module")
def agent():
    return PerceptionAgent(clock=lambda: date(2026, 12, 2), nlp=None)


def rewrites(agent: PerceptionAgent, *turns: str | tuple[str, str]) -> list[str | None]:
    return [rewrite for _, rewrite in session(agent, *turns)]


def test_things_coordinated_and_asked_of_each_are_read_as_sides():
    assert things_each("hot work and confined space - who has to stay on watch for each?") == (
        "hot work",
        "confined space",
    )
    # the head noun they share is no part of either
    assert things_each("How long are the hot work and confined space permits valid, each?") == (
        "hot work",
        "confined space",
    )
    # nothing asked of each, or models (``side_by_side``'s), or asks joined by "and"
    assert things_each("Who stays on watch for hot work and confined space entry?") == ()
    assert things_each("What do the AC-75 and the AC-110 each weigh?") == ()
    assert things_each("how long and how often for each?") == ()


def test_a_bare_number_coordinated_with_a_model_is_a_side(agent):
    perception = agent.run("reservoir capacity - A320 green and 737 reservoir A?")
    assert perception.asked_sides == ("A320", "737")
    # no model before the coordinator: a figure, no side
    assert agent.run("is it 500 and 750 hours?").numbered_models == ()


def test_a_figure_after_at_is_the_condition_asked():
    assert conditions("rated output of the GX-500 at 60 Hz?") == frozenset({(60.0, "Hz")})
    assert conditions("is 60 Hz the rated frequency?") == frozenset()


def test_that_after_anything_starts_a_clause_and_them_is_the_plural_part(agent):
    assert (
        rewrites(
            agent,
            "How often are the B737-800 hydraulic pressure filters replaced?",
            "anything that means changing them early?",
        )[1]
        == "Anything that means changing the B737-800 hydraulic pressure filters early?"
    )


def test_a_singular_noun_after_a_models_name_stays_the_machine(agent):
    assert (
        rewrites(
            agent,
            "How often should the AC-75 receiver tank be drained?",
            "whats its max pressure then",
        )[1]
        == "Whats the AC-75 max pressure then?"
    )


def test_a_question_tag_points_at_nothing(agent):
    assert (
        rewrites(
            agent,
            "borescope interval for the CFM56-7B per the AD?",
            "the engine manual says 1600 doesnt it?",
        )[1]
        is None
    )


def test_an_ellipsis_about_what_no_code_has_keeps_the_machine(agent):
    assert (
        rewrites(
            agent,
            "Do I have to warm up the VM-3000 spindle after the weekend?",
            "E3301 and E3305 - what do they each mean",
            "and coolant concentration?",
        )[2]
        == "And coolant concentration (VM-3000)?"
    )


def test_a_colour_alone_puts_its_thing_in_place_of_the_previous_one(agent):
    assert rewrites(agent, "a320 green reservoir capacity", "and blue?")[1] == (
        "a320 blue reservoir capacity"
    )
    # a word that tells nothing apart is no such thing: the ellipsis rules take it
    assert rewrites(agent, "What is the AC-75 noise level?", "and pressure?")[1] != (
        "What is the AC-75 pressure level?"
    )


def test_the_words_asking_for_the_current_version_are_read_apart(agent):
    assert agent.run("What oil does the GX-500 take now?").constraints.latest_words == "now"


def test_it_swapped_after_a_why_question_is_the_thing_the_answer_blamed(agent):
    turns = rewrites(
        agent,
        (
            "Our RA-6 lost its calibration over the shutdown, why would that happen?",
            "If the battery runs flat while the power is off, the calibration is lost [1].",
        ),
        "how often should it be swapped?",
    )
    assert turns[1] == "how often should the RA-6 battery be swapped?"
    # the model however typed
    turns = rewrites(
        agent,
        (
            "ra6 lost its calibration over the weekend shutdown, why",
            "If the battery runs flat while the power is off, the calibration is lost [1].",
        ),
        "how often should it be replaced",
    )
    assert turns[1] == "how often should the ra6 battery be replaced"
    # a code is cleared, not swapped: no blamed thing stands for it
    assert (
        rewrites(
            agent,
            (
                "why does the HP-400 show E4027?",
                "Most often the accumulator has lost its precharge.",
            ),
            "how do I clear it?",
        )[1]
        != "How do I clear the HP-400 accumulator?"
    )
