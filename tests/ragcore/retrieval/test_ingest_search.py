"""Ingest then search, by every method, with the real embedder and a real SQLite store."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragcore import Document, SearchFilters
from ragcore.errors import DocumentNotFoundError, InvalidQueryError, KnowledgeBaseNotFoundError
from ragcore.retrieval.search import fts_query


def _fts_rows(engine, document_id):
    return engine.store._r.execute(
        "SELECT count(*) FROM chunks_fts f JOIN chunks c ON c.id = f.rowid WHERE c.document_id = ?",
        (document_id,),
    ).fetchone()[0]


@pytest.mark.parametrize("mode", ["vector", "keyword", "hybrid"])
def test_each_method_finds_the_right_chunk(engine, docs, mode):
    engine.ingest(docs)
    cases = {
        "what does error E4027 mean on the press": "press-hp400",
        "how often should the pump seal be replaced": "pump-cp200",
        "isolate energy sources and apply a personal lock before servicing": "rule-loto",
    }
    for query, expected in cases.items():
        hits = engine.search(query, mode=mode, k=3)
        assert hits[0].document_id == expected, (mode, query, [h.document_id for h in hits])
        assert mode in hits[0].scores and hits[0].score == hits[0].scores[mode]


def test_hits_carry_text_offsets_scores_and_metadata(engine, docs):
    engine.ingest(docs)
    [hit] = engine.search("E4027 hydraulic oil pressure", k=1)
    doc = next(d for d in docs if d.id == hit.document_id)
    assert doc.text[hit.start : hit.end] == hit.text
    assert set(hit.scores) == {"vector", "keyword", "document_vector", "hybrid"}
    assert "E4027" in hit.entities and "HP-400" in hit.entities
    info = hit.document
    assert (info.knowledge_base, info.doc_type, info.authority, info.updated_at) == (
        "manuals",
        "manual",
        3,
        date(2022, 1, 10),
    )


def test_hits_carry_utf8_byte_offsets_too(engine):
    # Multi-byte characters before the hit make code points and bytes differ.
    paragraphs = [
        f"Schritt {n}: Öltemperatur über 65 °C — Kühler prüfen, Lüfter reinigen. " * 12
        for n in range(6)
    ]
    text = "\n\n".join(paragraphs) + "\n\nThe zirconium gasket closes the Ü-valve."
    engine.ingest([Document(id="umlauts", text=text, knowledge_base="manuals")])
    [hit] = engine.search("zirconium gasket", mode="keyword", k=1)
    assert hit.start > 0 and hit.start_byte > hit.start  # earlier chunks hold °, —, Ö
    assert text.encode()[hit.start_byte : hit.end_byte].decode() == hit.text
    assert text[hit.start : hit.end] == hit.text


def test_reingest_same_content_is_skipped(engine, docs):
    first = engine.ingest(docs)
    second = engine.ingest(docs)
    assert first.count("added") == 3 and second.count("unchanged") == 3 and second.chunks == 0


def test_update_replaces_chunks_in_sqlite_fts_and_vectors(engine, docs):
    engine.ingest(docs)
    old_ids = engine.store.chunk_ids_of("pump-cp200")
    changed = replace(
        docs[0],
        text="The CP-200 pump now delivers 135 L/min after the "
        "impeller upgrade. Quasarflux coating protects the volute.",
    )
    report = engine.ingest([changed])
    assert report.count("updated") == 1
    new_ids = engine.store.chunk_ids_of("pump-cp200")
    assert set(new_ids).isdisjoint(old_ids)
    assert engine.search("quasarflux", mode="keyword", k=1)[0].document_id == "pump-cp200"
    assert all(
        "2000 operating hours" not in h.text
        for h in engine.search("mechanical seal 2000 hours", mode="keyword", k=10)
    )
    vector_ids = {h.chunk_id for h in engine.search("pump seal", mode="vector", k=10)}
    assert vector_ids.isdisjoint(old_ids)
    assert _fts_rows(engine, "pump-cp200") == len(new_ids)
    assert len(engine._vectors.index) == engine.stats().chunks


def test_delete_removes_from_all_three_indexes(engine, docs):
    engine.ingest(docs)
    removed = engine.delete("press-hp400")
    assert removed >= 1
    for mode in ("vector", "keyword", "hybrid"):
        assert all(
            h.document_id != "press-hp400"
            for h in engine.search("E4027 hydraulic press", mode=mode, k=10)
        )
    assert _fts_rows(engine, "press-hp400") == 0
    assert len(engine._vectors.index) == engine.stats().chunks
    with pytest.raises(DocumentNotFoundError):
        engine.delete("press-hp400")


def test_search_survives_reopen(tmp_path, real_embedder, docs):
    from ragcore import Config, Engine

    with Engine(Config(data_dir=tmp_path), embedder=real_embedder) as first:
        first.ingest(docs)
    with Engine(Config(data_dir=tmp_path), embedder=real_embedder) as second:
        assert second.search("lock and tag", mode="vector", k=1)[0].document_id == "rule-loto"


def test_filters(engine, docs):
    newer = Document(
        id="pump-cp200-v3",
        knowledge_base="manuals",
        title="CP-200 pump v3",
        doc_type="manual",
        authority=4,
        updated_at=date(2025, 1, 1),
        version=3,
        supersedes="pump-cp200",
        text="The CP-200 seal is now replaced every 1500 operating hours.",
    )
    engine.ingest([*docs, newer])

    def ids(**f):
        return {
            h.document_id
            for h in engine.search("pump seal hours", k=10, filters=SearchFilters(**f))
        }

    assert ids(knowledge_bases=("regulations",)) == {"rule-loto"}
    assert ids(doc_types=("regulation",)) == {"rule-loto"}
    assert ids(updated_after=date(2024, 1, 1)) == {"pump-cp200", "pump-cp200-v3"}
    assert ids(updated_before=date(2022, 12, 31)) == {"press-hp400"}
    assert ids(min_authority=5) == {"rule-loto"}
    assert "pump-cp200" not in ids(exclude_superseded=True)
    assert engine.document("pump-cp200").superseded_by == ("pump-cp200-v3",)
    with pytest.raises(KnowledgeBaseNotFoundError, match="known: manuals, regulations"):
        engine.search("x", filters=SearchFilters(knowledge_bases=("nope",)))


def test_rrf_fusion_also_ranks_right(engine, docs):
    engine.ingest(docs)
    searcher = engine.searcher(fusion="rrf")
    hits = searcher.search("error E4027 pressure", mode="hybrid", k=3)
    assert hits[0].document_id == "press-hp400"


@pytest.mark.parametrize(
    "query",
    [
        '"',
        "AND OR NOT",
        "pump*",
        "NEAR(a b)",
        "col:x",
        "^x -y",
        "(((",
        "'; DROP TABLE chunks; --",
        "the of a",
    ],
)
def test_fts_syntax_in_queries_is_harmless(engine, docs, query):
    engine.ingest(docs)
    engine.search(query, mode="keyword", k=5)
    engine.search(query, mode="hybrid", k=5)
    assert engine.stats().documents == 3


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=60))
def test_fts_query_is_always_valid_fts5(text):
    import sqlite3

    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61')")
    conn.execute("INSERT INTO t VALUES ('pump seal hours')")
    match = fts_query(text)
    if match:
        conn.execute("SELECT rowid FROM t WHERE t MATCH ?", (match,)).fetchall()


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"query": ""}, "empty"),
        ({"query": "   "}, "empty"),
        ({"query": 42}, "must be text"),
        ({"query": "x" * 5000}, "limit"),
        ({"query": "ok", "mode": "fuzzy"}, "unknown search mode"),
        ({"query": "ok", "k": 0}, "1 to"),
        ({"query": "ok", "k": 10_000}, "1 to"),
    ],
)
def test_bad_queries_are_rejected_clearly(engine, docs, kwargs, words):
    engine.ingest(docs)
    query = kwargs.pop("query")
    with pytest.raises(InvalidQueryError, match=words):
        engine.search(query, **kwargs)


def test_bad_filters_are_rejected():
    with pytest.raises(InvalidQueryError, match="1 to 5"):
        SearchFilters(min_authority=7)
    with pytest.raises(InvalidQueryError, match="swap"):
        SearchFilters(updated_after=date(2025, 1, 1), updated_before=date(2024, 1, 1))


def test_long_document_is_chunked_within_budget(engine, real_embedder):
    sentences = [
        f"Step {i}: tighten bolt B{i} of the HP-400 frame to {40 + i} N·m and record "
        "the value in the maintenance log."
        for i in range(120)
    ]
    doc = Document(id="long", title="HP-400 frame bolts", text=" ".join(sentences))
    report = engine.ingest([doc])
    assert report.chunks > 5
    chunks = engine.store.chunks(engine.store.chunk_ids_of("long"))
    for chunk in chunks.values():
        assert doc.text[chunk.start : chunk.end] == chunk.text
        assert len(real_embedder.token_spans(chunk.text)) <= real_embedder.max_tokens
    hit = engine.search("bolt B77 torque", mode="keyword", k=1)[0]
    assert "B77" in hit.text
