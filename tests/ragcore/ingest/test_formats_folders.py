"""Ingesting a folder of real files in one run: ids from the relative path (odd names
included), collisions refused naming both files, every invalid file reported at once or
skipped on request, and progress reported once per state."""

from __future__ import annotations

import io

import pytest
from made_files import manual_docx, manual_pdf

from ragcore import Config, Document, Engine
from ragcore.cli.commands import _ProgressLine
from ragcore.errors import InvalidDocumentError, InvalidDocumentsError
from ragcore.inference.embedder import HashEmbedder
from ragcore.ingest.formats import id_from_path
from ragcore.ingest.loaders import load_files
from ragcore.ingest.pipeline import IngestProgress
from ragcore.types import SkipReason


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("Pump & Seal Manual.pdf", "pump-seal-manual"),
        ("Hydraulik/Prüfanleitung Öl – Ausgabe 2.docx", "hydraulik/prufanleitung-ol-ausgabe-2"),
        ("Guides/Été 2024/Entretien Général.odt", "guides/ete-2024/entretien-general"),
        ("v1.2 notes.md", "v1.2-notes"),
        ("  spaced  .txt", "spaced"),
        ("中文.md", "document"),
    ],
)
def test_ids_from_paths_are_valid_ascii_and_stable(path, expected):
    assert id_from_path(path) == expected == id_from_path(path)
    Document(id=expected, text="x").validated()


def test_a_folder_of_odd_names_and_formats_loads_in_one_run(tmp_path):
    (tmp_path / "Pumps & Seals").mkdir()
    (tmp_path / "Pumps & Seals" / "CP-200 Manual (Rev 3).pdf").write_bytes(manual_pdf())
    (tmp_path / "Pumps & Seals" / "Presse HP-400 Wartung é.docx").write_bytes(manual_docx())
    (tmp_path / "notes & tips.md").write_text("# Tips\n\nKeep the seal clean.", "utf-8")
    (tmp_path / "README.md").write_text("# About", "utf-8")
    loaded = load_files(tmp_path, "manuals")
    assert sorted(d.id for d in loaded.documents) == [
        "notes-tips",
        "pumps-seals/cp-200-manual-rev-3",
        "pumps-seals/presse-hp-400-wartung-e",
    ]
    assert [s.reason for s in loaded.skipped] == [SkipReason.README]
    assert loaded.pages == 4
    [note] = loaded.notes
    assert (
        note.path.endswith("CP-200 Manual (Rev 3).pdf")
        and "page 5 has no text layer" in note.detail
    )


def test_two_files_with_one_id_are_refused_naming_both(tmp_path):
    (tmp_path / "Seal Guide.md").write_text("Seal text.", "utf-8")
    (tmp_path / "seal-guide.txt").write_text("Other seal text.", "utf-8")
    with pytest.raises(InvalidDocumentError, match="'seal-guide' is also the id of") as caught:
        load_files(tmp_path)
    message = str(caught.value)
    assert "Seal Guide.md" in message and "seal-guide.txt" in message


def test_every_invalid_file_is_reported_at_once_and_can_be_skipped(tmp_path):
    data = manual_pdf()
    (tmp_path / "good.md").write_text("---\ntitle: Good\n---\nFine text.", "utf-8")
    (tmp_path / "bad date.md").write_text("---\nupdated_at: 2024-13-45\n---\nText.", "utf-8")
    (tmp_path / "cut.pdf").write_bytes(data[: len(data) // 3])
    (tmp_path / "fake.docx").write_bytes(b"not a zip")
    with pytest.raises(InvalidDocumentsError) as caught:
        load_files(tmp_path)
    error = caught.value
    assert sorted(p.source.rsplit("/", 1)[-1] for p in error.problems) == [
        "bad date.md",
        "cut.pdf",
        "fake.docx",
    ]
    message = str(error)
    assert "3 files" in message and "YYYY-MM-DD" in message and "--skip-invalid" in message
    assert "not a readable PDF" in message and "not a Word .docx" in message

    loaded = load_files(tmp_path, skip_invalid=True)
    assert [d.id for d in loaded.documents] == ["good"]
    skipped = {s.path.rsplit("/", 1)[-1]: s for s in loaded.skipped}
    assert set(skipped) == {"bad date.md", "cut.pdf", "fake.docx"}
    assert all(s.reason == SkipReason.INVALID for s in skipped.values())
    assert "updated_at" in skipped["bad date.md"].detail


def test_ingest_progress_reports_the_final_state_once(tmp_path):
    docs = [Document(id=f"d{n}", text="The seal is checked daily. " * (20 + n)) for n in range(6)]
    seen: list[IngestProgress] = []
    with Engine(Config(data_dir=tmp_path / "data"), embedder=HashEmbedder()) as engine:
        engine.ingest(docs, seen.append)
        again: list[IngestProgress] = []
        engine.ingest(docs, again.append)  # everything unchanged: one report, at the end
    finals = [p for p in seen if p.documents_done == p.documents_total]
    assert len(finals) == 1 and finals[0].chars_done == finals[0].chars_total
    assert [p.documents_done for p in seen] == sorted(p.documents_done for p in seen)
    assert len(again) == 1 and again[0].documents_done == 6 and again[0].chunks_done == 0


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_line_is_rewritten_in_place_and_ended_once():
    terminal = _Terminal()
    line = _ProgressLine(terminal)
    line(IngestProgress(1, 4, 10, 1.0, 2, 8, 100, 400))
    line(IngestProgress(4, 4, 40, 4.0, 8, 8, 400, 400))
    out = terminal.getvalue()
    assert out.count("\n") == 1 and out.endswith("\n") and out.startswith("\r")
    assert "ingest: 25%, 1/4 documents, 2/8 pages, 10 chunks, 10 chunks/s, 3 s left" in out
    assert "4/4 documents, 8/8 pages, 40 chunks, 10 chunks/s in 4 s" in out

    piped = io.StringIO()
    plain = _ProgressLine(piped)
    plain(IngestProgress(4, 4, 40, 4.0))
    assert piped.getvalue() == "ingest: 4/4 documents, 40 chunks, 10 chunks/s in 4 s\n"


@pytest.mark.process
def test_every_format_has_a_reader_and_import_ragcore_loads_none_of_their_libraries():
    import subprocess
    import sys

    from ragcore.ingest.formats import FORMATS, SUPPORTED_SUFFIXES

    assert SUPPORTED_SUFFIXES == (
        ".txt", ".md", ".markdown", ".html", ".htm", ".xhtml", ".jsonl", ".pdf", ".docx", ".odt",
        ".rst", ".rest", ".adoc", ".asciidoc", ".asc",
    )  # fmt: skip
    assert all(callable(f.loader().load) for f in FORMATS)
    code = (
        "import sys, ragcore; print(sorted(m for m in ('pypdfium2', 'docx', 'odf', 'lxml', "
        "'markdown_it', 'yaml') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
