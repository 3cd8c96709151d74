"""A data directory written by ragcore 0.1.0 (schema 1) opens with every later migration.

``fixtures/compat-v1`` is committed as 0.1.0 wrote it (``fixtures/build_compat_v1.py``);
each test works on a copy. Whatever migrations the tree holds are applied on open, and
the documents, their links, search (keyword and vector), asking, checking and writing
must all still work — without the vector index being rebuilt.
"""

from __future__ import annotations

import logging
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
from conftest import TODAY

from ragcore import Config, Document, Engine
from ragcore.storage.schema import _migrations

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "compat-v1"
sys.path.insert(0, str(FIXTURE.parent))
from build_compat_v1 import DOCUMENTS, SCHEMA_VERSION  # noqa: E402


@pytest.fixture
def old_store(tmp_path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(FIXTURE, copy)
    with sqlite3.connect(copy / "ragcore.sqlite3") as db:
        applied = [r[0] for r in db.execute("SELECT version FROM schema_migrations")]
    assert applied == [SCHEMA_VERSION]  # the fixture is still what 0.1.0 wrote
    return copy


@pytest.mark.model
def test_an_old_store_is_migrated_and_reads_as_before(old_store, caplog):
    config = Config(data_dir=old_store)  # the default: the store keeps its own embedder
    with (
        caplog.at_level(logging.WARNING, logger="ragcore"),
        Engine(config, clock=lambda: TODAY) as engine,
    ):
        assert engine.stats().documents == len(DOCUMENTS)
        for doc in DOCUMENTS:
            record = engine.document(doc.id)
            assert (record.title, record.knowledge_base, record.checksum) == (
                doc.title,
                doc.knowledge_base,
                doc.checksum,
            )
            assert dict(record.metadata) == dict(doc.metadata)
        assert engine.document("manual-cp200-v1").superseded_by == ("manual-cp200-v2",)

        top = engine.search("hydraulic oil pressure error", mode="vector", k=1)
        assert top[0].document_id == "faq-e4027"
        assert (top[0].section, top[0].pages) == ("", None)  # stored before sections were
        assert engine.search("lockout", mode="keyword", k=1)[0].document_id == "reg-loto-2024"
        answer = engine.ask("How often should the CP-200 seal be replaced?")
        assert answer.status == "ok" and "3000" in answer.text
        report = engine.check()
        assert report.ok, report.problems
    assert not [r for r in caplog.records if "rebuilding" in r.getMessage()]
    with sqlite3.connect(old_store / "ragcore.sqlite3") as db:
        applied = [r[0] for r in db.execute("SELECT version FROM schema_migrations")]
    assert applied == [version for version, _, _ in _migrations()]


@pytest.mark.model
def test_an_old_store_takes_writes_after_the_migration(old_store):
    with Engine(Config(data_dir=old_store)) as engine:
        engine.ingest([Document(id="new-note", text="The CP-200 runs quietly.")])
        assert engine.delete("manual-cp200-v1") >= 1
        assert engine.delete_knowledge_base("faq") == 1
        assert {kb.name for kb in engine.knowledge_bases()} == {"default", "manuals", "regulations"}
        assert engine.search("runs quietly", mode="keyword", k=1)[0].document_id == "new-note"
        assert engine.check().ok
