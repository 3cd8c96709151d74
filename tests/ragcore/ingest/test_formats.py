"""``load_bytes``: a file's bytes give the same documents as the file read from disk, and
every problem is an InvalidDocumentError naming the file."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from ragcore.errors import InvalidDocumentError
from ragcore.ingest.formats import load_bytes
from ragcore.ingest.loaders import load_file

MD = """---
id: manual-hp400-v2
title: "HP-400 press: service manual"
authority: 4
updated_at: 2024-06-01
equipment: HP-400
---
# Service

The HP-400 press runs at 210 bar.
"""
HTML = (
    "<html><head><title>AC-75 FAQ</title><meta name='doc_type' content='faq'></head>"
    "<body><h1>Draining</h1><p>Drain the AC-75 tank daily.</p><script>x()</script></body></html>"
)


@pytest.mark.parametrize(
    ("name", "content"),
    [("hp400.md", MD), ("ac75.html", HTML), ("gx500.txt", "GX-500\n\nChange the oil.")],
)
def test_a_files_bytes_read_as_the_file_on_disk(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content, "utf-8")
    sent, read = load_bytes(content.encode(), name), load_file(path)
    assert [replace(d, origin="") for d in sent] == [replace(d, origin="") for d in read] != []
    assert [d.origin for d in sent] == [name]  # errors name the file as sent


def test_front_matter_fills_the_fields_and_the_knowledge_base_applies_when_unnamed():
    [doc] = load_bytes(MD.encode(), "uploads/hp400.md", knowledge_base="manuals")
    assert (doc.id, doc.title, doc.knowledge_base, doc.authority) == (
        "manual-hp400-v2",
        "HP-400 press: service manual",
        "manuals",
        4,
    )
    assert doc.updated_at == date(2024, 6, 1) and doc.metadata == {"equipment": "HP-400"}
    [plain] = load_bytes("Torque the bolts to 52 N·m.".encode(), "torque.txt")
    assert (plain.id, plain.knowledge_base, plain.text) == (
        "torque",
        "default",
        "Torque the bolts to 52 N·m.",
    )


def test_the_media_type_wins_over_the_extension():
    [doc] = load_bytes(HTML.encode(), "upload.bin", media_type="text/html; charset=utf-8")
    assert doc.title == "AC-75 FAQ" and "Drain the AC-75 tank daily." in doc.text
    assert "x()" not in doc.text


@pytest.mark.parametrize(
    ("data", "name", "media_type", "problem"),
    [
        (b"\xff\xfe\x00bad", "manual.md", None, "is not UTF-8 text"),
        (b"---\nid: x\nno colon here\n---\nText", "manual.md", None, "not valid YAML"),
        (b"---\nid: x\ntitle: y\n", "manual.md", None, "never closed"),
        (b"---\nid: x\nauthority: 9\n---\nText", "manual.md", None, "out of range"),
        (b"%PDF-1.7", "manual.xyz", None, "unsupported file type .xyz"),
        (b"text", "manual.md", "image/png", "is not a type ragcore reads"),
        (b"   ", "empty.txt", None, "no text"),
    ],
)
def test_a_malformed_file_is_an_error_naming_it(data, name, media_type, problem):
    with pytest.raises(InvalidDocumentError, match=problem) as caught:
        load_bytes(data, name, media_type)
    assert name in str(caught.value)


def test_a_file_without_a_name_is_refused():
    with pytest.raises(InvalidDocumentError, match="file_name"):
        load_bytes(b"text", "")


def test_front_matter_with_an_unquoted_colon_in_a_value_reads_as_key_value_lines():
    """Not YAML ("mapping values are not allowed here"), but the plain lines ragcore has
    always read: files that ingested before still do."""
    text = "---\nid: faq-uv\ntitle: Disinfection FAQ: UV Reactors\nauthority: 3\n---\nBody.\n"
    [doc] = load_bytes(text.encode(), "faq-uv.md")
    assert (doc.id, doc.title, doc.authority) == ("faq-uv", "Disinfection FAQ: UV Reactors", 3)


def test_markdown_keeps_a_label_on_the_line_above_its_list():
    """ "BC-30:" written right above its list stays right above it: the figures below a
    label belong to it (the validator binds them so), and documents read as before."""
    text = "# Data\n\nBC-20:\n- Cooling time: 3.0 h.\n\nBC-30:\n- Cooling time: 2.5 h.\n"
    [doc] = load_bytes(text.encode(), "coolers.md")
    assert "BC-30:\n- Cooling time: 2.5 h." in doc.text
    assert "3.0 h.\n\nBC-30:" in doc.text
