"""Bounded texts and ids: every id and name field has a limit (the .proto's ``Limits``),
enforced and named in the error, and no error text quotes more than ~80 characters of a
caller's value, so a stock client (8 KiB of metadata) always receives the intended code
with its details, whatever the caller sent.

Each over-long field goes through a real server on a real port; the client's channel
states gRPC's default metadata limit explicitly.
"""

from __future__ import annotations

from collections.abc import Callable

import grpc
import pytest

from edge_server.client import Client, error_details
from edge_server.v1 import ragcore_pb2 as pb
from edge_server.v1 import ragcore_pb2_grpc as pb_grpc

pytestmark = pytest.mark.integration

STOCK_METADATA_BYTES = 8 * 1024  # gRPC's default limit of a client's received metadata
LONG = 6000
HUGE = 1024 * 1024  # a 1 MiB field: far over every limit, well under the message limit
INVALID = grpc.StatusCode.INVALID_ARGUMENT


def stock_stub(target: str) -> tuple[grpc.Channel, pb_grpc.RagcoreStub]:
    channel = grpc.insecure_channel(target, options=[("grpc.max_metadata_size", 8192)])
    return channel, pb_grpc.RagcoreStub(channel)


def ingest_one(stub, **document) -> Callable[[], object]:
    fields = {"id": "bounded-note", "text": "Oil the GX-9 weekly.", "knowledge_base": "faq"}
    fields.update(document)
    return lambda: stub.Ingest(iter([pb.IngestRequest(document=pb.Document(**fields))]))


def ingest_file(stub, **file) -> Callable[[], object]:
    fields = {"file_name": "note.md", "data": b"# Note\n\nOil the GX-9 weekly.\n"}
    fields.update(file)
    return lambda: stub.Ingest(iter([pb.IngestRequest(file=pb.DocumentFile(**fields))]))


def ingest_table(stub, **header) -> Callable[[], object]:
    fields = {"table": "parts", "schema": "[table]\n", "file_name": "parts.csv", "data": b"a\n1\n"}
    fields.update(header)
    return lambda: stub.IngestTable(iter([pb.IngestTableRequest(**fields)]))


def cases(stub) -> list[tuple[str, Callable[[], object], str, str, str]]:
    """(what, call, reason, field, limit named) for every over-long id or name field."""
    x, kb = "x" * LONG, "k" * LONG
    return [
        (
            "GetDocument.document_id",
            lambda: stub.GetDocument(pb.GetDocumentRequest(document_id=x)),
            "INVALID_FIELD",
            "document_id",
            "Limits.max_id_chars",
        ),
        (
            "DeleteDocument.document_id",
            lambda: stub.DeleteDocument(pb.DeleteDocumentRequest(document_id=x)),
            "INVALID_FIELD",
            "document_id",
            "Limits.max_id_chars",
        ),
        (
            "DeleteKnowledgeBase.name",
            lambda: stub.DeleteKnowledgeBase(pb.DeleteKnowledgeBaseRequest(name="k" * 8000)),
            "INVALID_FIELD",
            "name",
            "Limits.max_knowledge_base_chars",
        ),
        (
            "ListDocuments.knowledge_base",
            lambda: stub.ListDocuments(pb.ListDocumentsRequest(knowledge_base=kb)),
            "INVALID_FIELD",
            "knowledge_base",
            "Limits.max_knowledge_base_chars",
        ),
        (
            "Search.filters.knowledge_bases",
            lambda: stub.Search(
                pb.SearchRequest(query="seal", filters=pb.SearchFilters(knowledge_bases=[kb]))
            ),
            "INVALID_FIELD",
            "filters.knowledge_bases[0]",
            "Limits.max_knowledge_base_chars",
        ),
        (
            "Ask.filters.doc_types",
            lambda: stub.Ask(
                pb.AskRequest(question="seal?", filters=pb.SearchFilters(doc_types=["manual", x]))
            ),
            "INVALID_FIELD",
            "filters.doc_types[1]",
            "Limits.max_label_chars",
        ),
        (
            "Ask.session_id",
            lambda: stub.Ask(pb.AskRequest(question="seal?", session_id=x)),
            "INVALID_FIELD",
            "session_id",
            "Limits.max_session_id_chars",
        ),
        (
            "EndSession.session_id",
            lambda: stub.EndSession(pb.EndSessionRequest(session_id=x)),
            "INVALID_FIELD",
            "session_id",
            "Limits.max_session_id_chars",
        ),
        (
            "Ingest document.id",
            ingest_one(stub, id="d" * HUGE),
            "INVALID_DOCUMENT",
            "requests[0].document.id",
            "Limits.max_id_chars",
        ),
        (
            "Ingest document.supersedes",
            ingest_one(stub, supersedes="s" * HUGE),
            "INVALID_DOCUMENT",
            "requests[0].document.supersedes",
            "Limits.max_id_chars",
        ),
        (
            "Ingest document.knowledge_base",
            ingest_one(stub, knowledge_base="k" * HUGE),
            "INVALID_DOCUMENT",
            "requests[0].document.knowledge_base",
            "Limits.max_knowledge_base_chars",
        ),
        (
            "Ingest document.doc_type",
            ingest_one(stub, doc_type="t" * HUGE),
            "INVALID_DOCUMENT",
            "requests[0].document.doc_type",
            "Limits.max_label_chars",
        ),
        (
            "Ingest document.source",
            ingest_one(stub, source="s" * HUGE),
            "INVALID_DOCUMENT",
            "requests[0].document.source",
            "Limits.max_label_chars",
        ),
        (
            "Ingest document.metadata key",
            ingest_one(stub, metadata={"m" * HUGE: "value"}),
            "INVALID_DOCUMENT",
            "requests[0].document.metadata",
            "Limits.max_label_chars",
        ),
        (
            "Ingest file.file_name",
            ingest_file(stub, file_name="f" * HUGE + ".md"),
            "INVALID_FIELD",
            "requests[0].file.file_name",
            "Limits.max_file_name_chars",
        ),
        (
            "Ingest file.media_type",
            ingest_file(stub, media_type="text/" + "m" * HUGE),
            "INVALID_FIELD",
            "requests[0].file.media_type",
            "Limits.max_label_chars",
        ),
        (
            "Ingest file.knowledge_base",
            ingest_file(stub, knowledge_base="k" * HUGE),
            "INVALID_FIELD",
            "requests[0].file.knowledge_base",
            "Limits.max_knowledge_base_chars",
        ),
        (
            "IngestTable.table",
            ingest_table(stub, table="t" * HUGE),
            "INVALID_TABLE",
            "table",
            "Limits.max_table_name_chars",
        ),
        (
            "IngestTable.file_name",
            ingest_table(stub, file_name="f" * LONG + ".csv"),
            "INVALID_TABLE",  # the table's file, as the .proto says
            "file_name",
            "Limits.max_file_name_chars",
        ),
    ]


def test_every_over_long_id_or_name_is_refused_with_its_code_and_details(start_edge):
    _, target = start_edge()
    channel, stub = stock_stub(target)
    with channel:
        for what, call, reason, field, limit in cases(stub):
            with pytest.raises(grpc.RpcError) as caught:
                call()
            error = caught.value
            assert error.code() == INVALID, (what, error.code(), error.details())
            details = error_details(error)
            assert details["ErrorInfo"].reason == reason, what
            violation = details["BadRequest"].field_violations[0]
            assert violation.field == field, (what, violation.field)
            assert limit in error.details(), (what, error.details())
            # At most ~80 characters of the value are quoted; the status fits in 8 KiB.
            assert len(error.details()) < 600, (what, len(error.details()))
            assert max(len(v) for v in details["ErrorInfo"].metadata.values()) <= 240, what
            for letter in "xkdstmf":
                assert letter * 81 not in error.details(), what


def test_values_at_the_limits_are_accepted_and_unknown_ones_quoted_short(start_edge):
    _, target = start_edge()
    channel, stub = stock_stub(target)
    with channel, Client(target) as client:
        info = client.server_info().limits
        assert (info.max_id_chars, info.max_knowledge_base_chars) == (200, 64)
        assert (info.max_session_id_chars, info.max_label_chars) == (128, 200)
        assert (info.max_file_name_chars, info.max_table_name_chars) == (200, 48)
        at_limit = "a" * info.max_id_chars
        with pytest.raises(grpc.RpcError) as missing:
            stub.GetDocument(pb.GetDocumentRequest(document_id=at_limit))
        assert missing.value.code() == grpc.StatusCode.NOT_FOUND
        assert error_details(missing.value)["ErrorInfo"].reason == "DOCUMENT_NOT_FOUND"
        assert "a" * 81 not in missing.value.details()
        kb = "k" * info.max_knowledge_base_chars
        with pytest.raises(grpc.RpcError) as unknown:
            stub.DeleteKnowledgeBase(pb.DeleteKnowledgeBaseRequest(name=kb))
        assert unknown.value.code() == grpc.StatusCode.NOT_FOUND
        summary = client.ingest(
            [
                pb.Document(
                    id=at_limit,
                    text="Oil the GX-9 weekly.",
                    knowledge_base=kb,
                    doc_type="t" * info.max_label_chars,
                    source="s" * info.max_label_chars,
                    supersedes="b" * info.max_id_chars,
                )
            ]
        )
        assert summary.added == 1
        assert client.document(at_limit).knowledge_base == kb


def test_a_huge_bad_date_is_quoted_short(start_edge):
    _, target = start_edge()
    channel, stub = stock_stub(target)
    with channel, pytest.raises(grpc.RpcError) as caught:
        stub.Search(
            pb.SearchRequest(query="seal", filters=pb.SearchFilters(updated_after="9" * HUGE))
        )
    assert caught.value.code() == INVALID
    assert error_details(caught.value)["BadRequest"].field_violations[0].field == (
        "filters.updated_after"
    )
    assert len(caught.value.details()) < 300
