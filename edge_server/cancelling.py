"""Stopping work that nobody waits for: a cancellation token per rpc, and all at shutdown.

Each long rpc (Ask, AskStream, Ingest) runs with a ``ragcore.Cancellation`` whose poll
reads gRPC's context: the deadline passed (DEADLINE_EXCEEDED) or the client went away
(CANCELLED). The engine checks it between stages of an answer and between model batches
of an ingest, so work for nobody stops within a batch and the write lock is free again.

``InFlight`` keeps the tokens of the rpcs running: when the grace period of a shutdown
is over, the server cancels them all (reason ``shutdown``: UNAVAILABLE) before it tells
any client anything, and as a cancel waits for a commit in progress and no commit starts
after it, nothing is committed after a client was told UNAVAILABLE.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import grpc

from ragcore import Cancellation
from ragcore.types import CancelReason

# A deadline gRPC enforces ends the call a moment before (or after) our own clock says it
# passed: a call ended this close to its deadline is taken as past it, not as a cancel.
DEADLINE_SLACK_SECONDS = 0.05


def why_stopped(context: grpc.ServicerContext) -> CancelReason | None:
    """Why the rpc's work should stop now (its deadline passed, its client left), or None."""
    remaining = context.time_remaining()
    if remaining is not None and remaining <= 0:
        return CancelReason.DEADLINE
    if context.is_active():
        return None
    remaining = context.time_remaining()
    if remaining is not None and remaining <= DEADLINE_SLACK_SECONDS:
        return CancelReason.DEADLINE
    return CancelReason.CLIENT


class InFlight:
    """The cancellation tokens of the rpcs in flight; ``cancel_all`` stops every one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens: set[Cancellation] = set()
        self._stopping: CancelReason | None = None

    @contextlib.contextmanager
    def token(self, context: grpc.ServicerContext) -> Iterator[Cancellation]:
        """A token for one rpc, cancelled when its deadline passes, its client leaves or
        ``cancel_all`` is called (already cancelled if that was before)."""
        token = Cancellation(lambda: why_stopped(context))
        with self._lock:
            if self._stopping is not None:
                token.cancel(self._stopping)
            self._tokens.add(token)
        try:
            yield token
        finally:
            with self._lock:
                self._tokens.discard(token)

    def reasons(self) -> list[CancelReason | None]:
        """Why each rpc in flight should stop (None: it goes on), as its token reads now."""
        with self._lock:
            tokens = list(self._tokens)
        return [token.reason for token in tokens]

    def cancel_all(self, reason: CancelReason) -> int:
        """Cancel every token, now and to come; returns how many were in flight, once no
        commit of theirs is in progress (none starts after)."""
        with self._lock:
            self._stopping = reason
            tokens = list(self._tokens)
        for token in tokens:
            token.cancel(reason)
        return len(tokens)
