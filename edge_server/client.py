"""A small Python client for the edge service (``ragcore ask --server`` uses it).

    from edge_server.client import Client

    with Client("127.0.0.1:50051", token="...") as client:
        answer = client.ask("How often should the CP-200 seal be replaced?")
        print(answer.status, answer.text)

Replies are the generated protobuf messages (``edge_server.v1.ragcore_pb2``). A failed
rpc raises ``grpc.RpcError``; ``error.code()`` and ``error.details()`` say why, and
``error_details(error)`` gives its rich details (the reason, the bad field, when to retry).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import grpc
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from edge_server.names import SERVICE
from edge_server.v1 import ragcore_pb2 as pb
from edge_server.v1 import ragcore_pb2_grpc as pb_grpc

DEFAULT_TIMEOUT = 30.0
HEALTH_STATUS = health_pb2.HealthCheckResponse.ServingStatus


class Client:
    """One channel to one server. ``tls_ca`` (the server's CA) turns on TLS;
    ``client_cert`` and ``client_key`` add a client certificate (mutual TLS)."""

    def __init__(
        self,
        target: str,
        *,
        token: str | None = None,
        tls_ca: Path | None = None,
        client_cert: Path | None = None,
        client_key: Path | None = None,
        server_name: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_message_bytes: int = 8 * 1024 * 1024,
    ) -> None:
        options: list[tuple[str, int | str]] = [
            ("grpc.max_receive_message_length", max_message_bytes),
            ("grpc.max_send_message_length", max_message_bytes),
            # Its own connection: gRPC otherwise shares one TCP connection among channels
            # to the same target, and a server of several processes (SO_REUSEPORT) hands
            # out work per connection.
            ("grpc.use_local_subchannel_pool", 1),
        ]
        if server_name:
            options.append(("grpc.ssl_target_name_override", server_name))
        if tls_ca is None:
            self.channel = grpc.insecure_channel(target, options=options)
        else:
            credentials = grpc.ssl_channel_credentials(
                root_certificates=Path(tls_ca).read_bytes(),
                private_key=Path(client_key).read_bytes() if client_key else None,
                certificate_chain=Path(client_cert).read_bytes() if client_cert else None,
            )
            self.channel = grpc.secure_channel(target, credentials, options=options)
        self.stub = pb_grpc.RagcoreStub(self.channel)
        self.health_stub = health_pb2_grpc.HealthStub(self.channel)
        self.timeout = timeout
        self._metadata = (("authorization", f"Bearer {token}"),) if token else ()

    def _call(self, timeout: float | None) -> dict:
        return {"timeout": timeout or self.timeout, "metadata": self._metadata}

    def health(self, service: str = SERVICE, timeout: float | None = None) -> str:
        """``SERVING``, ``NOT_SERVING``, ... for ``service`` ("" is the whole server)."""
        reply = self.health_stub.Check(
            health_pb2.HealthCheckRequest(service=service), timeout=timeout or self.timeout
        )
        return HEALTH_STATUS.Name(reply.status)

    def wait_until_serving(self, timeout: float = 60.0) -> None:
        """Block until health says SERVING; raise TimeoutError after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                if self.health(timeout=max(0.1, deadline - time.monotonic())) == "SERVING":
                    return
            except grpc.RpcError as error:  # not up yet, or too busy to answer: try again
                retry = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED)
                if error.code() not in retry:
                    raise
            if time.monotonic() >= deadline:
                raise TimeoutError(f"the server was not SERVING within {timeout:.0f} s")
            time.sleep(0.1)

    def ask(
        self,
        question: str,
        *,
        trace: bool = False,
        max_rounds: int = 0,
        timeout: float | None = None,
        session_id: str = "",
        new_session: bool = False,
        **filters,
    ) -> pb.Answer:
        """``filters`` are SearchFilters' fields: knowledge_bases, doc_types, ...;
        ``session_id`` makes the question a turn of that conversation."""
        request = _ask_request(question, trace, max_rounds, filters)
        request.session_id, request.new_session = session_id, new_session
        return self.stub.Ask(request, **self._call(timeout))

    def ask_stream(
        self,
        question: str,
        *,
        trace: bool = False,
        max_rounds: int = 0,
        timeout: float | None = None,
        session_id: str = "",
        new_session: bool = False,
        **filters,
    ) -> Iterator[pb.AskEvent]:
        request = _ask_request(question, trace, max_rounds, filters)
        request.session_id, request.new_session = session_id, new_session
        return self.stub.AskStream(request, **self._call(timeout))

    def end_session(self, session_id: str, *, timeout: float | None = None) -> bool:
        """End a conversation; False if there was none to end."""
        request = pb.EndSessionRequest(session_id=session_id)
        return self.stub.EndSession(request, **self._call(timeout)).ended

    def search(
        self,
        query: str,
        *,
        mode: Any = pb.SEARCH_MODE_UNSPECIFIED,
        k: int = 0,
        timeout: float | None = None,
        **filters,
    ) -> pb.SearchResponse:
        """``filters`` are SearchFilters' fields: knowledge_bases, updated_after, ..."""
        request = pb.SearchRequest(query=query, mode=mode, k=k, filters=pb.SearchFilters(**filters))
        return self.stub.Search(request, **self._call(timeout))

    def ingest(
        self, documents: Iterable[pb.Document | pb.DocumentFile], *, timeout: float | None = None
    ) -> pb.IngestSummary:
        """Send documents, each as fields and text (``pb.Document``) or as a file for the
        server to read (``pb.DocumentFile``), one per message of one Ingest stream."""
        requests = (
            pb.IngestRequest(file=d)
            if isinstance(d, pb.DocumentFile)
            else pb.IngestRequest(document=d)
            for d in documents
        )
        return self.stub.Ingest(requests, **self._call(timeout))

    def ingest_files(
        self,
        paths: Iterable[Path | str],
        *,
        knowledge_base: str = "",
        timeout: float | None = None,
    ) -> pb.IngestSummary:
        """Send files (.md with front matter, .html, .txt, .jsonl) for the server to read,
        each whole in one message (under its max_message_bytes), in one Ingest stream;
        ``knowledge_base`` is for documents that do not name their own."""
        files = (
            pb.DocumentFile(
                file_name=Path(path).name,
                data=Path(path).read_bytes(),
                knowledge_base=knowledge_base,
            )
            for path in paths
        )
        return self.ingest(files, timeout=timeout)

    def ingest_table(
        self,
        data: Path,
        *,
        table: str,
        schema: Path,
        replace: bool = False,
        chunk_bytes: int = 1024 * 1024,
        timeout: float | None = None,
    ) -> pb.TableSummary:
        """Load the CSV / JSONL file ``data`` as ``table``, described by the TOML file
        ``schema`` (replacing a loaded table of that name with ``replace``); the file is
        streamed ``chunk_bytes`` at a time."""
        content = Path(data).read_bytes()
        first = pb.IngestTableRequest(
            table=table,
            schema=Path(schema).read_text(encoding="utf-8"),
            file_name=Path(data).name,
            data=content[:chunk_bytes],
            replace=replace,
        )
        rest = (
            pb.IngestTableRequest(data=content[i : i + chunk_bytes])
            for i in range(chunk_bytes, len(content), chunk_bytes)
        )
        return self.stub.IngestTable(iter([first, *rest]), **self._call(timeout))

    def tables(self, *, timeout: float | None = None) -> pb.ListTablesResponse:
        return self.stub.ListTables(pb.ListTablesRequest(), **self._call(timeout))

    def delete(self, document_id: str, *, timeout: float | None = None):
        request = pb.DeleteDocumentRequest(document_id=document_id)
        return self.stub.DeleteDocument(request, **self._call(timeout))

    def document(
        self, document_id: str, *, include_text: bool = False, timeout: float | None = None
    ) -> pb.StoredDocument:
        """A stored document; ``include_text`` also sends its text."""
        request = pb.GetDocumentRequest(document_id=document_id, include_text=include_text)
        return self.stub.GetDocument(request, **self._call(timeout))

    def list_documents(
        self,
        *,
        knowledge_base: str = "",
        updated_since: str = "",
        page_size: int = 0,
        page_token: str = "",
        timeout: float | None = None,
    ) -> pb.ListDocumentsResponse:
        """One page; ``documents()`` walks them all."""
        request = pb.ListDocumentsRequest(
            knowledge_base=knowledge_base,
            updated_since=updated_since,
            page_size=page_size,
            page_token=page_token,
        )
        return self.stub.ListDocuments(request, **self._call(timeout))

    def documents(self, **request) -> Iterator[pb.StoredDocument]:
        """Every document (``list_documents``' filters apply), page after page."""
        token = ""
        while True:
            page = self.list_documents(page_token=token, **request)
            yield from page.documents
            token = page.next_page_token
            if not token:
                return

    def knowledge_bases(self, *, timeout: float | None = None):
        reply = self.stub.ListKnowledgeBases(pb.ListKnowledgeBasesRequest(), **self._call(timeout))
        return list(reply.knowledge_bases)

    def delete_knowledge_base(
        self, name: str, *, timeout: float | None = None
    ) -> pb.DeleteKnowledgeBaseResponse:
        request = pb.DeleteKnowledgeBaseRequest(name=name)
        return self.stub.DeleteKnowledgeBase(request, **self._call(timeout))

    def stats(self, *, timeout: float | None = None) -> pb.Stats:
        return self.stub.GetStats(pb.GetStatsRequest(), **self._call(timeout))

    def server_info(self, *, timeout: float | None = None) -> pb.ServerInfo:
        return self.stub.GetServerInfo(pb.GetServerInfoRequest(), **self._call(timeout))

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


def _ask_request(question: str, trace: bool, max_rounds: int, filters: dict) -> pb.AskRequest:
    return pb.AskRequest(
        question=question,
        include_trace=trace,
        max_rounds=max_rounds,
        filters=pb.SearchFilters(**filters),
    )


def error_details(error: grpc.RpcError) -> dict[str, object]:
    """The rich details of a failed call (the .proto's "Errors"), by kind: ``ErrorInfo``,
    ``BadRequest`` and ``RetryInfo`` (google.rpc messages); those not sent are missing."""
    status = rpc_status.from_call(error)
    found: dict[str, object] = {}
    for detail in status.details if status else ():
        for kind in (
            error_details_pb2.ErrorInfo,
            error_details_pb2.BadRequest,
            error_details_pb2.RetryInfo,
        ):
            if detail.Is(kind.DESCRIPTOR):
                message = kind()
                detail.Unpack(message)
                found[kind.DESCRIPTOR.name] = message
    return found
