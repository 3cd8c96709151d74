"""The document as ragcore stores it, and the checks every document passes first."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from types import MappingProxyType

from ragcore.errors import QUOTE_CHARS, InvalidDocumentError, quoted
from ragcore.text.terms import model_terms, terms

MAX_DOCUMENT_CHARS = 2_000_000
"""Default cap on a document's text; larger documents should be split before ingest."""

MAX_ID_CHARS = 200
"""A document id (and a ``supersedes`` link): 1 to this many characters."""
MAX_KNOWLEDGE_BASE_CHARS = 64
"""A knowledge base's name: 1 to this many characters."""
MAX_LABEL_CHARS = 200
"""A document's ``doc_type`` and ``source``, and each metadata key: at most this many."""

DEFAULT_KNOWLEDGE_BASE = "default"
_ID = re.compile(rf"^[A-Za-z0-9][A-Za-z0-9._:/@-]{{0,{MAX_ID_CHARS - 1}}}$")
_KB = re.compile(rf"^[a-z0-9][a-z0-9_-]{{0,{MAX_KNOWLEDGE_BASE_CHARS - 1}}}$")


@dataclass(frozen=True)
class DocumentInfo:
    """A stored document's metadata (everything but its text)."""

    id: str
    knowledge_base: str
    title: str
    source: str
    doc_type: str
    authority: int
    updated_at: date | None
    version: int
    supersedes: str | None
    metadata: Mapping[str, str]
    checksum: str
    ingested_at: str
    superseded_by: str | None = None


def named_identifiers(text: str) -> frozenset[str]:
    """The identifiers ``text`` names, normalised: "CH-310" and "ch310" are one."""
    return frozenset(model_terms(terms(text)))


def identifiers_of(document: DocumentInfo) -> frozenset[str]:
    """The identifiers a document's title and metadata name ("CSM-2018", "CH-310")."""
    return named_identifiers(" ".join([document.title, *map(str, document.metadata.values())]))


@dataclass(frozen=True)
class Section:
    """The span ``text[start:end]`` of a document under one heading, and the headings
    above it: ``path == ("5 Maintenance", "5.3 Mechanical seal")``."""

    start: int
    end: int
    path: tuple[str, ...]

    @property
    def title(self) -> str:
        """The path joined with " > ", as chunks carry it."""
        return SECTION_SEPARATOR.join(self.path)


SECTION_SEPARATOR = " > "


@dataclass(frozen=True)
class PageSpan:
    """The span ``text[start:end]`` of a document that came from page ``page`` (1-based)."""

    start: int
    end: int
    page: int


@dataclass(frozen=True)
class Document:
    """A document to ingest.

    ``authority`` runs from 1 (hearsay) to 5 (binding regulation); ``updated_at`` is the
    date the content was last revised; ``supersedes`` names the id of the document this
    one replaces. Any other metadata goes in ``metadata`` (string values).
    """

    id: str
    text: str
    knowledge_base: str = DEFAULT_KNOWLEDGE_BASE
    title: str = ""
    source: str = ""
    doc_type: str = "document"
    authority: int = 3
    updated_at: date | None = None
    version: int = 1
    supersedes: str | None = None
    metadata: Mapping[str, str] = field(default_factory=dict)
    origin: str = ""
    """Where the document came from (a file path), used in error messages only."""
    sections: tuple[Section, ...] = ()
    """The text's headings as spans, in order and not overlapping (a loader sets them;
    empty for a document without headings). Chunks take their ``section`` from these."""
    pages: tuple[PageSpan, ...] = ()
    """The text's pages as spans, in order (PDF); chunks take their ``pages`` from these."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "metadata", MappingProxyType(dict(self.metadata)))

    @property
    def checksum(self) -> str:
        """SHA-256 of everything stored about the document (text and metadata). The
        section and page spans are not in it: they follow from the text as read, and a
        store recomputes the checksum from what it keeps (``ragcore migrate``)."""
        payload = json.dumps(
            [
                self.text,
                self.knowledge_base,
                self.title,
                self.source,
                self.doc_type,
                self.authority,
                self.updated_at and self.updated_at.isoformat(),
                self.version,
                self.supersedes,
                sorted(self.metadata.items()),
            ],
            ensure_ascii=False,
        )
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()

    def validated(self, max_chars: int = MAX_DOCUMENT_CHARS) -> Document:
        """Return self if every field is usable, else raise InvalidDocumentError."""
        where = self.origin or f"document {quoted(self.id)}"

        def bad(field_name: str, problem: str) -> InvalidDocumentError:
            return InvalidDocumentError(where, field_name, problem)

        if not isinstance(self.id, str) or not _ID.match(self.id):
            raise bad(
                "id",
                f"{quoted(self.id)} is not a valid id: use 1-{MAX_ID_CHARS} letters, digits "
                "or ._:/@- starting with a letter or digit",
            )
        if not isinstance(self.text, str) or not self.text.strip():
            raise bad("text", "the document has no text")
        if len(self.text) > max_chars:
            raise bad(
                "text",
                f"{len(self.text):,} characters is over the limit of {max_chars:,}; "
                "split the document or raise max_document_chars",
            )
        if not isinstance(self.knowledge_base, str) or not _KB.match(self.knowledge_base):
            raise bad(
                "knowledge_base",
                f"{quoted(self.knowledge_base)} is not a valid name: use "
                f"1-{MAX_KNOWLEDGE_BASE_CHARS} lowercase letters, digits, _ or -",
            )
        for name in ("title", "source", "doc_type"):
            if not isinstance(getattr(self, name), str):
                raise bad(name, f"must be text, got {type(getattr(self, name)).__name__}")
        for name in ("source", "doc_type"):
            if len(getattr(self, name)) > MAX_LABEL_CHARS:
                raise bad(name, _too_long(getattr(self, name), MAX_LABEL_CHARS))
        if (
            isinstance(self.authority, bool)
            or not isinstance(self.authority, int)
            or not 1 <= self.authority <= 5
        ):
            raise bad(
                "authority",
                f"{quoted(self.authority)} is out of range: use an integer from 1 to 5",
            )
        if self.updated_at is not None and not isinstance(self.updated_at, date):
            raise bad("updated_at", f"{quoted(self.updated_at)} is not a date: use YYYY-MM-DD")
        if isinstance(self.version, bool) or not isinstance(self.version, int) or self.version < 1:
            raise bad(
                "version", f"{quoted(self.version)} is not a version: use an integer of 1 or more"
            )
        if self.supersedes is not None and (
            not isinstance(self.supersedes, str) or not _ID.match(self.supersedes)
        ):
            raise bad(
                "supersedes",
                f"{quoted(self.supersedes)} is not a document id: use 1-{MAX_ID_CHARS} letters, "
                "digits or ._:/@- starting with a letter or digit",
            )
        if self.supersedes == self.id:
            raise bad("supersedes", "a document cannot supersede itself")
        for key, value in self.metadata.items():
            if not isinstance(key, str) or not isinstance(value, str):
                raise bad("metadata", f"{quoted(key)}: keys and values must be text")
            if len(key) > MAX_LABEL_CHARS:
                raise bad("metadata", f"the key {_too_long(key, MAX_LABEL_CHARS)}")
        return self


def parse_date(value: object, where: str, field_name: str = "updated_at") -> date | None:
    """Parse ``YYYY-MM-DD`` (or pass a date through); empty means no date."""
    if value is None or value == "":
        return None
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value).strip())
    except ValueError:
        raise InvalidDocumentError(
            where, field_name, f"{quoted(value)} is not a date: use YYYY-MM-DD, e.g. 2024-03-31"
        ) from None


def parse_int(value: object, where: str, field_name: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        raise InvalidDocumentError(
            where, field_name, f"{quoted(value)} is not an integer"
        ) from None


def _too_long(value: str, limit: int) -> str:
    return (
        f"{value[:QUOTE_CHARS]!r}… is {len(value):,} characters, over the limit of {limit}: "
        "shorten it"
    )


# The fields a loaded file may set; anything else is free-form metadata.
FIELDS = (
    "id",
    "title",
    "knowledge_base",
    "source",
    "doc_type",
    "authority",
    "updated_at",
    "version",
    "supersedes",
    "text",
)


def document_from_fields(
    fields: Mapping[str, object],
    text: object,
    origin: str,
    knowledge_base: str | None = None,
    *,
    sections: tuple[Section, ...] = (),
    pages: tuple[PageSpan, ...] = (),
) -> Document:
    """A checked Document from loosely typed fields (a file's front matter, a JSON line,
    a request); errors name ``origin``. Empty fields take the Document defaults; a field
    ``knowledge_base`` wins over the argument. Metadata values that are not text (lists,
    nested keys, numbers) are stored as JSON."""
    extra = {k: v for k, v in fields.items() if k not in FIELDS and k != "metadata"}
    given = fields.get("metadata") or {}
    if not isinstance(given, Mapping):
        raise InvalidDocumentError(origin, "metadata", "must be an object of key: value pairs")
    metadata = {**given, **extra}
    return Document(
        id=str(fields["id"]) if "id" in fields else "",
        text=text if isinstance(text, str) else "",
        knowledge_base=str(
            fields.get("knowledge_base") or knowledge_base or DEFAULT_KNOWLEDGE_BASE
        ),
        title=str(fields.get("title") or ""),
        source=str(fields.get("source") or ""),
        doc_type=str(fields.get("doc_type") or "document"),
        authority=parse_int(fields.get("authority", 3), origin, "authority"),
        updated_at=parse_date(fields.get("updated_at"), origin),
        version=parse_int(fields.get("version", 1), origin, "version"),
        supersedes=str(fields["supersedes"]) if fields.get("supersedes") else None,
        metadata={
            str(k): v if isinstance(v, str) else json.dumps(v, default=str)
            for k, v in metadata.items()
        },
        origin=origin,
        sections=sections,
        pages=pages,
    ).validated()


@dataclass(frozen=True)
class Chunk:
    """A piece of a document, ready to be embedded and indexed.

    ``section`` is where the chunk sits in the document's structure, the headings from
    the outermost in, joined with " > " ("5 Maintenance > 5.3 Mechanical seal"); empty
    when the document has no structure or the chunk comes before its first heading.
    ``pages`` is the first and last page the chunk's text is on (1-based, first <= last;
    equal for a chunk on one page); None when the document has no pages.
    """

    position: int
    text: str
    start: int
    end: int
    entities: tuple[str, ...]
    numeric_density: float
    section: str = ""
    """The headings above the chunk's start, joined with " > " ("5 Maintenance > 5.3
    Mechanical seal"); empty when the document has no headings there."""
    pages: tuple[int, int] | None = None
    """The first and last page (1-based) the chunk's text comes from; None without pages."""
