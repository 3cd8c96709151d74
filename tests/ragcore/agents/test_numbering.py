"""Citations are numbered 1..n in order of first use in the answer text."""

from __future__ import annotations

import re

import pytest
from handmade import document, evidence

from ragcore.agents.evidence import Draft, split_statements
from ragcore.agents.generation.numbering import renumber
from ragcore.text.citations import citations_in

DOCS = [document(f"doc-{n}", f"Document {n}") for n in range(1, 5)]
EVIDENCE = tuple(evidence(n, f"Text of document {n}.", DOCS[n - 1]) for n in range(1, 5))


def _draft(text: str) -> Draft:
    return Draft(text, split_statements(text), "test")


def test_the_first_cited_becomes_1_and_draft_and_evidence_agree():
    draft, renumbered, mapping = renumber(
        _draft("The seal lasts 3000 h [3]. The old one lasted 2000 h [1][3]."), EVIDENCE
    )
    assert draft.text == "The seal lasts 3000 h [1]. The old one lasted 2000 h [2][1]."
    assert [s.citations for s in draft.statements] == [(1,), (2, 1)]
    assert draft.citations == (1, 2)
    assert mapping == {3: 1, 1: 2, 2: 3, 4: 4}
    # the evidence keeps its (retrieval) order; [n] still points at the same chunk
    assert [e.document.id for e in renumbered] == ["doc-1", "doc-2", "doc-3", "doc-4"]
    by_number = {e.number: e.document.id for e in renumbered}
    assert (by_number[1], by_number[2], by_number[3]) == ("doc-3", "doc-1", "doc-2")


def test_a_passage_the_model_was_not_shown_stays_unshown_after_renumbering():
    # The model saw passages 1-3 (the context budget dropped 4) and cited [4].
    text = "The seal lasts 3000 h [4]."
    shown = Draft(text, split_statements(text), "test", shown=(1, 2, 3))
    draft, renumbered, _ = renumber(shown, EVIDENCE)
    assert draft.text == "The seal lasts 3000 h [1]."
    assert draft.shown is not None and 1 not in draft.shown
    hidden = {e.number: e.document.id for e in renumbered}[1]
    assert hidden == "doc-4"


def test_lists_in_one_marker_and_invented_numbers():
    draft, _, _ = renumber(_draft("Both apply [4, 2]. See also [9]."), EVIDENCE)
    assert draft.text == "Both apply [1, 2]. See also [9]."  # [9] stays: validation flags it
    assert citations_in(draft.text) == (1, 2, 9)


@pytest.mark.parametrize("text", ["Already in order [1]. Then [2].", "No citation at all."])
def test_a_draft_already_in_order_is_left_alone(text):
    original = _draft(text)
    draft, renumbered, mapping = renumber(original, EVIDENCE)
    assert draft is original and renumbered == EVIDENCE and mapping == {}


def test_evidence_not_numbered_1_to_n_is_left_alone():
    odd = (EVIDENCE[0], EVIDENCE[2])  # numbers 1 and 3
    draft = _draft("First [3]. Then [1].")
    assert renumber(draft, odd) == (draft, odd, {})


@pytest.mark.parametrize(
    "question",
    [
        "Which compressor is louder, AC-75 or AC-110?",
        "How did the CP-200 seal interval change between revisions?",
        "Compare the rated flow of the CP-200 and CP-350 pumps.",  # retrieved [2] first
        "What does error E4027 mean on the HP-400?",
    ],
)
def test_answers_cite_1_to_n_in_order_of_first_use(sample_engine, question):
    answer = sample_engine.ask(question)
    order = citations_in(answer.text)
    assert list(order) == list(range(1, len(order) + 1)), answer.text
    assert [c.number for c in answer.citations] == list(order)
    by_number = {e.number: e for e in answer.evidence}
    for citation in answer.citations:
        assert by_number[citation.number].chunk_id == citation.chunk_id
    assert sorted(by_number) == list(range(1, len(answer.evidence) + 1))
    if re.search(r"\[\d+\]", answer.text):
        assert answer.report.checks  # validated on the renumbered pair
    if "CP-350" in question:
        assert "citations renumbered by first use: [2]→[1], [1]→[2]" in answer.trace.render()
        assert answer.status == "ok"
