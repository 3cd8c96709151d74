"""Serving the HTTP API beside gRPC, in the same process: uvicorn in a thread of its own,
and the private Unix socket of the gRPC server its gateway calls.

The socket lives in a directory only this user can enter, made for this server and
removed at its stop. The HTTP port is bound here (not by uvicorn) so that a port in use
is a ConfigError like the gRPC port's, and so that the children of ``serve --processes
N`` can share it (SO_REUSEPORT, as they share the gRPC port). Under TLS it is HTTPS with
the gRPC server's certificate; with ``tls_client_ca`` clients need certificates too.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import socket
import ssl
import tempfile
import threading
from pathlib import Path

import grpc
import uvicorn

from edge_server.config import ServerConfig, bracketed
from edge_server.http.app import create_app
from edge_server.http.gateway import Gateway
from edge_server.interceptors import Authentication
from ragcore.errors import ConfigError

log = logging.getLogger(__name__)
START_SECONDS = 10.0  # uvicorn starts in well under a second; this bounds a stuck start
STOP_SECONDS = 2  # for open connections (event streams) after gRPC has stopped


class HttpService:
    """The HTTP API of one EdgeServer: ``start`` after the gRPC server's, ``stop`` after."""

    def __init__(
        self, config: ServerConfig, grpc_server: grpc.Server, authentication: Authentication
    ):
        self.config = config
        self._folder = Path(tempfile.mkdtemp(prefix="ragcore-http-"))  # mode 0700
        target = f"unix:{self._folder / 'grpc.sock'}"
        if grpc_server.add_insecure_port(target) == 0:
            raise ConfigError("http_port", target, "cannot open the gateway's Unix socket")
        self.gateway = Gateway(target, config.max_message_bytes, authentication)
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.port: int | None = None

    def start(self) -> int:
        """Listen and serve in a thread; return the port (the one picked, for port 0)."""
        c = self.config
        listener = _listen(c)
        tls = c.tls_cert is not None and c.tls_key is not None
        settings = uvicorn.Config(
            create_app(self.gateway, c.cors_origins),
            http="h11",
            loop="asyncio",
            lifespan="on",
            log_config=None,  # the service's logging stays as it is
            log_level="warning",  # uvicorn's start and stop lines: the service logs its own
            access_log=False,  # the gRPC side logs each call, with its request id
            timeout_graceful_shutdown=STOP_SECONDS,
            ssl_certfile=str(c.tls_cert) if tls else None,
            ssl_keyfile=str(c.tls_key) if tls else None,
            ssl_ca_certs=str(c.tls_client_ca) if c.tls_client_ca else None,
            ssl_cert_reqs=ssl.CERT_REQUIRED if c.tls_client_ca else ssl.CERT_NONE,
        )
        server = uvicorn.Server(settings)
        self._server = server
        self._thread = threading.Thread(
            target=lambda: asyncio.run(server.serve(sockets=[listener])),
            name="edge-http",
            daemon=True,
        )
        self._thread.start()
        waited = 0.0
        while not server.started and self._thread.is_alive() and waited < START_SECONDS:
            threading.Event().wait(0.01)
            waited += 0.01
        if not server.started:
            raise ConfigError("http_port", c.http_address, "the HTTP server did not start")
        self.port = int(listener.getsockname()[1])
        host = bracketed(c.http_host or c.host)
        log.info("http on %s://%s:%d/", "https" if tls else "http", host, self.port)
        return self.port

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(STOP_SECONDS + 1)
        shutil.rmtree(self._folder, ignore_errors=True)


def _listen(c: ServerConfig) -> socket.socket:
    host = (c.http_host or c.host).strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets that say so, and
    # without it a reply written in two parts waits for the client's delayed ACK (40 ms).
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if c.reuse_port:  # a child of serve --processes N: the port is shared on purpose
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        listener.bind((host, c.http_port or 0))
        listener.listen(2048)
    except OSError as error:
        listener.close()
        raise ConfigError(
            "http_port",
            c.http_address,
            f"cannot listen there ({error.strerror or error}): the port is in use or the "
            "host is not an address of this machine; choose another (0 picks a free one)",
        ) from error
    listener.set_inheritable(False)
    return listener
