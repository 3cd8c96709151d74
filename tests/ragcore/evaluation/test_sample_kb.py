"""The bundled sample knowledge base is well formed and answers its example questions."""

from __future__ import annotations

import pytest

from ragcore import SearchFilters
from ragcore.evaluation.sample import sample_documents


def test_three_knowledge_bases_with_consistent_versions():
    docs = sample_documents()
    by_id = {d.id: d for d in docs}
    assert len(by_id) == len(docs) >= 30
    assert {d.knowledge_base for d in docs} == {"manuals", "regulations", "faq"}
    newer = [d for d in docs if d.supersedes]
    assert len(newer) >= 4
    for doc in newer:
        old = by_id[doc.supersedes]
        assert old.knowledge_base == doc.knowledge_base
        assert old.updated_at < doc.updated_at and old.version < doc.version


@pytest.mark.slow
def test_sample_questions_find_their_documents(engine):
    engine.ingest(sample_documents())
    current = SearchFilters(exclude_superseded=True)
    cases = {
        "What torque for the HP-400 platen bolts?": "manual-hp400-v2",
        "noise level of the AC-110 compressor": "manual-ac110",
        "hydrostatic pressure test of pressure vessels": "reg-pressure-vessels",
        "What does error E2210 mean?": "manual-ac75",
    }
    for question, expected in cases.items():
        top = [h.document_id for h in engine.search(question, k=3, filters=current)]
        assert expected in top, (question, top)
    assert engine.document("manual-cp200-v1").superseded_by == ("manual-cp200-v2",)
