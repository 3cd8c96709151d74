"""The bundled sample knowledge base: maintenance manuals, regulations and an FAQ."""

from __future__ import annotations

from pathlib import Path

from ragcore.documents import Document
from ragcore.ingest.loaders import load_path

SAMPLE_KB = Path(__file__).resolve().parent / "sample_kb"


def sample_documents() -> list[Document]:
    """Every sample document; each folder of ``sample_kb`` is one knowledge base."""
    folders = sorted(p for p in SAMPLE_KB.iterdir() if p.is_dir())
    return [doc for folder in folders for doc in load_path(folder, folder.name)]
