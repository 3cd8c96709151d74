"""Follow-ups read by what their words can refer to (issue 29, h30c): a pronoun agrees
with what it stands for (one model is no "they"; no pronoun is a thing the turn names
itself; "do it" is the task, "change it" the figure asked), a code is a machine's and an
answer can name that machine, a noun the topic wrote beside its model is that model's,
"the old rule" is the version named before, and a comparison said of "the big one" is
over the things in play. Real perception rules, no spaCy; the conversation kept as a
session keeps it, the identifiers of each answer included."""

from __future__ import annotations

import json
from datetime import date

import pytest

from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.agents.perception.conversation import (
    TurnState,
    names_a_time,
    summarise,
    turn_state,
    turn_summary,
)


@pytest.fixture(scope="module")
def agent():
    return PerceptionAgent(clock=lambda: date(2026, 12, 2), nlp=None)


def converse(agent: PerceptionAgent, *turns: str | tuple[str, str]) -> list[str | None]:
    """Each turn's rewrite (None when it stands alone); a turn may be (question, answer),
    whose identifiers the next turns can lean on, as a session keeps them."""
    kept: list[TurnState] = []
    rewrites: list[str | None] = []
    for turn in turns:
        question, answer = turn if isinstance(turn, tuple) else (turn, "")
        perception = agent.run(question)
        previous = agent.run(kept[0].question) if kept else None
        rewrite = agent.follow_up(perception, previous, tuple(kept))
        if rewrite is not None:
            perception = agent.run(rewrite.question)
        summary = summarise(perception) | turn_summary(
            perception,
            agent.identifiers(answer),
            rewrite is not None,
            agent.identifiers(question),
            answer,
        )
        kept.insert(0, turn_state(perception.question, json.loads(json.dumps(summary)), question))
        rewrites.append(rewrite.question if rewrite else None)
    return rewrites


# --- a pronoun agrees with what it stands for ---------------------------------------------


def test_one_model_is_no_they_and_change_it_is_the_figure_asked_before(agent):
    found = converse(
        agent,
        "How often should the CP-200 mechanical seal be replaced?",
        "what's its part number?",
        "my old card said 2000 hours, why did they change it?",
    )[2]
    assert found is not None
    assert "did they change the CP-200 mechanical seal interval" in found


def test_do_it_is_the_task_asked_about_not_the_machine(agent):
    found = converse(
        agent,
        "How long must the GX-500 load test run each month?",
        "why do they make you do it at all?",
    )[1]
    assert found == "Why do they make you do the GX-500 load test at all?"


def test_no_pronoun_stands_for_a_thing_the_turn_names_itself(agent):
    # "it" is what is topped up, not the A320 the turn names: nothing to rewrite
    assert converse(
        agent,
        "How much fluid does the A320 green reservoir hold?",
        "what fluid do I top it up with on the A320?",
    ) == [None, None]


def test_a_plural_thing_of_the_model_is_what_them_stands_for(agent):
    assert converse(
        agent,
        "torque spec for hp400 platen bolts?",
        "anything to do after torquing them?",
    )[1] == ("Anything to do after torquing the hp400 platen bolts?")


# --- what an opener, "the same", "each of them" and "one" say ----------------------------


def test_a_filler_before_an_opener_still_opens_an_ellipsis(agent):
    assert (
        converse(agent, "What does E2210 mean on the AC-75?", "right, and E2215?")[1]
        == "What does E2215 mean on the AC-75?"
    )


def test_the_same_said_of_a_subject_of_its_own_points_nowhere(agent):
    found = converse(
        agent,
        "What is the HP-400 return filter part number?",
        "is the filter p/n the same in both revisions?",
    )[1]
    assert found is None or "the same" in found


def test_each_of_them_beside_a_code_is_each_model_in_play(agent):
    found = converse(
        agent,
        "Which pump is quieter, the CP-200 or the CP-350?",
        "what does E1140 mean on each of them?",
    )[1]
    assert found is not None and "of them" not in found
    assert "CP-200" in found and "CP-350" in found and "E1140" in found


def test_the_new_one_is_the_thing_the_old_one_was(agent):
    assert (
        converse(
            agent,
            "What interval went with the old seal kit on the CP-200?",
            "and with the new one?",
        )[1]
        == "What interval went with the new seal kit on the CP-200?"
    )


def test_a_comparative_said_of_the_big_one_is_over_the_things_in_play(agent):
    found = converse(
        agent, "how loud is the AC-75?", "and the AC-110?", "so the big one is louder by how much"
    )[2]
    assert found == "so the big one is louder by how much, the AC-75 and the AC-110?"


def test_a_figure_set_against_the_answer_with_says_though_asks_the_question_again(agent):
    found = converse(
        agent, "How often should the HP-400 oil be changed?", "the old poster says 500 hours tho"
    )[1]
    assert found is not None and found.startswith("How often should the HP-400 oil be changed?")


def test_no_rewrite_is_shown_when_nothing_changed(agent):
    assert converse(agent, "What is the RA-6 payload?", "what fluid goes in the A320?")[1] is None


# --- referents the conversation holds -------------------------------------------------------


def test_the_model_an_answer_named_is_the_machine_a_code_is_asked_with(agent):
    found = converse(
        agent,
        (
            "E4027 on the press, what does it mean",
            "On the HP-400 press, error E4027 means the hydraulic pressure dropped too low.",
        ),
        "how do I clear it",
    )[1]
    assert found == "How do I clear E4027 (HP-400)?"


def test_it_doing_what_no_code_does_is_the_machine(agent):
    found = converse(
        agent,
        "What does E5120 mean on the RA-6?",
        "It lost its calibration over the shutdown. Why?",
    )[1]
    assert found == "RA-6 lost the RA-6 calibration over the shutdown. Why?"


def test_a_code_ellipsis_continues_the_turn_whose_asker_named_a_code(agent):
    found = converse(
        agent,
        "What does E4027 mean on the HP-400?",
        "how many litres is that accumulator?",
        "ok and E4031?",
    )[2]
    assert found == "What does E4031 mean on the HP-400?"


def test_a_noun_the_topic_wrote_beside_its_model_is_that_models(agent):
    found = converse(
        agent,
        "belt tension spec on the CV-12?",
        "gearbox oil change?",
        "what speed does the belt run at?",
    )[2]
    assert found == "What speed does the CV-12 belt run at?"


def test_the_old_rule_is_the_version_named_before_and_now_the_current_one(agent):
    found = converse(
        agent,
        "How often must lockout devices be inspected?",
        "what was it under the 2021 rule?",
        "under the old rule who could remove a lock?",
        "and now?",
    )
    assert found[2] == "under the 2021 rule who could remove a lock?"
    assert found[3] is not None and "2021" not in found[3] and "remove a lock" in found[3]


def test_a_turn_naming_a_version_is_kept_though_unanswered(agent):
    assert names_a_time(summarise(agent.run("under the 2021 rule who could remove a lock?")))
    assert not names_a_time(summarise(agent.run("lol ok")))


def test_a_code_shown_on_it_is_on_the_machine_in_play(agent):
    assert (
        converse(
            agent,
            "What is the payload of the RA-6?",
            "and gearbox grease?",
            "getting E5120 on it now",
        )[2]
        == "Getting E5120 on the RA-6 now"
    )


def test_them_after_a_figure_of_plural_things_is_those_things(agent):
    assert (
        converse(
            agent,
            "torque spec for hp400 platen bolts?",
            "was it always that? i remember 45",
            "anything to do after torquing them",
        )[2]
        == "Anything to do after torquing the hp400 platen bolts?"
    )
