"""Several engines on one data directory (``ragcore serve --processes N`` runs one per
process): each keeps its own vector index, and sees the others' writes before a search."""

from __future__ import annotations

import logging
import sqlite3

import pytest
from conftest import make_docs

from ragcore import Config, Document, Engine
from ragcore.errors import InvalidDocumentError
from ragcore.inference.embedder import HashEmbedder

VALVE = Document(
    id="valve-gv10",
    knowledge_base="manuals",
    title="GV-10 gate valve",
    text="The GV-10 gate valve closes in 14 turns; grease the stem every 500 cycles.",
)
PUMP = Document(
    id="pump-dp5",
    knowledge_base="manuals",
    title="DP-5 dosing pump",
    text="The DP-5 dosing pump meters 0.5 to 12 L/h of sodium hypochlorite.",
)


def _engine(path) -> Engine:
    return Engine(Config(data_dir=path), embedder=HashEmbedder(64))


@pytest.fixture
def pair(tmp_path):
    with _engine(tmp_path) as first:
        first.ingest(make_docs())
    a, b = _engine(tmp_path), _engine(tmp_path)
    for engine in (a, b):  # both load their index before the other writes
        assert engine.search("pump", mode="vector", k=1)
    yield a, b
    a.close()
    b.close()


def _top(engine: Engine, query: str) -> str:
    return engine.search(query, mode="vector", k=1)[0].document_id


def _recorded(path) -> tuple[str, str]:
    db = sqlite3.connect(path / "ragcore.sqlite3")
    try:
        rows = dict(db.execute("SELECT key, value FROM meta").fetchall())
    finally:
        db.close()
    return rows["index_data_version"], rows["data_version"]


def test_an_ingest_through_one_engine_is_found_through_the_other(pair):
    a, b = pair
    assert _top(b, VALVE.text) != VALVE.id
    a.ingest([VALVE])
    assert _top(b, VALVE.text) == VALVE.id
    assert len(b._vectors.index) == b.stats().chunks


def test_a_delete_through_one_engine_is_gone_from_the_other(pair):
    a, b = pair
    a.ingest([VALVE])
    assert _top(b, VALVE.text) == VALVE.id
    a.delete(VALVE.id)
    assert all(hit.document_id != VALVE.id for hit in b.search(VALVE.text, mode="vector"))
    assert len(b._vectors.index) == b.stats().chunks


def test_a_write_from_a_stale_engine_catches_up_and_records_a_true_version(pair, tmp_path, caplog):
    a, b = pair
    a.ingest([VALVE])  # b has not searched since: its index lacks the valve
    b.ingest([PUMP])
    for engine in (a, b):
        assert _top(engine, VALVE.text) == VALVE.id
        assert _top(engine, PUMP.text) == PUMP.id
        assert len(engine._vectors.index) == engine.stats().chunks
    stamp, version = _recorded(tmp_path)
    assert stamp == version
    with caplog.at_level(logging.WARNING, logger="ragcore.storage"), _engine(tmp_path) as c:
        assert _top(c, VALVE.text) == VALVE.id and _top(c, PUMP.text) == PUMP.id
    assert not [r for r in caplog.records if "rebuilding" in r.getMessage()]


def test_a_bad_document_through_one_engine_leaves_both_intact(pair):
    a, b = pair
    before = b.stats().chunks
    with pytest.raises(InvalidDocumentError):
        a.ingest([VALVE, Document(id="empty", knowledge_base="manuals", text="")])
    assert a.stats().chunks == b.stats().chunks == before
    assert len(b._vectors.index) == before
    stamp, version = _recorded(b.config.data_dir)
    assert stamp == version


def test_a_write_a_search_caught_up_with_first_is_counted_once(tmp_path):
    # A search on another thread may refresh the index between the write's commit and
    # the writer's own update of it; the chunk must not be counted twice (the recorded
    # count would then exceed the database's chunks and `check` would call for a rebuild).
    from ragcore.ingest.pipeline import ChunkingPolicy, Ingestor
    from ragcore.stores import open_vectors

    with _engine(tmp_path) as engine:
        engine.ingest(make_docs())
        vectors = open_vectors(engine.store, engine.embedder.dimension, engine.config)

        def refreshed_first(result, added):
            vectors.refresh()  # what a concurrent search does once the write committed
            vectors.apply(result, added)

        policy = ChunkingPolicy(engine.embedder.max_tokens, 0, True, 1_000_000)
        Ingestor(engine.store, engine.embedder, policy, refreshed_first).ingest([VALVE, PUMP])
        vectors.save()
        assert len(vectors.index) == engine.store.counts()["chunks"]
        assert engine.check().ok, engine.check().problems
