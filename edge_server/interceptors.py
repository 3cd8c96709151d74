"""The one interceptor, and a guard per concern: access log, authentication, admission.

A guard is a context manager entered around an rpc's handler (for a streaming reply,
around the whole stream). It refuses a call by raising one of ``edge_server.errors``'
errors. Whatever the handler or a guard raises ends the rpc here, with the status (and
its rich details) from the status table: the servicer has no error handling of its own.
Health checks and reflection pass through authentication and admission untouched.

Request bytes that do not decode are refused the same way (INVALID_ARGUMENT), and so are
messages over max_message_bytes (RESOURCE_EXHAUSTED), once the guards have run: an
unauthenticated caller learns only that it needs a token, and every refusal is logged.
The servicer gets a ``CallContext``: gRPC's context plus what the guards learned (the
caller's ``Access``).
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import re
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass
from typing import Protocol

import grpc
from google.protobuf.message import DecodeError

from edge_server.auth import FULL_ACCESS, Access, Tokens, bearer_token
from edge_server.errors import (
    AdminRequired,
    Busy,
    DeadlinePassed,
    MalformedRequest,
    MessageTooLarge,
    NotReady,
    ShuttingDown,
    TokenMissing,
    TokenUnknown,
    abort,
    status_for,
)
from edge_server.names import SERVICE, method
from ragcore.errors import RagcoreError

ADMIN_METHODS = frozenset(
    {
        method("Ingest"),
        method("IngestTable"),
        method("DeleteDocument"),
        method("DeleteKnowledgeBase"),
    }
)
# Cheap reads: neither counted against max_in_flight nor queued for a worker, so a busy
# server can still be watched (and its limits read).
LIGHT_METHODS = frozenset(
    {
        method("GetStats"),
        method("ListKnowledgeBases"),
        method("GetServerInfo"),
        method("GetDocument"),
    }
)
ANONYMOUS = "anonymous"  # the access log's role for a caller without a known token
REQUEST_ID_HEADER = "x-request-id"
HTTP_PEER_HEADER = "x-ragcore-http-peer"  # set by the HTTP gateway (edge_server.http)
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")

access_log = logging.getLogger("edge_server.access")


@dataclass
class Call:
    """What the guards learn about one rpc (filled in as they run)."""

    method: str
    metadata: dict[str, str]
    request_id: str = ""
    access: Access | None = None  # known once Authentication has run

    @property
    def ragcore_method(self) -> bool:
        return self.method.startswith(f"/{SERVICE}/")


class CallContext:
    """The rpc's ``grpc.ServicerContext`` (every attribute is its), plus ``call``: what
    the guards learned about the rpc. The servicer's methods get one of these."""

    def __init__(self, context: grpc.ServicerContext, call: Call) -> None:
        self._context = context
        self.call = call

    @property
    def access(self) -> Access:
        """The caller's role and scope (Authentication has run before any handler)."""
        assert self.call.access is not None, "the Authentication guard did not run"
        return self.call.access

    def __getattr__(self, name: str):
        return getattr(self._context, name)


class Guard(Protocol):
    def __call__(self, call: Call, context: grpc.ServicerContext) -> AbstractContextManager: ...


class Guards(grpc.ServerInterceptor):
    """Enters each guard, in order, around every rpc; maps whatever is raised to a status."""

    def __init__(self, guards: Sequence[Guard], max_message_bytes: int) -> None:
        self.guards = tuple(guards)
        self.max_message_bytes = max_message_bytes

    def intercept_service(self, continuation, details):
        handler = continuation(details)
        if handler is None:
            return None
        metadata = {k: v for k, v in details.invocation_metadata if isinstance(v, str)}
        return _guarded(
            handler, lambda: Call(details.method, metadata), self.guards, self.max_message_bytes
        )


def _guarded(
    handler: grpc.RpcMethodHandler, new_call, guards, max_message_bytes: int
) -> grpc.RpcMethodHandler:
    """The same handler with the guards around its behaviour."""
    kind = (
        ("stream" if handler.request_streaming else "unary")
        + "_"
        + ("stream" if handler.response_streaming else "unary")
    )
    behaviour = getattr(handler, kind)

    @contextlib.contextmanager
    def guarded(context) -> Iterator[Call]:
        call = new_call()
        try:
            with ExitStack() as stack:
                for guard in guards:
                    stack.enter_context(guard(call, context))
                yield call
        except Exception as error:
            # Already ended with a status, or gone: a request stream raises RpcError once
            # gRPC has cancelled the call (the client left, or gRPC itself refused a
            # message), and gRPC expects that very error back.
            if context.code() is not None or isinstance(error, grpc.RpcError):
                raise
            abort(context, error, call.request_id)  # a bug is INTERNAL, with the request id

    def servicer_context(context, call: Call):
        return CallContext(context, call) if call.ragcore_method else context

    # The request (or each of a stream's) as decoded, or its MalformedRequest raised: the
    # guards have run by then, the token check first.
    requests = (lambda r: map(_decoded, r)) if handler.request_streaming else _decoded
    # gRPC runs a handler marked experimental_non_blocking (health's Watch) without
    # holding a pool thread for its stream: it passes a send_response_callback (``more``)
    # and the handler returns at once. ``wraps`` keeps the mark, which a plain wrapper
    # would drop, holding a thread per open stream; the guards then see the call's start.
    blocking_stream = handler.response_streaming and not getattr(
        behaviour, "experimental_non_blocking", False
    )
    if blocking_stream:

        @functools.wraps(behaviour)
        def run(request, context, *more):
            with guarded(context) as call:
                yield from behaviour(requests(request), servicer_context(context, call), *more)
    else:

        @functools.wraps(behaviour)
        def run(request, context, *more):
            with guarded(context) as call:
                return behaviour(requests(request), servicer_context(context, call), *more)

    return getattr(grpc, f"{kind}_rpc_method_handler")(
        run,
        request_deserializer=_decoding(handler.request_deserializer, max_message_bytes),
        response_serializer=handler.response_serializer,
    )


def _decoding(deserialize, max_message_bytes: int):
    """``deserialize``, but bytes it cannot decode give a MalformedRequest, and more
    than ``max_message_bytes`` a MessageTooLarge, instead of an error.

    A deserializer that raises makes gRPC log a traceback and answer INTERNAL before any
    guard runs, so any caller could fill the log; and a message gRPC itself refuses for
    its size never reaches a handler, so it would not be logged at all. The request
    handed on instead is raised by ``_decoded`` once the guards have let the call in.
    (gRPC's own limit is set above max_message_bytes for this: see server.py.)
    """
    if deserialize is None:
        return None

    def decode(data: bytes):
        if len(data) > max_message_bytes:
            return MessageTooLarge(len(data), max_message_bytes)
        try:
            return deserialize(data)
        except DecodeError as error:
            return MalformedRequest(
                f"the request is malformed ({error}): send the rpc's request message, "
                "serialized by a protobuf library from the .proto"
            )

    return decode


def _decoded(request):
    if isinstance(request, MalformedRequest | MessageTooLarge):
        raise request
    return request


@contextlib.contextmanager
def access_log_guard(call: Call, context) -> Iterator[None]:
    """One JSON line per request, refused ones included: method, status, duration,
    request id, peer, role ("anonymous" without a known token), the serving process's pid
    (``serve --processes N`` runs several on one port) and, for a scoped token, its scope.

    Never the question, the document text or a token. The request id is the client's
    ``x-request-id`` when it sends a usable one, else a new one; it is sent back in the
    reply's initial metadata.
    """
    call.request_id = request_id_of(call.metadata.get(REQUEST_ID_HEADER, ""))
    context.send_initial_metadata(((REQUEST_ID_HEADER, call.request_id),))
    started = time.perf_counter()
    error: BaseException | None = None
    try:
        yield
    except BaseException as raised:
        error = raised
        raise
    finally:
        line = {
            "method": call.method,
            "status": _final_status(context, error).name,
            "ms": round((time.perf_counter() - started) * 1000, 3),
            "request_id": call.request_id,
            "peer": _peer(call, context),
            "role": call.access.role if call.access else ANONYMOUS,
            "pid": os.getpid(),
        }
        if call.access and call.access.knowledge_bases is not None:
            line["scope"] = call.access.scope_names
        # Health probes come every few seconds: keep them out of the default log level.
        access_log.log(logging.INFO if call.ragcore_method else logging.DEBUG, json.dumps(line))


def _peer(call: Call, context) -> str:
    """The caller's address; for a call the HTTP gateway relays (over its private Unix
    socket, the only one the server listens on), the HTTP client's, as "http:ADDRESS"."""
    peer = context.peer()
    relayed = call.metadata.get(HTTP_PEER_HEADER)
    return f"http:{relayed}" if relayed and peer.startswith("unix:") else peer


def request_id_of(given: str) -> str:
    """The request id for a call whose client sent ``given``: that, when usable (1-64
    letters, digits, '.', '_' or '-'), else a new one."""
    return given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex[:16]


def _final_status(context, error: BaseException | None) -> grpc.StatusCode:
    """The code the client gets: set already, or the one ``_guarded`` is about to set."""
    if context.code() is not None:
        return context.code()
    if error is None:
        return grpc.StatusCode.OK
    if isinstance(error, GeneratorExit | grpc.RpcError):  # the client (or gRPC) ended it
        return grpc.StatusCode.CANCELLED
    return status_for(error)


class Authentication:
    """Bearer tokens: any known token may read; only admin tokens may write. The
    caller's ``Access`` (role and scope) is left on the call for the servicer."""

    def __init__(self, tokens: Tokens) -> None:
        self.tokens = tokens

    @contextlib.contextmanager
    def __call__(self, call: Call, context) -> Iterator[None]:
        if call.ragcore_method:
            self._authenticate(call)
        yield

    def _authenticate(self, call: Call) -> None:
        if not self.tokens.enabled:
            call.access = FULL_ACCESS
            return
        token = bearer_token(call.metadata)
        if token is None:
            raise TokenMissing(
                "this server needs a token: send the metadata 'authorization: Bearer <token>'"
            )
        call.access = self.tokens.access_of(token)
        if call.access is None:
            raise TokenUnknown("the bearer token is not one this server knows")
        if call.method in ADMIN_METHODS and not call.access.admin:
            name = call.method.rsplit("/", 1)[-1]
            raise AdminRequired(f"{name} needs an admin token; this one is a reader's")


class Admission:
    """Admits ragcore rpcs only while serving, at most ``max_in_flight`` at once.

    Admitted calls then wait (within their deadline) for one of ``workers`` slots, so
    a burst queues briefly instead of piling every call onto two cores at once. The
    cheap reads (LIGHT_METHODS) are neither counted nor queued.
    """

    LOADING, SERVING, FAILED, DRAINING = "loading", "serving", "failed", "draining"
    STOPPING = "stopping"  # the grace period is over: in-flight work is being cancelled

    def __init__(self, max_in_flight: int, workers: int) -> None:
        self.max_in_flight = max_in_flight
        self.state = self.LOADING
        self.failure: RagcoreError | None = None
        self._in_flight = 0
        self._count_lock = threading.Condition()
        self._workers = threading.BoundedSemaphore(workers)

    @property
    def in_flight(self) -> int:
        return self._in_flight

    @contextlib.contextmanager
    def __call__(self, call: Call, context) -> Iterator[None]:
        if not call.ragcore_method:
            yield
            return
        self._check_state()
        if call.method in LIGHT_METHODS:
            yield
            return
        with self._count_lock:
            if self._in_flight >= self.max_in_flight:
                raise Busy(
                    f"the server is busy: {self.max_in_flight} requests in flight is its "
                    "limit; retry with backoff"
                )
            self._in_flight += 1
        try:
            with self._worker(context):
                yield
        finally:
            with self._count_lock:
                self._in_flight -= 1
                self._count_lock.notify_all()

    @contextlib.contextmanager
    def _worker(self, context) -> Iterator[None]:
        remaining = context.time_remaining()
        wait = None if remaining is None else max(remaining, 0.0)
        if not self._workers.acquire(timeout=wait):
            raise DeadlinePassed("the deadline passed while the request waited for a worker")
        try:
            yield
        finally:
            self._workers.release()

    def wait_idle(self, timeout: float) -> bool:
        """Block until no admitted rpc is in flight; False if ``timeout`` s passed first."""
        with self._count_lock:
            return self._count_lock.wait_for(lambda: self._in_flight == 0, timeout)

    def _check_state(self) -> None:
        if self.state == self.SERVING:
            return
        if self.state == self.FAILED and self.failure is not None:
            raise self.failure
        if self.state in (self.DRAINING, self.STOPPING):
            raise ShuttingDown("the server is shutting down; retry on another server or later")
        raise NotReady("the server is still loading its models and index; retry in a few seconds")
