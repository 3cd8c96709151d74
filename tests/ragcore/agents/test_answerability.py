"""Answerability: evidence about the subject but not about what was asked is no answer,
the validator says so, and the planner tries one wider search for it, not two."""

from __future__ import annotations

import dataclasses

import pytest
from handmade import PUMP, perceive

from ragcore.agents.evidence import NO_ANSWER, Draft
from ragcore.agents.generation import ExtractiveGenerator
from ragcore.agents.planning.planner import adjust, initial_plan
from ragcore.agents.planning.strategy import load_strategy
from ragcore.agents.validation import Issue, Validator
from ragcore.types import Check, IssueKind

generator = ExtractiveGenerator()
validator = Validator()


def generate(question: str) -> Draft:
    return generator.generate(question, PUMP, perceive(question))


def test_the_generator_abstains_naming_the_weight_it_cannot_find():
    question = "What does the CP-200 weigh?"
    draft = generate(question)
    assert draft.abstained
    assert "weight" in draft.reason
    [issue] = validator.check(draft, PUMP, perceive(question)).issues
    assert (issue.rule, issue.kind) == ("answerability.attribute_not_found", "attribute_not_found")


@pytest.mark.parametrize(
    "question",
    [
        "What does the CP-200 weigh?",
        "What does the CP-200 pump weigh?",
        "How heavy is the CP-200 pump?",
        "What is the weight of the CP-200 pump?",
    ],
)
def test_the_generator_never_offers_flow_or_pressure_for_a_weight(question):
    draft = generate(question)
    assert draft.abstained
    assert (draft.text, draft.statements) == (NO_ANSWER, ())


@pytest.mark.parametrize(
    "question", ["What does the CP-200 pump weigh?", "How heavy is the CP-200 pump?"]
)
def test_the_generator_names_the_missing_weight_when_its_evidence_is_about_the_pump(question):
    draft = generate(question)
    assert draft.abstained
    assert "weight" in draft.reason


def test_the_generator_answers_the_flow_it_has():
    draft = generate("What flow does the CP-200 deliver?")
    assert not draft.abstained and draft.reason == ""
    assert "120 L/min" in draft.text
    assert draft.citations == (1,)


def _plan_and_perception():
    perception = perceive("What does the CP-200 weigh?")
    return initial_plan(perception, load_strategy(None)), perception


NOT_FOUND = Issue(Check.TRACEABILITY, IssueKind.ATTRIBUTE_NOT_FOUND, "no weight")


def test_the_planner_widens_the_search_once_for_a_missing_attribute():
    plan, perception = _plan_and_perception()
    assert plan.round == 1
    widened = adjust(plan, perception, [NOT_FOUND])
    assert widened is not None and widened.round == 2


def test_the_planner_gives_up_in_round_two_when_only_the_attribute_is_missing():
    plan, perception = _plan_and_perception()
    assert adjust(dataclasses.replace(plan, round=2), perception, [NOT_FOUND]) is None


def test_the_planner_still_retries_in_round_two_when_something_else_failed_too():
    plan, perception = _plan_and_perception()
    unsupported = Issue(Check.TRACEABILITY, IssueKind.UNSUPPORTED, "support 0.20")
    again = adjust(dataclasses.replace(plan, round=2), perception, [NOT_FOUND, unsupported])
    assert again is not None and again.round == 3
