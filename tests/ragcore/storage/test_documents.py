"""Stored documents as resources: full records, paged listings, deleting a knowledge base."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from conftest import make_docs

from ragcore import Config, Document, Engine
from ragcore.errors import InvalidQueryError, KnowledgeBaseNotFoundError
from ragcore.inference.embedder import HashEmbedder


@pytest.fixture
def engine(tmp_path):
    with Engine(Config(data_dir=tmp_path / "data"), embedder=HashEmbedder()) as eng:
        eng.ingest(make_docs())
        yield eng


def _many(n: int, kb: str = "bulk") -> list[Document]:
    return [
        Document(id=f"{kb}-{i:03d}", knowledge_base=kb, text=f"Note {i} on pumps.")
        for i in range(n)
    ]


def test_a_record_holds_all_the_metadata_and_the_links_both_ways(engine):
    newer = replace(
        make_docs()[0],
        id="pump-cp200-v3",
        version=3,
        supersedes="pump-cp200",
        metadata={"line": "A"},
    )
    engine.ingest([newer])
    old, new = engine.document("pump-cp200"), engine.document("pump-cp200-v3")
    assert old.superseded_by == ("pump-cp200-v3",) and new.supersedes == "pump-cp200"
    assert (new.version, new.metadata, new.knowledge_base) == (3, {"line": "A"}, "manuals")
    assert new.chunk_count == len(engine.store.chunk_ids_of("pump-cp200-v3")) >= 1
    assert new.checksum == newer.checksum
    assert new.ingested_at.tzinfo is not None
    assert abs(new.ingested_at - datetime.now(UTC)) < timedelta(minutes=5)


def test_pages_cover_every_document_once_even_while_others_are_ingested(engine):
    engine.ingest(_many(25))
    seen, token, pages = [], None, 0
    while True:
        page = engine.list_documents(page_size=7, page_token=token)
        seen += [d.id for d in page.documents]
        pages += 1
        if pages == 2:  # a concurrent writer adds and changes documents mid-listing
            engine.ingest(_many(3, "late") + [replace(make_docs()[1], text="Changed text.")])
        token = page.next_page_token
        if token is None:
            break
    before = {d.id for d in make_docs()} | {d.id for d in _many(25)}
    assert before <= set(seen)
    # only a document changed mid-listing may come twice (again at the end, being newer)
    assert {i for i in seen if seen.count(i) > 1} <= {"press-hp400"}
    assert [d.id for d in engine.list_documents(knowledge_base="regulations").documents] == [
        "rule-loto"
    ]


def test_updated_since_lists_what_was_added_or_changed_since(engine):
    later = datetime.now(UTC) + timedelta(seconds=1)
    assert engine.list_documents(updated_since=later).documents == ()
    moment = engine.document("rule-loto").ingested_at
    listed = engine.list_documents(updated_since=moment)
    assert {d.id for d in listed.documents} == {d.id for d in make_docs()}  # inclusive
    with pytest.raises(InvalidQueryError, match="time zone"):
        engine.list_documents(updated_since=datetime(2026, 1, 1))


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ({"page_size": 0}, "page_size"),
        ({"page_size": 1001}, "page_size"),
        ({"page_size": True}, "page_size"),
        ({"page_token": "not a token"}, "page_token"),
        ({"page_token": "eyJ4IjoxfQ"}, "page_token"),  # base64 of {"x":1}
    ],
)
def test_bad_listing_arguments_are_invalid_queries(engine, arguments, words):
    with pytest.raises(InvalidQueryError, match=words):
        engine.list_documents(**arguments)


def test_a_token_belongs_to_its_listing(engine):
    token = engine.list_documents(page_size=1).next_page_token
    assert token is not None
    with pytest.raises(InvalidQueryError, match="another knowledge_base"):
        engine.list_documents(page_size=1, page_token=token, knowledge_base="manuals")


def test_deleting_a_knowledge_base_removes_it_from_every_index(engine):
    chunks = {c for d in ("pump-cp200", "press-hp400") for c in engine.store.chunk_ids_of(d)}
    assert engine.delete_knowledge_base("manuals") == 2
    assert [kb.name for kb in engine.knowledge_bases()] == ["regulations"]
    assert engine.stats().documents == 1 and engine.stats().vectors == engine.stats().chunks
    with sqlite3.connect(engine.store.path) as db:
        assert db.execute(
            "SELECT count(*) FROM documents WHERE knowledge_base = 'manuals'"
        ).fetchone() == (0,)
        marks = ",".join("?" * len(chunks))
        assert db.execute(
            f"SELECT count(*) FROM chunks_fts WHERE rowid IN ({marks})", list(chunks)
        ).fetchone() == (0,)
    hits = engine.search("CP-200 pump seal", mode="vector", k=10)
    assert {h.document_id for h in hits} == {"rule-loto"}
    assert engine.search("pump seal", mode="keyword") == []
    with pytest.raises(KnowledgeBaseNotFoundError, match="'manuals'.*known: regulations"):
        engine.delete_knowledge_base("manuals")
    assert engine.check().ok


def test_an_emptied_knowledge_base_is_no_longer_listed(engine):
    engine.delete("rule-loto")
    assert [kb.name for kb in engine.knowledge_bases()] == ["manuals"]
    assert engine.stats().knowledge_bases == 1


def test_listing_and_deleting_at_once_stay_consistent(engine):
    engine.ingest(_many(40))
    errors: list[BaseException] = []

    def lister() -> None:
        try:
            for _ in range(20):
                page = engine.list_documents(page_size=50)
                assert all(d.chunk_count >= 1 for d in page.documents)
        except BaseException as error:  # handed to the test's thread
            errors.append(error)

    thread = threading.Thread(target=lister)
    thread.start()
    engine.delete_knowledge_base("bulk")
    thread.join()
    assert not errors
    assert engine.stats().documents == 3


def test_ingest_path_reports_the_files_it_skipped(engine, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "note.txt").write_text("Drain the tank daily.", "utf-8")
    (folder / "scan.tiff").write_bytes(b"II*\x00")  # .pdf is read since issue 26
    report = engine.ingest_path(folder, knowledge_base="manuals")
    assert report.count("added") == 1
    [skipped] = report.skipped
    assert (skipped.path, skipped.reason) == (str(folder / "scan.tiff"), "unsupported_type")
