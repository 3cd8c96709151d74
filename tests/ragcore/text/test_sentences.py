"""Sentence boundaries: an abbreviation's full stop ends no sentence, unless it is a
unit's after a number."""

from __future__ import annotations

from ragcore.text.sentences import split_sentences


def _split(text: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text)]


def test_a_unit_abbreviated_after_a_number_ends_its_sentence():
    assert _split("This heartbeat is sent every 20 ms. The heartbeat has a full CAN ID.") == [
        "This heartbeat is sent every 20 ms.",
        "The heartbeat has a full CAN ID.",
    ]
    assert _split("Wait 5 min. Then restart the drive.") == [
        "Wait 5 min.",
        "Then restart the drive.",
    ]


def test_an_abbreviation_not_after_a_number_ends_no_sentence():
    assert _split("Ask Ms. Smith for the key. Then open it.") == [
        "Ask Ms. Smith for the key.",
        "Then open it.",
    ]
    assert _split("Use approx. 5 litres of oil.") == ["Use approx. 5 litres of oil."]
