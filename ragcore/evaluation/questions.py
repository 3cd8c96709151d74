"""Questions over a folder of real documents, scored by what a technician sees first: is
an ``ok`` answer right?

A question file is JSON Lines, one question per line, written apart from the code by
people who read only the documents::

    {"id": "lcnc-07", "question": "What does G64 P0.01 set?", "answerable": true,
     "expected_facts": ["path blending", "0.01"], "expected_documents": ["linuxcnc/..."],
     "kind": "setting"}

``expected_facts`` must all appear in a right answer (case-insensitive, spaces and
thousands separators aside; ``"2.5 bar|250 kPa"`` accepts either); ``expected_documents``
are the documents that state it (any of them), by id or by file path relative to the
documents folder. An unanswerable question has
``"answerable": false`` and no facts: any ``ok`` answer to it is wrong.

The figures: **precision of ok** (the share of ``ok`` answers that contain the expected
facts), answerable questions answered right (``ok`` with the facts), unanswerable ones
answered ``ok``, the right document cited, statuses, and latency.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ragcore.answering import Answer
from ragcore.errors import InvalidInputError
from ragcore.evaluation.golden import contains_facts, documents_cited
from ragcore.evaluation.jsonl import read_rows
from ragcore.types import AnswerStatus


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    answerable: bool
    expected_facts: tuple[str, ...] = ()
    expected_documents: tuple[str, ...] = ()
    kind: str = ""


def load_questions(path: Path | str) -> list[Question]:
    """Read and check a question file; a bad line is an error naming the line and field."""
    return read_rows(Path(path), "question file", "questions", _question)


def _question(row: object, where: str) -> Question:
    if not isinstance(row, dict):
        raise InvalidInputError(f"{where}: each line must be a JSON object")
    for key in ("id", "question"):
        if not isinstance(row.get(key), str) or not row[key].strip():
            raise InvalidInputError(f"{where}: field '{key}' must be non-empty text")
    answerable = row.get("answerable")
    if not isinstance(answerable, bool):
        raise InvalidInputError(f"{where}: field 'answerable' must be true or false")
    lists = {}
    for key in ("expected_facts", "expected_documents"):
        value = row.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise InvalidInputError(f"{where}: field '{key}' must be a list of non-empty strings")
        lists[key] = tuple(value)
    if answerable and not lists["expected_facts"]:
        raise InvalidInputError(f"{where}: an answerable question needs 'expected_facts'")
    if not answerable and lists["expected_facts"]:
        raise InvalidInputError(f"{where}: an unanswerable question has no 'expected_facts'")
    kind = row.get("kind", "")
    if not isinstance(kind, str):
        raise InvalidInputError(f"{where}: field 'kind' must be text")
    return Question(row["id"], row["question"], answerable, kind=kind, **lists)


@dataclass(frozen=True)
class Outcome:
    question: Question
    answer: Answer

    @property
    def ok(self) -> bool:
        return self.answer.status == AnswerStatus.OK

    @property
    def right(self) -> bool:
        """Answerable and answered ``ok`` with every expected fact."""
        q = self.question
        return q.answerable and self.ok and contains_facts(self.answer.text, q.expected_facts)

    @property
    def right_document(self) -> bool:
        expected = set(self.question.expected_documents)
        return not expected or bool(expected & set(documents_cited(self.answer)))

    def row(self) -> dict:
        a, q = self.answer, self.question
        return {
            "id": q.id,
            "kind": q.kind,
            "answerable": q.answerable,
            "status": a.status,
            "right": self.right,
            "right_document": self.right_document,
            "cited": documents_cited(a),
            "text": a.text,
            "issues": [f"{i.kind} [{i.rule}]: {i.message}" for i in a.issues],
            "ms": round(a.timings["total"], 2),
        }


def evaluate_questions(ask: Callable[[str], Answer], questions: Sequence[Question]) -> dict:
    """Ask every question and score it (module docstring); ``rows`` per question."""
    outcomes = [Outcome(q, ask(q.question)) for q in questions]
    answerable = [o for o in outcomes if o.question.answerable]
    unanswerable = [o for o in outcomes if not o.question.answerable]
    ok = [o for o in outcomes if o.ok]
    answered = [o for o in answerable if o.ok]
    times = sorted(o.answer.timings["total"] for o in outcomes)
    return {
        "questions": len(outcomes),
        "answerable": len(answerable),
        "statuses": dict(Counter(str(o.answer.status) for o in outcomes)),
        "ok": len(ok),
        "precision_of_ok": _share(ok, lambda o: o.right),
        "answerable_right": _share(answerable, lambda o: o.right),
        "answerable_no_answer": _share(
            answerable, lambda o: o.answer.status == AnswerStatus.NO_ANSWER
        ),
        "unanswerable_ok": sum(o.ok for o in unanswerable),
        "right_document_cited": _share(answered, lambda o: o.right_document),
        "latency_ms": {
            "p50": round(times[len(times) // 2], 2) if times else 0.0,
            "p95": round(times[min(len(times) - 1, round(0.95 * (len(times) - 1)))], 2)
            if times
            else 0.0,
        },
        "rows": [o.row() for o in outcomes],
    }


def _share(items, predicate) -> float:
    return round(sum(1 for i in items if predicate(i)) / len(items), 4) if items else 0.0
