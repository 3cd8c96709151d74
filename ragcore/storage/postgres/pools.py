"""The PostgreSQL store's connections: its pools, and the circuit that stops using them
while the database is down.

An outage is a state, not a stream of errors. The first call that finds the database
unreachable (a refused or lost connection, a pool that cannot hand one out within the
connect timeout) *opens* the circuit: from then on every call fails at once with a
``StoreUnavailableError`` (the edge's UNAVAILABLE with a RetryInfo) instead of holding a
worker while the pool waits, and one background thread probes the database every
``PROBE_INTERVAL`` seconds with a fresh connection. When a probe succeeds the pools are
replaced by fresh ones (the old ones may sit in a reconnect backoff of many seconds: the
slow and erratic recovery measured before) and the circuit closes; watchers (the edge's
health service) hear of both changes. ``watch`` also starts a heartbeat, a ``SELECT 1``
every ``HEARTBEAT_INTERVAL`` seconds, so an idle server notices an outage too.

Invariants: a closed circuit never blocks a call; an open one never touches a pool;
exactly one probe thread runs while it is open; watchers are called outside the lock, in
the order of the changes.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from ragcore.config import StoreSettings
from ragcore.errors import StoreUnavailableError

log = logging.getLogger(__name__)

PROBE_INTERVAL = 0.25  # seconds between probes while the database is down
HEARTBEAT_INTERVAL = 1.0  # seconds between checks of an idle, healthy database
# SQLSTATEs of a server that is going away or not accepting connections yet (admin
# shutdown, crash shutdown, cannot connect now) and the connection-exception class.
_GONE_STATES = ("57P01", "57P02", "57P03")


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached (rather than that a statement
    failed): it then opens the circuit."""
    if isinstance(exc, PoolTimeout):
        return True
    if not isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
        return False
    state = getattr(exc, "sqlstate", None)
    return state is None or state.startswith("08") or state in _GONE_STATES


class Pools:
    """The primary's pool and, with ``read_url``, a replica's, behind one circuit; shared
    by every scoped view of a store."""

    def __init__(
        self,
        url: str,
        where: str,
        settings: StoreSettings,
        read_url: str | None = None,
    ) -> None:
        self._url, self._read_url, self.where = url, read_url, where
        self.settings = settings
        self._lock = threading.Lock()
        self._down: str | None = None  # why the circuit is open; None: closed
        self._probing = False
        self._closed = threading.Event()
        self._watchers: list[Callable[[bool], None]] = []
        self._heartbeat: threading.Thread | None = None
        self._primary = self._open(url, "ragcore")
        self._reads = self._open(read_url, "ragcore-replica") if read_url else self._primary

    # -- connections ---------------------------------------------------------------
    @contextlib.contextmanager
    def primary(self) -> Iterator[psycopg.Connection]:
        """A connection to the primary; StoreUnavailableError at once while it is down."""
        self.check()
        with self._primary.connection() as conn:
            yield conn

    @contextlib.contextmanager
    def reads(self) -> Iterator[psycopg.Connection]:
        """A connection for searches and document reads (the replica's, if any)."""
        self.check()
        with self._reads.connection() as conn:
            yield conn

    def _open(self, url: str, name: str) -> ConnectionPool:
        s = self.settings
        timeout = f"{round(s.statement_timeout * 1000)}ms"

        def configure(conn: psycopg.Connection) -> None:
            if not s.prepared_statements:
                conn.prepare_threshold = None
            if s.statement_timeout > 0:
                conn.execute("SELECT set_config('statement_timeout', %s, false)", (timeout,))

        return ConnectionPool(
            url,
            min_size=1,
            max_size=s.pool_size,
            kwargs={"autocommit": True, "connect_timeout": _whole_seconds(s.connect_timeout)},
            configure=configure,
            timeout=s.connect_timeout,  # the longest wait for a free connection
            reconnect_timeout=3600.0,  # keep trying: the circuit decides when it is down
            name=name,
            open=True,
        )

    # -- the circuit ---------------------------------------------------------------
    @property
    def available(self) -> bool:
        return self._down is None

    def check(self) -> None:
        """StoreUnavailableError if the circuit is open."""
        down = self._down
        if down is not None:
            raise StoreUnavailableError(
                f"PostgreSQL at {self.where} is unreachable ({down}); the store is retrying "
                f"every {PROBE_INTERVAL:g} s: try again in a moment"
            )

    def trip(self, reason: str) -> None:
        """Open the circuit (the database was found unreachable) and start probing."""
        with self._lock:
            if self._closed.is_set():
                return
            changed = self._down is None
            self._down = reason
            if not self._probing:
                self._probing = True
                threading.Thread(target=self._probe, name="store-probe", daemon=True).start()
        if changed:
            log.warning("PostgreSQL at %s is unreachable: %s", self.where, reason)
            self._tell(False)

    def _probe(self) -> None:
        """Until a fresh connection works (to the replica too): then new pools, closed
        circuit."""
        while not self._closed.wait(PROBE_INTERVAL):
            try:
                for url in filter(None, (self._url, self._read_url)):
                    timeout = _whole_seconds(self.settings.connect_timeout)
                    with psycopg.connect(url, autocommit=True, connect_timeout=timeout) as conn:
                        conn.execute("SELECT 1")
            except psycopg.Error as exc:
                with self._lock:
                    self._down = _first_line(exc)
                continue
            old = [self._primary, self._reads]
            primary = self._open(self._url, "ragcore")
            reads = self._open(self._read_url, "ragcore-replica") if self._read_url else primary
            with self._lock:
                self._primary, self._reads = primary, reads
                self._down = None
                self._probing = False
            for pool in dict.fromkeys(old):  # in the background: in-flight calls return theirs
                threading.Thread(target=pool.close, daemon=True).start()
            log.warning("PostgreSQL at %s is reachable again", self.where)
            self._tell(True)
            return
        with self._lock:
            self._probing = False

    def watch(self, watcher: Callable[[bool], None]) -> None:
        """Call ``watcher(available)`` on every change of the database's state, and check
        it every ``HEARTBEAT_INTERVAL`` seconds from now on (an idle server notices too)."""
        with self._lock:
            self._watchers.append(watcher)
            if self._heartbeat is None:
                self._heartbeat = threading.Thread(
                    target=self._beat, name="store-heartbeat", daemon=True
                )
                self._heartbeat.start()

    def _beat(self) -> None:
        while not self._closed.wait(HEARTBEAT_INTERVAL):
            if self._down is not None:
                continue  # the probe is on it
            try:
                with self.primary() as conn:
                    conn.execute("SELECT 1")
            except StoreUnavailableError:
                continue
            except psycopg.Error as exc:
                if is_outage(exc):
                    self.trip(_first_line(exc))

    def _tell(self, available: bool) -> None:
        for watcher in list(self._watchers):
            try:
                watcher(available)
            except Exception:  # a watcher's bug must not stop the probe or the others
                log.exception("a store watcher failed")

    def close(self) -> None:
        self._closed.set()
        self._primary.close()
        if self._reads is not self._primary:
            self._reads.close()


def _whole_seconds(seconds: float) -> int:
    """libpq's connect_timeout is whole seconds (psycopg waits at least 2)."""
    return max(1, round(seconds))


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
