"""Markdown and HTML: real YAML front matter, markup that never reaches answers (links,
images, HTML tags, tables from converted Word files), headings as sections — and plain
documents that read exactly as before."""

from __future__ import annotations

import json
from datetime import date

import pytest

from ragcore.errors import InvalidDocumentError
from ragcore.ingest.formats import load_bytes

FRONT_MATTER = """---
id: printer-mk4-filament
title: "Filament change: MK4"
updated_at: 2025-03-02
authority: 4
equipment:
  - MK4
  - MK4S
error_codes: [M600, M701]
summary: |
  How to change filament
  mid-print.
vendor:
  name: Prusa
  site: help
---
"""

BODY = """# Filament change

Send [`M600`](/docs/gcode/M600.html) to pause. ![The filament sensor](img/sensor.png)
See <a href="/x">the **loading** guide</a> for *details*.<br>Then resume.

<img src="img/nozzle.png" alt="Nozzle close-up">

## Temperatures

| Material | Nozzle | Bed |
|----------|--------|-----|
| PLA      | 215 °C | 60 °C |
| PETG     | 240 °C | 85 °C |

- Heat the nozzle.
- Pull the filament out.
  1. Slowly.
"""


def test_yaml_front_matter_with_lists_blocks_and_nested_keys():
    [doc] = load_bytes((FRONT_MATTER + BODY).encode(), "any.md")
    assert (doc.id, doc.title, doc.authority, doc.updated_at) == (
        "printer-mk4-filament",
        "Filament change: MK4",
        4,
        date(2025, 3, 2),
    )
    assert json.loads(doc.metadata["equipment"]) == ["MK4", "MK4S"]
    assert json.loads(doc.metadata["error_codes"]) == ["M600", "M701"]
    assert doc.metadata["summary"] == "How to change filament\nmid-print.\n"
    assert json.loads(doc.metadata["vendor"]) == {"name": "Prusa", "site": "help"}


def test_links_images_and_html_become_their_text():
    [doc] = load_bytes((FRONT_MATTER + BODY).encode(), "any.md")
    text = doc.text
    assert "Send M600 to pause. The filament sensor" in text
    assert "See the loading guide for details.\nThen resume." in text
    assert "Nozzle close-up" in text
    for markup in ("](", "<a", "<img", "<br", "**", "`", "/docs/gcode"):
        assert markup not in text


def test_a_markdown_table_is_rows_that_name_their_columns():
    [doc] = load_bytes(BODY.encode(), "t.md")
    assert "Material: PLA; Nozzle: 215 °C; Bed: 60 °C" in doc.text.split("\n\n")
    assert "Material: PETG; Nozzle: 240 °C; Bed: 85 °C" in doc.text.split("\n\n")
    assert "- Heat the nozzle.\n- Pull the filament out.\n  1. Slowly." in doc.text
    temperatures = next(s for s in doc.sections if s.path[-1] == "Temperatures")
    assert temperatures.path == ("Filament change", "Temperatures")
    assert "PETG" in doc.text[temperatures.start : temperatures.end]


def test_plain_markdown_reads_exactly_as_written():
    body = (
        "# Service\n\nThe HP-400 press runs at 210 bar.\nCheck it daily.\n\n## Oil\n\nUse HLP 46."
    )
    [doc] = load_bytes(f"---\nid: hp\n---\n{body}\n".encode(), "hp.md")
    assert doc.text == body
    assert [(s.path, doc.text[s.start : s.end].strip()) for s in doc.sections] == [
        (("Service",), "# Service\n\nThe HP-400 press runs at 210 bar.\nCheck it daily."),
        (("Service", "Oil"), "## Oil\n\nUse HLP 46."),
    ]


def test_front_matter_that_is_not_yaml_names_the_file_and_line():
    bad = "---\ntitle: ok\nequipment: [MK4\n---\nText.\n"
    with pytest.raises(InvalidDocumentError, match=r"^bad\.md:\d+: front matter is not valid YAML"):
        load_bytes(bad.encode(), "bad.md")
    with pytest.raises(InvalidDocumentError, match="not a list"):
        load_bytes(b"---\n- a\n- b\n---\nText.\n", "list.md")


HTML = """<html><head><title>CP-350 pump</title><meta name="doc_type" content="manual"></head>
<body><nav><a href="/">Home</a> | <a href="/docs">Docs</a></nav>
<h1>CP-350 pump</h1><p>Read <a href="/safety.html">the safety notes</a> first.</p>
<h2>Maintenance</h2><img src="x.png" alt="Seal position"><img src="spacer.gif">
<table><tr><td>Part</td><td>Interval</td></tr><tr><td>Seal</td><td>4000 h</td></tr>
<tr><td>Bearing</td><td>8000 h</td></tr></table>
<ul><li>Drain the casing.</li><li>Check the seal.</li></ul>
<h2>Spare parts</h2><table><thead><tr><th>No.</th><th>Part</th></tr></thead>
<tbody><tr><td>12</td><td>Seal kit</td></tr></tbody></table></body></html>"""


def test_html_keeps_sections_tables_lists_and_alt_text_and_drops_navigation():
    [doc] = load_bytes(HTML.encode(), "cp350.html")
    assert (doc.title, doc.doc_type) == ("CP-350 pump", "manual")
    assert doc.text.split("\n\n") == [
        "CP-350 pump",
        "Read the safety notes first.",
        "Maintenance",
        "Seal position",
        "Part: Seal; Interval: 4000 h",
        "Part: Bearing; Interval: 8000 h",
        "- Drain the casing.",
        "- Check the seal.",
        "Spare parts",
        "No.: 12; Part: Seal kit",
    ]
    assert [s.path for s in doc.sections] == [
        ("CP-350 pump",),
        ("CP-350 pump", "Maintenance"),
        ("CP-350 pump", "Spare parts"),
    ]


def test_a_media_type_picks_the_format_whatever_the_name():
    [doc] = load_bytes(b"<p>Hello <b>there</b>.</p>", "upload.bin", media_type="text/html")
    assert (doc.id, doc.text) == ("upload", "Hello there.")
    with pytest.raises(InvalidDocumentError, match=r"upload\.bin: unsupported file type \.bin"):
        load_bytes(b"x", "upload.bin")


def test_doc_site_navigation_marked_by_class_or_role_is_left_out():
    page = (
        '<div class="navheader"><table><tr><td><a href="p.html">Prev</a></td>'
        '<td><a href="n.html">Next</a></td></tr></table></div>'
        '<div class="sphinxsidebar"><div><a href="/">Contents</a></div></div>'
        '<ul role="navigation"><li>Home</li></ul>'
        "<h1>2.1 Basics</h1><div class='section'>"
        "<p>Run <code>apt-get update</code> first.</p></div>"
    )
    [doc] = load_bytes(page.encode(), "ch02.html")
    assert doc.text == "2.1 Basics\n\nRun apt-get update first."
