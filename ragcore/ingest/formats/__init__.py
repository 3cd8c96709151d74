"""Documents from a file's bytes: what a file sent over the wire (gRPC ``Ingest``'s
``DocumentFile``) is read with.

``load_bytes`` reads the types ``loaders`` reads from disk — plain text, Markdown with
front matter, HTML with ``<meta>`` fields, JSON Lines — through the same parsers as
``load_file``, so a file gives the same documents sent as read from a folder. The type
comes from ``media_type`` when given ("text/markdown"; parameters such as
"; charset=utf-8" are ignored), else from the file name's extension. Every problem —
another type, bytes that are not UTF-8, bad front matter, an invalid field — is an
``InvalidDocumentError`` naming the file.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from ragcore.documents import Document
from ragcore.errors import InvalidDocumentError
from ragcore.ingest.loaders import SUPPORTED_SUFFIXES, documents_from_text

MEDIA_TYPES = {
    "text/plain": ".txt",
    "text/markdown": ".md",
    "text/x-markdown": ".md",
    "text/html": ".html",
    "application/xhtml+xml": ".html",
    "application/jsonl": ".jsonl",
    "application/x-ndjson": ".jsonl",
}
"""The media types ``load_bytes`` reads, and the extension each reads as."""


def load_bytes(
    data: bytes,
    file_name: str,
    media_type: str | None = None,
    knowledge_base: str | None = None,
) -> list[Document]:
    """The documents in a file's bytes; ``file_name`` gives the type (without
    ``media_type``), the id and title of a document that names neither, and the name
    errors give. ``knowledge_base`` applies to documents that do not name their own."""
    if not isinstance(file_name, str) or not file_name.strip():
        raise InvalidDocumentError("a file", "file_name", "give the file's name, e.g. manual.md")
    name = PurePosixPath(file_name.replace("\\", "/"))
    suffix = _suffix(name, media_type, file_name)
    try:
        raw = bytes(data).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidDocumentError(
            file_name,
            None,
            f"is not UTF-8 text ({exc.reason} at byte {exc.start}); convert it to UTF-8",
        ) from exc
    return documents_from_text(raw, suffix, name.stem or file_name, file_name, knowledge_base)


def _suffix(name: PurePosixPath, media_type: str | None, file_name: str) -> str:
    if media_type:
        essence = media_type.split(";", 1)[0].strip().lower()
        if essence not in MEDIA_TYPES:
            raise InvalidDocumentError(
                file_name,
                "media_type",
                f"{media_type!r} is not a type ragcore reads; use one of "
                f"{', '.join(MEDIA_TYPES)}, or leave it empty to go by the extension",
            )
        return MEDIA_TYPES[essence]
    suffix = name.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise InvalidDocumentError(
            file_name,
            None,
            f"unsupported file type {suffix or '(none)'}; use one of "
            f"{', '.join(SUPPORTED_SUFFIXES)}, or give the media type",
        )
    return suffix
