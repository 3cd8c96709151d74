"""The PostgreSQL + pgvector store: many servers share one database (``PostgresStore``)."""

try:
    import psycopg  # noqa: F401
    import psycopg_pool  # noqa: F401
except ImportError as exc:  # an optional extra
    raise ImportError(
        "the PostgreSQL store needs psycopg and psycopg-pool: pip install 'ragcore[postgres]'"
    ) from exc

from ragcore.storage.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
