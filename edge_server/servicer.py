"""The Ragcore servicer: protobuf in, the Engine, protobuf out.

No error handling here: ragcore's errors propagate to ``interceptors.Guards``, which
ends the rpc with the code from ``edge_server.errors``. The one thing the servicer adds
is stopping work whose client has gone or whose deadline has passed.
"""

from __future__ import annotations

import queue
import threading
import time

import grpc

from edge_server import convert
from edge_server.errors import DeadlinePassed
from edge_server.interceptors import Admission
from edge_server.v1 import ragcore_pb2 as pb
from edge_server.v1 import ragcore_pb2_grpc as pb_grpc
from ragcore import Engine, IngestProgress, StageEvent, __version__
from ragcore.errors import InvalidDocumentError, InvalidInputError


def check_alive(context: grpc.ServicerContext, stage: str) -> None:
    """Raise DeadlinePassed if the client has gone or its deadline has passed."""
    remaining = context.time_remaining()
    if not context.is_active() or (remaining is not None and remaining <= 0):
        raise DeadlinePassed(
            f"the deadline passed (or the client cancelled) after {stage}; the work was "
            "stopped: allow more time"
        )


class RagcoreServicer(pb_grpc.RagcoreServicer):
    def __init__(self, engine: Engine, admission: Admission) -> None:
        self.engine = engine
        self.admission = admission
        self.started = time.monotonic()

    def Ask(self, request: pb.AskRequest, context) -> pb.Answer:
        check_alive(context, "admission")
        answer = self.engine.ask(request.question, on_event=lambda e: check_alive(context, e.stage))
        return convert.answer(answer, request.include_trace)

    def AskStream(self, request: pb.AskRequest, context):
        """Runs the ask in a thread of its own and relays its events as they come."""
        check_alive(context, "admission")
        events: queue.Queue = queue.Queue()

        def relay(e: StageEvent) -> None:
            check_alive(context, e.stage)
            events.put(convert.event(e))

        def run() -> None:
            try:
                answer = self.engine.ask(request.question, on_event=relay)
                final = convert.answer(answer, request.include_trace)
                events.put(pb.AskEvent(elapsed_ms=answer.timings["total"], final=final))
            except BaseException as error:  # handed to the rpc's thread, which raises it
                events.put(error)

        threading.Thread(target=run, name="ask-stream", daemon=True).start()
        while True:
            item = events.get()
            if isinstance(item, BaseException):
                raise item
            yield item
            if item.HasField("final"):
                return

    def Search(self, request: pb.SearchRequest, context) -> pb.SearchResponse:
        query, mode, k, filters = convert.search_request(request)
        started = time.perf_counter()
        hits = self.engine.search(query, mode=mode, k=k, filters=filters)
        took = (time.perf_counter() - started) * 1000
        return pb.SearchResponse(hits=[convert.hit(h) for h in hits], took_ms=took)

    def Ingest(self, request_iterator, context) -> pb.IngestSummary:
        documents = []
        for number, message in enumerate(request_iterator, start=1):
            if not message.HasField("document"):
                raise InvalidDocumentError(
                    f"message #{number}", "document", "the message carries no document"
                )
            documents.append(convert.document(message.document, number))
        if not documents:
            raise InvalidInputError("the stream had no documents: send one per IngestRequest")
        check_alive(context, "receiving the documents")

        def written(p: IngestProgress) -> None:  # called after each committed group
            if p.documents_done < p.documents_total:
                check_alive(
                    context,
                    f"{p.documents_done} of {p.documents_total} documents were stored (they "
                    "are kept; sending them again skips them)",
                )

        return convert.ingest_summary(self.engine.ingest(documents, written))

    def DeleteDocument(self, request: pb.DeleteDocumentRequest, context):
        if not request.document_id:
            raise InvalidInputError("document_id is empty: give the id of the document")
        removed = self.engine.delete(request.document_id)
        return pb.DeleteDocumentResponse(document_id=request.document_id, chunks_removed=removed)

    def ListKnowledgeBases(self, request, context) -> pb.ListKnowledgeBasesResponse:
        kbs = self.engine.knowledge_bases()
        return pb.ListKnowledgeBasesResponse(
            knowledge_bases=[convert.knowledge_base(kb) for kb in kbs]
        )

    def GetStats(self, request, context) -> pb.Stats:
        return convert.stats(
            self.engine.stats(),
            version=__version__,
            uptime_seconds=time.monotonic() - self.started,
            in_flight=self.admission.in_flight,
            max_in_flight=self.admission.max_in_flight,
        )
