"""protobuf ⇄ ragcore: every conversion the servicer needs, and nothing else.

Requests become ragcore values: zero or empty fields take the defaults the .proto states,
and a bad field raises ``InvalidField`` with its path in the request (INVALID_ARGUMENT
with a FieldViolation naming it). Results become messages; ragcore's vocabularies
(``ragcore.types``) become the .proto's enums, member for member (a vocabulary member
without its enum value fails at import, so the two cannot drift apart).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from enum import StrEnum
from pathlib import PurePosixPath
from typing import Any

from edge_server.errors import InvalidField
from edge_server.limits import (
    DEFAULT_K,
    DEFAULT_PAGE_SIZE,
    MAX_AUTHORITY,
    MIN_AUTHORITY,
    Limits,
)
from edge_server.v1 import ragcore_pb2 as pb
from ragcore import (
    Answer,
    Citation,
    Config,
    Document,
    DocumentRecord,
    Draft,
    Engine,
    Hit,
    IngestReport,
    Issue,
    KnowledgeBaseInfo,
    Perception,
    Plan,
    Retrieval,
    SearchFilters,
    StageEvent,
    Stats,
    TraceNode,
    ValidationReport,
    document_from_fields,
    load_bytes,
)
from ragcore.errors import InvalidQueryError
from ragcore.types import Action, AnswerStatus, Check, IngestStatus, IssueKind, Route, SearchMode


def _enum_map(vocabulary: type[StrEnum], enum, prefix: str) -> dict[str, Any]:
    """Each member of a ragcore vocabulary → the .proto enum's number (PREFIX_MEMBER).
    (Typed Any: the stubs type enum fields as the enum's wrapper, whose values are ints.)"""
    return {member: enum.Value(f"{prefix}_{member.name}") for member in vocabulary}


STATUS = _enum_map(AnswerStatus, pb.AnswerStatus, "ANSWER_STATUS")
ACTIONS = _enum_map(Action, pb.Action, "ACTION")
ROUTES = _enum_map(Route, pb.Route, "ROUTE")
CHECKS = _enum_map(Check, pb.Check, "CHECK")
ISSUE_KINDS = _enum_map(IssueKind, pb.IssueKind, "ISSUE_KIND")
INGEST_STATUSES = _enum_map(IngestStatus, pb.IngestStatus, "INGEST_STATUS")
SEARCH_MODES = _enum_map(SearchMode, pb.SearchMode, "SEARCH_MODE")
MODES = {number: SearchMode(member) for member, number in SEARCH_MODES.items()}
MODES[pb.SEARCH_MODE_UNSPECIFIED] = SearchMode.HYBRID
STORE_KIND = "sqlite-fts5+hnsw"
SHARED_STORE_KIND = "postgresql+pgvector"
# Table evidence cites a pseudo document "table:<name>" of this pseudo knowledge base.
TABLE_PREFIX, TABLES_KNOWLEDGE_BASE = "table:", "tables"


# -- requests ---------------------------------------------------------------------------
def number(value: int, field: str, low: int, high: int, default: int | None = None) -> int:
    """A request integer within [low, high]; 0 gives ``default`` when there is one."""
    if value == 0 and default is not None:
        return default
    if not low <= value <= high:
        zero = f"; 0 means {default}" if default is not None else ""
        raise InvalidField(field, f"{field} must be between {low} and {high}, got {value}{zero}")
    return value


def question(text: str, limits: Limits) -> str:
    """The question as asked; refused here (naming the field) if ragcore would refuse it."""
    length = len(text.strip())
    if length == 0:
        raise InvalidField(
            "question", "the question is empty; ask something, e.g. 'What is E4027?'"
        )
    if length > limits.max_question_chars:
        raise InvalidField(
            "question",
            f"the question has {length} characters, more than {limits.max_question_chars} "
            "(Limits.max_question_chars); shorten it or split it into several questions",
        )
    return text


def filters(message: pb.SearchFilters, field: str = "filters") -> SearchFilters:
    """The ragcore SearchFilters of a request's ``filters`` message."""
    authority = number(
        message.min_authority, f"{field}.min_authority", MIN_AUTHORITY, MAX_AUTHORITY, 0
    )
    after = _date(message.updated_after, f"{field}.updated_after")
    before = _date(message.updated_before, f"{field}.updated_before")
    try:
        return SearchFilters(
            knowledge_bases=tuple(message.knowledge_bases),
            doc_types=tuple(message.doc_types),
            updated_after=after,
            updated_before=before,
            min_authority=authority or None,
            exclude_superseded=message.exclude_superseded,
        )
    except InvalidQueryError as error:  # the dates the wrong way round
        raise InvalidField(f"{field}.updated_after", str(error)) from None


@dataclass(frozen=True)
class AskArgs:
    question: str
    filters: SearchFilters
    max_rounds: int | None
    include_trace: bool
    session: str | None = None
    """The conversation the question is a turn of (None: a question on its own)."""


def ask_request(request: pb.AskRequest, limits: Limits) -> AskArgs:
    rounds = number(request.max_rounds, "max_rounds", 1, limits.max_rounds, limits.max_rounds)
    return AskArgs(
        question=question(request.question, limits),
        filters=filters(request.filters),
        max_rounds=rounds,
        include_trace=request.include_trace,
        session=session(request),
    )


def session(request: pb.AskRequest) -> str | None:
    """The request's session id: its own, a new one (new_session), or None."""
    if request.new_session:
        if request.session_id:
            raise InvalidField("session_id", "give either session_id or new_session, not both")
        return Engine.new_session()
    return session_id(request.session_id) if request.session_id else None


def session_id(value: str, field: str = "session_id") -> str:
    try:
        return Engine.check_session_id(value)
    except InvalidQueryError as error:
        raise InvalidField(field, str(error)) from None


@dataclass(frozen=True)
class SearchArgs:
    query: str
    mode: SearchMode
    k: int
    filters: SearchFilters


def search_request(request: pb.SearchRequest, limits: Limits) -> SearchArgs:
    if request.mode not in MODES:
        raise InvalidField(
            "mode", f"mode {request.mode} is not a SearchMode: use VECTOR, KEYWORD or HYBRID"
        )
    if not request.query.strip():
        raise InvalidField("query", "the query is empty: give the words to search for")
    if len(request.query) > limits.max_query_chars:
        raise InvalidField(
            "query",
            f"the query has {len(request.query)} characters, more than "
            f"{limits.max_query_chars} (Limits.max_query_chars); shorten it",
        )
    return SearchArgs(
        query=request.query,
        mode=MODES[request.mode],
        k=number(request.k, "k", 1, limits.max_k, DEFAULT_K),
        filters=filters(request.filters),
    )


def list_documents_request(request: pb.ListDocumentsRequest, limits: Limits) -> dict:
    """ListDocumentsRequest → the keyword arguments of ``Engine.list_documents``."""
    since = None
    if request.updated_since:
        since = _instant(request.updated_since, "updated_since")
    return {
        "knowledge_base": request.knowledge_base or None,
        "updated_since": since,
        "page_size": number(
            request.page_size, "page_size", 1, limits.max_page_size, DEFAULT_PAGE_SIZE
        ),
        "page_token": request.page_token or None,
    }


def required(value: str, field: str, what: str) -> str:
    if not value:
        raise InvalidField(field, f"{field} is empty: give the {what}")
    return value


def _date(value: str, field: str) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise InvalidField(
            field, f"{field}={value!r} is not a date: use YYYY-MM-DD, e.g. 2024-03-31"
        ) from None


def _instant(value: str, field: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None or "T" not in value.upper():
        raise InvalidField(
            field,
            f"{field}={value!r} is not an instant: use RFC 3339 with its offset, e.g. "
            "2025-06-01T08:30:00Z",
        )
    return parsed.astimezone(UTC)


def document(message: pb.Document, index: int) -> Document:
    """The ragcore Document of the message at ``index`` (0-based) of an Ingest stream.
    Errors name it as people count, "document #1" for index 0."""
    fields = {
        "id": message.id,
        "title": message.title,
        "source": message.source,
        "doc_type": message.doc_type,
        "authority": message.authority or 3,
        "updated_at": message.updated_at,
        "version": message.version or 1,
        "supersedes": message.supersedes,
        "metadata": dict(message.metadata),
    }
    return document_from_fields(
        fields, message.text, origin(index, message.id), message.knowledge_base
    )


def origin(index: int, document_id: str) -> str:
    """How errors name the message at ``index`` of an Ingest stream."""
    return f"document #{index + 1} (id {document_id!r})"


def document_file(message: pb.DocumentFile, index: int) -> list[Document]:
    """The documents of the file in the message at ``index`` of an Ingest stream, read by
    ``ragcore.load_bytes`` (as the CLI reads files): an InvalidDocumentError naming the
    file if it cannot be read. (Its size was checked on arrival: max_message_bytes.)"""
    if not message.file_name:
        raise InvalidField(
            f"requests[{index}].file.file_name",
            f"file #{index + 1} has no file_name: give the file's name, e.g. manual.md",
        )
    # A path is allowed; only its last part counts (the .proto): a client's folders are
    # no part of a document's id.
    name = PurePosixPath(message.file_name.replace("\\", "/")).name
    return load_bytes(
        message.data,
        name,
        message.media_type or None,
        message.knowledge_base or None,
    )


# -- results ----------------------------------------------------------------------------
def answer(a: Answer, include_trace: bool = False) -> pb.Answer:
    t = a.timings
    return pb.Answer(
        question=a.question,
        status=STATUS[a.status],
        text=a.text,
        citations=[
            pb.Citation(
                number=c.number,
                chunk_id=c.chunk_id,
                document_id=c.document_id,
                title=c.title,
                knowledge_base=c.knowledge_base,
                updated_at=_day(c.updated_at),
                text=c.text,
                section=c.section,
                **_pages(c.pages),
                **_table_citation(a, c),
            )
            for c in a.citations
        ],
        report=report(a.report),
        perception=perception(a.perception),
        rounds=a.rounds,
        tasks=a.tasks,
        searches=a.searches,
        generator=a.generator,
        timings=pb.Timings(
            perception_ms=t["perception"],
            plan_ms=t["plan"],
            retrieval_ms=t["retrieval"],
            generation_ms=t["generation"],
            validation_ms=t["validation"],
            total_ms=t["total"],
        ),
        trace=trace(a.trace) if include_trace else None,
        rewritten_question=a.rewritten_question or "",
        cached=a.cached,
        session_id=a.session_id or "",
    )


def report(r: ValidationReport) -> pb.ValidationReport:
    return pb.ValidationReport(
        passed=r.passed,
        checks=[
            pb.CheckResult(
                check=CHECKS[c.name], passed=c.passed, checked=c.checked, issues=issues(c.issues)
            )
            for c in r.checks
        ],
        support=r.support,
    )


def issues(found: tuple[Issue, ...]) -> list[pb.Issue]:
    return [
        pb.Issue(
            check=CHECKS[i.check],
            kind=ISSUE_KINDS[i.kind],
            message=i.message,
            statement=i.statement or "",
            chunk_ids=i.chunk_ids,
            document_ids=i.document_ids,
            entity=i.entity or "",
            rule=i.rule,
        )
        for i in found
    ]


def perception(p: Perception) -> pb.Perception:
    c = p.constraints
    return pb.Perception(
        question=p.question,
        action=ACTIONS[p.action],
        route=ROUTES[p.route],
        entities=[pb.Entity(text=e.text, label=e.label) for e in p.entities],
        sides=p.sides,
        time_start=_day(c.time.start) if c.time else "",
        time_end=_day(c.time.end) if c.time else "",
        source=c.source or "",
        quantitative=c.quantitative,
        warnings=p.warnings,
    )


def trace(node: TraceNode) -> pb.TraceNode:
    return pb.TraceNode(
        name=node.name, ms=node.ms, detail=node.detail, children=[trace(c) for c in node.children]
    )


def event(e: StageEvent) -> pb.AskEvent:
    """The AskEvent of one completed stage."""
    message = pb.AskEvent(round=e.round, elapsed_ms=e.elapsed_ms)
    data = e.data  # each stage has its own type of data (see StageEvent)
    if isinstance(data, Perception):
        message.perception.CopyFrom(perception(data))
    elif isinstance(data, Plan):
        message.plan.CopyFrom(plan(data))
    elif isinstance(data, Retrieval):
        message.retrieval.CopyFrom(retrieval(data))
    elif isinstance(data, Draft):
        message.draft.CopyFrom(draft(data))
    elif isinstance(data, ValidationReport):
        message.validation.CopyFrom(report(data))
    elif isinstance(data, tuple):  # a retry: the issues that caused it
        message.retry.CopyFrom(pb.RetryEvent(issues=issues(data)))
    else:
        raise ValueError(f"unknown stage {e.stage!r}")
    return message


def result_event(a: Answer, include_trace: bool = False) -> pb.AskEvent:
    """AskStream's last event: the answer."""
    return pb.AskEvent(elapsed_ms=a.timings["total"], result=answer(a, include_trace))


def plan(p: Plan) -> pb.PlanEvent:
    return pb.PlanEvent(
        tasks=[
            pb.Task(
                id=t.id,
                query=t.query,
                mode=SEARCH_MODES[t.mode],
                k=t.k,
                weight=t.weight,
                reason=t.reason,
                knowledge_bases=t.filters.knowledge_bases,
            )
            for t in p.tasks
        ],
        reasons=p.reasons,
    )


def retrieval(r: Retrieval) -> pb.RetrievalEvent:
    return pb.RetrievalEvent(
        evidence=len(r.evidence),
        document_ids=[e.document.id for e in r.evidence],
        searches=sum(1 for result in r.results if result.searched),
    )


def draft(d: Draft) -> pb.DraftEvent:
    return pb.DraftEvent(text=d.text, abstained=d.abstained)


def hit(h: Hit, superseded_by: str | None = None) -> pb.SearchHit:
    """A SearchHit; ``superseded_by`` overrides the document's (as the caller may see it)."""
    return pb.SearchHit(
        chunk_id=h.chunk_id,
        document_id=h.document_id,
        title=h.document.title,
        knowledge_base=h.document.knowledge_base,
        text=h.text,
        score=h.score,
        scores=dict(h.scores),
        start=h.start,
        end=h.end,
        start_utf8=h.start_byte,
        end_utf8=h.end_byte,
        updated_at=_day(h.document.updated_at),
        superseded_by=(h.document.superseded_by if superseded_by is None else superseded_by) or "",
        section=h.section,
        **_pages(h.pages),
    )


def ingest_summary(r: IngestReport) -> pb.IngestSummary:
    return pb.IngestSummary(
        outcomes=[
            pb.DocumentOutcome(
                document_id=o.document_id, status=INGEST_STATUSES[o.status], chunks=o.chunks
            )
            for o in r.outcomes
        ],
        added=r.count(IngestStatus.ADDED),
        updated=r.count(IngestStatus.UPDATED),
        unchanged=r.count(IngestStatus.UNCHANGED),
        chunks=r.chunks,
        took_ms=r.seconds * 1000,
    )


def stored_document(d: DocumentRecord, supersedes: str | None = None) -> pb.StoredDocument:
    """A StoredDocument; ``supersedes`` overrides the record's (as the caller may see it)."""
    return pb.StoredDocument(
        id=d.id,
        knowledge_base=d.knowledge_base,
        title=d.title,
        source=d.source,
        doc_type=d.doc_type,
        authority=d.authority,
        updated_at=_day(d.updated_at),
        version=d.version,
        metadata=dict(d.metadata),
        supersedes=(d.supersedes if supersedes is None else supersedes) or "",
        superseded_by=d.superseded_by,
        chunk_count=d.chunk_count,
        checksum=d.checksum,
        ingested_at=instant(d.ingested_at),
    )


def knowledge_base(kb: KnowledgeBaseInfo) -> pb.KnowledgeBase:
    return pb.KnowledgeBase(name=kb.name, documents=kb.documents, chunks=kb.chunks)


def stats(s: Stats, *, scoped: bool, **server) -> pb.Stats:
    """Store figures from ``s``; the server's own (version, uptime, ...) by keyword. The
    file sizes are left out for a scoped caller: the files hold every knowledge base."""
    return pb.Stats(
        knowledge_bases=s.knowledge_bases,
        documents=s.documents,
        chunks=s.chunks,
        vectors=s.vectors,
        database_bytes=0 if scoped else s.database_bytes,
        index_bytes=0 if scoped else s.index_bytes,
        embedder=s.embedder,
        reranker=s.reranker,
        **server,
    )


def limits(lim: Limits) -> pb.Limits:
    return pb.Limits(
        max_question_chars=lim.max_question_chars,
        max_query_chars=lim.max_query_chars,
        max_document_chars=lim.max_document_chars,
        max_message_bytes=lim.max_message_bytes,
        max_rounds=lim.max_rounds,
        max_k=lim.max_k,
        max_page_size=lim.max_page_size,
        max_in_flight=lim.max_in_flight,
    )


def store_settings(config: Config) -> pb.StoreSettings | None:
    """A PostgreSQL store's pool and timeouts; None (unset) for the embedded store."""
    if config.store_url is None:
        return None
    s = config.store_settings
    return pb.StoreSettings(
        pool_size=s.pool_size,
        connect_timeout_seconds=s.connect_timeout,
        statement_timeout_seconds=s.statement_timeout,
        prepared_statements=s.prepared_statements,
    )


def instant(value: datetime | str) -> str:
    """An instant as the .proto writes it: RFC 3339, UTC, to the second."""
    when = datetime.fromisoformat(value) if isinstance(value, str) else value
    if when.tzinfo is None:  # ragcore stores UTC
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _table_citation(a: Answer, c: Citation) -> dict[str, Any]:
    """A table citation's table, rows and SQL (the SQL from the evidence it cites)."""
    if not c.document_id.startswith(TABLE_PREFIX) or c.knowledge_base != TABLES_KNOWLEDGE_BASE:
        return {}
    query = next((e.query for e in a.evidence if e.number == c.number), "")
    if not query:  # a stored document that happens to be named so
        return {}
    return {"table": c.document_id.removeprefix(TABLE_PREFIX), "rows": c.rows, "query": query}


def _pages(pages: tuple[int, int] | None) -> dict[str, Any]:
    """A page range as the .proto's first_page and last_page: both 0 when unknown."""
    return {} if pages is None else {"first_page": pages[0], "last_page": pages[1]}


def _day(value: date | None) -> str:
    return value.isoformat() if value else ""
