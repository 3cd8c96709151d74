"""Follow-up rewriting on hand-written turns: what carries over, what replaces, what never leaks."""

from __future__ import annotations

from datetime import date

import pytest

from ragcore.agents.perception.agent import Perception, PerceptionAgent
from ragcore.errors import ConfigError


@pytest.fixture(scope="module")
def agent():
    return PerceptionAgent(clock=lambda: date(2026, 12, 2), nlp=None)


def converse(agent: PerceptionAgent, *questions: str) -> list[str]:
    """Each question as searched: rewritten from the turn before when it is a follow-up."""
    searched, previous = [], None
    for question in questions:
        perception = agent.run(question)
        rewrite = agent.follow_up(perception, previous)
        if rewrite is not None:
            perception = agent.run(rewrite.question)
        searched.append(perception.question)
        previous = perception
    return searched


def previous_of(agent: PerceptionAgent, question: str) -> Perception:
    return agent.run(question)


def test_a_thread_carries_the_code_and_replaces_the_model_and_the_time(agent):
    assert converse(
        agent,
        "What does E4027 mean on the HP-400?",
        "How do I clear it?",
        "And on the HP-500?",
        "Was it different before 2024?",
    ) == [
        "What does E4027 mean on the HP-400?",
        "How do I clear E4027 (HP-400)?",
        "How do I clear E4027 (HP-500)?",
        "How do I clear E4027 (HP-500) before 2024?",
    ]


def test_a_new_time_replaces_the_old_one(agent):
    first, second = converse(agent, "Which lockout rules changed in 2023?", "What about 2021?")
    assert second == "Which lockout rules changed in 2021?"
    perception = agent.run(second)
    assert perception.constraints.time is not None
    assert perception.constraints.time.start == date(2021, 1, 1)


def test_a_new_code_replaces_the_old_code_and_keeps_the_model(agent):
    assert converse(agent, "What does E4027 mean on the HP-400?", "And E4031?")[1] == (
        "What does E4031 mean on the HP-400?"
    )


def test_the_rewrite_says_why(agent):
    previous = agent.run("What does E4027 mean on the HP-400?")
    rewrite = agent.follow_up(agent.run("How do I clear it?"), previous)
    assert rewrite is not None
    assert rewrite.reasons == (
        "'it' is E4027 from the previous question",
        "kept from the previous question: HP-400",
    )


def test_a_bare_why_asks_for_the_cause_of_the_previous_subject(agent):
    assert converse(agent, "What does E2210 mean on the AC-75?", "Why?")[1] == (
        "Why E2210 (AC-75)?"
    )


def test_plural_pronouns_stand_for_every_identifier(agent):
    searched = converse(agent, "Compare the CP-200 and the CP-350.", "Which of them is quieter?")
    assert searched[1] == "Which of CP-200 and CP-350 is quieter?"


def test_a_possessive_and_a_demonstrative_noun(agent):
    searched = converse(
        agent,
        "What is the rated flow of the CP-200 pump?",
        "What is its maximum pressure?",
        "How often should the seal be replaced on this pump?",
    )
    assert searched[1:] == [
        "What is the CP-200 maximum pressure?",
        "How often should the seal be replaced on this CP-200 pump?",
    ]


def test_a_definite_noun_names_the_previous_identifier_of_its_kind(agent):
    searched = converse(
        agent, "What does E4027 mean on the HP-400 press?", "How do I reset the press?"
    )
    assert searched[1] == "How do I reset the HP-400 press (E4027)?"
    searched = converse(agent, "What does E4027 mean on the HP-400?", "How do I clear the fault?")
    assert searched[1] == "How do I clear the E4027 fault (HP-400)?"


def test_a_subject_without_identifiers_is_its_keywords(agent):
    searched = converse(agent, "What is the lockout procedure?", "How long does it take?")
    assert searched[1] == "How long does lockout procedure take?"


def test_the_source_and_time_of_the_previous_question_are_kept(agent):
    searched = converse(
        agent, "What torque for the CP-200 according to the FAA since 2023?", "How is it checked?"
    )
    assert searched[1] == "How is CP-200 checked (since 2023, according to FAA)?"


@pytest.mark.parametrize(
    "question",
    [
        "What is the noise level of the AC-75?",  # its own identifier
        "How often should the CP-200 seal be replaced?",
        "What is E2210 and how do I clear it?",  # the pronoun's antecedent comes first
        "What is the lockout procedure?",  # no reference at all
        "Is it safe to weld near a fuel tank?",  # "it" that refers to nothing
        "How long does it take to drain the accumulator?",
        "Check that the valve is closed before work begins?",  # "that" as a conjunction
        "Which pump that is rated for 10 bar is quietest?",  # "that" starts a clause
        "Summarize the hot work rules",
        "Thanks!",
    ],
)
def test_a_self_contained_question_is_never_touched(agent, question):
    previous = agent.run("What does E4027 mean on the HP-400 since 2023 according to the FAA?")
    assert agent.follow_up(agent.run(question), previous) is None


def test_no_entity_leaks_into_an_unrelated_question(agent):
    searched = converse(
        agent,
        "What does E4027 mean on the HP-400 in 2024?",
        "What is the noise level of the AC-75?",
        "What is the lockout procedure?",
    )
    assert searched[1:] == [
        "What is the noise level of the AC-75?",
        "What is the lockout procedure?",
    ]
    for question in searched[1:]:
        perception = agent.run(question)
        assert not {"E4027", "HP-400"} & set(perception.identifiers)
        assert perception.constraints.time is None


def test_nothing_to_follow(agent):
    assert agent.follow_up(agent.run("How do I clear it?"), None) is None
    greeting = agent.run("Hello!")
    assert agent.follow_up(agent.run("How do I clear it?"), greeting) is None


def test_the_same_turns_give_the_same_rewrite(agent):
    previous = agent.run("What does E4027 mean on the HP-400?")
    new = agent.run("And on the HP-500?")
    assert agent.follow_up(new, previous) == agent.follow_up(new, previous)


def test_the_followup_rules_can_be_replaced(tmp_path, agent):
    rules = tmp_path / "rules.toml"
    rules.write_text('[followup]\nopeners = ["plus"]\npronouns = []\n', encoding="utf-8")
    custom = PerceptionAgent(rules, nlp=None)
    previous = custom.run("What does E4027 mean on the HP-400?")
    rewrite = custom.follow_up(custom.run("Plus the HP-500?"), previous)
    assert rewrite is not None and rewrite.question == "What does E4027 mean on the HP-500?"
    assert custom.follow_up(custom.run("And on the HP-500?"), previous) is None
    assert custom.follow_up(custom.run("How do I clear it?"), previous) is None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('[followup]\nopeners = "and"\n', "followup.openers"),
        ("[followup]\nnonsense = []\n", "followup"),
        ('[followup.bare]\nwhy = "What causes it?"\n', "followup.bare"),
        ("[followup]\nnot_references = ['(']\n", "followup.not_references"),
    ],
)
def test_bad_followup_rules_name_the_key(tmp_path, text, key):
    rules = tmp_path / "rules.toml"
    rules.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        PerceptionAgent(rules, nlp=None)


def test_an_opener_joins_a_question_that_names_nothing_to_the_previous_subject(agent):
    searched = converse(
        agent,
        "How often should the CP-200 seal be replaced?",
        "And how often is the filter changed?",
        "Does the same apply to the CP-350?",
    )
    assert searched[1:] == [
        "How often is the filter changed (CP-200)?",
        "How often is the filter changed (CP-350)?",
    ]


def test_a_rewrite_that_changes_nothing_is_no_rewrite(agent):
    """ "And the fire watch?" after a question naming no identifier reads as itself: the
    answer then has no ``rewritten_question`` (the README says None when nothing changed)."""
    previous = agent.run("How long is a hot work permit valid?")
    assert agent.follow_up(agent.run("And the fire watch?"), previous) is None
