"""Markdown (``.md``, ``.markdown``): YAML front matter, then the body read with
markdown-it-py (MIT, pure Python, CommonMark-exact, 0.9 MB; ~2,500 pages/s in
``benchmarks/ingest_formats.py``).

The body keeps its lines as written — an ATX heading stays ``## 5.3 Seal``, a list item
``- Check the seal`` — so plain Markdown documents chunk exactly as before; what goes is
markup that would reach answers: links become their text (``[`M600`](/docs/M600.html)``
is ``M600``), images their alt text, inline and block HTML its text, emphasis and code
marks their content. Tables become one ``Column: value; …`` block per row. Headings give
the section spans.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ragcore.ingest.formats.base import Extracted, decode_text
from ragcore.ingest.formats.frontmatter import split_front_matter
from ragcore.ingest.formats.html import html_text
from ragcore.ingest.formats.structure import Structured, TextBuilder

_ALT = re.compile(r"""\balt\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
_BREAK = re.compile(r"^<br\s*/?>$", re.IGNORECASE)


class MarkdownLoader:
    def __init__(self) -> None:
        self._parser = MarkdownIt("commonmark").enable("table")

    def load(self, data: bytes, origin: str) -> Sequence[Extracted]:
        raw = decode_text(data, origin)
        fields, body = split_front_matter(raw, origin)
        structured = _render(self._parser.parse(body), body.splitlines())
        return [
            Extracted(
                structured.text,
                fields,
                structured.sections,
                structured.pages,
                origin,
            )
        ]


def _inline(token: Token | None) -> str:
    """The reading text of an inline token: markup dropped, line breaks kept."""
    if token is None or token.children is None:
        return token.content if token is not None else ""
    out: list[str] = []
    for child in token.children:
        if child.type in ("text", "code_inline"):
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append("\n")
        elif child.type == "image":
            out.append(child.content)  # the alt text (empty: nothing)
        elif child.type == "html_inline":
            alt = _ALT.search(child.content)
            if alt:
                out.append(alt.group(1) or alt.group(2) or "")
            elif _BREAK.match(child.content.strip()):
                out.append("\n")
    return "".join(out)


def _render(tokens: list[Token], source: list[str]) -> Structured:
    builder = TextBuilder()
    opened: list[list[int] | None] = []  # the open lists' source lines

    def tight(where: list[int] | None) -> bool:
        """The block starts on the line after another block's, with no blank line
        between in the source ("BC-30:" then its list): keep them on consecutive lines."""
        return (
            where is not None and 0 < where[0] <= len(source) and bool(source[where[0] - 1].strip())
        )

    lists: list[list[str]] = []  # the open lists' lines (nested lists indent)
    markers: list[tuple[str, int]] = []  # per open list: marker, next number
    item_started: list[bool] = []
    table: list[list[str]] | None = None
    row: list[str] = []
    header: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        kind = token.type
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if kind == "heading_open":
            title = _inline(following)
            shown = f"{token.markup} {title}" if token.markup.startswith("#") else title
            builder.heading(int(token.tag[1]), title, shown, tight=tight(token.map))
            index += 3
            continue
        if kind in ("bullet_list_open", "ordered_list_open"):
            start = int(token.attrGet("start") or 1) if kind == "ordered_list_open" else 0
            markers.append((token.markup, start))
            lists.append([])
            opened.append(token.map)
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lines = lists.pop()
            markers.pop()
            where = opened.pop()
            if lists:
                lists[-1] += lines
            else:
                builder.block("\n".join(lines), tight=tight(where))
        elif kind == "list_item_open":
            item_started.append(False)
        elif kind == "list_item_close":
            item_started.pop()
        elif kind == "table_open":
            table, header = [], []
        elif kind == "tr_open":
            row = []
        elif kind in ("th_open", "td_open"):
            row.append(_inline(following).replace("\n", " "))
        elif kind == "tr_close" and table is not None:
            table.append(row)
        elif kind == "thead_close" and table:
            header = table.pop()
        elif kind == "table_close" and table is not None:
            builder.table(header, table)
            table = None
        elif kind == "inline" and table is None:
            text = _inline(token)
            if lists:
                depth = len(lists) - 1
                marker, number = markers[-1]
                if not item_started[-1]:
                    item_started[-1] = True
                    if marker in (".", ")"):
                        prefix = f"{number}{marker} "
                        markers[-1] = (marker, number + 1)
                    else:
                        prefix = f"{marker} "
                else:
                    prefix = "  "
                lists[-1].append("  " * depth + prefix + text.replace("\n", "\n  "))
            else:
                builder.block(text, tight=tight(token.map))
        elif kind in ("fence", "code_block"):
            if lists:
                lists[-1].append(token.content.rstrip("\n"))
            else:
                builder.block(token.content, tight=tight(token.map))
        elif kind == "html_block":
            text = html_text(token.content)
            if text:
                (lists[-1].append if lists else builder.block)(text)
        index += 1
    return builder.build()
