"""The public surface is small and deliberate: changing it must be a conscious act."""

import subprocess
import sys

import pytest

import ragcore


def test_public_names_are_pinned():
    assert ragcore.__all__ == [
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
    assert ragcore.__all__ == sorted(ragcore.__all__)


@pytest.mark.process
def test_import_loads_no_model_runtime():
    code = (
        "import sys, ragcore; ragcore.Engine(); "
        "print(sorted(m for m in ('onnxruntime', 'hnswlib', 'spacy', 'tokenizers') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_every_exported_vocabulary_is_a_string_enum():
    from enum import StrEnum

    from ragcore import types

    for name in types.__all__:
        vocabulary = getattr(types, name)
        assert issubclass(vocabulary, StrEnum), name
        assert all(member == member.value for member in vocabulary)
