"""A gRPC status as an HTTP reply: the HTTP status for its code, the ``google.rpc.Status``
it carried (code, message, ErrorInfo, BadRequest, RetryInfo) as the JSON body, and
``Retry-After`` from its RetryInfo.

The codes map as google.rpc.Code documents them (and grpc-gateway does), with these
choices: FAILED_PRECONDITION is 400 (as google.rpc.Code says; ragcore uses it for a
model, store or setting the server cannot use, which retrying will not mend),
ABORTED 409 like ALREADY_EXISTS, CANCELLED 499 (nginx's "client closed request").
"""

from __future__ import annotations

import math

import grpc
from google.protobuf import duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2

from edge_server.errors import DeadlinePassed, ShuttingDown, status_message

HTTP_STATUS: dict[grpc.StatusCode, int] = {
    grpc.StatusCode.OK: 200,
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.FAILED_PRECONDITION: 400,
    grpc.StatusCode.OUT_OF_RANGE: 400,
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.ALREADY_EXISTS: 409,
    grpc.StatusCode.ABORTED: 409,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.CANCELLED: 499,
    grpc.StatusCode.UNIMPLEMENTED: 501,
    grpc.StatusCode.UNAVAILABLE: 503,
    grpc.StatusCode.DEADLINE_EXCEEDED: 504,
}
DETAILS_KEY = "grpc-status-details-bin"


def http_status(code: int) -> int:
    """The HTTP status for a ``google.rpc.Code`` number (500 for any other)."""
    for status_code, http in HTTP_STATUS.items():
        if status_code.value[0] == code:
            return http
    return 500


def status_of(error: grpc.aio.AioRpcError, request_id: str) -> status_pb2.Status:
    """The ``google.rpc.Status`` a failed call carried in its trailers. A call that ended
    without one was ended by gRPC itself, here in the gateway (the deadline of
    X-Request-Timeout passed, the server's socket closed at shutdown): its status is made
    by the same table, with an ErrorInfo and the request id like any other."""
    for key, value in error.trailing_metadata() or ():
        if key == DETAILS_KEY and isinstance(value, bytes):
            status = status_pb2.Status()
            status.ParseFromString(value)
            return status
    code = error.code()
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return status_message(
            DeadlinePassed(
                "the deadline (X-Request-Timeout) passed; the work was stopped: allow more time"
            ),
            request_id,
        )
    if code == grpc.StatusCode.UNAVAILABLE:
        return status_message(
            ShuttingDown("the server is shutting down; retry on another server or later"),
            request_id,
        )
    status = status_message(RuntimeError(error.details() or ""), request_id)
    status.code = code.value[0] if code is not None else code_pb2.UNKNOWN
    return status


def retry_after(status: status_pb2.Status) -> str | None:
    """The ``Retry-After`` header (whole seconds, at least 1) from a RetryInfo, if any."""
    for detail in status.details:
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            return str(max(1, math.ceil(_seconds(info.retry_delay))))
    return None


def _seconds(delay: duration_pb2.Duration) -> float:
    return delay.seconds + delay.nanos / 1e9
