"""Reading the formats manuals come in: one loader per format, behind one protocol
(``base.FormatLoader``), chosen by the file's suffix (or media type).

==========  ==========================  ==============================================
suffix      module                      library (licence)
==========  ==========================  ==============================================
.txt        ``text``                    standard library
.md         ``markdown``                markdown-it-py (MIT), PyYAML (MIT) front matter
.html .htm  ``html``                    standard library ``html.parser``
.jsonl      ``jsonl``                   standard library
.pdf        ``pdf`` (+ ``ocr``)         pypdfium2 / PDFium (Apache-2.0 / BSD-3)
.docx       ``docx``                    python-docx (MIT)
.odt        ``odt``                     odfpy (Apache-2.0)
.rst        ``rst``                     standard library (a line reader, not docutils)
.adoc       ``asciidoc``                standard library (a line reader)
==========  ==========================  ==============================================

``FORMATS`` is the registry (suffixes and media types → reader, imported on first use).
``load_bytes`` is the one entry point (the CLI's directory walk and the gRPC ``Ingest``
both use it): bytes and a file name in, checked ``Document``s out, with their section
and page spans. Malformed input raises ``InvalidDocumentError`` naming the file, never
another exception. Without an ``id`` of its own, a document's id comes from the file
name (``ids.id_from_path``): the directory walk passes the path relative to the folder.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import import_module
from pathlib import PurePosixPath
from types import MappingProxyType

from ragcore.documents import DEFAULT_KNOWLEDGE_BASE, Document, document_from_fields
from ragcore.errors import InvalidDocumentError
from ragcore.ingest.formats.base import Extracted, FormatLoader, UndecodableError
from ragcore.ingest.formats.ids import id_from_path

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Format:
    """A file format ragcore reads: the suffixes (lower-case, with the dot) and media
    types that name it, and its reader, ``module:Class`` in this package. The reader's
    module is imported on first use, so ``import ragcore`` loads no PDF, Word or YAML
    library (they cost ~120 ms of import time together)."""

    name: str
    suffixes: tuple[str, ...]
    media_types: tuple[str, ...]
    reader: str

    def loader(self) -> FormatLoader:
        module, _, name = self.reader.partition(":")
        reader: FormatLoader = getattr(import_module(f"{__name__}.{module}"), name)()
        return reader


FORMATS = (
    Format("text", (".txt",), ("text/plain",), "text:TextLoader"),
    Format(
        "markdown",
        (".md", ".markdown"),
        ("text/markdown", "text/x-markdown"),
        "markdown:MarkdownLoader",
    ),
    Format(
        "html",
        (".html", ".htm", ".xhtml"),
        ("text/html", "application/xhtml+xml"),
        "html:HtmlLoader",
    ),
    Format(
        "jsonl",
        (".jsonl",),
        ("application/jsonl", "application/x-ndjson", "application/jsonlines"),
        "jsonl:JsonlLoader",
    ),
    Format("pdf", (".pdf",), ("application/pdf",), "pdf:PdfLoader"),
    Format(
        "docx",
        (".docx",),
        ("application/vnd.openxmlformats-officedocument.wordprocessingml.document",),
        "docx:DocxLoader",
    ),
    Format("odt", (".odt",), ("application/vnd.oasis.opendocument.text",), "odt:OdtLoader"),
    Format("rst", (".rst", ".rest"), ("text/x-rst", "text/prs.fallenstein.rst"), "rst:RstLoader"),
    Format(
        "asciidoc",
        (".adoc", ".asciidoc", ".asc"),
        ("text/asciidoc", "text/x-asciidoc"),
        "asciidoc:AsciiDocLoader",
    ),
)
"""Every format, in the order the README lists them."""
BY_SUFFIX: Mapping[str, Format] = MappingProxyType({s: f for f in FORMATS for s in f.suffixes})
_BY_MEDIA_TYPE = {media: f for f in FORMATS for media in f.media_types}
SUPPORTED_SUFFIXES = tuple(BY_SUFFIX)


@dataclass(frozen=True)
class LoadedFile:
    """A file's documents, and what the reader should know about it (``notes``)."""

    documents: tuple[Document, ...]
    notes: tuple[str, ...] = ()


# Media types that say nothing of the format: the file's suffix decides.
_UNTYPED = frozenset({"", "application/octet-stream", "binary/octet-stream"})


def format_of(file_name: str, media_type: str | None = None) -> Format | None:
    """The format a media type names (parameters ignored; None for a type no format
    takes), else, without one, the format of the file's suffix."""
    kind = (media_type or "").split(";")[0].strip().lower()
    if kind not in _UNTYPED:
        return _BY_MEDIA_TYPE.get(kind)
    return BY_SUFFIX.get(PurePosixPath(file_name.replace("\\", "/")).suffix.lower())


def load_bytes(
    data: bytes,
    file_name: str,
    media_type: str | None = None,
    knowledge_base: str | None = None,
) -> list[Document]:
    """The documents in a file's bytes; ``file_name`` picks the format (unless
    ``media_type`` names one) and gives ids to documents without one. Raises only
    ``InvalidDocumentError``, naming ``file_name``."""
    return list(load_file_bytes(data, file_name, media_type, knowledge_base).documents)


def load_file_bytes(
    data: bytes,
    file_name: str,
    media_type: str | None = None,
    knowledge_base: str | None = None,
    *,
    origin: str | None = None,
) -> LoadedFile:
    """``load_bytes``, with the file's notes; errors name ``origin`` (default the name)."""
    if not file_name.strip():
        raise InvalidDocumentError(
            origin or "(a file)", None, "has no file_name: give the file's name with it"
        )
    origin = origin or file_name
    found_format = format_of(file_name, media_type)
    if found_format is None:
        if format_of(file_name) is not None:  # a media type no format takes
            raise InvalidDocumentError(
                origin,
                None,
                f"media type {media_type!r} is not a type ragcore reads; send the file's "
                "own type, or none to go by its extension",
            )
        suffix = PurePosixPath(file_name).suffix or "(none)"
        raise InvalidDocumentError(
            origin,
            None,
            f"unsupported file type {suffix}"
            + (f" ({media_type})" if media_type else "")
            + f"; use one of {', '.join(SUPPORTED_SUFFIXES)}",
        )
    if not isinstance(data, bytes | bytearray | memoryview):
        raise InvalidDocumentError(origin, None, "the content must be bytes")
    try:
        extracted = found_format.loader().load(bytes(data), origin)
    except (InvalidDocumentError, MemoryError):
        raise
    except Exception as exc:  # a reader library's error on input it did not expect
        _log.debug("reading %s failed", origin, exc_info=True)
        raise InvalidDocumentError(
            origin,
            None,
            f"cannot be read ({type(exc).__name__}: {exc}); the file may be damaged: "
            "export or download it again (and report it if it opens elsewhere)",
        ) from exc
    kb = knowledge_base or DEFAULT_KNOWLEDGE_BASE
    documents = tuple(_document(found, file_name, kb) for found in extracted)
    notes = tuple(note for found in extracted for note in found.notes)
    return LoadedFile(documents, notes)


def _document(found: Extracted, file_name: str, knowledge_base: str) -> Document:
    fields = dict(found.fields)
    if fields.get("id") in (None, ""):
        fields["id"] = id_from_path(file_name)
    else:
        fields["id"] = str(fields["id"])
    if found.default_title and "title" not in fields:
        fields["title"] = _first_line_title(found.text) or PurePosixPath(file_name).stem
    fields.pop("text", None)
    return document_from_fields(
        fields,
        found.text,
        found.origin or file_name,
        knowledge_base,
        sections=found.sections,
        pages=found.pages,
    )


def _first_line_title(body: str) -> str:
    for line in body.splitlines():
        line = line.strip().lstrip("#").strip()
        if line:
            return line if len(line) <= 120 else ""
    return ""


__all__ = [
    "BY_SUFFIX",
    "FORMATS",
    "SUPPORTED_SUFFIXES",
    "Extracted",
    "Format",
    "FormatLoader",
    "LoadedFile",
    "UndecodableError",
    "format_of",
    "id_from_path",
    "load_bytes",
    "load_file_bytes",
]
