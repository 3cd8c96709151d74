"""A PostgreSQL store's pool and timeouts: options, checked values, and their effect."""

from __future__ import annotations

import time

import pytest

from ragcore.cli import build_parser, store_settings
from ragcore.config import (
    DEFAULT_STORE_CONNECT_TIMEOUT,
    DEFAULT_STORE_POOL_SIZE,
    DEFAULT_STORE_STATEMENT_TIMEOUT,
    Config,
    StoreSettings,
)
from ragcore.errors import ConfigError, StoreUnavailableError


def test_the_options_reach_the_config_and_default_to_the_named_constants():
    parse = build_parser().parse_args
    given = parse(
        ["search", "x", "--store-pool-size", "3", "--store-connect-timeout", "1.5"]
        + ["--store-statement-timeout", "0", "--no-store-prepared-statements"]
    )
    assert store_settings(given) == StoreSettings(3, 1.5, 0.0, prepared_statements=False)
    assert store_settings(parse(["search", "x"])) == StoreSettings(
        DEFAULT_STORE_POOL_SIZE, DEFAULT_STORE_CONNECT_TIMEOUT, DEFAULT_STORE_STATEMENT_TIMEOUT
    )
    assert Config().store_settings == StoreSettings()


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"pool_size": 0}, "store_pool_size"),
        ({"pool_size": True}, "store_pool_size"),
        ({"connect_timeout": 0.5}, "store_connect_timeout"),
        ({"statement_timeout": -1}, "store_statement_timeout"),
    ],
)
def test_a_bad_value_names_the_field_and_the_fix(settings, field):
    with pytest.raises(ConfigError, match=f"invalid config {field}=.*give"):
        StoreSettings(**settings)


@pytest.mark.process
def test_the_pool_holds_at_most_pool_size_connections_and_statements_stop_at_the_timeout(
    postgres_url,
):
    import psycopg

    from ragcore.storage.postgres import PostgresStore
    from ragcore.storage.postgres.sql import PostgresSql

    store = PostgresStore(
        postgres_url, dimension=8, settings=StoreSettings(pool_size=2, statement_timeout=1)
    )
    try:
        sql = PostgresSql(store)
        started = time.monotonic()
        with (
            pytest.raises(StoreUnavailableError, match="statement timeout"),
            sql.reading("sleeping") as conn,
        ):
            conn.execute("SELECT pg_sleep(5)")
        assert time.monotonic() - started < 4.5  # cut at 1 s, not the 5 s of sleep
        assert store.available  # a slow statement is not an outage
        with store.connection() as one, store.connection() as two:
            assert one is not two
            name = postgres_url.rsplit("/", 1)[1]
            with psycopg.connect(postgres_url, autocommit=True) as probe:
                count = probe.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
                    "AND application_name <> 'probe' AND pid <> pg_backend_pid()",
                    (name,),
                ).fetchone()
            assert count == (2,)
    finally:
        store.close()
