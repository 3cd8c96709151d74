"""The vector index of the PostgreSQL store, as the Searcher and the Engine use one.

The vectors live in the database (pgvector's HNSW index, written in the same transaction
as the chunks), so there is nothing to add, remove or save here: every server sharing the
database searches the same index, and sees an ingest through any of them once it commits.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from ragcore.storage.filters import SearchFilters
from ragcore.storage.postgres.store import PostgresStore
from ragcore.storage.protocol import VectorCandidates
from ragcore.storage.store import WriteResult


class PostgresIndex:
    """``VectorIndex`` over ``PostgresStore.vector_search`` (within the store's scope);
    ``search_filtered`` hands the filters to the database instead of a set of ids, and
    ``candidates`` gathers hybrid search's vector side in one round trip."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store

    def add(self, ids: Sequence[int] | np.ndarray, vectors: np.ndarray) -> None:
        """Nothing to do: the store wrote the vectors with their chunks."""

    def remove(self, ids: Sequence[int]) -> None:
        """Nothing to do: the store deleted the vectors with their chunks."""

    def search_filtered(
        self, vector: np.ndarray, k: int, filters: SearchFilters
    ) -> list[tuple[int, float]]:
        return self._store.vector_search(vector, filters, k)

    def candidates(
        self, vector: np.ndarray, k: int, filters: SearchFilters, others: Sequence[int]
    ) -> VectorCandidates:
        return self._store.vector_candidates(vector, filters, k, others)

    def search(
        self, vector: np.ndarray, k: int, allowed: Collection[int] | None = None
    ) -> list[tuple[int, float]]:
        """The ``k`` nearest chunks; among ``allowed`` only, exactly, when it is given."""
        if allowed is None:
            return self._store.vector_search(vector, SearchFilters(), k)
        ids = list(allowed)
        if not ids:
            return []
        scores = self.vectors(ids) @ np.asarray(vector, dtype=np.float32)
        best = np.argsort(-scores)[:k]
        return [(int(ids[i]), float(scores[i])) for i in best]

    def vectors(self, ids: Sequence[int]) -> np.ndarray:
        """The stored embeddings of ``ids``, in order (zeros for a chunk deleted since)."""
        return self._store.vectors(ids)

    def __len__(self) -> int:
        return self._store.counts()["chunks"]


class InStoreVectors:
    """What the Engine keeps beside a store for its vectors (as ``PersistentIndex`` for
    SQLite): here the index view, and nothing to follow, catch up with or save."""

    def __init__(self, store: PostgresStore) -> None:
        self.index = PostgresIndex(store)

    def refresh(self) -> None:
        """Nothing to do: another server's writes are in the database's index already."""

    def apply(self, result: WriteResult, added: dict[int, np.ndarray]) -> None:
        """Nothing to do: the write put the vectors in the database's index."""

    def save(self) -> None:
        """Nothing to do: the vectors were committed with the data."""
