"""Vector, keyword and hybrid search over the store and the vector index.

Keyword search is FTS5 BM25 over chunk text and document title. The user's text never
reaches the FTS5 parser as syntax: it is cut into word tokens, each quoted, and joined
with OR. Hybrid search gathers candidates from both methods (the vector search run
again from a query moved toward its own best chunks when ``feedback_chunks`` is set;
and, when its weight is set, the first chunks of the documents that document-level
BM25 ranks first), scores every candidate by each (exact cosine of its stored
embedding, BM25 from FTS5, and its document's signals), and fuses them as ``fusion``
describes; an optional cross-encoder reranks the top.

With an ``executor`` (the engine's), a hybrid query is embedded on one of its threads
(on one onnxruntime thread) while the keyword passes run: onnxruntime and SQLite both
release the GIL, so on two cores the two take about as long as the slower of them
rather than their sum. On PostgreSQL (a ``CandidateIndex``) the vector side and what
the fusion reads next (the candidates' documents' first chunks, the embeddings not yet
scored) come back in one round trip, while the keyword pass has run beside the
embedding.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ragcore.config import Config
from ragcore.documents import DocumentInfo
from ragcore.errors import InvalidQueryError
from ragcore.inference.embedder import Embedder, beside_other_work
from ragcore.inference.reranker import Reranker
from ragcore.retrieval.fusion import Signals, fuse
from ragcore.storage.filters import SearchFilters
from ragcore.storage.keyword_terms import TOKENIZER_INSTANCE
from ragcore.storage.protocol import (
    CandidateIndex,
    DocumentStore,
    FilteredVectorIndex,
    VectorCandidates,
)
from ragcore.storage.vector_index import VectorIndex
from ragcore.text.terms import STOPWORDS
from ragcore.types import SearchMode

MAX_QUERY_CHARS = 4000
MAX_TOP_K = 1000
KEYWORD_SCORING_DEPTH = 1000  # BM25 ranks kept for scoring hybrid candidates


@dataclass(frozen=True)
class Hit:
    """One retrieved chunk, with every score that placed it and its document."""

    chunk_id: int
    document_id: str
    text: str
    start: int
    end: int
    """``start``/``end``: where ``text`` is in the document's text, in code points."""
    start_byte: int
    end_byte: int
    """The same range in UTF-8 bytes of the document's text."""
    position: int
    entities: tuple[str, ...]
    numeric_density: float
    score: float
    """The score this hit was ranked by (its mode's final score)."""
    scores: Mapping[str, float]
    """Per-method scores: ``vector`` (cosine; to the moved query vector when
    ``feedback_chunks`` is set), ``keyword`` (BM25), ``hybrid`` (0 to 1 over
    the candidates for min-max and z-score fusion), ``rerank``; with document signals also
    ``document_vector`` (the cosine of the document's first chunk) and
    ``document_keyword`` (BM25 of the document's title and whole text)."""
    document: DocumentInfo
    section: str = ""
    """Where the chunk is in the document's structure, its headings joined with " > "
    ("5 Maintenance > 5.3 Mechanical seal"); empty when unknown."""
    pages: tuple[int, int] | None = None
    """The first and last page (1-based) the chunk is on; None when unknown."""


def fts_query(text: str) -> str:
    """An FTS5 MATCH expression that ORs the quoted word tokens of ``text``: its tokens
    as FTS5's unicode61 tokenizer splits and folds them (so each quoted one is one term
    on both stores), stop words left out unless nothing else is left."""
    tokens = TOKENIZER_INSTANCE.words(text)
    content = [t for t in tokens if t not in STOPWORDS] or tokens
    return " OR ".join(f'"{t}"' for t in dict.fromkeys(content))


class Searcher:
    """Runs searches; owns nothing (not even ``executor``), so it is cheap to build."""

    def __init__(
        self,
        store: DocumentStore,
        index: VectorIndex,
        embedder: Embedder,
        config: Config,
        reranker: Reranker | None = None,
        executor: Executor | None = None,
    ) -> None:
        self._store = store
        self._index = index
        self._embedder = embedder
        self._config = config
        self._reranker = reranker
        self._executor = executor

    def search(
        self,
        query: str,
        *,
        mode: SearchMode | str = SearchMode.HYBRID,
        k: int = 10,
        filters: SearchFilters = SearchFilters(),
        rerank: bool | None = None,
    ) -> list[Hit]:
        """The best ``k`` chunks for ``query``; ``rerank=None`` reranks when configured.

        ``index`` may be a ``FilteredVectorIndex`` (PostgreSQL's): it then gets the
        filters themselves rather than the ids of the chunks that pass them."""
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
        if mode == SearchMode.VECTOR:
            vector = self._embedder.embed([query])[0]
            return [(cid, {"vector": s}) for cid, s in self._nearest(vector, depth, filters)]
        match = fts_query(query)
        if mode == SearchMode.KEYWORD:
            return [(cid, {"keyword": s}) for cid, s in self._keyword(match, depth, filters)]
        return self._hybrid(query, match, depth, filters)

    def _keyword(self, match, k, filters):
        if not match:
            return []
        return self._store.keyword_search(match, filters, k, self._config.title_weight)

    def _nearest(self, vector, k, filters) -> list[tuple[int, float]]:
        if isinstance(self._index, FilteredVectorIndex):
            return self._index.search_filtered(vector, k, filters)
        allowed = None if filters.empty else self._store.filtered_chunk_ids(filters)
        return self._index.search(vector, k, allowed)

    def _hybrid(self, query, match, depth, filters):
        config = self._config
        n = max(depth, config.candidates)
        embedded = self._embedding(query)
        bm25_ranked, documents_ranked = self._keyword_passes(match, n, filters)
        query_vector = embedded()
        fetched: VectorCandidates | None = None
        if isinstance(self._index, CandidateIndex) and not config.feedback_chunks:
            # One round trip for the vector side and what the fusion reads next.
            others = [c for c, _ in bm25_ranked[:n]] + [c for c, _ in documents_ranked[:n]]
            fetched = self._index.candidates(query_vector, n, filters, list(dict.fromkeys(others)))
            vector_hits = fetched.hits
        else:
            vector_hits = self._nearest(query_vector, n, filters)
        if config.feedback_chunks and vector_hits:
            # Rocchio from the vector side's own best chunks: the abstract nearest a claim,
            # in the embedding's own terms, rewords it; the moved vector searches again.
            top = [c for c, _ in vector_hits[: config.feedback_chunks]]
            query_vector = feedback_vector(
                query_vector, self._index.vectors(top), config.feedback_weight
            )
            vector_hits = self._nearest(query_vector, n, filters)
        # The first chunk stands for a document found by its whole text.
        ids = list(
            dict.fromkeys(
                [c for c, _ in vector_hits]
                + [c for c, _ in bm25_ranked[:n]]
                + [c for c, _ in documents_ranked[:n]]
            )
        )
        if not ids:
            return []
        cosine = dict(vector_hits)
        cosine.update(self._cosines([c for c in ids if c not in cosine], query_vector, fetched))
        bm25 = dict(bm25_ranked)
        scores = {c: {"vector": cosine[c], "keyword": bm25.get(c, 0.0)} for c in ids}
        signals = self._signals(ids, scores, cosine, documents_ranked, query_vector, n, fetched)
        for c, value in zip(ids, fuse(signals, config).tolist(), strict=True):
            scores[c]["hybrid"] = value
        return sorted(scores.items(), key=lambda item: -item[1]["hybrid"])

    def _embedding(self, query: str) -> Callable[[], np.ndarray]:
        """The query's vector, started on the executor when there is one: call to get it."""
        embed = self._embedder.embed
        try:
            future = (
                None if self._executor is None else self._executor.submit(_beside, embed, query)
            )
        except RuntimeError:  # its owner shut it down meanwhile (closing): embed here
            future = None
        if future is None:
            vector = embed([query])[0]
            return lambda: vector
        return lambda: future.result()[0]

    def _keyword_passes(self, match, n, filters):
        """Chunk-level BM25, and document-level BM25 when its weight is set."""
        # One FTS5 pass scores far more chunks than are kept: it costs about as much as
        # the top n alone, and gives the BM25 of (nearly) every vector candidate too.
        bm25_ranked = self._keyword(match, max(n, KEYWORD_SCORING_DEPTH), filters)
        documents_ranked = (
            self._store.document_keyword_search(
                match, filters, max(n, KEYWORD_SCORING_DEPTH), self._config.title_weight
            )
            if match and self._config.document_keyword_weight > 0
            else []
        )
        return bm25_ranked, documents_ranked

    def _cosines(
        self, ids: list[int], query_vector: np.ndarray, fetched: VectorCandidates | None = None
    ) -> dict[int, float]:
        """Exact cosines from the stored embeddings (the index's own floats; SQLite gives
        a median query's ~100 in 0.5 ms, hnswlib's ``get_items`` in 1.7); 0 for a chunk
        deleted since. ``fetched`` holds them already (PostgreSQL's one round trip): the
        same matrix product, so the same doubles as from the store."""
        if not ids:
            return {}
        if fetched is not None:
            zeros = np.zeros(len(query_vector), dtype=np.float32)
            vectors = np.vstack([fetched.vectors.get(c, zeros) for c in ids])
        else:
            vectors = self._store.vectors(ids)
        if vectors.shape[1] != len(query_vector):  # every chunk deleted meanwhile
            return dict.fromkeys(ids, 0.0)
        return dict(zip(ids, (vectors @ query_vector).tolist()))

    def _signals(self, ids, scores, cosine, documents_ranked, query_vector, n, fetched) -> Signals:
        """The candidates' scores by each method, chunk-level and (when used) document-level."""
        config = self._config
        vector = np.array([scores[c]["vector"] for c in ids])
        keyword = np.array([scores[c]["keyword"] for c in ids])
        if not (
            config.document_keyword_weight or config.document_vector_weight or config.sibling_weight
        ):
            return Signals(n, vector, keyword)
        first = fetched.owners if fetched is not None else self._store.first_chunk_ids(ids)
        # A chunk deleted since it was found is its own document; _hits drops it later.
        owners = [first.get(c, c) for c in ids]
        document_keyword = document_vector = None
        if config.document_keyword_weight:
            document_bm25 = dict(documents_ranked)
            document_keyword = np.array([document_bm25.get(o, 0.0) for o in owners])
            for c, value in zip(ids, document_keyword.tolist(), strict=True):
                scores[c]["document_keyword"] = value
        if config.document_vector_weight:
            missing = list(dict.fromkeys(o for o in owners if o not in cosine))
            cosine = {**cosine, **self._cosines(missing, query_vector, fetched)}
            document_vector = np.array([cosine[o] for o in owners])
            for c, value in zip(ids, document_vector.tolist(), strict=True):
                scores[c]["document_vector"] = value
        return Signals(n, vector, keyword, np.array(owners), document_vector, document_keyword)

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
                    start_byte=chunk.start_byte,
                    end_byte=chunk.end_byte,
                    position=chunk.position,
                    entities=chunk.entities,
                    numeric_density=chunk.numeric_density,
                    score=scores[final],
                    scores=MappingProxyType(scores),
                    document=documents[chunk.document_id],
                    section=chunk.section,
                    pages=chunk.pages,
                )
            )
        return hits


def _beside(embed: Callable[[list[str]], np.ndarray], query: str) -> np.ndarray:
    """``query``'s embedding, on one thread: the keyword passes run meanwhile."""
    with beside_other_work():
        return embed([query])


def feedback_vector(query: np.ndarray, vectors: np.ndarray, weight: float) -> np.ndarray:
    """``query`` moved toward the mean of ``vectors`` by ``weight`` (Rocchio), unit length."""
    if len(vectors) == 0 or weight == 0:
        return query
    moved = query + weight * vectors.mean(axis=0)
    norm = float(np.linalg.norm(moved))
    return (moved / norm).astype(query.dtype) if norm > 0 else query


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
