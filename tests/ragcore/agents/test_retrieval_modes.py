"""Retrieval modes: precise for lookups, explore for comparisons, lists and summaries, and a
retry for missing evidence that widens precise to explore; the fusion each mode asks for."""

from __future__ import annotations

from datetime import date

import pytest
from conftest import TODAY
from handmade import document

from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.agents.planning.execution import TaskResult
from ragcore.agents.planning.fusion import fuse
from ragcore.agents.planning.planner import RetrievalTask, adjust, initial_plan
from ragcore.agents.planning.strategy import ModeSettings, load_strategy
from ragcore.agents.validation import Issue
from ragcore.errors import ConfigError
from ragcore.retrieval.search import Hit
from ragcore.storage.filters import SearchFilters
from ragcore.types import Check, IssueKind, RetrievalMode, SearchMode

perceive = PerceptionAgent(nlp=None, clock=lambda: TODAY).run
STRATEGY = load_strategy()


def test_a_lookup_is_precise_with_a_small_k():
    plan = initial_plan(perceive("What does E4027 mean on the HP-400?"), STRATEGY)
    assert plan.retrieval == RetrievalMode.PRECISE
    assert {t.k for t in plan.tasks} == {STRATEGY.mode(RetrievalMode.PRECISE).k}


@pytest.mark.parametrize(
    "question",
    [
        "Which compressor is louder, AC-75 or AC-110?",
        "List the error codes of the HP-400.",
        "Summarize the hot work rules",
    ],
)
def test_comparisons_lists_and_summaries_explore_deeper(question):
    plan = initial_plan(perceive(question), STRATEGY)
    explore = STRATEGY.mode(RetrievalMode.EXPLORE)
    assert plan.retrieval == RetrievalMode.EXPLORE
    assert all(t.k >= explore.k for t in plan.tasks)
    assert explore.k > STRATEGY.mode(RetrievalMode.PRECISE).k


def test_a_retry_for_missing_evidence_widens_precise_to_explore():
    perception = perceive("What does E4027 mean on the HP-400?")
    plan = initial_plan(perception, STRATEGY)
    missing = Issue(Check.TRACEABILITY, IssueKind.NO_EVIDENCE, "no retrieved evidence answers it")
    retry = adjust(plan, perception, [missing])
    assert retry is not None and retry.retrieval == RetrievalMode.EXPLORE
    assert "missing evidence: precise → explore" in retry.reasons
    unsupported = Issue(Check.TRACEABILITY, IssueKind.UNSUPPORTED, "a statement is unsupported")
    other = adjust(plan, perception, [unsupported])
    assert other is not None and other.retrieval == RetrievalMode.PRECISE


def hit(chunk_id: int, doc_id: str, score: float) -> Hit:
    return Hit(
        chunk_id=chunk_id,
        document_id=doc_id,
        text=f"chunk {chunk_id}",
        start=0,
        end=8,
        start_byte=0,
        end_byte=8,
        position=chunk_id,
        entities=(),
        numeric_density=0.0,
        score=score,
        scores={},
        document=document(doc_id, doc_id, updated_at=date(2025, 1, 1)),
    )


def results(*hits: Hit) -> tuple[TaskResult, ...]:
    task = RetrievalTask("r1t1", "q", SearchMode.HYBRID, 8, SearchFilters(), 1.0, 1, "base")
    return (TaskResult(task, hits, True, 1.0),)


def test_explore_spreads_the_evidence_over_documents():
    found = results(
        *(hit(i, "manual-a", 1.0 - i / 100) for i in range(1, 6)), hit(9, "manual-b", 0.5)
    )
    perception = perceive("List the error codes of the HP-400.")
    spread = ModeSettings(k=16, evidence=3, per_document=2)
    chosen = fuse(found, perception, STRATEGY, None, TODAY, spread)
    assert [e.document.id for e in chosen].count("manual-a") == 2
    assert "manual-b" in [e.document.id for e in chosen]


def test_precise_drops_what_is_far_below_the_best():
    found = results(hit(1, "manual-a", 1.0), hit(2, "manual-b", 0.9), hit(3, "manual-c", 0.01))
    perception = perceive("What does E4027 mean on the HP-400?")
    floored = fuse(found, perception, STRATEGY, None, TODAY, ModeSettings(8, 6, floor=0.5))
    assert [e.document.id for e in floored] == ["manual-a", "manual-b"]
    unfloored = fuse(found, perception, STRATEGY, None, TODAY, ModeSettings(8, 6))
    assert len(unfloored) == 3


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('[defaults]\nretrieval = "wide"\n', "retrieval 'wide'"),
        ("[modes.wide]\nk = 8\nevidence = 6\n", "unknown mode"),
        ("[modes.precise]\nk = 8\n", r"k \(1 to"),
        ("[modes.explore]\nk = 8\nevidence = 6\nfloor = 2\n", "floor"),
        ('[[rule]]\nname = "r"\nwhen = { route = "comparison" }\nretrieval = "all"\n', "retrieval"),
    ],
)
def test_a_broken_mode_setting_is_rejected_with_the_reason(tmp_path, text, reason):
    path = tmp_path / "strategy.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=reason):
        load_strategy(path)


def test_a_strategy_without_modes_keeps_its_evidence_for_precise(tmp_path):
    path = tmp_path / "strategy.toml"
    path.write_text("[defaults]\nk = 5\nevidence = 4\n", encoding="utf-8")
    strategy = load_strategy(path)
    assert strategy.mode(RetrievalMode.PRECISE) == ModeSettings(5, 4)
    assert strategy.mode(RetrievalMode.EXPLORE).k == 10
