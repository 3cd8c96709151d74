"""``create_server(config)``: the gRPC server around one Engine, with health and reflection.

Life of a server: ``start()`` listens at once and loads the models and the index in
the background (health NOT_SERVING, ragcore rpcs UNAVAILABLE); once loaded it is
SERVING. ``stop()`` drains: health NOT_SERVING, new rpcs UNAVAILABLE, in-flight ones
get ``grace_seconds`` to finish. Then it stops what is left (STOPPING): every in-flight
rpc's cancellation token is cancelled (an ingest stops within one model batch, keeping
the groups it committed; nothing commits after that), each client is told UNAVAILABLE,
and the engine is closed. ``serve()`` does all of it and stops on SIGTERM or SIGINT; as a
process it keeps its word: it exits within ``grace_seconds`` + ``HARD_EXIT_SECONDS`` of
the signal, whatever is still running (``os._exit`` after that: SQLite's committed
transactions are durable and the vector index catches up from them on the next start).
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from edge_server.auth import Tokens
from edge_server.cancelling import InFlight
from edge_server.config import ServerConfig
from edge_server.interceptors import Admission, Authentication, Guards, access_log_guard
from edge_server.limits import Limits, grpc_receive_limit
from edge_server.metrics import Metrics
from edge_server.names import SERVICE
from edge_server.servicer import RagcoreServicer
from edge_server.v1 import ragcore_pb2_grpc as pb_grpc
from ragcore import Engine
from ragcore.errors import ConfigError, RagcoreError
from ragcore.types import CancelReason

log = logging.getLogger(__name__)
SPARE_THREADS = 4  # beyond max_in_flight: health checks and refusals are never starved
FLOOD_FACTOR = 8
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING
HEALTH_SERVICES = ("", SERVICE)  # "" is the whole server
# After the grace period: how long cancelled work gets to unwind (an ingest stops within
# one model batch, well under a second on 2 cores) before the rpcs are cut off.
UNWIND_SECONDS = 1.0
# ``serve()`` exits at the latest this long after the grace period, whatever still runs:
# the bound is 2 s, and systemd or Kubernetes would SIGKILL it soon after.
HARD_EXIT_SECONDS = 1.5


class HealthServicer(health.HealthServicer):
    """grpc's health servicer, plus ``List``: proto/grpc/health/v1/health.proto declares
    it (as upstream's does), but grpcio-health-checking's servicer answers UNIMPLEMENTED."""

    _gracefully_shutting_down: bool  # upstream's, set in its __init__

    def __init__(self, services: tuple[str, ...]) -> None:
        super().__init__()
        self.services = services
        self.set_all(NOT_SERVING)

    def set_all(self, status) -> None:
        for service in self.services:
            self.set(service, status)

    # Upstream sends to open Watch streams while holding its lock; a send waits for the
    # server's event thread, which may itself wait for that lock to drop a closed Watch:
    # a deadlock seen when stopping with watches open. So the status changes under the
    # lock and the sends happen after it (as grpc/grpc#43403 proposes upstream).
    def set(self, service, status) -> None:
        with self._lock:
            if self._gracefully_shutting_down:
                return
            self._server_status[service] = status
            watchers = list(self._send_response_callbacks.get(service, ()))
        self._notify(watchers, status)

    def enter_graceful_shutdown(self) -> None:
        with self._lock:
            if self._gracefully_shutting_down:
                return
            self._gracefully_shutting_down = True
            watchers = []
            for service in self._server_status:
                self._server_status[service] = NOT_SERVING
                watchers += self._send_response_callbacks.get(service, ())
        self._notify(watchers, NOT_SERVING)

    @staticmethod
    def _notify(watchers, status) -> None:
        response = health_pb2.HealthCheckResponse(status=status)
        for send in watchers:
            send(response)

    def List(self, request, context) -> health_pb2.HealthListResponse:
        # Through Check, the servicer's public way to read one status; a non-atomic
        # snapshot, as the .proto allows. These services are always known to Check.
        statuses = {
            service: self.Check(health_pb2.HealthCheckRequest(service=service), context)
            for service in self.services
        }
        return health_pb2.HealthListResponse(statuses=statuses)


class EdgeServer:
    """A gRPC server for one Engine; build it with ``create_server``."""

    def __init__(self, config: ServerConfig, engine: Engine | None = None) -> None:
        self.config = config
        self._owns_engine = engine is None
        self.engine = engine or Engine(config.engine)
        tokens = Tokens.load(config.tokens_file)
        self.admission = Admission(config.max_in_flight, config.workers)
        threads = config.max_in_flight + SPARE_THREADS
        # Outermost, so that refused calls are counted too; None: no metrics, no cost.
        self.metrics = None if config.metrics_port is None else Metrics(self.engine, self.admission)
        self.metrics_port: int | None = None  # the one listening, once started
        authentication = Authentication(tokens)
        guards = Guards(
            [access_log_guard, authentication, self.admission], config.max_message_bytes
        )
        self.in_flight = InFlight()
        self.limits = Limits.of(
            self.engine.config,
            max_message_bytes=config.max_message_bytes,
            max_in_flight=config.max_in_flight,
        )
        self._grpc = grpc.server(
            ThreadPoolExecutor(max_workers=threads, thread_name_prefix="edge"),
            interceptors=[guards] if self.metrics is None else [self.metrics.interceptor, guards],
            options=_channel_options(config),
            # Only a flood backstop: the Admission guard does the refusing, with its own
            # message and a log line, and never refuses health checks. Calls past the
            # pool wait for a spare thread; refusals free theirs at once.
            maximum_concurrent_rpcs=FLOOD_FACTOR * threads,
        )
        pb_grpc.add_RagcoreServicer_to_server(
            RagcoreServicer(self.engine, self.admission, self.limits, self.in_flight), self._grpc
        )
        self.health = HealthServicer(HEALTH_SERVICES)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self._grpc)
        reflection.enable_server_reflection(
            (SERVICE, health.SERVICE_NAME, reflection.SERVICE_NAME), self._grpc
        )
        self.port = self._bind()
        self.http = _http_service(config, self._grpc, authentication)
        self.http_port: int | None = None  # the one listening, once started
        self.security = (
            "mTLS" if config.tls_client_ca else "TLS" if config.tls_cert else "plaintext"
        ) + (", bearer tokens" if tokens.enabled else ", no tokens")
        self._ready = threading.Event()
        self._stopped = threading.Event()
        self.cut_short = False
        """The last stop had to stop work still in flight when its grace period ended."""
        self._stop_lock = threading.Lock()

    def _bind(self) -> int:
        c = self.config
        address = c.address
        try:
            if c.tls_cert is None or c.tls_key is None:  # ServerConfig requires both or neither
                port = self._grpc.add_insecure_port(address)
            else:
                credentials = grpc.ssl_server_credentials(
                    [(c.tls_key.read_bytes(), c.tls_cert.read_bytes())],
                    root_certificates=c.tls_client_ca.read_bytes() if c.tls_client_ca else None,
                    require_client_auth=c.tls_client_ca is not None,
                )
                port = self._grpc.add_secure_port(address, credentials)
        except RuntimeError:
            port = 0
        if port == 0:
            raise ConfigError(
                "port",
                address,
                "cannot listen there: the port is in use or the host is not an address of "
                "this machine; choose another (port 0 picks a free one)",
            )
        return port

    # -- life ------------------------------------------------------------------------
    def start(self) -> EdgeServer:
        """Listen now; load the models and the index in the background."""
        if self.metrics is not None:
            self.metrics_port = self.metrics.serve_http(self.config)
        self._grpc.start()
        if self.http is not None:
            self.http_port = self.http.start()
        threading.Thread(target=self._load, name="edge-load", daemon=True).start()
        return self

    def _load(self) -> None:
        started = time.perf_counter()
        try:
            self.engine.warm_up()
        except RagcoreError as error:
            self.admission.failure = error
            self.admission.state = Admission.FAILED
            log.error("cannot serve: %s", error)
        else:
            if self.admission.state != Admission.LOADING:  # stopped while loading
                return
            self.admission.state = Admission.SERVING
            self.health.set_all(SERVING)
            self.engine.watch_store(self._store_changed)
            stats = self.engine.stats()
            log.info(
                "serving %d documents in %d knowledge bases (loaded in %.1f s)",
                stats.documents,
                stats.knowledge_bases,
                time.perf_counter() - started,
            )
        finally:
            self._ready.set()

    def _store_changed(self, available: bool) -> None:
        """A shared store's database went down or came back: ``ragcore.v1.Ragcore`` is
        NOT_SERVING meanwhile (its rpcs fail at once with UNAVAILABLE and a RetryInfo);
        the server itself (``""``) stays SERVING, as it is up and answers."""
        if self.admission.state == Admission.SERVING:
            self.health.set(SERVICE, SERVING if available else NOT_SERVING)

    def wait_until_loaded(self, timeout: float | None = None) -> bool:
        """Block until loading has finished (well or not); False on timeout."""
        return self._ready.wait(timeout)

    @property
    def serving(self) -> bool:
        return self.admission.state == Admission.SERVING

    def stop(self, grace: float | None = None) -> None:
        """Drain and stop: refuse new rpcs, let in-flight ones finish within ``grace``,
        then stop the rest.

        While draining, the server still answers: health says NOT_SERVING and new ragcore
        rpcs get UNAVAILABLE, so clients and load balancers learn why. The listener
        closes once the last in-flight rpc is done. If the grace period ends first, the
        work still in flight is cancelled (its clients get UNAVAILABLE; an ingest keeps
        the groups it committed and commits nothing more) and given ``UNWIND_SECONDS``
        to unwind before the listener closes.
        """
        with self._stop_lock:  # a second caller waits for the first to finish
            if not self._stopped.is_set():
                self._drain_and_stop(self.config.grace_seconds if grace is None else grace)

    def _drain_and_stop(self, grace: float) -> None:
        deadline = time.monotonic() + grace
        self.admission.state = Admission.DRAINING
        self.health.enter_graceful_shutdown()
        log.info("draining: %d requests in flight, %.0f s grace", self.admission.in_flight, grace)
        if not self.admission.wait_idle(grace):
            self.cut_short = True
            self.admission.state = Admission.STOPPING
            # Before any client hears UNAVAILABLE: no commit starts once this returns.
            cancelled = self.in_flight.cancel_all(CancelReason.SHUTDOWN)
            log.warning(
                "grace period over with %d requests in flight: %d stopped (committed work "
                "is kept, the rest dropped)",
                self.admission.in_flight,
                cancelled,
            )
            if not self.admission.wait_idle(UNWIND_SECONDS):
                log.warning(
                    "%d requests still in flight: cutting them off", self.admission.in_flight
                )
        self._grpc.stop(max(0.0, deadline - time.monotonic())).wait()
        if self.http is not None:  # its calls all went through gRPC: none is left
            self.http.stop()
        if self.metrics is not None:  # scraped until here: the drain shows on a dashboard
            self.metrics.stop_http()
        if self._owns_engine and self.admission.in_flight == 0:
            self.engine.close()  # else work still unwinds in it; the process exit ends it
        self._stopped.set()
        log.info("stopped")

    def wait_for_termination(self, timeout: float | None = None) -> bool:
        return self._stopped.wait(timeout)

    def __enter__(self) -> EdgeServer:
        return self.start()

    def __exit__(self, *_exc) -> None:
        self.stop()


def create_server(config: ServerConfig | None = None, engine: Engine | None = None) -> EdgeServer:
    """A server on ``config`` (not started). ``engine`` shares an existing Engine instead
    of opening ``config.engine``; it is then the caller's to close."""
    return EdgeServer(config or ServerConfig(), engine)


def serve(config: ServerConfig, engine: Engine | None = None) -> int:
    """Run until SIGTERM or SIGINT, then drain gracefully. Returns an exit status.

    From the signal on, the process has ``grace_seconds`` + ``HARD_EXIT_SECONDS`` to
    exit: a watchdog ends it with ``os._exit(0)`` then if anything still holds it (work
    that does not check its cancellation token, the engine's close waiting for it, the
    interpreter joining worker threads). When the grace period ended with work in flight,
    it exits at once after the stop (``os._exit(0)``), without closing the engine."""
    server = create_server(config, engine).start()
    log.info("listening on %s:%d (%s)", config.host, server.port, server.security)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda number, _frame: stop.set())
    while not stop.wait(0.5):
        pass
    hard_exit_after(config.grace_seconds + HARD_EXIT_SECONDS)
    server.stop()
    if server.cut_short:
        # Work was stopped: what it committed is durable in SQLite, and closing the engine
        # (and the interpreter joining its threads) would only delay the exit.
        log.info("exiting now (work in flight was stopped)")
        logging.shutdown()
        os._exit(0)
    return 0


def hard_exit_after(seconds: float) -> threading.Thread:
    """A daemon thread that ends the process (status 0) in ``seconds`` unless it has
    exited by then; daemon threads run on while the interpreter waits for other threads
    at exit, so this bounds that wait too."""

    def watch() -> None:
        time.sleep(seconds)
        log.warning("still busy %.1f s after the signal: exiting now", seconds)
        logging.shutdown()
        os._exit(0)

    watchdog = threading.Thread(target=watch, name="edge-hard-exit", daemon=True)
    watchdog.start()
    return watchdog


def _http_service(config: ServerConfig, grpc_server: grpc.Server, authentication):
    """The HTTP API beside gRPC (``edge_server.http``), or None without ``http_port``."""
    if config.http_port is None:
        return None
    try:
        from edge_server.http.serving import HttpService
    except ImportError as error:
        raise ConfigError(
            "http_port",
            config.http_port,
            f"the HTTP API needs the http extra ({error.name} is missing): "
            "pip install 'ragcore[http]'",
        ) from error
    return HttpService(config, grpc_server, authentication)


def _channel_options(c: ServerConfig) -> list[tuple[str, int]]:
    return [
        # Above the limit, so that the service sees (and refuses, with details, and logs)
        # messages up to twice the limit; see interceptors._decoding.
        ("grpc.max_receive_message_length", grpc_receive_limit(c.max_message_bytes)),
        ("grpc.max_send_message_length", c.max_message_bytes),
        ("grpc.keepalive_time_ms", int(c.keepalive_seconds * 1000)),
        ("grpc.keepalive_timeout_ms", int(c.keepalive_timeout_seconds * 1000)),
        # Clients may ping every 10 s, also between calls, without being cut off.
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
        ("grpc.http2.max_pings_without_data", 0),
        # Off, a second server on the same port is an error rather than starting "fine" and
        # getting no calls; on only in the children of ``serve --processes N``, which
        # share the port on purpose (the parent checks it is free first).
        ("grpc.so_reuseport", 1 if c.reuse_port else 0),
    ]
