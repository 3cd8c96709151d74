"""Hybrid search takes the exact cosines of its candidates from the stored embeddings
(``Store.vectors``), not from hnswlib's ``get_items``: the same floats, read faster."""

from __future__ import annotations

import numpy as np
import pytest


def _all_chunk_ids(engine, docs) -> list[int]:
    return [c for d in docs for c in engine.store.chunk_ids_of(d.id)]


def test_stored_vectors_are_the_index_vectors_bit_for_bit_in_the_order_asked(engine, docs):
    engine.ingest(docs)
    ids = _all_chunk_ids(engine, docs)
    asked = [*reversed(ids), ids[0]]  # any order, a repeat
    stored = engine.store.vectors(asked)
    assert stored.dtype == np.float32
    assert stored.shape == (len(asked), engine.embedder.dimension)
    assert np.array_equal(stored, engine.searcher()._index.vectors(asked))
    assert engine.store.vectors([]).shape[0] == 0


def test_a_deleted_chunk_reads_as_zeros_and_scores_zero(engine, docs):
    engine.ingest(docs)
    gone = engine.store.chunk_ids_of("press-hp400")
    kept = engine.store.chunk_ids_of("pump-cp200")
    engine.delete("press-hp400")
    vectors = engine.store.vectors([kept[0], *gone])
    assert not vectors[1:].any()
    assert np.array_equal(vectors[0], engine.searcher()._index.vectors(kept[:1])[0])
    # every chunk gone (deleted between finding and scoring): cosine 0, no error
    for doc in docs:
        if doc.id != "press-hp400":
            engine.delete(doc.id)
    query = engine.embedder.embed(["pump seal"])[0]
    assert engine.searcher()._cosines(kept, query) == dict.fromkeys(kept, 0.0)
    assert engine.stats().documents == 0


def test_hybrid_vector_scores_are_the_cosines_of_the_stored_vectors(engine, docs):
    engine.ingest(docs)
    query = "error E4027 relief valve"
    hits = engine.search(query, mode="hybrid", k=3)
    assert hits[0].document_id == "press-hp400"
    q = engine.embedder.embed([query])[0]
    for hit in hits:
        stored = engine.store.vectors([hit.chunk_id])[0]
        assert hit.scores["vector"] == pytest.approx(float(stored @ q), abs=1e-5)
