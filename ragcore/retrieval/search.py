"""Vector, keyword and hybrid search over the store and the vector index.

Keyword search is FTS5 BM25 over chunk text and document title. The user's text never
reaches the FTS5 parser as syntax: it is cut into word tokens, each quoted, and joined
with OR. Hybrid search gathers candidates from both methods, scores every candidate by
both (exact cosine from the index, BM25 from FTS5), and fuses them by a normalised
weighted sum or by reciprocal rank fusion; an optional cross-encoder reranks the top.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ragcore.config import Config
from ragcore.documents import DocumentInfo
from ragcore.errors import InvalidQueryError
from ragcore.inference.embedder import Embedder
from ragcore.inference.reranker import Reranker
from ragcore.storage.store import SearchFilters, Store
from ragcore.storage.vector_index import VectorIndex
from ragcore.text.terms import STOPWORDS
from ragcore.types import Fusion, SearchMode

MAX_QUERY_CHARS = 4000
MAX_TOP_K = 1000
KEYWORD_SCORING_DEPTH = 1000  # BM25 ranks kept for scoring hybrid candidates
_TOKEN = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class Hit:
    """One retrieved chunk, with every score that placed it and its document."""

    chunk_id: int
    document_id: str
    text: str
    start: int
    end: int
    position: int
    entities: tuple[str, ...]
    numeric_density: float
    score: float
    """The score this hit was ranked by (its mode's final score)."""
    scores: Mapping[str, float]
    """Per-method scores: ``vector`` (cosine), ``keyword`` (BM25), ``hybrid``, ``rerank``."""
    document: DocumentInfo


def fts_query(text: str) -> str:
    """An FTS5 MATCH expression that ORs the quoted word tokens of ``text``."""
    tokens = [t.lower() for t in _TOKEN.findall(text)]
    content = [t for t in tokens if t not in STOPWORDS] or tokens
    return " OR ".join(f'"{t}"' for t in dict.fromkeys(content))


class Searcher:
    """Runs searches; owns nothing, so it is cheap to build."""

    def __init__(
        self,
        store: Store,
        index: VectorIndex,
        embedder: Embedder,
        config: Config,
        reranker: Reranker | None = None,
    ) -> None:
        self._store = store
        self._index = index
        self._embedder = embedder
        self._config = config
        self._reranker = reranker

    def search(
        self,
        query: str,
        *,
        mode: SearchMode | str = SearchMode.HYBRID,
        k: int = 10,
        filters: SearchFilters = SearchFilters(),
        rerank: bool | None = None,
    ) -> list[Hit]:
        """The best ``k`` chunks for ``query``; ``rerank=None`` reranks when configured."""
        query, mode = _check_query(query, mode, k)
        if filters.knowledge_bases:
            self._store.check_knowledge_bases(filters.knowledge_bases)
        use_reranker = self._reranker is not None if rerank is None else rerank
        if use_reranker and self._reranker is None:
            raise InvalidQueryError(
                "rerank was asked for but no reranker is configured; set "
                "reranker_path and reranker_sha256"
            )
        depth = max(k, self._config.rerank_candidates) if use_reranker else k
        scored = self._scored(query, mode, depth, filters)
        if use_reranker and scored:
            scored = self._rerank(query, scored[:depth])
        return self._hits(scored[:k], mode, "rerank" if use_reranker else mode)

    # -- scoring -------------------------------------------------------------------
    def _scored(self, query, mode, depth, filters) -> list[tuple[int, dict[str, float]]]:
        allowed = None if filters.empty else self._store.filtered_chunk_ids(filters)
        if mode == SearchMode.VECTOR:
            return [(cid, {"vector": s}) for cid, s in self._vector(query, depth, allowed)]
        match = fts_query(query)
        if mode == SearchMode.KEYWORD:
            return [(cid, {"keyword": s}) for cid, s in self._keyword(match, depth, filters)]
        return self._hybrid(query, match, depth, filters, allowed)

    def _keyword(self, match, k, filters):
        if not match:
            return []
        return self._store.keyword_search(match, filters, k, self._config.title_weight)

    def _vector(self, query, k, allowed):
        return self._index.search(self._embedder.embed([query])[0], k, allowed)

    def _hybrid(self, query, match, depth, filters, allowed):
        n = max(depth, self._config.candidates)
        query_vector = self._embedder.embed([query])[0]
        vector_hits = self._index.search(query_vector, n, allowed)
        # One FTS5 pass scores far more chunks than are kept: it costs about as much as
        # the top n alone, and gives the BM25 of (nearly) every vector candidate too.
        bm25_ranked = self._keyword(match, max(n, KEYWORD_SCORING_DEPTH), filters)
        keyword_hits = bm25_ranked[:n]
        ids = list(dict.fromkeys([c for c, _ in vector_hits] + [c for c, _ in keyword_hits]))
        if not ids:
            return []
        cosine = dict(vector_hits)
        missing = [c for c in ids if c not in cosine]
        cosine.update(zip(missing, (self._index.vectors(missing) @ query_vector).tolist()))
        bm25 = dict(bm25_ranked)
        scores = {c: {"vector": cosine[c], "keyword": bm25.get(c, 0.0)} for c in ids}
        fused = self._fuse(scores, vector_hits, keyword_hits)
        for c, value in fused.items():
            scores[c]["hybrid"] = value
        return sorted(scores.items(), key=lambda item: -item[1]["hybrid"])

    def _fuse(self, scores, vector_hits, keyword_hits) -> dict[int, float]:
        w = self._config.vector_weight
        if self._config.fusion == Fusion.RRF:
            rrf_k = self._config.rrf_k
            fused = dict.fromkeys(scores, 0.0)
            for weight, hits in ((w, vector_hits), (1 - w, keyword_hits)):
                for rank, (c, _) in enumerate(hits, start=1):
                    fused[c] += weight / (rrf_k + rank)
            return fused
        vector = _min_max({c: s["vector"] for c, s in scores.items()})
        keyword = _min_max({c: s["keyword"] for c, s in scores.items()})
        return {c: float(w * vector[c] + (1 - w) * keyword[c]) for c in scores}

    def _rerank(self, query, scored):
        assert self._reranker is not None  # search() checked it
        chunks = self._store.chunks([c for c, _ in scored])
        logits = self._reranker.score(query, [chunks[c].text for c, _ in scored])
        for (_, s), logit in zip(scored, logits.tolist()):
            s["rerank"] = logit
        return sorted(scored, key=lambda item: -item[1]["rerank"])

    def _hits(self, scored, mode, final) -> list[Hit]:
        chunks = self._store.chunks([c for c, _ in scored])
        documents = self._store.documents(ch.document_id for ch in chunks.values())
        hits = []
        for cid, scores in scored:
            chunk = chunks.get(cid)
            if chunk is None:  # deleted between scoring and fetching
                continue
            hits.append(
                Hit(
                    chunk_id=cid,
                    document_id=chunk.document_id,
                    text=chunk.text,
                    start=chunk.start,
                    end=chunk.end,
                    position=chunk.position,
                    entities=chunk.entities,
                    numeric_density=chunk.numeric_density,
                    score=scores[final],
                    scores=MappingProxyType(scores),
                    document=documents[chunk.document_id],
                )
            )
        return hits


def _min_max(values: dict[int, float]) -> dict[int, float]:
    if not values:
        return {}
    array = np.fromiter(values.values(), dtype=np.float64)
    low, span = array.min(), array.max() - array.min()
    if span <= 0:
        return dict.fromkeys(values, 1.0 if array.max() > 0 else 0.0)
    return {c: (v - low) / span for c, v in values.items()}


def _check_query(query: object, mode: object, k: object) -> tuple[str, SearchMode]:
    if not isinstance(query, str):
        raise InvalidQueryError(f"the query must be text, got {type(query).__name__}")
    if not query.strip():
        raise InvalidQueryError("the query is empty: give the words to search for")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidQueryError(
            f"the query is {len(query):,} characters long; the limit is {MAX_QUERY_CHARS:,}"
        )
    if (checked_mode := SearchMode.parse(mode)) is None:
        modes = ", ".join(SearchMode.values())
        raise InvalidQueryError(f"unknown search mode {mode!r}: use one of {modes}")
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_TOP_K:
        raise InvalidQueryError(f"k={k!r}: ask for 1 to {MAX_TOP_K} results")
    return query.strip(), checked_mode
