"""Caches for repeated questions: exact answers, and retrievals for near-duplicates.

- ``AnswerCache``: the same normalised (rewritten) question, filters, scope, round cap,
  configuration and data version → the stored answer. The data version moves with every
  committed ingest or delete, so a change to the documents misses every older entry
  (which the LRU bound then ages out).
- ``RetrievalCache``: a question whose perception matches a cached one (same entities,
  constraints, action and route; ``RetrievalKey``) and whose embedding is at least
  ``cosine`` close reuses that retrieval — never its answer, so generation and validation
  still run on the new question. Questions that differ in one model number or one year
  have different entities or constraints, so they never share.

Both are bounded LRUs, thread-safe, in memory (a restart starts them empty).
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, fields
from datetime import date
from typing import Generic, TypeVar

import numpy as np

from ragcore.agents.perception.agent import Constraints, Perception
from ragcore.config import Config
from ragcore.inference.embedder import Embedder
from ragcore.scope import Scope
from ragcore.storage.filters import SearchFilters
from ragcore.types import Action, Route

V = TypeVar("V")
_SPACES = re.compile(r"\s+")
# Settings that change how fast, not what: they stay out of the fingerprint.
_NOT_ANSWERING = frozenset(
    {
        "data_dir",
        "threads",
        "batch_size",
        "batch_tokens",
        "session_max_turns",
        "session_idle_seconds",
        "answer_cache_size",
        "retrieval_cache_size",
    }
)


def normalise(question: str) -> str:
    """Case, runs of spaces and closing punctuation do not change a question."""
    return _SPACES.sub(" ", question.strip()).rstrip("?!. ").casefold()


def config_fingerprint(config: Config, *rule_texts: str) -> str:
    """A digest of every setting that can change an answer, and of the rule files' texts."""
    parts = [
        f"{f.name}={getattr(config, f.name)!r}"
        for f in fields(config)
        if f.name not in _NOT_ANSWERING
    ]
    return hashlib.sha256("\n".join([*parts, *rule_texts]).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class AnswerKey:
    question: str
    """Normalised (``normalise``) rewritten question."""
    filters: SearchFilters
    scope: Scope
    max_rounds: int
    config: str
    data_version: int
    today: date | None = None
    """Relative dates ("last month") resolve against it."""

    @classmethod
    def of(
        cls,
        question: str,
        filters: SearchFilters,
        scope: Scope,
        max_rounds: int,
        config: str,
        data_version: int,
        today: date | None = None,
    ) -> AnswerKey:
        return cls(normalise(question), filters, scope, max_rounds, config, data_version, today)


@dataclass(frozen=True)
class RetrievalKey:
    """What two questions must share exactly to share a retrieval."""

    entities: frozenset[str]
    constraints: Constraints
    action: Action
    route: Route
    sides: tuple[str, ...]
    filters: SearchFilters
    scope: Scope
    config: str
    data_version: int

    @classmethod
    def of(
        cls,
        perception: Perception,
        filters: SearchFilters,
        scope: Scope,
        config: str,
        data_version: int,
    ) -> RetrievalKey:
        return cls(
            frozenset(e.text.casefold() for e in perception.entities),
            perception.constraints,
            perception.action,
            perception.route,
            perception.sides,
            filters,
            scope,
            config,
            data_version,
        )


class AnswerCache(Generic[V]):
    """Values by exact key, the ``size`` most recently used kept (0: keeps nothing)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key: Hashable, value: V) -> None:
        if self.size < 1:
            return
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


@dataclass(frozen=True)
class Reuse(Generic[V]):
    """A cached retrieval found for a near-duplicate, and how close its question was."""

    value: V
    cosine: float
    question: str
    """The question the retrieval was made for."""


class RetrievalCache(Generic[V]):
    """Values by ``RetrievalKey`` and question embedding; ``find`` returns the closest
    entry of the same key at ``cosine`` or above. The ``size`` most recently used kept."""

    def __init__(self, size: int, cosine: float) -> None:
        self.size = size
        self.cosine = cosine
        self._items: OrderedDict[tuple[RetrievalKey, str], tuple[np.ndarray, V]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def find(self, key: RetrievalKey, embedding: np.ndarray) -> Reuse[V] | None:
        vector = _unit(embedding)
        with self._lock:
            best: tuple[float, tuple[RetrievalKey, str]] | None = None
            for item, (cached, _) in self._items.items():
                if item[0] != key:
                    continue
                cosine = float(np.dot(cached, vector))
                if cosine >= self.cosine and (best is None or cosine > best[0]):
                    best = (cosine, item)
            if best is None:
                self.misses += 1
                return None
            self._items.move_to_end(best[1])
            self.hits += 1
            return Reuse(self._items[best[1]][1], best[0], best[1][1])

    def put(self, key: RetrievalKey, question: str, embedding: np.ndarray, value: V) -> None:
        if self.size < 1:
            return
        with self._lock:
            item = (key, normalise(question))
            self._items[item] = (_unit(embedding), value)
            self._items.move_to_end(item)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


def _unit(vector: np.ndarray) -> np.ndarray:
    v = np.asarray(vector, dtype=np.float32).ravel()
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


@dataclass(frozen=True)
class Ticket:
    """A retrieval-cache look-up, kept to store the retrieval made after a miss."""

    key: RetrievalKey
    embedding: np.ndarray


class Caches:
    """Both caches of one engine, with what their keys need: the data version (read on
    every look-up, so another process's ingest is seen too), the configuration's
    fingerprint plus ``stamp()`` (e.g. the strategy file's mtime: it is re-read while
    running), today's date, and the question embedder for near-duplicates.
    """

    def __init__(
        self,
        config: Config,
        *,
        data_version: Callable[[], int],
        embed: Callable[[str], np.ndarray],
        stamp: Callable[[], str] = lambda: "",
        today: Callable[[], date] = date.today,
        rule_texts: tuple[str, ...] = (),
    ) -> None:
        self.answers: AnswerCache[object] = AnswerCache(config.answer_cache_size)
        self.retrievals: RetrievalCache[object] = RetrievalCache(
            config.retrieval_cache_size, config.retrieval_reuse_cosine
        )
        self._fingerprint = config_fingerprint(config, *rule_texts)
        self._data_version = data_version
        self._embed = embed
        self._stamp = stamp
        self._today = today

    def answer_key(
        self, question: str, filters: SearchFilters, scope: Scope, max_rounds: int
    ) -> AnswerKey:
        return AnswerKey.of(
            question,
            filters,
            scope,
            max_rounds,
            self._fingerprint + self._stamp(),
            self._data_version(),
            self._today(),
        )

    def near_duplicate(
        self, perception: Perception, filters: SearchFilters, scope: Scope
    ) -> tuple[Reuse[object] | None, Ticket | None]:
        """A cached retrieval for a near-duplicate of ``perception``'s question, and the
        ticket to keep this question's retrieval under (None when the cache is off)."""
        if self.retrievals.size < 1:
            return None, None
        key = RetrievalKey.of(
            perception,
            filters,
            scope,
            self._fingerprint + self._stamp() + str(self._today()),
            self._data_version(),
        )
        ticket = Ticket(key, self._embed(perception.question))
        return self.retrievals.find(key, ticket.embedding), ticket

    def keep_retrieval(self, ticket: Ticket | None, question: str, retrieval: object) -> None:
        if ticket is not None:
            self.retrievals.put(ticket.key, question, ticket.embedding, retrieval)


class QueryEmbeddings:
    """An ``Embedder`` for queries that remembers its last ``size`` one-text embeddings.

    The near-duplicate look-up embeds a question and round 1's base search embeds the same
    text again; measured on the 121 golden questions that second embedding was ~24 ms,
    half of round 1's retrieval, so it is kept rather than recomputed.
    """

    def __init__(self, embedder: Embedder, size: int = 64) -> None:
        self._embedder = embedder
        self._recent: AnswerCache[np.ndarray] = AnswerCache(size)

    @property
    def dimension(self) -> int:
        return self._embedder.dimension

    @property
    def max_tokens(self) -> int:
        return self._embedder.max_tokens

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if len(texts) != 1:
            return self._embedder.embed(texts)
        vector = self._recent.get(texts[0])
        if vector is None:
            vector = self._embedder.embed(texts)
            self._recent.put(texts[0], vector)
        return vector.copy()

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        return self._embedder.token_spans(text)

    def close(self) -> None:
        """The wrapped embedder belongs to its owner, who closes it."""
