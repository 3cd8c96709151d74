"""Fusion: the hits of a round's tasks become one ranked list of evidence.

Each hit's share is its score relative to its task's best, times the task weight, summed
over tasks (or weighted reciprocal rank fusion). That relevance (or the cross-encoder's,
when reranking) is blended with a credibility score from document metadata: recency,
authority, numeric density; a superseded document loses most of it — unless the question
asks for an earlier version's figure (``Constraints.earlier``): then the superseded
document keeps its credibility and the revision that replaced it loses it instead, and
recency counts for nothing (the older text is the one asked for).

The plan's retrieval mode (``ModeSettings``) says how many chunks become evidence, below
what share of the best relevance a chunk is left out (precise), and how many chunks of one
document at most (explore spreads the evidence over documents).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date

from ragcore.agents.evidence import Evidence
from ragcore.agents.perception.agent import Perception
from ragcore.agents.planning.execution import TaskResult
from ragcore.agents.planning.strategy import ModeSettings, Strategy
from ragcore.inference.reranker import Reranker
from ragcore.retrieval.search import Hit
from ragcore.types import TaskFusion

NUMERIC_DENSITY_FULL = 0.2  # chunks this dense in numbers get full numeric credit


def fuse(
    results: Sequence[TaskResult],
    perception: Perception,
    strategy: Strategy,
    reranker: Reranker | None,
    today: date,
    mode: ModeSettings | None = None,
) -> tuple[Evidence, ...]:
    """The evidence of a round, best first and numbered from 1 (``mode``: the plan's
    retrieval mode; None: the strategy's evidence count, no floor, no spread)."""
    mode = mode or ModeSettings(strategy.base.k or 8, strategy.evidence)
    fused: dict[int, float] = {}
    best: dict[int, Hit] = {}
    found_by: dict[int, list[str]] = {}
    for result in results:
        top = max((h.score for h in result.hits), default=0.0)
        for rank, hit in enumerate(result.hits, start=1):
            if strategy.fusion == TaskFusion.RRF:
                share = result.task.weight / (strategy.fusion_k + rank)
            else:  # the hit's score relative to its task's best, weighted
                share = result.task.weight * max(hit.score, 0.0) / top if top > 0 else 0.0
            fused[hit.chunk_id] = fused.get(hit.chunk_id, 0.0) + share
            best.setdefault(hit.chunk_id, hit)
            found_by.setdefault(hit.chunk_id, []).append(result.task.id)
    if not fused:
        return ()
    candidates = sorted(fused, key=lambda c: -fused[c])
    relevance = _relevance(candidates, fused, best, perception, strategy, reranker, mode)
    earlier = bool(perception.constraints.earlier)
    cred = {c: credibility(best[c], today, strategy, earlier=earlier) for c in relevance}
    share = strategy.credibility.share
    score = {c: (1 - share) * relevance[c] + share * cred[c] for c in relevance}
    ranked = sorted(score, key=lambda c: -score[c])
    if mode.floor > 0:  # a lookup: what is far less relevant than the best only distracts
        high = max(relevance.values())
        ranked = [c for c in ranked if relevance[c] >= mode.floor * high]
    chosen = _spread(ranked, best, mode)
    # Every task's best hit gets in, so each side of a comparison has evidence.
    for result in results:
        first = next((h.chunk_id for h in result.hits if h.chunk_id in score), None)
        if first is not None and first not in chosen:
            chosen.append(first)
    chosen.sort(key=lambda c: -score[c])
    return tuple(
        Evidence(n, best[c], round(score[c], 4), round(cred[c], 4), tuple(found_by[c]))
        for n, c in enumerate(chosen, start=1)
    )


def _spread(ranked: list[int], best: dict[int, Hit], mode: ModeSettings) -> list[int]:
    """The first ``mode.evidence`` of ``ranked``, at most ``mode.per_document`` per document."""
    if not mode.per_document:
        return ranked[: mode.evidence]
    chosen: list[int] = []
    per: dict[str, int] = {}
    for c in ranked:
        document = best[c].document.id
        if per.get(document, 0) < mode.per_document:
            chosen.append(c)
            per[document] = per.get(document, 0) + 1
            if len(chosen) == mode.evidence:
                break
    return chosen


def credibility(hit: Hit, today: date, strategy: Strategy, *, earlier: bool = False) -> float:
    """0–1 from the document's recency and authority and the chunk's numeric density
    (``earlier``: an earlier version is asked for — the revision that replaced another
    loses what a superseded one loses otherwise, and recency is even)."""
    weights = strategy.credibility
    doc = hit.document
    if doc.updated_at is None or earlier:
        recency = 0.5
    else:
        age = max((today - doc.updated_at).days, 0)
        recency = 0.5 ** (age / weights.half_life_days)
    authority = (doc.authority - 1) / 4
    numbers = min(hit.numeric_density / NUMERIC_DENSITY_FULL, 1.0)
    total = weights.recency + weights.authority + weights.numeric_density
    value = (
        weights.recency * recency
        + weights.authority * authority
        + weights.numeric_density * numbers
    ) / total
    replaced = doc.supersedes if earlier else doc.superseded_by
    return value * (weights.superseded_factor if replaced else 1.0)


def _relevance(
    candidates: list[int],
    fused: dict[int, float],
    best: dict[int, Hit],
    perception: Perception,
    strategy: Strategy,
    reranker: Reranker | None,
    mode: ModeSettings,
) -> dict[int, float]:
    """0–1 relevance: fused rank fusion, or the cross-encoder when reranking."""
    use = reranker is not None if strategy.rerank is None else strategy.rerank
    if use and reranker is not None:
        top = candidates[: mode.evidence * 3]
        logits = reranker.score(perception.question, [best[c].text for c in top])
        return {c: 1 / (1 + math.exp(-float(x))) for c, x in zip(top, logits)}
    high = fused[candidates[0]] or 1.0  # every hit scored 0 (e.g. k beyond the matches)
    return {c: fused[c] / high for c in candidates}
