"""Questions over real documents, scored by the precision of ``ok``; and the file's checks."""

from __future__ import annotations

import json

import pytest

from ragcore.errors import InvalidInputError
from ragcore.evaluation.questions import (
    Question,
    contains_facts,
    evaluate_questions,
    load_questions,
)

pytestmark = pytest.mark.integration


def test_facts_are_found_whatever_the_case_spacing_and_thousands_separators():
    assert contains_facts("Replace the seal every 1,500  operating hours.", ["1500 operating"])
    assert contains_facts("Set it to 250 kPa.", ["2.5 bar|250 kPa"])
    assert not contains_facts("Set it to 250 kPa.", ["2.5 bar"])


def test_the_scores_count_ok_answers_with_and_without_the_fact(sample_engine):
    questions = [
        Question(
            "right", "After how many operating hours is the CP-200 seal due?", True, ("1500",)
        ),
        Question(
            "wrong-fact", "After how many operating hours is the CP-200 seal due?", True, ("999",)
        ),
        Question("none", "What is the boiling point of the CP-200's paint?", False),
    ]
    result = evaluate_questions(sample_engine.ask, questions)
    rows = {row["id"]: row for row in result["rows"]}
    assert rows["right"]["status"] == "ok" and rows["right"]["right"]
    assert rows["wrong-fact"]["status"] == "ok" and not rows["wrong-fact"]["right"]
    assert result["ok"] == 2 + (rows["none"]["status"] == "ok")
    assert result["precision_of_ok"] == round(1 / result["ok"], 4)
    assert result["answerable_right"] == 0.5
    assert result["unanswerable_ok"] == (rows["none"]["status"] == "ok")


@pytest.mark.parametrize(
    ("row", "problem"),
    [
        ({"id": "a", "question": "q?"}, "'answerable'"),
        ({"id": "a", "question": "q?", "answerable": True}, "needs 'expected_facts'"),
        ({"id": "a", "question": "q?", "answerable": False, "expected_facts": ["x"]}, "has no"),
        ({"id": "a", "question": "q?", "answerable": True, "expected_facts": "x"}, "list"),
    ],
)
def test_a_bad_question_line_is_named(tmp_path, row, problem):
    path = tmp_path / "questions.jsonl"
    good = {"id": "ok-1", "question": "q?", "answerable": False}
    path.write_text(f"{json.dumps(good)}\n{json.dumps(row)}\n", "utf-8")
    with pytest.raises(InvalidInputError, match=problem) as error:
        load_questions(path)
    assert f"{path}:2" in str(error.value)
