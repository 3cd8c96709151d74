"""AsciiDoc (``.adoc``, ``.asciidoc``), as documentation sources are published: read with
a small line reader (standard library), not rendered.

Titles (``= Title``, ``== Section``, …) give the section spans; the document title is
the ``=`` line. Markup that would reach answers goes: ``link:url[text]``, ``<<id,text>>``
and ``url[text]`` become their text, ``*strong*``, ``_emphasis_`` and ```mono``` their
content, ``image::file[alt]`` its alt text; attribute entries (``:name: value``), block
attributes (``[source,ini]``), anchors, comments, ``include::`` and ``ifdef::`` lines
disappear; listing, literal and example blocks keep their content. Tables (``|===``)
become one ``Column: value; …`` block per row.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragcore.ingest.formats.base import Extracted, decode_text
from ragcore.ingest.formats.structure import TextBuilder, clean_inline

_TITLE = re.compile(r"^(=+)\s+(\S.*?)\s*=*\s*$")
_ATTRIBUTE_ENTRY = re.compile(r"^:!?[\w-]+!?:(?:\s.*)?$")
_BLOCK_ATTRIBUTES = re.compile(r"^\[[^\]]*\]\s*$")
_ANCHOR = re.compile(r"\[\[[^\]]*\]\]|\[#[^\]]*\]")
_DIRECTIVE = re.compile(r"^(?:include|ifdef|ifndef|ifeval|endif|toc)::")
_IMAGE = re.compile(r"image::?[^\[\s]*\[([^\],]*)[^\]]*\]")
_LINK = re.compile(r"(?:link:|mailto:|(?:https?|ftp)://)[^\[\s]*\[([^\]]*)\]")
_XREF = re.compile(r"<<[^,>]*,\s*([^>]+)>>|<<([^>]+)>>|xref:[^\[]*\[([^\]]*)\]")
_STRONG = re.compile(r"(?<![\w*])\*{1,2}(?!\s)(.+?)(?<!\s)\*{1,2}(?![\w*])")
_EMPHASIS = re.compile(r"(?<![\w_])_{1,2}(?!\s)(.+?)(?<!\s)_{1,2}(?![\w_])")
_MONO = re.compile(r"`{1,2}\+?(.+?)\+?`{1,2}")
_PASS = re.compile(r"pass:\[([^\]]*)\]|\+\+\+(.+?)\+\+\+")
_MARK = re.compile(r"#([^#\n]+)#")
_DELIMITERS = ("----", "....", "====", "****", "____", "--", "////", "++++")
_LIST = re.compile(r"^\s*(?:[*.-]+|\d+\.)\s+")
_LABELLED = re.compile(r"^(.+?)(::|;;)\s*(.*)$")


class AsciiDocLoader:
    suffixes = (".adoc", ".asciidoc", ".asc")
    media_types = ("text/asciidoc", "text/x-asciidoc")

    def load(self, data: bytes, origin: str) -> Sequence[Extracted]:
        builder, title = _read(decode_text(data, origin).splitlines())
        structured = builder.build()
        fields = {"title": title} if title else {}
        return [Extracted(structured.text, fields, structured.sections, structured.pages, origin)]


def inline(text: str) -> str:
    """A line of AsciiDoc as it reads."""
    text = _ANCHOR.sub("", text)
    text = _IMAGE.sub(lambda m: m.group(1), text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _XREF.sub(lambda m: next(g for g in m.groups() if g is not None), text)
    text = _PASS.sub(lambda m: m.group(1) or m.group(2) or "", text)
    text = _MONO.sub(lambda m: m.group(1), text)
    text = _STRONG.sub(lambda m: m.group(1), text)
    text = _EMPHASIS.sub(lambda m: m.group(1), text)
    text = _MARK.sub(lambda m: m.group(1), text)
    return text.replace("{nbsp}", " ").replace(" +", "")


def _read(lines: list[str]) -> tuple[TextBuilder, str]:
    builder = TextBuilder()
    title = ""
    paragraph: list[str] = []
    i = 0

    def flush() -> None:
        if paragraph:
            builder.block(clean_inline(inline(" ".join(paragraph))))
            paragraph.clear()

    while i < len(lines):
        line = lines[i].rstrip()
        stripped = line.strip()
        if line.startswith("//") and not line.startswith("////"):
            i += 1
            continue
        if stripped in _DELIMITERS:
            flush()
            end = next(
                (k for k in range(i + 1, len(lines)) if lines[k].strip() == stripped), len(lines)
            )
            if stripped not in ("////", "++++"):  # comments and passthroughs hold no text
                body = [row.rstrip() for row in lines[i + 1 : end]]
                if stripped in ("----", "...."):  # listings and literals as written
                    text = "\n".join(body).strip("\n")
                    if text.strip():
                        builder.block(text)
                else:
                    nested, _ = _read(body)
                    text = nested.build().text
                    if text.strip():
                        builder.block(text)
            i = end + 1
            continue
        if stripped.startswith("|==="):
            flush()
            end = next(
                (k for k in range(i + 1, len(lines)) if lines[k].strip().startswith("|===")),
                len(lines),
            )
            _table(lines[i + 1 : end], builder)
            i = end + 1
            continue
        if title_match := _TITLE.match(line):
            flush()
            text = clean_inline(inline(title_match.group(2)))
            level = len(title_match.group(1))
            title = title or (text if level == 1 else "")
            builder.heading(level, text)
            i += 1
            continue
        if (
            _ATTRIBUTE_ENTRY.match(line)
            or _BLOCK_ATTRIBUTES.match(stripped)
            or _DIRECTIVE.match(stripped)
        ):
            i += 1  # attribute entries, block attributes, includes and conditions
            continue
        if stripped.startswith("image::"):
            flush()  # a block image: its alt text, if any
            alt = _IMAGE.sub(lambda m: m.group(1), stripped)
            if alt.strip():
                builder.block(clean_inline(alt))
            i += 1
            continue
        if stripped.startswith(".") and len(stripped) > 1 and stripped[1].isalnum():
            flush()  # a block title: ".Table 1. Spindle speeds"
            builder.block(clean_inline(inline(stripped[1:])))
            i += 1
            continue
        if not stripped or stripped == "+":
            flush()
        elif _LIST.match(line):
            flush()
            paragraph.append(_LIST.sub("- ", line).strip())
        elif (labelled := _LABELLED.match(stripped)) and not stripped.startswith("http"):
            flush()
            term, rest = labelled.group(1), labelled.group(3)
            paragraph.append(f"{term}: {rest}" if rest else f"{term}:")
        else:
            paragraph.append(stripped)
        i += 1
    flush()
    return builder, title


def _table(rows: list[str], builder: TextBuilder) -> None:
    """``|===`` table rows: cells start with ``|``; the first row is the header when a
    blank line follows it."""
    lines = [r.strip() for r in rows]
    cells_per_row: list[list[str]] = []
    header: list[str] = []
    current: list[str] = []
    first_block_end = next((k for k, r in enumerate(lines) if not r), None)
    for k, row in enumerate(lines):
        if not row:
            if current and not cells_per_row and not header and first_block_end == k:
                header, current = current, []
            continue
        for cell in re.split(r"(?<!\\)\|", row)[1:] if row.startswith("|") else [row]:
            current.append(inline(cell.strip()))
    width = len(header) or None
    if current:
        if width:
            cells_per_row = [current[j : j + width] for j in range(0, len(current), width)]
        else:
            cells_per_row = [current]
    builder.table(header, cells_per_row)
