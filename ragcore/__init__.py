"""ragcore: embedded, offline, CPU-only retrieval-augmented answering.

Importing ragcore loads no model and opens no file; an Engine opens its data directory
and models on first use::

    from ragcore import Engine, Document

    with Engine.open("./data") as engine:
        engine.ingest([Document(id="hp400", text="...", knowledge_base="manuals")])
        for hit in engine.search("what does E4027 mean?", k=5):
            print(hit.document.title, hit.text)
        answer = engine.ask("What does error E4027 mean?")
        print(answer.status, answer.text, [c.document_id for c in answer.citations])

Every type that appears in a public signature or result is exported here; the closed
vocabularies (routes, statuses, issue kinds, ...) are in ``ragcore.types`` and the
errors in ``ragcore.errors`` (all derive from ``RagcoreError``).

A caller limited to some knowledge bases passes a ``Scope`` to every call::

    scope = Scope(frozenset({"manuals"}))
    engine.ask("What does E4027 mean?", filters=SearchFilters(min_authority=3), scope=scope)
    engine.list_documents(scope=scope)  # pages of DocumentRecord; none from outside it

A conversation is a ``session``: a follow-up is rewritten from the previous turn::

    session = engine.new_session()
    engine.ask("What does E4027 mean on the HP-400?", session=session)
    answer = engine.ask("And on the HP-500?", session=session)
    answer.rewritten_question  # 'What does E4027 mean on the HP-500?'

The layers, bottom to top. A module imports only from its own layer and the layers
below it (``tests/ragcore/test_layers.py`` enforces this)::

    8  cli/                       the ``ragcore`` command line
    7  evaluation/                BEIR and golden-set figures, the sample knowledge base
    6  engine                     the facade: owns the store, index, models and agents
    5  answering                  the loop: perceive → plan → retrieve → generate → validate
    4  agents/                    perception/, planning/, generation/, validation, evidence
    3  ingest/, retrieval/,       files → chunks → store; keyword, vector and hybrid search;
       stores                     what the engine opens for each store, where they differ
    2  inference/, storage/,      ONNX models and their manifest; SQLite and the vector index;
       scope                      the knowledge bases a caller may use
    1  config, documents,         the one Config; Document and its metadata; table
       tabular                    schemas and queries
    0  types, errors, trace, text/,  vocabularies, the error tree, trace trees, text helpers,
       cancel                     the cancellation token long work checks
"""

from ragcore.agents.evidence import Draft, Evidence, Statement
from ragcore.agents.generation import Generator
from ragcore.agents.perception import (
    MAX_QUESTION_CHARS,
    Constraints,
    Entity,
    Perception,
    TimeConstraint,
)
from ragcore.agents.planning import Plan, Retrieval, RetrievalTask, TaskResult
from ragcore.agents.validation import CheckResult, Issue, ValidationReport
from ragcore.answering import Answer, Citation, EventListener, StageEvent
from ragcore.cancel import Cancellation, CancelToken
from ragcore.config import Config, HnswParams
from ragcore.documents import (
    MAX_ID_CHARS,
    MAX_KNOWLEDGE_BASE_CHARS,
    MAX_LABEL_CHARS,
    Document,
    DocumentInfo,
    PageSpan,
    Section,
    document_from_fields,
)
from ragcore.engine import BackupReport, Engine, KnowledgeBaseInfo, Stats
from ragcore.errors import RagcoreError
from ragcore.inference.embedder import Embedder
from ragcore.inference.reranker import Reranker
from ragcore.ingest.formats import load_bytes
from ragcore.ingest.loaders import FileNote, SkippedFile, load_path
from ragcore.ingest.pipeline import DocumentOutcome, IngestProgress, IngestReport
from ragcore.retrieval.search import MAX_QUERY_CHARS, Hit
from ragcore.scope import Scope
from ragcore.storage.filters import SearchFilters
from ragcore.storage.integrity import CheckFinding, CheckReport
from ragcore.storage.records import DocumentPage, DocumentRecord
from ragcore.storage.sessions import MAX_SESSION_ID_CHARS, Session, Turn
from ragcore.tabular import MAX_TABLE_NAME_CHARS
from ragcore.trace import TraceNode

__version__ = "0.1.0"

__all__ = [
    "Answer",
    "BackupReport",
    "CancelToken",
    "Cancellation",
    "CheckFinding",
    "CheckReport",
    "CheckResult",
    "Citation",
    "Config",
    "Constraints",
    "Document",
    "DocumentInfo",
    "DocumentOutcome",
    "DocumentPage",
    "DocumentRecord",
    "Draft",
    "Embedder",
    "Engine",
    "Entity",
    "EventListener",
    "Evidence",
    "FileNote",
    "Generator",
    "Hit",
    "HnswParams",
    "IngestProgress",
    "IngestReport",
    "Issue",
    "KnowledgeBaseInfo",
    "MAX_ID_CHARS",
    "MAX_KNOWLEDGE_BASE_CHARS",
    "MAX_LABEL_CHARS",
    "MAX_QUERY_CHARS",
    "MAX_QUESTION_CHARS",
    "MAX_SESSION_ID_CHARS",
    "MAX_TABLE_NAME_CHARS",
    "PageSpan",
    "Perception",
    "Plan",
    "RagcoreError",
    "Reranker",
    "Retrieval",
    "RetrievalTask",
    "Scope",
    "SearchFilters",
    "Section",
    "Session",
    "SkippedFile",
    "StageEvent",
    "Statement",
    "Stats",
    "TaskResult",
    "TimeConstraint",
    "TraceNode",
    "Turn",
    "ValidationReport",
    "__version__",
    "document_from_fields",
    "load_bytes",
    "load_path",
]
