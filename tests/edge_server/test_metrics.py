"""Prometheus metrics: real servers on port 0 with ``metrics_port=0``, real calls, scraped
over HTTP and parsed with prometheus_client's own parser; the Grafana dashboard's queries
checked against what a scrape really exports."""

from __future__ import annotations

import json
import re
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from conftest import TODAY
from prometheus_client.parser import text_string_to_metric_families
from test_edge_server import GatedGenerator
from test_edge_tls import CertificateAuthority

from edge_server import ServerConfig, create_server
from edge_server.client import Client
from edge_server.metrics import read_answer
from edge_server.v1 import ragcore_pb2 as pb
from ragcore import Config, Engine
from ragcore.errors import ConfigError

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "deploy" / "grafana" / "ragcore.json"
SERVICE = "ragcore.v1.Ragcore"
READER = "metrics-reader-token-0123456789"
QUESTION = "How often should the CP-200 seal be replaced?"  # ok
RETRIED = "What seal replacement interval did the CP-200 manual specify in 2022?"  # ok, 2 rounds
UNANSWERABLE = "What does error E9999 mean on the HP-400?"  # no_answer, an issue left open
STAGES = ("perception", "plan", "retrieval", "generation", "validation")


# -- scraping -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Scrape:
    """One scrape: every sample by (name, labels), every family by name and type."""

    samples: dict[tuple[str, frozenset], float]
    families: dict[str, str]  # name (without _total) -> type
    labels: dict[str, set[str]]  # sample name -> label names seen

    def value(self, name: str, **labels: str) -> float | None:
        return self.samples.get((name, frozenset(labels.items())))

    def where(self, name: str, **labels: str) -> dict[frozenset, float]:
        """Every sample of ``name`` whose labels include ``labels``."""
        wanted = set(labels.items())
        return {key: v for (n, key), v in self.samples.items() if n == name and wanted <= key}

    def series_names(self) -> set[str]:
        """Every name a query may use: the families' names with their types' suffixes."""
        suffixes = {
            "counter": ("_total", "_created"),
            "histogram": ("_bucket", "_sum", "_count", "_created"),
            "gauge": ("",),
        }
        return {name + s for name, kind in self.families.items() for s in suffixes[kind]}


def scrape(port: int, *, context: ssl.SSLContext | None = None) -> Scrape:
    scheme = "https" if context else "http"
    with urllib.request.urlopen(
        f"{scheme}://127.0.0.1:{port}/metrics", timeout=10, context=context
    ) as reply:
        assert reply.status == 200
        text = reply.read().decode()
    samples: dict[tuple[str, frozenset], float] = {}
    families: dict[str, str] = {}
    labels: dict[str, set[str]] = {}
    for family in text_string_to_metric_families(text):
        families[family.name] = family.type
        for s in family.samples:
            samples[(s.name, frozenset(s.labels.items()))] = s.value
            labels.setdefault(s.name, set()).update(s.labels)
    return Scrape(samples, families, labels)


@pytest.fixture
def tokens(tmp_path) -> Path:
    path = tmp_path / "tokens"
    path.write_text(f"reader {READER}\n")
    return path


# -- every rpc, answer and refusal --------------------------------------------------------
def test_a_scrape_counts_every_rpc_answer_stage_issue_and_refusal(start_edge, tokens):
    server, target = start_edge(metrics_port=0, tokens_file=tokens)
    with Client(target, token=READER) as reader:
        answers = [reader.ask(QUESTION), reader.ask(UNANSWERABLE)]
        events = list(reader.ask_stream(RETRIED))
        hits = reader.search("CP-200 seal replacement", k=3).hits
        with pytest.raises(grpc.RpcError) as denied:
            reader.ingest([pb.Document(id="note", text="A note.")])
    with Client(target) as anonymous, pytest.raises(grpc.RpcError) as unauthenticated:
        anonymous.ask(QUESTION)
    m = scrape(server.metrics_port)

    final = events[-1]  # the answer, in whichever field the .proto names it
    answers.append(getattr(final, final.WhichOneof("event")))
    assert [a.status for a in answers] == [
        pb.ANSWER_STATUS_OK,
        pb.ANSWER_STATUS_NO_ANSWER,
        pb.ANSWER_STATUS_OK,
    ]
    rounds = [a.rounds for a in answers]
    assert rounds[1] == 3 and rounds[2] >= 2 and len(hits) == 3  # retries to count
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert unauthenticated.value.code() == grpc.StatusCode.UNAUTHENTICATED

    # Calls by method and code: exactly these, the refused ones too.
    calls = {
        (dict(k)["method"], dict(k)["code"]): v
        for k, v in m.where("ragcore_rpcs_total", service=SERVICE).items()
    }
    assert calls == {
        ("Ask", "OK"): 2,
        ("AskStream", "OK"): 1,
        ("Search", "OK"): 1,
        ("Ingest", "PERMISSION_DENIED"): 1,
        ("Ask", "UNAUTHENTICATED"): 1,
    }
    for (method, code), count in calls.items():
        labels = {"service": SERVICE, "method": method, "code": code}
        assert m.value("ragcore_rpc_duration_seconds_count", **labels) == count
        assert m.value("ragcore_rpc_duration_seconds_bucket", le="+Inf", **labels) == count
        buckets = sorted(
            (float(dict(k)["le"]), v)
            for k, v in m.where("ragcore_rpc_duration_seconds_bucket", **labels).items()
        )
        assert [v for _, v in buckets] == sorted(v for _, v in buckets)  # cumulative
        assert m.value("ragcore_rpc_duration_seconds_sum", **labels) > 0
        assert m.value("ragcore_rpcs_in_flight", service=SERVICE, method=method) == 0
    # The whole rpc includes the engine's run, which the answers time themselves.
    ask_seconds = m.value(
        "ragcore_rpc_duration_seconds_sum", service=SERVICE, method="Ask", code="OK"
    )
    assert ask_seconds >= sum(a.timings.total_ms for a in answers[:2]) / 1000
    # A refusal is answered at once, without running a model.
    refused = {"service": SERVICE, "method": "Ask", "code": "UNAUTHENTICATED"}
    assert m.value("ragcore_rpc_duration_seconds_bucket", le="0.05", **refused) == 1

    # Per answer: status, stages (the answers' own timings), rounds, retries, issues.
    assert m.where("ragcore_answers_total") == {
        frozenset({("method", "Ask"), ("status", "ok")}): 1,
        frozenset({("method", "Ask"), ("status", "no_answer")}): 1,
        frozenset({("method", "AskStream"), ("status", "ok")}): 1,
    }
    for stage in STAGES:
        took = [getattr(a.timings, f"{stage}_ms") / 1000 for a in answers]
        ran = [t for t in took if t > 0]
        assert m.value("ragcore_stage_duration_seconds_count", stage=stage) == len(ran)
        assert m.value("ragcore_stage_duration_seconds_sum", stage=stage) == pytest.approx(sum(ran))
    assert {dict(k)["stage"] for k in m.where("ragcore_stage_duration_seconds_count")} == set(
        STAGES
    )
    assert m.value("ragcore_answer_rounds_count") == 3
    assert m.value("ragcore_answer_rounds_sum") == sum(rounds)
    assert m.value("ragcore_answer_rounds_bucket", le="1.0") == sum(r <= 1 for r in rounds)
    assert m.value("ragcore_retries_total") == sum(r - 1 for r in rounds)
    open_issues = [i for a in answers for check in a.report.checks for i in check.issues]
    assert len(open_issues) == 1  # the unanswerable question's
    assert {
        (dict(k)["check"], dict(k)["kind"]): v
        for k, v in m.where("ragcore_validation_issues_total").items()
    } == {("traceability", "no_evidence"): 1}

    # At scrape time: the state, the limit, the store, the process.
    stats = server.engine.stats()
    assert m.value("ragcore_server_state", state="serving") == 1
    assert m.value("ragcore_server_state", state="loading") == 0
    assert m.value("ragcore_max_in_flight") == 32
    for name in ("knowledge_bases", "documents", "chunks", "vectors", "index_bytes"):
        assert m.value(f"ragcore_{name}") == getattr(stats, name) > 0
    assert m.value("ragcore_database_bytes") > 0
    assert m.value("process_resident_memory_bytes") > 50e6
    # Health checks are rpcs too, counted under their own service.
    with Client(target) as client:
        assert client.health() == "SERVING"
    health = scrape(server.metrics_port).where("ragcore_rpcs_total", method="Check", code="OK")
    assert list(health.values()) == [1]

    # A repeat is served from the answer cache: counted as an answer and a cache hit, with
    # no second set of stage timings.
    assert m.where("ragcore_cached_answers_total") == {}
    with Client(target, token=READER) as reader:
        assert reader.ask(QUESTION).cached
    again = scrape(server.metrics_port)
    assert again.value("ragcore_cached_answers_total", method="Ask") == 1
    assert again.value("ragcore_answers_total", method="Ask", status="ok") == 2
    assert again.value("ragcore_answer_rounds_count") == 3


def test_in_flight_and_draining_show_while_a_call_is_held_then_the_endpoint_closes(
    start_edge, tmp_path, real_embedder, sample_data_template
):
    data = tmp_path / "gated"
    shutil.copytree(sample_data_template, data)
    generator = GatedGenerator()
    engine = Engine(
        Config(data_dir=data), embedder=real_embedder, generator=generator, clock=lambda: TODAY
    )
    server, target = start_edge(engine=engine, metrics_port=0)
    port = server.metrics_port
    try:
        with Client(target) as client, ThreadPoolExecutor(2) as pool:
            pending = pool.submit(client.ask, QUESTION)
            assert generator.entered.wait(30)
            held = scrape(port)
            stopping = pool.submit(server.stop, 30)
            draining = _scrape_until(
                port, lambda m: m.value("ragcore_server_state", state="draining")
            )
            generator.release.set()
            assert pending.result(30).status == pb.ANSWER_STATUS_OK
            stopping.result(30)
    finally:
        generator.release.set()
    assert held.value("ragcore_rpcs_in_flight", service=SERVICE, method="Ask") == 1
    assert held.value("ragcore_rpcs_total", service=SERVICE, method="Ask", code="OK") is None
    assert held.value("ragcore_documents") is not None
    # Draining: the call still in flight, no store figures (the engine is about to close).
    assert draining.value("ragcore_server_state", state="serving") == 0
    assert draining.value("ragcore_rpcs_in_flight", service=SERVICE, method="Ask") == 1
    assert draining.value("ragcore_documents") is None
    with pytest.raises(OSError):  # stopped with the server
        scrape(port)


def _scrape_until(port: int, ready, timeout: float = 10.0) -> Scrape:
    deadline = time.monotonic() + timeout
    while True:
        m = scrape(port)
        if ready(m) or time.monotonic() > deadline:
            return m
        time.sleep(0.02)


# -- the dashboard ------------------------------------------------------------------------
PROMQL_WORDS = frozenset(
    {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless"}
    | {"bool", "offset", "inf", "nan"}
)


def dashboard_queries() -> list[str]:
    """Every PromQL expression of the dashboard: its panels' targets and its variables."""
    board = json.loads(DASHBOARD.read_text())
    panels = list(board["panels"])
    for panel in board["panels"]:
        panels.extend(panel.get("panels", []))  # inside collapsed rows
    queries = [t["expr"] for p in panels for t in p.get("targets", [])]
    for variable in board["templating"]["list"]:
        if variable["type"] == "query":
            queries.append(variable["query"]["query"])
    return queries


def metrics_named(query: str) -> dict[str, set[str]]:
    """The metric names a query uses, each with the label names it matches on."""
    variable = re.fullmatch(r"label_values\(\s*([a-zA-Z_:][\w:]*)\s*,.*\)", query)
    if variable:
        return {variable.group(1): set()}
    query = re.sub(r"\b(by|without)\s*\([^)]*\)", " ", query)  # grouping labels
    query = re.sub(r"\[[^\]]*\]", " ", query)  # range selectors
    found: dict[str, set[str]] = {}
    for match in re.finditer(r"([a-zA-Z_:][\w:]*)\s*(\{[^}]*\})?", query):
        name, matchers = match.group(1), match.group(2) or ""
        if query[match.end() :].lstrip().startswith("(") or name in PROMQL_WORDS:
            continue  # a function or a keyword
        labels = set(re.findall(r"([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)", matchers))
        found.setdefault(name, set()).update(labels)
    return found


def test_the_dashboard_queries_only_metrics_and_labels_the_server_exports(start_edge):
    server, target = start_edge(metrics_port=0)
    with Client(target) as client:  # one of each: every labelled series then exists
        client.ask(UNANSWERABLE)
        client.ask(RETRIED)
    m = scrape(server.metrics_port)
    exported = m.series_names()
    used: set[str] = set()
    queries = dashboard_queries()
    assert len(queries) > 10
    for query in queries:
        named = metrics_named(query)
        assert named, f"no metric in {query!r}"
        for name, labels in named.items():
            assert name in exported, f"{name} (in {query!r}) is not exported"
            # Prometheus adds instance and job when it scrapes.
            assert labels <= m.labels.get(name, set()) | {"instance", "job"}, (name, query)
            used.add(name)
    # (prometheus_client's "_created" timestamps come with every counter and histogram.)
    ours = {n for n in m.families if n.startswith("ragcore_") and not n.endswith("_created")}
    unused = {name for name in ours if not any(s.startswith(name) for s in used)}
    assert not unused, f"exported but on no panel: {sorted(unused)}"


def test_the_query_reader_finds_metrics_not_functions_or_labels():
    assert metrics_named(
        'histogram_quantile(0.95, sum by (le, stage) (rate(x_bucket{instance=~"$i", '
        'code!="OK"}[$__rate_interval]))) / sum by (stage) (rate(y_count[5m]))'
    ) == {"x_bucket": {"instance", "code"}, "y_count": set()}
    assert metrics_named("label_values(ragcore_server_state, instance)") == {
        "ragcore_server_state": set()
    }


# -- reading replies ----------------------------------------------------------------------
def test_answers_are_read_from_an_ask_reply_and_a_streams_final_event_only():
    answer = pb.Answer(
        status=pb.ANSWER_STATUS_UNCERTAIN,
        rounds=3,
        timings=pb.Timings(perception_ms=2.0, retrieval_ms=10.0, total_ms=15.0),
        report=pb.ValidationReport(
            checks=[
                pb.CheckResult(
                    issues=[
                        pb.Issue(
                            check=_closed(pb.Issue, "check", "timeliness"),
                            kind=_closed(pb.Issue, "kind", "superseded"),
                        )
                    ]
                )
            ]
        ),
    )
    figures = read_answer(answer)
    assert figures is not None and figures.status == "uncertain" and figures.rounds == 3
    assert figures.stage_seconds == {"perception": 0.002, "retrieval": 0.010}
    assert figures.issues == (("timeliness", "superseded"),)
    # The stream's events by the type they carry, whatever the .proto calls their fields.
    final, draft = (_event_field(t) for t in (pb.Answer, pb.DraftEvent))
    assert read_answer(pb.AskEvent(**{final: answer})) == figures
    assert read_answer(pb.AskEvent(**{draft: pb.DraftEvent(text="a draft")})) is None
    assert read_answer(pb.AskEvent(round=1)) is None
    assert read_answer(pb.SearchResponse()) is None


def _closed(message_type, field: str, label: str):
    """``label`` as ``field`` holds it: the string itself, or the enum value named for it."""
    enum = message_type.DESCRIPTOR.fields_by_name[field].enum_type
    if enum is None:
        return label
    return next(v.number for v in enum.values if v.name.lower().endswith("_" + label))


def _event_field(message_type) -> str:
    full_name = message_type.DESCRIPTOR.full_name
    return next(
        f.name
        for f in pb.AskEvent.DESCRIPTOR.fields
        if f.message_type is not None and f.message_type.full_name == full_name
    )


# -- configuration and endpoint -----------------------------------------------------------
@pytest.mark.parametrize("port", [-1, 65536, True, "9100", 1.5])
def test_a_bad_metrics_port_is_a_config_error(port):
    with pytest.raises(ConfigError, match="metrics_port"):
        ServerConfig(metrics_port=port)


def test_without_a_metrics_port_there_is_no_endpoint_and_no_interceptor(sample_engine):
    server = create_server(ServerConfig(engine=sample_engine.config, port=0), sample_engine)
    server.start()
    try:
        assert server.metrics is None and server.metrics_port is None
    finally:
        server.stop(grace=0)


def test_a_metrics_port_in_use_is_a_config_error(sample_engine):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        server = create_server(
            ServerConfig(engine=sample_engine.config, port=0, metrics_port=busy), sample_engine
        )
        with pytest.raises(ConfigError, match="metrics_port.*in use"):
            server.start()
    server.stop(grace=0)


def test_under_mutual_tls_metrics_are_https_and_need_a_client_certificate(start_edge, tmp_path):
    ca = CertificateAuthority(tmp_path, "metrics")
    server_cert, client_cert = ca.issue("localhost", server=True), ca.issue("client", server=False)
    server, _ = start_edge(
        metrics_port=0,
        tls_cert=server_cert.cert,
        tls_key=server_cert.key,
        tls_client_ca=ca.cert,
    )
    trusting = ssl.create_default_context(cafile=str(ca.cert))
    with pytest.raises(OSError):  # no client certificate
        scrape(server.metrics_port, context=trusting)
    with pytest.raises(OSError):  # plain HTTP to the HTTPS port
        scrape(server.metrics_port)
    trusting.load_cert_chain(str(client_cert.cert), str(client_cert.key))
    assert (
        scrape(server.metrics_port, context=trusting).value("ragcore_server_state", state="serving")
        == 1
    )


# -- the command line ---------------------------------------------------------------------
@pytest.mark.process
def test_serve_with_metrics_port_zero_logs_the_url_and_serves_it(tmp_path, sample_data_template):
    data = tmp_path / "data"
    shutil.copytree(sample_data_template, data)
    log = tmp_path / "stderr.log"
    command = [sys.executable, "-m", "edge_server", "--data-dir", str(data), "--port", "0"]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [*command, "--metrics-port", "0"], cwd=ROOT, stdin=subprocess.DEVNULL, stderr=sink
        )
    try:
        url = _wait_for(log, process, r"metrics on (http://127\.0\.0\.1:\d+/metrics)")
        _wait_for(log, process, r"serving \d+ documents")
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        m = scrape(port)
        assert m.value("ragcore_server_state", state="serving") == 1
        assert m.value("ragcore_documents") > 20
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)


def _wait_for(log: Path, process: subprocess.Popen, pattern: str, timeout: float = 90.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(pattern, log.read_text("utf-8", "replace"))
        if found:
            return found.group(found.lastindex or 0)
        if process.poll() is not None:
            pytest.fail(f"the server exited with {process.returncode}:\n{log.read_text()}")
        time.sleep(0.1)
    pytest.fail(f"no {pattern!r} within {timeout:.0f} s:\n{log.read_text()}")
