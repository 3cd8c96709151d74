"""A read replica beside the primary: searches and document reads go to the replica,
writes and the reads a write depends on to the primary (a real streaming standby)."""

from __future__ import annotations

import time

import numpy as np
import psycopg
import pytest

from ragcore import Config, Engine
from ragcore.config import StoreSettings
from ragcore.documents import Chunk, Document
from ragcore.errors import ConfigError, StoreError
from ragcore.storage.filters import SearchFilters

pytest.importorskip("psycopg_pool")
from ragcore.storage.postgres import PostgresStore  # noqa: E402

DIMENSION = 4


@pytest.fixture(scope="module")
def replica(postgres_server):
    from pg_server import start_replica

    try:
        standby = start_replica(postgres_server)
    except Exception as exc:  # say why, never skip
        pytest.fail(f"the streaming replica did not start: {exc}", pytrace=False)
    yield standby
    standby.stop()


def _on(server, url: str) -> str:
    """``url``'s database on ``server``."""
    return f"postgresql://postgres@127.0.0.1:{server.port}/{url.rsplit('/', 1)[1]}"


def _caught_up(primary_url: str, replica_url: str, timeout: float = 20.0) -> None:
    with psycopg.connect(primary_url, autocommit=True) as conn:
        [(lsn,)] = conn.execute("SELECT pg_current_wal_lsn()::text").fetchall()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with psycopg.connect(replica_url, autocommit=True) as conn:
                [(done,)] = conn.execute(
                    "SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (lsn,)
                ).fetchall()
            if done:
                return
        except psycopg.OperationalError:  # the new database is not there yet
            pass
        time.sleep(0.05)
    raise TimeoutError(f"the replica did not replay up to {lsn} in {timeout} s")


def _document(doc_id: str, word: str) -> tuple[Document, list[Chunk], np.ndarray]:
    text = f"The {word} valve opens at 6 bar."
    doc = Document(id=doc_id, text=text, knowledge_base="manuals", title=f"{word} manual")
    vector = np.zeros((1, DIMENSION), dtype=np.float32)
    vector[0, len(doc_id) % DIMENSION] = 1.0
    return doc, [Chunk(0, text, 0, len(text), (), 0.0)], vector


def _replay(replica_url: str, paused: bool) -> None:
    with psycopg.connect(replica_url, autocommit=True) as conn:
        conn.execute("SELECT pg_wal_replay_pause()" if paused else "SELECT pg_wal_replay_resume()")


def test_reads_come_from_the_replica_and_writes_go_to_the_primary(postgres_url, replica):
    # The database must exist on the replica before a store can open it there.
    PostgresStore(postgres_url, dimension=DIMENSION).close()
    replica_url = _on(replica, postgres_url)
    _caught_up(postgres_url, replica_url)
    store = PostgresStore(postgres_url, dimension=DIMENSION, read_url=replica_url)
    try:
        store.write([_document("manual-a", "alpha")])  # a write on the standby would fail
        _caught_up(postgres_url, replica_url)
        assert store.keyword_search('"alpha"', SearchFilters(), 5)
        version = store.data_version()

        _replay(replica_url, paused=True)  # the replica stops applying the primary's writes
        try:
            store.write([_document("manual-bb", "bravo")])
            assert store.checksums(["manual-bb"])  # what a write depends on: the primary
            assert store.keyword_search('"bravo"', SearchFilters(), 5) == []
            assert store.data_version() == version  # caches key on what searches see
            assert "manual-bb" not in store.documents(["manual-bb"])
        finally:
            _replay(replica_url, paused=False)
        _caught_up(postgres_url, replica_url)
        assert store.keyword_search('"bravo"', SearchFilters(), 5)
        assert store.data_version() == version + 1
        query = np.zeros(DIMENSION, dtype=np.float32)
        query[len("manual-bb") % DIMENSION] = 1.0
        assert store.vector_search(query, SearchFilters(), 1)
    finally:
        store.close()


def test_engine_with_a_replica_finds_what_it_ingested(
    tmp_path, postgres_url, replica, real_embedder
):
    PostgresStore(postgres_url, dimension=real_embedder.dimension).close()
    replica_url = _on(replica, postgres_url)
    _caught_up(postgres_url, replica_url)
    config = Config(data_dir=tmp_path, store_url=postgres_url, store_read_url=replica_url)
    with Engine(config, embedder=real_embedder) as engine:
        engine.ingest([Document(id="note-1", text="The XR-40 drain valve is cleaned monthly.")])
        _caught_up(postgres_url, replica_url)
        hits = engine.search("XR-40 drain valve", k=1)
        assert hits and hits[0].document_id == "note-1"


def test_a_replica_needs_a_primary_and_a_postgresql_url(tmp_path, postgres_url):
    with pytest.raises(ConfigError, match="store_read_url"):
        Config(data_dir=tmp_path, store_read_url=postgres_url)
    with pytest.raises(ConfigError, match="store_read_url"):
        Config(data_dir=tmp_path, store_url=postgres_url, store_read_url=str(tmp_path))


def test_an_unreachable_replica_is_said_before_anything_is_read(postgres_url):
    with pytest.raises(StoreError, match="cannot connect to PostgreSQL at postgresql://"):
        PostgresStore(
            postgres_url,
            dimension=DIMENSION,
            read_url="postgresql://postgres@127.0.0.1:1/nowhere",
            settings=StoreSettings(connect_timeout=1),
        )
