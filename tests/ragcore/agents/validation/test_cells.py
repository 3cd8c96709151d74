"""A table flattened without its column names binds no value to its key
(``lexicon.unlabelled_cells``, ``answer_type.cells``): the extractive generator answers
with a sentence that fits instead, and an answer made only of such cells is not ``ok``.
Labelled rows ("Min Voltage: 10V; …") bind theirs."""

from __future__ import annotations

from sources import check, document, evidence, findings, perceive

from ragcore.agents.generation.extractive import ExtractiveGenerator

HOMING = document("mill/homing", "MX-40 mill homing")
GRID = "Homing mode; SEEK_RATE; LATCH_RATE; USE_INDEX; Direct; 0; 0; NO; Seek-only; 5; 1; NO."
SENTENCE = "A SEEK_RATE of zero makes the MX-40 skip the seek stage: it assumes no home switch."
QUESTION = "What does leaving SEEK_RATE at 0 do when homing the MX-40?"


def test_an_answer_of_unlabelled_cells_is_not_ok():
    cited = [evidence(1, GRID, HOMING)]
    answer = GRID.rstrip(".") + " [1]."
    assert ("answer_type.cells", "off_question") in findings(check(QUESTION, answer, cited))


def test_an_answer_in_a_sentence_or_labelled_cells_binds_its_values():
    cited = [evidence(1, SENTENCE, HOMING)]
    answer = SENTENCE.rstrip(".") + " [1]."
    assert ("answer_type.cells", "off_question") not in findings(check(QUESTION, answer, cited))
    row = "Name: MX-40; Seek rate: 5 mm/s; Latch rate: 1 mm/s; Index: no"
    cited = [evidence(1, row, HOMING)]
    found = findings(check("What is the MX-40 seek rate?", f"{row} [1].", cited))
    assert ("answer_type.cells", "off_question") not in found


def test_the_generator_answers_with_a_sentence_over_unlabelled_cells():
    cited = [evidence(1, f"{GRID}\n\n{SENTENCE}", HOMING)]
    draft = ExtractiveGenerator().generate(QUESTION, cited, perceive(QUESTION))
    assert draft.statements[0].text.startswith("A SEEK_RATE of zero")
