"""Reading documents from files, and the precise errors for bad files."""

from __future__ import annotations

import json
import os
from datetime import date
from pathlib import Path

import pytest

from ragcore.errors import InvalidDocumentError
from ragcore.ingest.loaders import load_file, load_files, load_path
from ragcore.types import SkipReason

MD = """---
id: manual-hp400-v2
title: "HP-400 press: service manual"
knowledge_base: manuals
doc_type: manual
source: Acme Hydraulics
authority: 4
updated_at: 2024-06-01
version: 2
supersedes: manual-hp400-v1
equipment: HP-400
---
# Service

The HP-400 press runs at 210 bar.
"""


def test_markdown_front_matter_fills_fields_and_metadata(tmp_path):
    path = tmp_path / "hp400.md"
    path.write_text(MD, "utf-8")
    [doc] = load_file(path)
    assert (doc.id, doc.title, doc.knowledge_base, doc.doc_type) == (
        "manual-hp400-v2",
        "HP-400 press: service manual",
        "manuals",
        "manual",
    )
    assert (doc.authority, doc.updated_at, doc.version, doc.supersedes) == (
        4,
        date(2024, 6, 1),
        2,
        "manual-hp400-v1",
    )
    assert doc.metadata == {"equipment": "HP-400"}
    assert doc.text.startswith("# Service") and "210 bar" in doc.text


def test_plain_text_takes_id_from_file_and_title_from_first_line(tmp_path):
    path = tmp_path / "note-1.txt"
    path.write_text("Compressor AC-75 notes\n\nDrain the tank daily.", "utf-8")
    [doc] = load_file(path, knowledge_base="faq")
    assert (doc.id, doc.title, doc.knowledge_base) == ("note-1", "Compressor AC-75 notes", "faq")


def test_html_text_title_and_meta(tmp_path):
    path = tmp_path / "page.html"
    path.write_text(
        "<html><head><title>Pump  guide</title><meta name='authority' content='2'>"
        "<style>p {color: red}</style></head><body><h1>Pump</h1><p>Flow is 120 L/min.</p>"
        "<script>alert('x')</script><p>Seal &amp; bearing.</p></body></html>",
        "utf-8",
    )
    [doc] = load_file(path)
    assert doc.title == "Pump guide" and doc.authority == 2
    assert doc.text == "Pump\n\nFlow is 120 L/min.\n\nSeal & bearing."


def test_jsonl_reads_beir_and_native_records(tmp_path):
    path = tmp_path / "corpus.jsonl"
    path.write_text(
        "\n".join(
            [
                json.dumps(
                    {
                        "_id": "4983",
                        "title": "Microstructural development",
                        "text": "Alterations",
                        "metadata": {},
                    }
                ),
                json.dumps(
                    {
                        "id": "n1",
                        "text": "Native",
                        "authority": 5,
                        "updated_at": "2020-02-02",
                        "region": "EU",
                    }
                ),
            ]
        ),
        "utf-8",
    )
    beir, native = load_file(path, knowledge_base="corpus")
    assert (beir.id, beir.title, beir.knowledge_base) == (
        "4983",
        "Microstructural development",
        "corpus",
    )
    assert (native.authority, native.updated_at, native.metadata) == (
        5,
        date(2020, 2, 2),
        {"region": "EU"},
    )


def test_text_in_windows_1252_is_read_as_it_is_meant(tmp_path):
    # An older manual's "±" and "é" in Latin-1 bytes: read, not skipped for conversion.
    latin = tmp_path / "ups.txt"
    latin.write_bytes(
        "Load must not fluctuate more than ± 5 % at 20 °C (température).".encode("cp1252")
    )
    [doc] = load_file(latin)
    assert "± 5 % at 20 °C (température)" in doc.text


def test_a_readme_in_a_subfolder_is_a_document_the_one_on_top_is_not(tmp_path):
    (tmp_path / "README.md").write_text("# About this folder", "utf-8")
    (tmp_path / "driver").mkdir()
    (tmp_path / "driver" / "README.md").write_text("# Driver\n\nSet the port to 50002.", "utf-8")
    loaded = load_files(tmp_path)
    assert [d.id for d in loaded.documents] == ["driver/readme"]
    assert [(Path(s.path).name, s.reason) for s in loaded.skipped] == [
        ("README.md", SkipReason.README)
    ]


def test_directory_skips_readme_and_unsupported(tmp_path):
    (tmp_path / "README.md").write_text("# not a document", "utf-8")
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.txt").write_text("Alpha text.", "utf-8")
    # The id comes from the path relative to the ingested folder (issue 26).
    assert [d.id for d in load_path(tmp_path)] == ["sub/a"]


def test_a_directory_walk_lists_every_skipped_file_with_the_reason(tmp_path):
    (tmp_path / "README.md").write_text("# not a document", "utf-8")
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    (tmp_path / "Makefile").write_text("all:", "utf-8")
    (tmp_path / "binary.txt").write_bytes(b"\x00\x01\x02 not text \x81")
    (tmp_path / "locked.md").write_text("Locked.", "utf-8")
    (tmp_path / "locked.md").chmod(0)
    (tmp_path / "a.txt").write_text("Alpha text.", "utf-8")
    try:
        loaded = load_files(tmp_path)
    finally:
        (tmp_path / "locked.md").chmod(0o644)
    assert [d.id for d in loaded.documents] == ["a"] + (["locked"] if _root() else [])
    reasons = {Path(s.path).name: s.reason for s in loaded.skipped}
    expected = {
        "Makefile": SkipReason.UNSUPPORTED_TYPE,
        "README.md": SkipReason.README,
        "image.png": SkipReason.UNSUPPORTED_TYPE,
        "binary.txt": SkipReason.NOT_UTF8,
    }
    if not _root():  # root reads any file
        expected["locked.md"] = SkipReason.UNREADABLE
    assert reasons == expected
    assert all(s.detail for s in loaded.skipped)
    # a file named on its own is still an error, not a skip
    with pytest.raises(InvalidDocumentError, match="not UTF-8"):
        load_files(tmp_path / "binary.txt")


def _root() -> bool:
    return os.geteuid() == 0


@pytest.mark.parametrize(
    ("front_matter", "field", "words"),
    [
        ("updated_at: 2024-13-45", "updated_at", "YYYY-MM-DD"),
        ("authority: 9", "authority", "1 to 5"),
        ("authority: high", "authority", "not an integer"),
        ("version: 0", "version", "1 or more"),
        ("id: has space", "id", "not a valid id"),
        ("knowledge_base: Bad KB", "knowledge_base", "lowercase"),
        ("id: same\nsupersedes: same", "supersedes", "itself"),
    ],
)
def test_bad_metadata_names_file_and_field(tmp_path, front_matter, field, words):
    path = tmp_path / "bad.md"
    path.write_text(f"---\n{front_matter}\n---\nSome text.", "utf-8")
    with pytest.raises(InvalidDocumentError) as caught:
        load_file(path)
    assert caught.value.field == field
    assert str(path) in str(caught.value) and words in str(caught.value)


def test_empty_text_is_rejected(tmp_path):
    path = tmp_path / "empty.md"
    path.write_text("---\ntitle: Empty\n---\n   \n", "utf-8")
    with pytest.raises(InvalidDocumentError, match="no text") as caught:
        load_file(path)
    assert caught.value.field == "text"


def test_unclosed_front_matter_and_bad_line(tmp_path):
    path = tmp_path / "open.md"
    path.write_text("---\ntitle: x\nbody", "utf-8")
    with pytest.raises(InvalidDocumentError, match="not 'key: value'"):
        load_file(path)
    path.write_text("---\ntitle: x\n", "utf-8")
    with pytest.raises(InvalidDocumentError, match="never closed"):
        load_file(path)


def test_unreadable_non_utf8_and_unsupported_files(tmp_path):
    with pytest.raises(InvalidDocumentError, match="cannot be read"):
        load_file(tmp_path / "missing.txt")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\x00\x01\x02 not text \x81")
    with pytest.raises(InvalidDocumentError, match="not UTF-8"):
        load_file(binary)
    with pytest.raises(InvalidDocumentError, match="unsupported file type"):
        load_file(tmp_path / "x.xlsx")  # .pdf is read since issue 26


def test_bad_jsonl_line_is_named(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text('{"_id": "1", "text": "ok"}\n{not json}\n', "utf-8")
    with pytest.raises(InvalidDocumentError, match=r"c\.jsonl:2"):
        load_file(path)
    path.write_text('{"text": "no id"}\n', "utf-8")
    with pytest.raises(InvalidDocumentError, match="is missing") as caught:
        load_file(path)
    assert caught.value.field == "id"


def test_oversized_document_is_rejected(tmp_path):
    from ragcore import Document

    with pytest.raises(InvalidDocumentError, match="over the limit") as caught:
        Document(id="big", text="x" * 101).validated(max_chars=100)
    assert caught.value.field == "text"


def test_jsonl_metadata_that_is_not_an_object_names_line_and_field(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "a", "text": "Some text.", "metadata": ["x", "y"]}\n', "utf-8")
    with pytest.raises(InvalidDocumentError, match="must be a JSON object") as caught:
        load_file(path)
    assert caught.value.field == "metadata" and str(path) in str(caught.value)
