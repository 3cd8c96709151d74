"""Damage is a StoreError that says what and what to do; check, backup and rebuild-index.

The database is damaged the ways an outside run and real disks do it: its last pages
overwritten, the file cut short, its header replaced, a keyword index broken, the
vector index out of step. No sqlite3 error may reach the caller.
"""

from __future__ import annotations

import os
import sqlite3
import threading

import pytest
from conftest import make_docs

from ragcore import Config, Document, Engine
from ragcore.errors import InvalidInputError, StoreError
from ragcore.evaluation.sample import sample_documents
from ragcore.inference.embedder import HashEmbedder
from ragcore.storage.store import DATABASE_NAME
from ragcore.types import StoreCheck

PAGE = 4096


def _engine(path) -> Engine:
    return Engine(Config(data_dir=path), embedder=HashEmbedder())


@pytest.fixture
def built(tmp_path):
    path = tmp_path / "data"
    with _engine(path) as engine:
        engine.ingest(sample_documents())
    return path


def _overwrite_last_pages(path, pages: int = 8) -> None:
    database = path / DATABASE_NAME
    size = database.stat().st_size
    with database.open("r+b") as handle:
        handle.seek(size - pages * PAGE)
        handle.write(os.urandom(pages * PAGE))


def test_overwritten_last_pages_are_named_on_open(built):
    _overwrite_last_pages(built)
    with _engine(built) as engine, pytest.raises(StoreError) as caught:
        engine.search("seal", mode="keyword")
    message = str(caught.value)
    assert "is damaged" in message and "table " in message  # which table, which pages
    assert "ragcore check" in message and "backup" in message
    assert not isinstance(caught.value.__cause__, type(None))  # translated with "from"


def test_damage_met_while_serving_is_a_store_error_too(built):
    """Pages go bad under an open store: the first read of them says so (no raw sqlite3)."""
    with _engine(built) as engine:
        assert engine.search("seal", mode="keyword", k=1)  # open, warm
        _overwrite_last_pages(built, pages=40)
        errors: list[BaseException] = []

        def search() -> None:  # a new thread reads through a new connection: no cache
            try:
                for query in ("seal", "pressure", "compressor", "inspection"):
                    engine.search(query, mode="keyword", k=50)
                    engine.list_documents(page_size=1000)
            except BaseException as error:  # handed to the test's thread
                errors.append(error)

        thread = threading.Thread(target=search)
        thread.start()
        thread.join()
        assert len(errors) == 1 and isinstance(errors[0], StoreError), errors
        assert "damaged" in str(errors[0]) and "ragcore check" in str(errors[0])
        report = engine.check()
        assert not report.ok and report.findings[0].check == StoreCheck.SQLITE
        assert "restore" in report.findings[0].fix


def test_a_truncated_or_foreign_file_is_refused_on_open_from_its_header(built):
    database = built / DATABASE_NAME
    original = database.read_bytes()
    database.write_bytes(original[: len(original) // 2])
    with _engine(built) as engine, pytest.raises(StoreError, match="truncated"):
        engine.stats()
    database.write_bytes(b"\0" * 100 + original[100:])
    with _engine(built) as engine, pytest.raises(StoreError, match="not an SQLite database"):
        engine.stats()


def test_a_broken_keyword_index_is_found_by_check_and_is_a_store_error_in_search(built):
    with sqlite3.connect(built / DATABASE_NAME) as db:
        db.execute("DELETE FROM chunks_fts_data WHERE id > 10")
    with _engine(built) as engine:
        with pytest.raises(StoreError, match="damaged"):
            engine.search("seal pressure compressor", mode="keyword")
        report = engine.check()
        by_check = {f.check: f for f in report.findings}
        assert by_check[StoreCheck.SQLITE].ok
        assert not by_check[StoreCheck.KEYWORD_INDEX].ok
        assert "chunks_fts" in by_check[StoreCheck.KEYWORD_INDEX].detail


def test_check_finds_an_out_of_step_vector_index_and_rebuild_index_mends_it(built):
    with _engine(built) as engine:
        report = engine.check()
        assert report.ok, report.problems
        assert [f.check for f in report.findings] == list(StoreCheck)
        chunks = engine.stats().chunks
    with sqlite3.connect(built / DATABASE_NAME) as db:
        db.execute("UPDATE meta SET value = '1' WHERE key = 'index_data_version'")
        # every stored embedding now differs from the index's vector
        db.execute("UPDATE chunks SET embedding = zeroblob(length(embedding))")
    with _engine(built) as engine:
        by_check = {f.check: f for f in engine.check().findings}
        assert not by_check[StoreCheck.INDEX_STAMP].ok
        assert not by_check[StoreCheck.VECTORS].ok
        assert "rebuild-index" in by_check[StoreCheck.VECTORS].fix
        assert engine.rebuild_index() == chunks
        assert engine.check().ok
        assert engine.rebuild_index() == chunks  # again, with the index already open
        assert engine.check().ok


def test_a_missing_index_file_is_reported(built):
    for file in built.glob("vectors-*.hnsw"):
        file.unlink()
    with _engine(built) as engine:
        [*_, index] = engine.check().findings
        assert index.check == StoreCheck.INDEX_FILE and "missing" in index.detail


def test_a_backup_taken_while_serving_is_consistent(built, tmp_path):
    with _engine(built) as engine:
        stop = threading.Event()
        errors: list[BaseException] = []

        def search() -> None:
            try:
                while not stop.is_set():
                    engine.search("seal interval", k=5)
            except BaseException as error:  # handed to the test's thread
                errors.append(error)

        def ingest() -> None:
            try:
                for i in range(5):
                    engine.ingest([Document(id=f"late-{i}", text=f"Late note {i} on seals.")])
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=search), threading.Thread(target=ingest)]
        for thread in threads:
            thread.start()
        report = engine.backup(tmp_path / "backup")
        dest = report.dest
        assert report.ok and not report.index_rebuilt
        stop.set()
        for thread in threads:
            thread.join()
        assert not errors
        with pytest.raises(InvalidInputError, match="not an empty directory"):
            engine.backup(dest)
    with _engine(dest) as copy:
        report = copy.check()
        assert report.ok, report.problems  # the index file is the one the database records
        documents = copy.stats().documents
        assert len(sample_documents()) <= documents <= len(sample_documents()) + 5
        assert copy.search("seal interval", k=1)


def test_backup_refuses_the_data_directory_itself(tmp_path):
    with _engine(tmp_path / "data") as engine:
        engine.ingest(make_docs())
        with pytest.raises(InvalidInputError):
            engine.backup(tmp_path / "data")
