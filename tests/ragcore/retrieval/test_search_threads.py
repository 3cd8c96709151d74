"""The engine's search threads (a hybrid query is embedded while its keyword passes run)
start on first use, give the same hits as a search without them, and end with the engine."""

from __future__ import annotations

import threading

from ragcore import Config, Engine
from ragcore.retrieval.search import Searcher


def _search_threads(before: set[threading.Thread]) -> set[threading.Thread]:
    return {
        t for t in threading.enumerate() if t.name.startswith("ragcore-search") and t not in before
    }


def test_search_threads_start_on_use_and_end_with_the_engine(tmp_path, real_embedder, docs):
    before = set(threading.enumerate())
    engine = Engine(Config(data_dir=tmp_path / "data"), embedder=real_embedder)
    engine.ingest(docs)
    assert not _search_threads(before)  # none before the first search (serve --processes forks)
    query = "how often should the pump seal be replaced"
    first = [(h.chunk_id, dict(h.scores)) for h in engine.search(query, k=3)]
    started = _search_threads(before)
    assert started
    engine.close()
    assert not any(t.is_alive() for t in started)
    # The engine opens again on use, with threads of its own.
    again = [(h.chunk_id, dict(h.scores)) for h in engine.search(query, k=3)]
    assert again == first
    engine.close()
    assert not any(t.is_alive() for t in _search_threads(before))


def test_overlapped_embedding_gives_the_same_hits(engine, docs):
    engine.ingest(docs)
    overlapped = engine.searcher()
    alone = Searcher(
        engine.store, engine.searcher()._index, engine.embedder, engine.config, None, None
    )
    for query in (
        "what does error E4027 mean on the press",
        "isolate energy sources and apply a personal lock before servicing",
        "zzzz unmatched words only",
    ):
        got = [(h.chunk_id, dict(h.scores)) for h in overlapped.search(query, k=5)]
        expected = [(h.chunk_id, dict(h.scores)) for h in alone.search(query, k=5)]
        assert got == expected, query
