"""The Engine: one data directory's store, vector index, models, searches and answers.

Constructing an Engine is cheap; the database, the index and the models are opened on
first use. An Engine is safe to share between threads: searches run concurrently,
writes (ingest, delete) are serialised so the vector index always follows SQLite.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

import numpy as np

from ragcore.agents.generation.extractive import ExtractiveGenerator, Generator
from ragcore.agents.generation.llm import OpenAICompatibleGenerator
from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.agents.planning.orchestrator import Orchestrator
from ragcore.agents.support import SemanticSupport
from ragcore.agents.validation import Validator
from ragcore.answering import Answer, Answerer, EventListener
from ragcore.config import LLM_API_KEY_ENV, Config
from ragcore.documents import Document, DocumentInfo
from ragcore.errors import StoreError
from ragcore.inference.embedder import Embedder, OnnxEmbedder
from ragcore.inference.models import embedder_spec, models_dir
from ragcore.inference.reranker import OnnxCrossEncoder, Reranker
from ragcore.ingest.loaders import load_path
from ragcore.ingest.pipeline import ChunkingPolicy, Ingestor, IngestReport, ProgressCallback
from ragcore.retrieval.search import Hit, Searcher
from ragcore.storage.store import SearchFilters, Store, WriteResult
from ragcore.storage.vector_index import PersistentIndex
from ragcore.types import IngestStatus, SearchMode


@dataclass(frozen=True)
class KnowledgeBaseInfo:
    name: str
    documents: int
    chunks: int


@dataclass(frozen=True)
class Stats:
    data_dir: Path
    knowledge_bases: int
    documents: int
    chunks: int
    vectors: int
    database_bytes: int
    index_bytes: int
    embedder: str
    reranker: bool


class Engine:
    """Ingest, search and manage the documents of one data directory."""

    def __init__(
        self,
        config: Config | None = None,
        *,
        embedder: Embedder | None = None,
        reranker: Reranker | None = None,
        generator: Generator | None = None,
        clock: Callable[[], date] = date.today,
    ) -> None:
        self.config = config or Config()
        self._embedder = embedder
        self._reranker = reranker
        self._generator = generator
        self._clock = clock
        self._lock = threading.RLock()
        self._store: Store | None = None
        self._index: PersistentIndex | None = None
        self._answerer: Answerer | None = None

    @classmethod
    def open(cls, data_dir: Path | str, **settings) -> Engine:
        """An Engine on ``data_dir`` with any Config field overridden by keyword."""
        return cls(Config(data_dir=Path(data_dir), **settings))

    # -- resources -----------------------------------------------------------------
    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            with self._lock:
                if self._embedder is None:
                    self._embedder = OnnxEmbedder(
                        embedder_spec(self.config.embedder),
                        model_path=self.config.embedder_path,
                        threads=self.config.threads,
                        batch_size=self.config.batch_size,
                        batch_tokens=self.config.batch_tokens,
                    )
        return self._embedder

    @property
    def reranker(self) -> Reranker | None:
        path, digest = self.config.reranker_path, self.config.reranker_sha256
        if self._reranker is None and path is not None and digest is not None:
            with self._lock:
                if self._reranker is None:
                    tokenizer = self.config.reranker_tokenizer_path or (
                        models_dir() / embedder_spec(self.config.embedder).tokenizer
                    )
                    self._reranker = OnnxCrossEncoder(
                        path,
                        digest,
                        tokenizer,
                        threads=self.config.threads,
                        batch_size=self.config.batch_size,
                    )
        return self._reranker

    @property
    def store(self) -> Store:
        if self._store is None:
            with self._lock:
                if self._store is None:
                    self._store = Store(self.config.data_dir)
        return self._store

    @property
    def _vectors(self) -> PersistentIndex:
        if self._index is None:
            with self._lock:
                if self._index is None:
                    self._check_embedder_matches()
                    self._index = PersistentIndex(
                        self.store, self.embedder.dimension, self.config.hnsw, self.config.threads
                    )
        return self._index

    def _check_embedder_matches(self) -> None:
        """Vectors from two embedders are not comparable: refuse to mix them."""
        name = (
            self.config.embedder
            if isinstance(self.embedder, OnnxEmbedder)
            else type(self.embedder).__name__
        )
        current = f"{name}/{self.embedder.dimension}"
        recorded = self.store.meta("embedder")
        if recorded is None:
            self.store.set_meta({"embedder": current})
        elif recorded != current:
            raise StoreError(
                f"{self.config.data_dir} was built with embedder {recorded}, not "
                f"{current}: configure that embedder or use another data directory"
            )

    def warm_up(self) -> None:
        """Open the store and index and load the models now rather than on first use."""
        _ = self._vectors
        self.embedder.embed(["warm up"])
        self.answerer.perception.warm_up()
        if self.reranker is not None:
            self.reranker.score("warm up", ["warm up"])

    def close(self) -> None:
        with self._lock:
            if self._answerer is not None:
                self._answerer.orchestrator.close()
                self._answerer.generator.close()
            for resource in (self._embedder, self._reranker, self._store):
                if resource is not None:
                    resource.close()
            self._store = self._index = self._answerer = None

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    # -- writes --------------------------------------------------------------------
    def ingest(
        self, documents: Iterable[Document], progress: ProgressCallback | None = None
    ) -> IngestReport:
        """Add or update documents; all are validated before anything is written."""
        with self._lock:
            vectors = self._vectors
            report = self._ingestor(vectors).ingest(documents, progress)
            if report.chunks or report.count(IngestStatus.UPDATED):
                vectors.save()
            return report

    def ingest_path(
        self,
        path: Path | str,
        knowledge_base: str | None = None,
        progress: ProgressCallback | None = None,
    ) -> IngestReport:
        """Ingest a file, or every supported file under a directory."""
        return self.ingest(load_path(path, knowledge_base), progress)

    def delete(self, document_id: str) -> int:
        """Delete a document from SQLite, FTS5 and the vector index; return its chunk count."""
        with self._lock:
            vectors = self._vectors
            result = self.store.delete(document_id)
            vectors.index.remove(result.removed_chunk_ids)
            vectors.save()
            return len(result.removed_chunk_ids)

    def _ingestor(self, vectors: PersistentIndex) -> Ingestor:
        def follow(result: WriteResult, added: dict[int, np.ndarray]) -> None:
            vectors.index.remove(result.removed_chunk_ids)
            if added:
                vectors.index.add(list(added), np.vstack(list(added.values())))

        budget = min(self.config.chunk_tokens or self.embedder.max_tokens, self.embedder.max_tokens)
        policy = ChunkingPolicy(
            budget,
            self.config.chunk_overlap,
            self.config.embed_titles,
            self.config.max_document_chars,
        )
        return Ingestor(self.store, self.embedder, policy, follow)

    # -- reads ---------------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        mode: SearchMode | str = SearchMode.HYBRID,
        k: int = 10,
        filters: SearchFilters | None = None,
        rerank: bool | None = None,
    ) -> list[Hit]:
        """The best ``k`` chunks for ``query`` by ``vector``, ``keyword`` or ``hybrid`` search."""
        return self.searcher().search(
            query, mode=mode, k=k, filters=filters or SearchFilters(), rerank=rerank
        )

    def ask(self, question: str, on_event: EventListener | None = None) -> Answer:
        """Answer ``question`` from the documents: perceive, plan, retrieve, generate, validate.

        Retries with an adjusted plan when validation fails, up to ``config.max_rounds``.
        Raises ``InvalidQueryError`` for a question that is not text, empty or too long.
        ``on_event`` is called with a ``StageEvent`` as each stage completes; an exception
        it raises stops the run.
        """
        return self.answerer.ask(question, on_event)

    @property
    def answerer(self) -> Answerer:
        """The agents behind ``ask`` (built on first use from the config)."""
        if self._answerer is None:
            with self._lock:
                if self._answerer is None:
                    self._answerer = self._build_answerer()
        return self._answerer

    def _build_answerer(self) -> Answerer:
        config = self.config
        orchestrator = Orchestrator(
            self.search,
            lambda: [kb.name for kb in self.knowledge_bases()],
            strategy_path=config.strategy_path,
            reranker=self.reranker,
            clock=self._clock,
            workers=config.threads,
        )
        return Answerer(
            PerceptionAgent(config.perception_rules_path, clock=self._clock),
            orchestrator,
            self._generator or self._configured_generator(),
            Validator(
                support_threshold=config.support_threshold,
                documents=self.store.documents,
                scorer=self.reranker,
                semantic=SemanticSupport(self.embedder),
                semantic_threshold=config.semantic_threshold,
            ),
            max_rounds=config.max_rounds,
        )

    def _configured_generator(self) -> Generator:
        url, model = self.config.llm_base_url, self.config.llm_model
        if url is None or model is None:  # Config requires both or neither
            return ExtractiveGenerator()
        return OpenAICompatibleGenerator(
            url,
            model,
            api_key=os.environ.get(LLM_API_KEY_ENV) or None,
            timeout=self.config.llm_timeout,
        )

    def document(self, document_id: str) -> DocumentInfo:
        return self.store.document(document_id)

    def knowledge_bases(self) -> list[KnowledgeBaseInfo]:
        return [KnowledgeBaseInfo(*row) for row in self.store.knowledge_bases()]

    def stats(self) -> Stats:
        counts = self.store.counts()
        index_file = self.store.meta("index_file")
        index_path = self.config.data_dir / index_file if index_file else None
        return Stats(
            data_dir=self.config.data_dir,
            knowledge_bases=counts["knowledge_bases"],
            documents=counts["documents"],
            chunks=counts["chunks"],
            vectors=len(self._vectors.index),
            database_bytes=_size(self.store.path),
            index_bytes=_size(index_path) if index_path else 0,
            embedder=self.config.embedder,
            reranker=self.config.reranker_path is not None,
        )

    def searcher(self, **changes) -> Searcher:
        """A Searcher on this engine, with search settings (e.g. fusion) overridden."""
        config = replace(self.config, **changes) if changes else self.config
        return Searcher(self.store, self._vectors.index, self.embedder, config, self.reranker)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size + sum(
            p.stat().st_size for p in path.parent.glob(path.name + "-wal")
        )
    except OSError:
        return 0
