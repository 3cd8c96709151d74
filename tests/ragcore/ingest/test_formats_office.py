"""Word and OpenDocument files, written here with python-docx and odfpy: headings as
sections, lists, tables as rows that name their columns, images as their alt text, and
an error naming the file for anything that is not such a file."""

from __future__ import annotations

import io
import zipfile

import pytest
from made_files import manual_docx, manual_odt

from ragcore.errors import InvalidDocumentError
from ragcore.ingest.formats import load_bytes


def _zip(**members: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return out.getvalue()


def test_a_docx_keeps_headings_lists_tables_and_alt_text():
    [doc] = load_bytes(manual_docx(), "HP-400 Manual.docx", knowledge_base="manuals")
    assert (doc.id, doc.title, doc.knowledge_base) == (
        "hp-400-manual",
        "HP-400 press service manual",
        "manuals",
    )
    blocks = doc.text.split("\n\n")
    assert blocks == [
        "5 Maintenance",
        "Stop the press and release the pressure before any work.",
        "5.3 Mechanical seal",
        "- Check the seal for leaks.",
        "- Replace it every 4000 hours.",
        "Exploded view of the seal cartridge",
        "Part: Seal; Interval: 4000 h; Torque: 12 Nm",
        "Part: Valve; Interval: 2000 h; Torque: 9 Nm",
        "6 Hydraulics",
        "The oil runs at 210 bar.",
    ]
    sections = {s.path: doc.text[s.start : s.end] for s in doc.sections}
    assert "Torque: 12 Nm" in sections[("5 Maintenance", "5.3 Mechanical seal")]
    assert "210 bar" in sections[("6 Hydraulics",)]
    assert doc.pages == ()  # Word files have no fixed pages


def test_an_odt_keeps_headings_lists_tables_and_alt_text():
    [doc] = load_bytes(manual_odt(), "pump install.odt")
    assert doc.id == "pump-install"
    assert doc.text.split("\n\n") == [
        "2 Installation",
        "Mount the pump on a level base.",
        "2.1 Piping",
        "- Support the pipes separately.",
        "- Flush the pipes before start-up.",
        "Pipe: Suction; Diameter: DN 80",
        "Pipe: Discharge; Diameter: DN 65",
        "Piping diagram with valves",
    ]
    assert [s.path for s in doc.sections] == [
        ("2 Installation",),
        ("2 Installation", "2.1 Piping"),
    ]


def test_a_zip_that_is_not_a_docx_is_an_error_naming_the_file():
    with pytest.raises(InvalidDocumentError, match=r"^notes\.docx: .*not a Word \.docx") as caught:
        load_bytes(_zip(**{"notes.txt": "hello"}), "notes.docx")
    assert caught.value.source == "notes.docx"


@pytest.mark.parametrize(
    ("data", "name", "words"),
    [
        (b"", "empty.docx", "not a Word .docx"),
        (b"PK\x03\x04 broken", "broken.docx", "not a Word .docx"),
        (b"plain text", "plain.odt", "not an OpenDocument text"),
        (_zip(mimetype="application/vnd.oasis.opendocument.text"), "hollow.odt", "hollow.odt"),
    ],
)
def test_malformed_office_files_raise_only_invalid_document_errors(data, name, words):
    with pytest.raises(InvalidDocumentError, match=words) as caught:
        load_bytes(data, name)
    assert caught.value.source == name


@pytest.mark.parametrize("name", ["manual.pdf", "manual.docx", "manual.odt"])
def test_damaged_files_raise_only_invalid_document_errors_naming_the_file(name):
    from made_files import manual_pdf

    data = {"manual.pdf": manual_pdf, "manual.docx": manual_docx, "manual.odt": manual_odt}[name]()
    outcomes = {"read": 0, "refused": 0}
    for cut in range(1, 40):
        size = len(data) * cut // 40
        damaged = [data[:size], data[:size] + bytes(range(256)) + data[size + 256 :]]
        for variant in damaged:
            try:
                documents = load_bytes(variant, name)
            except InvalidDocumentError as error:
                assert error.source == name
                outcomes["refused"] += 1
            else:
                assert all(d.text.strip() for d in documents)
                outcomes["read"] += 1
    assert outcomes["refused"] >= 39  # every truncated copy at least
