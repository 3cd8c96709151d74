"""Multi-turn golden evaluation of ``Engine.ask(..., session=...)``: per turn, in order.

A conversations file is JSON Lines, one conversation per line::

    {"id": "hp400-e4027", "turns": [
      {"question": "...", "standalone": "...", "expected_status": "ok",
       "expected_documents": ["manual-hp400-v2"], "forbidden_documents": [],
       "expected_facts": ["150"], "notes": "..."}, ...]}

Every conversation is asked in a session of its own, turn after turn. ``standalone`` is
the question as a person would write it without the conversation (the question itself
when it already stands alone): a turn whose ``standalone`` differs from its ``question``
is a follow-up, and the rewriter should rewrite exactly those. The figures are
turn-level: status accuracy, retrieval hit rate (an expected document among the
evidence), facts found, forbidden documents cited, and how well follow-ups were told
apart from standalone turns. The bundled ``sample_conversations.jsonl`` is held out: it
was written from the sample documents only, before the rewriter.
"""

from __future__ import annotations

import statistics
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ragcore.answering import Answer
from ragcore.errors import InvalidInputError
from ragcore.evaluation.golden import documents_cited, documents_retrieved, has_facts
from ragcore.evaluation.jsonl import read_rows
from ragcore.types import AnswerStatus

SAMPLE_CONVERSATIONS = Path(__file__).resolve().parent / "sample_conversations.jsonl"

AskInSession = Callable[[str, str], Answer]
"""``ask(question, session_id) -> Answer``."""


@dataclass(frozen=True)
class GoldenTurn:
    question: str
    standalone: str
    expected_status: AnswerStatus
    expected_documents: tuple[str, ...]
    forbidden_documents: tuple[str, ...]
    expected_facts: tuple[str, ...]

    @property
    def follow_up(self) -> bool:
        return " ".join(self.standalone.split()) != " ".join(self.question.split())


@dataclass(frozen=True)
class GoldenConversation:
    id: str
    turns: tuple[GoldenTurn, ...]


def load_conversations(path: Path | str = SAMPLE_CONVERSATIONS) -> list[GoldenConversation]:
    """Read and check a conversations file; a bad line is an error naming the line and field."""
    return read_rows(Path(path), "conversations file", "conversations", _conversation)


def _conversation(row: object, where: str) -> GoldenConversation:
    if not isinstance(row, dict):
        raise InvalidInputError(f"{where}: each line must be a JSON object")
    if not isinstance(row.get("id"), str) or not row["id"].strip():
        raise InvalidInputError(f"{where}: field 'id' must be non-empty text")
    turns = row.get("turns")
    if not isinstance(turns, list) or not turns:
        raise InvalidInputError(f"{where}: field 'turns' must be a non-empty list of turns")
    return GoldenConversation(
        row["id"], tuple(_turn(t, f"{where}: turn {i}") for i, t in enumerate(turns, 1))
    )


def _turn(row: object, where: str) -> GoldenTurn:
    if not isinstance(row, dict):
        raise InvalidInputError(f"{where}: each turn must be a JSON object")
    if not isinstance(row.get("question"), str) or not row["question"].strip():
        raise InvalidInputError(f"{where}: field 'question' must be non-empty text")
    standalone = row.get("standalone", row["question"])
    if not isinstance(standalone, str) or not standalone.strip():
        raise InvalidInputError(f"{where}: field 'standalone' must be non-empty text")
    if (status := AnswerStatus.parse(row.get("expected_status"))) is None:
        statuses = ", ".join(AnswerStatus.values())
        raise InvalidInputError(f"{where}: field 'expected_status' must be one of {statuses}")
    lists = {}
    for key in ("expected_documents", "forbidden_documents", "expected_facts"):
        value = row.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise InvalidInputError(f"{where}: field '{key}' must be a list of strings")
        lists[key] = tuple(value)
    return GoldenTurn(row["question"], standalone, status, **lists)


@dataclass(frozen=True)
class TurnOutcome:
    conversation: str
    number: int
    turn: GoldenTurn
    answer: Answer

    @property
    def retrieved(self) -> list[str]:
        return documents_retrieved(self.answer)

    @property
    def cited(self) -> list[str]:
        return documents_cited(self.answer)

    @property
    def hit(self) -> bool:
        return bool(set(self.retrieved) & set(self.turn.expected_documents))

    @property
    def facts_found(self) -> bool:
        return has_facts(self.answer, self.turn.expected_facts)

    @property
    def rewritten(self) -> bool:
        return self.answer.rewritten_question is not None

    def row(self) -> dict:
        a, t = self.answer, self.turn
        return {
            "conversation": self.conversation,
            "turn": self.number,
            "question": t.question,
            "rewritten": a.rewritten_question,
            "standalone": t.standalone,
            "expected_status": t.expected_status,
            "status": a.status,
            "hit": self.hit if t.expected_documents else None,
            "cited": self.cited,
            "facts_found": self.facts_found,
            "cites_forbidden": bool(set(self.cited) & set(t.forbidden_documents)),
            "cached": a.cached,
            "ms": round(a.timings["total"], 2),
        }


def evaluate_conversations(ask: AskInSession, conversations: Sequence[GoldenConversation]) -> dict:
    """Ask every conversation in a fresh session, turn by turn, and score the turns."""
    outcomes = []
    for conversation in conversations:
        session = f"eval-{conversation.id}-{uuid.uuid4().hex[:12]}"[:128]
        session = "".join(c if c.isalnum() or c in "_.:-" else "-" for c in session)
        for number, turn in enumerate(conversation.turns, 1):
            answer = ask(turn.question, session)
            outcomes.append(TurnOutcome(conversation.id, number, turn, answer))
    answerable = [o for o in outcomes if o.turn.expected_documents]
    follow_ups = [o for o in outcomes if o.turn.follow_up]
    rewritten = [o for o in outcomes if o.rewritten]
    return {
        "conversations": len(conversations),
        "turns": len(outcomes),
        "status_accuracy": _share(outcomes, lambda o: o.answer.status == o.turn.expected_status),
        "hit_rate": _share(answerable, lambda o: o.hit),
        "facts_found": _share(
            [o for o in answerable if o.turn.expected_facts], lambda o: o.facts_found
        ),
        "forbidden_cited": _share(
            answerable, lambda o: bool(set(o.cited) & set(o.turn.forbidden_documents))
        ),
        "follow_ups": len(follow_ups),
        "follow_up_recall": _share(follow_ups, lambda o: o.rewritten),
        "follow_up_precision": _share(rewritten, lambda o: o.turn.follow_up),
        "status_accuracy_follow_ups": _share(
            follow_ups, lambda o: o.answer.status == o.turn.expected_status
        ),
        "hit_rate_follow_ups": _share(
            [o for o in follow_ups if o.turn.expected_documents], lambda o: o.hit
        ),
        "latency_ms_p50": round(statistics.median(o.answer.timings["total"] for o in outcomes), 2)
        if outcomes
        else 0.0,
        "rows": [o.row() for o in outcomes],
    }


def _share(items, predicate) -> float:
    return round(sum(1 for i in items if predicate(i)) / len(items), 4) if items else 0.0
