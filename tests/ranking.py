"""Comparing search results without depending on the CPU's int8 numerics.

The int8 embedder's vectors differ slightly from one x86 CPU to another (AVX512-VNNI and
AVX2-only kernels round differently), so two hits whose scores are near-tied may come in
either order on another machine. These helpers compare rankings with ties in mind:

- ``best_documents``: the documents within ``tolerance`` of the first hit's score, any of
  which may rank first elsewhere (hybrid scores are 0 to 1 over the candidates);
- ``assert_same_ranking``: two result lists that must agree hit for hit (the same stored
  vectors and the same query vector on both sides), order compared up to ties.
"""

from __future__ import annotations

from collections.abc import Sequence

from ragcore.retrieval.search import Hit

HYBRID_TIE = 0.05
"""Hybrid scores this close are a tie: on SQLite manual-hp400-v2 led -v1 by 0.004 on an
AVX512-VNNI Xeon, and -v1 led on an AVX2 EPYC; noise of norm 0.1 added to every embedding
(a stand-in for another CPU's kernels) put either first, by up to 0.012."""
SAME_VECTORS_TIE = 1e-5
"""Cosines of the same float32 vectors as SQLite and pgvector compute them (float4)."""


def best_documents(hits: Sequence[Hit], tolerance: float = HYBRID_TIE) -> set[str]:
    """The documents of the hits scoring within ``tolerance`` of the first one."""
    assert hits, "no hits"
    top = hits[0].score
    return {h.document_id for h in hits if h.score >= top - tolerance}


def top_documents(hits: Sequence[Hit], n: int) -> set[str]:
    """The documents of the first ``n`` hits."""
    return {h.document_id for h in hits[:n]}


def _tie_groups(hits: Sequence[Hit], tolerance: float) -> list[range]:
    """The places of consecutive hits within ``tolerance`` of their group's first."""
    starts = [0]
    for i, h in enumerate(hits):
        if hits[starts[-1]].score - h.score > tolerance:
            starts.append(i)
    return [range(a, b) for a, b in zip(starts, [*starts[1:], len(hits)])]


def assert_same_ranking(
    left: Sequence[Hit], right: Sequence[Hit], n: int, tolerance: float = SAME_VECTORS_TIE
) -> None:
    """The first ``n`` places of two rankings (searched deeper than ``n``) hold the same
    chunks with the same scores (within ``tolerance``), in the same order except among
    hits tied within ``tolerance`` (``left``'s ties; the group cut by the end of the lists,
    which may go on beyond it, is left out)."""
    assert len(left) == len(right) > n, (len(left), len(right), n)
    for a, b in zip(left, right, strict=True):
        assert abs(a.score - b.score) <= tolerance, (a.document_id, a.score, b.score)
    groups = _tie_groups(left, tolerance)[:-1]
    assert groups and groups[-1].stop >= n, "too many ties to compare the first places"

    def chunks(hits: Sequence[Hit], places: range) -> set[tuple[str, int]]:
        return {(hits[i].document_id, hits[i].position) for i in places}

    for places in groups:
        assert chunks(left, places) == chunks(right, places), places
