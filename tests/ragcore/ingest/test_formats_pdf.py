"""PDFs read as a person reads them: columns in order, running headers and footers and
page numbers gone, words hyphenated at line ends joined, a table over a page break
kept as a table, headings as sections, pages as spans — and precise errors for
truncated files and scans."""

from __future__ import annotations

import re
import shutil

import pytest
from made_files import manual_pdf, scanned_pdf, scanned_text_pdf

from ragcore.errors import InvalidDocumentError
from ragcore.ingest.chunking import chunk_text
from ragcore.ingest.formats import load_bytes, load_file_bytes
from ragcore.ingest.formats.pdf import PdfLoader


def _without_ocr():
    """The PDF loader as on a machine without tesseract (the tests must not need it)."""
    return PdfLoader(use_ocr=False)


@pytest.fixture(scope="module")
def manual():
    [extracted] = _without_ocr().load(manual_pdf(), "CP-200 manual.pdf")
    return extracted


def test_two_columns_written_line_by_line_are_read_column_by_column(manual):
    text = manual.text
    left = text.index("The pump must be stopped before the seal is inspected.")
    left_end = text.index("Record the date in the log book.")
    right = text.index("The bearing housing holds 0.4 litres of ISO VG 68 oil.")
    assert left < left_end < right
    # No sentence of one column runs into the other.
    assert "before The bearing" not in text and "suc- of ISO" not in text


def test_words_hyphenated_at_line_ends_are_joined(manual):
    assert "Close the suction valve" in manual.text
    assert "raises the bearing temperature; keep" in manual.text
    assert "suc-" not in manual.text and "tem-" not in manual.text


def test_running_headers_footers_and_page_numbers_are_removed(manual):
    assert "ACME CP-200 Service Manual" not in manual.text
    assert not re.search(r"Page \d of \d", manual.text)


def test_headings_become_the_section_path(manual):
    paths = [s.path for s in manual.sections]
    assert paths == [
        ("5 Maintenance",),
        ("5 Maintenance", "5.3 Mechanical seal"),
        ("5 Maintenance", "5.4 Service intervals"),
        ("6 Lubrication",),
    ]
    seal = manual.sections[1]
    assert "Replace the seal every 4000 hours" in manual.text[seal.start : seal.end]


def test_a_table_over_a_page_break_keeps_its_columns_and_pages(manual):
    rows = [line for line in manual.text.split("\n\n") if line.startswith("Part: ")]
    assert rows == [
        "Part: Seal; Interval: 4000 h; Torque: 12 Nm",
        "Part: Bearing; Interval: 8000 h; Torque: 30 Nm",
        "Part: Impeller; Interval: 16000 h; Torque: 45 Nm",
        "Part: Coupling; Interval: 2000 h; Torque: 25 Nm",
        "Part: Gasket; Interval: 4000 h; Torque: 8 Nm",
        "Part: Shaft sleeve; Interval: 8000 h; Torque: 18 Nm",
    ]  # the header repeated on page 3 is not a row
    page_of = {p.page: manual.text[p.start : p.end] for p in manual.pages}
    assert "Part: Impeller" in page_of[2] and "Part: Coupling" in page_of[3]
    assert "Tighten the bolts crosswise" in page_of[3]
    assert sorted(page_of) == [1, 2, 3, 4]  # page 5 is a scan, left out


def test_a_page_without_a_text_layer_is_named_when_there_is_no_ocr(manual):
    assert manual.fields["pages_without_text"] == "5"
    [note] = manual.notes
    assert "page 5 has no text layer" in note and "tesseract-ocr" in note


def test_chunks_carry_their_section_and_pages(manual):
    spans = [(m.start(), m.end()) for m in re.finditer(r"\w+|[^\w\s]", manual.text)]
    chunks = chunk_text(
        manual.text,
        spans,
        max_tokens=40,
        sections=manual.sections,
        pages=manual.pages,
    )
    coupling = next(c for c in chunks if "Part: Coupling" in c.text)
    assert coupling.section == "5 Maintenance > 5.4 Service intervals"
    assert coupling.pages is not None and coupling.pages[1] == 3
    grease = next(c for c in chunks if "lithium grease" in c.text)
    assert (grease.section, grease.pages) == ("6 Lubrication", (4, 4))
    first = chunks[0]
    assert first.pages == (1, 1) and first.section.startswith("5 Maintenance")


def test_a_truncated_pdf_is_an_error_naming_the_file():
    data = manual_pdf()
    with pytest.raises(InvalidDocumentError, match=r"pump manual\.pdf: .*not a readable PDF"):
        load_bytes(data[: len(data) // 2], "pump manual.pdf")


def test_a_pdf_of_scans_only_says_so_and_what_to_do():
    with pytest.raises(InvalidDocumentError, match="no text layer on any of its 2 pages") as caught:
        _without_ocr().load(scanned_pdf(), "scan.pdf")
    assert caught.value.source == "scan.pdf" and "tesseract-ocr" in str(caught.value)


def test_load_bytes_gives_a_document_with_id_title_pages_and_metadata():
    loaded = load_file_bytes(manual_pdf(scanned_page=False), "Service/CP-200 Manual (Rev 3).pdf")
    [doc] = loaded.documents
    assert doc.id == "service/cp-200-manual-rev-3"
    assert doc.title == "5 Maintenance"
    assert [p.page for p in doc.pages] == [1, 2, 3, 4] and not loaded.notes
    assert "pages_without_text" not in doc.metadata


@pytest.mark.process
@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr is not installed")
def test_a_scanned_page_is_read_by_tesseract_when_it_is_installed():
    data = scanned_text_pdf(["Replace the pump seal every 4000 hours.", "Check the oil weekly."])
    [extracted] = PdfLoader().load(data, "scan.pdf")
    assert "Replace the pump seal every 4000 hours." in extracted.text
    assert "Check the oil weekly." in extracted.text
    assert [p.page for p in extracted.pages] == [1]
    assert extracted.notes == ("page 1 has no text layer and was read by OCR (tesseract)",)
    assert "pages_without_text" not in extracted.fields


def test_words_set_apart_without_a_space_character_are_two_words():
    from fpdf import FPDF

    pdf = FPDF(format="A4", unit="pt")
    pdf.add_page()
    pdf.set_font("Times", size=10)
    x = 72.0
    for word in ("history", "is", "not", "saved", "when", "a", "shell", "exits."):
        pdf.text(x, 100, word)  # no space characters: only the gaps (0.3 em) part words
        x += pdf.get_string_width(word) + 3.0
    pdf.text(72, 120, "Ordinary kerning keeps one word whole.")
    [extracted] = _without_ocr().load(bytes(pdf.output()), "tight.pdf")
    assert extracted.text == (
        "history is not saved when a shell exits.\n\nOrdinary kerning keeps one word whole."
    )
