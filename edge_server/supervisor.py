"""``ragcore serve --processes N``: N server processes behind one port, supervised.

Why: one process is bound by the GIL (4 concurrent clients got only 1.34–1.44× the
throughput of one). The parent loads no model: it listens on the service's port itself
(so a port in use is still a clear error) and starts N children, each a whole
``python -m edge_server`` with its own Engine and gRPC server on a private unix socket;
each new connection on the port is relayed to the child holding the fewest
(``edge_server.balancer``: the kernel's SO_REUSEPORT hashing, used before, could leave a
child idle). It restarts a child that dies, with backoff, and on SIGTERM or SIGINT tells
every child to drain (each says NOT_SERVING and gives its in-flight calls ``--grace``
seconds) and exits 0 once all have.

Children are started fresh (not forked from the parent) so that no gRPC or onnxruntime
state crosses a fork. On the sqlite store they share one data directory: each catches up
with the others' writes before a read (``ragcore.storage.vector_index``).
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from edge_server.balancer import Balancer
from edge_server.config import ServerConfig
from ragcore.errors import ConfigError

log = logging.getLogger(__name__)

STOP_MARGIN_SECONDS = 15.0  # beyond the grace period: a child closes its engine, then exits
POLL_SECONDS = 0.2
CONFIG_ERROR_EXIT = 2  # what ``ragcore serve`` exits with on a bad setting
_PR_SET_PDEATHSIG = 1
LISTEN_BACKLOG = 1024


def default_processes() -> int:
    """The cores this process may run on (1 on a one-core machine: today's single process)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Backoff:
    """How long a dead child's slot waits before its restart: ``first``, doubling on each
    quick death up to ``longest``; a child that lived ``healthy_after`` seconds starts the
    count again. ``give_up_after`` quick deaths in a row stop the whole service (a child
    that cannot start, e.g. its metrics port is taken, would only fail again)."""

    first: float = 0.5
    longest: float = 30.0
    healthy_after: float = 30.0
    give_up_after: int = 5


@dataclass
class _Slot:
    """One child's place: its process now, and its restart bookkeeping."""

    index: int
    process: subprocess.Popen | None = None
    started: float = 0.0
    delay: float = 0.0
    quick_deaths: int = 0
    restart_at: float | None = None
    runs: int = 0


def open_listener(config: ServerConfig) -> socket.socket:
    """The service's address, bound and listening, for the parent's ``Balancer``
    (without SO_REUSEPORT: a port in use is a ConfigError, as for a single process)."""
    host = config.host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    # As gRPC does: a port whose last connections are in TIME_WAIT is free.
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, config.port))
        listener.listen(LISTEN_BACKLOG)
    except OSError as error:
        listener.close()
        raise ConfigError(
            "port",
            config.address,
            f"cannot listen there ({error.strerror or error}): the port is in use or "
            "the host is not an address of this machine; choose another (port 0 "
            "picks a free one)",
        ) from error
    return listener


def child_metrics_port(base: int | None, index: int) -> int | None:
    """Each child serves its own metrics: ``base + index`` (0: each picks a free one)."""
    if base is None or base == 0:
        return base
    return base + index


def child_workers(workers: int, processes: int) -> int:
    """Each child's share of the server's ``--workers`` (rounded up, at least 1): the
    server as a whole works on as many requests at once with any ``--processes``. Not
    ``workers`` each: N children each running 4 answers on 2 cores slice every core
    between answers, and all of them finish late together."""
    return max(1, -(-workers // processes))


def check_metrics_ports(base: int | None, processes: int) -> None:
    if base and base + processes - 1 > 65535:
        raise ConfigError(
            "metrics_port",
            base,
            f"the {processes} processes serve metrics on {base}..{base + processes - 1}: "
            f"use at most {65535 - processes + 1}",
        )


class Supervisor:
    """Runs ``processes`` children made by ``command(index)`` until ``stop()``."""

    def __init__(
        self,
        processes: int,
        command: Callable[[int], Sequence[str]],
        grace_seconds: float,
        backoff: Backoff = Backoff(),
    ) -> None:
        self.command = command
        self.grace_seconds = grace_seconds
        self.backoff = backoff
        self.slots = [_Slot(i) for i in range(processes)]
        self._stop = threading.Event()

    def stop(self) -> None:
        """Ask for a drain; safe from a signal handler."""
        self._stop.set()

    def run(self) -> int:
        """Start the children, keep them running, drain them on ``stop()``. Returns 0 when
        every child drained and exited 0, else 1."""
        for slot in self.slots:
            self._start(slot)
        failure = None
        while failure is None and not self._stop.wait(POLL_SECONDS):
            failure = self._tend()
        status = self._drain()
        return status if failure is None else failure

    def pids(self) -> list[int]:
        return [s.process.pid for s in self.slots if s.process and s.process.poll() is None]

    # -- keeping them running ------------------------------------------------------------
    def _start(self, slot: _Slot) -> None:
        # No preexec_fn: Python run between fork and exec is unsafe while this process has
        # other threads (the relay's, gRPC's); a child died of SIGABRT there. A child sets
        # its own parent-death signal instead (``die_with_parent``).
        slot.process = subprocess.Popen(list(self.command(slot.index)), stdin=subprocess.DEVNULL)
        slot.started = time.monotonic()
        slot.restart_at = None
        slot.runs += 1
        log.info("process %d started (pid %d)", slot.index, slot.process.pid)

    def _tend(self) -> int | None:
        """Restart dead children when their backoff is over; an exit status to give up:
        the first run of a child ending with ``CONFIG_ERROR_EXIT`` (its error is on stderr:
        a setting the parent could not check), or too many quick deaths in a row."""
        now = time.monotonic()
        for slot in self.slots:
            if slot.restart_at is not None:
                if now >= slot.restart_at:
                    self._start(slot)
                continue
            assert slot.process is not None
            code = slot.process.poll()
            if code is None:
                continue
            lived = now - slot.started
            if code == CONFIG_ERROR_EXIT and slot.runs == 1:
                log.error("process %d could not start (see its error): stopping", slot.index)
                return CONFIG_ERROR_EXIT
            if lived >= self.backoff.healthy_after:
                slot.delay, slot.quick_deaths = 0.0, 0
            slot.quick_deaths += 1
            slot.delay = (
                self.backoff.first if slot.delay == 0 else min(2 * slot.delay, self.backoff.longest)
            )
            how = f"was killed by {_signal_name(-code)}" if code < 0 else f"exited with {code}"
            if slot.quick_deaths > self.backoff.give_up_after:
                log.error(
                    "process %d (pid %d) %s after %.1f s, %d times in a row: giving up",
                    slot.index,
                    slot.process.pid,
                    how,
                    lived,
                    slot.quick_deaths,
                )
                return 1
            log.warning(
                "process %d (pid %d) %s after %.1f s: restarting it in %.2f s",
                slot.index,
                slot.process.pid,
                how,
                lived,
                slot.delay,
            )
            slot.restart_at = now + slot.delay
        return None

    # -- stopping ------------------------------------------------------------------------
    def _drain(self) -> int:
        running = [s.process for s in self.slots if s.process and s.process.poll() is None]
        log.info("draining %d processes", len(running))
        for process in running:
            process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.grace_seconds + STOP_MARGIN_SECONDS
        status = 0
        for process in running:
            try:
                code = process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.error("pid %d did not stop in time: killing it", process.pid)
                process.kill()
                code = process.wait()
            if code != 0:
                log.error("pid %d exited with %d", process.pid, code)
                status = 1
        log.info("all processes stopped")
        return status


def supervise(
    processes: int,
    command: Callable[[int, Path], Sequence[str]],
    grace_seconds: float,
    listener: socket.socket,
) -> int:
    """Relay ``listener``'s connections to the children (``command(index, socket)``: child
    ``index`` listens on the unix ``socket``) and run a Supervisor until SIGTERM or
    SIGINT; its exit status. The sockets are in a private directory (mode 0700)."""
    with tempfile.TemporaryDirectory(prefix="ragcore-serve-") as private:
        sockets = [Path(private) / f"process-{i}.sock" for i in range(processes)]
        supervisor = Supervisor(processes, lambda i: command(i, sockets[i]), grace_seconds)
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda _number, _frame: supervisor.stop())
        balancer = Balancer(listener, sockets).start()
        try:
            return supervisor.run()
        finally:  # every child has exited: nothing is left to relay to
            balancer.stop()
            log.info("connections relayed per process: %s", balancer.relayed)


def child_command(
    serve_args: Sequence[str], index: int, private_socket: Path, metrics: int | None
) -> list[str]:
    """``python -m edge_server`` with the parent's options, one process, listening on
    ``private_socket`` (the parent relays the port's connections to it)."""
    command = [sys.executable, "-m", "edge_server", *serve_args]
    command += ["--processes", "1", "--child", str(index), "--child-socket", str(private_socket)]
    command += ["--parent-pid", str(os.getpid())]
    if metrics is not None:
        command += ["--metrics-port", str(metrics)]
    return command


def die_with_parent(parent: int) -> None:
    """Called first in a child of ``--processes N``: SIGTERM when ``parent`` dies (killed
    -9 too), so the child drains instead of serving on unsupervised (Linux; elsewhere the
    child outlives the parent)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before the signal was asked for
        os.kill(os.getpid(), signal.SIGTERM)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
