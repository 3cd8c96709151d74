"""A PostgreSQL outage is a state: a real server killed (as a crash) and restarted on the
same port, under a store and under a real gRPC edge server.

The server here is this module's own (the session's is shared by other tests and must
not go down).
"""

from __future__ import annotations

import inspect
import threading
import time
from collections.abc import Iterator

import grpc
import pytest
from test_store_contract import DIMENSION, chunks_of, corpus, written

from ragcore import Config, Document, Engine
from ragcore.config import StoreSettings
from ragcore.errors import StoreUnavailableError
from ragcore.retrieval.search import fts_query
from ragcore.scope import Scope
from ragcore.storage.filters import SearchFilters
from ragcore.storage.postgres import PostgresStore
from ragcore.storage.postgres.pools import HEARTBEAT_INTERVAL
from ragcore.storage.protocol import DocumentStore
from ragcore.storage.records import Listing

pytestmark = [pytest.mark.process, pytest.mark.slow]

# Bounds here say "at once" and "soon", with room for a loaded 2-core machine: a call
# refused by the open circuit returns far within the pool's wait (POOL_WAIT, raised here
# so the two cannot be confused), and recovery is seen within RECOVERY (the probe runs
# every PROBE_INTERVAL; on an idle machine the store is back within a second).
POOL_WAIT = 10.0
AT_ONCE = 2.0
RECOVERY = 10.0
SETTINGS = StoreSettings(connect_timeout=POOL_WAIT)


@pytest.fixture(scope="module")
def own_server() -> Iterator:
    from pg_server import start

    server = start()
    yield server
    server.stop()


@pytest.fixture
def own_url(own_server) -> str:
    import psycopg

    name = f"outage_{time.monotonic_ns()}"
    with psycopg.connect(own_server.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}".encode())
    return own_server.url.rsplit("/", 1)[0] + "/" + name


# Every public method of the store protocol, with arguments that would work were the
# database up. The test fails if the protocol gains a method this table lacks.
CALLS = {
    "meta": ("embedder",),
    "set_meta": ({"x": "1"},),
    "forget_meta": (["x"],),
    "data_version": (),
    "checksums": (["pump-cp200"],),
    "taken_outside": (["pump-cp200"],),
    "write": ("WRITE",),
    "delete": ("memo-1",),
    "delete_knowledge_base": ("memos",),
    "knowledge_bases": (),
    "check_knowledge_bases": (["manuals"],),
    "counts": (),
    "documents": (["pump-cp200"],),
    "record": ("pump-cp200",),
    "text": ("pump-cp200",),
    "list_documents": (Listing(None, None, 10), None),
    "chunks": ([1, 2],),
    "embeddings": (),
    "vectors": ([1, 2],),
    "filtered_chunk_ids": (SearchFilters(knowledge_bases=frozenset({"manuals"})),),
    "keyword_search": (fts_query("pump valve"), SearchFilters(), 10),
    "document_keyword_search": (fts_query("pump valve"), SearchFilters(), 10),
    "first_chunk_ids": ([1, 2],),
}
NOT_CALLS = {"within", "close"}  # no database involved


def protocol_methods() -> set[str]:
    return {
        name
        for name, member in inspect.getmembers(DocumentStore)
        if not name.startswith("_") and inspect.isfunction(member)
    }


def test_the_table_covers_every_method_of_the_store_protocol():
    assert protocol_methods() - NOT_CALLS == set(CALLS)


def wait_for(condition, timeout: float) -> float:
    """Seconds until ``condition()`` holds; fails after ``timeout``."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < timeout, "timed out"
        time.sleep(0.02)
    return time.monotonic() - started


def test_every_store_method_fails_fast_with_store_unavailable_while_postgres_is_down(
    own_server, own_url
):
    """Each public method raises StoreUnavailableError (never a psycopg error, never a
    wait on the pool), and the store is back within a second of the database."""
    store = PostgresStore(own_url, dimension=DIMENSION, settings=SETTINGS)
    changes: list[bool] = []
    store.watch(changes.append)
    try:
        written(store, corpus())
        docs = corpus()
        own_server.kill()
        try:
            with pytest.raises(StoreUnavailableError, match="unreachable"):
                store.counts()  # finds it down: the circuit opens
            assert not store.available
            for name, args in CALLS.items():
                if args == ("WRITE",):
                    args = ([(docs[0], *chunks_of(docs[0]))],)
                started = time.monotonic()
                # A scoped view: unscoped, taken_outside has nothing to look up.
                view = store.within(Scope(frozenset({"manuals", "memos"})))
                with pytest.raises(StoreUnavailableError):
                    result = getattr(view, name)(*args)
                    if inspect.isgenerator(result):
                        list(result)
                assert time.monotonic() - started < AT_ONCE, name  # at once: no pool wait
            # The sessions' and tables' seams fail the same way.
            with pytest.raises(StoreUnavailableError), store.connection():
                pass
        finally:
            own_server.restart()
        wait_for(lambda: store.available, RECOVERY)
        assert store.counts()["documents"] == 3
        assert changes == [False, True]
    finally:
        store.close()


def test_an_idle_store_notices_the_outage_by_its_heartbeat(own_server, own_url):
    store = PostgresStore(own_url, dimension=DIMENSION)
    changes: list[bool] = []
    try:
        store.watch(changes.append)
        own_server.kill()
        try:
            # No call made: the heartbeat's doing (a beat, then the pool's wait).
            wait_for(lambda: changes == [False], HEARTBEAT_INTERVAL + 2 + RECOVERY)
        finally:
            own_server.restart()
        wait_for(lambda: changes == [False, True], RECOVERY)
    finally:
        store.close()


@pytest.mark.model
def test_the_edge_says_unavailable_with_retry_info_and_health_follows_the_database(
    own_server, own_url, tmp_path, real_embedder, start_edge
):
    """Ask, Search and Ingest get UNAVAILABLE (reason STORE_UNAVAILABLE, a RetryInfo),
    never INTERNAL; health for ragcore.v1.Ragcore is NOT_SERVING during the outage and
    SERVING within a second of the database's return; then Ask works again."""
    from edge_server.client import Client, error_details

    engine = Engine(Config(data_dir=tmp_path / "data", store_url=own_url), embedder=real_embedder)
    engine.ingest(
        [
            Document(
                id="cp200",
                title="CP-200 pump manual",
                text="Replace the CP-200 mechanical seal every 4000 operating hours.",
                knowledge_base="manuals",
            )
        ]
    )
    _server, address = start_edge(engine=engine)
    with Client(address) as client:

        def status() -> str:
            return client.health("ragcore.v1.Ragcore", timeout=2)

        assert client.ask("How often should the CP-200 seal be replaced?").text
        assert status() == "SERVING"
        own_server.kill()
        try:
            for call in (
                lambda: client.ask("What does error E4027 mean on the CP-200?"),
                lambda: client.search("seal interval"),
            ):
                started = time.monotonic()
                with pytest.raises(grpc.RpcError) as caught:
                    call()
                assert caught.value.code() == grpc.StatusCode.UNAVAILABLE, caught.value.details()
                details = error_details(caught.value)
                assert details["ErrorInfo"].reason == "STORE_UNAVAILABLE"
                assert details["RetryInfo"].retry_delay.ToMilliseconds() > 0
                assert time.monotonic() - started < RECOVERY  # not the client's 30 s deadline
            wait_for(lambda: status() == "NOT_SERVING", RECOVERY)
            assert client.health("", timeout=2) == "SERVING"  # the server itself is up
        finally:
            own_server.restart()
        wait_for(lambda: status() == "SERVING", RECOVERY)
        answer = client.ask("How often should the CP-200 seal be replaced?")
        assert "4000" in answer.text


def test_many_calls_during_an_outage_hold_no_worker(own_server, own_url):
    """32 threads calling during an outage are all answered at once (not after the
    pool's wait): the circuit fails them fast."""
    store = PostgresStore(own_url, dimension=DIMENSION, settings=SETTINGS)
    try:
        written(store, corpus())
        own_server.kill()
        try:
            with pytest.raises(StoreUnavailableError):
                store.data_version()
            times: list[float] = []

            def call() -> None:
                started = time.monotonic()
                with pytest.raises(StoreUnavailableError):
                    store.keyword_search(fts_query("pump"), SearchFilters(), 10)
                times.append(time.monotonic() - started)

            threads = [threading.Thread(target=call) for _ in range(32)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert len(times) == 32 and max(times) < AT_ONCE
        finally:
            own_server.restart()
        wait_for(lambda: store.available, RECOVERY)
    finally:
        store.close()
