"""The service's configuration: where to listen, limits, security. Validated when built."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ragcore import Config
from ragcore.errors import ConfigError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 50051
DEFAULT_MAX_IN_FLIGHT = 32
DEFAULT_WORKERS = 4  # requests worked on at once (measured best with one thread each)
# ``ragcore serve`` runs each request's models on one thread: with two, onnxruntime's
# second thread spin-waits between runs and one request keeps both cores busy, so
# concurrent requests cannot overlap (measured in benchmarks/grpc_load.py).
DEFAULT_ENGINE_THREADS = 1
DEFAULT_MAX_MESSAGE_BYTES = 8 * 1024 * 1024  # a 2M-character document fits
DEFAULT_KEEPALIVE_SECONDS = 60.0
DEFAULT_KEEPALIVE_TIMEOUT_SECONDS = 20.0
DEFAULT_GRACE_SECONDS = 10.0
_ORIGIN = re.compile(r"https?://[^/\s:]+(:\d{1,5})?")


@dataclass(frozen=True)
class ServerConfig:
    """Everything ``create_server`` needs; ``engine`` configures the library (by default
    with one model thread per request, see DEFAULT_ENGINE_THREADS).

    ``max_in_flight`` requests are admitted at once (running or waiting for one of the
    ``workers``); more are refused with RESOURCE_EXHAUSTED. ``port`` 0 picks a free
    port. Tokens come from ``tokens_file`` (lines ``reader TOKEN`` / ``admin TOKEN``, a
    third column limiting the token to knowledge bases: ``reader TOKEN manuals,faq``) and
    the environment (``$RAGCORE_READER_TOKENS``, ``$RAGCORE_ADMIN_TOKENS``, comma-separated,
    ``TOKEN@manuals+faq`` for a scoped one; see ``edge_server.auth``); with none, every
    caller is an admin. ``tls_cert`` and ``tls_key``
    turn on TLS; ``tls_client_ca`` also requires client certificates signed by it.
    ``metrics_port`` serves Prometheus metrics over HTTP on ``host`` (HTTPS with the same
    certificates under TLS; 0 picks a free port; None, the default, serves none).
    ``http_port`` serves the JSON/HTTP API and the page (``edge_server.http``) on
    ``http_host`` (default: ``host``), HTTPS with the same certificates under TLS, in
    the same process and through the same checks as gRPC; None (the default) serves none.
    ``cors_origins`` are the web origins ("https://panel.example:8443", or "*") whose
    pages may call it from a browser; none (the default): no CORS headers at all.
    """

    engine: Config = field(default_factory=lambda: Config(threads=DEFAULT_ENGINE_THREADS))
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    max_in_flight: int = DEFAULT_MAX_IN_FLIGHT
    workers: int = DEFAULT_WORKERS
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    keepalive_seconds: float = DEFAULT_KEEPALIVE_SECONDS
    keepalive_timeout_seconds: float = DEFAULT_KEEPALIVE_TIMEOUT_SECONDS
    grace_seconds: float = DEFAULT_GRACE_SECONDS
    tokens_file: Path | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None
    tls_client_ca: Path | None = None
    metrics_port: int | None = None
    http_port: int | None = None
    http_host: str | None = None
    cors_origins: tuple[str, ...] = ()
    reuse_port: bool = False
    """Share the port with other processes (SO_REUSEPORT; ``serve --processes N`` sets it
    in each child). Off by default so that a port in use is a clear error."""

    def __post_init__(self) -> None:
        for name in ("tokens_file", "tls_cert", "tls_key", "tls_client_ca"):
            value = getattr(self, name)
            if value is not None:
                path = Path(value).expanduser()
                if not path.is_file():
                    raise ConfigError(name, str(path), "no such file: give the path of a file")
                object.__setattr__(self, name, path)
        if (
            not isinstance(self.port, int)
            or isinstance(self.port, bool)
            or not (0 <= self.port <= 65535)
        ):
            raise ConfigError("port", self.port, "use 0 (any free port) to 65535")
        for name, what in (("metrics_port", "no metrics"), ("http_port", "no HTTP API")):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or not (0 <= value <= 65535)
            ):
                raise ConfigError(name, value, f"use None ({what}) or 0 (any free port) to 65535")
        object.__setattr__(self, "cors_origins", tuple(self.cors_origins))
        for origin in self.cors_origins:
            if origin != "*" and not _ORIGIN.fullmatch(origin):
                raise ConfigError(
                    "cors_origins",
                    origin,
                    "give an origin as a browser sends it, scheme://host[:port] with no path "
                    "('https://panel.example:8443'), or '*' for any",
                )
        for name in ("max_in_flight", "workers", "max_message_bytes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(name, value, "use a whole number of 1 or more")
        if self.workers > self.max_in_flight:
            raise ConfigError(
                "workers", self.workers, f"use at most max_in_flight ({self.max_in_flight})"
            )
        for name in ("keepalive_seconds", "keepalive_timeout_seconds", "grace_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise ConfigError(name, value, "use a number of seconds, 0 or more")
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ConfigError(
                "tls_key" if self.tls_cert else "tls_cert",
                None,
                "give both tls_cert and tls_key to use TLS, or neither",
            )
        if self.tls_client_ca is not None and self.tls_cert is None:
            raise ConfigError(
                "tls_client_ca", str(self.tls_client_ca), "mutual TLS needs tls_cert and tls_key"
            )

    @property
    def address(self) -> str:
        return f"{bracketed(self.host)}:{self.port}"

    @property
    def http_address(self) -> str:
        """Where the HTTP API listens (``http_host``, else ``host``), once bound: its port
        may be 0 here."""
        return f"{bracketed(self.http_host or self.host)}:{self.http_port}"


def bracketed(host: str) -> str:
    """``host`` as it goes before ":PORT" (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host
