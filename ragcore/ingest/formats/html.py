"""HTML (``.html``, ``.htm``): the reading text of a page, with the standard library's
``html.parser`` (no dependency; tolerant of the broken markup doc sites and Word's
"save as HTML" produce, and fast enough: parsing is not where ingest spends its time,
see ``benchmarks/ingest_formats.py``).

Headings ``h1``–``h6`` give the section spans; paragraphs, list items (``- item``) and
table rows (``Column: value; …``, the header row from ``th`` cells) become blocks;
links become their text, images their ``alt`` text; ``script``, ``style``, ``nav`` and
the ``head`` are left out, and so is doc-site chrome marked by its class or role
(``navheader``, ``sphinxsidebar``, breadcrumbs, ``role="navigation"``).
``<meta name="...">`` tags with ragcore's field names (or ``ragcore:`` before them) fill
the document's fields, and ``<title>`` its title.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html.parser import HTMLParser

from ragcore.documents import FIELDS
from ragcore.ingest.formats.base import Extracted, decode_text
from ragcore.ingest.formats.structure import Structured, TextBuilder, clean_inline

_BLOCKS = frozenset(
    {
        *("p", "div", "br", "li", "dt", "dd", "section", "article", "header", "footer"),
        *("main", "ul", "ol", "dl", "pre", "blockquote", "figure", "figcaption"),
        *("caption", "address", "hr", "body"),
    }
)
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
    | {"track", "wbr"}
)
_NAVIGATION = re.compile(
    r"(?:^|[\s_-])(?:nav\w*|\w*sidebar\w*|breadcrumbs?|skip-?link)(?:$|[\s_-])", re.I
)


def _is_navigation(attributes: dict[str, str | None]) -> bool:
    """Doc-site chrome marked by class or role: DocBook's ``navheader``/``navfooter``,
    Sphinx's ``sphinxsidebar``, breadcrumbs, ``role="navigation"``."""
    if (attributes.get("role") or "").lower() == "navigation":
        return True
    return bool(_NAVIGATION.search(attributes.get("class") or ""))


_HIDDEN = frozenset({"script", "style", "noscript", "template", "head", "nav", "svg"})


class HtmlLoader:
    def load(self, data: bytes, origin: str) -> Sequence[Extracted]:
        parser = _Reader()
        parser.feed(decode_text(data, origin))
        parser.close()
        structured = parser.result()
        fields = dict(parser.meta)
        if parser.title.strip():
            fields.setdefault("title", " ".join(parser.title.split()))
        return [Extracted(structured.text, fields, structured.sections, structured.pages, origin)]


def html_text(markup: str) -> str:
    """The reading text of an HTML fragment (blocks separated by blank lines)."""
    parser = _Reader()
    parser.feed(markup)
    parser.close()
    return parser.result().text


def _looks_like_header(row: list[str]) -> bool:
    return len(row) > 1 and all(c and not any(ch.isdigit() for ch in c) for c in row)


class _Table:
    def __init__(self) -> None:
        self.rows: list[list[str]] = []
        self.header_row = -1
        self.cell: list[str] | None = None
        self.row_has_th = False
        self.row_all_th = True


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.builder = TextBuilder()
        self.title = ""
        self.meta: dict[str, object] = {}
        self._hidden = 0
        self._skipping: tuple[str, int] | None = None  # a navigation element and its depth
        self._in_title = False
        self._buffer: list[str] = []
        self._heading: int | None = None
        self._item = False
        self._pre = 0
        self._tables: list[_Table] = []

    # -- blocks -----------------------------------------------------------------------
    def _flush(self) -> None:
        raw = "".join(self._buffer)
        self._buffer = []
        text = raw.strip("\n") if self._pre else clean_inline(raw)
        if not text.strip():
            return
        if self._heading is not None:
            self.builder.heading(self._heading, text)
        elif self._item:
            self.builder.block(f"- {text}")
        else:
            self.builder.block(text)

    def _out(self, text: str) -> None:
        if self._tables and self._tables[-1].cell is not None:
            self._tables[-1].cell.append(text)
        elif not self._tables:
            self._buffer.append(text)

    # -- parser events ------------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "title":
            self._in_title = True
        elif tag == "meta":
            name = (attributes.get("name") or "").removeprefix("ragcore:")
            if name in FIELDS and attributes.get("content") is not None:
                self.meta[name] = attributes["content"]
        if self._skipping is not None:  # inside navigation marked by its class or role
            if tag == self._skipping[0]:
                self._skipping = (tag, self._skipping[1] + 1)
            return
        if tag in _HIDDEN:
            self._hidden += 1
            return
        if self._hidden:
            return
        if tag not in _VOID and _is_navigation(attributes):
            self._skipping = (tag, 1)
            return
        if tag == "img":
            alt = clean_inline(attributes.get("alt") or "")
            if alt:
                self._out(f" {alt} ")
            return
        if tag == "table":
            if not self._tables:
                self._flush()
            self._tables.append(_Table())
            return
        if self._tables:
            table = self._tables[-1]
            if tag == "tr":
                table.rows.append([])
                table.row_has_th, table.row_all_th = False, True
            elif tag in ("td", "th"):
                if not table.rows:
                    table.rows.append([])
                table.cell = []
                table.row_has_th |= tag == "th"
                table.row_all_th &= tag == "th"
            elif tag in ("br", "p", "li", "div"):
                self._out(" ")
            return
        if tag in _HEADINGS:
            self._flush()
            self._heading = _HEADINGS[tag]
        elif tag in _BLOCKS:
            self._flush()
            if tag == "li":
                self._item = True
            if tag == "pre":
                self._pre += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if self._skipping is not None:
            if tag == self._skipping[0]:
                depth = self._skipping[1] - 1
                self._skipping = (tag, depth) if depth else None
            return
        if tag in _HIDDEN:
            self._hidden = max(self._hidden - 1, 0)
            return
        if self._hidden:
            return
        if self._tables:
            table = self._tables[-1]
            if tag in ("td", "th") and table.cell is not None:
                table.rows[-1].append(clean_inline("".join(table.cell)))
                table.cell = None
            elif tag == "tr" and table.rows and table.row_all_th and table.row_has_th:
                if table.header_row < 0 and len(table.rows) == 1:
                    table.header_row = 0
            elif tag == "table":
                self._tables.pop()
                self._end_table(table)
            return
        if tag in _HEADINGS:
            self._flush()
            self._heading = None
        elif tag in _BLOCKS:
            self._flush()
            if tag == "li":
                self._item = False
            if tag == "pre":
                self._pre = max(self._pre - 1, 0)

    def _end_table(self, table: _Table) -> None:
        rows = [r for r in table.rows if any(c for c in r)]
        header_row = rows[0] if table.header_row == 0 and rows else []
        if not header_row and len(rows) > 1 and _looks_like_header(rows[0]):
            header_row = rows[0]  # Word's tables: a first row of names, in td cells
        body = rows[1:] if header_row else rows
        if self._tables:  # a table inside a cell: its rows become the cell's text
            outer = self._tables[-1]
            if outer.cell is not None:
                outer.cell.append(" ".join(" ".join(r) for r in rows))
            return
        self.builder.table(header_row, body)

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        elif not self._hidden and self._skipping is None:
            self._out(data)

    def result(self) -> Structured:
        self._flush()
        while self._tables:
            self._end_table(self._tables.pop())
        return self.builder.build()
