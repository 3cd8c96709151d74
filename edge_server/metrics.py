"""Prometheus metrics of the edge service: every rpc, every answer, the store at scrape time.

``Metrics`` owns a registry of its own (never prometheus_client's global one, so several
servers in one process keep their figures apart), the interceptor that fills it, and the
HTTP endpoint that serves it (``ragcore serve --metrics-port``). The metric names are
the constants below; ``deploy/grafana/ragcore.json`` uses exactly these.

Per rpc (the interceptor, outermost, so refused calls count too): calls by service,
method and status code, the whole call's latency (a streamed reply: until its last
message), calls in flight. Per answer (read from the reply messages: an Ask's Answer, an
AskStream's final event): its status, per-stage latency, the issues validation left
open, rounds and retries. At scrape time: the server's state and in-flight limit, and,
while serving, the store's counts and sizes from ``Engine.stats()``; plus the process's
CPU and memory. Health's ``Watch`` is not timed: it returns at once and its stream
lives on without a thread.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from wsgiref.simple_server import WSGIServer

import grpc
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

from edge_server.config import ServerConfig
from edge_server.interceptors import Admission
from edge_server.v1 import ragcore_pb2 as pb
from ragcore import Engine
from ragcore.errors import ConfigError, RagcoreError

log = logging.getLogger(__name__)

# Names as scraped (a counter gets "_total", a histogram "_bucket", "_sum", "_count").
RPCS = "ragcore_rpcs"
RPC_DURATION = "ragcore_rpc_duration_seconds"
RPCS_IN_FLIGHT = "ragcore_rpcs_in_flight"
ANSWERS = "ragcore_answers"
STAGE_DURATION = "ragcore_stage_duration_seconds"
VALIDATION_ISSUES = "ragcore_validation_issues"
ANSWER_ROUNDS = "ragcore_answer_rounds"
RETRIES = "ragcore_retries"
CACHED_ANSWERS = "ragcore_cached_answers"
SERVER_STATE = "ragcore_server_state"
MAX_IN_FLIGHT = "ragcore_max_in_flight"
STORE_GAUGES = {  # Engine.stats() field -> (metric, help)
    "knowledge_bases": ("ragcore_knowledge_bases", "Knowledge bases in the store."),
    "documents": ("ragcore_documents", "Documents in the store."),
    "chunks": ("ragcore_chunks", "Chunks in the store."),
    "vectors": ("ragcore_vectors", "Vectors in the index (one per chunk)."),
    "database_bytes": ("ragcore_database_bytes", "SQLite database with its write-ahead log."),
    "index_bytes": ("ragcore_index_bytes", "The vector index file."),
}

# An answer takes ~20 ms, a search ~15 ms, an ingest seconds; refusals well under 1 ms.
RPC_BUCKETS = (
    0.001,
    0.0025,
    0.005,
    0.01,
    0.02,
    0.035,
    0.05,
    0.075,
    0.1,
    0.25,
    0.5,
    1,
    2.5,
    5,
    10,
    30,
)
# Stages take from 0.2 ms (plan) to tens of ms (retrieval); an LLM generator seconds.
STAGE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10)
ROUND_BUCKETS = (0, 1, 2, 3, 4, 5, 8)
ANSWER_MESSAGE = pb.Answer.DESCRIPTOR.full_name


# -- reading the reply messages ---------------------------------------------------------
@dataclass(frozen=True)
class AnswerFigures:
    """What the metrics take from one Answer."""

    status: str
    stage_seconds: dict[str, float]
    issues: tuple[tuple[str, str], ...]  # (check, kind) of each open issue
    rounds: int
    cached: bool = False
    """Served from the answer cache (its stages and rounds are the original run's)."""


def read_answer(message) -> AnswerFigures | None:
    """The figures of the Answer a reply carries, else None: an Ask reply is one, an
    AskStream event carries one in whichever oneof field has the Answer type (the final
    event). The one place that names the .proto's fields: adjust it when they change."""
    answer = _answer_in(message)
    if answer is None:
        return None
    timings = answer.timings
    stages = {
        field.name.removesuffix("_ms"): getattr(timings, field.name) / 1000
        for field in timings.DESCRIPTOR.fields
        # A stage that did not run is 0; the total is the rpc's own latency.
        if field.name.endswith("_ms") and field.name != "total_ms" and getattr(timings, field.name)
    }
    issues = tuple(
        (_label(issue, "check"), _label(issue, "kind"))
        for check in answer.report.checks
        for issue in check.issues
    )
    return AnswerFigures(_label(answer, "status"), stages, issues, answer.rounds, answer.cached)


def _answer_in(message):
    descriptor = message.DESCRIPTOR
    if descriptor.full_name == ANSWER_MESSAGE:
        return message
    for oneof in descriptor.oneofs:
        chosen = message.WhichOneof(oneof.name)
        if chosen:
            field = descriptor.fields_by_name[chosen]
            if field.message_type is not None and field.message_type.full_name == ANSWER_MESSAGE:
                return getattr(message, chosen)
    return None


def _label(message, field_name: str) -> str:
    """A closed-set field as a label: a string as it is; an enum value by its name without
    the enum's prefix, lower case (ANSWER_STATUS_NO_ANSWER -> "no_answer")."""
    value = getattr(message, field_name)
    enum = message.DESCRIPTOR.fields_by_name[field_name].enum_type
    if enum is None:
        return str(value)
    known = enum.values_by_number.get(value)
    if known is None:  # a number newer than these stubs
        return str(value)
    prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", enum.name).upper() + "_"
    return known.name.removeprefix(prefix).lower()


# -- the registry -----------------------------------------------------------------------
class Metrics:
    """One server's metrics: ``interceptor`` records them, ``serve_http`` exposes them."""

    def __init__(self, engine: Engine, admission: Admission) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        call = ("service", "method")
        self.rpcs = Counter(RPCS, "Finished rpcs by status code.", [*call, "code"], registry=r)
        self.rpc_duration = Histogram(
            RPC_DURATION,
            "Whole rpc, server-side (a streamed reply: until its last message).",
            [*call, "code"],
            buckets=RPC_BUCKETS,
            registry=r,
        )
        self.in_flight = Gauge(RPCS_IN_FLIGHT, "Rpcs being handled now.", call, registry=r)
        self.answers = Counter(
            ANSWERS, "Answers given, by status.", ["method", "status"], registry=r
        )
        self.stage_duration = Histogram(
            STAGE_DURATION,
            "Time per stage of an answer, summed over its rounds; a stage that did not run "
            "is not observed.",
            ["stage"],
            buckets=STAGE_BUCKETS,
            registry=r,
        )
        self.issues = Counter(
            VALIDATION_ISSUES,
            "Issues still open in the answers given (UNCERTAIN ones), by check and kind.",
            ["check", "kind"],
            registry=r,
        )
        self.rounds = Histogram(
            ANSWER_ROUNDS,
            "Rounds per answer (0: nothing to look up).",
            buckets=ROUND_BUCKETS,
            registry=r,
        )
        self.retries = Counter(RETRIES, "Rounds run after a failed validation.", registry=r)
        self.cached_answers = Counter(
            CACHED_ANSWERS,
            "Answers served from the answer cache, by method.",
            ["method"],
            registry=r,
        )
        r.register(_ServerCollector(engine, admission))
        ProcessCollector(registry=r)  # process_cpu_seconds_total, process_resident_memory_bytes
        self.interceptor = _Interceptor(self)
        self._http: tuple[WSGIServer, threading.Thread] | None = None

    def observe_answer(self, method: str, figures: AnswerFigures) -> None:
        self.answers.labels(method, figures.status).inc()
        if figures.cached:  # a repeat ran no stage: count it, but time nothing twice
            self.cached_answers.labels(method).inc()
            return
        for stage, seconds in figures.stage_seconds.items():
            self.stage_duration.labels(stage).observe(seconds)
        for check, kind in figures.issues:
            self.issues.labels(check, kind).inc()
        self.rounds.observe(figures.rounds)
        if figures.rounds > 1:
            self.retries.inc(figures.rounds - 1)

    # -- the endpoint --------------------------------------------------------------------
    def serve_http(self, config: ServerConfig) -> int:
        """Serve ``/metrics`` on the service's host at ``config.metrics_port`` (0: a free
        one), in a thread; return the port. Under TLS it is HTTPS with the service's
        certificate, and with ``tls_client_ca`` it requires client certificates too."""
        c = config
        port = c.metrics_port or 0
        tls = c.tls_cert is not None and c.tls_key is not None
        try:
            self._http = start_http_server(
                port,
                addr=c.host.strip("[]"),
                registry=self.registry,
                certfile=str(c.tls_cert) if tls else None,
                keyfile=str(c.tls_key) if tls else None,
                client_cafile=str(c.tls_client_ca) if c.tls_client_ca else None,
                client_auth_required=c.tls_client_ca is not None,
            )
        except OSError as error:
            raise ConfigError(
                "metrics_port",
                port,
                f"cannot serve metrics on {c.host} ({error.strerror or error}): the port is "
                "in use or the host is not an address of this machine; choose another port "
                "(0 picks a free one)",
            ) from error
        bound = self._http[0].server_port
        host = f"[{c.host}]" if ":" in c.host and not c.host.startswith("[") else c.host
        log.info("metrics on %s://%s:%d/metrics", "https" if tls else "http", host, bound)
        return bound

    def stop_http(self) -> None:
        if self._http is not None:
            server, thread = self._http
            server.shutdown()
            server.server_close()
            thread.join()
            self._http = None


class _ServerCollector(Collector):
    """At scrape time: the server's state and limit, and the store while serving."""

    def __init__(self, engine: Engine, admission: Admission) -> None:
        self.engine = engine
        self.admission = admission

    def collect(self) -> Iterator[GaugeMetricFamily]:
        state = self.admission.state
        states = GaugeMetricFamily(
            SERVER_STATE, "1 for the state the server is in.", labels=["state"]
        )
        for name in (
            Admission.LOADING,
            Admission.SERVING,
            Admission.DRAINING,
            Admission.STOPPING,
            Admission.FAILED,
        ):
            states.add_metric([name], 1.0 if name == state else 0.0)
        yield states
        yield GaugeMetricFamily(
            MAX_IN_FLIGHT,
            "Requests admitted at once; beyond it RESOURCE_EXHAUSTED.",
            value=self.admission.max_in_flight,
        )
        # Only while serving: before, stats() would load the index itself; after, the
        # engine may be closed. No figure is better than a made-up one.
        if state != Admission.SERVING:
            return
        try:
            stats = self.engine.stats()
        except RagcoreError as error:
            log.warning("metrics: no store figures this scrape: %s", error)
            return
        for field, (name, help_text) in STORE_GAUGES.items():
            yield GaugeMetricFamily(name, help_text, value=getattr(stats, field))


# -- the interceptor --------------------------------------------------------------------
class _Interceptor(grpc.ServerInterceptor):
    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def intercept_service(self, continuation, details):
        handler = continuation(details)
        if handler is None:  # an unknown method: gRPC answers UNIMPLEMENTED, uncounted
            return None
        service, _, method = details.method.lstrip("/").rpartition("/")
        return _instrumented(handler, self.metrics, service, method)


def _instrumented(handler, metrics: Metrics, service: str, method: str):
    """The same handler, timed and counted, its replies read for answers."""
    kind = (
        ("stream" if handler.request_streaming else "unary")
        + "_"
        + ("stream" if handler.response_streaming else "unary")
    )
    behaviour = getattr(handler, kind)
    if handler.response_streaming and getattr(behaviour, "experimental_non_blocking", False):
        return handler

    def seen(reply) -> None:
        figures = read_answer(reply)
        if figures is not None:
            metrics.observe_answer(method, figures)

    @contextlib.contextmanager
    def observed(context) -> Iterator[None]:
        in_flight = metrics.in_flight.labels(service, method)
        in_flight.inc()
        started = time.perf_counter()
        error: BaseException | None = None
        try:
            yield
        except BaseException as raised:
            error = raised
            raise
        finally:
            in_flight.dec()
            code = _code(context, error)
            metrics.rpcs.labels(service, method, code).inc()
            metrics.rpc_duration.labels(service, method, code).observe(
                time.perf_counter() - started
            )

    if handler.response_streaming:

        @functools.wraps(behaviour)
        def run(request, context, *more):
            with observed(context):
                replies = behaviour(request, context, *more)
                try:
                    for reply in replies:
                        seen(reply)
                        yield reply
                finally:  # a client gone mid-stream closes this; close the inner one too
                    close = getattr(replies, "close", None)
                    if close is not None:
                        close()
    else:

        @functools.wraps(behaviour)
        def run(request, context, *more):
            with observed(context):
                reply = behaviour(request, context, *more)
                seen(reply)
                return reply

    return getattr(grpc, f"{kind}_rpc_method_handler")(
        run,
        request_deserializer=handler.request_deserializer,
        response_serializer=handler.response_serializer,
    )


def _code(context, error: BaseException | None) -> str:
    if context.code() is not None:  # set by the guards' abort (or the handler)
        return context.code().name
    if error is None:
        return grpc.StatusCode.OK.name
    if isinstance(error, GeneratorExit):  # the client went away mid-stream
        return grpc.StatusCode.CANCELLED.name
    return grpc.StatusCode.UNKNOWN.name  # what gRPC answers for an unhandled exception
