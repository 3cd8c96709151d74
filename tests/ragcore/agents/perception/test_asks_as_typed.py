"""What terse and joined questions ask (``read_asks``), as technicians type them."""

from __future__ import annotations

import pytest

from ragcore.agents.perception.asks import AnswerType, read_asks


@pytest.mark.parametrize(
    "question", ["ac110 throwing E2215", "getting E5120 on it now", "E4031 again?", "hp400 E4027"]
)
def test_a_turn_naming_only_a_code_asks_its_meaning(question):
    assert read_asks(question).answer_type == AnswerType.MEANING


@pytest.mark.parametrize("question", ["E2215 reset?", "how do i clear E2215", "the A320 reservoir"])
def test_a_turn_saying_more_than_a_code_asks_something_else(question):
    assert read_asks(question).answer_type != AnswerType.MEANING


@pytest.mark.parametrize(
    ("question", "difference"),
    [
        ("How much louder is the AC-110 than the AC-75?", True),
        ("so the big one is louder by how much", True),
        ("Which is louder, the AC-75 or the AC-110?", False),
    ],
)
def test_a_comparison_asks_the_difference_when_it_asks_how_much(question, difference):
    comparison = read_asks(question).comparison
    assert comparison is not None and comparison.difference is difference


@pytest.mark.parametrize(
    ("question", "keys"),
    [
        (
            "whats the kva rating and the fuel burn at full load",
            [{"kva", "rating"}, {"fuel", "burn"}],
        ),
        ("hp-400 oil change interval + which filter", [{"oil", "interval"}, {"filter"}]),
        (
            "What is the GX-500 standby power rating and its fuel consumption at full load?",
            [{"standby", "power", "rating"}, {"fuel", "consumpt"}],
        ),
    ],
)
def test_things_joined_after_what_is_the_are_two_asks(question, keys):
    assert [set(p.key) for p in read_asks(question).parts] == keys


@pytest.mark.parametrize(
    "question", ["What is cleaned and disinfected?", "What is the oil cleaned and checked with?"]
)
def test_words_joined_after_a_verb_are_one_ask(question):
    assert read_asks(question).parts == ()


def test_a_part_naming_a_unit_asks_its_attribute():
    (rating, _) = read_asks("whats the kva rating and the fuel burn at full load").parts
    assert [a.name for a in rating.attributes] == ["power"]


def test_a_kind_of_document_in_capitals_is_no_named_term():
    asks = read_asks("The help desk FAQ says 30 % load for the GX-500 load test; which is right?")
    assert "FAQ" not in asks.named_terms


def test_a_model_perception_read_is_no_code_a_terse_turn_reports():
    models = [("A320", 19, 23)]
    assert read_asks("or sooner if what (A320)?", models=models).answer_type != AnswerType.MEANING
