"""Semantic support: how close a claim is to the best sentence of the cited chunks.

Lexical coverage misses paraphrases ("after half a minute" for "after 30 s"); the
embedder the engine already holds measures meaning instead. Sentence vectors are cached
per chunk, so a chunk's sentences are embedded once however often it is cited; only the
claim is embedded per question, and only when lexical coverage alone is not enough.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from ragcore.agents.evidence import Evidence
from ragcore.inference.embedder import Embedder
from ragcore.text.citations import strip_citations
from ragcore.text.sentences import split_sentences

DEFAULT_CACHED_CHUNKS = 4096


class SemanticSupport:
    """Cosine of a claim to its closest sentence among the cited chunks (thread-safe)."""

    def __init__(self, embedder: Embedder, cached_chunks: int = DEFAULT_CACHED_CHUNKS) -> None:
        self._embedder = embedder
        self._cached_chunks = cached_chunks
        self._vectors: OrderedDict[int, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def score(self, claim: str, cited: Sequence[Evidence]) -> float:
        sentences = [self._sentence_vectors(e) for e in cited]
        stacked = [v for v in sentences if len(v)]
        if not stacked:
            return 0.0
        vector = self._embedder.embed([strip_citations(claim)])[0]
        return float(np.max(np.vstack(stacked) @ vector))

    def _sentence_vectors(self, e: Evidence) -> np.ndarray:
        with self._lock:
            if (cached := self._vectors.get(e.chunk_id)) is not None:
                self._vectors.move_to_end(e.chunk_id)
                return cached
        texts = [e.text[a:b] for a, b in split_sentences(e.text)]
        vectors = self._embedder.embed(texts) if texts else np.zeros((0, 1), dtype=np.float32)
        with self._lock:
            self._vectors[e.chunk_id] = vectors
            while len(self._vectors) > self._cached_chunks:
                self._vectors.popitem(last=False)
        return vectors
