"""The one table from errors to gRPC status codes, and the edge's own errors.

Every rpc ends in exactly one of these codes; a ragcore error keeps its message (which
says what was wrong and what to do). Anything unexpected becomes INTERNAL with the
request id and no traceback: the traceback goes to the server log only.

    InvalidInputError (bad question, document, filter)  INVALID_ARGUMENT
    MalformedRequest (bytes that are no such message)    INVALID_ARGUMENT
    NotFoundError (document, knowledge base)             NOT_FOUND
    ModelError, ConfigError, StoreError                  FAILED_PRECONDITION
    GenerationError (the LLM endpoint failed)            UNAVAILABLE
    Unauthenticated (no or unknown token)                UNAUTHENTICATED
    PermissionDenied (reader token on an admin rpc)      PERMISSION_DENIED
    Busy (more requests in flight than allowed)          RESOURCE_EXHAUSTED
    DeadlinePassed (the client's deadline passed)        DEADLINE_EXCEEDED
    NotReady (still loading) / ShuttingDown (draining)   UNAVAILABLE
"""

from __future__ import annotations

import logging
from typing import NoReturn

import grpc

from ragcore.errors import (
    ConfigError,
    GenerationError,
    InvalidInputError,
    ModelError,
    NotFoundError,
    RagcoreError,
    StoreError,
)

log = logging.getLogger(__name__)


class EdgeError(RagcoreError):
    """An error of the service itself (not of the library)."""


class MalformedRequest(EdgeError):
    """The request's bytes do not decode as the rpc's request message."""


class Unauthenticated(EdgeError):
    pass


class PermissionDenied(EdgeError):
    pass


class Busy(EdgeError):
    pass


class DeadlinePassed(EdgeError):
    pass


class NotReady(EdgeError):
    pass


class ShuttingDown(EdgeError):
    pass


# Checked in order: the first class the error is an instance of decides the code.
STATUS_TABLE: tuple[tuple[type[Exception], grpc.StatusCode], ...] = (
    (InvalidInputError, grpc.StatusCode.INVALID_ARGUMENT),
    (MalformedRequest, grpc.StatusCode.INVALID_ARGUMENT),
    (NotFoundError, grpc.StatusCode.NOT_FOUND),
    (ModelError, grpc.StatusCode.FAILED_PRECONDITION),
    (ConfigError, grpc.StatusCode.FAILED_PRECONDITION),
    (StoreError, grpc.StatusCode.FAILED_PRECONDITION),
    (GenerationError, grpc.StatusCode.UNAVAILABLE),
    (Unauthenticated, grpc.StatusCode.UNAUTHENTICATED),
    (PermissionDenied, grpc.StatusCode.PERMISSION_DENIED),
    (Busy, grpc.StatusCode.RESOURCE_EXHAUSTED),
    (DeadlinePassed, grpc.StatusCode.DEADLINE_EXCEEDED),
    (NotReady, grpc.StatusCode.UNAVAILABLE),
    (ShuttingDown, grpc.StatusCode.UNAVAILABLE),
)


def status_for(error: BaseException) -> grpc.StatusCode:
    """The status code for ``error``; INTERNAL for anything not in the table."""
    for kind, code in STATUS_TABLE:
        if isinstance(error, kind):
            return code
    return grpc.StatusCode.INTERNAL


def abort(context: grpc.ServicerContext, error: BaseException, request_id: str = "") -> NoReturn:
    """End the rpc with the status for ``error`` (raises, as ``context.abort`` does)."""
    code = status_for(error)
    if code is grpc.StatusCode.INTERNAL:
        log.error("internal error (request %s)", request_id or "?", exc_info=error)
        message = (
            f"internal error{f' (request {request_id})' if request_id else ''}; "
            "the server log has the details"
        )
    else:
        message = str(error)
    context.abort(code, message)
    raise AssertionError("context.abort returned")  # it always raises; for the type checker
