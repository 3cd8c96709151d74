"""The store contract, over both stores: SQLite (embedded) and PostgreSQL (a throw-away
server of the session, a fresh database per test).

Vector search is the one step that differs: SQLite's goes through the hnswlib index
beside the store (as ``Searcher`` does it, with ``filtered_chunk_ids``), PostgreSQL's
through pgvector inside the database.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

import numpy as np
import psycopg
import pytest

from ragcore.documents import Chunk, Document
from ragcore.errors import (
    ConfigError,
    DocumentNotFoundError,
    InvalidInputError,
    KnowledgeBaseNotFoundError,
    StoreError,
)
from ragcore.inference.embedder import HashEmbedder
from ragcore.retrieval.search import fts_query
from ragcore.scope import Scope
from ragcore.storage.filters import SearchFilters
from ragcore.storage.postgres import PostgresStore
from ragcore.storage.protocol import DocumentStore
from ragcore.storage.store import Store
from ragcore.storage.vector_index import HnswIndex

DIMENSION = 64
EMBEDDER = HashEmbedder(DIMENSION)
WORKER = Path(__file__).with_name("pg_ingest_worker.py")


def chunks_of(doc: Document) -> tuple[list[Chunk], np.ndarray]:
    """One chunk per sentence, embedded with the hash embedder."""
    chunks, start = [], 0
    for position, sentence in enumerate(s for s in doc.text.split(". ") if s):
        begin = doc.text.index(sentence, start)
        start = begin + len(sentence)
        chunks.append(Chunk(position, sentence, begin, start, (), 0.0))
    return chunks, EMBEDDER.embed([c.text for c in chunks])


def written(store: DocumentStore, docs: list[Document]):
    return store.write([(d, *chunks_of(d)) for d in docs])


@dataclass
class Backend:
    store: DocumentStore
    vector_search: Callable[[np.ndarray, SearchFilters, int], list[tuple[int, float]]]


# The postgres side starts a server (once per session): "process", out of make test-fast.
@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.process)])
def backend(request, tmp_path) -> Iterator[Backend]:
    if request.param == "sqlite":
        sqlite = Store(tmp_path / "data")

        def hnsw_search(vector, filters, k):
            index = HnswIndex(DIMENSION)
            for ids, vectors in sqlite.embeddings():
                index.add(ids, vectors)
            allowed = None if filters.empty else sqlite.filtered_chunk_ids(filters)
            return index.search(vector, k, allowed)

        yield Backend(sqlite, hnsw_search)
        sqlite.close()
    else:
        postgres = PostgresStore(request.getfixturevalue("postgres_url"), dimension=DIMENSION)
        yield Backend(postgres, postgres.vector_search)
        postgres.close()


def corpus() -> list[Document]:
    return [
        Document(
            id="pump-cp200",
            knowledge_base="manuals",
            title="CP-200 centrifugal pump",
            text="Prime the pump before starting. Error E4027 means the impeller is blocked.",
            source="Acme FAA manual",
            doc_type="manual",
            authority=4,
            updated_at=date(2024, 5, 1),
            metadata={"line": "A", "plant": "Köln"},
        ),
        Document(
            id="valve-v9",
            knowledge_base="manuals",
            title="V9 relief valve",
            text="The valve opens at twelve bar. Inspect the seals every month.",
            doc_type="procedure",
            authority=2,
            updated_at=date(2022, 1, 10),
        ),
        Document(
            id="memo-1",
            knowledge_base="memos",
            title="Shift memo",
            text="Night shift replaced a gasket. Nothing else to report.",
            doc_type="memo",
            authority=1,
        ),
    ]


def test_documents_round_trip_with_their_metadata_chunks_and_embeddings(backend):
    store = backend.store
    result = written(store, corpus())
    assert set(result.added) == {"pump-cp200", "valve-v9", "memo-1"}
    pump = store.documents(["pump-cp200", "nope"])
    assert list(pump) == ["pump-cp200"]
    info = pump["pump-cp200"]
    assert (info.title, info.source, info.doc_type, info.authority) == (
        "CP-200 centrifugal pump",
        "Acme FAA manual",
        "manual",
        4,
    )
    assert info.updated_at == date(2024, 5, 1) and info.metadata == {"line": "A", "plant": "Köln"}
    record = store.record("pump-cp200")
    assert record.chunk_count == 2 and record.ingested_at.tzinfo is not None
    chunk_ids = result.added["pump-cp200"]
    stored = store.chunks(chunk_ids)
    assert [stored[i].text for i in chunk_ids] == [c.text for c in chunks_of(corpus()[0])[0]]
    assert stored[chunk_ids[1]].start_byte == len(corpus()[0].text[: stored[chunk_ids[1]].start])
    vectors = dict(
        zip(
            np.concatenate([ids for ids, _ in store.embeddings()]).tolist(),
            np.concatenate([v for _, v in store.embeddings()]),
            strict=True,
        )
    )
    np.testing.assert_allclose(vectors[chunk_ids[0]], chunks_of(corpus()[0])[1][0], rtol=1e-6)
    assert store.counts() == {"knowledge_bases": 2, "documents": 3, "chunks": 6}
    assert store.knowledge_bases() == [("manuals", 2, 4), ("memos", 1, 2)]
    assert store.checksums(["memo-1", "nope"]) == {"memo-1": corpus()[2].checksum}


def test_a_documents_text_is_read_back_as_stored_within_the_scope(backend):
    store = backend.store
    written(store, corpus())
    pump = corpus()[0]
    assert store.text("pump-cp200") == pump.text
    chunk = store.chunks(store.chunk_ids_of("pump-cp200"))
    for stored in chunk.values():  # the chunks' offsets count in it
        assert pump.text[stored.start : stored.end] == stored.text
    assert store.within(Scope(knowledge_bases=frozenset({"manuals"}))).text("pump-cp200")
    for outside in (store.within(Scope(knowledge_bases=frozenset({"memos"}))), store):
        with pytest.raises(DocumentNotFoundError, match="nope|pump-cp200"):
            outside.text("nope" if outside is store else "pump-cp200")


def test_a_chunks_section_and_pages_are_stored_and_read_back_unknown_ones_as_unknown(backend):
    store = backend.store
    doc = corpus()[0]
    (first, second), vectors = chunks_of(doc)
    located = [
        replace(first, section="5 Maintenance > 5.3 Mechanical seal", pages=(42, 43)),
        replace(second, section="", pages=(7, 7)),
    ]
    plain = corpus()[1]
    result = store.write([(doc, located, vectors), (plain, *chunks_of(plain))])
    ids = result.added["pump-cp200"]
    stored = store.chunks([*ids, *result.added["valve-v9"]])
    assert (stored[ids[0]].section, stored[ids[0]].pages) == (
        "5 Maintenance > 5.3 Mechanical seal",
        (42, 43),
    )
    assert (stored[ids[1]].section, stored[ids[1]].pages) == ("", (7, 7))
    assert {(stored[i].section, stored[i].pages) for i in result.added["valve-v9"]} == {("", None)}
    (_, chunks, _, _), *_ = store.export(["pump-cp200"])
    assert chunks == located  # what a copy to another store carries


def test_a_page_range_that_runs_backwards_is_refused_and_nothing_is_written(backend):
    store = backend.store
    doc = corpus()[0]
    chunks, vectors = chunks_of(doc)
    backwards = [replace(chunks[0], pages=(9, 3)), *chunks[1:]]
    with pytest.raises(StoreError):
        store.write([(doc, backwards, vectors)])
    assert store.documents(["pump-cp200"]) == {} and store.counts()["chunks"] == 0


def test_update_replaces_chunks_and_delete_removes_everything(backend):
    store = backend.store
    first = written(store, corpus())
    before = store.data_version()
    changed = replace(corpus()[1], text="The valve opens at fifteen bar.", knowledge_base="memos")
    update = written(store, [changed])
    assert sorted(update.removed_chunk_ids) == sorted(first.added["valve-v9"])
    assert update.data_version > before
    assert store.chunks(first.added["valve-v9"]) == {}
    assert store.documents(["valve-v9"])["valve-v9"].knowledge_base == "memos"
    assert [kb for kb, *_ in store.knowledge_bases()] == ["manuals", "memos"]

    deleted = store.delete("valve-v9")
    assert deleted.removed_chunk_ids == update.added["valve-v9"]
    assert deleted.data_version > update.data_version
    with pytest.raises(DocumentNotFoundError):
        store.record("valve-v9")
    with pytest.raises(DocumentNotFoundError):
        store.delete("valve-v9")
    count, _ = store.delete_knowledge_base("memos")
    assert count == 1 and [kb for kb, *_ in store.knowledge_bases()] == ["manuals"]
    with pytest.raises(KnowledgeBaseNotFoundError, match="known: manuals"):
        store.delete_knowledge_base("memos")
    assert store.counts() == {"knowledge_bases": 1, "documents": 1, "chunks": 2}


def test_a_bad_write_is_refused_whole_and_leaves_the_store_as_it_was(backend):
    store = backend.store
    written(store, corpus()[:1])
    version = store.data_version()
    good = corpus()[1]
    bad = corpus()[2]
    chunks, vectors = chunks_of(bad)
    with pytest.raises((InvalidInputError, ValueError)):
        store.write([(good, *chunks_of(good)), (bad, chunks, vectors[:1])])
    assert store.documents(["valve-v9", "memo-1"]) == {}
    assert store.data_version() == version and store.counts()["chunks"] == 2


def test_filters_select_the_same_documents(backend):
    store = backend.store
    written(store, corpus())

    def documents(**fields) -> set[str]:
        ids = store.filtered_chunk_ids(SearchFilters(**fields))
        return {c.document_id for c in store.chunks(sorted(ids)).values()}

    assert documents(knowledge_bases=("memos",)) == {"memo-1"}
    assert documents(doc_types=("manual", "memo")) == {"pump-cp200", "memo-1"}
    assert documents(min_authority=2) == {"pump-cp200", "valve-v9"}
    assert documents(updated_after=date(2023, 1, 1)) == {"pump-cp200"}
    assert documents(updated_before=date(2023, 1, 1)) == {"valve-v9"}
    assert documents(sources=("faa",)) == {"pump-cp200"}
    assert documents(exclude_documents=("memo-1",)) == {"pump-cp200", "valve-v9"}
    scoped = store.within(Scope(frozenset({"memos"})))
    every = sorted(store.filtered_chunk_ids(SearchFilters()))
    assert {c.document_id for c in scoped.chunks(every).values()} == {"memo-1"}
    assert scoped.filtered_chunk_ids(SearchFilters()) == set(scoped.chunks(every))


def test_superseded_documents_are_excluded_only_when_asked(backend):
    store = backend.store
    written(store, corpus())
    newer = replace(corpus()[0], id="pump-cp200-v2", version=2, supersedes="pump-cp200")
    written(store, [newer])
    old = store.record("pump-cp200")
    assert old.superseded_by == ("pump-cp200-v2",)
    assert store.documents(["pump-cp200"])["pump-cp200"].superseded_by == "pump-cp200-v2"

    def documents(**fields) -> set[str]:
        ids = store.filtered_chunk_ids(SearchFilters(**fields))
        return {c.document_id for c in store.chunks(sorted(ids)).values()}

    assert "pump-cp200" in documents()
    assert "pump-cp200" not in documents(exclude_superseded=True)
    assert documents(only_superseded=True) == {"pump-cp200"}
    match = fts_query("impeller blocked")
    hits = store.keyword_search(match, SearchFilters(exclude_superseded=True), 10)
    assert {c.document_id for c in store.chunks([i for i, _ in hits]).values()} == {"pump-cp200-v2"}


def test_keyword_search_finds_by_title_and_by_text_with_stemming(backend):
    store = backend.store
    result = written(store, corpus())
    by_text = store.keyword_search(fts_query("seals inspected"), SearchFilters(), 5)
    assert by_text and by_text[0][0] == result.added["valve-v9"][1]
    by_title = store.keyword_search(fts_query("centrifugal"), SearchFilters(), 5)
    assert {i for i, _ in by_title} == set(result.added["pump-cp200"])
    filtered = store.keyword_search(
        fts_query("centrifugal"), SearchFilters(knowledge_bases=("memos",)), 5
    )
    assert filtered == []
    documents = store.document_keyword_search(fts_query("gasket"), SearchFilters(), 5)
    assert [i for i, _ in documents] == [result.added["memo-1"][0]]


def test_vector_search_returns_k_under_a_filter_that_excludes_most_rows(backend):
    store = backend.store
    rare = [
        Document(id=f"rare-{i}", knowledge_base="rare", text=f"Rare note {i} about valves.")
        for i in range(12)
    ]
    common = [
        Document(id=f"bulk-{i}", knowledge_base="bulk", text=f"Bulk note {i} about valves.")
        for i in range(600)
    ]
    written(store, common[:300] + rare + common[300:])
    query = EMBEDDER.embed(["note about valves"])[0]
    hits = backend.vector_search(query, SearchFilters(knowledge_bases=("rare",)), 10)
    assert len(hits) == 10
    found = store.chunks([i for i, _ in hits])
    assert {c.document_id.split("-")[0] for c in found.values()} == {"rare"}
    assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
    everything = backend.vector_search(query, SearchFilters(), 25)
    assert len(everything) == 25 and everything[0][1] > 0.5


def test_postgres_refuses_a_bad_url_and_an_unreachable_server_naming_it_without_password():
    with pytest.raises(ConfigError, match="store_url"):
        PostgresStore("mysql://root:hunter2@db/x", dimension=DIMENSION)
    with pytest.raises(StoreError, match=r"postgresql://ragcore@127\.0\.0\.1:1/kb") as caught:
        PostgresStore("postgresql://ragcore:hunter2@127.0.0.1:1/kb", dimension=4)
    assert "hunter2" not in str(caught.value)


@pytest.mark.process
def test_postgres_refuses_another_dimension(postgres_url):
    PostgresStore(postgres_url, dimension=DIMENSION).close()
    with pytest.raises(ConfigError, match="64-dimensional"):
        PostgresStore(postgres_url, dimension=DIMENSION + 1)


@pytest.mark.process
def test_a_killed_writer_loses_nothing_committed_and_shows_nothing_half_written(postgres_url):
    worker = subprocess.Popen(
        [sys.executable, str(WORKER), postgres_url, str(DIMENSION)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert worker.stdout is not None
    committed = 0
    try:
        for line in worker.stdout:  # the worker prints after each commit
            committed = int(line)
            if committed >= 30:
                break
        os.kill(worker.pid, signal.SIGKILL)  # most likely in the middle of the next write
    finally:
        worker.kill()
        worker.wait()
        worker.stdout.close()
    assert committed >= 30
    store = PostgresStore(postgres_url, dimension=DIMENSION)
    try:
        ids = store.document_ids()
        assert len(ids) >= committed and len(ids) % 10 == 0, ids  # whole groups only
        assert {f"doc-{n}" for n in range(committed)} <= set(ids)
        for document_id in ids:
            assert store.record(document_id).chunk_count == 2
        assert store.counts()["chunks"] == 2 * len(ids)
        assert store.data_version() == len(ids) // 10
        hits = store.keyword_search(fts_query("zqx3q"), SearchFilters(), 5)
        assert [store.chunks([i])[i].document_id for i, _ in hits] == ["doc-3"]
    finally:
        store.close()
    with psycopg.connect(postgres_url) as conn:  # no transaction left open by the killed one
        assert conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'"
        ).fetchone() == (0,)


@pytest.mark.process
def test_postgres_filtered_vector_search_walks_the_hnsw_index_until_k_pass(postgres_url):
    """Through the HNSW index, a filter that drops 80% of the nearest rows still gets k:
    the iterative scan keeps walking the graph. The database forbids sorts, so the
    planner must use the index (a plain HNSW scan stops after ef_search candidates and
    would return about a fifth of k)."""
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        name = conn.info.dbname
        conn.execute(f"ALTER DATABASE {name} SET enable_sort = off".encode())
    rng = np.random.default_rng(3)
    store = PostgresStore(postgres_url, dimension=DIMENSION, ef_search=40)
    try:
        store.write(
            [
                (
                    Document(id=f"d{i}", knowledge_base=f"kb{i % 5}", text="Filler text."),
                    [Chunk(p, "Filler text.", 0, 12, (), 0.0) for p in range(4)],
                    rng.normal(size=(4, DIMENSION)).astype(np.float32),
                )
                for i in range(1000)
            ]
        )
        hits = store.vector_search(
            rng.normal(size=DIMENSION), SearchFilters(knowledge_bases=("kb0",)), 100
        )
        assert len(hits) == 100
        documents = {c.document_id for c in store.chunks([i for i, _ in hits]).values()}
        assert all(int(d[1:]) % 5 == 0 for d in documents)
        assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
    finally:
        store.close()


def test_postgres_keyword_index_follows_updates_and_deletes_and_is_built_for_old_databases(
    postgres_url,
):
    """The inverted index of FTS5 terms (migration 0008) is written with the chunks,
    replaced with them and deleted with them; a database from before 0008 (its terms
    pending) gets it filled when opened."""
    store = PostgresStore(postgres_url, dimension=DIMENSION)
    try:
        written(store, corpus())
        before = store.keyword_search(fts_query("valve seals gasket"), SearchFilters(), 5)
        assert before
        moved = replace(corpus()[1], text="The valve opens at nine bar. Replace the gasket.")
        written(store, [moved])
        assert store.keyword_search(fts_query("seals"), SearchFilters(), 5) == []
        store.delete("memo-1")
        assert store.document_keyword_search(fts_query("night"), SearchFilters(), 5) == []
        after = store.keyword_search(fts_query("valve seals gasket"), SearchFilters(), 5)
        written(store, corpus()[2:])
        assert_totals_kept(postgres_url)
        empty = np.zeros((0, DIMENSION), np.float32)
        store.write([(replace(corpus()[2], title="Empty"), [], empty)])  # no chunks now
        assert_totals_kept(postgres_url)
        store.delete("memo-1")
        assert_totals_kept(postgres_url)
    finally:
        store.close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:  # as migration 0008 leaves it
        counts = [conn.execute(f"SELECT count(*) FROM {t}").fetchone() for t in _TERM_TABLES]
        conn.execute("TRUNCATE chunk_terms, document_terms")
        conn.execute("UPDATE chunks SET terms_length = NULL")
        conn.execute("UPDATE meta SET value = 'pending' WHERE key = 'keyword_terms'")
    reopened = PostgresStore(postgres_url, dimension=DIMENSION)
    try:
        assert reopened.keyword_search(fts_query("valve seals gasket"), SearchFilters(), 5) == (
            after
        )
    finally:
        reopened.close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        assert [conn.execute(f"SELECT count(*) FROM {t}").fetchone() for t in _TERM_TABLES] == (
            counts
        )


_TERM_TABLES = ("chunk_terms", "document_terms")


def assert_totals_kept(url: str) -> None:
    """The triggers' keyword_totals are the tables' own counts (FTS5's nRow, nToken)."""
    with psycopg.connect(url, autocommit=True) as conn:
        kept = dict(
            (name, (rows, tokens))
            for name, rows, tokens in conn.execute("SELECT * FROM keyword_totals")
        )
        chunks = conn.execute("SELECT count(*), coalesce(sum(terms_length), 0) FROM chunks")
        documents = conn.execute(
            "SELECT count(*), coalesce(sum(d.terms_length), 0) FROM documents d "
            "JOIN chunks f ON f.document_id = d.id AND f.position = 0"
        )
        assert kept == {"chunks": chunks.fetchone(), "documents": documents.fetchone()}


@pytest.mark.process
def test_a_postgres_database_from_before_chunk_locations_gets_them_unknown(postgres_url):
    """Chunks written before migration 0006 read with no section and no pages; new ones
    keep theirs."""
    store = PostgresStore(postgres_url, dimension=DIMENSION)
    try:
        old = written(store, corpus()[:1])
    finally:
        store.close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:  # as before migration 0006
        conn.execute("ALTER TABLE chunks DROP COLUMN section, DROP COLUMN first_page")
        conn.execute("ALTER TABLE chunks DROP COLUMN last_page")
        conn.execute("DELETE FROM schema_migrations WHERE version = 6")
    reopened = PostgresStore(postgres_url, dimension=DIMENSION)
    try:
        stored = reopened.chunks(old.added["pump-cp200"])
        assert {(c.section, c.pages) for c in stored.values()} == {("", None)}
        doc = corpus()[1]
        chunks, vectors = chunks_of(doc)
        located = [replace(c, section="2 Valves", pages=(5, 6)) for c in chunks]
        new = reopened.write([(doc, located, vectors)])
        assert {(c.section, c.pages) for c in reopened.chunks(new.added["valve-v9"]).values()} == {
            ("2 Valves", (5, 6))
        }
    finally:
        reopened.close()
