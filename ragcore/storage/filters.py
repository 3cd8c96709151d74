"""Search filters, and the SQL that applies them to chunks."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ragcore.errors import InvalidQueryError


@dataclass(frozen=True)
class SearchFilters:
    """Metadata filters of a search; an empty field means "no restriction"."""

    knowledge_bases: tuple[str, ...] = ()
    doc_types: tuple[str, ...] = ()
    updated_after: date | None = None
    """Only documents updated on or after this date (undated documents are excluded)."""
    updated_before: date | None = None
    """Only documents updated on or before this date (undated documents are excluded)."""
    min_authority: int | None = None
    exclude_superseded: bool = False
    only_superseded: bool = False
    """Only documents a newer one supersedes (earlier revisions)."""
    sources: tuple[str, ...] = ()
    """Only documents whose source contains one of these (case-insensitive), e.g. "FAA"."""
    exclude_documents: tuple[str, ...] = ()
    """Never these document ids (e.g. ones a newer, more authoritative document overrides)."""

    def __post_init__(self) -> None:
        if self.min_authority is not None and not 1 <= self.min_authority <= 5:
            raise InvalidQueryError(f"min_authority={self.min_authority!r}: use 1 to 5")
        if self.updated_after and self.updated_before and self.updated_after > self.updated_before:
            raise InvalidQueryError(
                f"updated_after {self.updated_after} is later than updated_before "
                f"{self.updated_before}: swap them"
            )

    @property
    def empty(self) -> bool:
        return self == SearchFilters()


def where_clause(filters: SearchFilters) -> tuple[str, list[object]]:
    clauses: list[str] = ["1"]
    params: list[object] = []
    if filters.knowledge_bases:
        clauses.append(f"d.knowledge_base IN ({','.join('?' * len(filters.knowledge_bases))})")
        params += filters.knowledge_bases
    if filters.doc_types:
        clauses.append(f"d.doc_type IN ({','.join('?' * len(filters.doc_types))})")
        params += filters.doc_types
    if filters.updated_after:
        clauses.append("d.updated_at >= ?")
        params.append(filters.updated_after.isoformat())
    if filters.updated_before:
        clauses.append("d.updated_at <= ?")
        params.append(filters.updated_before.isoformat())
    if filters.min_authority:
        clauses.append("d.authority >= ?")
        params.append(filters.min_authority)
    if filters.sources:
        clauses.append(
            "(" + " OR ".join(["instr(lower(d.source), lower(?)) > 0"] * len(filters.sources)) + ")"
        )
        params += filters.sources
    if filters.exclude_documents:
        clauses.append(f"d.id NOT IN ({','.join('?' * len(filters.exclude_documents))})")
        params += filters.exclude_documents
    if filters.only_superseded:
        clauses.append("EXISTS (SELECT 1 FROM documents n WHERE n.supersedes = d.id)")
    if filters.exclude_superseded:
        clauses.append("NOT EXISTS (SELECT 1 FROM documents n WHERE n.supersedes = d.id)")
    return " AND ".join(clauses), params
