"""OpenDocument text (``.odt``): odfpy (Apache-2.0 / GPL-2.0+ / LGPL-2.1+, pure Python,
1.3 MB, no dependencies; the reference library of the OASIS format), walking
``office:text`` in order; ~1,400 pages/s (``benchmarks/ingest_formats.py``).

``text:h`` headings (their ``outline-level``) give the section spans; paragraphs and
list items (``- item``) become blocks; a table becomes one ``Column: value; …`` block
per row, the header rows (or else the first row) naming the columns; a frame's image
becomes its ``svg:title``/``svg:desc`` (alt text) or nothing; notes are left out.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Sequence
from xml.parsers.expat import ExpatError
from xml.sax import SAXException

from odf.namespaces import DRAWNS, OFFICENS, SVGNS, TABLENS, TEXTNS
from odf.opendocument import load

from ragcore.errors import InvalidDocumentError
from ragcore.ingest.formats.base import Extracted
from ragcore.ingest.formats.structure import TextBuilder, clean_inline

_TEXT_NODE = 3
_CONTAINERS = frozenset(
    {(TEXTNS, "list-item"), (TEXTNS, "section"), (TEXTNS, "list-header"), (OFFICENS, "text")}
)


class OdtLoader:
    def load(self, data: bytes, origin: str) -> Sequence[Extracted]:
        try:
            document = load(io.BytesIO(data))
        except (zipfile.BadZipFile, KeyError) as exc:
            raise InvalidDocumentError(
                origin, None, "is not an OpenDocument text file (.odt); save it again as .odt"
            ) from exc
        except (zlib.error, EOFError) as exc:
            raise InvalidDocumentError(
                origin, None, "is a damaged .odt (its compressed data is corrupt): save it again"
            ) from exc
        except (ExpatError, SAXException, ValueError) as exc:
            raise InvalidDocumentError(
                origin, None, f"is a damaged .odt ({exc}); open and save it again"
            ) from exc
        if document.mimetype != "application/vnd.oasis.opendocument.text":
            raise InvalidDocumentError(
                origin, None, f"is an OpenDocument file of type {document.mimetype!r}, not text"
            )
        builder = TextBuilder()
        _walk(builder, document.text, list_depth=0)
        structured = builder.build()
        fields: dict[str, object] = {}
        title = _meta(document, "title")
        if title:
            fields["title"] = title
        return [Extracted(structured.text, fields, structured.sections, (), origin)]


def _meta(document, name: str) -> str:
    for node in document.meta.childNodes:
        if getattr(node, "qname", (None, None))[1] == name:
            return clean_inline(_text(node, []))
    return ""


def _walk(builder: TextBuilder, element, list_depth: int) -> None:
    for node in element.childNodes:
        if node.nodeType == _TEXT_NODE:
            continue
        namespace, name = node.qname
        if namespace == TEXTNS and name == "h":
            level = int(node.getAttrNS(TEXTNS, "outline-level") or 1)
            alts: list[str] = []
            builder.heading(level, _text(node, alts))
            for alt in alts:
                builder.block(alt)
        elif namespace == TEXTNS and name == "p":
            alts = []
            text = _text(node, alts)
            if list_depth and text.strip():
                builder.block("  " * (list_depth - 1) + "- " + clean_inline(text))
            else:
                builder.block(text)
            for alt in alts:
                builder.block(alt)
        elif namespace == TEXTNS and name == "list":
            _walk(builder, node, list_depth + 1)
        elif namespace == TABLENS and name == "table":
            _table(builder, node)
        elif (namespace, name) in _CONTAINERS:
            _walk(builder, node, list_depth)
        elif namespace == DRAWNS and name == "frame":
            alt = _alt(node)
            if alt:
                builder.block(alt)


def _text(element, alts: list[str]) -> str:
    """The text of a paragraph; the alt texts of its images go to ``alts``."""
    out: list[str] = []
    for node in element.childNodes:
        if node.nodeType == _TEXT_NODE:
            out.append(node.data)
            continue
        namespace, name = node.qname
        if namespace == TEXTNS and name == "s":
            out.append(" " * int(node.getAttrNS(TEXTNS, "c") or 1))
        elif namespace == TEXTNS and name == "tab":
            out.append("\t")
        elif namespace == TEXTNS and name == "line-break":
            out.append("\n")
        elif namespace == TEXTNS and name in ("note", "bookmark", "soft-page-break"):
            continue
        elif namespace == DRAWNS and name == "frame":
            alt = _alt(node)
            if alt:
                alts.append(alt)
        elif namespace == TEXTNS and name in ("p", "h"):  # paragraphs of a table cell
            out.append(_text(node, alts) + " ")
        else:
            out.append(_text(node, alts))
    return "".join(out)


def _alt(frame) -> str:
    for node in frame.childNodes:
        if node.nodeType != _TEXT_NODE and node.qname[0] == SVGNS:
            text = clean_inline(_text(node, []))
            if text:
                return text
    return ""


def _table(builder: TextBuilder, table) -> None:
    header: list[str] = []
    rows: list[list[str]] = []

    def read_rows(element, into_header: bool) -> None:
        nonlocal header
        for node in element.childNodes:
            if node.nodeType == _TEXT_NODE or node.qname[0] != TABLENS:
                continue
            if node.qname[1] == "table-header-rows":
                read_rows(node, True)
            elif node.qname[1] in ("table-rows", "table-row-group"):
                read_rows(node, False)
            elif node.qname[1] == "table-row":
                cells = []
                for cell in node.childNodes:
                    if cell.nodeType != _TEXT_NODE and cell.qname == (TABLENS, "table-cell"):
                        repeat = int(cell.getAttrNS(TABLENS, "number-columns-repeated") or 1)
                        cells += [clean_inline(_text(cell, []))] * min(repeat, 64)
                while cells and not cells[-1]:
                    cells.pop()
                if into_header and not header:
                    header = cells
                else:
                    rows.append(cells)

    read_rows(table, False)
    if not header and len(rows) > 1:
        header, rows = rows[0], rows[1:]
    builder.table(header, rows)
