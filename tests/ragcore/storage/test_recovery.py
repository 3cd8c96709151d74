"""A missing, corrupt or stale vector index is rebuilt; unusable stores fail clearly."""

from __future__ import annotations

import logging
import sqlite3

import pytest
from conftest import make_docs

from ragcore import Config, Document, Engine
from ragcore.errors import InvalidDocumentError, StoreError
from ragcore.inference.embedder import HashEmbedder


def _engine(path, dimension=64):
    return Engine(Config(data_dir=path), embedder=HashEmbedder(dimension))


@pytest.fixture
def built(tmp_path):
    with _engine(tmp_path) as engine:
        engine.ingest(make_docs())
    return tmp_path


def _index_file(path):
    [found] = path.glob("vectors-*.hnsw")
    return found


def _reopen_expect_rebuild(path, caplog, words):
    with caplog.at_level(logging.WARNING, logger="ragcore.storage"), _engine(path) as engine:
        assert (
            engine.search("E4027 hydraulic oil pressure press", mode="vector", k=1)[0].document_id
            == "press-hp400"
        )
        assert len(engine._vectors.index) == engine.stats().chunks
    assert any(
        words in r.getMessage() and "rebuilding" in r.getMessage() for r in caplog.records
    ), [r.getMessage() for r in caplog.records]


def test_missing_index_is_rebuilt(built, caplog):
    _index_file(built).unlink()
    _reopen_expect_rebuild(built, caplog, "missing")


@pytest.mark.parametrize("damage", ["flip", "truncate"])
def test_corrupt_index_is_rebuilt(built, caplog, damage):
    path = _index_file(built)
    data = bytearray(path.read_bytes())
    if damage == "flip":
        data[len(data) // 2] ^= 0xFF
    else:
        del data[len(data) // 3 :]
    path.write_bytes(bytes(data))
    _reopen_expect_rebuild(built, caplog, "corrupt")


def test_stale_index_is_rebuilt(built, caplog):
    db = sqlite3.connect(built / "ragcore.sqlite3")
    with db:
        db.execute("UPDATE meta SET value = '1' WHERE key = 'index_data_version'")
    db.close()
    _reopen_expect_rebuild(built, caplog, "out of step")


def test_stray_index_files_are_removed(built):
    stray = built / "vectors-deadbeef0000.hnsw"
    stray.write_bytes(b"left by a crash")
    with _engine(built) as engine:
        engine.search("pump", k=1)
    assert not stray.exists() and len(list(built.glob("vectors-*.hnsw"))) == 1


def test_other_embedder_is_refused(built):
    with pytest.raises(StoreError, match="built with embedder HashEmbedder/64"):
        _engine(built, dimension=32).search("pump", k=1)


def test_not_a_database(tmp_path):
    (tmp_path / "ragcore.sqlite3").write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="is not an SQLite database"):
        _engine(tmp_path).stats()


def test_changed_migration_is_refused(built):
    db = sqlite3.connect(built / "ragcore.sqlite3")
    with db:
        db.execute("UPDATE schema_migrations SET sha256 = 'x'")
    db.close()
    with pytest.raises(StoreError, match="differs from the one applied"):
        _engine(built).stats()


def _snapshot(engine):
    conn = engine.store._r
    return (
        conn.execute("SELECT id, checksum FROM documents ORDER BY id").fetchall(),
        conn.execute("SELECT count(*) FROM chunks").fetchone()[0],
        conn.execute("SELECT count(*) FROM chunks_fts").fetchone()[0],
        len(engine._vectors.index),
        engine.store.data_version(),
    )


@pytest.mark.parametrize(
    "bad",
    [
        Document(id="x1", text="fine", authority=9),
        Document(id="x2", text="   "),
        Document(id="bad id", text="text"),
        Document(id="pump-cp200", text="a changed text", knowledge_base="Not Valid"),
        "not a document",
    ],
)
def test_bad_document_changes_nothing(built, bad):
    with _engine(built) as engine:
        before = _snapshot(engine)
        good = Document(id="new-good", text="A perfectly good new document.")
        changed = Document(id="pump-cp200", text="A new text for an existing document.")
        with pytest.raises(InvalidDocumentError):
            engine.ingest([good, changed, bad])
        assert _snapshot(engine) == before


def test_duplicate_id_in_one_ingest_changes_nothing(built):
    with _engine(built) as engine:
        before = _snapshot(engine)
        with pytest.raises(InvalidDocumentError, match="appears twice"):
            engine.ingest([Document(id="d", text="one"), Document(id="d", text="two")])
        assert _snapshot(engine) == before
