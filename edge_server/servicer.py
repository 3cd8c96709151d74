"""The Ragcore servicer: protobuf in, the Engine, protobuf out.

No error handling here: ragcore's errors propagate to ``interceptors.Guards``, which
ends the rpc with the status from ``edge_server.errors``. What the servicer adds: the
caller's scope, passed to every Engine call (a scoped token's rpcs run as if the other
knowledge bases did not exist), and stopping work whose client has gone, whose deadline
has passed or whose server is shutting down: Ask, AskStream and Ingest run with a
cancellation token (``edge_server.cancelling``) checked at every stage of an answer and
after every model batch of an ingest.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import replace

from edge_server import convert, tables
from edge_server.auth import Access
from edge_server.cancelling import InFlight
from edge_server.errors import DeadlinePassed, InvalidField, InvalidIngestDocument
from edge_server.interceptors import Admission, CallContext
from edge_server.limits import Limits
from edge_server.v1 import ragcore_pb2 as pb
from edge_server.v1 import ragcore_pb2_grpc as pb_grpc
from ragcore import (
    Cancellation,
    Document,
    Engine,
    Scope,
    SearchFilters,
    StageEvent,
    __version__,
)
from ragcore.errors import (
    DocumentNotFoundError,
    InvalidDocumentError,
    InvalidInputError,
    InvalidQueryError,
    KnowledgeBaseNotFoundError,
    quoted_names,
)

ROLES = {"reader": pb.ROLE_READER, "admin": pb.ROLE_ADMIN}


def check_alive(context, stage: str) -> None:
    """Raise DeadlinePassed if the client has gone or its deadline has passed."""
    remaining = context.time_remaining()
    if not context.is_active() or (remaining is not None and remaining <= 0):
        raise DeadlinePassed(
            f"the deadline passed (or the client cancelled) after {stage}; the work was "
            "stopped: allow more time"
        )


def scope_of(access: Access) -> Scope:
    """The library's Scope for a caller's access."""
    if access.knowledge_bases is None:
        return Scope.ALL
    return Scope(knowledge_bases=access.knowledge_bases)


class RagcoreServicer(pb_grpc.RagcoreServicer):
    def __init__(
        self,
        engine: Engine,
        admission: Admission,
        limits: Limits,
        in_flight: InFlight | None = None,
    ) -> None:
        self.engine = engine
        self.admission = admission
        self.limits = limits
        self.in_flight = in_flight or InFlight()
        self.started = time.monotonic()

    def Ask(self, request: pb.AskRequest, context: CallContext) -> pb.Answer:
        args = convert.ask_request(request, self.limits)
        scope = scope_of(context.access)
        self._check_knowledge_bases(args.filters, scope)
        with self.in_flight.token(context) as token:
            token.check("admission")
            answer = self.engine.ask(
                args.question,
                filters=args.filters,
                max_rounds=args.max_rounds,
                scope=scope,
                on_event=lambda e: token.check(f"after the {e.stage} stage"),
                session=args.session,
            )
        return convert.answer(answer, args.include_trace)

    def AskStream(self, request: pb.AskRequest, context: CallContext):
        """Runs the ask in a thread of its own and relays its events as they come."""
        args = convert.ask_request(request, self.limits)
        scope = scope_of(context.access)
        self._check_knowledge_bases(args.filters, scope)
        with self.in_flight.token(context) as token:
            token.check("admission")
            yield from self._stream(args, scope, token)

    def _stream(self, args: convert.AskArgs, scope: Scope, token: Cancellation):
        events: queue.Queue = queue.Queue()

        def relay(e: StageEvent) -> None:
            token.check(f"after the {e.stage} stage")
            events.put(convert.event(e))

        def run() -> None:
            try:
                answer = self.engine.ask(
                    args.question,
                    filters=args.filters,
                    max_rounds=args.max_rounds,
                    scope=scope,
                    on_event=relay,
                    session=args.session,
                )
                events.put(convert.result_event(answer, args.include_trace))
            except BaseException as error:  # handed to the rpc's thread, which raises it
                events.put(error)

        threading.Thread(target=run, name="ask-stream", daemon=True).start()
        while True:
            item = events.get()
            if isinstance(item, BaseException):
                raise item
            yield item
            if item.HasField("result"):
                return

    def Search(self, request: pb.SearchRequest, context: CallContext) -> pb.SearchResponse:
        args = convert.search_request(request, self.limits)
        started = time.perf_counter()
        hits = self.engine.search(
            args.query,
            mode=args.mode,
            k=args.k,
            filters=args.filters,
            scope=scope_of(context.access),
        )
        took = (time.perf_counter() - started) * 1000
        visible = self._visible(context.access)
        return pb.SearchResponse(
            hits=[convert.hit(h, superseded_by=visible(h.document.superseded_by)) for h in hits],
            took_ms=took,
        )

    def Ingest(self, request_iterator, context: CallContext) -> pb.IngestSummary:
        documents: list[Document] = []
        positions: dict[str, tuple[int, str]] = {}  # origin -> (index, file name or "")
        for index, message in enumerate(request_iterator):
            kind = message.WhichOneof("item")
            if kind == "file":
                file_name = message.file.file_name
                try:
                    found = convert.document_file(message.file, index, self.limits)
                except InvalidDocumentError as error:
                    raise InvalidIngestDocument(error, index, "", file_name) from None
                where = f"{file_name} (file #{index + 1})"  # unique: two files may share a name
                positions[where] = (index, file_name)
                documents += [replace(d, origin=where) for d in found]
                continue
            if kind != "document":
                raise InvalidField(
                    f"requests[{index}].document",
                    f"message #{index + 1} of the stream carries no document: set its "
                    "document or its file",
                )
            positions[convert.origin(index, message.document.id)] = (index, "")
            try:
                documents.append(convert.document(message.document, index, self.limits))
            except InvalidDocumentError as error:
                raise InvalidIngestDocument(error, index, message.document.id) from None
        if not documents:
            raise InvalidField(
                "requests", "the stream had no documents: send one per IngestRequest"
            )
        try:
            with self.in_flight.token(context) as token:
                token.check("receiving the documents")
                report = self.engine.ingest(documents, scope=scope_of(context.access), cancel=token)
        except InvalidDocumentError as error:  # a check across documents (supersedes, ...)
            if error.source not in positions:
                raise
            index, file_name = positions[error.source]
            document_id = next((d.id for d in documents if d.origin == error.source), "")
            raise InvalidIngestDocument(error, index, document_id, file_name) from None
        return convert.ingest_summary(report)

    def IngestTable(self, request_iterator, context: CallContext) -> pb.TableSummary:
        started = time.perf_counter()
        with tables.received(request_iterator) as upload:
            check_alive(context, "receiving the table")
            try:
                info = self.engine.ingest_table(
                    upload.data,
                    table=upload.table,
                    schema=upload.schema,
                    scope=scope_of(context.access),
                    replace=upload.replace,
                )
            except InvalidInputError as error:
                raise tables.table_error(error, upload) from None
        return tables.summary(info, (time.perf_counter() - started) * 1000)

    def ListTables(self, request, context: CallContext) -> pb.ListTablesResponse:
        if context.access.knowledge_bases is not None:  # tables belong to no knowledge base
            return pb.ListTablesResponse()
        return pb.ListTablesResponse(tables=[tables.table(t) for t in self.engine.list_tables()])

    def DeleteDocument(self, request: pb.DeleteDocumentRequest, context: CallContext):
        document_id = convert.document_id(request.document_id, self.limits)
        removed = self.engine.delete(document_id, scope=scope_of(context.access))
        return pb.DeleteDocumentResponse(document_id=document_id, chunks_removed=removed)

    def GetDocument(self, request: pb.GetDocumentRequest, context: CallContext):
        document_id = convert.document_id(request.document_id, self.limits)
        scope = scope_of(context.access)
        record = self.engine.document(document_id, scope=scope)
        stored = convert.stored_document(record, self._visible(context.access)(record.supersedes))
        if request.include_text:
            stored.text = self.engine.document_text(document_id, scope=scope)
        return stored

    def ListDocuments(self, request: pb.ListDocumentsRequest, context: CallContext):
        arguments = convert.list_documents_request(request, self.limits)
        try:
            page = self.engine.list_documents(**arguments, scope=scope_of(context.access))
        except InvalidQueryError as error:
            # The other fields were checked above: what is left to refuse is the token.
            raise InvalidField("page_token", str(error)) from None
        visible = self._visible(context.access)
        return pb.ListDocumentsResponse(
            documents=[convert.stored_document(d, visible(d.supersedes)) for d in page.documents],
            next_page_token=page.next_page_token or "",
        )

    def ListKnowledgeBases(self, request, context: CallContext) -> pb.ListKnowledgeBasesResponse:
        kbs = self.engine.knowledge_bases(scope=scope_of(context.access))
        return pb.ListKnowledgeBasesResponse(
            knowledge_bases=[convert.knowledge_base(kb) for kb in kbs]
        )

    def DeleteKnowledgeBase(self, request: pb.DeleteKnowledgeBaseRequest, context: CallContext):
        name = convert.knowledge_base_name(request.name, self.limits)
        removed = self.engine.delete_knowledge_base(name, scope=scope_of(context.access))
        return pb.DeleteKnowledgeBaseResponse(name=name, documents_removed=removed)

    def GetStats(self, request, context: CallContext) -> pb.Stats:
        access = context.access
        return convert.stats(
            self.engine.stats(scope=scope_of(access)),
            scoped=access.knowledge_bases is not None,
            version=__version__,
            uptime_seconds=time.monotonic() - self.started,
            in_flight=self.admission.in_flight,
            max_in_flight=self.admission.max_in_flight,
        )

    def _check_knowledge_bases(self, filters: SearchFilters, scope: Scope) -> None:
        """An Ask's knowledge bases, checked as Search checks its own: one outside the
        scope is a ScopeError (whether or not it exists), an unknown one NOT_FOUND rather
        than a silent "no answer"."""
        if not filters.knowledge_bases:
            return
        for name in filters.knowledge_bases:
            scope.check(name)
        known = {kb.name for kb in self.engine.knowledge_bases(scope=scope)} | set(scope.names)
        missing = sorted(set(filters.knowledge_bases) - known)
        if missing:
            raise KnowledgeBaseNotFoundError(
                f"unknown knowledge base {quoted_names(missing)}; "
                f"known: {', '.join(sorted(known)) or 'none (ingest documents first)'}"
            )

    def _visible(self, access: Access) -> Callable[[str | None], str]:
        """For one reply: a document id as the caller may see it, "" if the document is
        outside its scope (a link across the scope's border names nothing beyond it)."""
        if access.knowledge_bases is None:
            return lambda document_id: document_id or ""
        scope, seen = scope_of(access), dict[str, str]()

        def visible(document_id: str | None) -> str:
            if not document_id:
                return ""
            if document_id not in seen:
                try:
                    self.engine.document(document_id, scope=scope)
                    seen[document_id] = document_id
                except DocumentNotFoundError:
                    seen[document_id] = ""
            return seen[document_id]

        return visible

    def EndSession(self, request: pb.EndSessionRequest, context: CallContext):
        session = convert.session_id(request.session_id, self.limits)
        ended = self.engine.end_session(session, scope=scope_of(context.access))
        return pb.EndSessionResponse(ended=ended)

    def GetServerInfo(self, request, context: CallContext) -> pb.ServerInfo:
        config = self.engine.config
        access = context.access
        return pb.ServerInfo(
            version=__version__,
            limits=convert.limits(self.limits),
            embedder=config.embedder,
            reranker=config.reranker_path.name if config.reranker_path else "",
            generator=self.engine.answerer.generator.name,
            store=convert.STORE_KIND if config.store_url is None else convert.SHARED_STORE_KIND,
            role=ROLES[access.role],
            scope=access.scope_names,
            store_settings=convert.store_settings(config),
        )
