"""The bundled sample knowledge base: maintenance manuals, regulations and an FAQ, and
beside them two tables (spare-parts inventory, monthly shortages) with their schemas."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ragcore.documents import Document
from ragcore.engine import Engine
from ragcore.ingest.loaders import load_path
from ragcore.storage.tables import FORMATS, TableInfo

SAMPLE_KB = Path(__file__).resolve().parent / "sample_kb"
SAMPLE_TABLES = SAMPLE_KB / "tables"
"""``NAME.toml`` (schema) beside ``NAME.csv`` or ``NAME.jsonl`` (rows): table NAME."""


def sample_documents() -> list[Document]:
    """Every sample document; each folder of ``sample_kb`` (but ``tables``) is one
    knowledge base."""
    folders = sorted(p for p in SAMPLE_KB.iterdir() if p.is_dir() and p != SAMPLE_TABLES)
    return [doc for folder in folders for doc in load_path(folder, folder.name)]


def sample_tables(folder: Path = SAMPLE_TABLES) -> list[tuple[str, Path, Path]]:
    """(table name, data file, schema file) of every table of ``folder`` (by default the
    sample's), by name."""
    found = []
    for schema in sorted(folder.glob("*.toml")):
        data = [schema.with_suffix(suffix) for suffix in FORMATS]
        found += [(schema.stem, path, schema) for path in data if path.is_file()][:1]
    return found


def ingest_sample_tables(engine: Engine, folder: Path = SAMPLE_TABLES) -> list[TableInfo]:
    """Load every table of ``folder`` (by default the sample's) into ``engine`` (one
    already loaded from the same file and schema is left as it is); the tables as
    loaded, by name."""
    loaded = {info.name: info for info in engine.list_tables()}
    out = []
    for name, data, schema in sample_tables(folder):
        info = loaded.get(name)
        same = (
            info is not None
            and info.sha256 == hashlib.sha256(data.read_bytes()).hexdigest()
            and info.schema_text == schema.read_text(encoding="utf-8")
        )
        if info is None or not same:  # a changed sample file replaces the table loaded from it
            info = engine.ingest_table(data, table=name, schema=schema, replace=True)
        out.append(info)
    return out
