"""Hybrid fusion: every candidate chunk's scores by each method become one score.

Four signals, each an array over the same candidates: the chunk's cosine and BM25, and
(when their weights are above 0) its document's — the cosine of the document's first
chunk (title and opening, already embedded: no extra embedding at ingest) and BM25 over
the title and whole text. They are combined as a convex sum::

    vector_weight × ((1 − e) × cosine + e × document cosine)
    + (1 − vector_weight) × ((1 − d) × BM25 + d × document BM25)

with ``e = document_vector_weight`` and ``d = document_keyword_weight``, after each
signal is put on a common scale by ``Config.fusion``: min-max (``weighted``), z-score
(``zscore``; the weighted sum is then scaled to 0–1 over the candidates, the range
callers read a hybrid score in) or reciprocal rank (``rrf``, where only the first
``depth`` ranks count).
Then ``sibling_weight`` adds to each chunk that share of the fused scores (all >= 0) of
the other candidates from its document, so a document ranked by its best chunk scores
``max + sibling_weight × the rest``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ragcore.config import Config
from ragcore.types import Fusion


@dataclass(frozen=True)
class Signals:
    """Each candidate's score by each method; every array is in the candidates' order."""

    depth: int
    """How many candidates each method contributed (RRF credits ranks up to it)."""
    vector: np.ndarray
    keyword: np.ndarray
    """BM25, 0 for a chunk that does not match (or ranks below the scoring depth)."""
    owners: np.ndarray | None = None
    """The id of the first chunk of each candidate's document (its document's key)."""
    document_vector: np.ndarray | None = None
    document_keyword: np.ndarray | None = None


def fuse(signals: Signals, config: Config) -> np.ndarray:
    """The hybrid score of every candidate, in the candidates' order."""
    w = config.vector_weight
    # A document signal that was not gathered leaves its side to the chunk signal.
    e = config.document_vector_weight if signals.document_vector is not None else 0.0
    d = config.document_keyword_weight if signals.document_keyword is not None else 0.0
    owners = signals.owners
    terms = [
        (w * (1 - e), signals.vector, None, False),
        (w * e, signals.document_vector, owners, False),
        ((1 - w) * (1 - d), signals.keyword, None, True),
        ((1 - w) * d, signals.document_keyword, owners, True),
    ]
    fused = np.zeros(len(signals.vector))
    for weight, values, groups, lexical in terms:
        if weight == 0 or values is None:
            continue
        if config.fusion == Fusion.RRF:
            fused += weight * _reciprocal_rank(values, groups, lexical, config.rrf_k, signals.depth)
        elif config.fusion == Fusion.ZSCORE:
            fused += weight * _z_score(values)
        else:
            fused += weight * _min_max(values)
    if config.fusion == Fusion.ZSCORE:
        # Callers read a hybrid score as 0 (the worst candidate) to 1 (the best), as
        # min-max gives it; z-scores are negative for about half of the candidates.
        fused = _min_max(fused)
    if config.sibling_weight and owners is not None:
        fused = _with_siblings(fused, owners, config.sibling_weight)
    return fused


def _min_max(values: np.ndarray) -> np.ndarray:
    low, high = values.min(), values.max()
    if high - low <= 0:
        return np.full(len(values), 1.0 if high > 0 else 0.0)
    return (values - low) / (high - low)


def _z_score(values: np.ndarray) -> np.ndarray:
    deviation = values.std()
    if deviation <= 0:
        return np.zeros(len(values))
    return (values - values.mean()) / deviation


def _reciprocal_rank(
    values: np.ndarray, groups: np.ndarray | None, lexical: bool, rrf_k: int, depth: int
) -> np.ndarray:
    """1 / (rrf_k + rank) for the first ``depth`` ranks; a document signal ranks documents."""
    if groups is None:
        keys, inverse, best = np.arange(len(values)), np.arange(len(values)), values
    else:  # every chunk of a document shares its value, so rank the documents
        keys, inverse = np.unique(groups, return_inverse=True)
        best = np.full(len(keys), -np.inf)
        np.maximum.at(best, inverse, values)
    # Equal scores share a rank (1 + how many score higher): a tie adds no order.
    ranks = np.searchsorted(np.sort(-best), -best, side="left") + 1
    credit = np.where(ranks <= depth, 1.0 / (rrf_k + ranks), 0.0)
    if lexical:  # no BM25 means no match: no rank to credit
        credit = np.where(best > 0, credit, 0.0)
    return credit[inverse]


def _with_siblings(fused: np.ndarray, owners: np.ndarray, share: float) -> np.ndarray:
    """Each score plus ``share`` × the scores (all >= 0) of its document's other candidates."""
    _, inverse = np.unique(owners, return_inverse=True)
    totals = np.bincount(inverse, weights=fused)
    return fused + share * (totals[inverse] - fused)
