"""The public port of ``serve --processes N``: each connection goes to the child holding
the fewest, and its bytes are relayed both ways over that child's private unix socket.

Why not SO_REUSEPORT (each child listening on the port itself): the kernel picks a
listener by a hash of the connection's addresses, not by load, and measured with 4
clients on 2 children it put all 4 connections on one child in 2 rounds of 3, the other
idle. One listening socket inherited by every child is not possible either: grpcio cannot
listen on a socket it did not bind, nor adopt an accepted one (grpc core's
``grpc_server_add_insecure_channel_from_fd`` is not exposed), so the parent relays. The
relay is plain TCP bytes (TLS, when on, ends in the child, as before). Measured, it
costs the parent 0.27 ms of CPU per answer (a child spends 12 ms) and adds 0.14 ms to a
health check's 0.58 ms (``benchmarks/grpc_load.py --compare-processes``,
``benchmarks/relay_cost.py``).

Invariants: a connection is counted on its child from the moment that child is chosen
(so connections accepted together see each other's choices and spread out) until the
pair is closed; a child whose socket refuses (loading, restarting, or gone) is uncounted,
skipped and the next least-busy one tried; when none accepts, the connection is
closed and the client's gRPC reconnects with its backoff. Half-closes are passed on (EOF
on one side is EOF written to the other), and a side that closes closes the other once
its pending bytes are written.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import socket
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

log = logging.getLogger(__name__)

STOP_SECONDS = 5.0  # the event loop's thread is joined this long at most


class _Side(asyncio.Protocol):
    """One side of a relayed connection: what arrives on it is written to the other."""

    def __init__(self, pair: _Pair, on_made: Callable[[_Pair], None] | None = None) -> None:
        self.pair = pair
        self.transport: asyncio.Transport | None = None
        self.other: _Side | None = None
        self._on_made = on_made

    def connection_made(self, transport) -> None:
        self.transport = transport
        if self._on_made is not None:
            self._on_made(self.pair)

    def data_received(self, data: bytes) -> None:
        assert self.other is not None and self.other.transport is not None
        self.other.transport.write(data)

    def eof_received(self) -> bool:
        assert self.other is not None and self.other.transport is not None
        self.pair.eofs += 1
        if self.pair.eofs == 2:  # both ways done
            self.pair.close()
            return False
        if self.other.transport.can_write_eof():
            self.other.transport.write_eof()
        return True  # keep the other direction open

    # The other side's socket is full: stop reading this one until it drains.
    def pause_writing(self) -> None:
        if self.other is not None and self.other.transport is not None:
            self.other.transport.pause_reading()

    def resume_writing(self) -> None:
        if self.other is not None and self.other.transport is not None:
            self.other.transport.resume_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        self.pair.close()


class _Pair:
    """A client's connection and its child's; counted on the child until closed."""

    def __init__(self, balancer: Balancer) -> None:
        self.balancer = balancer
        self.client = _Side(self, balancer.accepted)
        self.child = _Side(self)
        self.client.other, self.child.other = self.child, self.client
        self.index: int | None = None
        self.eofs = 0
        self.closed = False
        balancer.pairs.add(self)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.balancer.pairs.discard(self)
        for side in (self.client, self.child):
            if side.transport is not None:
                side.transport.close()  # after writing what is pending
        self.uncount()

    def uncount(self) -> None:
        """No longer counted on its child (closed, or the child refused it)."""
        if self.index is not None:
            self.balancer.open[self.index] -= 1
            self.index = None


class Balancer:
    """Accepts on ``listener`` and spreads connections over the unix sockets ``children``
    (index i: child i's), fewest open connections first, ties in turn."""

    def __init__(self, listener: socket.socket, children: Sequence[Path]) -> None:
        self.listener = listener
        self.children = list(children)
        self.open = [0] * len(self.children)
        """Connections relayed to each child now (read from other threads: a snapshot)."""
        self.relayed = [0] * len(self.children)
        """Connections relayed to each child since the start."""
        self._turn = itertools.count()
        self._relays: set[asyncio.Task] = set()  # the loop holds tasks weakly
        self.pairs: set[_Pair] = set()  # the connections open now, relayed or not yet
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="edge-balancer", daemon=True)
        self._started = threading.Event()

    def start(self) -> Balancer:
        self._thread.start()
        self._started.wait()
        return self

    def stop(self) -> None:
        """Stop accepting and close every connection still open (after the children have
        exited, none should be)."""
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(STOP_SECONDS)
        self.listener.close()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(
            self._loop.create_server(lambda: _Pair(self).client, sock=self.listener)
        )
        self._loop.call_soon(self._started.set)
        try:
            self._loop.run_forever()
        finally:
            server.close()
            for task in asyncio.all_tasks(self._loop):
                task.cancel()
            for pair in list(self.pairs):
                pair.close()
            for _ in range(2):  # the cancellations, then the transports' closing callbacks
                self._loop.run_until_complete(asyncio.sleep(0))
            self._loop.close()

    def accepted(self, pair: _Pair) -> None:
        """A new client connection: read nothing from it until its child's is open."""
        transport = pair.client.transport
        assert transport is not None
        transport.pause_reading()
        # asyncio sets it only on sockets made with IPPROTO_TCP, not on ones accepted from
        # ours: without it Nagle's algorithm held replies for a delayed ACK (40 ms each).
        transport.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        task = self._loop.create_task(self._relay(pair))
        self._relays.add(task)
        task.add_done_callback(self._relays.discard)

    def _least_busy(self, turn: int, tried: set[int]) -> int | None:
        """The child to try next: fewest open connections, ties taken in turn (so one-call
        connections alternate); None when each has been tried."""
        count = len(self.children)
        left = (i for i in range(count) if i not in tried)
        return min(left, key=lambda i: (self.open[i], (i - turn) % count), default=None)

    async def _relay(self, pair: _Pair) -> None:
        client = pair.client.transport
        assert client is not None
        turn = next(self._turn)
        tried: set[int] = set()
        while (index := self._least_busy(turn, tried)) is not None:
            if pair.closed:  # the client left meanwhile (its close uncounted it)
                return
            tried.add(index)
            pair.index = index
            self.open[index] += 1
            try:
                child, _ = await self._loop.create_unix_connection(
                    lambda: pair.child, str(self.children[index])
                )
            except OSError:  # not listening (loading, restarting, stopped): the next one
                pair.uncount()
                continue
            if pair.closed:
                child.close()
                return
            self.relayed[index] += 1
            client.resume_reading()
            log.debug("connection from %s to process %d", client.get_extra_info("peername"), index)
            return
        if pair.closed:
            return
        log.warning("no process is accepting connections: closing one")
        pair.close()
