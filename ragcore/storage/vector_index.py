"""The hnswlib vector index: derived from SQLite, persisted beside it, rebuilt when stale.

Labels are chunk ids. The index is saved atomically: written to a new file, fsynced,
then recorded in SQLite (file name, sha256, and the store's ``data_version`` it
reflects) before the old file is removed. On open, a missing, corrupt or out-of-step
file is rebuilt from the embeddings in SQLite, with a log line saying why.

Several processes may share one data directory (``ragcore serve --processes N``): each
holds its own copy of the index, so ``refresh`` (before every read) notices a data version
it has not seen and extends its copy from SQLite by the chunks it lacks (and drops the
ones gone); a process's own writes follow through ``apply``.
"""

from __future__ import annotations

import logging
import os
import threading
import uuid
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from ragcore.config import HnswParams
from ragcore.errors import StoreError
from ragcore.inference.models import sha256_of
from ragcore.storage.store import Store, WriteResult

log = logging.getLogger(__name__)


class VectorIndex(Protocol):
    """Nearest-neighbour search over unit vectors keyed by integer ids."""

    def add(self, ids: Sequence[int] | np.ndarray, vectors: np.ndarray) -> None: ...

    def remove(self, ids: Sequence[int]) -> None: ...

    def search(
        self, vector: np.ndarray, k: int, allowed: Collection[int] | None = None
    ) -> list[tuple[int, float]]: ...

    def vectors(self, ids: Sequence[int]) -> np.ndarray: ...

    def __len__(self) -> int: ...


class HnswIndex:
    """An hnswlib index of cosine similarity (inner product of unit vectors)."""

    _INITIAL_CAPACITY = 1024
    _EXACT_BELOW = 2048  # filtered searches over fewer ids are exact (and fast)

    def __init__(self, dimension: int, params: HnswParams = HnswParams(), threads: int = 2):
        import hnswlib

        self._dimension = dimension
        self._params = params
        self._threads = threads
        self._lock = threading.RLock()
        self._index = hnswlib.Index(space="ip", dim=dimension)
        self._index.init_index(
            max_elements=self._INITIAL_CAPACITY,
            M=params.m,
            ef_construction=params.ef_construction,
            allow_replace_deleted=False,
        )
        self._index.set_ef(params.ef_search)
        self._index.set_num_threads(threads)
        self._count = 0

    @classmethod
    def load(
        cls, path: Path, dimension: int, params: HnswParams, threads: int, count: int
    ) -> HnswIndex:
        """Load a saved index holding ``count`` live (not deleted) vectors."""
        import hnswlib

        self = cls.__new__(cls)
        self._dimension, self._params, self._threads = dimension, params, threads
        self._lock = threading.RLock()
        self._index = hnswlib.Index(space="ip", dim=dimension)
        self._index.load_index(str(path))
        self._index.set_ef(params.ef_search)
        self._index.set_num_threads(threads)
        self._count = count  # hnswlib does not report how many labels are deleted
        return self

    def __len__(self) -> int:
        return self._count

    def add(self, ids: Sequence[int] | np.ndarray, vectors: np.ndarray) -> None:
        if len(ids) == 0:
            return
        with self._lock:
            needed = self._index.get_current_count() + len(ids)
            if needed > self._index.get_max_elements():
                self._index.resize_index(max(needed, 2 * self._index.get_max_elements()))
            self._index.add_items(
                np.asarray(vectors, dtype=np.float32),
                np.asarray(ids, dtype=np.int64),
                num_threads=self._threads,
            )
            self._count += len(ids)

    def remove(self, ids: Sequence[int]) -> None:
        with self._lock:
            for label in ids:
                try:
                    self._index.mark_deleted(int(label))
                    self._count -= 1
                except RuntimeError:  # not in the index (already deleted): nothing to do
                    pass

    def search(
        self, vector: np.ndarray, k: int, allowed: Collection[int] | None = None
    ) -> list[tuple[int, float]]:
        """The ``k`` nearest ids with their cosine similarity, best first.

        ``allowed`` restricts the result to those ids: a small set is searched exactly,
        a large one through hnswlib's filter.
        """
        vector = np.asarray(vector, dtype=np.float32).reshape(1, -1)
        if allowed is not None and len(allowed) <= self._EXACT_BELOW:
            return self._exact(vector, k, list(allowed))
        k = min(k, self._count if allowed is None else len(allowed))
        if k <= 0:
            return []
        self._index.set_ef(max(self._params.ef_search, k))
        keep = None if allowed is None else allowed.__contains__
        try:
            labels, distances = self._index.knn_query(vector, k=k, filter=keep, num_threads=1)
        except RuntimeError:  # fewer than k reachable under the filter
            return self._exact(vector, k, list(allowed or self._index.get_ids_list()))
        return [(int(lab), 1.0 - float(dist)) for lab, dist in zip(labels[0], distances[0])]

    def _exact(self, vector: np.ndarray, k: int, ids: list[int]) -> list[tuple[int, float]]:
        if not ids:
            return []
        scores = self.vectors(ids) @ vector[0]
        best = np.argsort(-scores)[:k]
        return [(int(ids[i]), float(scores[i])) for i in best]

    def vectors(self, ids: Sequence[int]) -> np.ndarray:
        if len(ids) == 0:
            return np.zeros((0, self._dimension), dtype=np.float32)
        return np.asarray(self._index.get_items(list(ids), return_type="numpy"), dtype=np.float32)

    def save(self, path: Path) -> None:
        with self._lock:
            self._index.save_index(str(path))
        with open(path, "rb+") as handle:
            os.fsync(handle.fileno())


_FILE_KEY, _SHA_KEY, _VERSION_KEY, _COUNT_KEY = (
    "index_file",
    "index_sha256",
    "index_data_version",
    "index_count",
)


class PersistentIndex:
    """An HnswIndex kept in step with a Store and saved beside its database."""

    def __init__(
        self,
        store: Store,
        dimension: int,
        params: HnswParams,
        threads: int,
        *,
        rebuild: bool = False,
    ) -> None:
        self._store = store
        self._dimension = dimension
        self._params = params
        self._threads = threads
        self._dir = store.path.parent
        self._sync_lock = threading.Lock()
        self.version = -1  # the data version ``index`` reflects, set by _open
        self._live: set[int] = set()  # the chunk ids in ``index``
        self.index = self._open(rebuild)

    # -- following the store -----------------------------------------------------------
    def refresh(self) -> None:
        """Catch up with writes by other processes (or other engines) on this data
        directory: one read of the data version when there are none."""
        if self._store.data_version() != self.version:
            with self._sync_lock:
                self._sync()

    def apply(self, result: WriteResult, added: dict[int, np.ndarray]) -> None:
        """Follow a write of this process. Each chunk written moves the data version by one
        (the triggers of migration 0001): if the version before this write is not the one
        the index reflects, another process wrote in between, and the index catches up."""
        with self._sync_lock:
            self.index.remove(result.removed_chunk_ids)
            self._live.difference_update(result.removed_chunk_ids)
            # A search's refresh may have caught up with this write already (it reads
            # SQLite once the write commits): adding a chunk twice would count it twice.
            added = {c: v for c, v in added.items() if c not in self._live}
            if added:
                self.index.add(list(added), np.vstack(list(added.values())))
                self._live.update(added)
            moved = len(result.removed_chunk_ids) + sum(len(i) for i in result.added.values())
            if result.data_version - moved == self.version:
                self.version = result.data_version
            else:
                self._sync()

    def _sync(self) -> None:
        """Make the index hold exactly SQLite's chunks. The version is read first: a write
        landing meanwhile is then either already in the ids read or seen next time."""
        version = self._store.data_version()
        reader = self._store.reader()
        ids = {row[0] for row in reader.execute("SELECT id FROM chunks")}
        gone, missing = self._live - ids, sorted(ids - self._live)
        if gone:
            self.index.remove(sorted(gone))
        for start in range(0, len(missing), 512):
            part = missing[start : start + 512]
            marks = ",".join("?" * len(part))
            rows = reader.execute(
                f"SELECT id, embedding FROM chunks WHERE id IN ({marks})", part
            ).fetchall()
            if rows:
                self.index.add(
                    [r[0] for r in rows],
                    np.vstack([np.frombuffer(r[1], dtype="<f4") for r in rows]),
                )
        self._live = ids
        self.version = version
        if gone or missing:
            log.info(
                "vector index caught up with data version %d: %d added, %d removed",
                version,
                len(missing),
                len(gone),
            )

    def _open(self, rebuild: bool = False) -> HnswIndex:
        """The recorded index file, loaded; rebuilt from the database (with a warning
        saying why) if it is missing, corrupt or out of step, or (quietly) if ``rebuild``."""
        name, digest = self._store.meta(_FILE_KEY), self._store.meta(_SHA_KEY)
        version, count = self._store.meta(_VERSION_KEY), self._store.meta(_COUNT_KEY)
        self._remove_strays(keep=name)
        self.version = self._store.data_version()  # before the ids: see _sync
        self._live = {row[0] for row in self._store.reader().execute("SELECT id FROM chunks")}
        if rebuild:
            log.info("rebuilding the vector index from the database")
            return self._rebuild()
        if name is None:
            if self._store.counts()["chunks"]:
                log.warning("vector index missing: rebuilding it from the database")
            return self._rebuild()
        path = self._dir / name
        reason = None
        if not path.is_file():
            reason = f"{name} is missing"
        elif sha256_of(path) != digest:
            reason = f"{name} is corrupt (sha256 mismatch)"
        elif version != str(self._store.data_version()):
            reason = (
                f"{name} is out of step with the database (index at data version "
                f"{version}, database at {self._store.data_version()})"
            )
        if reason is None:
            try:
                return HnswIndex.load(
                    path, self._dimension, self._params, self._threads, int(count or 0)
                )
            except (RuntimeError, ValueError, OSError) as exc:
                reason = f"{name} cannot be loaded ({exc})"
        log.warning("vector index %s: rebuilding it from the database", reason)
        return self._rebuild()

    def _rebuild(self) -> HnswIndex:
        index = HnswIndex(self._dimension, self._params, self._threads)
        for ids, vectors in self._store.embeddings():
            if vectors.shape[1] != self._dimension:
                raise StoreError(
                    f"the database holds {vectors.shape[1]}-dimensional embeddings but the "
                    f"embedder makes {self._dimension}: use the embedder the data directory "
                    "was built with, or ingest into a new data directory"
                )
            index.add(ids, vectors)
        self.save(index)
        return index

    def save(self, index: HnswIndex | None = None) -> None:
        """Write the index to a new file and record it in SQLite, atomically, with the data
        version it reflects; a file of an older version than the one recorded (another
        process saved a newer one meanwhile) is dropped instead."""
        with self._sync_lock:
            if index is None:
                index, version = self.index, self.version
            else:
                version = self._store.data_version()
            name = f"vectors-{uuid.uuid4().hex[:12]}.hnsw"
            path = self._dir / name
            index.save(path)
            _fsync_dir(self._dir)
            digest = sha256_of(path)
        with self._store.transaction() as conn:
            rows = dict(
                conn.execute(
                    "SELECT key, value FROM meta WHERE key IN (?, ?)", (_FILE_KEY, _VERSION_KEY)
                ).fetchall()
            )
            old, recorded = rows.get(_FILE_KEY), rows.get(_VERSION_KEY)
            newer = recorded is not None and int(recorded) > version
            if not newer:
                conn.executemany(
                    "INSERT INTO meta(key, value) VALUES (?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    [
                        (_FILE_KEY, name),
                        (_SHA_KEY, digest),
                        (_VERSION_KEY, str(version)),
                        (_COUNT_KEY, str(len(index))),
                    ],
                )
        if newer:
            path.unlink(missing_ok=True)
        elif old and old != name:
            (self._dir / old).unlink(missing_ok=True)

    def _remove_strays(self, keep: str | None) -> None:
        """Delete index files left by a crash between writing and recording them. (A
        process opening while another saves may delete the file being saved: the record
        then names a missing file, and the next open rebuilds it; nothing is lost.)"""
        for stray in self._dir.glob("vectors-*.hnsw"):
            if stray.name != keep:
                stray.unlink(missing_ok=True)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
