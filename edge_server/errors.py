"""The one table from errors to gRPC statuses, and the edge's own errors.

Every rpc ends in exactly one status; a ragcore error keeps its message (which says what
was wrong and what to do). Each status also carries a ``google.rpc.Status`` in the
``grpc-status-details-bin`` trailer, as the .proto's "Errors" section promises: an
``ErrorInfo`` with a stable reason, a ``BadRequest`` naming the field for bad input, and a
``RetryInfo`` where waiting helps. Anything unexpected becomes INTERNAL with the request
id and no traceback: the traceback goes to the server log only.

    error                                              code                reason
    InvalidDocumentError (a document of an Ingest)     INVALID_ARGUMENT    INVALID_DOCUMENT
    InvalidTable (the table of an IngestTable)         INVALID_ARGUMENT    INVALID_TABLE
    MalformedRequest (bytes that are no such message)  INVALID_ARGUMENT    MALFORMED_REQUEST
    InvalidInputError (a request field)                INVALID_ARGUMENT    INVALID_FIELD
    DocumentNotFoundError                              NOT_FOUND           DOCUMENT_NOT_FOUND
    KnowledgeBaseNotFoundError                         NOT_FOUND           KNOWLEDGE_BASE_NOT_FOUND
    ModelError                                         FAILED_PRECONDITION MODEL_UNAVAILABLE
    ConfigError                                        FAILED_PRECONDITION CONFIG_INVALID
    StoreUnavailableError (shared database down)       UNAVAILABLE         STORE_UNAVAILABLE
    StoreError (damaged, locked, newer schema)         FAILED_PRECONDITION STORE_UNUSABLE
    GenerationError (the LLM endpoint failed)          UNAVAILABLE         GENERATOR_UNAVAILABLE
    TokenMissing                                       UNAUTHENTICATED     TOKEN_MISSING
    TokenUnknown                                       UNAUTHENTICATED     TOKEN_UNKNOWN
    AdminRequired (reader token on an admin rpc)       PERMISSION_DENIED   ADMIN_REQUIRED
    ScopeError (a knowledge base outside the scope)    PERMISSION_DENIED   OUTSIDE_SCOPE
    Busy (more requests in flight than allowed)        RESOURCE_EXHAUSTED  SERVER_BUSY
    MessageTooLarge (over max_message_bytes)           RESOURCE_EXHAUSTED  MESSAGE_TOO_LARGE
    DeadlinePassed (the client's deadline passed)      DEADLINE_EXCEEDED   DEADLINE_PASSED
    Cancelled, reason deadline                         DEADLINE_EXCEEDED   DEADLINE_PASSED
    Cancelled, reason client (the client cancelled)    CANCELLED           CANCELLED
    Cancelled, reason shutdown (grace period over)     UNAVAILABLE         SERVER_SHUTTING_DOWN
    NotReady (still loading)                           UNAVAILABLE         SERVER_LOADING
    ShuttingDown (draining)                            UNAVAILABLE         SERVER_SHUTTING_DOWN
    anything else                                      INTERNAL            INTERNAL
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import NoReturn

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from ragcore.errors import (
    Cancelled,
    ConfigError,
    DocumentNotFoundError,
    GenerationError,
    InvalidDocumentError,
    InvalidInputError,
    KnowledgeBaseNotFoundError,
    ModelError,
    NotFoundError,
    RagcoreError,
    ScopeError,
    StoreError,
    StoreUnavailableError,
)
from ragcore.types import CancelReason

log = logging.getLogger(__name__)

DOMAIN = "ragcore.v1"  # ErrorInfo.domain: the contract the reasons belong to
# A status travels in headers: the message percent-encoded in grpc-message, and again
# (twice: Status.message, FieldViolation.description) base64-encoded in the details
# trailer. Stock clients take 8 KiB of metadata, so the message is cut to this many UTF-8
# bytes and each ErrorInfo metadata value to METADATA_VALUE_CHARS characters: whatever
# text an error carries, the client gets its code and details. (Messages quote callers'
# values cut to ~80 characters, ``ragcore.errors.quoted``; this is the backstop.)
MAX_MESSAGE_BYTES = 1024
METADATA_VALUE_CHARS = 240


class EdgeError(RagcoreError):
    """An error of the service itself (not of the library)."""


class InvalidField(EdgeError, InvalidInputError):
    """One field of a request is unusable; ``field`` is its path ("filters.k")."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


class InvalidIngestDocument(EdgeError, InvalidDocumentError):
    """A document of an Ingest stream is unusable: the library's error, with where in
    the stream it was (``index``, 0-based) and its id; ``file_name`` when the message
    was a DocumentFile (the field is then ``requests[I].file``)."""

    def __init__(
        self, error: InvalidDocumentError, index: int, document_id: str, file_name: str = ""
    ) -> None:
        self.index = index
        self.document_id = document_id
        self.file_name = file_name
        super().__init__(error.source, error.field, error.problem)


class InvalidTable(EdgeError, InvalidInputError):
    """An IngestTable's table is unusable: ``field`` is "table", "file_name", "schema[.KEY]"
    or "data", with the data file, row (1-based) and column or the schema key it names."""

    def __init__(
        self,
        field: str,
        message: str,
        *,
        file: str = "",
        row: str = "",
        column: str = "",
        key: str = "",
    ) -> None:
        self.field = field
        self.where = {"file": file, "row": row, "column": column, "key": key}
        super().__init__(message)


class MalformedRequest(EdgeError):
    """The request's bytes do not decode as the rpc's request message."""


class MessageTooLarge(EdgeError):
    """A request message is larger than max_message_bytes."""

    def __init__(self, size: int, limit: int) -> None:
        self.limit = limit
        super().__init__(
            f"the request message is {size:,} bytes, over this server's limit of {limit:,} "
            "(max_message_bytes): send documents one per message and split larger ones"
        )


class Unauthenticated(EdgeError):
    pass


class TokenMissing(Unauthenticated):
    pass


class TokenUnknown(Unauthenticated):
    pass


class PermissionDenied(EdgeError):
    pass


class AdminRequired(PermissionDenied):
    pass


class Busy(EdgeError):
    pass


class DeadlinePassed(EdgeError):
    pass


class NotReady(EdgeError):
    pass


class ShuttingDown(EdgeError):
    pass


@dataclass(frozen=True)
class Outcome:
    """How an error ends an rpc: its code, its stable reason, and when to retry (seconds;
    None when retrying the same request cannot help)."""

    code: grpc.StatusCode
    reason: str
    retry_after: float | None = None


# Checked in order: the first class the error is an instance of decides. Retry delays are
# hints of how long the condition usually lasts: a worker frees up within a request's
# time, a server loads its models in seconds, a failing LLM endpoint takes longer.
STATUS_TABLE: tuple[tuple[type[BaseException], Outcome], ...] = (
    (InvalidDocumentError, Outcome(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_DOCUMENT")),
    (InvalidTable, Outcome(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_TABLE")),
    (MalformedRequest, Outcome(grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")),
    (InvalidInputError, Outcome(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_FIELD")),
    (DocumentNotFoundError, Outcome(grpc.StatusCode.NOT_FOUND, "DOCUMENT_NOT_FOUND")),
    (KnowledgeBaseNotFoundError, Outcome(grpc.StatusCode.NOT_FOUND, "KNOWLEDGE_BASE_NOT_FOUND")),
    (NotFoundError, Outcome(grpc.StatusCode.NOT_FOUND, "NOT_FOUND")),
    (ModelError, Outcome(grpc.StatusCode.FAILED_PRECONDITION, "MODEL_UNAVAILABLE")),
    (ConfigError, Outcome(grpc.StatusCode.FAILED_PRECONDITION, "CONFIG_INVALID")),
    (StoreUnavailableError, Outcome(grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE", 1.0)),
    (StoreError, Outcome(grpc.StatusCode.FAILED_PRECONDITION, "STORE_UNUSABLE")),
    (GenerationError, Outcome(grpc.StatusCode.UNAVAILABLE, "GENERATOR_UNAVAILABLE", 5.0)),
    (TokenMissing, Outcome(grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING")),
    (TokenUnknown, Outcome(grpc.StatusCode.UNAUTHENTICATED, "TOKEN_UNKNOWN")),
    (AdminRequired, Outcome(grpc.StatusCode.PERMISSION_DENIED, "ADMIN_REQUIRED")),
    (ScopeError, Outcome(grpc.StatusCode.PERMISSION_DENIED, "OUTSIDE_SCOPE")),
    (Busy, Outcome(grpc.StatusCode.RESOURCE_EXHAUSTED, "SERVER_BUSY", 0.2)),
    (MessageTooLarge, Outcome(grpc.StatusCode.RESOURCE_EXHAUSTED, "MESSAGE_TOO_LARGE")),
    (DeadlinePassed, Outcome(grpc.StatusCode.DEADLINE_EXCEEDED, "DEADLINE_PASSED")),
    (NotReady, Outcome(grpc.StatusCode.UNAVAILABLE, "SERVER_LOADING", 2.0)),
    (ShuttingDown, Outcome(grpc.StatusCode.UNAVAILABLE, "SERVER_SHUTTING_DOWN", 1.0)),
)
INTERNAL = Outcome(grpc.StatusCode.INTERNAL, "INTERNAL")
# Work stopped by its cancellation token (edge_server.cancelling), by why it stopped. A
# client that cancelled sees its own CANCELLED; the server logs the same code.
CANCELLED_BY_REASON: dict[str, Outcome] = {
    CancelReason.DEADLINE: Outcome(grpc.StatusCode.DEADLINE_EXCEEDED, "DEADLINE_PASSED"),
    CancelReason.CLIENT: Outcome(grpc.StatusCode.CANCELLED, "CANCELLED"),
    CancelReason.SHUTDOWN: Outcome(grpc.StatusCode.UNAVAILABLE, "SERVER_SHUTTING_DOWN", 1.0),
}


def outcome_for(error: BaseException) -> Outcome:
    """The outcome for ``error``; INTERNAL for anything not in the table."""
    if isinstance(error, Cancelled):
        return CANCELLED_BY_REASON[error.reason]
    for kind, outcome in STATUS_TABLE:
        if isinstance(error, kind):
            return outcome
    return INTERNAL


def status_for(error: BaseException) -> grpc.StatusCode:
    """The status code for ``error``; INTERNAL for anything not in the table."""
    return outcome_for(error).code


def rich_status(error: BaseException, request_id: str = "") -> grpc.Status:
    """The status to end an rpc with for ``error``: code, message and the details."""
    return rpc_status.to_status(status_message(error, request_id))


def status_message(error: BaseException, request_id: str = "") -> status_pb2.Status:
    """The ``google.rpc.Status`` for ``error``: code, message and the details (what the
    HTTP gateway sends as JSON for a refusal of its own)."""
    outcome = outcome_for(error)
    if outcome is INTERNAL:
        message = (
            f"internal error{f' (request {request_id})' if request_id else ''}; "
            "the server log has the details"
        )
    else:
        message = _cut(str(error))
    metadata = {"request_id": request_id} if request_id else {}
    details: list = []
    violation = _field_violation(error, message)
    if violation is not None:
        metadata.update(violation[1])
        details.append(error_details_pb2.BadRequest(field_violations=[violation[0]]))
    if isinstance(error, MessageTooLarge):
        metadata["limit_bytes"] = str(error.limit)
    if outcome.retry_after is not None:
        delay = error_details_pb2.RetryInfo()
        delay.retry_delay.FromMilliseconds(int(outcome.retry_after * 1000))
        details.append(delay)
    metadata = {key: _cut_value(value) for key, value in metadata.items()}
    info = error_details_pb2.ErrorInfo(reason=outcome.reason, domain=DOMAIN, metadata=metadata)
    return status_pb2.Status(
        code=getattr(code_pb2, outcome.code.name),
        message=message,
        details=[_packed(d) for d in (info, *details)],
    )


def _field_violation(
    error: BaseException, message: str
) -> tuple[error_details_pb2.BadRequest.FieldViolation, dict[str, str]] | None:
    """The FieldViolation for bad input (and ErrorInfo metadata for it), else None."""
    if isinstance(error, InvalidIngestDocument):
        if error.file_name:  # the field is inside the file, not a field of the message
            field = f"requests[{error.index}].file"
        else:
            field = f"requests[{error.index}].document" + (f".{error.field}" if error.field else "")
        metadata = {
            "document_index": str(error.index),
            "document_id": error.document_id,
            "field": error.field or "",
        } | ({"file": error.file_name} if error.file_name else {})
    elif isinstance(error, InvalidTable):
        metadata = {"field": error.field} | {k: v for k, v in error.where.items() if v}
        field = error.field
    elif isinstance(error, InvalidField):
        field, metadata = error.field, {"field": error.field}
    elif isinstance(error, InvalidDocumentError):  # from a path the servicer did not wrap
        field, metadata = error.field or "", {"field": error.field or ""}
    elif isinstance(error, InvalidInputError | MalformedRequest):
        field, metadata = "", {}  # the request as a whole
    else:
        return None
    reason = outcome_for(error).reason
    violation = error_details_pb2.BadRequest.FieldViolation(
        field=field, description=message, reason=reason
    )
    return violation, metadata


def _cut(message: str) -> str:
    """``message``, cut to at most MAX_MESSAGE_BYTES of UTF-8 (with "…")."""
    data = message.encode("utf-8")
    if len(data) <= MAX_MESSAGE_BYTES:
        return message
    return data[: MAX_MESSAGE_BYTES - 3].decode("utf-8", "ignore") + "…"


def _cut_value(value: str) -> str:
    return value if len(value) <= METADATA_VALUE_CHARS else value[: METADATA_VALUE_CHARS - 1] + "…"


def _packed(message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def abort(context: grpc.ServicerContext, error: BaseException, request_id: str = "") -> NoReturn:
    """End the rpc with the rich status for ``error`` (raises, as ``context.abort`` does)."""
    if outcome_for(error) is INTERNAL:
        log.error("internal error (request %s)", request_id or "?", exc_info=error)
    context.abort_with_status(rich_status(error, request_id))
    raise AssertionError("context.abort_with_status returned")  # it always raises
