"""The public surface is small and deliberate: changing it must be a conscious act."""

import subprocess
import sys

import ragcore


def test_public_names_are_pinned():
    assert ragcore.__all__ == [
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
    assert ragcore.__all__ == sorted(ragcore.__all__)


def test_import_loads_no_model_runtime():
    code = (
        "import sys, ragcore; ragcore.Engine(); "
        "print(sorted(m for m in ('onnxruntime', 'hnswlib', 'spacy', 'tokenizers') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
