"""How close in meaning each candidate sentence is to the question, from the embedder the
engine already holds (no second model).

Word overlap picks the sentence that shares the most of the question's words; on real
manuals that is often a neighbour of the answer in the same chunk ("… you can keep
sending the same command" for "will it start moving again once the commands come
back?", where "Once in the timeout mode, moteus will only leave it upon receiving a stop
command" answers). The extractive generator reads this score beside its word overlap
when it ranks the sentences that are left after the answer-type checks.

Cost: only those candidates are scored, never whole chunks, in one batch with the
question (one ``embed`` call per question, none when fewer than two candidates are
left); a sentence's vector is kept (bounded, least recently used first out), so a chunk
that comes back for another question costs nothing more. A vector is the one of the
batch it was first embedded in (padding moves a cosine by ~0.003): near-ties only.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from ragcore.inference.embedder import Embedder

DEFAULT_CACHED_SENTENCES = 8192


class QuestionSimilarity:
    """Cosine of a question to each of its candidate sentences (thread-safe)."""

    def __init__(self, embedder: Embedder, cached: int = DEFAULT_CACHED_SENTENCES) -> None:
        self._embedder = embedder
        self._cached = cached
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def scores(self, question: str, sentences: Sequence[str]) -> tuple[float, ...]:
        """One cosine per sentence, in order (the embedder's vectors are normalised)."""
        if not sentences:
            return ()
        with self._lock:
            known = {s: v for s in sentences if (v := self._vectors.get(s)) is not None}
        missing = list(dict.fromkeys(s for s in sentences if s not in known))
        vectors = self._embedder.embed([question, *missing])
        with self._lock:
            for s, v in zip(missing, vectors[1:], strict=True):
                self._vectors[s] = v
                known[s] = v
            for s in sentences:
                if s in self._vectors:
                    self._vectors.move_to_end(s)
            while len(self._vectors) > self._cached:
                self._vectors.popitem(last=False)
        q = vectors[0]
        return tuple(float(known[s] @ q) for s in sentences)
