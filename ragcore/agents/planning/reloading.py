"""Strategy hot reload: a strategy file re-read when it changes, keeping the last good one.

Operators edit the rules file of a running server; a change (mtime or size) is picked up
on the next read, and a broken edit is logged and refused instead of stopping answers.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from ragcore.agents.planning.strategy import Strategy, load_strategy
from ragcore.errors import ConfigError

log = logging.getLogger(__name__)


class ReloadingStrategy:
    """The strategy of one file (the shipped default when ``path`` is None), kept current.

    The first load raises ``ConfigError`` for a broken file; later broken versions are
    logged, ``error`` says why, and the last good strategy stays in force.
    """

    def __init__(self, path: Path | str | None = None) -> None:
        self._strategy = load_strategy(path)
        self._stamp = _stamp(self._strategy.path)
        self._lock = threading.Lock()
        self.error: str | None = None

    @property
    def current(self) -> Strategy:
        """The strategy in force, re-read first if its file changed."""
        stamp = _stamp(self._strategy.path)
        if stamp != self._stamp:
            with self._lock:  # one thread re-reads; the others see the new stamp
                if stamp != self._stamp:
                    self._stamp = stamp
                    try:
                        self._strategy = load_strategy(self._strategy.path)
                        self.error = None
                        log.info("strategy reloaded from %s", self._strategy.path)
                    except ConfigError as exc:
                        self.error = str(exc)
                        log.error("%s; keeping the last good strategy", exc)
        return self._strategy


def _stamp(path: Path) -> tuple[int, int] | None:
    """(mtime in ns, size) of ``path``, or None when it cannot be read."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size)
