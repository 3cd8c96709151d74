"""Ingest: validate, chunk, embed and store documents, keeping the vector index in step.

Every document of a call is validated before anything is written, so bad input leaves
the store untouched. Unchanged documents (same id and checksum) are skipped; changed
ones have their chunks replaced. Documents are written in groups, each group in one
transaction, so a crash loses at most the group in flight and never half a document.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ragcore.documents import Chunk, Document
from ragcore.errors import InvalidDocumentError
from ragcore.inference.embedder import Embedder
from ragcore.ingest.chunking import chunk_text
from ragcore.storage.store import Store, WriteResult
from ragcore.types import IngestStatus

GROUP_CHUNKS = 256
"""About this many chunks are embedded and committed together."""

ProgressCallback = Callable[["IngestProgress"], None]


@dataclass(frozen=True)
class IngestProgress:
    documents_done: int
    documents_total: int
    chunks_done: int
    seconds: float


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
        store: Store,
        embedder: Embedder,
        policy: ChunkingPolicy,
        on_write: Callable[[WriteResult, dict[int, np.ndarray]], None],
    ) -> None:
        self._store = store
        self._embedder = embedder
        self._policy = policy
        self._on_write = on_write

    def ingest(
        self, documents: Iterable[Document], progress: ProgressCallback | None = None
    ) -> IngestReport:
        started = time.perf_counter()
        docs = self._validated(documents)
        known = self._store.checksums(d.id for d in docs)
        outcomes: dict[str, DocumentOutcome] = {}
        pending: list[tuple[Document, list[Chunk]]] = []
        pending_chunks = done = chunks_done = 0
        for doc in docs:
            if known.get(doc.id) == doc.checksum:
                outcomes[doc.id] = DocumentOutcome(doc.id, IngestStatus.UNCHANGED, 0)
                done += 1
                continue
            chunks = self._chunk(doc)
            pending.append((doc, chunks))
            pending_chunks += len(chunks)
            outcomes[doc.id] = DocumentOutcome(
                doc.id, IngestStatus.UPDATED if doc.id in known else IngestStatus.ADDED, len(chunks)
            )
            if pending_chunks >= GROUP_CHUNKS:
                self._write(pending)
                done, chunks_done = done + len(pending), chunks_done + pending_chunks
                pending, pending_chunks = [], 0
                if progress:
                    progress(
                        IngestProgress(done, len(docs), chunks_done, time.perf_counter() - started)
                    )
        if pending:
            self._write(pending)
            done, chunks_done = done + len(pending), chunks_done + pending_chunks
        if progress:
            progress(IngestProgress(done, len(docs), chunks_done, time.perf_counter() - started))
        return IngestReport(tuple(outcomes[d.id] for d in docs), time.perf_counter() - started)

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
                    f"{doc.id!r} appears twice in this ingest (also in {seen[doc.id]})",
                )
            seen[doc.id] = doc.origin or "this batch"
            docs.append(doc)
        return docs

    def _chunk(self, doc: Document) -> list[Chunk]:
        budget = self._policy.max_tokens
        if self._policy.embed_titles and doc.title:
            # The title is embedded with every chunk: leave room for it (and a separator).
            budget = max(budget // 2, budget - len(self._embedder.token_spans(doc.title)) - 1)
        return chunk_text(
            doc.text,
            self._embedder.token_spans(doc.text),
            max_tokens=budget,
            overlap_tokens=min(self._policy.overlap_tokens, budget // 2),
        )

    def embedding_text(self, doc: Document, chunk: Chunk) -> str:
        return (
            f"{doc.title}\n{chunk.text}" if self._policy.embed_titles and doc.title else chunk.text
        )

    def _write(self, pending: Sequence[tuple[Document, list[Chunk]]]) -> None:
        texts = [self.embedding_text(doc, c) for doc, chunks in pending for c in chunks]
        vectors = self._embedder.embed(texts)
        items, offset = [], 0
        for doc, chunks in pending:
            items.append((doc, chunks, vectors[offset : offset + len(chunks)]))
            offset += len(chunks)
        result = self._store.write(items)
        by_chunk: dict[int, np.ndarray] = {}
        for doc, _, doc_vectors in items:
            by_chunk.update(zip(result.added[doc.id], doc_vectors))
        self._on_write(result, by_chunk)
