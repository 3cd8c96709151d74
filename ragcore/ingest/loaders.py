"""Reading documents from files and folders.

The formats themselves are read by ``ragcore.ingest.formats`` (``.txt``, ``.md`` with
YAML front matter, ``.html``, ``.jsonl``, ``.pdf``, ``.docx``, ``.odt``); this module
walks folders. Markdown front matter, HTML ``<meta>`` tags and JSONL fields may set
``id``, ``title``, ``knowledge_base``, ``source``, ``doc_type``, ``authority``,
``updated_at``, ``version`` and ``supersedes``; any other key is kept as free-form
metadata (lists and nested keys as JSON).

**Ids.** A document without an ``id`` of its own takes one from its path relative to
the ingested folder (``formats.ids.id_from_path``: ``Pumps/Seal & Bearing.pdf`` is
``pumps/seal-bearing``); a file named on its own, from its name. Two files that would
get the same id are refused, naming both.

**Every problem at once.** Walking a folder reads every file before anything is
written. Files that cannot be documents — another type, unreadable, text neither UTF-8
nor Windows-1252 — are skipped and listed with the reason (``Loaded.skipped``); the README
at the top of the folder documents the folder and is skipped too (one in a subfolder is
read: it is often the manual of what that folder holds). Supported files with bad content
are all reported in one ``InvalidDocumentsError`` (one ``InvalidDocumentError`` when
there is one), each naming the file and what to do, unless ``skip_invalid``: then they
are skipped with the reason ``invalid`` and the rest is loaded. A file named on its own
must be readable and valid.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ragcore.documents import Document
from ragcore.errors import InvalidDocumentError, InvalidDocumentsError
from ragcore.ingest.formats import SUPPORTED_SUFFIXES, LoadedFile, load_file_bytes
from ragcore.ingest.formats.base import UndecodableError
from ragcore.types import SkipReason

__all__ = [
    "SUPPORTED_SUFFIXES",
    "FileNote",
    "Loaded",
    "ReadProgress",
    "SkippedFile",
    "load_file",
    "load_files",
    "load_path",
]


@dataclass(frozen=True)
class SkippedFile:
    """A file under an ingested directory that was not read, and why."""

    path: str
    reason: SkipReason
    detail: str


@dataclass(frozen=True)
class FileNote:
    """Something about a file that did not stop it from being ingested (a PDF's pages
    without a text layer)."""

    path: str
    detail: str


@dataclass(frozen=True)
class Loaded:
    """The documents found under a path, and the files skipped on the way."""

    documents: tuple[Document, ...]
    skipped: tuple[SkippedFile, ...] = ()
    notes: tuple[FileNote, ...] = ()
    pages: int = 0
    """Pages read (PDF), for progress and benchmarks."""


@dataclass(frozen=True)
class ReadProgress:
    files_done: int
    files_total: int
    pages: int
    seconds: float


ReadCallback = Callable[[ReadProgress], None]


def load_path(path: Path | str, knowledge_base: str | None = None) -> list[Document]:
    """Every document in a file, or in the supported files under a directory.

    A directory's README files are documentation, not documents, and are skipped.
    ``knowledge_base`` applies to documents that do not name their own. ``load_files``
    also says which files were skipped and why.
    """
    return list(load_files(path, knowledge_base).documents)


def load_files(
    path: Path | str,
    knowledge_base: str | None = None,
    *,
    skip_invalid: bool = False,
    progress: ReadCallback | None = None,
) -> Loaded:
    """``load_path``, with the files a directory walk skipped (see the module docstring)."""
    started = time.perf_counter()
    path = Path(path)
    if not path.is_dir():
        found = _read(path, path.name, knowledge_base)
        return Loaded(
            found.documents, (), tuple(_notes(path, found.notes)), _pages(found.documents)
        )
    files = sorted(p for p in path.rglob("*") if p.is_file())
    documents: list[Document] = []
    skipped: list[SkippedFile] = []
    notes: list[FileNote] = []
    problems: list[InvalidDocumentError] = []
    owners: dict[str, str] = {}
    pages = 0
    for done, file in enumerate(files):
        if progress is not None:  # before each file: a long PDF shows which file is next
            progress(ReadProgress(done, len(files), pages, time.perf_counter() - started))
        reason = _skip_reason(file, top=file.parent == path)
        if reason is not None:
            skipped.append(SkippedFile(str(file), *reason))
            continue
        try:
            found = _read(file, file.relative_to(path).as_posix(), knowledge_base)
        except UndecodableError as exc:
            skipped.append(SkippedFile(str(file), exc.reason, exc.problem))
            continue
        except InvalidDocumentError as exc:
            problems.append(exc)
            continue
        clash = next((d for d in found.documents if d.id in owners), None)
        if clash is not None:
            problems.append(
                InvalidDocumentError(
                    str(file),
                    "id",
                    f"{clash.id!r} is also the id of {owners[clash.id]}: give one of them "
                    "an id of its own (front matter 'id:') or rename it",
                )
            )
            continue
        owners.update((d.id, str(file)) for d in found.documents)
        documents += found.documents
        notes += _notes(file, found.notes)
        pages += _pages(found.documents)
    if progress is not None:
        progress(ReadProgress(len(files), len(files), pages, time.perf_counter() - started))
    if problems and not skip_invalid:
        raise problems[0] if len(problems) == 1 else InvalidDocumentsError(problems)
    skipped += [
        SkippedFile(
            p.source.rsplit(":", 1)[0] if _has_line(p.source) else p.source,
            SkipReason.INVALID,
            str(p).removeprefix(f"{p.source}: "),
        )
        for p in problems
    ]
    return Loaded(tuple(documents), tuple(skipped), tuple(notes), pages)


def load_file(path: Path, knowledge_base: str | None = None) -> list[Document]:
    """The documents of one file (its id from its name); any problem is an error."""
    return list(_read(Path(path), Path(path).name, knowledge_base).documents)


def _read(file: Path, name: str, knowledge_base: str | None) -> LoadedFile:
    suffix = file.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise InvalidDocumentError(
            str(file),
            None,
            f"unsupported file type {suffix or '(none)'}; "
            f"use one of {', '.join(SUPPORTED_SUFFIXES)}",
        )
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise UndecodableError(
            str(file), SkipReason.UNREADABLE, f"cannot be read: {exc.strerror}"
        ) from exc
    return load_file_bytes(data, name, None, knowledge_base, origin=str(file))


def _skip_reason(file: Path, *, top: bool) -> tuple[SkipReason, str] | None:
    suffix = file.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        return (
            SkipReason.UNSUPPORTED_TYPE,
            f"{suffix or 'no extension'} is not a type ragcore reads",
        )
    # The README at the top describes the collection; one inside it is often the very
    # manual of the product its folder holds (a driver's README.md), so it is read.
    if top and file.stem.lower() == "readme":
        return SkipReason.README, "a README documents the folder; it is not a document"
    return None


def _has_line(source: str) -> bool:
    head, _, tail = source.rpartition(":")
    return bool(head) and tail.isdigit()


def _notes(file: Path, notes: tuple[str, ...]) -> list[FileNote]:
    return [FileNote(str(file), note) for note in notes]


def _pages(documents: tuple[Document, ...]) -> int:
    return sum(len(d.pages) for d in documents)
