"""Reading documents from files: ``.txt``, ``.md`` (with front matter), ``.html``, ``.jsonl``.

Markdown front matter is a block of ``key: value`` lines between two ``---`` lines at
the top of the file. The keys ``id``, ``title``, ``knowledge_base``, ``source``,
``doc_type``, ``authority``, ``updated_at``, ``version`` and ``supersedes`` fill the
document's fields; any other key is kept as free-form metadata. HTML documents may carry
the same keys as ``<meta name="..." content="...">``. A ``.jsonl`` file holds one JSON
object per line, either with the same keys plus ``text``, or in the BEIR corpus layout
(``_id``, ``title``, ``text``, optional ``metadata``).

Every problem is an InvalidDocumentError naming the file (and line) and the field.
A file given by name must be readable and supported; walking a directory, files that
cannot be documents (another type, unreadable, not UTF-8 text, a README) are skipped
and listed with the reason (``Loaded.skipped``), while a supported file with bad content
is still an error, so nothing is written.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from ragcore.documents import DEFAULT_KNOWLEDGE_BASE, FIELDS, Document, document_from_fields
from ragcore.errors import InvalidDocumentError
from ragcore.types import SkipReason

SUPPORTED_SUFFIXES = (".txt", ".md", ".markdown", ".html", ".htm", ".jsonl")
_SKIPPED_NAMES = frozenset({"readme.md", "readme.txt"})


@dataclass(frozen=True)
class SkippedFile:
    """A file under an ingested directory that was not read, and why."""

    path: str
    reason: SkipReason
    detail: str


@dataclass(frozen=True)
class Loaded:
    """The documents found under a path, and the files skipped on the way."""

    documents: tuple[Document, ...]
    skipped: tuple[SkippedFile, ...] = ()


def load_path(path: Path | str, knowledge_base: str | None = None) -> list[Document]:
    """Every document in a file, or in the supported files under a directory.

    A directory's README files are documentation, not documents, and are skipped.
    ``knowledge_base`` applies to documents that do not name their own. ``load_files``
    also says which files were skipped and why.
    """
    return list(load_files(path, knowledge_base).documents)


def load_files(path: Path | str, knowledge_base: str | None = None) -> Loaded:
    """``load_path``, with the files a directory walk skipped (see the module docstring)."""
    path = Path(path)
    if not path.is_dir():
        return Loaded(tuple(load_file(path, knowledge_base)))
    documents: list[Document] = []
    skipped: list[SkippedFile] = []
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        reason = _skip_reason(file)
        if reason is not None:
            skipped.append(SkippedFile(str(file), *reason))
            continue
        try:
            documents += load_file(file, knowledge_base)
        except _Unreadable as exc:
            skipped.append(SkippedFile(str(file), exc.reason, exc.problem))
    return Loaded(tuple(documents), tuple(skipped))


def _skip_reason(file: Path) -> tuple[SkipReason, str] | None:
    suffix = file.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        return (
            SkipReason.UNSUPPORTED_TYPE,
            f"{suffix or 'no extension'} is not a type ragcore reads",
        )
    if file.name.lower() in _SKIPPED_NAMES:
        return SkipReason.README, "a README documents the folder; it is not a document"
    return None


class _Unreadable(InvalidDocumentError):
    """A file whose bytes cannot be read as text (skipped in a directory walk)."""

    def __init__(self, source: str, reason: SkipReason, problem: str) -> None:
        self.reason = reason
        super().__init__(source, None, problem)


def load_file(path: Path, knowledge_base: str | None = None) -> list[Document]:
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise InvalidDocumentError(
            str(path),
            None,
            f"unsupported file type {suffix or '(none)'}; "
            f"use one of {', '.join(SUPPORTED_SUFFIXES)}",
        )
    try:
        raw = path.read_text("utf-8")
    except UnicodeDecodeError as exc:
        raise _Unreadable(
            str(path),
            SkipReason.NOT_UTF8,
            f"is not UTF-8 text ({exc.reason} at byte {exc.start}); convert it to UTF-8",
        ) from exc
    except OSError as exc:
        raise _Unreadable(
            str(path), SkipReason.UNREADABLE, f"cannot be read: {exc.strerror}"
        ) from exc
    return documents_from_text(raw, suffix, path.stem, str(path), knowledge_base)


def documents_from_text(
    raw: str, suffix: str, stem: str, origin: str, knowledge_base: str | None = None
) -> list[Document]:
    """The documents in a file's text, read as its ``suffix`` says (one of
    ``SUPPORTED_SUFFIXES``); ``stem`` (the file name without extension) is the id and
    title of a document that names neither, and errors name ``origin``."""
    kb = knowledge_base or DEFAULT_KNOWLEDGE_BASE
    if suffix == ".jsonl":
        return list(_jsonl_documents(raw, origin, kb))
    if suffix in (".md", ".markdown"):
        fields, body = _front_matter(raw, origin)
    elif suffix in (".html", ".htm"):
        fields, body = _html(raw)
    else:
        fields, body = {}, raw
    fields.setdefault("id", stem)
    fields.setdefault("title", _first_line_title(body) or stem)
    return [document_from_fields(fields, body, origin, kb)]


def _first_line_title(body: str) -> str:
    for line in body.splitlines():
        line = line.strip().lstrip("#").strip()
        if line:
            return line if len(line) <= 120 else ""
    return ""


def _front_matter(raw: str, origin: str) -> tuple[dict[str, object], str]:
    lines = raw.lstrip("\ufeff").splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        return {}, raw
    fields: dict[str, object] = {}
    for number, line in enumerate(lines[1:], start=2):
        if line.strip() == "---":
            return fields, "".join(lines[number:])
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if not sep or not key.strip() or " " in key.strip():
            raise InvalidDocumentError(
                f"{origin}:{number}",
                None,
                f"front matter line {line.strip()!r} is not 'key: value'",
            )
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        fields[key.strip()] = value
    raise InvalidDocumentError(origin, None, "front matter opened with '---' is never closed")


class _HtmlText(HTMLParser):
    _BLOCKS = frozenset(
        [
            "p",
            "div",
            "br",
            "li",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "tr",
            "section",
            "article",
            "header",
            "footer",
            "table",
            "ul",
            "ol",
            "pre",
            "blockquote",
        ]
    )
    _HIDDEN = frozenset({"script", "style", "noscript", "template", "head"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title = ""
        self.meta: dict[str, object] = {}
        self._hidden = 0
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        if tag == "title":
            self._in_title = True
        elif tag == "meta":
            attributes = dict(attrs)
            name = (attributes.get("name") or "").removeprefix("ragcore:")
            if name in FIELDS and attributes.get("content") is not None:
                self.meta[name] = attributes["content"]
        if tag in self._HIDDEN:
            self._hidden += 1
        if tag in self._BLOCKS:
            self.parts.append("\n\n")

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False
        if tag in self._HIDDEN and self._hidden:
            self._hidden -= 1
        if tag in self._BLOCKS:
            self.parts.append("\n\n")

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        elif not self._hidden:
            self.parts.append(data)


def _html(raw: str) -> tuple[dict[str, object], str]:
    parser = _HtmlText()
    parser.feed(raw)
    parser.close()
    paragraphs = (" ".join(p.split()) for p in "".join(parser.parts).split("\n\n"))
    fields = dict(parser.meta)
    if parser.title.strip():
        fields.setdefault("title", " ".join(parser.title.split()))
    return fields, "\n\n".join(p for p in paragraphs if p)


def _jsonl_documents(raw: str, origin: str, knowledge_base: str) -> Iterator[Document]:
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{origin}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidDocumentError(where, None, f"is not valid JSON ({exc.msg})") from exc
        if not isinstance(record, dict):
            raise InvalidDocumentError(where, None, "must be a JSON object")
        if "_id" in record:  # BEIR corpus layout
            record = {**record, "id": record.pop("_id")}
        if "id" not in record:
            raise InvalidDocumentError(where, "id", "is missing")
        if not isinstance(record.get("metadata", {}), dict):
            raise InvalidDocumentError(where, "metadata", "must be a JSON object")
        yield document_from_fields(record, record.get("text"), where, knowledge_base)
