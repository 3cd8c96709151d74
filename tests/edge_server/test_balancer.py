"""The parent's relay of ``serve --processes N`` on real sockets: a TCP port in front of
unix-socket echo servers standing in for the children (what it relays is bytes; the
real children are in test_processes.py)."""

from __future__ import annotations

import socket
import socketserver
import threading
import time
from pathlib import Path

import pytest

from edge_server.balancer import Balancer
from edge_server.config import ServerConfig
from edge_server.supervisor import open_listener
from ragcore.errors import ConfigError


class _Echo(socketserver.StreamRequestHandler):
    """Says which child it is, then echoes until EOF, then says ``bye`` and closes."""

    def handle(self) -> None:
        self.wfile.write(f"child {self.server.index}\n".encode())  # type: ignore[attr-defined]
        while data := self.request.recv(65536):
            self.request.sendall(data)
        self.request.sendall(b"bye")


class _Child(socketserver.ThreadingUnixStreamServer):
    daemon_threads = True

    def __init__(self, path: Path, index: int) -> None:
        super().__init__(str(path), _Echo)
        self.index = index
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.shutdown()
        self.server_close()


@pytest.fixture
def relay(tmp_path):
    listener = open_listener(ServerConfig(port=0))
    paths = [tmp_path / f"process-{i}.sock" for i in range(2)]
    balancer = Balancer(listener, paths).start()
    yield balancer, paths, listener.getsockname()[1]
    balancer.stop()


def _connect(port: int) -> tuple[socket.socket, str]:
    """A client connection and the greeting of the child it reached."""
    client = socket.create_connection(("127.0.0.1", port), timeout=10)
    greeting = b""
    while not greeting.endswith(b"\n"):
        data = client.recv(1)
        assert data, "closed before the child's greeting"
        greeting += data
    return client, greeting.decode().strip()


def _wait(what, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_connections_go_to_the_child_holding_the_fewest(relay):
    balancer, paths, port = relay
    children = [_Child(path, i) for i, path in enumerate(paths)]
    try:
        held = [_connect(port) for _ in range(4)]
        assert sorted(greeting for _, greeting in held) == ["child 0"] * 2 + ["child 1"] * 2
        assert balancer.open == [2, 2] and balancer.relayed == [2, 2]
        # Two leave child 0: the next two connections both go there.
        for client, _greeting in [h for h in held if h[1] == "child 0"]:
            client.close()
        _wait(lambda: balancer.open == [0, 2])
        more = [_connect(port) for _ in range(2)]
        assert [greeting for _, greeting in more] == ["child 0", "child 0"]
        for client, _ in held + more:
            client.close()
        _wait(lambda: balancer.open == [0, 0])
    finally:
        for child in children:
            child.close()


def test_connections_opened_together_spread_evenly(relay):
    """Each is counted from the moment its child is chosen, so a burst accepted before
    any child's side is open does not all go by the same counts."""
    balancer, paths, port = relay
    children = [_Child(path, i) for i, path in enumerate(paths)]
    try:
        burst = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(8)]
        greetings = []
        for client in burst:
            greeting = b""
            while not greeting.endswith(b"\n"):
                greeting += client.recv(1)
            greetings.append(greeting.decode().strip())
        assert sorted(greetings) == ["child 0"] * 4 + ["child 1"] * 4
        assert balancer.open == [4, 4]
        for client in burst:
            client.close()
        _wait(lambda: balancer.open == [0, 0])
    finally:
        for child in children:
            child.close()


def test_bytes_and_a_half_close_are_relayed_both_ways(relay):
    _balancer, paths, port = relay
    children = [_Child(path, i) for i, path in enumerate(paths)]
    try:
        client, greeting = _connect(port)
        payload = bytes(range(256)) * 4096  # 1 MiB: more than any buffer on the way
        sender = threading.Thread(target=client.sendall, args=(payload,))
        sender.start()
        received = bytearray()
        while len(received) < len(payload):
            received += client.recv(65536)
        sender.join()
        assert bytes(received) == payload
        client.shutdown(socket.SHUT_WR)  # the child sees EOF and still answers after it
        tail = b""
        while data := client.recv(65536):
            tail += data
        assert tail == b"bye" and greeting.startswith("child")
        client.close()
    finally:
        for child in children:
            child.close()


def test_a_child_not_listening_is_skipped_and_with_none_the_connection_is_closed(relay):
    balancer, paths, port = relay
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        assert client.recv(1) == b""  # nobody listens yet: closed at once
    only = _Child(paths[1], 1)  # child 0 is loading (no socket yet)
    try:
        greetings = [_connect(port) for _ in range(3)]
        assert [g for _, g in greetings] == ["child 1"] * 3
        for c, _ in greetings:
            c.close()
        _wait(lambda: balancer.open == [0, 0])
        assert balancer.relayed == [0, 3]
    finally:
        only.close()


def test_stop_closes_the_connections_still_open(relay):
    balancer, paths, port = relay
    child = _Child(paths[0], 0)
    try:
        client, greeting = _connect(port)
        assert greeting == "child 0"
        balancer.stop()
        assert client.recv(1) == b""  # closed, not left hanging
        client.close()
        assert not balancer.pairs
    finally:
        child.close()


def test_a_port_in_use_is_a_config_error_naming_it():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(ConfigError, match=f"127.0.0.1:{port}.*in use"):
            open_listener(ServerConfig(port=port))
