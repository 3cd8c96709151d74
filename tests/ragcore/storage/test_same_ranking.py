"""One ranking, two stores: after ``migrate``, PostgreSQL gives SQLite's keyword lists
exactly (the same chunks, in the same order, with the same BM25 doubles) and SQLite's
hybrid lists up to ties of the vector side's float4 cosines, over every golden question
of the sample knowledge base and over a slice of SciFact (BEIR).

Keyword equality holds on any CPU: FTS5's terms and BM25 involve no model. The hybrid
comparison uses one query vector for both stores (one machine, one embedder), so the
int8 kernels' CPU-dependent rounding cannot split them; only near-ties of the vector
scores (pgvector and hnswlib round a cosine differently in its last bits) may swap.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from ranking import assert_same_ranking

from ragcore import Config, Engine
from ragcore.evaluation.golden import load_golden
from ragcore.storage.migration import copy_store

pytestmark = [pytest.mark.model, pytest.mark.process, pytest.mark.slow]

BEIR = Path(
    os.environ.get(
        "RAGCORE_BEIR",
        Path(__file__).resolve().parents[4] / "shared" / "data" / "scifact-train.tgz",
    )
)
NEAR_TIE = 5e-3
"""Hybrid scores this close may swap where the vector candidates differ."""
BEIR_DOCUMENTS = 200  # the first documents of the corpus: every query still matches some


def keyword_list(engine: Engine, query: str, k: int = 10) -> list[tuple[str, int, float]]:
    hits = engine.search(query, mode="keyword", k=k)
    return [(h.document_id, h.position, h.score) for h in hits]


def chunks_of(hits) -> list[tuple[str, int]]:
    return [(h.document_id, h.position) for h in hits]


def assert_same_lists(lite: Engine, pg: Engine, queries: list[str], hybrid: list[str]) -> int:
    """Keyword lists equal for every query; hybrid lists equal, in order, for every query
    whose vector candidates are the same chunks on both stores, and the same up to
    ``NEAR_TIE`` for the others (two approximate indexes may differ at the candidate
    boundary, which moves the fusion's z-scores a little). Returns how many hybrid lists
    were compared exactly."""
    for query in queries:
        assert keyword_list(pg, query) == keyword_list(lite, query), query
    exact = 0
    depth = lite.config.candidates
    for query in hybrid:
        left = lite.search(query, mode="hybrid", k=13)
        right = pg.search(query, mode="hybrid", k=13)
        candidates = [
            set(chunks_of(engine.search(query, mode="vector", k=depth))) for engine in (lite, pg)
        ]
        if candidates[0] == candidates[1]:
            exact += 1
            assert chunks_of(right[:10]) == chunks_of(left[:10]), query
            assert [h.score for h in right] == pytest.approx([h.score for h in left], abs=1e-6)
        elif len(left) > 10:
            assert_same_ranking(right, left, n=10, tolerance=NEAR_TIE)
    return exact


def test_golden_questions_rank_the_same_on_both_stores_after_migrate(
    tmp_path, sample_data_template, postgres_url, real_embedder
):
    source = tmp_path / "data"
    shutil.copytree(sample_data_template, source)
    copy_store(source, postgres_url)
    questions = [q.question for q in load_golden()]
    with (
        Engine(Config(data_dir=source), embedder=real_embedder) as lite,
        Engine(
            Config(data_dir=tmp_path / "pg", store_url=postgres_url), embedder=real_embedder
        ) as pg,
    ):
        assert any(keyword_list(lite, q) for q in questions)
        assert assert_same_lists(lite, pg, questions, questions) >= len(questions) * 0.9


def test_a_beir_slice_ranks_the_same_on_both_stores_after_migrate(
    tmp_path, postgres_url, real_embedder
):
    if not BEIR.exists():
        pytest.skip(f"no BEIR dataset at {BEIR} (set $RAGCORE_BEIR to a SciFact .tgz)")

    from ragcore.evaluation.beir import open_beir
    from ragcore.ingest.loaders import load_file

    data = open_beir(BEIR, "train", tmp_path / "beir")
    documents = load_file(data.corpus, "corpus")[:BEIR_DOCUMENTS]
    source = tmp_path / "data"
    with Engine(Config(data_dir=source), embedder=real_embedder) as lite:
        lite.ingest(documents)
    copy_store(source, postgres_url)
    queries = [data.queries[q] for q in sorted(data.queries)]
    with (
        Engine(Config(data_dir=source), embedder=real_embedder) as lite,
        Engine(
            Config(data_dir=tmp_path / "pg", store_url=postgres_url), embedder=real_embedder
        ) as pg,
    ):
        assert sum(bool(keyword_list(lite, q)) for q in queries) > len(queries) // 2
        assert assert_same_lists(lite, pg, queries, queries[:100]) >= 90
