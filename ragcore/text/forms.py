"""What form a sentence of a document has: a statement, or a line that states nothing
on its own — a heading or title line, a command's synopsis — or a unit of a table or a
list that answers only whole: a row read as its labelled cells, a list item.

Ingest writes each table row as a block of ``Column: value; …`` cells, each heading and
each list or definition item as a block of its own (``ingest.formats.structure``, the
PDF reader's tables and definition lists); a sentence's form is read from that: its
text and whether a block starts after it. Generation reads it: a heading names the
place of the sentences under it and is never an answer on its own, nor is a synopsis
("hy_vfd [OPTIONS]"); a row is cited as one unit, its cells with its name.
"""

from __future__ import annotations

import re
from enum import StrEnum

from ragcore.text.lexicon import pattern


class Form(StrEnum):
    """The form of one sentence of a document."""

    STATEMENT = "statement"  # prose that says something: "The ODrive only supports NTC."
    HEADING = "heading"  # a title line: "Use the correct CAN baud rate", "## Setup"
    ROW = "row"  # a table row as labelled cells: "Name: moteus-c1; Abs Max Voltage: 51V"
    ITEM = "item"  # a list or definition item: "- 512 MB or more of RAM", "-g, --debug: …"
    SYNOPSIS = "synopsis"  # a command's grammar: "hy_vfd [OPTIONS]"

    @property
    def answers_alone(self) -> bool:
        """Whether a sentence of this form can be an answer by itself."""
        return self not in (Form.HEADING, Form.SYNOPSIS)


# A heading line is short: "Setting up a Raspberry Pi for CAN Communications".
TITLE_WORDS = 8
_MARKED_HEADING = re.compile(r"^\s*#")
_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)]|[−–-]{1,2}[A-Za-z?])\s*")
_CELL = re.compile(r"^[^:;]{1,40}: \S")
_ROW_CELLS = 2


def form_of(text: str, after: str = "") -> Form:
    """The form of the sentence ``text`` (as written in its chunk), ``after`` being the
    text that follows it there (a blank line after it: a block of its own)."""
    if _MARKED_HEADING.match(text) and text.lstrip("#. \t"):
        return Form.HEADING
    line = " ".join(text.split())
    if not line:
        return Form.STATEMENT
    cells = line.rstrip(".").split("; ")
    if len(cells) >= _ROW_CELLS and all(_CELL.match(c) for c in cells):
        return Form.ROW
    if _ITEM.match(line):
        return Form.ITEM
    if pattern("lexicon", "synopsis").match(line):
        return Form.SYNOPSIS
    if _title_line(line, after):
        return Form.HEADING
    return Form.STATEMENT


def _title_line(line: str, after: str) -> bool:
    """A line that reads as a heading: a few words without closing punctuation, a blank
    line after it ("Use the correct CAN baud rate", "Example Configuration"); not a data
    line ("Speed: 250 kbps; value: 250000")."""
    return (
        after.startswith("\n\n")
        and line[-1] not in ".!?:;,)]"
        and ";" not in line
        and ": " not in line
        and len(line.split()) <= TITLE_WORDS
    )
