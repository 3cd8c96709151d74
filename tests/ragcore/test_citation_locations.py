"""Citations a technician can follow: a cited chunk's section and pages come from the
store through the answer, and the command line prints them ("…, §5.3 Mechanical seal,
p. 42") — and prints no date at all for an undated document.

Until the structured loaders set them, a chunk gets its section and pages here the way
a loader's chunks would carry them into the store: written in the chunk's row."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from conftest import TODAY, make_docs

from ragcore import Config, Document, Engine
from ragcore.answering import Citation
from ragcore.cli.render import print_answer, print_hits
from ragcore.storage.store import DATABASE_NAME

SEAL = "5 Maintenance > 5.3 Mechanical seal"
QUESTION = "How often should the CP-200 seal be replaced?"


def locate(data_dir: Path, document_id: str, section: str, first: int, last: int) -> None:
    """Give every chunk of ``document_id`` a section and pages, as a structured file's
    loader would have."""
    db = sqlite3.connect(data_dir / DATABASE_NAME)
    try:
        with db:
            changed = db.execute(
                "UPDATE chunks SET section = ?, first_page = ?, last_page = ? "
                "WHERE document_id = ?",
                (section, first, last, document_id),
            ).rowcount
        assert changed > 0
    finally:
        db.close()


@pytest.fixture(scope="module")
def located(tmp_path_factory, real_embedder):
    """An engine over the three sample documents, the pump manual's chunks on pp. 42-43
    of §5.3, and an undated note without structure (read only: shared by the module)."""
    note = Document(
        id="note-seal",
        knowledge_base="manuals",
        title="Shift note on the CP-200",
        text="The CP-200 seal kit is kept in cabinet 4 of the pump room.",
    )
    with Engine(
        Config(data_dir=tmp_path_factory.mktemp("located") / "data"),
        embedder=real_embedder,
        clock=lambda: TODAY,
    ) as engine:
        engine.ingest([*make_docs(), note])
        locate(engine.config.data_dir, "pump-cp200", SEAL, 42, 43)
        yield engine


@pytest.fixture(scope="module")
def answer(located):
    return located.ask(QUESTION)


def test_an_answers_citation_carries_its_chunks_section_and_pages(located, answer):
    assert answer.status == "ok", answer.text
    cited = {c.document_id: c for c in answer.citations}
    pump = cited["pump-cp200"]
    assert (pump.section, pump.pages, pump.updated_at) == (SEAL, (42, 43), date(2024, 5, 1))
    evidence = next(e for e in answer.evidence if e.document.id == "pump-cp200")
    assert (evidence.section, evidence.pages) == (SEAL, (42, 43))
    hits = located.search("where is the CP-200 seal kit kept", k=5)
    assert {(h.document_id, h.section, h.pages) for h in hits} >= {
        ("pump-cp200", SEAL, (42, 43)),
        ("note-seal", "", None),
    }


def test_the_command_line_prints_where_to_look_and_no_date_for_an_undated_document(
    located, answer, capsys
):
    print_answer(answer)
    printed = capsys.readouterr().out
    assert (
        "CP-200 centrifugal pump, §5.3 Mechanical seal, p. 42–43 "
        "(manuals/pump-cp200, updated 2024-05-01)"
    ) in printed

    print_hits(located.search("CP-200 seal kit cabinet", k=5))
    printed = capsys.readouterr().out
    assert "Shift note on the CP-200  (manuals/note-seal, document, authority 3)" in printed
    assert "CP-200 centrifugal pump, §5.3 Mechanical seal, p. 42–43  (manuals/" in printed
    assert "updated ?" not in printed and "updated None" not in printed


def citation(**fields) -> Citation:
    base = {
        "number": 1,
        "chunk_id": 7,
        "document_id": "manual-cp200",
        "title": "CP-200 service manual",
        "knowledge_base": "manuals",
        "updated_at": None,
        "text": "Replace the seal every 3000 hours.",
    }
    return Citation(**(base | fields))


@pytest.mark.parametrize(
    ("fields", "line"),
    [
        (
            {"section": SEAL, "pages": (42, 42)},
            "[1] CP-200 service manual, §5.3 Mechanical seal, p. 42 (manuals/manual-cp200)",
        ),
        (
            {"section": SEAL, "pages": (42, 43), "updated_at": date(2024, 5, 1)},
            "[1] CP-200 service manual, §5.3 Mechanical seal, p. 42–43 "
            "(manuals/manual-cp200, updated 2024-05-01)",
        ),
        (
            {"section": f"{SEAL} > Torque values", "pages": None},
            "[1] CP-200 service manual, §5.3 Mechanical seal > Torque values "
            "(manuals/manual-cp200)",
        ),
        (
            {"section": "Safety > Lockout", "pages": (3, 3)},
            "[1] CP-200 service manual, § Safety > Lockout, p. 3 (manuals/manual-cp200)",
        ),
        (
            {"pages": (9, 9), "title": ""},
            "[1] manual-cp200, p. 9 (manuals/manual-cp200)",
        ),
        ({}, "[1] CP-200 service manual (manuals/manual-cp200)"),
        (
            {"updated_at": date(2023, 1, 2)},
            "[1] CP-200 service manual (manuals/manual-cp200, updated 2023-01-02)",
        ),
    ],
)
def test_a_citation_line_with_and_without_date_section_and_pages(answer, capsys, fields, line):
    print_answer(replace(answer, citations=(citation(**fields),)))
    printed = capsys.readouterr().out.splitlines()
    assert f"  {line}" in printed, printed
