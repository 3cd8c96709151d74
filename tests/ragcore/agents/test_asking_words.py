"""The words of how a question is asked ("so", "again", the "often" of "how often") are
no words a sentence must share: a sentence answering plainly is not held under the
relevance bar by them."""

from __future__ import annotations

from handmade import document, evidence, perceive

from ragcore.agents.generation.asking import asking_terms
from ragcore.agents.generation.extractive import ExtractiveGenerator


def test_fillers_and_the_measure_of_how_are_asking_words():
    assert asking_terms("so how do I clear it again?") == {"so", "again"}
    assert asking_terms("how often does the roboRIO send the CAN heartbeat?") == {"often"}
    assert asking_terms("What is the CAN heartbeat rate?") == frozenset()


def test_how_often_is_answered_by_the_sentence_giving_the_interval():
    question = "how often does the roboRIO send the CAN heartbeat?"
    chunk = [
        evidence(
            1,
            "The roboRIO provides a universal CAN heartbeat that any device on the bus can "
            "listen and react to. This heartbeat is sent every 20 ms. The heartbeat has a "
            "full CAN ID of 0x01011840.",
            document("frc/can-addressing", "CAN Addressing"),
        )
    ]
    draft = ExtractiveGenerator().generate(question, chunk, perceive(question))
    assert draft.text.startswith("This heartbeat is sent every 20 ms [1]")
