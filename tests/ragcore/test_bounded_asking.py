"""Asking within the caller's filters and round cap: every task, every round, in the trace."""

from __future__ import annotations

from datetime import date

import pytest
from conftest import TODAY, make_docs

from ragcore import Config, Engine, SearchFilters
from ragcore.errors import InvalidQueryError, KnowledgeBaseNotFoundError


def _ask(engine, question, **kwargs):
    events: list = []
    answer = engine.ask(question, on_event=events.append, **kwargs)
    plans = [e.data for e in events if e.stage == "plan"]
    hits = [h for e in events if e.stage == "retrieval" for r in e.data.results for h in r.hits]
    return answer, plans, hits


def test_the_question_s_own_filters_narrow_the_caller_s_and_the_trace_shows_them(sample_engine):
    bounds = SearchFilters(min_authority=4, doc_types=("regulation",))
    answer, plans, hits = _ask(
        sample_engine, "Which lockout rules apply since 2024?", filters=bounds
    )
    tasks = [t for p in plans for t in p.tasks]
    assert tasks and all(t.filters.within(bounds) == t.filters for t in tasks)
    assert all(
        t.filters.min_authority == 4 and t.filters.doc_types == ("regulation",) for t in tasks
    )
    # the question's "since 2024" still applies, inside the caller's filters
    assert any(t.filters.updated_after == date(2024, 1, 1) for t in tasks)
    assert hits and all(h.document.authority >= 4 for h in hits)
    assert all(h.document.doc_type == "regulation" for h in hits)
    assert "filters: doc_type=regulation min_authority=4" in answer.trace.render()


def test_every_retry_keeps_the_caller_s_filters(sample_engine):
    bounds = SearchFilters(exclude_documents=("manual-ac110",), knowledge_bases=("manuals",))
    answer, plans, hits = _ask(
        sample_engine, "Which compressor is louder, AC-75 or AC-110?", filters=bounds
    )
    assert answer.rounds >= 2 and len(plans) == answer.rounds  # the missing side was retried
    later = [t for p in plans[1:] for t in p.tasks]
    assert any("missing side" in t.reason for t in later)
    for plan in plans:
        assert plan.bounds == bounds
        for task in plan.tasks:
            assert "manual-ac110" in task.filters.exclude_documents
            assert task.filters.knowledge_bases == ("manuals",)
    assert hits and {h.document_id for h in hits}.isdisjoint({"manual-ac110"})
    assert {h.document.knowledge_base for h in hits} == {"manuals"}
    assert answer.status != "ok"
    assert answer.trace.render().count("filters: kb=manuals without=manual-ac110") == len(plans)


def test_the_round_cap_can_be_lowered_but_not_raised(sample_engine):
    question = "Which compressor is louder, AC-75 or AC-110?"
    bounds = SearchFilters(exclude_documents=("manual-ac110",))
    assert sample_engine.ask(question, filters=bounds, max_rounds=1).rounds == 1
    for bad in (0, 4, True, "2", 1.5):
        with pytest.raises(InvalidQueryError, match="max_rounds"):
            sample_engine.ask(question, max_rounds=bad)


def test_bad_filters_are_refused_before_anything_is_done(sample_engine):
    with pytest.raises(KnowledgeBaseNotFoundError, match="no-such-kb"):
        sample_engine.ask("E4027?", filters=SearchFilters(knowledge_bases=("no-such-kb",)))
    with pytest.raises(InvalidQueryError, match="SearchFilters"):
        sample_engine.ask("E4027?", filters={"knowledge_bases": ["faq"]})  # type: ignore[arg-type]


def test_when_no_task_fits_the_filters_nothing_is_searched_and_the_answer_says_so(
    tmp_path, real_embedder
):
    strategy = tmp_path / "strategy.toml"
    strategy.write_text('[defaults]\nknowledge_bases = ["regulations"]\n', "utf-8")
    config = Config(data_dir=tmp_path / "data", strategy_path=strategy)
    with Engine(config, embedder=real_embedder, clock=lambda: TODAY) as engine:
        engine.ingest(make_docs())
        bounds = SearchFilters(knowledge_bases=("manuals",))
        answer, plans, hits = _ask(engine, "What does E4027 mean?", filters=bounds)
        assert answer.status == "no_answer" and answer.searches == 0 and not hits
        assert "fits the given filters" in answer.issues[0].message
        assert "dropped: base" in answer.trace.render()
        # without the filters the same strategy searches (the regulations)
        assert engine.ask("What does E4027 mean?").searches >= 1
