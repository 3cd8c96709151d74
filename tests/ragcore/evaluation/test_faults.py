"""The fault benchmark: case files, the citation mapping, and a real replay run."""

from __future__ import annotations

import json

import pytest

from ragcore import Config
from ragcore.errors import InvalidInputError
from ragcore.evaluation.faults import cite_numbers, evaluate_faults, load_fault_set

PROMPT = (
    "Context:\n[1] (PX-20 Manual, 2024-01-31) The PX-20 delivers 120 L/min.\n\n"
    "[2] (Pumps, an overview, undated) Both pumps run at 50 Hz.\n\n"
    "Question: What flow does the PX-20 deliver?"
)
TITLES = {"px20": "PX-20 Manual", "overview": "Pumps, an overview", "px35": "PX-35 Manual"}


def test_citations_become_the_numbers_the_context_gave():
    answer = "It delivers 120 L/min {cite:px20}. Both run at 50 Hz {cite:overview}."
    assert (
        cite_numbers(answer, PROMPT, TITLES) == "It delivers 120 L/min [1]. Both run at 50 Hz [2]."
    )


def test_a_document_not_in_the_context_gets_a_number_that_points_at_nothing():
    assert cite_numbers("Flow is 90 L/min {cite:px35}.", PROMPT, TITLES) == "Flow is 90 L/min [3]."


def _write_set(folder, cases):
    kb = folder / "kb" / "manuals"
    kb.mkdir(parents=True)
    (kb / "px20.md").write_text(
        "---\nid: manual-px20\ntitle: PX-20 Pump Manual\nupdated_at: 2024-01-31\n---\n"
        "The PX-20 centrifugal pump delivers 120 L/min at a head of 32 m. "
        "Replace the PX-20 mechanical seal every 3000 operating hours.",
        "utf-8",
    )
    (kb / "px35.md").write_text(
        "---\nid: manual-px35\ntitle: PX-35 Pump Manual\nupdated_at: 2024-02-15\n---\n"
        "The PX-35 centrifugal pump delivers 210 L/min at a head of 41 m. "
        "Replace the PX-35 mechanical seal every 2000 operating hours.",
        "utf-8",
    )
    (folder / "cases.jsonl").write_text("\n".join(json.dumps(c) for c in cases) + "\n", "utf-8")


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("not json", "not JSON"),
        ('{"id": "x", "question": "q", "answer": "a", "kind": "k", "label": "maybe"}', "label"),
        ('{"id": "x", "question": "", "answer": "a", "kind": "k", "label": "fault"}', "question"),
    ],
)
def test_a_bad_case_line_is_an_error_naming_file_line_and_field(tmp_path, line, words):
    _write_set(tmp_path, [])
    (tmp_path / "cases.jsonl").write_text(line + "\n", "utf-8")
    with pytest.raises(InvalidInputError, match=words) as caught:
        load_fault_set(tmp_path)
    assert "cases.jsonl:1" in str(caught.value)


def test_a_folder_without_a_knowledge_base_is_an_error(tmp_path):
    (tmp_path / "cases.jsonl").write_text("", "utf-8")
    with pytest.raises(InvalidInputError, match="kb/"):
        load_fault_set(tmp_path)


@pytest.mark.model
@pytest.mark.integration
def test_a_replayed_set_scores_caught_faults_and_accepted_answers(tmp_path):
    question = "What flow does the PX-20 deliver?"
    _write_set(
        tmp_path / "set",
        [
            {
                "id": "ok",
                "question": question,
                "answer": "The PX-20 delivers 120 L/min {cite:manual-px20}.",
                "label": "correct",
                "kind": "plain",
            },
            {
                "id": "invented",
                "question": "How often is the PX-35 seal replaced?",
                "answer": "The PX-35 seal is replaced every 2000 operating hours [9].",
                "label": "fault",
                "kind": "invented_citation",
            },
            {
                "id": "number",
                "question": "What head does the PX-35 reach?",
                "answer": "The PX-35 reaches a head of 55 m {cite:manual-px35}.",
                "label": "fault",
                "kind": "wrong_number",
            },
        ],
    )
    result = evaluate_faults(tmp_path / "set", Config(data_dir=tmp_path / "data"))
    rows = {r["id"]: r for r in result["rows"]}
    assert rows["ok"]["status"] == "ok" and rows["ok"]["passed"]
    assert rows["invented"]["status"] != "ok" and rows["invented"]["passed"]
    assert any("invalid_citation" in i for i in rows["invented"]["issues"])
    assert any("unsupported_number" in i for i in rows["number"]["issues"])
    assert (result["faults_caught"], result["false_rejections"]) == (1.0, 0.0)
    assert result["correct_with_sources_retrieved"] == 1
    assert result["false_rejections_with_sources_retrieved"] == 0.0
    assert result["by_kind"]["plain"] == {
        "label": "correct",
        "cases": 1,
        "accepted": 1,
        "share": 1.0,
        "first_issue": {},
    }
