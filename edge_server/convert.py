"""protobuf ⇄ ragcore: every conversion the servicer needs, and nothing else.

Requests become ragcore values (bad fields raise ragcore's ``InvalidInputError``
subclasses, which the status table turns into INVALID_ARGUMENT); results become
messages. Zero or empty request fields take the defaults the .proto states.
"""

from __future__ import annotations

from datetime import date

from edge_server.v1 import ragcore_pb2 as pb
from ragcore import (
    Answer,
    Document,
    Draft,
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
)
from ragcore.errors import InvalidQueryError
from ragcore.types import AnswerStatus, IngestStatus, SearchMode

STATUS = {
    AnswerStatus.OK: pb.ANSWER_STATUS_OK,
    AnswerStatus.UNCERTAIN: pb.ANSWER_STATUS_UNCERTAIN,
    AnswerStatus.NO_ANSWER: pb.ANSWER_STATUS_NO_ANSWER,
}
MODES = {
    pb.SEARCH_MODE_UNSPECIFIED: SearchMode.HYBRID,
    pb.SEARCH_MODE_VECTOR: SearchMode.VECTOR,
    pb.SEARCH_MODE_KEYWORD: SearchMode.KEYWORD,
    pb.SEARCH_MODE_HYBRID: SearchMode.HYBRID,
}
DEFAULT_K = 10
MAX_K = 100


# -- requests ---------------------------------------------------------------------------
def search_request(request: pb.SearchRequest) -> tuple[str, str, int, SearchFilters]:
    """(query, mode, k, filters) of a SearchRequest."""
    if request.mode not in MODES:
        raise InvalidQueryError(
            f"mode {request.mode} is not a SearchMode: use VECTOR, KEYWORD or HYBRID"
        )
    k = request.k or DEFAULT_K
    if k > MAX_K:
        raise InvalidQueryError(f"k={k} is over the limit of {MAX_K}: ask for fewer hits")
    filters = SearchFilters(
        knowledge_bases=tuple(request.knowledge_bases),
        doc_types=tuple(request.doc_types),
        updated_after=_query_date(request.updated_after, "updated_after"),
        updated_before=_query_date(request.updated_before, "updated_before"),
        min_authority=request.min_authority or None,
        exclude_superseded=request.exclude_superseded,
    )
    return request.query, MODES[request.mode], k, filters


def _query_date(value: str, name: str) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise InvalidQueryError(
            f"{name}={value!r} is not a date: use YYYY-MM-DD, e.g. 2024-03-31"
        ) from None


def document(message: pb.Document, number: int) -> Document:
    """The ragcore Document of the ``number``-th (1-based) message of an Ingest stream."""
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
    where = f"document #{number} (id {message.id!r})"
    return document_from_fields(fields, message.text, where, message.knowledge_base)


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
                updated_at=_date(c.updated_at),
                text=c.text,
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
    )


def report(r: ValidationReport) -> pb.ValidationReport:
    return pb.ValidationReport(
        passed=r.passed,
        checks=[
            pb.CheckResult(name=c.name, passed=c.passed, checked=c.checked, issues=issues(c.issues))
            for c in r.checks
        ],
        support=r.support,
    )


def issues(found: tuple[Issue, ...]) -> list[pb.Issue]:
    return [
        pb.Issue(
            check=i.check,
            kind=i.kind,
            message=i.message,
            statement=i.statement or "",
            chunk_ids=i.chunk_ids,
            document_ids=i.document_ids,
            entity=i.entity or "",
        )
        for i in found
    ]


def perception(p: Perception) -> pb.Perception:
    c = p.constraints
    return pb.Perception(
        action=p.action,
        route=p.route,
        entities=[pb.Entity(text=e.text, label=e.label) for e in p.entities],
        sides=p.sides,
        time_start=_date(c.time.start) if c.time else "",
        time_end=_date(c.time.end) if c.time else "",
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
        message.answer.CopyFrom(draft(data))
    elif isinstance(data, ValidationReport):
        message.validation.CopyFrom(report(data))
    elif isinstance(data, tuple):  # a retry: the issues that caused it
        message.retry.CopyFrom(pb.RetryEvent(issues=issues(data)))
    else:
        raise ValueError(f"unknown stage {e.stage!r}")
    return message


def plan(p: Plan) -> pb.PlanEvent:
    return pb.PlanEvent(
        tasks=[
            pb.Task(
                id=t.id,
                query=t.query,
                mode=t.mode,
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


def hit(h: Hit) -> pb.SearchHit:
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
        updated_at=_date(h.document.updated_at),
        superseded_by=h.document.superseded_by or "",
    )


def ingest_summary(r: IngestReport) -> pb.IngestSummary:
    return pb.IngestSummary(
        outcomes=[
            pb.DocumentOutcome(document_id=o.document_id, status=o.status, chunks=o.chunks)
            for o in r.outcomes
        ],
        added=r.count(IngestStatus.ADDED),
        updated=r.count(IngestStatus.UPDATED),
        unchanged=r.count(IngestStatus.UNCHANGED),
        chunks=r.chunks,
        took_ms=r.seconds * 1000,
    )


def knowledge_base(kb: KnowledgeBaseInfo) -> pb.KnowledgeBase:
    return pb.KnowledgeBase(name=kb.name, documents=kb.documents, chunks=kb.chunks)


def stats(s: Stats, **server) -> pb.Stats:
    """Store figures from ``s``; the server's own (version, uptime, ...) by keyword."""
    return pb.Stats(
        knowledge_bases=s.knowledge_bases,
        documents=s.documents,
        chunks=s.chunks,
        vectors=s.vectors,
        database_bytes=s.database_bytes,
        index_bytes=s.index_bytes,
        embedder=s.embedder,
        reranker=s.reranker,
        **server,
    )


def _date(value: date | None) -> str:
    return value.isoformat() if value else ""
