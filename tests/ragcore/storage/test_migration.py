"""``copy_store``: the sample knowledge base from a data directory to PostgreSQL and back,
unchanged (documents, chunks, embeddings bit for bit, search results), without an
embedder; a re-run or a resumed copy writes only what is missing; a target it would make
inconsistent, or a bad location, is refused before anything is written."""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from conftest import TOP3_EAST_LAST_MONTH
from ranking import assert_same_ranking, best_documents, top_documents

from ragcore import Config, Engine
from ragcore.documents import Chunk, Document
from ragcore.errors import InvalidInputError, ScopeError, StoreError
from ragcore.evaluation.golden import load_golden
from ragcore.evaluation.sample import ingest_sample_tables, sample_documents, sample_tables
from ragcore.scope import Scope
from ragcore.storage.migration import CopyProgress, Part, PartReport, copy_store
from ragcore.storage.postgres import PostgresStore
from ragcore.storage.sessions import Sessions
from ragcore.storage.sql import sql_store
from ragcore.storage.store import DATABASE_NAME, Store

NOW = 1_796_000_000.25  # a session clock (seconds since the epoch)
QUESTIONS = (
    "simple-e4031-hp400",
    "simple-e2215-ac110",
    "simple-e1140-cp350",
    "simple-cv12-belt-tension",
)


@pytest.fixture
def source(tmp_path, sample_data_template) -> Path:
    """A private copy of the sample knowledge base's data directory."""
    path = tmp_path / "source"
    shutil.copytree(sample_data_template, path)
    return path


def exported(store) -> dict[str, tuple[Document, list[Chunk], np.ndarray, str]]:
    ids = store.document_ids()
    return {item[0].id: item for item in store.export(ids)}


def digest(path: Path) -> str:
    return hashlib.sha256((path / DATABASE_NAME).read_bytes()).hexdigest()


def assert_same_contents(a, b) -> None:
    """Same documents (every field and the text), same chunks, same embeddings bit for bit."""
    left, right = exported(a), exported(b)
    assert sorted(left) == sorted(right)
    for doc_id, (doc, chunks, vectors, checksum) in left.items():
        doc2, chunks2, vectors2, checksum2 = right[doc_id]
        assert doc == doc2 and checksum == checksum2 == doc.checksum
        assert [
            (c.position, c.text, c.start, c.end, c.entities, c.section, c.pages) for c in chunks
        ] == [(c.position, c.text, c.start, c.end, c.entities, c.section, c.pages) for c in chunks2]
        # PostgreSQL keeps numeric_density as REAL (float4), SQLite as a double.
        assert np.allclose(
            [c.numeric_density for c in chunks], [c.numeric_density for c in chunks2], atol=1e-6
        )
        assert vectors.dtype == vectors2.dtype == np.float32
        assert vectors.tobytes() == vectors2.tobytes()
        record, record2 = a.record(doc_id), b.record(doc_id)
        assert replace(record, ingested_at=None) == replace(record2, ingested_at=None)


def locate_some_chunks(path: Path) -> int:
    """Give every third chunk of the data directory at ``path`` a section and pages, as a
    loader of structured files would (the sample's Markdown has neither); how many."""
    db = sqlite3.connect(path / DATABASE_NAME)
    try:
        with db:
            return db.execute(
                "UPDATE chunks SET section = 'Maintenance > ' || document_id, "
                "first_page = position + 1, last_page = position + 1 + id % 2 WHERE id % 3 = 0"
            ).rowcount
    finally:
        db.close()  # the last connection: the WAL is checkpointed into the file


def test_sqlite_to_postgres_and_back_keeps_everything(
    tmp_path, source, postgres_url, real_embedder, caplog
):
    assert locate_some_chunks(source) > 0
    before = digest(source)
    seen: list[CopyProgress] = []
    report = copy_store(source, postgres_url, progress=seen.append, group=8)
    documents = report.part(Part.DOCUMENTS)
    total = len(sample_documents())
    assert (documents.total, documents.copied, documents.skipped) == (total, total, 0)
    assert documents.rows >= total
    assert [p.done for p in seen if p.part == Part.DOCUMENTS] == [0, 8, 16, 24, 32, total]
    assert digest(source) == before  # the source is only read

    back = tmp_path / "back"
    pg = PostgresStore(postgres_url, dimension=real_embedder.dimension)
    version = pg.data_version()
    report_back = copy_store(postgres_url, back)
    assert pg.data_version() == version  # this source too
    pg.close()
    assert report_back.part(Part.DOCUMENTS).copied == total
    assert report_back.embedder == report.embedder is not None

    lite, returned = Store(source), Store(back)
    pg = PostgresStore(postgres_url, dimension=real_embedder.dimension)
    try:
        assert_same_contents(lite, pg)
        assert_same_contents(lite, returned)
        assert lite.meta("embedder") == pg.meta("embedder") == returned.meta("embedder")
        assert returned.counts() == pg.counts() == lite.counts()
    finally:
        for store in (lite, returned, pg):
            store.close()

    # The copied data directory's vector index is sound as it is: no rebuild on open.
    golden = {q.id: q for q in load_golden()}
    caplog.set_level(logging.INFO, logger="ragcore.storage.vector_index")
    with (
        Engine(Config(data_dir=source), embedder=real_embedder) as original,
        Engine(Config(data_dir=back), embedder=real_embedder) as copied,
        Engine(
            Config(data_dir=tmp_path / "pg", store_url=postgres_url), embedder=real_embedder
        ) as on_pg,
    ):
        assert copied.check().ok
        assert copied.stats().vectors == copied.stats().chunks == original.stats().chunks
        for qid in QUESTIONS:
            question = golden[qid].question
            # The copy holds the same vectors bit for bit (above) and the same text: the same
            # hits with the same scores (to float rounding), in the same order, on any CPU.
            found = {m: original.search(question, mode=m, k=8) for m in ("vector", "hybrid")}
            for mode, expected in found.items():
                again = copied.search(question, mode=mode, k=8)
                assert_same_ranking(again, expected, n=5, tolerance=1e-9)
            # On PostgreSQL the same vectors give the same cosines (float4): the same vector
            # ranking, up to ties; its keyword ranking is SQLite's exactly
            # (test_same_ranking). Here only the first documents compare, a document within
            # HYBRID_TIE of a store's first counting as first there too.
            assert_same_ranking(on_pg.search(question, mode="vector", k=8), found["vector"], n=5)
            on_pg_hybrid = on_pg.search(question, mode="hybrid", k=5)
            best, pg_best = best_documents(found["hybrid"]), best_documents(on_pg_hybrid)
            assert best & pg_best & set(golden[qid].expected_documents), (qid, best, pg_best)
            assert best <= top_documents(on_pg_hybrid, 3), (qid, best, on_pg_hybrid)
            assert pg_best <= top_documents(found["hybrid"], 3), (qid, pg_best, found["hybrid"])
    assert "rebuilding" not in caplog.text


def test_a_rerun_is_a_no_op_and_an_interrupted_copy_resumes(
    tmp_path, source, postgres_url, real_embedder
):
    copy_store(source, postgres_url)
    pg = PostgresStore(postgres_url, dimension=real_embedder.dimension)
    try:
        version = pg.data_version()
        again = copy_store(source, postgres_url).part(Part.DOCUMENTS)
        assert (again.copied, again.skipped, again.rows) == (0, again.total, 0)
        assert pg.data_version() == version
    finally:
        pg.close()

    class Crash(Exception):
        pass

    def crash_after_two_groups(p: CopyProgress) -> None:
        if p.done == 10:
            raise Crash

    target = tmp_path / "target"
    with pytest.raises(Crash):
        copy_store(postgres_url, target, group=5, progress=crash_after_two_groups)
    partial = Store(target)
    try:
        assert partial.counts()["documents"] == 10  # whole groups only
        held = exported(partial)
        assert all(len(chunks) == len(vectors) > 0 for _, chunks, vectors, _ in held.values())
    finally:
        partial.close()
    resumed = copy_store(postgres_url, target, group=5).part(Part.DOCUMENTS)
    assert (resumed.skipped, resumed.copied) == (10, resumed.total - 10)
    with Engine(Config(data_dir=target), embedder=real_embedder) as engine:
        report = engine.check()  # the index the crash left behind was brought in step
        assert report.ok, report
        assert engine.stats().vectors == engine.stats().chunks


def test_a_target_with_other_documents_under_the_same_ids_is_refused(
    tmp_path, source, real_embedder
):
    other = replace(sample_documents()[0], text="Another text under the same id.")
    target = tmp_path / "target"
    with Engine(Config(data_dir=target), embedder=real_embedder) as engine:
        engine.ingest([other])
    before = digest(target)
    with pytest.raises(InvalidInputError, match=f"other documents under 1 of.*{other.id}"):
        copy_store(source, target)
    assert digest(target) == before
    store = Store(target)
    try:
        assert store.counts()["documents"] == 1
        assert store.record(other.id).checksum == other.checksum
    finally:
        store.close()


def write_vectors(store, dimension: int) -> None:
    doc = Document(id="tiny", text="A tiny document.", knowledge_base="manuals")
    chunk = Chunk(0, doc.text, 0, len(doc.text), (), 0.0)
    store.write([(doc, [chunk], np.ones((1, dimension), dtype=np.float32) / dimension**0.5)])


def test_another_embedder_or_dimension_is_refused(tmp_path, source, postgres_url):
    sqlite_target = tmp_path / "eight"
    store = Store(sqlite_target)
    write_vectors(store, 8)
    store.close()
    with pytest.raises(InvalidInputError, match="holds 8-dimensional embeddings"):
        copy_store(source, sqlite_target)

    pg = PostgresStore(postgres_url, dimension=8)
    write_vectors(pg, 8)
    pg.close()
    with pytest.raises(InvalidInputError, match="holds 8-dimensional embeddings"):
        copy_store(source, postgres_url)
    pg = PostgresStore(postgres_url, dimension=8)
    try:
        assert pg.counts()["documents"] == 1
    finally:
        pg.close()

    other = tmp_path / "other-embedder"
    store = Store(other)
    store.set_meta({"embedder": "some-other-model/384"})
    store.close()
    with pytest.raises(InvalidInputError, match="built with embedder some-other-model/384"):
        copy_store(source, other)
    store = Store(other)
    try:
        assert store.counts()["documents"] == 0
    finally:
        store.close()


def test_bad_locations_are_refused_and_create_nothing(tmp_path, source):
    with pytest.raises(InvalidInputError, match="scheme 'mysql'"):
        copy_store(source, "mysql://user@host/db")
    with pytest.raises(InvalidInputError, match="give a postgresql:// URL"):
        copy_store(source, "  ")
    with pytest.raises(InvalidInputError, match="is the source itself"):
        copy_store(source, str(source) + "/.")
    afile = tmp_path / "notes.txt"
    afile.write_text("x")
    with pytest.raises(InvalidInputError, match="is a file"):
        copy_store(source, afile)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "keep.txt").write_text("x")
    with pytest.raises(InvalidInputError, match="neither empty nor a ragcore data directory"):
        copy_store(source, busy)
    assert sorted(p.name for p in busy.iterdir()) == ["keep.txt"]
    with pytest.raises(InvalidInputError, match="no ragcore data directory"):
        copy_store(tmp_path / "missing", tmp_path / "new")
    assert not (tmp_path / "missing").exists() and not (tmp_path / "new").exists()
    with pytest.raises(InvalidInputError, match='invalid URI query parameter: "bogus"'):
        copy_store(source, "postgresql://user@host/db?bogus=1")
    with pytest.raises(
        StoreError, match="cannot connect to PostgreSQL at postgresql://nobody@"
    ) as e:
        copy_store(source, "postgresql://nobody:secret@127.0.0.1:1/db")
    assert "secret" not in str(e.value)


def sessions_on(store) -> Sessions:
    return Sessions(sql_store(store), max_turns=10, idle_seconds=3600, clock=lambda: NOW)


def session_rows(store) -> tuple[list[tuple], list[tuple]]:
    with sql_store(store).reading("test") as conn:
        sessions = [tuple(r) for r in conn.execute("SELECT * FROM sessions ORDER BY id")]
        turns = [
            tuple(r)
            for r in conn.execute("SELECT * FROM session_turns ORDER BY session_id, number")
        ]
    return sessions, turns


def test_sessions_go_there_and_back_with_their_turns_scope_and_times(
    tmp_path, source, postgres_url, real_embedder
):
    store = Store(source)
    sessions = sessions_on(store)
    manuals = Scope(frozenset({"manuals"}))
    for number, question in enumerate(("What does E4027 mean?", "And on the HP-500?")):
        sessions.add_turn(
            "line-4",
            manuals,
            question=question,
            rewritten=question.replace("And", "What does E4027 mean"),
            perception={"route": "lookup", "n": number},
            documents=["hp400-manual"],
            status="ok",
        )
    sessions.add_turn(
        "open",
        Scope.ALL,
        question="Why?",
        rewritten="Why?",
        perception={},
        documents=[],
        status="no_answer",
    )
    expected = session_rows(store)
    store.close()

    report = copy_store(source, postgres_url)
    assert report.part(Part.SESSIONS) == PartReport(Part.SESSIONS, 2, 2, 0, 3)
    back = tmp_path / "back"
    copy_store(postgres_url, back)
    pg = PostgresStore(postgres_url, dimension=real_embedder.dimension)
    returned = Store(back)
    try:
        assert session_rows(pg) == session_rows(returned) == expected
        kept = sessions_on(pg).get("line-4", manuals)
        assert kept is not None and [t.number for t in kept.turns] == [1, 2]
        with pytest.raises(ScopeError):
            sessions_on(returned).get("line-4", Scope.ALL)
        again = copy_store(source, postgres_url).part(Part.SESSIONS)
        assert (again.copied, again.skipped) == (0, 2)
        assert session_rows(pg) == expected
    finally:
        pg.close()
        returned.close()


def test_a_target_with_another_session_under_the_same_id_is_refused(tmp_path, source):
    store = Store(source)
    sessions_on(store).open("line-4", Scope.ALL)
    store.close()
    target = tmp_path / "target"
    other = Store(target)
    Sessions(sql_store(other), max_turns=10, idle_seconds=3600, clock=lambda: NOW + 5).open(
        "line-4", Scope.ALL
    )
    other.close()
    before = digest(target)
    with pytest.raises(InvalidInputError, match="other sessions under 1 of.*'line-4'"):
        copy_store(source, target)
    assert digest(target) == before  # no documents either: every part is checked first


def table_contents(store) -> tuple[dict, dict]:
    """The registry rows and every table's rows with their row ids."""
    key = "rowid" if isinstance(store, Store) else "row_id"
    with sql_store(store).reading("test") as conn:
        registry = {r[0]: tuple(r) for r in conn.execute("SELECT * FROM table_registry")}
        rows = {
            name: [tuple(r) for r in conn.execute(f'SELECT {key}, * FROM "data_{name}"')]
            for name in registry
        }
    # SELECT * on PostgreSQL repeats row_id as the first column: drop it there.
    if not isinstance(store, Store):
        rows = {name: [r[:1] + r[2:] for r in table] for name, table in rows.items()}
    return registry, {name: sorted(table) for name, table in rows.items()}


def test_tables_go_there_and_back_with_their_rows_ids_and_registry(
    tmp_path, source, postgres_url, real_embedder
):
    with Engine(Config(data_dir=source), embedder=real_embedder) as engine:
        loaded = ingest_sample_tables(engine)
        expected_top = engine.query_table(TOP3_EAST_LAST_MONTH)
    lite = Store(source)
    expected = table_contents(lite)
    lite.close()
    assert sorted(expected[0]) == sorted(t.name for t in loaded)

    report = copy_store(source, postgres_url).part(Part.TABLES)
    assert (report.total, report.copied, report.skipped) == (len(loaded), len(loaded), 0)
    assert report.rows == sum(t.row_count for t in loaded)
    back = tmp_path / "back"
    copy_store(postgres_url, back)
    pg = PostgresStore(postgres_url, dimension=real_embedder.dimension)
    returned = Store(back)
    try:
        assert table_contents(pg) == table_contents(returned) == expected
        again = copy_store(source, postgres_url).part(Part.TABLES)
        assert (again.copied, again.skipped) == (0, len(loaded))
    finally:
        pg.close()
        returned.close()
    with Engine(Config(data_dir=back), embedder=real_embedder) as engine:
        assert engine.query_table(TOP3_EAST_LAST_MONTH) == expected_top
        # The registry kept the file's SHA-256: the sample loader sees nothing to reload.
        assert [t.ingested_at for t in ingest_sample_tables(engine)] == [
            t.ingested_at for t in loaded
        ]


def test_a_target_with_another_table_under_the_same_name_is_refused(
    tmp_path, source, real_embedder
):
    with Engine(Config(data_dir=source), embedder=real_embedder) as engine:
        ingest_sample_tables(engine)
    target = tmp_path / "target"
    name, data, schema = sample_tables()[0]
    other = tmp_path / f"other{data.suffix}"
    lines = data.read_text(encoding="utf-8").splitlines()
    other.write_text("\n".join(lines[:2]) + "\n", encoding="utf-8")  # its first row only
    with Engine(Config(data_dir=target), embedder=real_embedder) as engine:
        engine.ingest_table(other, table=name, schema=schema)
    before = digest(target)
    with pytest.raises(InvalidInputError, match=f"other tables under 1 of.*'{name}'"):
        copy_store(source, target)
    assert digest(target) == before


def test_a_table_left_half_recorded_by_a_crash_is_loaded_again(tmp_path, source, real_embedder):
    """A crash between loading a table and giving its registry row back leaves the copy's
    own file name there: a re-run replaces that table instead of refusing it."""
    with Engine(Config(data_dir=source), embedder=real_embedder) as engine:
        ingest_sample_tables(engine)
    name, data, schema = sample_tables()[0]
    lite = Store(source)
    with sql_store(lite).reading("test") as conn:
        columns = [r[1] for r in conn.execute(f'PRAGMA table_info("data_{name}")')]
        first = conn.execute(f'SELECT * FROM "data_{name}" ORDER BY rowid LIMIT 1').fetchone()
    expected = table_contents(lite)
    lite.close()
    half = tmp_path / f"ragcore-migrate-{name}.jsonl"
    half.write_text(json.dumps(dict(zip(columns, first, strict=True))) + "\n", encoding="utf-8")
    target = tmp_path / "target"
    with Engine(Config(data_dir=target), embedder=real_embedder) as engine:
        engine.ingest_table(half, table=name, schema=schema)
    report = copy_store(source, target).part(Part.TABLES)
    assert report.copied == report.total == len(expected[0])
    store = Store(target)
    try:
        assert table_contents(store) == expected
    finally:
        store.close()


def test_sessions_and_tables_without_documents_are_copied_or_the_refusal_says_why(
    tmp_path, postgres_url
):
    """A data directory with a session and a table but no document: a data directory
    target gets them; a new database cannot (its vector column needs a dimension), and
    says so rather than copying nothing."""
    only = Store(tmp_path / "only")
    sessions_on(only).add_turn(
        "s1", Scope.ALL, question="Hi?", rewritten="Hi?", perception={}, documents=[], status="ok"
    )
    (tmp_path / "t.csv").write_text("region,qty\nEast,3\n", "utf-8")
    schema = 'description = "stock"\n[columns]\nregion = "text"\nqty = "integer"\n'
    (tmp_path / "t.toml").write_text(schema + "[dimensions.region]\n[measures.qty]\n", "utf-8")
    from ragcore.storage.tables import Tables

    Tables(only).ingest(tmp_path / "t.csv", table="stock", schema=tmp_path / "t.toml")
    expected = session_rows(only), table_contents(only)
    only.close()

    report = copy_store(tmp_path / "only", tmp_path / "copy")
    assert [(p.part, p.copied) for p in report.parts] == [
        (Part.DOCUMENTS, 0),
        (Part.SESSIONS, 1),
        (Part.TABLES, 1),
    ]
    copied = Store(tmp_path / "copy")
    try:
        assert (session_rows(copied), table_contents(copied)) == expected
    finally:
        copied.close()

    with pytest.raises(InvalidInputError, match="1 sessions and 1 tables but no embeddings"):
        copy_store(tmp_path / "only", postgres_url)
    assert PostgresStore.recorded_dimension(postgres_url) is None  # nothing was created
