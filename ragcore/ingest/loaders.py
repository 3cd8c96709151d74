"""Reading documents from files: ``.txt``, ``.md`` (with front matter), ``.html``, ``.jsonl``.

Markdown front matter is a block of ``key: value`` lines between two ``---`` lines at
the top of the file. The keys ``id``, ``title``, ``knowledge_base``, ``source``,
``doc_type``, ``authority``, ``updated_at``, ``version`` and ``supersedes`` fill the
document's fields; any other key is kept as free-form metadata. HTML documents may carry
the same keys as ``<meta name="..." content="...">``. A ``.jsonl`` file holds one JSON
object per line, either with the same keys plus ``text``, or in the BEIR corpus layout
(``_id``, ``title``, ``text``, optional ``metadata``).

Every problem is an InvalidDocumentError naming the file (and line) and the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

from ragcore.documents import DEFAULT_KNOWLEDGE_BASE, FIELDS, Document, document_from_fields
from ragcore.errors import InvalidDocumentError

SUPPORTED_SUFFIXES = (".txt", ".md", ".markdown", ".html", ".htm", ".jsonl")
_SKIPPED_NAMES = frozenset({"readme.md", "readme.txt"})


def load_path(path: Path | str, knowledge_base: str | None = None) -> list[Document]:
    """Every document in a file, or in the supported files under a directory.

    A directory's README files are documentation, not documents, and are skipped.
    ``knowledge_base`` applies to documents that do not name their own.
    """
    path = Path(path)
    if path.is_dir():
        files = sorted(
            p
            for p in path.rglob("*")
            if p.is_file()
            and p.suffix.lower() in SUPPORTED_SUFFIXES
            and p.name.lower() not in _SKIPPED_NAMES
        )
        return [doc for file in files for doc in load_file(file, knowledge_base)]
    return load_file(path, knowledge_base)


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
        raise InvalidDocumentError(
            str(path),
            None,
            f"is not UTF-8 text ({exc.reason} at byte {exc.start}); convert it to UTF-8",
        ) from exc
    except OSError as exc:
        raise InvalidDocumentError(str(path), None, f"cannot be read: {exc.strerror}") from exc
    kb = knowledge_base or DEFAULT_KNOWLEDGE_BASE
    if suffix == ".jsonl":
        return list(_jsonl_documents(raw, str(path), kb))
    if suffix in (".md", ".markdown"):
        fields, body = _front_matter(raw, str(path))
    elif suffix in (".html", ".htm"):
        fields, body = _html(raw)
    else:
        fields, body = {}, raw
    fields.setdefault("id", path.stem)
    fields.setdefault("title", _first_line_title(body) or path.stem)
    return [document_from_fields(fields, body, str(path), kb)]


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
