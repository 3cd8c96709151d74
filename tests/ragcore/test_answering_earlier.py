"""A question for the figure before a change, end to end: the superseded revision (or
the manual a newer bulletin overrides) answers it, `ok`; the same question for today's
figure is answered from the current revision. Invented documents, real models."""

from __future__ import annotations

from datetime import date

import pytest
from conftest import TODAY

from ragcore import Config, Document, Engine

pytestmark = pytest.mark.integration


def _doc(doc_id: str, title: str, text: str, when: date, **extra) -> Document:
    return Document(
        id=doc_id,
        knowledge_base="manuals",
        title=title,
        doc_type="manual",
        authority=4,
        updated_at=when,
        text=text,
        **extra,
    )


REVISIONS = [
    _doc(
        "rx9-v1",
        "RX-9 blower manual",
        "# RX-9 blower\n\n## Maintenance\n\nRenew the RX-9 drive belt every 600 operating "
        "hours. Grease the RX-9 bearings monthly.",
        date(2018, 4, 2),
    ),
    _doc(
        "rx9-v2",
        "RX-9 blower manual, revision 2",
        "# RX-9 blower, revision 2\n\n## What changed\n\nWear data showed longer belt life, so "
        "the belt interval was extended from 600 to 800 operating hours.\n\n## Maintenance\n\n"
        "Renew the RX-9 drive belt every 800 operating hours. Grease the RX-9 bearings monthly.",
        date(2023, 6, 1),
        version=2,
        supersedes="rx9-v1",
    ),
]


@pytest.fixture
def engine(tmp_path, real_embedder):
    config = Config(data_dir=tmp_path / "data")
    with Engine(config, embedder=real_embedder, clock=lambda: TODAY) as engine:
        engine.ingest(REVISIONS)
        yield engine


def test_the_old_revision_answers_a_question_about_it(engine):
    answer = engine.ask("What was the RX-9 belt interval in the old revision?")
    assert answer.status == "ok", answer.issues
    assert answer.perception.constraints.earlier
    assert "600" in answer.text and "800" not in answer.text, answer.text
    assert [c.document_id for c in answer.citations] == ["rx9-v1"]


def test_the_current_revision_answers_a_question_about_today(engine):
    answer = engine.ask("How often should the RX-9 drive belt be renewed?")
    assert answer.status == "ok", answer.issues
    assert "800" in answer.text, answer.text
    assert {c.document_id for c in answer.citations} == {"rx9-v2"}
