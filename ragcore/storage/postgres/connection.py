"""Store URLs: checked and shown without their password, and the first connection's errors
said in words (a bad URL is a ConfigError, an unreachable server a StoreError)."""

from __future__ import annotations

import psycopg
from psycopg.conninfo import conninfo_to_dict

from ragcore.errors import ConfigError, StoreError

SCHEMES = ("postgresql://", "postgres://")


def redacted(url: str) -> str:
    """``url`` as it may be shown: user, host, port and database, never the password.
    ConfigError if it is not a PostgreSQL URL psycopg can read."""
    if not isinstance(url, str) or not url.startswith(SCHEMES):
        shown = url.split("@")[-1] if isinstance(url, str) else url
        raise ConfigError(
            "store_url",
            shown,
            "give a PostgreSQL URL, e.g. postgresql://user@host:5432/dbname",
        )
    try:
        parts = conninfo_to_dict(url)
    except psycopg.Error as exc:
        # The message may quote the URL; say only where it points (after the '@').
        raise ConfigError(
            "store_url",
            url.split("://", 1)[0] + "://…@" + url.rsplit("@", 1)[-1],
            f"psycopg cannot read it ({_first_line(exc, url)}); "
            "use postgresql://user[:password]@host[:port]/dbname",
        ) from None
    user = f"{parts['user']}@" if parts.get("user") else ""
    host = str(parts.get("host") or "localhost")
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{host}{port}/{parts.get('dbname') or ''}"


def connect(url: str, where: str, timeout: float) -> psycopg.Connection:
    """One autocommit connection; StoreError naming ``where`` if the server cannot be
    reached or refuses us."""
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=max(1, round(timeout)))
    except psycopg.Error as exc:
        raise StoreError(
            f"cannot connect to PostgreSQL at {where}: {_first_line(exc, url)}; check that "
            "the server is running and reachable and that the user, password and database "
            "in the URL are right"
        ) from None


def _first_line(exc: BaseException, url: str) -> str:
    """The error's first line, with the URL's password (if any) blanked out."""
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    try:
        password = conninfo_to_dict(url).get("password")
    except psycopg.Error:
        password = None
    return text.replace(str(password), "***") if password else text
