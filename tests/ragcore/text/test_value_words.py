"""The value index's words are perception's: a value is filed under the first word
perception would match it by, and a question offers every word perception reads."""

from __future__ import annotations

import pytest

from ragcore.agents.perception.data_question import _shape, _tokens, _value_key
from ragcore.text.value_words import lookup_word, question_words, shape

VALUES = [
    "CP-200",
    "88-2041-09",
    "P/N 88-2041-09",
    "PN 40-1177-03",
    "East-1",
    "mechanical seal kit",
    "Supplier's Choice",
    "purchase-order lines",
    "Nord/Süd",
    "O'Brien & Sons",
    "  padded ",
    "2.5",
    "7",
    "-",
    "WO-000123",
    "Ünïcode Straße",
]
QUESTIONS = [
    "What was the shortage rate of the CP-200's seal in East-1?",
    "How many purchase-order lines for P/N 88-2041-09 from Nord/Süd?",
    "Total for O'Brien & Sons, supplier's choice, line 7 and 2.5 bar?",
    "Which Ünïcode Straße site had WO-000123?",
]


@pytest.mark.parametrize("value", VALUES)
def test_a_value_is_filed_under_the_first_word_perception_matches_it_by(value):
    key = _value_key(value)
    assert lookup_word(value) == (key[0] if key else "")
    assert shape(value) == _shape(value)


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_question_offers_every_word_perception_reads_in_it(question):
    assert {t.exact for t in _tokens(question)} <= question_words(question)


def test_a_value_a_question_spells_is_found_by_its_words():
    for value in VALUES:
        if word := lookup_word(value):
            assert word in question_words(f"What about {value} last month?"), value


def test_a_question_offers_its_words_in_the_singular_too():
    assert {"boilers", "boiler", "fans", "fan"} <= question_words("boilers and cooling fans")
