"""Calls of the server's own gRPC service, made for HTTP requests (as grpc-gateway does).

Every HTTP route ends in an rpc on a private Unix socket of the same gRPC server, so
it passes exactly what a gRPC client passes: the access log and its request id, the
token and scope check, admission and its limits, the servicer, the rich error status,
the metrics. The HTTP side adds only the translation: the ``Authorization`` header and
``X-Request-Id`` go as metadata, ``X-Request-Timeout`` (seconds) as the call's deadline;
a client that disconnects cancels the call (the servicer's cancellation token then stops
the work), and a failed call's ``google.rpc.Status`` comes back as the JSON error body.

What the gateway refuses itself (a body that is not the message's JSON, a bad header)
it refuses only after the same Authentication guard has accepted the token: an
unauthenticated caller learns only that it needs a token, as over gRPC.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf import message_factory
from google.protobuf.descriptor import MethodDescriptor
from google.protobuf.message import Message
from google.rpc import status_pb2
from starlette.requests import Request
from starlette.responses import Response

from edge_server.errors import InvalidField, outcome_for, status_message
from edge_server.http.messages import to_json
from edge_server.http.statuses import http_status, retry_after, status_of
from edge_server.interceptors import (
    ANONYMOUS,
    HTTP_PEER_HEADER,
    REQUEST_ID_HEADER,
    Authentication,
    Call,
    request_id_of,
)
from edge_server.limits import grpc_receive_limit
from edge_server.names import SERVICE
from edge_server.v1 import ragcore_pb2 as pb

access_log = logging.getLogger("edge_server.access")
TIMEOUT_HEADER = "x-request-timeout"
JSON = "application/json"
SERVICE_DESCRIPTOR = pb.DESCRIPTOR.services_by_name[SERVICE.rsplit(".", 1)[-1]]


@dataclass(frozen=True)
class Rpc:
    """One rpc of ragcore.v1, from the .proto's descriptors."""

    name: str
    method: MethodDescriptor

    @classmethod
    def named(cls, name: str) -> Rpc:
        return cls(name, SERVICE_DESCRIPTOR.methods_by_name[name])

    @property
    def path(self) -> str:
        return f"/{SERVICE}/{self.name}"

    def request(self) -> Message:
        return message_factory.GetMessageClass(self.method.input_type)()

    @property
    def reply_type(self) -> type[Message]:
        return message_factory.GetMessageClass(self.method.output_type)


@dataclass(frozen=True)
class Relayed:
    """What an HTTP request brings to its rpc: metadata and the deadline."""

    request_id: str
    metadata: tuple[tuple[str, str], ...]
    timeout: float | None


class Gateway:
    """The loopback channel and the rpcs over it; ``open`` once in the event loop."""

    def __init__(self, target: str, max_message_bytes: int, authentication: Authentication):
        self.target = target
        self.max_message_bytes = max_message_bytes
        self.authentication = authentication
        self._channel: grpc.aio.Channel | None = None

    async def open(self) -> None:
        limit = grpc_receive_limit(self.max_message_bytes)
        self._channel = grpc.aio.insecure_channel(
            self.target,
            options=[
                ("grpc.max_receive_message_length", limit),
                ("grpc.max_send_message_length", limit),
            ],
        )

    async def close(self) -> None:
        if self._channel is not None:
            await self._channel.close(grace=None)

    @property
    def channel(self) -> grpc.aio.Channel:
        assert self._channel is not None, "the gateway is not open"
        return self._channel

    # -- one call -------------------------------------------------------------------------
    def relayed(self, request: Request) -> Relayed:
        """The request id and metadata for ``request``'s rpc. A bad timeout header is
        refused (after the token check, by ``refusal``)."""
        request_id = request_id_of(request.headers.get(REQUEST_ID_HEADER, ""))
        metadata = [(REQUEST_ID_HEADER, request_id)]
        if request.client is not None:
            metadata.append((HTTP_PEER_HEADER, f"{request.client.host}:{request.client.port}"))
        if "authorization" in request.headers:
            metadata.append(("authorization", request.headers["authorization"]))
        return Relayed(request_id, tuple(metadata), _timeout(request.headers.get(TIMEOUT_HEADER)))

    async def unary(
        self, request: Request, rpc: Rpc, message: Message, relayed: Relayed
    ) -> Response:
        """Call a unary rpc with ``message``; its reply (or its error) as the response."""
        call = self.channel.unary_unary(
            rpc.path,
            request_serializer=type(message).SerializeToString,
            response_deserializer=rpc.reply_type.FromString,
        )(message, metadata=relayed.metadata, timeout=relayed.timeout)
        return await self._finish(request, call, relayed)

    async def client_stream(
        self, request: Request, rpc: Rpc, messages: Iterable[Message], relayed: Relayed
    ) -> Response:
        """Call a client-streaming rpc (Ingest, IngestTable) with ``messages``."""
        items = list(messages)
        call = self.channel.stream_unary(
            rpc.path,
            request_serializer=type(rpc.request()).SerializeToString,
            response_deserializer=rpc.reply_type.FromString,
        )(iter(items), metadata=relayed.metadata, timeout=relayed.timeout)
        return await self._finish(request, call, relayed)

    async def _finish(self, request: Request, call, relayed: Relayed) -> Response:
        try:
            reply = await _unless_gone(request, call)
        except grpc.aio.AioRpcError as error:
            return error_response(status_of(error, relayed.request_id), relayed.request_id)
        return json_response(to_json(reply), relayed.request_id)

    def server_stream(self, request: Request, rpc: Rpc, message: Message, relayed: Relayed):
        """A server-streaming call (AskStream): its messages are read with ``read()``."""
        return self.channel.unary_stream(
            rpc.path,
            request_serializer=type(message).SerializeToString,
            response_deserializer=rpc.reply_type.FromString,
        )(message, metadata=relayed.metadata, timeout=relayed.timeout)

    # -- refusals of the gateway's own -------------------------------------------------------
    def check_token(self, request: Request, rpc: Rpc, call: Call | None = None) -> None:
        """Raise what the server's Authentication guard raises for ``request``'s token on
        ``rpc`` (missing, unknown, or a reader's on an admin rpc)."""
        call = call or Call(rpc.path, dict(request.headers.items()))
        with self.authentication(call, None):
            pass

    def refusal(self, request: Request, rpc: Rpc, error: Exception) -> Response:
        """The response for a request the gateway cannot turn into ``rpc``'s message:
        the token is checked first (by the server's Authentication guard), so a caller
        without a good one is told that instead. Logged as the gRPC side logs calls."""
        request_id = request_id_of(request.headers.get(REQUEST_ID_HEADER, ""))
        call = Call(rpc.path, dict(request.headers.items()), request_id)
        try:
            self.check_token(request, rpc, call)
        except Exception as refused:
            error = refused
        status = status_message(error, request_id)
        line = {
            "method": f"HTTP {request.method} {request.url.path} ({rpc.path})",
            "status": outcome_for(error).code.name,
            "ms": 0,
            "request_id": request_id,
            "peer": f"http:{request.client.host}:{request.client.port}" if request.client else "",
            "role": call.access.role if call.access else ANONYMOUS,
            "pid": os.getpid(),
        }
        access_log.info(json.dumps(line))
        return error_response(status, request_id)


async def _unless_gone(request: Request, call) -> Any:
    """The reply of ``call``; if the HTTP client disconnects first, the call is
    cancelled (the server then stops its work) and CANCELLED raised."""
    reply = asyncio.ensure_future(_awaited(call))
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait({reply, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
    if not reply.done():
        call.cancel()
    return await reply


async def _awaited(call) -> Any:
    return await call


async def _disconnected(request: Request) -> None:
    """Returns once the client has gone (the body was read already: only a disconnect
    can come)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def _timeout(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise InvalidField(
            "X-Request-Timeout",
            f"the X-Request-Timeout header is {value[:40]!r}: give the seconds the request may "
            "take, a number above 0 ('30', '2.5'), or leave it out",
        )
    return seconds


def json_response(body: str, request_id: str, status: int = 200) -> Response:
    return Response(body, status, media_type=JSON, headers={"x-request-id": request_id})


def error_response(status: status_pb2.Status, request_id: str) -> Response:
    """The failed call's Status as JSON, with the HTTP status for its code."""
    response = json_response(to_json(status), request_id, http_status(status.code))
    delay = retry_after(status)
    if delay is not None:
        response.headers["retry-after"] = delay
    return response


def sse(kind: str, data: str) -> bytes:
    """One Server-Sent Event (``data`` is one line of JSON)."""
    return f"event: {kind}\ndata: {data}\n\n".encode()
