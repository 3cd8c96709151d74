"""The asked value in the sentence after the one that names the subject: the extractive
generator cites the next sentence of the paragraph with it when that one carries the
figure or value of the asked shape and names no other key ("… below the specified
percentage. The default is 5 percent."); and a question for a version is answered with
one (``lexicon.asks_version``/``gives_version``)."""

from __future__ import annotations

from handmade import document, evidence, perceive

from ragcore.agents.generation.extractive import ExtractiveGenerator

GUARD = document("ups/guard-manual", "PowerGuard daemon manual")


def test_the_next_sentence_that_carries_the_asked_figure_is_cited_with_the_naming_one():
    chunk = (
        "If low_charge is set, the PowerGuard daemon halts the host when the charge falls "
        "below the set level. The shipped level is 7 percent."
    )
    question = "What charge percentage does the PowerGuard daemon halt at if low_charge is set?"
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, chunk, GUARD)], perceive(question)
    )
    assert perceive(question).asks.value_shape == "limit"
    assert "7 percent" in draft.text
    assert draft.text.startswith("If low_charge is set")


def test_a_next_sentence_about_another_key_is_not_taken():
    chunk = (
        "If low_charge is set, the PowerGuard daemon halts the host when the charge falls "
        "below the set level. The runtime_left key halts it at 3 minutes of runtime left."
    )
    question = "What charge percentage does the PowerGuard daemon halt at if low_charge is set?"
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, chunk, GUARD)], perceive(question)
    )
    assert "3 minutes" not in draft.text


def test_a_question_for_a_version_is_answered_with_one():
    question = "min firmware version on the PowerGuard for the network card?"
    assert perceive(question).asks.value_shape == "version"
    chunk = (
        "The network card talks to the PowerGuard over its service port. "
        "The network card needs PowerGuard firmware 2.4.1 or later."
    )
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, chunk, GUARD)], perceive(question)
    )
    assert "2.4.1" in draft.text


def test_the_next_sentence_may_name_an_acronym_the_first_does_not():
    # "PC" is an acronym, not a key of the next block: the sentence is read on to
    question = "What IP does the PowerGuard card have over USB?"
    chunk = (
        "The card shows its addresses on the status page. If the address there is "
        "10.0.0.X, set the site number of the PowerGuard card.\n\n"
        "If you are troubleshooting the USB link, ping the PowerGuard card. With one card "
        "connected to the PC, it answers at 192.168.7.2."
    )
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, chunk, GUARD)], perceive(question)
    )
    assert "192.168.7.2" in draft.statements[0].text
