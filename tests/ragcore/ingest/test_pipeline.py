"""Ingest at the model's pace: length-sorted windows, a tokenizer thread, a writer thread,
and the guarantees that stay (whole documents per commit, validation before writing,
progress, a failure keeps what was committed)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from ragcore import Cancellation, Config, Document, Engine
from ragcore.errors import Cancelled, InvalidDocumentError, quoted
from ragcore.inference.embedder import HashEmbedder, OnnxEmbedder
from ragcore.inference.models import embedder_spec
from ragcore.ingest import pipeline
from ragcore.types import CancelReason


def _documents(count: int, *, start: int = 0) -> list[Document]:
    """Documents of very different lengths, so batches and windows are uneven."""
    return [
        Document(
            id=f"doc-{n}",
            title=f"Pump report {n}",
            text=" ".join(
                f"Seal {n} of line {k} was checked and the pressure read {k % 9 + 2} bar."
                for k in range(1 + (n * 7) % 40)
            ),
        )
        for n in range(start, start + count)
    ]


@pytest.fixture
def small_windows(monkeypatch):
    """Windows and commit groups of a few chunks, so a small ingest has many of each."""
    monkeypatch.setattr(pipeline, "FIRST_WINDOW_CHUNKS", 5)
    monkeypatch.setattr(pipeline, "SORT_WINDOW_CHUNKS", 17)
    monkeypatch.setattr(pipeline, "GROUP_CHUNKS", 4)


def _stored(engine: Engine) -> dict[int, np.ndarray]:
    return {int(i): v for ids, vectors in engine.store.embeddings() for i, v in zip(ids, vectors)}


@pytest.mark.model
@pytest.mark.process
def test_streamed_vectors_match_embedding_each_text_alone(tmp_path, small_windows):
    # The shipped graph: its vectors do not depend on the batch (the int8 graph's do,
    # slightly), so each stored vector must equal its chunk's text embedded alone.
    shipped = embedder_spec("all-MiniLM-L6-v2")
    docs = _documents(12)
    small = OnnxEmbedder(shipped, threads=1, batch_size=3, batch_tokens=512)
    with Engine(Config(data_dir=tmp_path), embedder=small) as engine:
        report = engine.ingest(docs)
        vectors = _stored(engine)
        chunks = engine.store.chunks(sorted(vectors))
    assert report.chunks == len(vectors) > 12
    titles = {d.id: d.title for d in docs}
    for chunk_id, chunk in chunks.items():
        alone = small.embed([f"{titles[chunk.document_id]}\n{chunk.text}"])[0]
        assert float(alone @ vectors[chunk_id]) > 0.9999


def test_batches_are_planned_in_length_order_within_the_caps():
    planner = OnnxEmbedder(embedder_spec("all-MiniLM-L6-v2"), batch_size=4, batch_tokens=600)
    lengths = [3, 5, 8, 8, 20, 100, 150, 200, 256, 256, 256, 300]
    batches = planner.plan_batches(lengths)
    assert [i for b in batches for i in b] == list(range(len(lengths)))
    for batch in batches:
        width = min(max(lengths[i] for i in batch), 256)
        assert len(batch) <= 4 and (len(batch) == 1 or len(batch) * width <= 600)
    assert planner.plan_batches([]) == []


@pytest.mark.process
def test_progress_counts_only_committed_documents(tmp_path, small_windows):
    seen = []
    with Engine(Config(data_dir=tmp_path), embedder=HashEmbedder()) as engine:
        first = engine.ingest(_documents(5))
        report = engine.ingest(_documents(30), seen.append)
        total_chunks = engine.store.counts()["chunks"]
    assert [p.documents_total for p in seen] == [30] * len(seen)
    done = [p.documents_done for p in seen]
    assert done == sorted(done) and done[0] >= 5 and done[-1] == 30
    assert seen[-1].chunks_done == report.chunks == total_chunks - first.chunks
    assert len(seen) > 3  # reported after each commit, not only at the end


class _FailingEmbedder(HashEmbedder):
    """A real (hashing) embedder whose model 'breaks' after some calls."""

    def __init__(self, calls_before_failing: int) -> None:
        super().__init__()
        self.calls_left = calls_before_failing

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self.calls_left == 0:
            raise RuntimeError("the model broke")
        self.calls_left -= 1
        return super().embed(texts)


@pytest.mark.process
def test_a_failure_mid_ingest_keeps_committed_documents_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "GROUP_CHUNKS", 3)
    monkeypatch.setattr(pipeline, "CHECK_CHUNKS", 3)  # chunks per embed call
    docs = _documents(40)
    with Engine(Config(data_dir=tmp_path), embedder=_FailingEmbedder(6)) as engine:
        with pytest.raises(RuntimeError, match="the model broke"):
            engine.ingest(docs)
        committed = engine.store.document_ids()
        assert 0 < len(committed) < len(docs)
        expected = {d.id: len(engine._ingestor(engine._vectors)._plan(d)[1]) for d in docs}
        for doc_id in committed:
            assert len(engine.store.chunk_ids_of(doc_id)) == expected[doc_id]
        assert len(engine._vectors.index) == engine.store.counts()["chunks"]
    with Engine(Config(data_dir=tmp_path), embedder=HashEmbedder()) as engine:
        report = engine.ingest(docs)
        assert report.count("unchanged") == len(committed)
        assert report.count("added") == len(docs) - len(committed)


def test_a_bad_document_anywhere_writes_nothing(tmp_path, small_windows):
    docs = [*_documents(20), Document(id="", text="no id")]
    with Engine(Config(data_dir=tmp_path), embedder=HashEmbedder()) as engine:
        with pytest.raises(InvalidDocumentError):
            engine.ingest(docs)
        assert engine.store.counts()["documents"] == 0


class _CountingEmbedder(HashEmbedder):
    """The hashing embedder, counting the chunks it embeds."""

    def __init__(self) -> None:
        super().__init__()
        self.embedded = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.embedded += len(texts)
        return super().embed(texts)


def test_a_cancelled_ingest_stops_within_a_batch_keeping_what_was_committed(tmp_path):
    docs = _documents(400)
    token = Cancellation()
    embedder = _CountingEmbedder()
    committed_at_cancel: list[int] = []

    def cancel_after_the_first_commit(progress) -> None:
        if progress.chunks_done and not committed_at_cancel:
            token.cancel(CancelReason.SHUTDOWN)  # returns once no commit is in progress
            committed_at_cancel.append(progress.documents_done)

    with Engine(Config(data_dir=tmp_path), embedder=embedder) as engine:
        with pytest.raises(Cancelled) as stopped:
            engine.ingest(docs, cancel_after_the_first_commit, cancel=token)
        assert stopped.value.reason == CancelReason.SHUTDOWN
        assert "shutting down" in str(stopped.value)
        committed = engine.store.document_ids()
        # Nothing was committed after the cancel returned, and every document is whole.
        assert len(committed) == committed_at_cancel[0] < len(docs)
        expected = {d.id: len(engine._ingestor(engine._vectors)._plan(d)[1]) for d in docs}
        for doc_id in committed:
            assert len(engine.store.chunk_ids_of(doc_id)) == expected[doc_id]
        assert len(engine._vectors.index) == engine.store.counts()["chunks"]
        # It stopped within a batch (of CHECK_CHUNKS), not at the end of its window.
        chunks_of_committed = sum(expected[d] for d in committed)
        assert embedder.embedded - chunks_of_committed <= pipeline.GROUP_CHUNKS + 2 * (
            pipeline.CHECK_CHUNKS
        )
        # The write lock is free: the same documents go in now, the committed skipped.
        report = engine.ingest(docs)
        assert report.count("unchanged") == len(committed)
        assert report.count("added") == len(docs) - len(committed)


def test_a_cancelled_token_stops_an_ingest_before_anything_is_written(tmp_path):
    token = Cancellation(lambda: CancelReason.DEADLINE)
    with Engine(Config(data_dir=tmp_path), embedder=HashEmbedder()) as engine:
        with pytest.raises(Cancelled, match="the deadline passed") as stopped:
            engine.ingest(_documents(5), cancel=token)
        assert stopped.value.reason == CancelReason.DEADLINE
        assert engine.store.counts()["documents"] == 0


def test_quoted_cuts_a_callers_value_to_eighty_characters():
    assert quoted("manuals") == "'manuals'"
    long = quoted("x" * 6000)
    assert long.startswith("'" + "x" * 80 + "'…") and "6,000 characters" in long
    assert len(long) < 110
