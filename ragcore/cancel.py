"""Cancellation: a token that long work checks between its steps, and the one real token.

Work that can run for minutes (an ingest embeds for as long as its documents take) is
given a ``CancelToken``. It checks it between model batches (every few dozen chunks) and
holds it around each commit; once the token is cancelled, the next check raises
``Cancelled`` and the work unwinds: what was committed stays, the rest is dropped.

The seam is frozen: ``check`` and ``committing``, nothing else. ``Cancellation`` is the
implementation: cancelled by ``cancel(reason)`` from any thread (a server shutting down),
or by a ``poll`` callable that says why the work should stop (the client's deadline
passed, the client went away). ``Cancellation.cancel`` waits for a commit in progress and
no commit starts after it returns, so a caller that cancels and then tells its client
"stopped" never has a commit land after that.

    token = Cancellation()
    engine.ingest(documents, cancel=token)  # on another thread
    token.cancel(CancelReason.SHUTDOWN)      # the ingest raises Cancelled at its next check
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Protocol, runtime_checkable

from ragcore.errors import Cancelled
from ragcore.types import CancelReason

Poll = Callable[[], CancelReason | None]
"""Why the work should stop now (the deadline passed, the client went away), or None."""


@runtime_checkable
class CancelToken(Protocol):
    """What long work checks to learn it should stop (a frozen seam)."""

    def check(self, stage: str = "") -> None:
        """Raise ``Cancelled`` if the work is to stop; ``stage`` says where it was."""
        ...

    def committing(self) -> AbstractContextManager[None]:
        """Held around each commit: raises ``Cancelled`` first if the work is to stop;
        a cancel waits until a commit in progress is done."""
        ...


class Cancellation:
    """The ``CancelToken``: stopped by ``cancel(reason)``, or when ``poll`` gives a reason.

    Thread-safe: the work checks it on its threads, anyone may cancel it. The first
    reason wins and stays.
    """

    def __init__(self, poll: Poll | None = None) -> None:
        self._poll = poll
        self._reason: CancelReason | None = None
        self._commit_lock = threading.Lock()

    @property
    def reason(self) -> CancelReason | None:
        """Why the work is to stop, or None while it may go on."""
        if self._reason is None and self._poll is not None:
            polled = self._poll()
            if polled is not None:
                self._reason = polled
        return self._reason

    def cancel(self, reason: CancelReason) -> None:
        """Stop the work at its next check. Returns once no commit is in progress; none
        starts after that."""
        with self._commit_lock:
            if self._reason is None:
                self._reason = CancelReason(reason)

    def check(self, stage: str = "") -> None:
        reason = self.reason
        if reason is not None:
            raise Cancelled(reason, stage)

    @contextlib.contextmanager
    def committing(self) -> Iterator[None]:
        with self._commit_lock:
            self.check("before a commit")
            yield


class _Never:
    """A token that is never cancelled (work without a caller that could stop it)."""

    def check(self, stage: str = "") -> None:
        return None

    def committing(self) -> AbstractContextManager[None]:
        return contextlib.nullcontext()


NEVER: CancelToken = _Never()
"""The token of work nobody stops; stateless, so one is shared."""
