"""The document-level FTS5 index (migration 0002): in step on ingest, update, delete,
rejected input and a killed ingest; built for stores made before it; used by hybrid search."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import make_docs

from ragcore import Config, Document, Engine, SearchFilters
from ragcore.errors import InvalidDocumentError
from ragcore.inference.embedder import HashEmbedder
from ragcore.retrieval.search import fts_query

WORKER = Path(__file__).parents[1] / "storage" / "ingest_worker.py"
WORKER_DIMENSION = 256  # the worker's HashEmbedder

# Three chunks of HashEmbedder tokens (budget 24); "quorvane" and "taldrix" land in
# different chunks, so only the document as a whole holds both.
LONG = Document(
    id="long-manual",
    knowledge_base="manuals",
    title="Kiln service manual",
    text="The kiln door seal is quorvane rope and wears at the hinge side first. "
    "Inspect the burner nozzles every month and clean them with a soft brush. "
    "Check the thermocouple reading against a reference probe twice a year. "
    "The exhaust damper uses taldrix bearings that need grease each quarter.",
)


def _engine(path: Path, dimension: int = 64, **config) -> Engine:
    return Engine(
        Config(data_dir=path, chunk_tokens=24, chunk_overlap=0, **config),
        embedder=HashEmbedder(dimension),
    )


def _assert_in_step(engine: Engine) -> None:
    """One row per document, keyed by its first chunk, holding its current title and text."""
    conn = engine.store._r
    rows = conn.execute(
        "SELECT c.document_id, c.position, f.title, f.body FROM documents_fts f "
        "LEFT JOIN chunks c ON c.id = f.rowid"
    ).fetchall()
    assert all(position == 0 for _, position, _, _ in rows), rows
    documents = conn.execute("SELECT id, title, text FROM documents").fetchall()
    assert sorted((d, t, b) for d, _, t, b in rows) == sorted(documents)


def _document_hits(engine: Engine, words: str, **filters) -> list[str]:
    store = engine.store
    found = store.document_keyword_search(fts_query(words), SearchFilters(**filters), 10)
    return [store.chunks([first])[first].document_id for first, _ in found]


def test_ingest_indexes_each_document_once(tmp_path):
    with _engine(tmp_path) as engine:
        engine.ingest([*make_docs(), LONG])
        assert len(engine.store.chunk_ids_of("long-manual")) >= 3
        _assert_in_step(engine)
        # Words from different chunks: the whole document matches both.
        top = engine.store.document_keyword_search(
            fts_query("quorvane taldrix"), SearchFilters(), 5
        )
        assert top[0][0] == engine.store.chunk_ids_of("long-manual")[0]
        assert _document_hits(engine, "kiln", knowledge_bases=("regulations",)) == []
        assert _document_hits(engine, "kiln", knowledge_bases=("manuals",)) == ["long-manual"]


def test_update_and_delete_keep_it_in_step(tmp_path):
    with _engine(tmp_path) as engine:
        engine.ingest([*make_docs(), LONG])
        changed = Document(
            id="long-manual",
            knowledge_base="manuals",
            title="Kiln manual, revision 2",
            text="The kiln door seal is now ceramic braid.",
        )
        assert engine.ingest([changed]).count("updated") == 1
        _assert_in_step(engine)
        assert _document_hits(engine, "quorvane") == []
        assert _document_hits(engine, "ceramic braid") == ["long-manual"]
        engine.delete("long-manual")
        _assert_in_step(engine)
        assert _document_hits(engine, "kiln ceramic") == []


def test_rejected_ingest_changes_nothing(tmp_path):
    with _engine(tmp_path) as engine:
        engine.ingest(make_docs())
        before = engine.store._r.execute("SELECT rowid, title, body FROM documents_fts").fetchall()
        changed = Document(id="pump-cp200", text="A new text for an existing document.")
        with pytest.raises(InvalidDocumentError):
            engine.ingest([LONG, changed, Document(id="bad id", text="text")])
        after = engine.store._r.execute("SELECT rowid, title, body FROM documents_fts").fetchall()
        assert after == before
        _assert_in_step(engine)


def test_a_store_made_before_the_migration_gets_its_documents_indexed(tmp_path):
    with _engine(tmp_path) as engine:
        engine.ingest([*make_docs(), LONG])
    # Take the store back to schema 1, as a store made by an older ragcore would be.
    db = sqlite3.connect(tmp_path / "ragcore.sqlite3")
    with db:
        db.execute("DROP TRIGGER documents_fts_insert")
        db.execute("DROP TRIGGER documents_fts_delete")
        db.execute("DROP TABLE documents_fts")
        db.execute("DELETE FROM schema_migrations WHERE version = 2")
    db.close()
    with _engine(tmp_path) as engine:
        _assert_in_step(engine)
        versions = engine.store._r.execute("SELECT version FROM schema_migrations").fetchall()
        assert (2,) in versions
        assert _document_hits(engine, "quorvane taldrix") == ["long-manual"]


@pytest.mark.integration
@pytest.mark.process
def test_a_killed_ingest_leaves_it_in_step(tmp_path):
    data_dir = tmp_path / "data"
    command = [sys.executable, str(WORKER), str(data_dir), "3000", "hash"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as process:
        try:
            for line in process.stdout or ():
                if int(line) >= 100:
                    break
            process.send_signal(signal.SIGKILL)
        finally:
            process.wait(timeout=60)
    assert process.returncode == -signal.SIGKILL
    with _engine(data_dir, dimension=WORKER_DIMENSION) as engine:
        committed = engine.store.document_ids()
        assert 100 <= len(committed) < 3000
        _assert_in_step(engine)


def test_hybrid_search_uses_the_document_signal(tmp_path):
    with _engine(tmp_path, document_keyword_weight=0.5) as engine:
        engine.ingest([*make_docs(), LONG])
        hits = engine.search("quorvane seal and taldrix bearings", k=3)
        assert hits[0].document_id == "long-manual"
        assert hits[0].scores["document_keyword"] > 0
        assert {h.document_id for h in hits} == {"long-manual"}
        filtered = engine.search(
            "quorvane taldrix", k=3, filters=SearchFilters(knowledge_bases=("regulations",))
        )
        assert all(h.document_id == "rule-loto" for h in filtered)


@pytest.mark.process
def test_concurrent_hybrid_searches_match_serial_ones(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    queries = ["quorvane seal", "pump seal hours", "E4027 pressure", "lock energy", "kiln"] * 4
    with _engine(tmp_path) as engine:
        engine.ingest([*make_docs(), LONG])

        def ranked(query):
            return [(h.chunk_id, round(h.score, 9)) for h in engine.search(query, k=5)]

        serial = [ranked(q) for q in queries]
        with ThreadPoolExecutor(8) as pool:
            assert list(pool.map(ranked, queries)) == serial
