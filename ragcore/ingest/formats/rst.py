"""reStructuredText (``.rst``), as documentation sites publish their sources: read with
a small line reader (standard library; docutils would add a large dependency and run
directives we do not want), not rendered.

Section titles (a line under- or over-and-underlined with one punctuation character;
levels in the order the styles first appear) give the section spans; the document's
title is its first section title. What would reach answers as markup goes: roles and
links become their text (``:ref:`Wiring <wiring>``` is ``Wiring``, ```ODrive <url>`_`` is
``ODrive``), emphasis and literal marks their content, comments and directive options
disappear, an image its ``:alt:`` text; the content of admonitions and code blocks
stays. Grid and simple tables and ``list-table`` become one ``Column: value; …`` block
per row (a grid cell spanning rows stands in each row beside it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragcore.ingest.formats.base import Extracted, decode_text
from ragcore.ingest.formats.structure import TextBuilder, clean_inline

_ADORNMENT = re.compile(r"^([=\-~^\"'`#*+_:.])\1{2,}\s*$")
_DIRECTIVE = re.compile(r"^\s*\.\.\s+([\w:-]+)::\s*(.*)$")
_COMMENT = re.compile(r"^\s*\.\.(?:\s|$)")
_OPTION = re.compile(r"^\s*:([\w -]+):\s*(.*)$")
_ROLE = re.compile(r":([\w:+-]+):`([^`]*)`")
_LITERAL_ROLES = frozenset({"code", "literal", "samp", "kbd", "file", "command", "option", "math"})
_TARGET = re.compile(r"^(.*?\S)\s*<[^<>]*>$", re.DOTALL)
_LINK = re.compile(r"`([^`<]+?)\s*<[^`>]*>`__?")
_REFERENCE = re.compile(r"`([^`]+)`__?")
_LITERAL = re.compile(r"``(.+?)``")
_STRONG = re.compile(r"\*\*(.+?)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_SUBSTITUTION = re.compile(r"\|([\w -]+)\|_?")
_GRID_BORDER = re.compile(r"^\s*\+[-=+]+\+\s*$")
_BORDER_RUN = re.compile(r"\+[-=]{3,}\+")  # in every grid border line, whole or partial
_SIMPLE_BORDER = re.compile(r"^\s*=+(?:\s+=+)+\s*$")
_LIST_ROW = re.compile(r"^(\s*)\*\s+-\s+(.*)$")
_LIST_CELL = re.compile(r"^(\s*)-\s+(.*)$")
# Directives whose content is no text for a reader, and those whose argument is.
_SKIPPED = frozenset(
    {
        "toctree",
        "raw",
        "include",
        "only",
        "contents",
        "index",
        "meta",
        "tabularcolumns",
        "highlight",
        "role",
        "default-role",
        "graphviz",
        "uml",
        "literalinclude",
        "autoclass",
        "automodule",
        "autofunction",
    }
)
_IMAGES = frozenset({"image", "figure", "thumbnail"})


class RstLoader:
    suffixes = (".rst", ".rest")
    media_types = ("text/x-rst", "text/prs.fallenstein.rst")

    def load(self, data: bytes, origin: str) -> Sequence[Extracted]:
        lines = decode_text(data, origin).expandtabs(4).splitlines()
        builder, title = _read(lines)
        structured = builder.build()
        fields = {"title": title} if title else {}
        return [Extracted(structured.text, fields, structured.sections, structured.pages, origin)]


def inline(text: str) -> str:
    """A line of reStructuredText as it reads."""
    text = _ROLE.sub(_role_text, text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _LITERAL.sub(lambda m: m.group(1), text)
    text = _REFERENCE.sub(lambda m: m.group(1), text)
    text = _STRONG.sub(lambda m: m.group(1), text)
    text = _EMPHASIS.sub(lambda m: m.group(1), text)
    text = _SUBSTITUTION.sub(lambda m: m.group(1), text)
    return text.replace("\\", "")


def _role_text(m: re.Match[str]) -> str:
    """A role's text: ``Wiring`` of ``:ref:`Wiring <wiring>```, the literal content of
    ``:code:`<odrv>.can.config.baud_rate = <value>``` (a literal role has no target)."""
    if m.group(1) in _LITERAL_ROLES:
        return m.group(2)
    target = _TARGET.match(m.group(2))
    return target.group(1) if target else m.group(2)


def _read(lines: list[str]) -> tuple[TextBuilder, str]:
    builder = TextBuilder()
    styles: list[tuple[str, bool]] = []  # (character, overlined) in order of appearance
    title = ""
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            builder.block(clean_inline(inline(" ".join(paragraph))))
            paragraph.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        # A title: text over an adornment at least as long (optionally overlined too).
        over = _ADORNMENT.match(line) and i + 2 < len(lines) and _ADORNMENT.match(lines[i + 2])
        if over and lines[i + 1].strip():
            flush()
            heading, style = lines[i + 1].strip(), (line.strip()[0], True)
            i += 3
        elif (
            line.strip()
            and not line.startswith(" ")
            and _ADORNMENT.match(nxt)
            and len(nxt.strip()) >= len(line.strip()) - 1
            and not _ADORNMENT.match(line)
        ):
            flush()
            heading, style = line.strip(), (nxt.strip()[0], False)
            i += 2
        else:
            heading = ""
        if heading:
            if style not in styles:
                styles.append(style)
            text = clean_inline(inline(heading))
            title = title or text
            builder.heading(styles.index(style) + 1, text)
            continue
        if _GRID_BORDER.match(line) or _SIMPLE_BORDER.match(line):
            flush()
            i = _table(lines, i, builder)
            continue
        if directive := _DIRECTIVE.match(line):
            flush()
            i = _directive(lines, i, directive.group(1).lower(), directive.group(2), builder)
            continue
        if _COMMENT.match(line):
            flush()
            i = _skip_block(lines, i + 1, _indent(line) + 1)
            continue
        if not line.strip():
            flush()
        elif re.match(r"^\s*(?:[-*+•]|\d+[.)]|#\.)\s+", line):
            flush()
            paragraph.append(line.strip())
        else:
            paragraph.append(line.strip())
        i += 1
    flush()
    return builder, title


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _skip_block(lines: list[str], i: int, indent: int) -> int:
    """The index after the block indented at least ``indent`` starting at ``i``."""
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) >= indent):
        i += 1
    return i


def _directive(lines: list[str], i: int, name: str, argument: str, builder: TextBuilder) -> int:
    base = _indent(lines[i])
    end = _skip_block(lines, i + 1, base + 1)
    body = lines[i + 1 : end]
    options: dict[str, str] = {}
    content_start = 0
    for k, row in enumerate(body):
        if not row.strip():
            if options or k == 0:
                content_start = k + 1
                continue
            break
        if option := _OPTION.match(row):
            options[option.group(1).strip().lower()] = option.group(2).strip()
            content_start = k + 1
        else:
            break
    content = body[content_start:]
    if name in _SKIPPED:
        return end
    if name in _IMAGES:
        alt = options.get("alt", "")
        if alt:
            builder.block(clean_inline(inline(alt)))
        content = content if name == "figure" else []  # a figure's caption is text
    elif name == "list-table":
        _list_table(content, options, argument, builder)
        return end
    elif argument and name not in ("code-block", "code", "sourcecode"):
        builder.block(clean_inline(inline(argument)))  # an admonition's or topic's title
    if content:
        # A directive's body is indented as its author chose (two spaces in ODrive's
        # docs, three or four elsewhere): cut its own indent, not an assumed one.
        nested, _ = _read(_dedent(content))
        text = nested.build().text
        if text.strip():
            builder.block(text)
    return end


def _dedent(rows: list[str]) -> list[str]:
    indents = [_indent(r) for r in rows if r.strip()]
    cut = min(indents) if indents else 0
    return [r[cut:] for r in rows]


def _list_table(
    content: list[str], options: dict[str, str], caption: str, builder: TextBuilder
) -> None:
    rows: list[list[str]] = []
    for row in _dedent(content):
        if m := _LIST_ROW.match(row):
            rows.append([m.group(2)])
        elif (m := _LIST_CELL.match(row)) and rows:
            rows[-1].append(m.group(2))
        elif row.strip() and rows:
            rows[-1][-1] += " " + row.strip()
    if caption:
        builder.block(clean_inline(inline(caption)))
    cells = [[inline(c) for c in r] for r in rows]
    header_rows = int(options.get("header-rows", "0") or 0)
    header = cells[0] if header_rows and cells else []
    builder.table(header, cells[1:] if header else cells)


def _table(lines: list[str], i: int, builder: TextBuilder) -> int:
    """A grid table (``+---+``) or a simple table (``=== ===``) as rows; the index after."""
    end = i + 1
    while end < len(lines) and lines[end].strip():
        end += 1
    block = lines[i:end]
    if _GRID_BORDER.match(lines[i]):
        header, rows = _grid_table(block)
    else:
        closing = [k for k, r in enumerate(block) if k and _SIMPLE_BORDER.match(r)]
        if closing and closing[-1] < len(block) - 1:  # text after the closing border
            end = i + closing[-1] + 1
            block = block[: closing[-1] + 1]
        header, rows = _simple_table(block)
    builder.table(header, rows)
    return end


def _grid_table(block: list[str]) -> tuple[list[str], list[list[str]]]:
    """A grid table's header and rows. Columns are cut at every ``+`` of any border line,
    and a content line only where it has a ``|`` there, so a cell spanning columns keeps
    its text whole. A cell spanning rows (a border line crossing the table only partly,
    ``|  **Power**  +-------+``) stands in each row beside it: "Power; Amber; Brownout
    protection tripped" — the way a reader takes it."""
    bounds = sorted({k for row in block if _is_border(row) for k in _corners(row)})
    columns = list(zip(bounds, bounds[1:]))
    cells = [""] * len(columns)
    header: list[str] = []
    rows: list[list[str]] = []
    written = False  # content since the last border

    def add(row: str, cuts: list[int]) -> None:
        nonlocal written
        for first, nxt in zip(cuts, [*cuts[1:], len(columns)]):
            text = _segment(row, columns[first][0], columns[nxt - 1][1]).strip()
            if text.strip("-=+|"):
                cells[first] = f"{cells[first]} {text}".strip()
                written = True

    for row in block:
        if not _is_border(row):
            add(row, [k for k, (a, _) in enumerate(columns) if k == 0 or row[a : a + 1] == "|"])
            continue
        ends = [not _segment(row, a, b).strip("-=+") for a, b in columns]
        # a cell spanning rows may say its text on a border line beside it
        add(row, [k for k, (a, _) in enumerate(columns) if k == 0 or row[a : a + 1] in "|+"])
        if written:
            if "=" in row and not header and not rows:
                header = list(cells)
            else:
                rows.append(list(cells))
        cells = ["" if ended else cell for cell, ended in zip(cells, ends)]
        written = False
    return [inline(h) for h in header], [[inline(c) for c in r] for r in rows]


def _is_border(row: str) -> bool:
    """A line of a grid table's borders: whole (``+---+===+``) or crossing only the
    columns whose cells end there (``|   +-----+``)."""
    return bool(_BORDER_RUN.search(row))


def _corners(row: str) -> list[int]:
    """Where a border line's ``+`` meets a border run (not a "+" of a cell's text)."""
    return [
        k
        for k, c in enumerate(row)
        if c == "+" and any(n in "-=" for n in row[max(k - 1, 0) : k] + row[k + 1 : k + 2])
    ]


def _segment(row: str, start: int, end: int) -> str:
    """``row`` between two column bounds, without them."""
    return row[start + 1 : end]


def _simple_table(block: list[str]) -> tuple[list[str], list[list[str]]]:
    """Columns bounded by the first border line's runs of ``=``; a header row sits
    between the first two borders."""
    bounds = [(m.start(), m.end()) for m in re.finditer(r"=+", block[0])]

    def cells(row: str) -> list[str]:
        ends = [b for b, _ in bounds[1:]] + [len(row)]
        return [inline(row[a:b]).strip() for (a, _), b in zip(bounds, ends)]

    borders = [k for k, r in enumerate(block) if k and _SIMPLE_BORDER.match(r)]
    has_header = len(borders) >= 2 and borders[0] == 2
    header = cells(block[1]) if has_header else []
    start = borders[0] + 1 if has_header else 1
    body = [r for r in block[start:] if r.strip() and not _SIMPLE_BORDER.match(r)]
    return header, [cells(r) for r in body]
