"""The two stores side by side: what the engine opens for a ``Config``, and where they differ.

* ``sqlite`` (``Config.store_url`` None): SQLite in the data directory, an hnswlib index
  file beside it that follows the store's writes (``PersistentIndex``), tables in the same
  database, backups and checks of its files.
* ``postgres`` (a ``postgresql://`` URL): one database many engines share, vector search
  inside it (pgvector), tables in it too; psycopg is imported only then (an optional
  extra).

Everything else the engine does goes through the ``DocumentStore`` protocol.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ragcore.config import Config
from ragcore.errors import StoreError
from ragcore.retrieval.tables import AnyTableReader, PostgresTableReader, TableReader
from ragcore.storage.protocol import DocumentStore
from ragcore.storage.store import Store, WriteResult
from ragcore.storage.vector_index import PersistentIndex, VectorIndex

if TYPE_CHECKING:  # psycopg is imported only for a PostgreSQL store
    from ragcore.storage.postgres import PostgresStore


class Vectors(Protocol):
    """The vector index the engine keeps beside its store: how it follows the store's
    writes (its own: ``apply``; other processes': ``refresh``) and is saved."""

    @property
    def index(self) -> VectorIndex: ...
    def refresh(self) -> None: ...
    def apply(self, result: WriteResult, added: dict[int, np.ndarray]) -> None: ...
    def save(self) -> None: ...


def open_store(config: Config, dimension: Callable[[], int]) -> DocumentStore:
    """SQLite in the data directory, or the PostgreSQL database of ``store_url`` (whose
    HNSW index is built for one dimension: ``dimension`` loads the embedder for it)."""
    if config.store_url is None:
        return Store(config.data_dir)
    from ragcore.storage.postgres import PostgresStore

    return PostgresStore(
        config.store_url,
        dimension=dimension(),
        ef_search=config.hnsw.ef_search,
        read_url=config.store_read_url,
        settings=config.store_settings,
    )


def open_vectors(
    store: DocumentStore, dimension: int, config: Config, *, rebuild: bool = False
) -> Vectors:
    """The hnswlib index file beside SQLite (``rebuild``: built anew from the database's
    embeddings instead of read from its file), or the database's own index."""
    if isinstance(store, Store):
        return PersistentIndex(store, dimension, config.hnsw, config.threads, rebuild=rebuild)
    from ragcore.storage.postgres.vectors import InStoreVectors

    return InStoreVectors(_postgres(store))


def index_for(vectors: Vectors, view: DocumentStore) -> VectorIndex:
    """The vector index a search on ``view`` (a scoped view of the store) goes through:
    hnswlib's is shared and filtered by the searcher, PostgreSQL's searches inside the
    view's scope."""
    if isinstance(vectors, PersistentIndex):
        return vectors.index
    from ragcore.storage.postgres.vectors import PostgresIndex

    return PostgresIndex(_postgres(view))


def open_tables(store: DocumentStore) -> AnyTableReader:
    """The store's tables and their read-only query runner."""
    if isinstance(store, Store):
        return TableReader(store)
    return PostgresTableReader(_postgres(store))


def sqlite_only(store: DocumentStore, what: str) -> Store:
    """``store`` if it is SQLite, for what only it does; else a StoreError saying so."""
    if isinstance(store, Store):
        return store
    raise StoreError(
        f"{what} needs the embedded SQLite store and is not available on the PostgreSQL "
        "store (Config.store_url / --store): use a data directory without store_url for it"
    )


def watch_store(store: DocumentStore, watcher: Callable[[bool], None]) -> None:
    """Tell ``watcher`` of a shared store's outages and returns; SQLite has none."""
    if not isinstance(store, Store):
        _postgres(store).watch(watcher)


def described(store: DocumentStore, config: Config) -> str:
    """Where the store is, for messages: the data directory, or the URL without its
    password."""
    if isinstance(store, Store):
        return str(config.data_dir)
    return _postgres(store).where


def _postgres(store: DocumentStore) -> PostgresStore:
    from ragcore.storage.postgres import PostgresStore

    if not isinstance(store, PostgresStore):
        raise TypeError(f"not a ragcore store: {type(store).__name__}")
    return store
