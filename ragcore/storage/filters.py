"""Search filters, how two sets of them combine, and the SQL that applies them to chunks."""

from __future__ import annotations

from collections.abc import Collection
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

    def within(self, bounds: SearchFilters) -> SearchFilters | None:
        """These filters narrowed to ``bounds``: a chunk passes the result only if it
        passes both. None when nothing can pass both (disjoint knowledge bases or doc
        types, an empty date range, sources that cannot both hold).

        This is how a caller's filters (``Engine.ask(filters=...)``) bound the tasks a
        plan makes from the question: the task may narrow them, never widen them.
        """
        if bounds.empty:
            return self
        kbs = _both(self.knowledge_bases, bounds.knowledge_bases)
        doc_types = _both(self.doc_types, bounds.doc_types)
        sources = _both_sources(self.sources, bounds.sources)
        if kbs is None or doc_types is None or sources is None:
            return None
        after = max(filter(None, (self.updated_after, bounds.updated_after)), default=None)
        before = min(filter(None, (self.updated_before, bounds.updated_before)), default=None)
        if after and before and after > before:
            return None
        authority = max(filter(None, (self.min_authority, bounds.min_authority)), default=None)
        return SearchFilters(
            knowledge_bases=kbs,
            doc_types=doc_types,
            updated_after=after,
            updated_before=before,
            min_authority=authority,
            exclude_superseded=self.exclude_superseded or bounds.exclude_superseded,
            only_superseded=self.only_superseded or bounds.only_superseded,
            sources=sources,
            exclude_documents=tuple(
                dict.fromkeys(self.exclude_documents + bounds.exclude_documents)
            ),
        )


def _both(mine: tuple[str, ...], theirs: tuple[str, ...]) -> tuple[str, ...] | None:
    """Names allowed by both lists (an empty list allows all); None if none is."""
    if not mine or not theirs:
        return mine or theirs
    common = tuple(n for n in mine if n in theirs)
    return common or None


def _both_sources(mine: tuple[str, ...], theirs: tuple[str, ...]) -> tuple[str, ...] | None:
    """Source substrings that satisfy both lists: each kept one contains a substring of
    each list, so a document whose source contains it passes both. None if there is none."""
    if not mine or not theirs:
        return mine or theirs
    kept = tuple(
        s
        for s in dict.fromkeys(mine + theirs)
        if any(m.lower() in s.lower() for m in mine) and any(t.lower() in s.lower() for t in theirs)
    )
    return kept or None


def where_clause(
    filters: SearchFilters, within: Collection[str] | None = None
) -> tuple[str, list[object]]:
    """The SQL condition on ``d`` (documents) for ``filters``, and its parameters.

    ``within`` (a scope's knowledge bases) keeps the documents to those knowledge bases,
    and counts only documents inside them as superseding one: a newer revision the caller
    may not see neither hides nor marks the one it may.
    """
    clauses: list[str] = ["1"]
    params: list[object] = []
    newer = "n.supersedes = d.id"
    if within is not None:
        names = sorted(within)
        marks = ",".join("?" * len(names))
        clauses.append(f"d.knowledge_base IN ({marks})")
        params += names
        newer += f" AND n.knowledge_base IN ({marks})"
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
    for wanted, test in (
        (filters.only_superseded, "EXISTS"),
        (filters.exclude_superseded, "NOT EXISTS"),
    ):
        if wanted:
            clauses.append(f"{test} (SELECT 1 FROM documents n WHERE {newer})")
            params += sorted(within) if within is not None else []
    return " AND ".join(clauses), params
