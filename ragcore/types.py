"""The closed vocabularies of ragcore, as string enums.

Each member's value is the string used in rule files, JSON output and the gRPC contract,
so ``Route.COMPARISON == "comparison"`` and a member serialises as its value. A value
read from outside (a TOML rule, a CLI flag) becomes a member through ``Enum(value)`` or
``parse``, so a typo is an error instead of a string that silently never matches.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self


class _Vocabulary(StrEnum):
    @classmethod
    def values(cls) -> tuple[str, ...]:
        """Every value, in declaration order (for help texts and error messages)."""
        return tuple(m.value for m in cls)

    @classmethod
    def parse(cls, value: object) -> Self | None:
        """The member whose value is ``value``, or None if there is none."""
        if not isinstance(value, str):
            return None
        try:
            return cls(value)
        except ValueError:
            return None


class Action(_Vocabulary):
    """What a question asks the system to do."""

    COMPARE = "compare"
    EXPLAIN = "explain"
    HOW_TO = "how_to"
    LIST = "list"
    SUMMARIZE = "summarize"
    LOOKUP = "lookup"


class Route(_Vocabulary):
    """How a question is retrieved for."""

    DIRECT = "direct"
    """Nothing to look up (a greeting, thanks)."""
    SIMPLE = "simple"
    COMPARISON = "comparison"
    MULTI_HOP = "multi_hop"


class EntitySource(_Vocabulary):
    """What found an entity in the question."""

    PATTERN = "pattern"
    SPACY = "spacy"


class SearchMode(_Vocabulary):
    VECTOR = "vector"
    KEYWORD = "keyword"
    HYBRID = "hybrid"


class RetrievalMode(_Vocabulary):
    """How widely a plan retrieves (the strategy's ``[modes]``, chosen per rule)."""

    PRECISE = "precise"
    """A lookup: small k, evidence below a relevance floor dropped."""
    EXPLORE = "explore"
    """Comparisons, lists, summaries: larger k, a lower floor, evidence spread over
    documents. A retry for missing evidence widens a precise plan to explore."""


class Fusion(_Vocabulary):
    """How hybrid search fuses its keyword and vector results (``Config.fusion``)."""

    WEIGHTED = "weighted"
    """Weighted sum of each signal min-max normalised over the candidates."""
    ZSCORE = "zscore"
    """Weighted sum of each signal z-scored over the candidates, then scaled to 0–1."""
    RRF = "rrf"
    """Weighted reciprocal rank fusion: only the ranks count, not the scores."""


class TaskFusion(_Vocabulary):
    """How the strategy fuses the results of several retrieval tasks."""

    SCORE = "score"
    RRF = "rrf"


class TaskFilter(_Vocabulary):
    """Filters a strategy task takes from the question."""

    TIME = "time"
    SOURCE = "source"
    CURRENT = "current"
    SUPERSEDED = "superseded"
    """Only earlier revisions (documents a newer one supersedes)."""
    ABOUT = "about"
    """Only documents whose title or metadata names the task's side or entity."""
    IDENTIFIER = "identifier"
    """Only for a side or entity that is an identifier (a model or a code: "C207A0"), and
    its hits only when no document is about it (its title or metadata names it)."""


class ForEach(_Vocabulary):
    """What a strategy rule repeats its tasks for."""

    SIDE = "side"
    ENTITY = "entity"


class SkipReason(_Vocabulary):
    """Why ingesting a directory skipped a file (``IngestReport.skipped``)."""

    UNSUPPORTED_TYPE = "unsupported_type"
    """Not a type ragcore reads (.txt .md .html .jsonl .pdf .docx .odt)."""
    UNREADABLE = "unreadable"
    """The file could not be read (permissions, I/O error)."""
    NOT_UTF8 = "not_utf8"
    """Not UTF-8 text (a binary file, or another encoding)."""
    README = "readme"
    """A README is documentation of the folder, not a document."""
    INVALID = "invalid"
    """A supported file with unusable content, skipped because the caller asked to
    (``--skip-invalid``) instead of stopping the ingest."""


class StoreCheck(_Vocabulary):
    """The checks of ``Engine.check`` (``ragcore check``)."""

    SQLITE = "sqlite"
    KEYWORD_INDEX = "keyword_index"
    INDEX_FILE = "index_file"
    INDEX_STAMP = "index_stamp"
    INDEX_COUNT = "index_count"
    VECTORS = "vectors"


class IngestStatus(_Vocabulary):
    """What an ingest did with one document."""

    ADDED = "added"
    UPDATED = "updated"
    UNCHANGED = "unchanged"


class CancelReason(_Vocabulary):
    """Why work was stopped before it finished (``ragcore.errors.Cancelled.reason``)."""

    DEADLINE = "deadline"
    """The caller's deadline passed."""
    CLIENT = "client"
    """The caller went away or cancelled."""
    SHUTDOWN = "shutdown"
    """The process is shutting down and the grace period is over."""


class AnswerStatus(_Vocabulary):
    OK = "ok"
    UNCERTAIN = "uncertain"
    NO_ANSWER = "no_answer"


class Check(_Vocabulary):
    """The validator's checks."""

    TRACEABILITY = "traceability"
    TIMELINESS = "timeliness"
    CONSISTENCY = "consistency"


class IssueKind(_Vocabulary):
    """What a failed check found."""

    UNCITED = "uncited"
    INVALID_CITATION = "invalid_citation"
    UNSUPPORTED = "unsupported"
    UNSUPPORTED_NUMBER = "unsupported_number"
    NO_EVIDENCE = "no_evidence"
    ATTRIBUTE_NOT_FOUND = "attribute_not_found"
    """The evidence is about the subject but gives none of what was asked (its weight …)."""
    SUPERSEDED = "superseded"
    OUTSIDE_INTERVAL = "outside_interval"
    OUTRANKED = "outranked"
    MISSING_SIDE = "missing_side"
    UNSUPPORTED_RELATION = "unsupported_relation"
    UNSUPPORTED_CLAIM = "unsupported_claim"
    """One clause of a statement ("…, and it can only be cleared by …") is unsupported."""
    WRONG_ENTITY = "wrong_entity"
    """A figure the cited source gives for another entity than the statement's."""
    UNIT_MISMATCH = "unit_mismatch"
    """A cited number stated in a unit that is not the source's (nor a conversion)."""
    OFF_QUESTION = "off_question"
    """The answer addresses none of the attributes the question asks for."""


class Stage(_Vocabulary):
    """The timed stages of an ask (``Answer.timings`` has one entry each, plus total)."""

    PERCEPTION = "perception"
    PLAN = "plan"
    RETRIEVAL = "retrieval"
    GENERATION = "generation"
    VALIDATION = "validation"


class EventKind(_Vocabulary):
    """What a ``StageEvent`` reports: a stage has completed, or a retry starts."""

    PERCEPTION = "perception"
    PLAN = "plan"
    RETRIEVAL = "retrieval"
    ANSWER = "answer"
    VALIDATION = "validation"
    RETRY = "retry"


class GoldenKind(_Vocabulary):
    """The kinds of question in a golden set (``ragcore eval --golden``)."""

    SIMPLE = "simple"
    COMPARISON = "comparison"
    TIME = "time"
    TRAP = "trap"
    AMBIGUOUS = "ambiguous"
    NO_ANSWER = "no_answer"
    # Questions answered from tables (``benchmarks/tables_golden.jsonl``).
    RANKING = "ranking"
    TOTAL = "total"
    PER_DIMENSION = "per_dimension"
    TIME_WINDOW = "time_window"
    DERIVED = "derived"
    MIXED = "mixed"
    UNEXPRESSIBLE = "unexpressible"
    # Kinds the table sets written in the words of their authors use.
    AGGREGATE = "aggregate"
    FILTER = "filter"
    UNKNOWN_VALUE = "unknown_value"
    UNANSWERABLE = "unanswerable"


__all__ = [
    "Action",
    "AnswerStatus",
    "Check",
    "EntitySource",
    "EventKind",
    "ForEach",
    "Fusion",
    "GoldenKind",
    "IngestStatus",
    "IssueKind",
    "RetrievalMode",
    "Route",
    "SearchMode",
    "SkipReason",
    "Stage",
    "StoreCheck",
    "TaskFilter",
    "TaskFusion",
]
