"""The multi-turn golden file: the bundled set loads, a bad file names line and field."""

from __future__ import annotations

import json

import pytest

from ragcore.errors import InvalidInputError
from ragcore.evaluation.conversations import SAMPLE_CONVERSATIONS, load_conversations


def test_the_bundled_set_has_enough_conversations_of_two_to_five_turns():
    conversations = load_conversations(SAMPLE_CONVERSATIONS)
    assert len(conversations) >= 25
    assert all(2 <= len(c.turns) <= 5 for c in conversations)
    assert any(t.follow_up for c in conversations for t in c.turns)


def turn(**changes) -> dict:
    row = {
        "question": "And on the HP-500?",
        "standalone": "What does E4027 mean on the HP-500?",
        "expected_status": "ok",
        "expected_documents": ["manual-hp500"],
        "forbidden_documents": [],
        "expected_facts": [],
    }
    row.update(changes)
    return row


def test_a_turn_is_a_follow_up_when_its_standalone_form_differs(tmp_path):
    path = tmp_path / "c.jsonl"
    rows = [
        {
            "id": "c1",
            "turns": [turn(question="What is E4027?", standalone="What is E4027?"), turn()],
        }
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    (conversation,) = load_conversations(path)
    assert [t.follow_up for t in conversation.turns] == [False, True]


@pytest.mark.parametrize(
    ("row", "problem"),
    [
        ({"id": "c1", "turns": []}, "'turns' must be a non-empty list"),
        ({"id": "", "turns": [turn()]}, "'id' must be non-empty"),
        ({"id": "c1", "turns": [turn(expected_status="fine")]}, "turn 1: field 'expected_status'"),
        ({"id": "c1", "turns": [turn(), turn(question=" ")]}, "turn 2: field 'question'"),
        ({"id": "c1", "turns": [turn(expected_documents="manual")]}, "'expected_documents'"),
    ],
)
def test_a_bad_conversation_names_the_line_and_field(tmp_path, row, problem):
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(InvalidInputError, match=f"c.jsonl:1.*{problem}"):
        load_conversations(path)
