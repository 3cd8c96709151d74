"""Sentence choice that reads context: the question-to-sentence similarity of the loaded
embedder among near-ties of word overlap, and the collection a document is filed under
as the name of the system a question asks about."""

from __future__ import annotations

import dataclasses

import pytest
from handmade import document, evidence, perceive

from ragcore.agents.answer_types.names import document_names, unnamed_here
from ragcore.agents.generation.extractive import ExtractiveGenerator
from ragcore.agents.generation.similarity import QuestionSimilarity
from ragcore.text.terms import terms

TIMEOUT = document("moteus/docs_troubleshooting_timeout-mode-11", "moteus reports mode 11")
TIMEOUT_CHUNK = (
    "However, often users at this point will start seeing moteus enter mode 11, the "
    "timeout mode, after which it stops accepting commands and acts to damp motion. "
    "Once in the timeout mode, moteus will only leave it upon receiving a stop command."
)
COMES_BACK = (
    "once moteus is in timeout mode, will it pick up again by itself when my commands "
    "start arriving again?"
)


def test_a_sentence_closer_in_meaning_is_chosen_among_near_ties_of_word_overlap(real_embedder):
    generator = ExtractiveGenerator(similarity=QuestionSimilarity(real_embedder))
    draft = generator.generate(
        COMES_BACK, [evidence(1, TIMEOUT_CHUNK, TIMEOUT)], perceive(COMES_BACK)
    )
    assert not draft.abstained
    assert draft.statements[0].text.startswith("Once in the timeout mode, moteus will only leave")


def test_without_the_embedder_word_overlap_alone_chooses(real_embedder):
    draft = ExtractiveGenerator().generate(
        COMES_BACK, [evidence(1, TIMEOUT_CHUNK, TIMEOUT)], perceive(COMES_BACK)
    )
    assert draft.statements[0].text.startswith("However, often users")


def test_a_step_is_not_put_before_the_step_it_follows(real_embedder):
    setup = document("ur-ros-driver/install_urcap_e_series", "Installing a URCap")
    chunk = (
        "On the welcome screen click on the hamburger menu in the top-right corner and "
        "select Settings to enter the robot's setup. There select System and then URCaps "
        "to enter the URCaps installation screen. There, click the little plus sign at the "
        "bottom to open the file selector."
    )
    question = "Where on the e-Series pendant do I go to install a .urcap file?"
    generator = ExtractiveGenerator(similarity=QuestionSimilarity(real_embedder))
    draft = generator.generate(question, [evidence(1, chunk, setup)], perceive(question))
    assert draft.text.startswith("On the welcome screen")


def test_similarity_scores_each_sentence_once_and_keeps_a_bounded_cache(real_embedder):
    similarity = QuestionSimilarity(real_embedder, cached=2)
    sentences = [
        "Once in the timeout mode, moteus will only leave it upon receiving a stop command.",
        "The CP-200 centrifugal pump delivers a rated flow of 120 L/min at 6 bar.",
        "Once in the timeout mode, moteus will only leave it upon receiving a stop command.",
    ]
    first = similarity.scores(COMES_BACK, sentences)
    assert len(first) == 3 and first[0] == first[2] and first[0] > first[1] + 0.2
    again = similarity.scores(COMES_BACK, sentences)  # only the question is embedded
    assert again == pytest.approx(first, abs=0.01)  # padded in another batch
    similarity.scores(COMES_BACK, ["A third sentence about something else entirely."])
    assert len(similarity._vectors) == 2
    assert similarity.scores(COMES_BACK, []) == ()


EVCC = document("evcc-docs/en_reference_configuration_hems", "hems")
APCUPSD = document("apcupsd-doc/manual", "APCUPSD User Manual")
PORT_QUESTION = "What port is the evcc web interface on by default?"
APCUPSD_PORT = evidence(
    1,
    "The default is platform dependent, but typically 3551, which we have received from "
    "IANA as the official apcupsd networking port.",
    APCUPSD,
)
EVCC_HEMS = evidence(
    2, "The hems section configures external control of consumption and feed-in power.", EVCC
)


def test_a_question_word_that_names_a_documents_collection_is_a_name():
    asks = perceive(PORT_QUESTION).asks
    assert document_names(asks.content_terms, [APCUPSD_PORT, EVCC_HEMS]) == {"evcc"}
    assert unnamed_here({"evcc"}, APCUPSD_PORT) == ("evcc",)
    assert unnamed_here({"evcc"}, EVCC_HEMS) == ()
    # a flat id names no collection; a title is not read as one ("Variables", "Cables")
    flat = evidence(3, "Cables.", document("cables", "Cables"))
    assert document_names(set(terms("which cables")), [flat]) == frozenset()


def test_a_sibling_systems_sentence_is_not_chosen_and_the_reason_names_the_system():
    question = perceive(PORT_QUESTION)
    draft = ExtractiveGenerator().generate(PORT_QUESTION, [APCUPSD_PORT, EVCC_HEMS], question)
    assert draft.abstained and "3551" not in draft.text
    # only the sibling's sentences left (the asked system's document found, but nothing
    # of it to say): the reason names the system
    quiet = evidence(2, "Overview", EVCC)  # a scrap, no sentence
    draft = ExtractiveGenerator().generate(PORT_QUESTION, [APCUPSD_PORT, quiet], question)
    assert draft.abstained and "evcc" in draft.reason


def test_a_chunk_that_names_the_system_in_its_text_keeps_its_sentence():
    question = "What is the default apcupsd networking port?"
    draft = ExtractiveGenerator().generate(question, [APCUPSD_PORT, EVCC_HEMS], perceive(question))
    assert not draft.abstained and "3551" in draft.text


def test_a_cause_under_a_troubleshooting_section_wins_a_near_tie():
    manual = document("stepper/manual", "Stepper drives")
    question = "The stepper only moves one step each time I jog. What's wrong?"
    setup = evidence(
        1,
        "The stepper only moves one step each time because the step pulses are too short.",
        manual,
    )
    trouble = evidence(
        2,
        "The stepper only moves one step each time because step and direction are swapped.",
        manual,
    )
    trouble = dataclasses.replace(
        trouble, hit=dataclasses.replace(trouble.hit, section="Troubleshooting > Stalls")
    )
    draft = ExtractiveGenerator().generate(question, [setup, trouble], perceive(question))
    assert draft.statements[0].citations == (2,)
    # without the section, word overlap and retrieval order choose the first
    plain = dataclasses.replace(trouble, hit=dataclasses.replace(trouble.hit, section="Wiring"))
    draft = ExtractiveGenerator().generate(question, [setup, plain], perceive(question))
    assert draft.statements[0].citations == (1,)


def test_closeness_in_meaning_never_moves_the_answer_to_another_document(real_embedder):
    # The timeout chunk of another document, found lower: its sentence reads closer to the
    # question, but which document answers stays with overlap and the evidence's score.
    question = COMES_BACK
    notes = document("moteus/docs_reference_watchdog", "moteus watchdog notes")
    first = evidence(
        1,
        "However, often users at this point will start seeing moteus enter mode 11, the "
        "timeout mode, after which it stops accepting commands and acts to damp motion.",
        TIMEOUT,
    )
    second = dataclasses.replace(
        evidence(
            2,
            "Once in the timeout mode, moteus will only leave it upon receiving a stop command.",
            notes,
        ),
        score=0.9,
    )
    generator = ExtractiveGenerator(similarity=QuestionSimilarity(real_embedder))
    draft = generator.generate(question, [first, second], perceive(question))
    assert draft.statements[0].citations == (1,)
    # the same chunk filed in the first one's document: it is chosen, by meaning
    hit = dataclasses.replace(second.hit, document=TIMEOUT, document_id=TIMEOUT.id)
    draft = generator.generate(
        question, [first, dataclasses.replace(second, hit=hit)], perceive(question)
    )
    assert draft.statements[0].citations == (2,)


def test_each_ask_joined_by_and_gets_a_sentence_from_its_own_document():
    question = "How often are the belts inspected, and how often are the bearings greased?"
    belts = document("manual-belts", "Belt care")
    bearings = document("manual-bearings", "Bearing care")
    found = [
        evidence(1, "Inspect the belts every 3 months. Keep spare belts dry.", belts),
        evidence(2, "Grease the bearings every 500 hours of running.", bearings),
    ]
    draft = ExtractiveGenerator().generate(question, found, perceive(question))
    said = [s.text for s in draft.statements]
    assert any("belts every 3 months" in t for t in said), said
    assert any("bearings every 500 hours" in t for t in said), said
