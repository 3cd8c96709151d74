"""Word (``.docx``): python-docx (MIT, pure Python, 2.9 MB installed, over lxml: BSD-3,
13 MB), which reads the body in document order — paragraphs and tables interleaved — and
the core properties; ~1,100 pages/s (``benchmarks/ingest_formats.py``).

Headings (the built-in ``Heading N`` and ``Title`` styles, or a paragraph's outline
level) give the section spans; list paragraphs become ``- item``; a table becomes one
``Column: value; …`` block per row, its first row naming the columns (a merged cell is
read once); an image becomes its alt text (``descr``, else ``title``) or nothing.
Headers, footers and comments are other parts of the package and stay out.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Iterator, Sequence

import docx
from docx.document import Document as DocxDocument
from docx.opc.exceptions import PackageNotFoundError
from docx.table import Table
from docx.text.paragraph import Paragraph
from lxml import etree

from ragcore.errors import InvalidDocumentError
from ragcore.ingest.formats.base import Extracted
from ragcore.ingest.formats.structure import TextBuilder, clean_inline

_HEADING = re.compile(r"^heading\s*(\d)$", re.I)
_DRAWING = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}docPr"
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


class DocxLoader:
    def load(self, data: bytes, origin: str) -> Sequence[Extracted]:
        try:
            document = docx.Document(io.BytesIO(data))
            builder = TextBuilder()
            # Style names by id, read once: python-docx resolves ``paragraph.style``
            # through the whole style list each time (most of the reading time).
            styles = {s.style_id: s.name or "" for s in document.styles}
            for block in _blocks(document):
                if isinstance(block, Paragraph):
                    _paragraph(builder, block, styles.get(block._p.style or "", ""))
                else:
                    _table(builder, block)
            structured = builder.build()
            title = clean_inline(document.core_properties.title or "")
            author = clean_inline(document.core_properties.author or "")
        except (PackageNotFoundError, zipfile.BadZipFile) as exc:
            raise InvalidDocumentError(
                origin, None, "is not a Word .docx file (not an Office Open XML package)"
            ) from exc
        except (zlib.error, EOFError) as exc:
            raise InvalidDocumentError(
                origin, None, "is a damaged .docx (its compressed data is corrupt): save it again"
            ) from exc
        except KeyError as exc:
            raise InvalidDocumentError(
                origin,
                None,
                f"is a zip archive but not a Word .docx (missing part {exc}); "
                "save the document again as .docx",
            ) from exc
        except (ValueError, etree.LxmlError) as exc:
            raise InvalidDocumentError(
                origin, None, f"is a damaged .docx ({exc}); open and save it again in Word"
            ) from exc
        fields: dict[str, object] = {}
        if title:
            fields["title"] = title
        if author:
            fields["source"] = author
        return [Extracted(structured.text, fields, structured.sections, (), origin)]


def _blocks(document: DocxDocument) -> Iterator[Paragraph | Table]:
    yield from document.iter_inner_content()


def _level(paragraph: Paragraph, style: str) -> int | None:
    if style and style.lower() == "title":
        return 1
    match = _HEADING.match(style or "")
    if match:
        return int(match.group(1))
    outline = paragraph._p.find(f"{_W}pPr/{_W}outlineLvl")
    if outline is not None:
        value = int(outline.get(f"{_W}val", "9"))
        return value + 1 if value < 9 else None
    return None


def _is_list(paragraph: Paragraph, style: str) -> bool:
    return style.lower().startswith("list") or (paragraph._p.find(f"{_W}pPr/{_W}numPr") is not None)


def _alt_texts(paragraph: Paragraph) -> list[str]:
    texts = []
    for drawing in paragraph._p.iter(_DRAWING):
        alt = clean_inline(drawing.get("descr") or drawing.get("title") or "")
        if alt:
            texts.append(alt)
    return texts


def _paragraph(builder: TextBuilder, paragraph: Paragraph, style: str) -> None:
    text = paragraph.text.strip()
    level = _level(paragraph, style)
    if text and level is not None:
        builder.heading(level, text)
    elif text:
        builder.block(f"- {clean_inline(text)}" if _is_list(paragraph, style) else text)
    for alt in _alt_texts(paragraph):
        builder.block(alt)


def _table(builder: TextBuilder, table: Table) -> None:
    rows: list[list[str]] = []
    for row in table.rows:
        cells, seen = [], set()
        for cell in row.cells:
            if id(cell._tc) in seen:  # a merged cell appears once per grid column
                continue
            seen.add(id(cell._tc))
            cells.append(clean_inline(cell.text))
        rows.append(cells)
    if rows:
        builder.table(rows[0], rows[1:])
