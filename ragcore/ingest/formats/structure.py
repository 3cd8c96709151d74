"""Text with its structure: a ``TextBuilder`` receives headings, paragraphs, list items,
tables and page starts from a format reader and gives back the plain text with the
section and page spans (``ragcore.documents.Section`` / ``PageSpan``).

Invariants: blocks are separated by one blank line; a heading's section runs from the
heading to the next heading of any level; a page runs from its first character to the
next page's first; a table row is one block of ``Column: value; Column: value`` (so a
chunk holding only that row still says which column each figure is in).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragcore.documents import PageSpan, Section

_SPACE = re.compile(r"[ \t\u00a0]+")
BLOCK_SEPARATOR = "\n\n"


def clean_inline(text: str) -> str:
    """One line of text: runs of spaces collapsed, ends trimmed."""
    return _SPACE.sub(" ", text.replace("\n", " ")).strip()


def table_rows(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Each row as ``Column: value; Column: value``; cells without a header name, or a
    table without a header, are kept as values alone, empty cells left out."""
    lines = []
    names = [clean_inline(h) for h in header]
    for row in rows:
        cells = []
        for index, value in enumerate(row):
            value = clean_inline(value)
            if not value:
                continue
            name = names[index] if index < len(names) else ""
            cells.append(f"{name}: {value}" if name and name != value else value)
        if cells:
            lines.append("; ".join(cells))
    return lines


@dataclass(frozen=True)
class Structured:
    text: str
    sections: tuple[Section, ...]
    pages: tuple[PageSpan, ...]


class TextBuilder:
    """Collects blocks in reading order; ``build`` returns the text and its spans."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self._path: list[str] = []
        self._section_starts: list[tuple[int, tuple[str, ...]]] = []
        self._page_starts: list[tuple[int, int]] = []
        self._pending_page: int | None = None

    def _append(self, block: str, tight: bool = False) -> int:
        """Add a block (``tight``: on the next line, as a source wrote it with no blank
        line between: "BC-30:" above its list); return its start offset."""
        if self._parts:
            separator = "\n" if tight else BLOCK_SEPARATOR
            self._parts.append(separator)
            self._length += len(separator)
        start = self._length
        if self._pending_page is not None:
            self._page_starts.append((start, self._pending_page))
            self._pending_page = None
        self._parts.append(block)
        self._length += len(block)
        return start

    def page(self, number: int) -> None:
        """The blocks that follow come from page ``number`` (1-based)."""
        self._pending_page = number

    def heading(
        self, level: int, title: str, shown: str | None = None, *, tight: bool = False
    ) -> None:
        """A heading of ``level`` (1 = top); ``shown`` is the text put in the document
        (e.g. the Markdown line ``## 5.3 Seal``), by default the title; ``tight`` as for
        ``block``."""
        title = clean_inline(title)
        if not title:
            return
        level = max(level, 1)
        del self._path[level - 1 :]
        self._path += [""] * (level - 1 - len(self._path))
        self._path.append(title)
        start = self._append(shown if shown is not None else title, tight)
        self._section_starts.append((start, tuple(p for p in self._path if p)))

    def block(
        self, text: str, page_marks: Sequence[tuple[int, int]] = (), *, tight: bool = False
    ) -> None:
        """A paragraph, list item, caption or code block, as it should read.
        ``page_marks`` are (offset in ``text``, page) where a later page starts inside it
        (a paragraph running over a page break); ``tight``: on the line after the block
        before, as the source wrote it (a label above its list keeps its list)."""
        text = text.strip("\n")
        if text.strip():
            start = self._append(text, tight)
            self._page_starts += [(start + offset, page) for offset, page in page_marks]

    def table(self, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        for line in table_rows(header, rows):
            self._append(line)

    def build(self) -> Structured:
        text = "".join(self._parts)
        sections = []
        for index, (start, path) in enumerate(self._section_starts):
            end = (
                self._section_starts[index + 1][0]
                if index + 1 < len(self._section_starts)
                else len(text)
            )
            sections.append(Section(start, end, path))
        pages = []
        for index, (start, number) in enumerate(self._page_starts):
            end = (
                self._page_starts[index + 1][0] if index + 1 < len(self._page_starts) else len(text)
            )
            pages.append(PageSpan(start, end, number))
        return Structured(text, tuple(sections), tuple(pages))
