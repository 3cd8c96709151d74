"""PDF (``.pdf``): the text layer read page by page with pypdfium2 — Google's PDFium
(BSD-3 / Apache-2.0; the engine in Chrome), one self-contained wheel (8.7 MB installed,
no system library) that gives every character's box, font size and weight from C.
About 100 real manual pages/s here with everything below, ~3-10% of an ingest's time
(``benchmarks/ingest_formats.py``). PyMuPDF is as fast but AGPL; pdfminer.six is pure
Python and far slower; pypdf gives no character geometry (no columns, headers, tables).

From PDFium's character boxes the page is rebuilt as lines and segments (runs of text
with no gap wider than a character), then read the way a person would:

- **Columns.** A page whose segments leave a clear vertical gutter in its middle third,
  with wide runs of text on both sides, is read column by column; a full-width line
  (a title) ends one band of columns and starts the next.
- **Headers and footers.** Lines at the top or bottom of a page whose letters (digits
  aside) repeat on at least 40% of the pages, and bare page numbers ("12", "Page 3 of 9"), are
  dropped, so they never land inside a sentence.
- **Headings.** A short single-run line in a font clearly larger than the body text is a
  heading; its size ranks its level. They give the section spans.
- **Tables.** Consecutive lines of two or more segments whose columns line up with the
  first line's are a table: the first line names the columns, each row becomes
  ``Column: value; …``. A table that goes on over a page break keeps its header (a
  repeated header line on the next page is dropped).
- **Paragraphs.** Lines are joined with spaces, a word hyphenated at a line end is joined
  again, bullets become ``- ``; a paragraph cut by a page break is joined across it.
- **Scans.** A page with images but no text layer is OCRed through the ``tesseract``
  program when it is on PATH (``ragcore.ingest.formats.ocr``), and otherwise listed in
  the document's notes (and its ``pages_without_text`` metadata) by page number.

Every page's span in the text is kept (``Document.pages``).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from ragcore.errors import InvalidDocumentError
from ragcore.ingest.formats.base import Extracted
from ragcore.ingest.formats.ocr import Ocr, find_ocr
from ragcore.ingest.formats.structure import Structured, TextBuilder, clean_inline

_PAGE_NUMBER = re.compile(
    r"^(?:page|seite|p\.)?\s*[-–]?\s*\d{1,4}\s*[-–]?(?:\s*(?:of|/|von)\s*\d{1,4})?$", re.I
)
_BULLET = re.compile(r"^(?:[•▪◦●■□‣∙·*–-])\s+")
_NUMBER = re.compile(r"(?:^|\s)\d{1,4}(?:\s|$)")
_LEADER = re.compile(r"(?:\s*\.){4,}\s*")
_SENTENCE_END = re.compile(r"[.!?:;)\]\"”']$")
_HEADING_RATIO = 1.15
_BOLD_WEIGHT = 600
_WORD_GAP_EM = 0.26
_BOLD_HEADING = -1.0  # the levels' key for bold headings of body size
_LINE_END_HYPHENS = frozenset("\x02\ufffe\u00ad")  # PDFium's marks of a hyphen at a line end
_EDGE_LINES = 2
_EDGE_SHARE = 0.4
"""A top or bottom line repeated on this share of the pages is a running header/footer
(headers of odd and even pages may differ, so each is on about half)."""


@dataclass
class _Segment:
    text: str
    x0: float
    x1: float
    bottom: float
    top: float
    size: float
    bold: bool = False


@dataclass
class _Line:
    segments: list[_Segment]
    page: int

    @property
    def text(self) -> str:
        return clean_inline(" ".join(s.text for s in self.segments))

    def drop_leaders(self) -> None:
        """A table of contents' dot leaders ("Canvas size . . . . 32") dropped."""
        for seg in self.segments:
            seg.text = _LEADER.sub(" ", seg.text).strip()
        kept = [seg for seg in self.segments if seg.text]
        self.segments = kept or self.segments[:1]

    @property
    def top(self) -> float:
        return max(s.top for s in self.segments)

    @property
    def bottom(self) -> float:
        return min(s.bottom for s in self.segments)

    @property
    def size(self) -> float:
        return max(s.size for s in self.segments)

    @property
    def x0(self) -> float:
        return min(s.x0 for s in self.segments)


@dataclass
class _Page:
    number: int
    lines: list[_Line] = field(default_factory=list)
    scanned: bool = False
    ocr_text: str | None = None


class PdfLoader:
    def __init__(self, ocr: Ocr | None = None, *, use_ocr: bool = True) -> None:
        self._ocr = ocr
        self._use_ocr = use_ocr
        self._looked_up = ocr is not None

    def _ocr_engine(self) -> Ocr | None:
        if not self._looked_up:
            self._ocr, self._looked_up = (find_ocr() if self._use_ocr else None), True
        return self._ocr

    def load(self, data: bytes, origin: str) -> Sequence[Extracted]:
        try:
            pdf = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as exc:
            raise InvalidDocumentError(
                origin,
                None,
                f"is not a readable PDF ({exc}); it may be truncated or damaged: "
                "download or export it again",
            ) from exc
        try:
            if len(pdf) == 0:
                raise InvalidDocumentError(origin, None, "is a PDF without pages")
            pages = [self._read_page(pdf, index) for index in range(len(pdf))]
            fields = _metadata(pdf)
        except pdfium.PdfiumError as exc:
            raise InvalidDocumentError(
                origin, None, f"has a page PDFium cannot read ({exc}); export it again"
            ) from exc
        finally:
            pdf.close()
        notes, scanned = _scan_notes(pages)
        if scanned:
            fields["pages_without_text"] = ", ".join(map(str, scanned))
        if not any(p.lines or p.ocr_text for p in pages):
            raise InvalidDocumentError(
                origin,
                None,
                f"has no text layer on any of its {len(pages)} pages (a scan): "
                + (
                    "install tesseract-ocr (apt-get install tesseract-ocr) so ragcore can "
                    "OCR it, or OCR it before ingesting"
                    if self._ocr_engine() is None
                    else "OCR found no text either"
                ),
            )
        structured = _assemble(pages)
        return [
            Extracted(
                structured.text,
                fields,
                structured.sections,
                structured.pages,
                origin,
                notes,
            )
        ]

    def _read_page(self, pdf: pdfium.PdfDocument, index: int) -> _Page:
        page = pdf[index]
        try:
            text_page = page.get_textpage()
            try:
                lines = _page_lines(text_page, page.get_width(), index + 1)
            finally:
                text_page.close()
            result = _Page(index + 1, lines)
            if not lines and _has_images(page):
                result.scanned = True
                ocr = self._ocr_engine()
                if ocr is not None:
                    result.ocr_text = ocr.page_text(page)
            return result
        finally:
            page.close()


def _metadata(pdf: pdfium.PdfDocument) -> dict[str, object]:
    info = pdf.get_metadata_dict(skip_empty=True)
    fields: dict[str, object] = {}
    title = clean_inline(info.get("Title", ""))
    if title and not title.lower().startswith(("microsoft word", "untitled")):
        fields["title"] = title
    if info.get("Author"):
        fields["source"] = clean_inline(info["Author"])
    return fields


def _has_images(page: pdfium.PdfPage) -> bool:
    return any(o.type == pdfium_c.FPDF_PAGEOBJ_IMAGE for o in page.get_objects(max_depth=2))


def _scan_notes(pages: list[_Page]) -> tuple[tuple[str, ...], list[int]]:
    scanned = [p.number for p in pages if p.scanned]
    if not scanned:
        return (), []
    listed = ("page " if len(scanned) == 1 else "pages ") + ", ".join(map(str, scanned))
    have, were = ("has", "was") if len(scanned) == 1 else ("have", "were")
    if all(p.ocr_text is not None for p in pages if p.scanned):
        return (f"{listed} {have} no text layer and {were} read by OCR (tesseract)",), []
    return (
        f"{listed} {have} no text layer (scanned images) and {were} left out: install "
        "tesseract-ocr (apt-get install tesseract-ocr) and ingest again to OCR them",
    ), scanned


# -- one page: characters -> segments -> lines, in reading order ----------------------------


_Word = tuple[str, float, float, float, float, float, bool]
"""A word's text, x0, x1, bottom, top, font size and whether it is bold."""
_WORD = re.compile(r"[^\s\x02\ufffe]+[\x02\ufffe]?|[\x02\ufffe]")


def _page_lines(text_page: pdfium.PdfTextPage, width: float, number: int) -> list[_Line]:
    """The page's lines in reading order, from PDFium's text split into words at its
    spaces (and at the gaps it missed, ``_pieces``); each word's box is its first and
    last character's, and lines and segments are built from words, not characters."""
    count = text_page.count_chars()
    if count <= 0:
        return []
    text = text_page.get_text_range(0, count)
    if len(text) != count:  # PDFium's text and character indices disagree: ask per char
        text = "".join(chr(pdfium_c.FPDFText_GetUnicode(text_page, i)) for i in range(count))
    raw_lines: list[list[_Word]] = [[]]
    low = high = right = None  # the current line's vertical extent, its last right edge
    previous_end = 0
    for match in _WORD.finditer(text):
        start, end = match.span()
        between = text[previous_end:start]
        # PDFium ends a line with \r\n, or with its hyphen mark alone.
        if (
            "\n" in between
            or "\r" in between
            or text[previous_end - 1 : previous_end]
            in (
                "\x02",
                "\ufffe",
            )
        ):
            if raw_lines[-1]:
                raw_lines.append([])
            low = high = right = None
        previous_end = end
        size = pdfium_c.FPDFText_GetFontSize(text_page, start)
        bold = pdfium_c.FPDFText_GetFontWeight(text_page, start) >= _BOLD_WEIGHT
        for piece, first, last in _pieces(text_page, text, start, end, size):
            size = size or (first[3] - first[1])
            bottom, top = min(first[1], last[1]), max(first[3], last[3])
            middle = (top + bottom) / 2
            if (
                low is not None
                and high is not None
                and right is not None
                and (not low - size * 0.2 <= middle <= high + size * 0.2 or first[0] < right - size)
            ):
                raw_lines.append([])
                low = high = None
            right = max(first[2], last[2])
            raw_lines[-1].append((piece, first[0], right, bottom, top, size, bold))
            low = bottom if low is None else min(low, bottom)
            high = top if high is None else max(high, top)
    segments = [seg for line in raw_lines for seg in _segments(line)]
    return _reading_order(segments, width, number)


_Box = tuple[float, float, float, float]
_NO_BOX: _Box = (0.0, 0.0, 0.0, 0.0)


def _pieces(
    text_page: pdfium.PdfTextPage, text: str, start: int, end: int, size: float
) -> list[tuple[str, _Box, _Box]]:
    """A word of PDFium's text with the boxes of its first and last character — or the
    words it really is, where PDFium put no space between two (groff's tight spacing:
    "savedwhen"): a gap wider than a quarter em between two letters, or after a full
    stop before a capital. Measured on the real manuals, in-word gaps stay below 0.25 em
    (code fonts' narrow glyphs included) and such missing spaces are above it."""
    boxes = [_box(text_page, index) for index in range(start, end)]
    for index in range(1, len(boxes)):
        if boxes[index] == _NO_BOX:  # unplaced: where the character before it ends
            boxes[index] = boxes[index - 1]
    pieces, begin = [], 0
    limit = (size or 10.0) * _WORD_GAP_EM
    for index in range(1, len(boxes)):
        before, after = text[start + index - 1], text[start + index]
        if (
            after.isalpha()
            and (before.isalpha() or (before in ".,;:)" and after.isupper()))
            and boxes[index][0] - boxes[index - 1][2] > limit
        ):
            pieces.append((text[start + begin : start + index], boxes[begin], boxes[index - 1]))
            begin = index
    pieces.append((text[start + begin : end], boxes[begin], boxes[-1]))
    return pieces


def _box(text_page: pdfium.PdfTextPage, index: int) -> _Box:
    """A character's box; ``_NO_BOX`` for one PDFium cannot place (a generated
    character), so one odd character never costs the document."""
    try:
        return text_page.get_charbox(index)
    except pdfium.PdfiumError:
        return _NO_BOX


def _unhyphenate(word: str) -> str:
    if word[-1] in _LINE_END_HYPHENS:
        return word[:-1] + "-"
    return word


def _segments(words: list[_Word]) -> list[_Segment]:
    """A raw line's words joined into segments, cut where the gap between two words is
    wider than a character (a table's cells, or two columns on one baseline)."""
    out: list[_Segment] = []
    for text, x0, x1, bottom, top, size, bold in words:
        text = _unhyphenate(text)
        if out and x0 - out[-1].x1 <= max(size, 4.0):
            seg = out[-1]
            seg.bold = seg.bold and bold
            seg.size = max(seg.size, size)  # a smaller word inside a line (bash(1)'s names)
            seg.text = f"{seg.text} {text}"
            seg.x1 = max(seg.x1, x1)
            seg.bottom = min(seg.bottom, bottom)
            seg.top = max(seg.top, top)
        else:
            out.append(_Segment(text, x0, x1, bottom, top, size, bold))
    return out


def _gutter(segments: list[_Segment], width: float) -> float | None:
    """The x of a clear vertical gap between two columns of text, if the page has one."""
    if len(segments) < 8:
        return None
    best, best_score = None, 0
    limit = max(1, len(segments) // 10)
    for x in range(int(width * 0.3), int(width * 0.7) + 1, 3):
        crossing = sum(1 for s in segments if s.x0 < x < s.x1)
        if crossing > limit:
            continue
        left = [s for s in segments if s.x1 <= x]
        right = [s for s in segments if s.x0 >= x]
        if len(left) < 4 or len(right) < 4:
            continue
        wide = width * 0.2
        if (
            statistics.median(s.x1 - s.x0 for s in left) < wide
            or statistics.median(s.x1 - s.x0 for s in right) < wide
        ):
            continue  # short runs on both sides: a table, not columns
        score = min(len(left), len(right)) - 4 * crossing
        if score > best_score:
            best, best_score = x, score
    return best


def _as_lines(segments: list[_Segment], number: int) -> list[_Line]:
    """Segments grouped into lines top to bottom (those that share a baseline)."""
    lines: list[_Line] = []
    for seg in sorted(segments, key=lambda s: (-s.top, s.x0)):
        if lines:
            line = lines[-1]
            middle = (seg.top + seg.bottom) / 2
            if line.bottom - 1 <= middle <= line.top + 1:
                line.segments.append(seg)
                line.segments.sort(key=lambda s: s.x0)
                continue
        lines.append(_Line([seg], number))
    return lines


def _reading_order(segments: list[_Segment], width: float, number: int) -> list[_Line]:
    gutter = _gutter(segments, width)
    if gutter is None:
        return _as_lines(segments, number)
    spanning = sorted((s for s in segments if s.x0 < gutter < s.x1), key=lambda s: -s.top)
    columns = [s for s in segments if not s.x0 < gutter < s.x1]
    ordered: list[_Line] = []
    ceiling = float("inf")
    for bar in [*spanning, None]:
        floor = bar.top if bar is not None else float("-inf")
        band = [s for s in columns if floor < (s.top + s.bottom) / 2 <= ceiling]
        ordered += _as_lines([s for s in band if s.x1 <= gutter], number)
        ordered += _as_lines([s for s in band if s.x0 >= gutter], number)
        if bar is not None:
            ordered.append(_Line([bar], number))
            ceiling = bar.bottom
    return ordered


# -- the document: headers and footers out, then headings, tables and paragraphs ----------


def _edge_key(text: str) -> str:
    """A running header's text without its page number, however it is placed: "gnuplot
    5.4 41" on odd pages and "42 gnuplot 5.4" on even ones are one header."""
    return re.sub(r"[\W\d_]+", "", text.lower())


def _drop_headers_and_footers(pages: list[_Page]) -> None:
    with_text = [p for p in pages if p.lines]
    counts: Counter[str] = Counter()
    numbered: Counter[str] = Counter()
    for page in with_text:
        keys = {_edge_key(line.text): line.text for line in _edges(page)}
        counts.update(keys.keys())
        numbered.update(key for key, text in keys.items() if _NUMBER.search(text))
    needed = max(2, round(len(with_text) * _EDGE_SHARE))
    repeated = {key for key, n in counts.items() if n >= needed} if len(with_text) > 1 else set()
    # A line with a page number that repeats on a few pages is a running header of a
    # part of the book ("CONTENTS  gnuplot 5.4  3") even when that part is short.
    repeated |= {key for key, n in numbered.items() if n >= 3}
    for page in with_text:
        edges = {id(line) for line in _edges(page)}
        page.lines = [
            line
            for line in page.lines
            if id(line) not in edges
            or not (_edge_key(line.text) in repeated or _PAGE_NUMBER.match(line.text))
        ]


def _edges(page: _Page) -> list[_Line]:
    by_height = sorted(page.lines, key=lambda line: -line.top)
    return by_height[:_EDGE_LINES] + by_height[-_EDGE_LINES:]


def _body_size(pages: list[_Page]) -> float:
    sizes: Counter[float] = Counter()
    for page in pages:
        for line in page.lines:
            sizes[round(line.size * 2) / 2] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _heading_levels(pages: list[_Page], body: float) -> dict[float, int]:
    """Heading levels by font size, largest first; a bold line of body size (a manual
    page's NAME, OPTIONS) ranks below every larger heading."""
    sizes = {
        round(line.size * 2) / 2
        for page in pages
        for line in page.lines
        if _could_be_heading(line, body) and line.size >= body * _HEADING_RATIO
    }
    levels = {size: min(level, 6) for level, size in enumerate(sorted(sizes, reverse=True), 1)}
    levels[_BOLD_HEADING] = min(len(sizes) + 1, 6)
    return levels


def _heading_level(line: _Line, body: float, levels: dict[float, int]) -> int | None:
    if not _could_be_heading(line, body):
        return None
    size = round(line.size * 2) / 2
    return levels.get(size) if line.size >= body * _HEADING_RATIO else levels[_BOLD_HEADING]


def _could_be_heading(line: _Line, body: float) -> bool:
    text = line.text
    if len(line.segments) != 1 or body <= 0 or not any(c.isalpha() for c in text):
        return False
    if line.size >= body * _HEADING_RATIO:
        return len(text) <= 120
    return (  # a short bold line of its own in the body size
        line.segments[0].bold
        and line.size >= body * 0.95
        and len(text) <= 60
        and (text[:1].isupper() or text[:1].isdigit())
        and text[-1] not in ".,;:"
    )


@dataclass
class _Table:
    header: _Line
    rows: list[_Line] = field(default_factory=list)

    def fits(self, line: _Line) -> bool:
        """Whether ``line``'s segments fall one each into the header's columns."""
        starts = [s.x0 for s in self.header.segments]
        if len(line.segments) < 2 or len(line.segments) > len(starts):
            return False
        used = set()
        for seg in line.segments:
            column = _column_of(seg, starts)
            if column is None or column in used:
                return False
            used.add(column)
        return True

    def cells(self, line: _Line) -> list[str]:
        starts = [s.x0 for s in self.header.segments]
        cells = [""] * len(starts)
        for seg in line.segments:
            column = _column_of(seg, starts)
            if column is not None:
                cells[column] = seg.text
        return cells


def _column_of(seg: _Segment, starts: list[float]) -> int | None:
    tolerance = 3.0
    if seg.x0 < starts[0] - tolerance * 4:
        return None
    column = 0
    for index, start in enumerate(starts):
        if seg.x0 >= start - tolerance or (seg.x0 + seg.x1) / 2 >= start:
            column = index
    return column


def _assemble(pages: list[_Page]) -> Structured:
    _drop_headers_and_footers(pages)
    for page in pages:
        for line in page.lines:
            line.drop_leaders()
    body = _body_size(pages)
    levels = _heading_levels(pages, body)
    builder = TextBuilder()
    paragraph: list[str] = []
    marks: list[tuple[int, int]] = []
    previous: _Line | None = None
    table: _Table | None = None
    table_rows: list[list[str]] = []

    def flush_paragraph() -> None:
        nonlocal paragraph, marks
        if paragraph:
            builder.block("".join(paragraph), marks)
        paragraph, marks = [], []

    def flush_table() -> None:
        nonlocal table_rows
        if table is not None and table_rows:
            builder.table([s.text for s in table.header.segments], table_rows)
        table_rows = []

    for page in pages:
        if page.ocr_text is not None:
            flush_paragraph()
            flush_table()
            table = None
            builder.page(page.number)
            for block in re.split(r"\n\s*\n", page.ocr_text):
                builder.block(_join_ocr_lines(block))
            previous = None
            continue
        if not page.lines:
            continue
        lines = page.lines
        first = True
        index = 0
        while index < len(lines):
            line = lines[index]
            following = lines[index + 1] if index + 1 < len(lines) else None
            # A table going on from the previous page (its header repeated or not).
            if first and table is not None and table.fits(line):
                flush_paragraph()
                flush_table()
                builder.page(page.number)
                if line.text != table.header.text:
                    table_rows.append(table.cells(line))
                index += 1
                while index < len(lines) and table.fits(lines[index]):
                    table_rows.append(table.cells(lines[index]))
                    index += 1
                first = False
                previous = None
                continue
            if first and not (paragraph and _continues(paragraph, line)):
                flush_paragraph()
                flush_table()
                table = None
                builder.page(page.number)
            elif first:  # a paragraph running over the page break
                marks.append((len("".join(paragraph)) + 1, page.number))
            first = False
            if following is not None and _could_be_header(line):
                candidate = _Table(line)
                if candidate.fits(following):
                    flush_paragraph()
                    flush_table()
                    table = candidate
                    index += 1
                    while index < len(lines) and table.fits(lines[index]):
                        table_rows.append(table.cells(lines[index]))
                        index += 1
                    previous = None
                    continue
            if table is not None and table_rows:
                flush_table()
            table = None
            level = _heading_level(line, body, levels)
            if level is not None:
                flush_paragraph()
                builder.heading(level, line.text)
                previous = None
            else:
                text = line.text
                bullet = _BULLET.match(text)
                if bullet or previous is None or _new_paragraph(previous, line):
                    flush_paragraph()
                if bullet:
                    text = "- " + text[bullet.end() :]
                _append_line(paragraph, text)
                previous = line
            index += 1
    flush_paragraph()
    flush_table()
    return builder.build()


def _could_be_header(line: _Line) -> bool:
    """Two or more cells, each naming something (a header names its columns; "47" or
    "12 Nm" is a value, so a line with one is a row, not a header)."""
    return len(line.segments) >= 2 and all(
        any(c.isalpha() for c in seg.text) and not seg.text[:1].isdigit() for seg in line.segments
    )


def _new_paragraph(previous: _Line, line: _Line) -> bool:
    gap = previous.bottom - line.top  # between glyph boxes: about half the size in a paragraph
    return (
        gap > max(previous.size, line.size) * 1.0
        or abs(previous.size - line.size) > 0.6
        or line.top > previous.top
    )


def _continues(paragraph: list[str], line: _Line) -> bool:
    """Whether the page's first line goes on with the paragraph the last page ended."""
    text = "".join(paragraph)
    return bool(text) and not _SENTENCE_END.search(text) and line.text[:1].islower()


def _append_line(paragraph: list[str], text: str) -> None:
    if paragraph:
        last = paragraph[-1]
        if len(last) > 1 and last.endswith("-") and last[-2].isalpha() and text[:1].islower():
            paragraph[-1] = last[:-1]  # a word hyphenated at the line end
        else:
            paragraph.append(" ")
    paragraph.append(text)


def _join_ocr_lines(block: str) -> str:
    paragraph: list[str] = []
    for line in block.splitlines():
        if line.strip():
            _append_line(paragraph, clean_inline(line))
    return "".join(paragraph)
