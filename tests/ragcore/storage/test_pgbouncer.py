"""ragcore behind PgBouncer in transaction mode (docs/scale-out.md's capacity plan): the
store opens (migrations, advisory locks), writes, searches and ranks as it does on the
database itself, from several threads at once, with prepared statements off (PgBouncer
before 1.21 cannot keep them in transaction mode).

Needs the ``pgbouncer`` program (Debian: ``apt-get install pgbouncer``); skipped, saying
so, without it. PgBouncer refuses to run as root: as root it runs as the PostgreSQL
server's user.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from pg_server import as_user
from test_store_contract import DIMENSION, EMBEDDER, corpus, written

from ragcore.config import StoreSettings
from ragcore.retrieval.search import fts_query
from ragcore.storage.filters import SearchFilters
from ragcore.storage.postgres import PostgresStore

pytestmark = pytest.mark.process

PGBOUNCER = shutil.which("pgbouncer") or (
    "/usr/sbin/pgbouncer" if Path("/usr/sbin/pgbouncer").exists() else None
)


@pytest.fixture
def bouncer_url(postgres_server, postgres_url):
    if PGBOUNCER is None:
        pytest.skip("pgbouncer is not installed (apt-get install pgbouncer)")
    database = postgres_url.rsplit("/", 1)[1]
    folder = Path(tempfile.mkdtemp(prefix="ragcore-pgbouncer-"))
    folder.chmod(0o777)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (folder / "users.txt").write_text('"postgres" ""\n')
    (folder / "pgbouncer.ini").write_text(
        "[databases]\n"
        f"{database} = host=127.0.0.1 port={postgres_server.port} dbname={database}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        "auth_type = trust\n"
        f"auth_file = {folder / 'users.txt'}\n"
        "pool_mode = transaction\ndefault_pool_size = 3\nmax_client_conn = 100\n"
        f"logfile = {folder / 'pgbouncer.log'}\n"
    )
    for path in folder.iterdir():
        path.chmod(0o666)
    bouncer = subprocess.Popen(
        as_user([PGBOUNCER, str(folder / "pgbouncer.ini")], postgres_server.user),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,  # it logs to its logfile
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if bouncer.poll() is not None or time.monotonic() > deadline:
                    log = (folder / "pgbouncer.log").read_text(errors="replace")
                    pytest.fail(f"pgbouncer did not start: {log}", pytrace=False)
                time.sleep(0.05)
        yield f"postgresql://postgres@127.0.0.1:{port}/{database}", postgres_url
    finally:
        bouncer.terminate()
        bouncer.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


def test_the_store_works_behind_pgbouncer_in_transaction_mode(bouncer_url):
    through, direct = bouncer_url
    settings = StoreSettings(pool_size=4, prepared_statements=False)
    store = PostgresStore(through, dimension=DIMENSION, settings=settings)
    reference = PostgresStore(direct, dimension=DIMENSION)
    try:
        written(store, corpus())
        query = fts_query("valve seals gasket pump")
        vector = EMBEDDER.embed(["the valve opens"])[0]

        def search(_: int) -> tuple:
            return (
                store.keyword_search(query, SearchFilters(), 5),
                store.vector_search(vector, SearchFilters(), 3),
                store.vector_candidates(vector, SearchFilters(), 3, [1, 2]).hits,
                store.data_version(),
            )

        with ThreadPoolExecutor(8) as pool:  # more callers than server connections
            results = list(pool.map(search, range(40)))  # each statement far past 5 runs
        expected = (
            reference.keyword_search(query, SearchFilters(), 5),
            reference.vector_search(vector, SearchFilters(), 3),
            reference.vector_candidates(vector, SearchFilters(), 3, [1, 2]).hits,
            reference.data_version(),
        )
        assert results[0][0]
        assert all(r == expected for r in results)
        store.delete("memo-1")
        assert reference.counts()["documents"] == 2
    finally:
        store.close()
        reference.close()
