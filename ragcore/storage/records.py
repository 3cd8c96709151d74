"""Stored documents as resources: a document's full record, and pages of them.

``DocumentRecord`` is what ``Engine.document`` returns and ``DocumentPage`` what
``Engine.list_documents`` returns. Pages are keyset-paged on ``(ingested_at, id)``: the
page token names the last document of the page, so a listing neither repeats nor skips
a document when others are ingested meanwhile (a document added or changed after the
listing began comes at its end, because its ``ingested_at`` is newer).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime

from ragcore.errors import InvalidQueryError, quoted

MAX_PAGE_SIZE = 1000
DEFAULT_PAGE_SIZE = 100


@dataclass(frozen=True)
class DocumentRecord:
    """Everything stored about a document but its text.

    ``superseded_by`` holds the ids of the documents that name this one in their
    ``supersedes``, newest first (only those the caller's scope can see);
    ``chunk_count`` is how many chunks it was cut into; ``checksum`` is the SHA-256 of
    its text and metadata (``Document.checksum``); ``ingested_at`` is when it was last
    added or changed (UTC).
    """

    id: str
    knowledge_base: str
    title: str
    source: str
    doc_type: str
    authority: int
    version: int
    updated_at: date | None
    metadata: Mapping[str, str]
    supersedes: str | None
    superseded_by: tuple[str, ...]
    chunk_count: int
    checksum: str
    ingested_at: datetime


@dataclass(frozen=True)
class DocumentPage:
    """One page of a listing; ``next_page_token`` is None on the last page."""

    documents: tuple[DocumentRecord, ...]
    next_page_token: str | None


@dataclass(frozen=True)
class Listing:
    """What one listing asks for; a page token is valid only for the listing it came from."""

    knowledge_base: str | None
    since: str | None
    """``ingested_at`` lower bound (inclusive), as stored: ISO 8601 UTC to the second."""
    page_size: int

    @classmethod
    def of(
        cls, knowledge_base: str | None, updated_since: datetime | None, page_size: int
    ) -> Listing:
        if knowledge_base is not None and (
            not isinstance(knowledge_base, str) or not knowledge_base
        ):
            raise InvalidQueryError(
                f"knowledge_base={quoted(knowledge_base)}: give a knowledge base name, or None "
                "for all"
            )
        if isinstance(page_size, bool) or not isinstance(page_size, int):
            raise InvalidQueryError(f"page_size={page_size!r}: give a whole number")
        if not 1 <= page_size <= MAX_PAGE_SIZE:
            raise InvalidQueryError(f"page_size={page_size}: use 1 to {MAX_PAGE_SIZE}")
        return cls(knowledge_base, stamp(updated_since) if updated_since else None, page_size)

    def token(self, last: DocumentRecord) -> str:
        """The opaque token of the page after ``last``."""
        payload = [1, stamp(last.ingested_at), last.id, self.knowledge_base, self.since]
        raw = json.dumps(payload, separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def after(self, token: str | None) -> tuple[str, str] | None:
        """The (ingested_at, id) a page token continues after; InvalidQueryError if it is
        malformed or belongs to another listing."""
        if token is None or token == "":
            return None
        bad = InvalidQueryError(
            "page_token is not a token this listing returned: start again without one"
        )
        if not isinstance(token, str) or len(token) > 2000:
            raise bad
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
            version, ingested_at, document_id, knowledge_base, since = json.loads(raw)
        except (binascii.Error, ValueError, TypeError):
            raise bad from None
        if version != 1 or not isinstance(ingested_at, str) or not isinstance(document_id, str):
            raise bad
        if (knowledge_base, since) != (self.knowledge_base, self.since):
            raise InvalidQueryError(
                "page_token belongs to a listing with another knowledge_base or "
                "updated_since: keep those the same while paging, or start again"
            )
        return ingested_at, document_id


def stamp(moment: datetime) -> str:
    """``moment`` as stored in ``ingested_at``: ISO 8601 in UTC, to the second.

    A naive datetime is refused: which zone it meant cannot be known.
    """
    if not isinstance(moment, datetime):
        raise InvalidQueryError(f"updated_since={moment!r}: give a datetime")
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise InvalidQueryError(
            f"updated_since={moment.isoformat()} has no time zone: give an aware datetime, "
            "e.g. datetime(2026, 1, 31, tzinfo=UTC)"
        )
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def parse_stamp(value: str) -> datetime:
    """An ``ingested_at`` column value as an aware datetime."""
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
