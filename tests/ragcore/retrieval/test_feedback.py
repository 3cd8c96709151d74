"""Dense pseudo-relevance feedback (Config.feedback_chunks): the Rocchio step and hybrid
search with it, on the real embedder and a real store."""

from __future__ import annotations

import numpy as np
import pytest

from ragcore import Config, SearchFilters
from ragcore.errors import ConfigError
from ragcore.retrieval.search import feedback_vector

QUERY = np.array([1.0, 0.0, 0.0], dtype=np.float32)
NEIGHBOURS = np.array([[0.0, 1.0, 0.0], [0.6, 0.8, 0.0]], dtype=np.float32)


def test_the_moved_query_is_unit_length_and_nearer_its_neighbours():
    moved = feedback_vector(QUERY, NEIGHBOURS, 0.5)
    expected = QUERY + 0.5 * NEIGHBOURS.mean(axis=0)
    assert moved == pytest.approx(expected / np.linalg.norm(expected))
    assert np.linalg.norm(moved) == pytest.approx(1.0)
    assert moved.dtype == np.float32
    centroid = NEIGHBOURS.mean(axis=0)
    assert moved @ centroid > QUERY @ centroid
    # a larger weight moves it further
    assert feedback_vector(QUERY, NEIGHBOURS, 1.0) @ centroid > moved @ centroid


def test_no_neighbours_or_no_weight_leaves_the_query_as_it_is():
    assert feedback_vector(QUERY, np.zeros((0, 3), dtype=np.float32), 0.5) is QUERY
    assert feedback_vector(QUERY, NEIGHBOURS, 0.0) is QUERY
    opposite = -2 * QUERY.reshape(1, 3)  # q + 0.5 x (-2q) = 0 has no direction
    assert feedback_vector(QUERY, opposite, 0.5) is QUERY


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"feedback_chunks": -1}, "feedback_chunks"),
        ({"feedback_chunks": True}, "feedback_chunks"),
        ({"feedback_chunks": 2.5}, "feedback_chunks"),
        ({"feedback_weight": 1.5}, "feedback_weight"),
        ({"feedback_weight": -0.1}, "feedback_weight"),
    ],
)
def test_bad_feedback_settings_are_refused_by_name(engine, docs, changes, field):
    engine.ingest(docs)
    with pytest.raises(ConfigError, match=field):
        engine.searcher(**changes)
    with pytest.raises(ConfigError, match=field):
        Config(data_dir="unused", **changes)
    assert engine.stats().documents == 3  # nothing stored was touched
    assert engine.search("pump seal", mode="hybrid", k=1)[0].document_id == "pump-cp200"


def test_off_by_default():
    assert Config(data_dir="unused").feedback_chunks == 0


def test_hybrid_search_with_feedback_scores_by_the_moved_query(engine, docs, real_embedder):
    engine.ingest(docs)
    query = "how often should the pump seal be replaced"
    plain = engine.searcher().search(query, mode="hybrid", k=3)
    searcher = engine.searcher(feedback_chunks=2, feedback_weight=0.5)
    hits = searcher.search(query, mode="hybrid", k=3)
    assert hits[0].document_id == "pump-cp200"
    # the vector score is the cosine to q moved toward the two nearest chunks
    index = searcher._index
    q = real_embedder.embed([query])[0]
    nearest = [c for c, _ in index.search(q, 2)]
    moved = feedback_vector(q, index.vectors(nearest), 0.5)
    for hit in hits:
        stored = index.vectors([hit.chunk_id])[0]
        assert hit.scores["vector"] == pytest.approx(float(stored @ moved), abs=1e-4)
    # without feedback it is the cosine to the query itself, which differs
    assert plain[0].scores["vector"] == pytest.approx(
        float(index.vectors([plain[0].chunk_id])[0] @ q), abs=1e-4
    )
    assert plain[0].scores["vector"] != pytest.approx(hits[0].scores["vector"], abs=1e-4)


def test_feedback_keeps_to_the_filters(engine, docs):
    engine.ingest(docs)
    searcher = engine.searcher(feedback_chunks=3, feedback_weight=1.0)
    only = SearchFilters(knowledge_bases=("regulations",))
    hits = searcher.search("pump seal replacement", mode="hybrid", k=5, filters=only)
    assert hits and {h.document_id for h in hits} == {"rule-loto"}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what does error E4027 mean on the press", "press-hp400"),
        ("isolate energy sources and apply a personal lock before servicing", "rule-loto"),
    ],
)
def test_feedback_still_ranks_the_right_document_first(engine, docs, query, expected):
    engine.ingest(docs)
    searcher = engine.searcher(feedback_chunks=2, feedback_weight=0.5)
    assert searcher.search(query, mode="hybrid", k=3)[0].document_id == expected
