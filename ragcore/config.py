"""The one configuration object, validated when it is built."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ragcore.documents import MAX_DOCUMENT_CHARS
from ragcore.errors import ConfigError
from ragcore.types import Fusion

# The int8-compute graph built by `make models`, attention and GELU fused: about 0.35x the
# time of the shipped graph per batch, dense / hybrid nDCG@10 on SciFact train within 0.5
# point of it (benchmarks/README.md, "Embedder"); "all-MiniLM-L6-v2" is the shipped graph,
# "all-MiniLM-L6-v2-qint8" the previous default (data directories built with it keep it).
DEFAULT_EMBEDDER = "all-MiniLM-L6-v2-qint8-fused"
DEFAULT_THREADS = 2
DEFAULT_BATCH_SIZE = 32
# 16 full-length inputs: fewer session.run calls, peak RSS within 600 MB with the int8 graph
# (32 x 256 reached ~590 MB); per-token time is the same from 4 to 32 inputs a batch.
DEFAULT_BATCH_TOKENS = 4096
DEFAULT_CHUNK_OVERLAP = 32
DEFAULT_FUSION = Fusion.ZSCORE
DEFAULT_VECTOR_WEIGHT = 0.5
DEFAULT_RRF_K = 60
# Hybrid fusion: chosen by the ablation on SciFact train (benchmarks/README.md,
# "Fusion ablation"), each from one or two principled values, not fitted. Title words
# weighted 2 helped hybrid by 0.2 point but cost keyword search and a golden question.
DEFAULT_TITLE_WEIGHT = 1.0
# Document BM25 (title + whole text) added 0.02 point on top of the others, for a second
# FTS5 pass per query: off by default, its index kept for corpora that want it.
DEFAULT_DOCUMENT_KEYWORD_WEIGHT = 0.0
DEFAULT_DOCUMENT_VECTOR_WEIGHT = 0.5
DEFAULT_SIBLING_WEIGHT = 0.0  # a soft max lost 1.2 points: documents rank by best chunk
DEFAULT_CANDIDATES = 100
# Dense pseudo-relevance feedback (Rocchio on the stored vectors of the vector search's
# first chunks): +0.4 to +0.6 point on SciFact train, about +0.25 once the choice of m and
# beta is cross-validated, under the 0.5 bar: off (benchmarks/README.md, "Dense feedback").
DEFAULT_FEEDBACK_CHUNKS = 0
DEFAULT_FEEDBACK_WEIGHT = 0.5
DEFAULT_RERANK_CANDIDATES = 30
DEFAULT_MAX_ROUNDS = 3
DEFAULT_SUPPORT_THRESHOLD = 0.6
# A claim this close in meaning (cosine, MiniLM) to a cited sentence is supported even
# when its words differ; calibrated on benchmarks/faults/set-a (benchmarks/README.md).
DEFAULT_SEMANTIC_THRESHOLD = 0.57
DEFAULT_LLM_TIMEOUT = 30.0
DEFAULT_LLM_CONTEXT_CHARS = 9000
"""About 2,300 tokens: a plan's evidence (6 passages for a lookup, 8 for a comparison,
~1,000 characters each). At 6,000 the last passages were dropped, and an answer that
needed one could not cite it; on the fault sets 9,000 accepted 9 more correct answers of
~940 and caught as many faults, and 12,000 changed nothing more (benchmarks/README.md).
Reading the prompt is the slow part of a local model's answer on a 2-core CPU: lower it
for a small model's context window."""
# Conversations (Engine.ask(..., session=...)) and caches.
DEFAULT_SESSION_MAX_TURNS = 20  # the oldest turns beyond this are dropped
DEFAULT_SESSION_IDLE_SECONDS = 1800.0
DEFAULT_ANSWER_CACHE_SIZE = 256
DEFAULT_RETRIEVAL_CACHE_SIZE = 256
# Two questions with the same perception this close (cosine, MiniLM) share a retrieval.
# benchmarks/cache_reuse.py: of the golden pairs with one perception, only paraphrases
# reach 0.9 (0.935, 0.949); a different question came at 0.79 ("payload" vs "payload and reach").
DEFAULT_RETRIEVAL_REUSE_COSINE = 0.9
LLM_API_KEY_ENV = "RAGCORE_LLM_API_KEY"
EMBEDDER_ENV = "RAGCORE_EMBEDDER"
STORE_URL_ENV = "RAGCORE_STORE_URL"
STORE_READ_URL_ENV = "RAGCORE_STORE_REPLICA_URL"
"""Read by the command line (``--store``), not by ``Config``: a program says its store."""
STORE_URL_SCHEMES = ("postgresql://", "postgres://")
# A shared PostgreSQL store's connections, per process (docs/scale-out.md has the plan).
DEFAULT_STORE_POOL_SIZE = 4  # an edge process works on --workers (4) requests at a time
DEFAULT_STORE_CONNECT_TIMEOUT = 2.0  # seconds; psycopg waits at least 2 for a connection
DEFAULT_STORE_STATEMENT_TIMEOUT = 30.0  # seconds; 0: none


@dataclass(frozen=True)
class StoreSettings:
    """How one process uses a shared PostgreSQL store (ignored by the SQLite store): at
    most ``pool_size`` connections per pool (the primary's, and the replica's if any);
    ``connect_timeout`` seconds to connect, also the longest wait for a free connection;
    ``statement_timeout`` seconds per statement (0: none), set on each connection;
    ``prepared_statements``: statements run often are prepared on their connection (off
    behind PgBouncer before 1.21 in transaction mode, which cannot keep them)."""

    pool_size: int = DEFAULT_STORE_POOL_SIZE
    connect_timeout: float = DEFAULT_STORE_CONNECT_TIMEOUT
    statement_timeout: float = DEFAULT_STORE_STATEMENT_TIMEOUT
    prepared_statements: bool = True

    def __post_init__(self) -> None:
        size = self.pool_size
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 1000:
            raise ConfigError("store_pool_size", size, "give 1 to 1000 connections per process")
        for name, least in (("connect_timeout", 1.0), ("statement_timeout", 0.0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value >= least:
                raise ConfigError(f"store_{name}", value, f"give seconds, at least {least:g}")
            object.__setattr__(self, name, float(value))
        if not isinstance(self.prepared_statements, bool):
            raise ConfigError(
                "store_prepared_statements", self.prepared_statements, "give True or False"
            )


def default_embedder() -> str:
    """``$RAGCORE_EMBEDDER`` (a name from models/manifest.toml), else ``DEFAULT_EMBEDDER``."""
    return os.environ.get(EMBEDDER_ENV) or DEFAULT_EMBEDDER


def default_data_dir() -> Path:
    """``$RAGCORE_DATA_DIR``, else ``$XDG_DATA_HOME/ragcore``, else ``~/.local/share/ragcore``."""
    if os.environ.get("RAGCORE_DATA_DIR"):
        return Path(os.environ["RAGCORE_DATA_DIR"])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "ragcore"


@dataclass(frozen=True)
class HnswParams:
    """hnswlib parameters; see its README for the trade-offs."""

    m: int = 16
    ef_construction: int = 200
    ef_search: int = 128

    def __post_init__(self) -> None:
        for name in ("m", "ef_construction", "ef_search"):
            if getattr(self, name) < 2:
                raise ConfigError(f"hnsw_{name}", getattr(self, name), "use a value of 2 or more")


@dataclass(frozen=True)
class Config:
    """Everything an Engine needs; each field has a sensible default.

    ``chunk_tokens`` defaults to the embedder's budget. Hybrid search (see
    ``ragcore.retrieval.fusion``): ``fusion`` puts each score on one scale (z-score,
    min-max or reciprocal rank); ``vector_weight`` is the vector side's share;
    ``document_vector_weight`` and ``document_keyword_weight`` give that share of each
    side to the chunk's document (its first chunk's cosine; BM25 over its title and
    whole text); ``sibling_weight`` adds that share of a document's other candidate
    chunks to each chunk; ``title_weight`` weighs title words in BM25; ``candidates``
    is how many hits each method contributes. A reranker is used only when
    ``reranker_path`` is set, and must then come with its pinned ``reranker_sha256``.

    Answering (``Engine.ask``): ``strategy_path`` and ``perception_rules_path`` replace
    the shipped rule files; ``max_rounds`` caps the retry loop; ``support_threshold`` is
    the share of a statement's terms its cited chunks must contain, and
    ``semantic_threshold`` the cosine to a cited sentence that supports a claim whose
    words differ (a paraphrase). With
    ``llm_base_url`` (an OpenAI-compatible endpoint, e.g. ``http://127.0.0.1:8080/v1``)
    and ``llm_model`` answers are written by that LLM instead of the extractive
    generator; its key is read from ``$RAGCORE_LLM_API_KEY``, never from the config.
    ``llm_context_chars`` caps the numbered context it is sent (the highest-numbered
    passages are dropped first; the answer may cite only the passages sent).

    Storage: with ``store_url`` None the documents, chunks and vectors live in
    ``data_dir`` (SQLite and an hnswlib file); a ``postgresql://`` URL keeps them in that
    PostgreSQL database (pgvector), shared by every engine given the same URL, and
    ``store_read_url`` sends searches to a read replica of it.

    Conversations: a session keeps its last ``session_max_turns`` turns and is deleted
    after ``session_idle_seconds`` without a question. Repeats: ``answer_cache_size``
    answers and ``retrieval_cache_size`` retrievals are kept in memory (LRU); a question
    whose perception matches a cached one and whose embedding is at least
    ``retrieval_reuse_cosine`` close reuses its retrieval, never its answer.
    """

    data_dir: Path = field(default_factory=default_data_dir)
    store_url: str | None = None
    """None: the embedded SQLite store in data_dir; ``postgresql://user@host/db``: PostgreSQL."""
    store_read_url: str | None = None
    """A read replica of ``store_url``'s database: searches and document reads go there,
    writes and sessions to ``store_url``. None: everything on ``store_url``."""
    store_settings: StoreSettings = field(default_factory=StoreSettings)
    """Pool size and timeouts of a PostgreSQL store (``--store-pool-size``, ...)."""
    embedder: str = field(default_factory=default_embedder)
    """A name from models/manifest.toml; a data directory keeps the one it was built with."""
    embedder_path: Path | None = None
    reranker_path: Path | None = None
    reranker_sha256: str | None = None
    reranker_tokenizer_path: Path | None = None
    threads: int = DEFAULT_THREADS
    batch_size: int = DEFAULT_BATCH_SIZE
    batch_tokens: int = DEFAULT_BATCH_TOKENS
    """Cap on padded tokens per embedding batch (memory grows with batch x length^2)."""
    chunk_tokens: int | None = None
    chunk_overlap: int = DEFAULT_CHUNK_OVERLAP
    embed_titles: bool = True
    max_document_chars: int = MAX_DOCUMENT_CHARS
    hnsw: HnswParams = field(default_factory=HnswParams)
    fusion: Fusion = DEFAULT_FUSION
    vector_weight: float = DEFAULT_VECTOR_WEIGHT
    rrf_k: int = DEFAULT_RRF_K
    title_weight: float = DEFAULT_TITLE_WEIGHT
    document_keyword_weight: float = DEFAULT_DOCUMENT_KEYWORD_WEIGHT
    document_vector_weight: float = DEFAULT_DOCUMENT_VECTOR_WEIGHT
    sibling_weight: float = DEFAULT_SIBLING_WEIGHT
    candidates: int = DEFAULT_CANDIDATES
    feedback_chunks: int = DEFAULT_FEEDBACK_CHUNKS
    """Hybrid search moves the query vector toward the stored vectors of the vector
    search's first this many chunks (Rocchio pseudo-relevance feedback, no extra
    embedding) and searches again with it: the nearest abstract rewords a claim in the
    embedding's own terms. Taken from the vector side alone, not the fused list, so the
    two sides stay complementary (from the fused list it lost up to 0.4 point). 0: off."""
    feedback_weight: float = DEFAULT_FEEDBACK_WEIGHT
    """How far: the moved vector is ``q + feedback_weight × mean(those vectors)``,
    normalised (0 to 1)."""
    rerank_candidates: int = DEFAULT_RERANK_CANDIDATES
    strategy_path: Path | None = None
    perception_rules_path: Path | None = None
    max_rounds: int = DEFAULT_MAX_ROUNDS
    support_threshold: float = DEFAULT_SUPPORT_THRESHOLD
    semantic_threshold: float = DEFAULT_SEMANTIC_THRESHOLD
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_timeout: float = DEFAULT_LLM_TIMEOUT
    llm_context_chars: int = DEFAULT_LLM_CONTEXT_CHARS
    session_max_turns: int = DEFAULT_SESSION_MAX_TURNS
    session_idle_seconds: float = DEFAULT_SESSION_IDLE_SECONDS
    answer_cache_size: int = DEFAULT_ANSWER_CACHE_SIZE
    """Answers kept for repeats (0: no answer cache)."""
    retrieval_cache_size: int = DEFAULT_RETRIEVAL_CACHE_SIZE
    """Retrievals kept for near-duplicate questions (0: none)."""
    retrieval_reuse_cosine: float = DEFAULT_RETRIEVAL_REUSE_COSINE

    def __post_init__(self) -> None:
        object.__setattr__(self, "data_dir", Path(self.data_dir).expanduser())
        if self.store_url is not None and not (
            isinstance(self.store_url, str) and self.store_url.startswith(STORE_URL_SCHEMES)
        ):
            raise ConfigError(
                "store_url",
                _redacted(self.store_url),
                "use None for the embedded SQLite store in data_dir, or a PostgreSQL URL "
                "such as postgresql://user@host:5432/ragcore",
            )
        if self.store_read_url is not None and (
            self.store_url is None
            or not isinstance(self.store_read_url, str)
            or not self.store_read_url.startswith(STORE_URL_SCHEMES)
        ):
            raise ConfigError(
                "store_read_url",
                _redacted(self.store_read_url),
                "give a PostgreSQL URL of a read replica of store_url's database (and set "
                "store_url), or None",
            )
        paths = (
            "embedder_path",
            "reranker_path",
            "reranker_tokenizer_path",
            "strategy_path",
            "perception_rules_path",
        )
        for name in paths:
            if getattr(self, name) is not None:
                object.__setattr__(self, name, Path(getattr(self, name)).expanduser())
        positive = (
            "threads",
            "batch_size",
            "batch_tokens",
            "max_document_chars",
            "rrf_k",
            "candidates",
            "rerank_candidates",
            "max_rounds",
        )
        for name in positive:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(name, value, "use a whole number of 1 or more")
        if self.chunk_tokens is not None and (
            not isinstance(self.chunk_tokens, int) or self.chunk_tokens < 8
        ):
            raise ConfigError(
                "chunk_tokens",
                self.chunk_tokens,
                "use at least 8, or None for the embedder's budget",
            )
        if not isinstance(self.chunk_overlap, int) or self.chunk_overlap < 0:
            raise ConfigError("chunk_overlap", self.chunk_overlap, "use 0 or more tokens")
        if Fusion.parse(self.fusion) is None:
            raise ConfigError("fusion", self.fusion, f"use one of {', '.join(Fusion.values())}")
        object.__setattr__(self, "fusion", Fusion(self.fusion))
        for name in (
            "vector_weight",
            "document_keyword_weight",
            "document_vector_weight",
            "sibling_weight",
            "feedback_weight",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise ConfigError(name, value, "use a number from 0 to 1")
        if (
            isinstance(self.feedback_chunks, bool)
            or not isinstance(self.feedback_chunks, int)
            or self.feedback_chunks < 0
        ):
            raise ConfigError(
                "feedback_chunks", self.feedback_chunks, "use a whole number, 0 to turn it off"
            )
        if self.title_weight < 0:
            raise ConfigError("title_weight", self.title_weight, "use 0 or more")
        if self.reranker_path is not None and not self.reranker_sha256:
            raise ConfigError(
                "reranker_sha256",
                self.reranker_sha256,
                "pin the reranker: give the sha256 of the file at reranker_path",
            )
        for name in ("support_threshold", "semantic_threshold"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ConfigError(name, getattr(self, name), "use a number from 0 to 1")
        if isinstance(self.llm_timeout, bool) or not (
            isinstance(self.llm_timeout, int | float) and self.llm_timeout > 0
        ):
            raise ConfigError("llm_timeout", self.llm_timeout, "use a number of seconds > 0")
        if isinstance(self.llm_context_chars, bool) or not (
            isinstance(self.llm_context_chars, int) and self.llm_context_chars >= 1
        ):
            raise ConfigError(
                "llm_context_chars", self.llm_context_chars, "use a whole number of characters >= 1"
            )
        if isinstance(self.session_idle_seconds, bool) or not (
            isinstance(self.session_idle_seconds, int | float) and self.session_idle_seconds > 0
        ):
            raise ConfigError(
                "session_idle_seconds", self.session_idle_seconds, "use a number of seconds > 0"
            )
        for name in ("session_max_turns", "answer_cache_size", "retrieval_cache_size"):
            value = getattr(self, name)
            least = 1 if name == "session_max_turns" else 0
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ConfigError(name, value, f"use a whole number of {least} or more")
        if not 0.0 < self.retrieval_reuse_cosine <= 1.0:
            raise ConfigError(
                "retrieval_reuse_cosine",
                self.retrieval_reuse_cosine,
                "use a number above 0, up to 1",
            )
        if (self.llm_base_url is None) != (self.llm_model is None):
            raise ConfigError(
                "llm_model" if self.llm_base_url else "llm_base_url",
                self.llm_model if self.llm_base_url else self.llm_base_url,
                "give both llm_base_url and llm_model to use an LLM, or neither",
            )


def _redacted(value: object) -> object:
    """``value`` with any password of a URL in it hidden (the error is logged and shown)."""
    if isinstance(value, str) and "://" in value and "@" in value:
        scheme, _, rest = value.partition("://")
        user, _, host = rest.rpartition("@")
        return f"{scheme}://{user.partition(':')[0]}:***@{host}" if ":" in user else value
    return value
