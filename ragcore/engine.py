"""The Engine: one data directory's store, vector index, models, searches and answers.

The store is SQLite with an hnswlib index in the data directory, or, with
``Config.store_url``, a PostgreSQL database (pgvector inside it) that many engines, in
many processes, share: an ingest through one is searched by all once it commits, and
their answer caches are keyed by the store's data version, read on every question.
Sessions and tables live in either store. Backup, check and rebuild-index need the
SQLite store (a ``StoreError`` says so). What differs between the two is in
``ragcore.stores``.

Constructing an Engine is cheap; the database, the index and the models are opened on
first use. An Engine is safe to share between threads: searches run concurrently,
writes (ingest, delete) are serialised so the vector index always follows SQLite.

Every call that reads or writes documents takes an optional ``scope`` (``Scope``): the
knowledge bases the caller may use. A scoped call sees the store as if the others did
not exist — no chunk, id, title or count from outside reaches it — and may write only
inside its scope (``ScopeError`` before anything is written).

``ask(..., session=id)`` makes the question a turn of a conversation kept in the store
(``storage.sessions``): a follow-up is rewritten from the previous turn, and
the turn is recorded. A session belongs to the scope it was started in. Repeated
questions are answered from an in-memory answer cache until the documents change.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path

import numpy as np

from ragcore.agents.caching import Caches, QueryEmbeddings
from ragcore.agents.generation.extractive import ExtractiveGenerator, Generator
from ragcore.agents.generation.llm import OpenAICompatibleGenerator
from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.agents.perception.conversation import (
    TurnState,
    names_a_time,
    summarise,
    turn_state,
    turn_summary,
)
from ragcore.agents.planning.orchestrator import Orchestrator
from ragcore.agents.planning.tables import TableCatalog
from ragcore.agents.validation import Validator
from ragcore.agents.validation.semantic import SemanticSupport
from ragcore.answering import Answer, Answerer, EventListener
from ragcore.cancel import NEVER, CancelToken
from ragcore.config import LLM_API_KEY_ENV, Config, default_embedder
from ragcore.documents import Document, DocumentInfo
from ragcore.errors import (
    Cancelled,
    InvalidInputError,
    InvalidQueryError,
    ScopeError,
    StoreError,
    quoted,
)
from ragcore.inference.embedder import Embedder, OnnxEmbedder
from ragcore.inference.models import embedder_names, embedder_spec, models_dir, sha256_of
from ragcore.inference.reranker import OnnxCrossEncoder, Reranker
from ragcore.ingest.loaders import load_files
from ragcore.ingest.pipeline import ChunkingPolicy, Ingestor, IngestReport, ProgressCallback
from ragcore.retrieval.search import Hit, Searcher
from ragcore.retrieval.tables import AnyTableReader, TableResult
from ragcore.scope import Scope
from ragcore.storage.integrity import CheckReport, check_store
from ragcore.storage.protocol import DocumentStore
from ragcore.storage.records import DEFAULT_PAGE_SIZE, DocumentPage, DocumentRecord, Listing
from ragcore.storage.sessions import Session, Sessions, Turn, check_id
from ragcore.storage.sql import sql_store
from ragcore.storage.store import DATABASE_NAME, SearchFilters, Store, WriteResult
from ragcore.storage.tables import Progress as TableProgress
from ragcore.storage.tables import TableInfo
from ragcore.storage.vector_index import HnswIndex, PersistentIndex, VectorIndex
from ragcore.stores import (
    Vectors,
    described,
    index_for,
    open_store,
    open_tables,
    open_vectors,
    sqlite_only,
    watch_store,
)
from ragcore.tabular import TableQuery
from ragcore.types import AnswerStatus, CancelReason, IngestStatus, SearchMode


def _context(turns: Sequence[Turn]) -> tuple[TurnState, ...]:
    """The conversation a follow-up leans on, newest first: each turn as it was searched,
    with what it named and what its answer introduced, passing over turns answered
    ``no_answer`` that named nothing ("asdf", "ok thanks"): a turn with no subject and no
    answer does not enter the conversation's state. One that named a version ("under
    the 2021 rule could a supervisor …?") does: a next "and now?" asks it again."""
    kept = []
    for turn in reversed(turns):
        summary = json.loads(turn.perception)
        state = turn_state(turn.rewritten, summary, turn.question)
        # an identifier, not any named entity: "the faq says 30%" names a percentage, no
        # thing a next turn can be about
        if turn.status != AnswerStatus.NO_ANSWER or state.entities or names_a_time(summary):
            kept.append(state)
    return tuple(kept)


# The scope of the ask running on this thread, for the validator's document look-ups:
# the validator is shared by every question and reads documents through one callable.
_ASK_SCOPE: ContextVar[Scope] = ContextVar("ragcore_ask_scope", default=Scope.ALL)
_SEARCH_THREADS = 8


@dataclass(frozen=True)
class KnowledgeBaseInfo:
    name: str
    documents: int
    chunks: int


@dataclass(frozen=True)
class Stats:
    """What the data directory holds. For a scoped caller the counts are its knowledge
    bases' (``vectors`` is then its chunk count: the index holds one vector per chunk,
    which ``Engine.check`` verifies) and the file sizes, which cover every knowledge
    base, are 0."""

    data_dir: Path
    knowledge_bases: int
    documents: int
    chunks: int
    vectors: int
    database_bytes: int
    index_bytes: int
    embedder: str
    reranker: bool
    store: str | None = None
    """The PostgreSQL store's URL without its password; None: the data directory's."""


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
        self._store: DocumentStore | None = None
        self._index: Vectors | None = None
        self._unsaved = False
        """The index holds commits its file does not (a stopped ingest): saved by the next
        write, or at ``close``."""
        self._answerer: Answerer | None = None
        self._sessions: Sessions | None = None
        self._queries: QueryEmbeddings | None = None
        self._tables: AnyTableReader | None = None
        self._catalog: TableCatalog | None = None
        self._overlap: tuple[int, ThreadPoolExecutor] | None = None
        """(pid, threads that embed hybrid queries while their keyword passes run)."""

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
                        embedder_spec(self._embedder_name()),
                        model_path=self.config.embedder_path,
                        threads=self.config.threads,
                        batch_size=self.config.batch_size,
                        batch_tokens=self.config.batch_tokens,
                    )
        return self._embedder

    def _embedder_name(self) -> str:
        """The configured embedder; with the default configured, an existing data
        directory keeps the manifest embedder it was built with (e.g. one made before
        the default changed), and a new one gets the default."""
        name = self.config.embedder
        if (
            name != default_embedder()
            or self.config.store_url is not None  # opening it needs the dimension first
            or not (self.config.data_dir / DATABASE_NAME).is_file()
        ):
            return name
        recorded = (self.store.meta("embedder") or "").rpartition("/")[0]
        if recorded and recorded != name and recorded in embedder_names():
            return recorded
        return name

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
    def store(self) -> DocumentStore:
        """SQLite in the data directory, or the PostgreSQL database of ``store_url``."""
        if self._store is None:
            with self._lock:
                if self._store is None:
                    self._store = open_store(self.config, lambda: self.embedder.dimension)
        return self._store

    def _sqlite(self, what: str) -> Store:
        """The SQLite store, for what only it does; a StoreError on PostgreSQL."""
        return sqlite_only(self.store, what)

    @property
    def _vectors(self) -> Vectors:
        if self._index is None:
            with self._lock:
                if self._index is None:
                    self._check_embedder_matches()
                    self._index = open_vectors(self.store, self.embedder.dimension, self.config)
        self._index.refresh()  # another process may have written (serve --processes)
        return self._index

    def _index_for(self, view: DocumentStore) -> VectorIndex:
        """The vector index a search on ``view`` (a scoped view) goes through."""
        return index_for(self._vectors, view)

    def _check_embedder_matches(self) -> None:
        """Vectors from two embedders (or two graphs of one model, whose vectors differ
        slightly) are not comparable: refuse to mix them."""
        name = getattr(self.embedder, "name", type(self.embedder).__name__)
        current = f"{name}/{self.embedder.dimension}"
        recorded = self.store.meta("embedder")
        if recorded is None:
            self.store.set_meta({"embedder": current})
        elif recorded != current:
            was = recorded.rpartition("/")[0] or recorded
            raise StoreError(
                f"{described(self.store, self.config)} was built with embedder {recorded}, not "
                f"{current}: configure embedder {was!r} (Config.embedder or "
                f"$RAGCORE_EMBEDDER) to use it, or re-embed by ingesting the documents "
                f"into a new data directory with {name!r}"
            )

    def warm_up(self) -> None:
        """Open the store and index and load the models now rather than on first use."""
        _ = self._vectors
        self.embedder.embed(["warm up"])
        self.answerer.perception.warm_up()
        if self.reranker is not None:
            self.reranker.score("warm up", ["warm up"])

    def watch_store(self, watcher: Callable[[bool], None]) -> None:
        """Call ``watcher(available)`` whenever a shared store's database goes down or
        comes back (``storage.postgres.pools``: checked every second even when idle, and
        back within ``PROBE_INTERVAL`` of its return). The embedded SQLite store has no
        outages of its own: nothing is ever called."""
        watch_store(self.store, watcher)

    def close(self) -> None:
        with self._lock:
            if self._unsaved and self._index is not None:
                self._save(self._index)
            if self._overlap is not None:
                self._overlap[1].shutdown(wait=True)  # before the embedder they use closes
                self._overlap = None
            if self._answerer is not None:
                self._answerer.orchestrator.close()
                self._answerer.generator.close()
            for resource in (self._embedder, self._reranker, self._store):
                if resource is not None:
                    resource.close()
            self._store = self._index = self._answerer = None
            if self._tables is not None:
                self._tables.close()
            self._sessions = self._queries = None  # both hold what was just closed
            self._tables = self._catalog = None

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    # -- writes --------------------------------------------------------------------
    def ingest(
        self,
        documents: Iterable[Document],
        progress: ProgressCallback | None = None,
        *,
        scope: Scope | None = None,
        cancel: CancelToken = NEVER,
    ) -> IngestReport:
        """Add or update documents; all are validated before anything is written.

        A scoped caller may write only into its knowledge bases, may not reuse the id
        of a document outside them, nor supersede one: each is a ``ScopeError`` before
        anything is written.

        ``cancel`` (``ragcore.cancel``) stops the ingest within one model batch with
        ``Cancelled``: the groups committed before stay (a rerun skips them), the rest is
        dropped, and the write lock is free again at once.
        """
        scope = _scope(scope)
        with self._lock, self._translated("ingesting"):
            cancel.check("waiting for the write lock")
            if not scope.unrestricted:
                documents = self._inside(list(documents), scope)
            vectors = self._vectors
            ingestor = self._ingestor(vectors)
            try:
                report = ingestor.ingest(documents, progress, cancel)
            except Cancelled as stopped:
                # Stopped: the lock is free at once. Saving the index file (written whole,
                # and fsynced) waits for the next write or ``close`` - or, when the process
                # is shutting down, for nobody: exiting on time comes first, and the next
                # start catches the index up from SQLite.
                if ingestor.commits and stopped.reason != CancelReason.SHUTDOWN:
                    self._unsaved = True
                raise
            if report.chunks or report.count(IngestStatus.UPDATED):
                self._save(vectors)
            return report

    def _save(self, vectors: Vectors) -> None:
        vectors.save()
        self._unsaved = False

    def _inside(self, documents: list[Document], scope: Scope) -> list[Document]:
        """``documents``, checked to lie inside ``scope`` (valid ones: a bad document is
        still reported as bad first)."""
        for doc in documents:
            if isinstance(doc, Document):
                doc.validated(self.config.max_document_chars)
                scope.check(doc.knowledge_base)
        ids = [doc.id for doc in documents if isinstance(doc, Document)]
        # A link is a write too: superseding a document outside the scope would mark it
        # superseded for every other caller (and drop it from their current-only searches).
        links = [d.supersedes for d in documents if isinstance(d, Document) and d.supersedes]
        taken = self.store.within(scope).taken_outside([*ids, *links])
        if taken:
            # Ids are one namespace for the whole store; say no more than that it is taken,
            # in the same words for the document's own id and for the one it supersedes.
            raise ScopeError(
                f"document id {quoted(taken[0])} is not available to this caller: choose another id"
            )
        return documents

    def ingest_path(
        self,
        path: Path | str,
        knowledge_base: str | None = None,
        progress: ProgressCallback | None = None,
        *,
        scope: Scope | None = None,
        skip_invalid: bool = False,
    ) -> IngestReport:
        """Ingest a file, or every supported file under a directory; the report lists
        the files a directory walk skipped, with the reason, and notes on files read
        (a PDF's pages without text). Invalid files are all reported in one error before
        anything is written, unless ``skip_invalid``: then they are skipped (reason
        ``invalid``) and the rest is ingested."""
        loaded = load_files(path, knowledge_base, skip_invalid=skip_invalid)
        report = self.ingest(loaded.documents, progress, scope=scope)
        return replace(report, skipped=loaded.skipped, notes=loaded.notes)

    def delete(self, document_id: str, *, scope: Scope | None = None) -> int:
        """Delete a document from SQLite, FTS5 and the vector index; return its chunk count.

        ``DocumentNotFoundError`` if there is none, or none inside ``scope``.
        """
        with self._lock, self._translated("deleting a document"):
            vectors = self._vectors
            result = self.store.within(_scope(scope)).delete(document_id)
            vectors.apply(result, {})
            self._save(vectors)
            return len(result.removed_chunk_ids)

    def delete_knowledge_base(self, name: str, *, scope: Scope | None = None) -> int:
        """Delete every document of knowledge base ``name`` from SQLite, FTS5 and the
        vector index, and the knowledge base itself; return how many documents went.

        ``ScopeError`` if ``name`` is outside ``scope`` (whether it exists or not),
        ``KnowledgeBaseNotFoundError`` if it holds no document.
        """
        with self._lock, self._translated("deleting a knowledge base"):
            store = self.store.within(_scope(scope))
            store.scope.check(name)
            vectors = self._vectors
            count, result = store.delete_knowledge_base(name)
            vectors.apply(result, {})
            self._save(vectors)
            return count

    # -- tables (structured data beside the documents) ------------------------------
    @property
    def tables(self) -> AnyTableReader:
        """The tables of the store (the data directory's, or the PostgreSQL database
        that other engines share) and their read-only query runner."""
        if self._tables is None:
            with self._lock:
                if self._tables is None:
                    self._tables = open_tables(self.store)
        return self._tables

    def ingest_table(
        self,
        path: Path | str,
        *,
        table: str,
        schema: Path | str,
        progress: TableProgress | None = None,
        scope: Scope | None = None,
        replace: bool = False,
    ) -> TableInfo:
        """Load a CSV or JSONL file as table ``table``, described by the TOML schema file
        ``schema`` (``ragcore.tabular``). A table of that name is replaced atomically with
        ``replace=True``; without it, the load is an ``InvalidInputError`` and nothing
        changes. A bad file (a column named twice in the header, a row with more or fewer
        fields than the header, a bad value) is an ``InvalidInputError`` naming the row
        and column, and nothing changes either.

        Tables belong to no knowledge base, so only an unrestricted caller may load one:
        a scoped caller gets a ``ScopeError`` before anything is read.
        """
        if not _scope(scope).unrestricted:
            raise ScopeError(
                "loading a table needs an unrestricted caller: tables belong to no knowledge base"
            )
        with self._lock, self._translated("loading a table"):
            try:
                return self.tables.tables.ingest(
                    path, table=table, schema=schema, progress=progress, replace=replace
                )
            finally:  # the answer loop re-reads schemas and values; cached answers are stale
                self.table_catalog.refresh()

    @property
    def table_catalog(self) -> TableCatalog:
        """The tables' schemas and dimension values as the answer loop matches them."""
        if self._catalog is None:
            with self._lock:
                if self._catalog is None:
                    self._catalog = TableCatalog(self.tables)
        return self._catalog

    def query_table(self, query: TableQuery) -> TableResult:
        """The rows of ``query``, computed read-only over the declared columns only."""
        if not isinstance(query, TableQuery):
            raise InvalidQueryError(f"expected a TableQuery, got {type(query).__name__}")
        with self._translated("querying a table"):
            return self.tables.run(query)

    def list_tables(self) -> list[TableInfo]:
        """Every loaded table with its schema, source file and row count, by name."""
        with self._translated("listing tables"):
            return self.tables.tables.all()

    def _ingestor(self, vectors: Vectors) -> Ingestor:
        def follow(result: WriteResult, added: dict[int, np.ndarray]) -> None:
            vectors.apply(result, added)

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
        scope: Scope | None = None,
    ) -> list[Hit]:
        """The best ``k`` chunks for ``query`` by ``vector``, ``keyword`` or ``hybrid`` search.

        With a ``scope``, only its knowledge bases are searched (``filters`` naming one
        outside it is a ``ScopeError``); a knowledge base of the scope that holds nothing
        yet is searched as empty rather than refused.
        """
        scope = _scope(scope)
        filters = scope.restrict(_filters(filters))
        with self._translated("searching"):
            return self.searcher(scope=scope).search(
                query, mode=mode, k=k, filters=filters, rerank=rerank
            )

    def ask(
        self,
        question: str,
        *,
        filters: SearchFilters | None = None,
        max_rounds: int | None = None,
        scope: Scope | None = None,
        on_event: EventListener | None = None,
        session: str | None = None,
    ) -> Answer:
        """Answer ``question`` from the documents: perceive, plan, retrieve, generate, validate.

        Retries with an adjusted plan when validation fails, up to ``max_rounds`` (1 to
        ``config.max_rounds``, the default). ``filters`` bound every retrieval task of
        every round (what the question adds, such as a date range, only narrows them)
        and ``scope`` limits the knowledge bases read, as in ``search``; the trace's plan
        nodes show both. Raises ``InvalidQueryError`` for a question that is not text,
        empty or too long, or a bad ``max_rounds``; ``ScopeError`` for filters naming a
        knowledge base outside the scope. ``on_event`` is called with a ``StageEvent`` as
        each stage completes; an exception it raises stops the run.

        ``session`` (an id from ``new_session`` or the caller's own) makes this a turn of
        that conversation: a follow-up of the previous turn ("And on the HP-500?") is
        rewritten to stand alone (``Answer.rewritten_question``; the trace says why) and
        the turn is recorded once answered. An unknown or expired id starts the session.
        A malformed id is an ``InvalidQueryError`` and a session of another scope a
        ``ScopeError``, both before anything is recorded.
        """
        scope = _scope(scope)
        filters = _filters(filters)
        bounds = scope.restrict(filters)
        if filters.knowledge_bases:
            self.store.within(scope).check_knowledge_bases(filters.knowledge_bases)
        conversation: tuple[TurnState, ...] = ()
        if session is not None:
            with self._translated("reading a session"):
                opened = self.sessions.get(session, scope)
            conversation = _context(opened.turns) if opened else ()
        token = _ASK_SCOPE.set(scope)
        try:
            with self._translated("answering"):
                answer = self.answerer.ask(
                    question,
                    on_event,
                    bounds=bounds,
                    scope=scope,
                    max_rounds=max_rounds,
                    conversation=conversation,
                )
        finally:
            _ASK_SCOPE.reset(token)
        if session is None:
            return answer
        self.sessions.add_turn(
            session,
            scope,
            question=answer.question,
            rewritten=answer.rewritten_question or answer.question,
            perception=summarise(answer.perception)
            | turn_summary(
                answer.perception,
                self.answerer.perception.identifiers(answer.text),
                followed=answer.rewritten_question is not None,
                asked=self.answerer.perception.identifiers(answer.question),
                answer=answer.text if answer.status == AnswerStatus.OK else "",
            ),
            documents=list(dict.fromkeys(c.document_id for c in answer.citations)),
            status=answer.status,
        )
        return replace(answer, session_id=session)

    @property
    def sessions(self) -> Sessions:
        """The conversations kept in the store (``ask(..., session=...)``): the data
        directory's, or the PostgreSQL database that other engines share."""
        if self._sessions is None:
            with self._lock:
                if self._sessions is None:
                    self._sessions = Sessions(
                        sql_store(self.store),  # SQLite's or PostgreSQL's, the same SQL
                        max_turns=self.config.session_max_turns,
                        idle_seconds=self.config.session_idle_seconds,
                    )
        return self._sessions

    @staticmethod
    def check_session_id(session_id: object) -> str:
        """``session_id`` if it is usable as a session id, else ``InvalidQueryError``
        saying what a session id may be (for a caller that checks before asking)."""
        return check_id(session_id)

    @staticmethod
    def new_session() -> str:
        """A fresh session id for ``ask(..., session=...)`` (the session starts with its
        first question)."""
        return Sessions.new_id()

    def session(self, session_id: str, *, scope: Scope | None = None) -> Session | None:
        """The session's turns, oldest first, or None if it does not exist or expired.
        ``InvalidQueryError`` for a malformed id, ``ScopeError`` for another scope's."""
        with self._translated("reading a session"):
            return self.sessions.get(session_id, _scope(scope))

    def end_session(self, session_id: str, *, scope: Scope | None = None) -> bool:
        """Forget the session and its turns; False if there was none to end.
        ``InvalidQueryError`` for a malformed id, ``ScopeError`` for another scope's."""
        with self._translated("ending a session"):
            return self.sessions.end(session_id, _scope(scope))

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
        generator = self._generator or self._configured_generator()
        return Answerer(
            PerceptionAgent(config.perception_rules_path, clock=self._clock),
            orchestrator,
            generator,
            Validator(
                support_threshold=config.support_threshold,
                documents=self._documents_in_ask_scope,
                scorer=self.reranker,
                semantic=SemanticSupport(self.embedder),
                semantic_threshold=config.semantic_threshold,
            ),
            max_rounds=config.max_rounds,
            caches=self._caches(orchestrator, generator),
            tables=self.table_catalog,
            today=self._clock,
        )

    def _caches(self, orchestrator: Orchestrator, generator: Generator) -> Caches | None:
        config = self.config
        if config.answer_cache_size < 1 and config.retrieval_cache_size < 1:
            return None
        rules: tuple[str, ...] = ()
        if config.perception_rules_path is not None:  # read once, as the agent does
            with contextlib.suppress(OSError):
                rules = (config.perception_rules_path.read_text(encoding="utf-8"),)

        def strategy_stamp() -> str:
            # The strategy file is re-read while running: an edit is a new configuration.
            try:
                stat = orchestrator.strategy.path.stat()
            except OSError:
                return ""
            return f"{stat.st_mtime_ns}:{stat.st_size}"

        return Caches(
            config,
            # Both counters only grow, so their sum moves on a document or a table load.
            # Read on every question: on a shared PostgreSQL, another engine's ingest moves it.
            data_version=lambda: self.store.data_version() + self._table_generation(),
            embed=lambda text: self._query_embedder.embed([text])[0],
            stamp=strategy_stamp,
            today=self._clock,
            rule_texts=(*rules, generator.name, type(self.embedder).__name__),
        )

    def _table_generation(self) -> int:
        return self.table_catalog.generation

    def _configured_generator(self) -> Generator:
        url, model = self.config.llm_base_url, self.config.llm_model
        if url is None or model is None:  # Config requires both or neither
            # No QuestionSimilarity: on the development sets closeness in meaning chose
            # overview sentences over answering ones ("The A320 has three hydraulic
            # systems" for "what fluid …?"): 1 manual answer gained, 5 conversation turns
            # lost, 2 of them wrong and ok (benchmarks/README.md).
            return ExtractiveGenerator()
        return OpenAICompatibleGenerator(
            url,
            model,
            api_key=os.environ.get(LLM_API_KEY_ENV) or None,
            timeout=self.config.llm_timeout,
            max_context_chars=self.config.llm_context_chars,
        )

    def _documents_in_ask_scope(self, ids: Iterable[str]) -> dict[str, DocumentInfo]:
        return self.store.within(_ASK_SCOPE.get()).documents(ids)

    def document(self, document_id: str, *, scope: Scope | None = None) -> DocumentRecord:
        """Everything stored about a document but its text; ``DocumentNotFoundError``
        (the same text) whether it does not exist or is outside ``scope``."""
        with self._translated("reading a document"):
            return self.store.within(_scope(scope)).record(document_id)

    def document_text(self, document_id: str, *, scope: Scope | None = None) -> str:
        """A document's text as stored: what its chunks' ``start``/``end`` offsets count
        in (a file's text after conversion); the same ``DocumentNotFoundError`` as
        ``document`` when it does not exist or is outside ``scope``."""
        with self._translated("reading a document's text"):
            return self.store.within(_scope(scope)).text(document_id)

    def list_documents(
        self,
        *,
        knowledge_base: str | None = None,
        updated_since: datetime | None = None,
        page_size: int = DEFAULT_PAGE_SIZE,
        page_token: str | None = None,
        scope: Scope | None = None,
    ) -> DocumentPage:
        """One page of the stored documents, oldest ``ingested_at`` first.

        ``updated_since`` (an aware datetime) keeps documents added or changed since then
        (inclusive, to the second): what a client syncing its copy asks for. Pass the
        ``next_page_token`` of a page to get the next one, with the same other
        arguments; paging neither repeats nor skips a document while others are
        ingested. A bad argument or a malformed token is ``InvalidQueryError``; a
        knowledge base outside ``scope`` is ``ScopeError``.
        """
        scope = _scope(scope)
        listing = Listing.of(knowledge_base, updated_since, page_size)
        if knowledge_base is not None:
            scope.check(knowledge_base)
        with self._translated("listing documents"):
            return self.store.within(scope).list_documents(listing, page_token)

    def knowledge_bases(self, *, scope: Scope | None = None) -> list[KnowledgeBaseInfo]:
        """The knowledge bases that hold documents (inside ``scope``), by name."""
        with self._translated("listing knowledge bases"):
            rows = self.store.within(_scope(scope)).knowledge_bases()
        return [KnowledgeBaseInfo(*row) for row in rows]

    def stats(self, *, scope: Scope | None = None) -> Stats:
        scope = _scope(scope)
        with self._translated("counting"):
            counts = self.store.within(scope).counts()
            scoped = not scope.unrestricted
            if not isinstance(self.store, Store):  # PostgreSQL: no files of ours to size
                return Stats(
                    data_dir=self.config.data_dir,
                    knowledge_bases=counts["knowledge_bases"],
                    documents=counts["documents"],
                    chunks=counts["chunks"],
                    vectors=counts["chunks"],  # one embedding per chunk, in the same row
                    database_bytes=0,
                    index_bytes=0,
                    embedder=self.config.embedder,
                    reranker=self.config.reranker_path is not None,
                    store=described(self.store, self.config),
                )
            index_file = self.store.meta("index_file")
            index_path = self.config.data_dir / index_file if index_file else None
            return Stats(
                data_dir=self.config.data_dir,
                knowledge_bases=counts["knowledge_bases"],
                documents=counts["documents"],
                chunks=counts["chunks"],
                vectors=counts["chunks"] if scoped else len(self._vectors.index),
                database_bytes=0 if scoped else _size(self.store.path),
                index_bytes=_size(index_path) if index_path and not scoped else 0,
                embedder=self.config.embedder,
                reranker=self.config.reranker_path is not None,
            )

    def searcher(self, *, scope: Scope | None = None, **changes) -> Searcher:
        """A Searcher on this engine (reading only inside ``scope``), with search
        settings (e.g. fusion) overridden."""
        config = replace(self.config, **changes) if changes else self.config
        store = self.store.within(_scope(scope))
        return Searcher(
            store,
            self._index_for(store),
            self._query_embedder,
            config,
            self.reranker,
            self._search_threads(),
        )

    def _search_threads(self) -> ThreadPoolExecutor:
        """The searches' embedding threads: started on first use (none exists before
        ``serve --processes`` forks) and made again in a forked child, which has none of
        its parent's threads."""
        overlap = self._overlap
        if overlap is None or overlap[0] != os.getpid():
            with self._lock:
                overlap = self._overlap
                if overlap is None or overlap[0] != os.getpid():
                    # As many as searches that may run at once (the edge server's workers,
                    # the orchestrator's tasks); an idle one costs nothing.
                    threads = ThreadPoolExecutor(
                        _SEARCH_THREADS, thread_name_prefix="ragcore-search"
                    )
                    self._overlap = overlap = (os.getpid(), threads)
        return overlap[1]

    @property
    def _query_embedder(self) -> Embedder:
        """What embeds queries: with the retrieval cache, one that keeps the last few
        (its look-up has just embedded the question the base search embeds again)."""
        if self.config.retrieval_cache_size < 1:
            return self.embedder
        if self._queries is None:
            with self._lock:
                if self._queries is None:
                    self._queries = QueryEmbeddings(self.embedder)
        return self._queries

    # -- operations ----------------------------------------------------------------
    def backup(self, dest: Path | str) -> BackupReport:
        """Copy the data directory into ``dest`` (a new or empty directory), consistent
        while searches and asks go on: the database through SQLite's online backup API,
        then the vector index file it records. Writes by this engine wait meanwhile.
        ``Engine.open(report.dest)`` opens the copy.

        The index file is checked first (present, its recorded SHA-256, the data version
        it reflects): a damaged one is not copied; the copy's index is rebuilt from its
        database instead, and the report says why (``index_rebuilt``), so that the copy
        passes ``check`` and the operator learns the data directory needs
        ``rebuild-index``.
        """
        dest = Path(dest).expanduser()
        if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
            raise InvalidInputError(
                f"backup destination {dest} exists and is not an empty directory: "
                "give a new or empty directory"
            )
        if dest.resolve() == self.config.data_dir.resolve():
            raise InvalidInputError(f"{dest} is the data directory itself: back up elsewhere")
        store = self._sqlite("backup (back up the PostgreSQL database with pg_dump)")
        with self._lock, self._translated("making a backup"):
            dest.mkdir(parents=True, exist_ok=True)
            store.backup_to(dest / DATABASE_NAME)
            copy = Store(dest)
            try:
                index_file = copy.meta("index_file") or ""
                damage = _index_damage(copy, self.config.data_dir)
                if damage:  # the copy gets an index rebuilt from its own database
                    PersistentIndex(
                        copy, self.embedder.dimension, self.config.hnsw, self.config.threads
                    )
                elif index_file:
                    shutil.copyfile(self.config.data_dir / index_file, dest / index_file)
                    with open(dest / index_file, "rb+") as handle:
                        os.fsync(handle.fileno())
            finally:
                copy.close()
        return BackupReport(dest, damage)

    def check(self) -> CheckReport:
        """Check SQLite (integrity_check), the FTS5 keyword indexes (integrity-check) and
        the vector index file against the database (recorded file and SHA-256, data
        version stamp, count, a random sample of vectors). Repairs nothing; each failed
        finding says what to do."""
        store = self._sqlite("check (PostgreSQL checks its own data and indexes)")
        with self._lock:
            return check_store(store, self.config.hnsw, self.config.threads)

    def rebuild_index(self) -> int:
        """Rebuild the vector index from the embeddings in SQLite; return its vectors."""
        self._sqlite(
            "rebuild-index (the PostgreSQL store's vector index is pgvector's, inside the "
            "database: rebuild it there with REINDEX INDEX chunks_embedding_hnsw)"
        )
        with self._lock, self._translated("rebuilding the vector index"):
            if self._index is None:
                # Not open yet: open it rebuilt (once), without reading the old file and
                # without the "missing" warning of a data directory that lost its index.
                self._index = open_vectors(
                    self.store, self.embedder.dimension, self.config, rebuild=True
                )
                return len(self._index.index)
            vectors = self._vectors
            assert isinstance(vectors, PersistentIndex)  # SQLite, checked above
            fresh = HnswIndex(self.embedder.dimension, self.config.hnsw, self.config.threads)
            for ids, embeddings in self.store.embeddings():
                fresh.add(ids, embeddings)
            vectors.save(fresh)
            vectors.index = fresh
            return len(fresh)

    @contextlib.contextmanager
    def _translated(self, doing: str) -> Iterator[None]:
        """No raw sqlite3 error leaves the engine (the store translates its own; this
        catches any from code that reads it directly)."""
        try:
            yield
        except sqlite3.Error as exc:
            store = self.store
            if isinstance(store, Store):
                raise store.translate(exc, doing) from exc
            raise StoreError(f"{doing} failed: {exc}") from exc


@dataclass(frozen=True)
class BackupReport:
    """What ``Engine.backup`` wrote: the copy in ``dest``; ``index_rebuilt`` says why its
    vector index was rebuilt from the database instead of copied (the data directory's
    index file is missing, corrupt or out of step: run ``rebuild-index`` there), empty
    when the file was copied."""

    dest: Path
    index_rebuilt: str = ""

    @property
    def ok(self) -> bool:
        return not self.index_rebuilt


def _index_damage(copy: Store, data_dir: Path) -> str:
    """What is wrong with the index file ``copy``'s database records in ``data_dir`` ("" if
    it is sound: present, with the recorded SHA-256, at the copy's data version)."""
    name = copy.meta("index_file")
    if name is None:
        return "no vector index file is recorded" if copy.counts()["chunks"] else ""
    path = data_dir / name
    if not path.is_file():
        return f"the vector index file {name} is missing"
    if sha256_of(path) != copy.meta("index_sha256"):
        return f"the vector index file {name} is corrupt (sha256 mismatch)"
    if copy.meta("index_data_version") != str(copy.data_version()):
        return (
            f"the vector index file {name} is out of step with the database (unless a write "
            "was just being saved: `ragcore check` says which)"
        )
    return ""


def _scope(scope: Scope | None) -> Scope:
    if scope is None:
        return Scope.ALL
    if not isinstance(scope, Scope):
        raise InvalidInputError(f"scope must be a ragcore.Scope, got {type(scope).__name__}")
    return scope


def _filters(filters: SearchFilters | None) -> SearchFilters:
    if filters is None:
        return SearchFilters()
    if not isinstance(filters, SearchFilters):
        raise InvalidQueryError(
            f"filters must be a ragcore.SearchFilters, got {type(filters).__name__}"
        )
    return filters


def _size(path: Path) -> int:
    try:
        return path.stat().st_size + sum(
            p.stat().st_size for p in path.parent.glob(path.name + "-wal")
        )
    except OSError:
        return 0
