"""The seam every format sits behind: a ``FormatLoader`` turns a file's bytes into
``Extracted`` documents (text, structure, the fields the file itself gives).

A loader never raises anything but ``InvalidDocumentError`` (naming the file): a foreign
library's error on malformed input is translated where it is caught, ``from exc``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ragcore.documents import PageSpan, Section
from ragcore.errors import InvalidDocumentError
from ragcore.types import SkipReason


@dataclass(frozen=True)
class Extracted:
    """One document read from a file, before it becomes a ``Document``.

    ``fields`` are what the file says about itself (front matter, ``<meta>`` tags, core
    properties, a JSON line); ``origin`` is where errors point (the file, or file:line).
    ``notes`` are things the reader should know but that do not stop the ingest (pages
    without a text layer).
    """

    text: str
    fields: Mapping[str, object] = field(default_factory=dict)
    sections: tuple[Section, ...] = ()
    pages: tuple[PageSpan, ...] = ()
    origin: str = ""
    notes: tuple[str, ...] = ()
    default_title: bool = True
    """Whether a document without a title takes its first line (or the file name)."""


class FormatLoader(Protocol):
    """Reads one file format (which files it takes is said once, in ``FORMATS``);
    ``load`` raises only ``InvalidDocumentError``."""

    def load(self, data: bytes, origin: str) -> Sequence[Extracted]: ...


# Control characters other than tab, line feed, form feed and carriage return: not text.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


class UndecodableError(InvalidDocumentError):
    """A text file whose bytes are not UTF-8, or that could not be read at all; a
    directory walk skips it with ``reason`` instead of stopping."""

    def __init__(self, source: str, reason: SkipReason, problem: str) -> None:
        self.reason = reason
        super().__init__(source, None, problem)


def decode_text(data: bytes, origin: str) -> str:
    """The text of a UTF-8 file (a byte-order mark dropped) or, when its bytes are not
    UTF-8, of a Windows-1252 (Latin-1) one: older manuals come in that encoding ("\xb1 5 %"),
    and converting them by hand is what ingest is there to spare. Bytes that are neither,
    or that decode to control characters (a binary file), are an ``UndecodableError``."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        utf8_problem = f"{exc.reason} at byte {exc.start}"
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        text = None
    if text is not None and not _CONTROL.search(text):
        return text
    raise UndecodableError(
        origin,
        SkipReason.NOT_UTF8,
        f"is not UTF-8 text ({utf8_problem}) nor Windows-1252/Latin-1 text; convert it to UTF-8",
    )
