"""Ingest: validate, chunk, embed and store documents, keeping the vector index in step.

Every document of a call is validated before anything is written, so bad input leaves
the store untouched. Unchanged documents (same id and checksum) are skipped; changed
ones have their chunks replaced.

The model sets the pace, so the rest runs around it: the chunks of a run of documents
(``SORT_WINDOW_CHUNKS``) are embedded in length order, in full batches (little
padding, few ``session.run`` calls); the embedder tokenizes the next batch while the
model runs, and a writer thread commits finished documents while the model goes on.
A document is committed whole, once all its chunks have vectors, in groups of about
``GROUP_CHUNKS`` chunks per transaction: a crash loses only documents not yet
committed, never half a document, and a rerun skips the committed ones.

An ingest can be stopped (``ragcore.cancel``): its ``CancelToken`` is checked after
every model batch (``batch_size`` chunks, 32 by default; ``CHECK_CHUNKS`` without a
streaming embedder), for every document chunked, and before every commit. Once it is
cancelled the ingest raises ``Cancelled`` within one batch: the groups committed stay,
the rest is dropped, and nothing is committed after the cancel returned.
"""

from __future__ import annotations

import bisect
import contextlib
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ragcore.cancel import NEVER, CancelToken
from ragcore.documents import Chunk, Document
from ragcore.errors import InvalidDocumentError, quoted
from ragcore.inference.embedder import Embedder, StreamingEmbedder
from ragcore.ingest.chunking import chunk_text
from ragcore.ingest.loaders import FileNote, SkippedFile
from ragcore.storage.protocol import DocumentStore
from ragcore.storage.store import WriteResult
from ragcore.types import IngestStatus

GROUP_CHUNKS = 256
"""Documents are committed in groups of about this many chunks, one transaction each."""
FIRST_WINDOW_CHUNKS = 512
SORT_WINDOW_CHUNKS = 4096
"""Chunks whose model batches are sorted by length together (a run of documents). Sorting
wider pads no less; a window bounds what a crash can lose (a document is committed only
once all its chunks have vectors, and the longest come last) and the memory held for
chunk texts."""
CHECK_CHUNKS = 32
"""Without a streaming embedder, chunks embedded per call: the cancellation token is
checked between calls (a streaming embedder is checked after each of its batches)."""

ProgressCallback = Callable[["IngestProgress"], None]


@dataclass(frozen=True)
class IngestProgress:
    """Where an ingest stands: committed (or unchanged) documents, their pages and
    characters out of the call's, and the chunks embedded and committed so far. Reported
    after every model batch and every commit, and once more at the end only if that state
    was not reported yet (so a progress line is never printed twice)."""

    documents_done: int
    documents_total: int
    chunks_done: int
    seconds: float
    pages_done: int = 0
    pages_total: int = 0
    chars_done: int = 0
    """Characters of the text embedded so far (done documents whole; the rest by chunk)."""
    chars_total: int = 0
    chunks_embedded: int = 0
    """Chunks through the model so far (ahead of ``chunks_done``: a document is committed
    once all its chunks are embedded)."""

    @property
    def eta_seconds(self) -> float | None:
        """Seconds left at the pace so far, by characters (None before any is done)."""
        if self.chars_done <= 0 or self.seconds <= 0 or self.chars_total <= self.chars_done:
            return None if self.chars_done <= 0 else 0.0
        return self.seconds * (self.chars_total - self.chars_done) / self.chars_done


@dataclass(frozen=True)
class DocumentOutcome:
    document_id: str
    status: IngestStatus
    """``added``, ``updated`` or ``unchanged``."""
    chunks: int


@dataclass(frozen=True)
class IngestReport:
    outcomes: tuple[DocumentOutcome, ...]
    seconds: float
    skipped: tuple[SkippedFile, ...] = ()
    """Files under an ingested directory that were not read, with the reason."""
    notes: tuple[FileNote, ...] = ()
    """What the reader should know about files that were read (pages without text)."""

    def count(self, status: IngestStatus) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def chunks(self) -> int:
        return sum(o.chunks for o in self.outcomes if o.status != IngestStatus.UNCHANGED)


@dataclass(frozen=True)
class ChunkingPolicy:
    max_tokens: int
    overlap_tokens: int
    embed_titles: bool
    max_document_chars: int


class Ingestor:
    """Turns documents into stored chunks; ``on_write`` keeps the vector index in step."""

    def __init__(
        self,
        store: DocumentStore,
        embedder: Embedder,
        policy: ChunkingPolicy,
        on_write: Callable[[WriteResult, dict[int, np.ndarray]], None],
    ) -> None:
        self._store = store
        self._embedder = embedder
        self._policy = policy
        self._on_write = on_write
        self.commits = 0
        """Groups committed so far (also by an ingest that then failed or was stopped)."""

    def ingest(
        self,
        documents: Iterable[Document],
        progress: ProgressCallback | None = None,
        cancel: CancelToken = NEVER,
    ) -> IngestReport:
        """Store ``documents``; ``Cancelled`` (from ``cancel``) stops it within a batch."""
        started = time.perf_counter()
        docs = self._validated(documents)
        known = self._store.checksums(d.id for d in docs)
        outcomes: dict[str, DocumentOutcome] = {}
        todo = []
        for doc in docs:
            if known.get(doc.id) == doc.checksum:
                outcomes[doc.id] = DocumentOutcome(doc.id, IngestStatus.UNCHANGED, 0)
            else:
                todo.append(doc)
        tally = _Tally(progress, docs, started)
        tally.unchanged([d for d in docs if d.id in outcomes])
        cancel.check("before embedding")

        def commit(items: Sequence[tuple[Document, Sequence[Chunk], np.ndarray]]) -> None:
            with cancel.committing():
                self._commit(items)

        with (
            _Writer(commit, tally) as writer,
            contextlib.closing(self._windows(todo, cancel)) as windows,
        ):
            for window in windows:
                for doc, chunks, _ in window:
                    status = IngestStatus.UPDATED if doc.id in known else IngestStatus.ADDED
                    outcomes[doc.id] = DocumentOutcome(doc.id, status, len(chunks))
                self._embed(window, writer, cancel)
        tally.finish()
        return IngestReport(tuple(outcomes[d.id] for d in docs), time.perf_counter() - started)

    def _windows(self, docs: Sequence[Document], cancel: CancelToken) -> Generator[list[_Planned]]:
        """The documents, chunked, in runs of about SORT_WINDOW_CHUNKS chunks (the first
        shorter, so the model starts early). The next run is chunked on a helper thread
        while the model embeds this one (checking ``cancel`` per document, so that a
        cancelled ingest does not wait for a whole run to be chunked)."""

        def runs() -> Iterator[list[_Planned]]:
            window: list[_Planned] = []
            size, limit = 0, FIRST_WINDOW_CHUNKS
            for doc in docs:
                cancel.check("chunking")
                window.append(self._plan(doc))
                size += len(window[-1][1])
                if size >= limit:
                    yield window
                    window, size, limit = [], 0, SORT_WINDOW_CHUNKS
            if window:
                yield window

        planned = runs()
        with ThreadPoolExecutor(1, thread_name_prefix="ragcore-chunk") as helper:
            upcoming = helper.submit(next, planned, None)
            while (window := upcoming.result()) is not None:
                upcoming = helper.submit(next, planned, None)
                yield window

    def _embed(self, window: list[_Planned], writer: _Writer, cancel: CancelToken) -> None:
        """Embed the window's chunks in length order and hand each document to the writer
        as soon as all its chunks have vectors (in groups of about GROUP_CHUNKS); check
        ``cancel`` after every model batch."""
        texts, lengths, owners = [], [], []
        fresh: list[int] = []  # characters each chunk adds to those before it (no overlap)
        for slot, (doc, chunks, tokens) in enumerate(window):
            texts += [self.embedding_text(doc, c) for c in chunks]
            lengths += tokens
            owners += [(slot, row) for row in range(len(chunks))]
            fresh += _fresh_characters(chunks)
        vectors = [np.empty((len(c), self._embedder.dimension), np.float32) for _, c, _ in window]
        missing = [len(c) for _, c, _ in window]
        ready: list[tuple[Document, Sequence[Chunk], np.ndarray]] = []
        ready_chunks = 0

        def finished(slot: int) -> None:
            nonlocal ready_chunks
            doc, chunks, _ = window[slot]
            ready.append((doc, chunks, vectors[slot]))
            ready_chunks += len(chunks)

        for slot, count in enumerate(missing):
            if count == 0:
                finished(slot)
        order = sorted(range(len(texts)), key=lengths.__getitem__)
        stream = _checked(self._vectors_in_order(texts, lengths, order), cancel)
        with contextlib.closing(stream):
            for members, batch_vectors in stream:
                writer.tally.embedded(len(members), sum(fresh[m] for m in members))
                for member, vector in zip(members, batch_vectors):
                    slot, row = owners[member]
                    vectors[slot][row] = vector
                    missing[slot] -= 1
                    if missing[slot] == 0:
                        finished(slot)
                if ready_chunks >= GROUP_CHUNKS:
                    writer.submit(ready)
                    ready, ready_chunks = [], 0
        if ready:
            writer.submit(ready)

    def _vectors_in_order(
        self, texts: list[str], lengths: list[int], order: list[int]
    ) -> Iterator[tuple[list[int], np.ndarray]]:
        """(text indices, their vectors) batch by batch, in ``order``."""
        embedder = self._embedder
        if isinstance(embedder, StreamingEmbedder):
            batches = [
                [order[p] for p in b] for b in embedder.plan_batches([lengths[i] for i in order])
            ]
            stream = embedder.embed_stream([texts[i] for i in batch] for batch in batches)
            yield from zip(batches, stream)
        else:  # one call; the embedder batches as it likes
            for lo in range(0, len(order), CHECK_CHUNKS):
                members = order[lo : lo + CHECK_CHUNKS]
                yield members, embedder.embed([texts[i] for i in members])

    def _validated(self, documents: Iterable[Document]) -> list[Document]:
        docs: list[Document] = []
        seen: dict[str, str] = {}
        for doc in documents:
            if not isinstance(doc, Document):
                raise InvalidDocumentError(
                    repr(doc)[:80], None, "is not a ragcore.Document; build one or load a file"
                )
            doc.validated(self._policy.max_document_chars)
            if doc.id in seen:
                raise InvalidDocumentError(
                    doc.origin or doc.id,
                    "id",
                    f"{quoted(doc.id)} appears twice in this ingest (also in {seen[doc.id]})",
                )
            seen[doc.id] = doc.origin or "this batch"
            docs.append(doc)
        return docs

    def _plan(self, doc: Document) -> _Planned:
        """The document's chunks and the tokens each will give the model (title included)."""
        budget = self._policy.max_tokens
        title_tokens = 0
        if self._policy.embed_titles and doc.title:
            # The title is embedded with every chunk: leave room for it (and a separator).
            title_tokens = len(self._embedder.token_spans(doc.title)) + 1
            budget = max(budget // 2, budget - title_tokens)
        spans = self._embedder.token_spans(doc.text)
        chunks = chunk_text(
            doc.text,
            spans,
            max_tokens=budget,
            overlap_tokens=min(self._policy.overlap_tokens, budget // 2),
            sections=doc.sections,
            pages=doc.pages,
        )
        starts = [start for start, _ in spans]
        tokens = [
            bisect.bisect_left(starts, c.end)
            - bisect.bisect_left(starts, c.start)
            + title_tokens
            + 2
            for c in chunks
        ]
        return doc, chunks, tokens

    def embedding_text(self, doc: Document, chunk: Chunk) -> str:
        return (
            f"{doc.title}\n{chunk.text}" if self._policy.embed_titles and doc.title else chunk.text
        )

    def _commit(self, items: Sequence[tuple[Document, Sequence[Chunk], np.ndarray]]) -> None:
        """Store whole documents with their vectors in one transaction, then the index."""
        result = self._store.write(items)
        self.commits += 1
        by_chunk: dict[int, np.ndarray] = {}
        for doc, _, doc_vectors in items:
            by_chunk.update(zip(result.added[doc.id], doc_vectors))
        self._on_write(result, by_chunk)


def _checked(
    batches: Iterator[tuple[list[int], np.ndarray]], cancel: CancelToken
) -> Generator[tuple[list[int], np.ndarray]]:
    """``batches``, checking ``cancel`` after each; closed at once when the loop stops (the
    embedder's helper thread then stops after the batch it is tokenizing)."""
    try:
        for item in batches:
            cancel.check("embedding")
            yield item
    finally:
        close = getattr(batches, "close", None)
        if close is not None:
            close()


def _fresh_characters(chunks: Sequence[Chunk]) -> list[int]:
    """Per chunk, the characters of the text it covers that no earlier chunk did."""
    out, covered = [], 0
    for chunk in chunks:
        out.append(max(chunk.end - max(chunk.start, covered), 0))
        covered = max(covered, chunk.end)
    return out


_Planned = tuple[Document, list[Chunk], list[int]]
"""A document, its chunks, and each chunk's token count as the model will see it."""


class _Tally:
    """Counts committed documents (with their pages and characters) and chunks, and
    reports progress: after each commit, and at the end only if the last report was not
    already the final state."""

    def __init__(
        self, progress: ProgressCallback | None, docs: Sequence[Document], started: float
    ) -> None:
        self._progress = progress
        self._total = len(docs)
        self._pages_total = sum(len(d.pages) for d in docs)
        self._chars_total = sum(len(d.text) for d in docs)
        self.documents = self.pages = self.chars = self.chunks = 0
        self._embedded_chunks = self._embedded_chars = self._unchanged_chars = 0
        self._started = started
        self._reported: tuple[int, int, int] | None = None

    def unchanged(self, docs: Sequence[Document]) -> None:
        """Documents already stored as they are: done before anything is embedded."""
        self.add(docs, 0, report=False)
        self._unchanged_chars = self.chars

    def add(self, docs: Sequence[Document], chunks: int, *, report: bool = True) -> None:
        self.documents += len(docs)
        self.pages += sum(len(d.pages) for d in docs)
        self.chars += sum(len(d.text) for d in docs)
        self.chunks += chunks
        if report:
            self.report()

    def embedded(self, chunks: int, chars: int) -> None:
        """A model batch is done (its chunks' documents may not be committed yet)."""
        self._embedded_chunks += chunks
        self._embedded_chars += chars
        self.report()

    def finish(self) -> None:
        if self._reported != (self.documents, self.chunks, self._embedded_chunks):
            self.report()

    def report(self) -> None:
        if self._progress:
            self._reported = (self.documents, self.chunks, self._embedded_chunks)
            done = self.documents >= self._total
            self._progress(
                IngestProgress(
                    self.documents,
                    self._total,
                    self.chunks,
                    time.perf_counter() - self._started,
                    self.pages,
                    self._pages_total,
                    self._chars_total
                    if done
                    else max(self.chars, self._unchanged_chars + self._embedded_chars),
                    self._chars_total,
                    max(self._embedded_chunks, self.chunks),
                )
            )


class _Writer:
    """Commits groups of documents on one background thread, so SQLite and the vector
    index are written while the model embeds the next batches.

    At most one group is in flight: ``submit`` waits for the previous one (raising its
    error), and leaving the ``with`` block waits for the last. Progress is reported on
    the caller's thread after each commit.
    """

    def __init__(
        self,
        commit: Callable[[Sequence[tuple[Document, Sequence[Chunk], np.ndarray]]], None],
        tally: _Tally,
    ) -> None:
        self._commit = commit
        self.tally = tally
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="ragcore-ingest-write")
        self._pending: Future | None = None
        self._pending_docs: list[Document] = []
        self._pending_chunks = 0

    def submit(self, items: list[tuple[Document, Sequence[Chunk], np.ndarray]]) -> None:
        self.wait()
        self._pending = self._pool.submit(self._commit, items)
        self._pending_docs = [doc for doc, _, _ in items]
        self._pending_chunks = sum(len(chunks) for _, chunks, _ in items)

    def wait(self) -> None:
        if self._pending is not None:
            pending, self._pending = self._pending, None
            pending.result()
            self.tally.add(self._pending_docs, self._pending_chunks)

    def __enter__(self) -> _Writer:
        return self

    def __exit__(self, kind, *_exc) -> None:
        try:
            if kind is None:
                self.wait()
            elif self._pending is not None:
                # Let the group in flight commit (it is whole documents) before unwinding.
                with contextlib.suppress(Exception):
                    self._pending.result()
        finally:
            self._pool.shutdown(wait=True)
