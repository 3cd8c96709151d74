"""Property tests: stored documents round-trip; the index follows the store under any edits."""

from __future__ import annotations

import tempfile
from datetime import date
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from ragcore import Config, Document, Engine
from ragcore.documents import Chunk
from ragcore.inference.embedder import HashEmbedder
from ragcore.storage.store import Store

ids = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._:/@-]{0,30}", fullmatch=True)
words = st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=12)
texts = st.lists(words, min_size=1, max_size=60).map(" ".join)
documents = st.builds(
    Document,
    id=ids,
    text=texts,
    knowledge_base=st.sampled_from(["manuals", "faq", "kb-2"]),
    title=st.text(max_size=40),
    source=st.text(max_size=20),
    doc_type=st.sampled_from(["manual", "faq", "regulation"]),
    authority=st.integers(1, 5),
    updated_at=st.none() | st.dates(date(1990, 1, 1), date(2040, 12, 31)),
    version=st.integers(1, 50),
    metadata=st.dictionaries(st.text(min_size=1, max_size=10), st.text(max_size=20), max_size=4),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_documents_round_trip(doc):
    with (
        tempfile.TemporaryDirectory() as tmp,
        Engine(Config(data_dir=Path(tmp)), embedder=HashEmbedder()) as engine,
    ):
        engine.ingest([doc])
        stored = engine.document(doc.id)
        for field in (
            "id",
            "knowledge_base",
            "title",
            "source",
            "doc_type",
            "authority",
            "updated_at",
            "version",
            "supersedes",
        ):
            assert getattr(stored, field) == getattr(doc, field), field
        assert stored.metadata == dict(doc.metadata)
        assert stored.checksum == doc.checksum
        chunks = engine.store.chunks(engine.store.chunk_ids_of(doc.id)).values()
        assert all(doc.text[c.start : c.end] == c.text for c in chunks)
        assert engine.ingest([doc]).count("unchanged") == 1


pages = st.none() | st.tuples(st.integers(1, 5000), st.integers(0, 50)).map(
    lambda p: (p[0], p[0] + p[1])
)
locations = st.lists(
    st.tuples(st.lists(st.text(max_size=30), max_size=4).map(" > ".join), pages),
    min_size=1,
    max_size=6,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(locations)
def test_chunk_sections_and_pages_round_trip(located):
    doc = Document(id="d", text=" ".join(f"w{i}" for i in range(len(located))))
    chunks = [
        Chunk(i, f"w{i}", 3 * i, 3 * i + 2, (), 0.0, section, page_range)
        for i, (section, page_range) in enumerate(located)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp))
        try:
            ids = store.write([(doc, chunks, HashEmbedder(8).embed([c.text for c in chunks]))])
            stored = store.chunks(ids.added["d"])
            assert [(stored[i].section, stored[i].pages) for i in ids.added["d"]] == located
            assert store.export(["d"])[0][1] == chunks
        finally:
            store.close()


class IndexFollowsStore(RuleBasedStateMachine):
    """Random adds, updates, deletes and reopens; the three indexes must always agree."""

    @initialize()
    def open(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.engine = self._open()
        self.model: dict[str, int] = {}  # id -> serial of its current text
        self.serial = 0

    def _open(self):
        return Engine(Config(data_dir=Path(self.tmp.name)), embedder=HashEmbedder(32))

    @rule(doc_id=st.sampled_from([f"d{i}" for i in range(8)]), length=st.integers(1, 400))
    def put(self, doc_id, length):
        self.serial += 1
        words = " ".join(f"w{(self.serial * 7 + i) % 97}" for i in range(length))
        self.engine.ingest([Document(id=doc_id, text=f"tok{self.serial}x {words}.")])
        self.model[doc_id] = self.serial

    @rule(doc_id=st.sampled_from([f"d{i}" for i in range(8)]))
    def delete(self, doc_id):
        if doc_id in self.model:
            self.engine.delete(doc_id)
            del self.model[doc_id]

    @rule()
    def reopen(self):
        self.engine.close()
        self.engine = self._open()

    @invariant()
    def consistent(self):
        if not hasattr(self, "engine"):
            return
        store = self.engine.store
        assert sorted(store.document_ids()) == sorted(self.model)
        chunks = self.engine.stats().chunks
        assert len(self.engine._vectors.index) == chunks
        assert store._r.execute("SELECT count(*) FROM chunks_fts").fetchone()[0] == chunks
        assert (
            store._r.execute(
                "SELECT 1 FROM chunks GROUP BY document_id, position HAVING count(*) > 1"
            ).fetchall()
            == []
        )
        for doc_id, serial in self.model.items():
            hits = self.engine.search(f"tok{serial}x", mode="keyword", k=1)
            assert hits and hits[0].document_id == doc_id

    @invariant()
    def vector_recall(self):
        if not getattr(self, "model", None):
            return
        ids, vectors = zip(*self.engine.store.embeddings(), strict=True)
        ids, vectors = np.concatenate(ids), np.vstack(vectors)
        rng = np.random.default_rng(len(ids))
        found = wanted = 0
        for query in rng.normal(size=(5, vectors.shape[1])).astype(np.float32):
            query /= np.linalg.norm(query)
            k = min(10, len(ids))
            exact = set(ids[np.argsort(-(vectors @ query))[:k]].tolist())
            got = {c for c, _ in self.engine._vectors.index.search(query, k)}
            found, wanted = found + len(exact & got), wanted + k
        assert found / wanted >= 0.95

    def teardown(self):
        if hasattr(self, "engine"):
            self.engine.close()
            self.tmp.cleanup()


IndexFollowsStore.TestCase.settings = settings(
    max_examples=12, stateful_step_count=10, deadline=None
)
test_index_follows_store = IndexFollowsStore.TestCase
