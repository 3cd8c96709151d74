"""``SearchFilters`` as a PostgreSQL condition on ``d`` (documents): the same rules as
``storage.filters.where_clause`` for SQLite, in PostgreSQL's dialect (``%s`` parameters,
arrays instead of IN lists)."""

from __future__ import annotations

from collections.abc import Collection

from ragcore.storage.filters import SearchFilters


def where_clause(
    filters: SearchFilters, within: Collection[str] | None = None
) -> tuple[str, list[object]]:
    """The condition and its parameters; ``within`` (a scope's knowledge bases) bounds the
    documents and counts only documents inside it as superseding one."""
    clauses: list[str] = ["TRUE"]
    params: list[object] = []
    newer = "n.supersedes = d.id"
    names = sorted(within) if within is not None else None
    if names is not None:
        clauses.append("d.knowledge_base = ANY(%s)")
        params.append(names)
        newer += " AND n.knowledge_base = ANY(%s)"
    if filters.knowledge_bases:
        clauses.append("d.knowledge_base = ANY(%s)")
        params.append(list(filters.knowledge_bases))
    if filters.doc_types:
        clauses.append("d.doc_type = ANY(%s)")
        params.append(list(filters.doc_types))
    if filters.updated_after:
        clauses.append("d.updated_at >= %s")
        params.append(filters.updated_after)
    if filters.updated_before:
        clauses.append("d.updated_at <= %s")
        params.append(filters.updated_before)
    if filters.min_authority:
        clauses.append("d.authority >= %s")
        params.append(filters.min_authority)
    if filters.sources:
        clauses.append(
            "EXISTS (SELECT 1 FROM unnest(%s::text[]) s "
            "WHERE strpos(lower(d.source), lower(s)) > 0)"
        )
        params.append(list(filters.sources))
    if filters.exclude_documents:
        clauses.append("NOT (d.id = ANY(%s))")
        params.append(list(filters.exclude_documents))
    for wanted, test in (
        (filters.only_superseded, "EXISTS"),
        (filters.exclude_superseded, "NOT EXISTS"),
    ):
        if wanted:
            clauses.append(f"{test} (SELECT 1 FROM documents n WHERE {newer})")
            params += [names] if names is not None else []
    return " AND ".join(clauses), params
