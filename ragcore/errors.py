"""Every error ragcore raises on purpose.

Foreign errors (sqlite3, onnxruntime, hnswlib, OS) are translated where they cross
into ragcore, with ``raise ... from exc``, so callers only ever need these::

    RagcoreError                   base of everything below
    ├── ConfigError                a configuration value is wrong (names field, value, fix)
    ├── ModelError                 a model cannot be used
    │   ├── ModelNotFoundError     not installed / path does not exist (says how to install)
    │   └── ModelMismatchError     file present but its sha256 differs from the pin
    ├── InvalidInputError          bad input from the caller; nothing was changed
    │   ├── InvalidDocumentError   a document (or file) is unusable (names file and field)
    │   │   └── InvalidDocumentsError  several files are: every one listed, in one error
    │   └── InvalidQueryError      a search query or filter is unusable
    ├── NotFoundError              something asked for by name does not exist
    │   ├── DocumentNotFoundError  (also: a document outside the caller's scope)
    │   └── KnowledgeBaseNotFoundError
    ├── ScopeError                 a knowledge base outside the caller's scope was named
    ├── StoreError                 the data directory is unusable (locked, damaged, newer schema)
    │   └── StoreUnavailableError  a shared database cannot be reached now: retry later
    ├── Cancelled                  work was stopped: deadline, caller gone or shutdown (``reason``)
    └── GenerationError            the answer generator failed (LLM endpoint down, slow, malformed)

Messages say what was wrong and what to do about it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ragcore.types import CancelReason

QUOTE_CHARS = 80
"""At most this many characters of a caller's value are quoted in an error message."""


def quoted(value: object, limit: int = QUOTE_CHARS) -> str:
    """``value`` as an error message quotes it: its ``repr``, cut to ``limit`` characters
    of the value with "…" and its length when longer (a 6,000-character id must not make
    a 6,000-character message)."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}… ({len(value):,} characters)"
    shown = repr(value)
    return shown if len(shown) <= limit + 2 else f"{shown[:limit]}… ({len(shown):,} characters)"


def quoted_names(names: Iterable[str], most: int = 5) -> str:
    """Names a caller gave, each ``quoted``, sorted, at most ``most`` of them ("… and 7
    more")."""
    ordered = sorted(names)
    shown = ", ".join(quoted(n) for n in ordered[:most])
    return shown + (f" and {len(ordered) - most} more" if len(ordered) > most else "")


class RagcoreError(Exception):
    """Base class of every error raised by ragcore."""


class ConfigError(RagcoreError, ValueError):
    """A configuration value is invalid."""

    def __init__(self, field: str, value: object, fix: str) -> None:
        self.field = field
        self.value = value
        super().__init__(f"invalid config {field}={value!r}: {fix}")


class ModelError(RagcoreError):
    """A model file cannot be loaded or used."""


class ModelNotFoundError(ModelError):
    """The model is not installed where ragcore looks for it."""


class ModelMismatchError(ModelError):
    """The model file exists but is not the pinned file."""


class InvalidInputError(RagcoreError, ValueError):
    """The caller gave input ragcore cannot use; stored data is unchanged."""


class InvalidDocumentError(InvalidInputError):
    """A document cannot be ingested.

    ``source`` is the file (or object description) and ``field`` the offending field,
    or ``None`` when the problem is with the whole document.
    """

    def __init__(self, source: str, field: str | None, problem: str) -> None:
        self.source = source
        self.field = field
        self.problem = problem
        where = f"{source}: field '{field}'" if field else source
        super().__init__(f"{where}: {problem}")


class InvalidDocumentsError(InvalidDocumentError):
    """Several files of one ingest are unusable; ``problems`` has each one's error, and
    the message lists them all (path, what is wrong, what to do)."""

    def __init__(self, problems: Sequence[InvalidDocumentError]) -> None:
        self.problems = tuple(problems)
        listed = "\n".join(f"  {problem}" for problem in self.problems)
        super().__init__(
            f"{len(self.problems)} files",
            None,
            f"cannot be ingested, so nothing was written:\n{listed}\nfix them, or skip them "
            "(ragcore ingest --skip-invalid, or skip_invalid=True) to ingest the rest",
        )


class InvalidQueryError(InvalidInputError):
    """A search query or one of its filters is unusable."""


class NotFoundError(RagcoreError, LookupError):
    """A named object does not exist."""


class DocumentNotFoundError(NotFoundError):
    """No document has the given id."""


class KnowledgeBaseNotFoundError(NotFoundError):
    """No knowledge base has the given name."""


class ScopeError(RagcoreError):
    """A caller limited to some knowledge bases reached outside them.

    The message reads the same whether or not the knowledge base it names exists, so a
    scoped caller learns nothing about the others. A *document* outside the scope is a
    ``DocumentNotFoundError`` with the text of a missing one, for the same reason.
    """


class StoreError(RagcoreError):
    """The data directory cannot be used as it is (locked, damaged, written by a newer
    ragcore); the message says what and what to do (``ragcore check``, restore a backup)."""


class StoreUnavailableError(StoreError):
    """A shared store's database (PostgreSQL) cannot be reached now, or is too busy to
    answer within the statement timeout. Nothing is wrong with the data: the same call
    can succeed once it is back (the store keeps probing it)."""


class Cancelled(RagcoreError):
    """Work was stopped before it finished (``ragcore.cancel``): ``reason`` says why (a
    ``CancelReason``) and ``stage`` where. An ingest keeps the groups of documents it had
    committed (sending them again skips them) and drops the rest."""

    def __init__(self, reason: CancelReason, stage: str = "") -> None:
        self.reason = reason
        self.stage = stage
        why = {
            "deadline": "the deadline passed",
            "client": "the caller cancelled or went away",
            "shutdown": "the server is shutting down",
        }.get(str(reason), str(reason))
        where = f" ({stage})" if stage else ""
        super().__init__(
            f"the work was stopped{where}: {why}; what was committed before is kept and "
            "the rest dropped: try again (with more time, or on another server)"
        )


class GenerationError(RagcoreError):
    """The generator could not produce an answer (e.g. the LLM endpoint failed)."""
