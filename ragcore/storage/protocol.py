"""What the engine, retrieval and ingest need of a store, as a ``typing.Protocol``.

Two stores satisfy it: ``storage.store.Store`` (SQLite, embedded, the default) and
``storage.postgres.PostgresStore`` (a shared PostgreSQL with pgvector). Vector search is
not part of it: the SQLite store searches through the hnswlib index beside it
(``vector_index``), PostgreSQL inside the database (``PostgresStore.vector_search``).
Sessions and tables reach either store through their own seams (``storage.sql``,
``storage.tables`` / ``storage.postgres.tables``); SQLite-only services (``path``,
``reader``, ``backup_to``) are not part of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from ragcore.documents import Chunk, Document, DocumentInfo
from ragcore.scope import Scope
from ragcore.storage.filters import SearchFilters
from ragcore.storage.records import DocumentPage, DocumentRecord, Listing
from ragcore.storage.store import StoredChunk, WriteResult

if TYPE_CHECKING:
    from ragcore.storage.postgres import PostgresStore
    from ragcore.storage.store import Store


class DocumentStore(Protocol):
    """Documents, chunks and their embeddings, keyword search, settings and the data
    version, seen within ``scope``."""

    scope: Scope

    def within(self, scope: Scope) -> DocumentStore: ...
    def close(self) -> None: ...

    # settings and the data version
    def meta(self, key: str) -> str | None: ...
    def set_meta(self, values: dict[str, str]) -> None: ...
    def forget_meta(self, keys: Iterable[str]) -> None: ...
    def data_version(self) -> int: ...

    # writes (ingest, delete)
    def checksums(self, ids: Iterable[str]) -> dict[str, str]: ...
    def taken_outside(self, ids: Iterable[str]) -> list[str]: ...
    def write(
        self, items: Sequence[tuple[Document, Sequence[Chunk], np.ndarray]]
    ) -> WriteResult: ...
    def delete(self, document_id: str) -> WriteResult: ...
    def delete_knowledge_base(self, name: str) -> tuple[int, WriteResult]: ...

    # documents and knowledge bases
    def knowledge_bases(self) -> list[tuple[str, int, int]]: ...
    def check_knowledge_bases(self, names: Iterable[str]) -> None: ...
    def counts(self) -> dict[str, int]: ...
    def documents(self, ids: Iterable[str]) -> dict[str, DocumentInfo]: ...
    def record(self, document_id: str) -> DocumentRecord: ...
    def text(self, document_id: str) -> str: ...
    def list_documents(self, listing: Listing, page_token: str | None) -> DocumentPage: ...

    # chunks and search
    def chunks(self, ids: Sequence[int]) -> dict[int, StoredChunk]: ...
    def embeddings(self, batch: int = 4096) -> Iterator[tuple[np.ndarray, np.ndarray]]: ...
    def vectors(self, ids: Sequence[int]) -> np.ndarray: ...
    def filtered_chunk_ids(self, filters: SearchFilters) -> set[int]: ...
    def keyword_search(
        self, match: str, filters: SearchFilters, limit: int, title_weight: float = 1.0
    ) -> list[tuple[int, float]]: ...
    def document_keyword_search(
        self, match: str, filters: SearchFilters, limit: int, title_weight: float = 1.0
    ) -> list[tuple[int, float]]: ...
    def first_chunk_ids(self, chunk_ids: Sequence[int]) -> dict[int, int]: ...


@runtime_checkable
class FilteredVectorIndex(Protocol):
    """A vector index that applies the search filters itself (PostgreSQL's, inside the
    database), so the Searcher need not list the allowed chunk ids first."""

    def search_filtered(
        self, vector: np.ndarray, k: int, filters: SearchFilters
    ) -> list[tuple[int, float]]: ...


@dataclass(frozen=True)
class VectorCandidates:
    """A vector search's hits, with what hybrid search reads next, fetched together:
    ``hits`` (chunk id, cosine) nearest first; ``owners``, for each hit and each other
    candidate asked about, the first chunk of its document; ``vectors``, the stored
    embeddings of those candidates and owners that are not hits (a chunk deleted
    meanwhile is in neither)."""

    hits: list[tuple[int, float]]
    owners: dict[int, int]
    vectors: dict[int, np.ndarray]


@runtime_checkable
class CandidateIndex(Protocol):
    """A vector index that gathers hybrid search's vector side in one round trip
    (PostgreSQL's: the nearest chunks, their documents' first chunks, and the embeddings
    the fusion needs, instead of three queries)."""

    def candidates(
        self, vector: np.ndarray, k: int, filters: SearchFilters, others: Sequence[int]
    ) -> VectorCandidates: ...


if TYPE_CHECKING:

    def _both_conform(sqlite: Store, postgres: PostgresStore) -> list[DocumentStore]:
        """mypy checks here that both stores satisfy the protocol."""
        return [sqlite, postgres]
