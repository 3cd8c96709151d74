"""The conversation as data (``perception.conversation``) and the follow-ups that read it:
a comparison over the things in play, another version of the previous answer, why it
changed. Real perception rules, no spaCy (identifiers come from the rules' patterns)."""

from __future__ import annotations

import json
from datetime import date

import pytest

from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.agents.perception.conversation import (
    Referent,
    TurnState,
    in_play,
    summarise,
    turn_state,
    turn_summary,
)


@pytest.fixture(scope="module")
def agent():
    return PerceptionAgent(clock=lambda: date(2026, 12, 2), nlp=None)


def session(agent: PerceptionAgent, *turns: str | tuple[str, str]) -> list[tuple[str, str | None]]:
    """Each turn as searched and its rewrite (None when it stands alone), the conversation
    kept as a session keeps it; a turn may be (question, answer)."""
    kept: list[TurnState] = []
    results: list[tuple[str, str | None]] = []
    for turn in turns:
        question, answer = turn if isinstance(turn, tuple) else (turn, "")
        perception = agent.run(question)
        previous = agent.run(kept[0].question) if kept else None
        rewrite = agent.follow_up(perception, previous, tuple(kept))
        if rewrite is not None:
            perception = agent.run(rewrite.question)
        asked = agent.identifiers(question)
        summary = summarise(perception) | turn_summary(
            perception, (), rewrite is not None, asked, answer
        )
        kept.insert(0, turn_state(perception.question, json.loads(json.dumps(summary)), question))
        results.append((perception.question, rewrite.question if rewrite else None))
    return results


def converse(agent: PerceptionAgent, *questions: str) -> list[str]:
    """Each question as searched, the conversation kept as a session keeps it."""
    return [searched for searched, _ in session(agent, *questions)]


def test_a_turn_is_kept_as_data_and_read_back(agent):
    perception = agent.run("What is the part number of the CP-200 seal?")
    answered = agent.identifiers("Replace the seal (P/N 88-2041-09) on the CP-200.")
    summary = summarise(perception) | turn_summary(perception, answered, followed=False)
    state = turn_state(perception.question, json.loads(json.dumps(summary)))
    assert state.entities == (Referent("CP-200", "MODEL"),)
    assert [(r.text, r.label) for r in state.answered] == [("P/N 88-2041-09", "PART_NUMBER")]
    assert not state.followed and not state.history


def test_the_things_in_play_reach_back_to_the_turn_that_began_the_topic():
    began = TurnState("Noise of the AC-75?", (Referent("AC-75", "MODEL"),))
    followed = TurnState("Noise of the AC-110?", (Referent("AC-110", "MODEL"),), followed=True)
    older = TurnState("Flow of the CP-200?", (Referent("CP-200", "MODEL"),))
    assert in_play((followed, began, older)) == ("AC-110", "AC-75")
    assert in_play((began, older)) == ("AC-75",)
    assert in_play((followed, began), label="ERROR_CODE") == ()


def test_which_one_is_louder_compares_the_models_of_the_turns_in_play(agent):
    searched = converse(
        agent,
        "What is the noise level of the AC-75?",
        "And the AC-110?",
        "Which one is louder?",
    )
    assert searched[2] == "Which one is louder, the AC-75 or the AC-110?"
    assert agent.run(searched[2]).sides == ("AC-75", "AC-110")


def test_a_comparison_after_a_question_naming_two_models_chooses_between_them(agent):
    searched = converse(
        agent,
        "How often should the seal be replaced on the CP-200 and on the CP-350?",
        "So which one needs it more often?",
    )
    assert searched[1].endswith(", the CP-200 or the CP-350?")
    assert " it " not in searched[1]  # "it" is what the previous question asked about


def test_a_comparison_with_nothing_in_play_to_choose_from_is_no_comparison(agent):
    searched = converse(agent, "What is the noise level of the AC-75?", "Which one is louder?")
    assert searched[1] == "Which one is louder?"


def test_a_question_naming_its_own_models_is_left_alone(agent):
    searched = converse(
        agent,
        "What is the noise level of the AC-75?",
        "And the AC-110?",
        "Which is louder, the CP-200 or the CP-350?",
    )
    assert searched[2] == "Which is louder, the CP-200 or the CP-350?"


def test_another_version_asks_the_previous_question_of_that_version(agent):
    searched = converse(
        agent,
        "How often do lockout devices on the HP-400 have to be inspected?",
        "What was it before the directive?",
    )
    assert searched[1] == (
        "How often do lockout devices on the HP-400 have to be inspected before the directive?"
    )


def test_why_it_changed_is_about_the_figure_not_the_machine(agent):
    searched = converse(
        agent,
        "What torque do the HP-400 platen bolts get?",
        "Why was it changed?",
        "Before the change?",
    )
    assert searched[1] == "Why was the HP-400 torque changed?"
    # after a why question, another version is asked of the value asked before it
    assert searched[2] == "What torque do the HP-400 platen bolts get before the change?"


def test_a_question_with_words_of_its_own_is_no_revision_follow_up_but_keeps_the_model(agent):
    searched = converse(
        agent,
        "What torque do the HP-400 platen bolts get?",
        "Why was the oil interval shortened?",
    )
    # its own words stay (not "why did the torque change"); the machine in play is carried
    assert searched[1] == "Why was the oil interval shortened (HP-400)?"


def test_which_of_them_reaches_back_to_the_turns_in_play(agent):
    searched = converse(
        agent,
        "What is the bearing temperature limit of the CP-200?",
        "And on the CP-350?",
        "Which of them tolerates hotter bearings?",
    )
    assert searched[2] == "Which of them tolerates hotter bearings, the CP-200 or the CP-350?"


def test_a_new_code_continues_the_turn_that_asked_about_a_code(agent):
    searched = converse(
        agent,
        "On the HP-400, what does E4027 mean?",
        "What should its precharge be?",  # carries E4027 along, asks of the press
        "And E4031?",
    )
    assert searched[1] == "What should the HP-400 precharge be (E4027)?"
    assert searched[2] == "On the HP-400, what does E4031 mean?"


def test_more_often_is_about_the_turn_that_asked_how_often(agent):
    searched = converse(
        agent,
        "How often should the CP-200 mechanical seal be replaced?",
        "What's its part number?",
        "And on the CP-350?",
        "Which one needs it more often?",
    )
    assert searched[2] == "How often should the CP-350 mechanical seal be replaced?"
    assert (
        searched[3] == "Which one needs the mechanical seal more often, the CP-200 or the CP-350?"
    )


def test_another_version_after_a_choice_asks_the_value_again_of_the_one_named(agent):
    searched = converse(
        agent,
        "How often should the CP-200 mechanical seal be replaced?",
        "And on the CP-350?",
        "Which one needs it more often?",
        "What did the old revision say for the CP-200?",
    )
    assert (
        searched[3]
        == "How often should the CP-200 mechanical seal be replaced in the old revision?"
    )


def test_that_compared_with_a_model_is_the_model_in_play(agent):
    searched = converse(
        agent,
        "How often should I change the hydraulic oil on the HP-400?",
        "Why was the oil interval shortened?",  # names nothing: the topic goes on
        "How does that compare with the GX-500's oil change?",
    )
    # "that" is the HP-400's figure the previous question asked about
    assert searched[2] == "How does the HP-400 interval compare with the GX-500's oil change?"
    assert agent.run(searched[2]).sides == ("HP-400", "GX-500")


def test_that_code_is_the_code_the_previous_answer_introduced(agent):
    kept = (
        TurnState(
            "Why does the CP-350 stop when it runs dry?",
            (Referent("CP-350", "MODEL"),),
            answered=(Referent("E1102", "ERROR_CODE"),),  # "Error E1102 means the dry-run …"
        ),
    )
    previous = agent.run(kept[0].question)
    rewrite = agent.follow_up(agent.run("What does that code mean?"), previous, kept)
    assert rewrite is not None
    assert "E1102" in rewrite.question
    # without the answer's code, "that code" has nothing of its kind to point at
    bare = agent.follow_up(agent.run("What does that code mean?"), previous, ())
    assert bare is None or "E1102" not in bare.question


def test_a_new_model_after_two_named_side_by_side_is_asked_about_alone(agent):
    searched = converse(
        agent,
        "How often is the compressor oil changed on the AC-75 and on the AC-110?",
        "What about the AC-150?",
    )
    assert searched[1] == "How often is the compressor oil changed on the AC-150?"


def test_a_question_asked_again_carries_its_model_as_part_of_it(agent):
    searched = converse(
        agent,
        "What does E4027 mean on the HP-400?",
        "And E4031?",
        "And on the HP-500?",
    )
    assert searched[1:] == [
        "What does E4031 mean on the HP-400?",
        "What does E4031 mean on the HP-500?",
    ]
