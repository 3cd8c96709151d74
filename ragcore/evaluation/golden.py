"""Golden-set evaluation of ``Engine.ask``: retrieval, process and generation, per question.

A golden file is JSON Lines, one question per line::

    {"id": "trap-cp200-seal", "kind": "trap", "question": "...",
     "expected_documents": ["manual-cp200-v2"], "forbidden_documents": ["faq-cp200-seal"],
     "expected_status": "ok", "expected_facts": ["1500"]}

``expected_documents`` are the documents a correct answer rests on (all of them for a
comparison, any of them for an ambiguous question); ``forbidden_documents`` must not be
cited (superseded or outdated); ``expected_facts`` must appear in the answer text (case,
spacing and thousands separators aside; ``"2.5 bar|250 kPa"`` accepts either). The
bundled ``sample_golden.jsonl`` covers the bundled sample knowledge base.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ragcore.answering import Answer
from ragcore.errors import InvalidInputError
from ragcore.evaluation.jsonl import read_rows
from ragcore.types import AnswerStatus, GoldenKind

SAMPLE_GOLDEN = Path(__file__).resolve().parent / "sample_golden.jsonl"


@dataclass(frozen=True)
class GoldenQuestion:
    id: str
    kind: GoldenKind
    question: str
    expected_documents: tuple[str, ...]
    forbidden_documents: tuple[str, ...]
    expected_status: AnswerStatus
    expected_facts: tuple[str, ...] = ()


def load_golden(path: Path | str = SAMPLE_GOLDEN) -> list[GoldenQuestion]:
    """Read and check a golden file; a bad line is an error naming the line and field."""
    return read_rows(Path(path), "golden file", "questions", _question)


def _question(row: object, where: str) -> GoldenQuestion:
    if not isinstance(row, dict):
        raise InvalidInputError(f"{where}: each line must be a JSON object")
    for key in ("id", "question"):
        if not isinstance(row.get(key), str) or not row[key].strip():
            raise InvalidInputError(f"{where}: field '{key}' must be non-empty text")
    if (kind := GoldenKind.parse(row.get("kind"))) is None:
        raise InvalidInputError(
            f"{where}: field 'kind' must be one of {', '.join(GoldenKind.values())}"
        )
    if (status := AnswerStatus.parse(row.get("expected_status"))) is None:
        statuses = ", ".join(AnswerStatus.values())
        raise InvalidInputError(f"{where}: field 'expected_status' must be one of {statuses}")
    lists = {}
    for key in ("expected_documents", "forbidden_documents", "expected_facts"):
        value = row.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise InvalidInputError(f"{where}: field '{key}' must be a list of strings")
        lists[key] = tuple(value)
    return GoldenQuestion(
        id=row["id"],
        kind=kind,
        question=row["question"],
        expected_status=status,
        **lists,
    )


def documents_retrieved(answer: Answer) -> list[str]:
    """Documents of the evidence, best first, each once."""
    return list(dict.fromkeys(e.document.id for e in answer.evidence))


def documents_cited(answer: Answer) -> list[str]:
    return list(dict.fromkeys(c.document_id for c in answer.citations))


_SPACES = re.compile(r"\s+")
_THOUSANDS = re.compile(r"(?<=\d)[,\u202f\u00a0](?=\d{3}\b)")


def normalised(text: str) -> str:
    """Lower case, one space between words, no thousands separators ("1,500" = "1500")."""
    return _SPACES.sub(" ", _THOUSANDS.sub("", text.lower())).strip()


def contains_facts(text: str, facts: Sequence[str]) -> bool:
    """Every fact (one of its ``|`` alternatives) is in ``text``, case, spacing and
    thousands separators aside — one reading for every kind of set."""
    said = normalised(text)
    return all(any(normalised(alt) in said for alt in fact.split("|")) for fact in facts)


def has_facts(answer: Answer, facts: Sequence[str]) -> bool:
    """Every expected fact is in the answer's text (see ``contains_facts``)."""
    return contains_facts(answer.text, facts)


@dataclass(frozen=True)
class Outcome:
    """One question's result against its expectations."""

    question: GoldenQuestion
    answer: Answer

    @property
    def retrieved(self) -> list[str]:
        return documents_retrieved(self.answer)

    @property
    def cited(self) -> list[str]:
        return documents_cited(self.answer)

    @property
    def reciprocal_rank(self) -> float:
        expected = set(self.question.expected_documents)
        return next((1 / r for r, d in enumerate(self.retrieved, 1) if d in expected), 0.0)

    @property
    def facts_found(self) -> bool:
        return has_facts(self.answer, self.question.expected_facts)

    @property
    def cites_forbidden(self) -> bool:
        return bool(set(self.cited) & set(self.question.forbidden_documents))

    def row(self) -> dict:
        a, q = self.answer, self.question
        return {
            "id": q.id,
            "kind": q.kind,
            "expected_status": q.expected_status,
            "status": a.status,
            "rounds": a.rounds,
            "tasks": a.tasks,
            "cited": self.cited,
            "retrieved": self.retrieved,
            "facts_found": self.facts_found,
            "cites_forbidden": self.cites_forbidden,
            "issues": [f"{i.kind}: {i.message}" for i in a.issues],
            "ms": round(a.timings["total"], 2),
        }


def evaluate_golden(
    ask: Callable[[str], Answer],
    questions: Sequence[GoldenQuestion],
    *,
    max_rounds: int,
    support_threshold: float,
) -> dict:
    """Ask every question and score the three layers; ``rows`` holds per-question results."""
    outcomes = [Outcome(q, ask(q.question)) for q in questions]
    answerable = [o for o in outcomes if o.question.expected_documents]
    support = [s for o in outcomes for s in o.answer.report.support]
    cited_pairs = [(o, d) for o in answerable for d in o.cited]
    right = [o for o in outcomes if o.answer.status == o.question.expected_status]
    status_hits = Counter(o.question.kind for o in right)
    kinds = Counter(o.question.kind for o in outcomes)
    expected_none = [o for o in outcomes if o.question.expected_status == AnswerStatus.NO_ANSWER]
    said_none = [o for o in outcomes if o.answer.status == AnswerStatus.NO_ANSWER]
    return {
        "questions": len(outcomes),
        "retrieval": {
            "hit_rate": _share(answerable, lambda o: o.reciprocal_rank > 0),
            "mrr": _mean([o.reciprocal_rank for o in answerable]),
            "all_expected_retrieved": _share(
                answerable, lambda o: set(o.question.expected_documents) <= set(o.retrieved)
            ),
        },
        "process": {
            "tasks_per_question": _mean([o.answer.tasks for o in outcomes]),
            "searches_per_question": _mean([o.answer.searches for o in outcomes]),
            "duplicate_searches": sum(o.answer.duplicate_searches for o in outcomes),
            "rounds_mean": _mean([o.answer.rounds for o in outcomes]),
            "rounds_max": max(o.answer.rounds for o in outcomes),
            "round_cap": max_rounds,
            "converged_share": _share(
                outcomes, lambda o: o.answer.status != AnswerStatus.UNCERTAIN
            ),
            "fast_path_share": _share(outcomes, lambda o: o.answer.searches == 1),
        },
        "generation": {
            "citation_precision": _share(
                cited_pairs, lambda p: p[1] in p[0].question.expected_documents
            ),
            "supported_statements": _share(support, lambda s: s >= support_threshold),
            "status_accuracy": round(len(right) / len(outcomes), 4),
            "status_accuracy_by_kind": {k: round(status_hits[k] / n, 4) for k, n in kinds.items()},
            "no_answer_recall": _share(
                expected_none, lambda o: o.answer.status == AnswerStatus.NO_ANSWER
            ),
            "no_answer_precision": _share(
                said_none, lambda o: o.question.expected_status == AnswerStatus.NO_ANSWER
            ),
            "facts_found": _share(
                [o for o in answerable if o.question.expected_facts], lambda o: o.facts_found
            ),
            "forbidden_cited": _share(answerable, lambda o: o.cites_forbidden),
        },
        "latency_ms": {
            "p50": _percentile([o.answer.timings["total"] for o in outcomes], 50),
            "p95": _percentile([o.answer.timings["total"] for o in outcomes], 95),
        },
        "rows": [o.row() for o in outcomes],
    }


def _share(items, predicate) -> float:
    return round(sum(1 for i in items if predicate(i)) / len(items), 4) if items else 0.0


def _mean(values) -> float:
    return round(statistics.fmean(values), 4) if values else 0.0


def _percentile(values, q: int) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))], 2)
