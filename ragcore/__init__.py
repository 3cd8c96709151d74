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

Errors are in ``ragcore.errors``; all derive from ``RagcoreError``.
"""

from ragcore.agents.generation.extractive import Generator
from ragcore.answering import Answer
from ragcore.config import Config
from ragcore.documents import Document, DocumentInfo
from ragcore.engine import Engine
from ragcore.errors import RagcoreError
from ragcore.inference.embedder import Embedder
from ragcore.inference.reranker import Reranker
from ragcore.ingest.loaders import load_path
from ragcore.ingest.pipeline import IngestReport
from ragcore.retrieval.search import Hit
from ragcore.storage.filters import SearchFilters

__version__ = "0.1.0"

__all__ = [
    "Answer",
    "Config",
    "Document",
    "DocumentInfo",
    "Embedder",
    "Engine",
    "Generator",
    "Hit",
    "IngestReport",
    "RagcoreError",
    "Reranker",
    "SearchFilters",
    "__version__",
    "load_path",
]
