"""Bearer tokens with two roles: readers ask and search, admins also ingest and delete.

Tokens are kept only as SHA-256 digests and compared with ``hmac.compare_digest``
against every known token (no early exit), so the time a check takes says nothing
about how much of a token was right. Tokens never appear in logs or error messages.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ragcore.errors import ConfigError

READER = "reader"
ADMIN = "admin"
ROLES = (READER, ADMIN)
ENV = {READER: "RAGCORE_READER_TOKENS", ADMIN: "RAGCORE_ADMIN_TOKENS"}
MIN_TOKEN_CHARS = 16
_HINT = "make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))'"


@dataclass(frozen=True)
class Tokens:
    """Known token digests and their roles; empty means authentication is off."""

    digests: tuple[tuple[bytes, str], ...] = ()

    @property
    def enabled(self) -> bool:
        return bool(self.digests)

    def role_of(self, token: str) -> str | None:
        """The role of ``token`` (admin wins if it is listed twice), or None if unknown."""
        given = _digest(token)
        found: set[str] = set()
        for digest, role in self.digests:
            if hmac.compare_digest(given, digest):
                found.add(role)
        return ADMIN if ADMIN in found else (READER if found else None)

    @classmethod
    def load(cls, path: Path | None = None, environ: Mapping[str, str] = os.environ) -> Tokens:
        """Tokens from ``path`` (``ROLE TOKEN`` per line, ``#`` comments) and the environment."""
        pairs: list[tuple[str, str, str]] = []  # (role, token, where)
        if path is not None:
            for number, line in enumerate(Path(path).read_text("utf-8").splitlines(), 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                parts = line.split()
                where = f"{path}, line {number}"
                if len(parts) != 2 or parts[0] not in ROLES:
                    raise ConfigError(
                        "tokens_file",
                        where,
                        "write one 'reader TOKEN' or 'admin TOKEN' per line",
                    )
                pairs.append((parts[0], parts[1], where))
        for role, variable in ENV.items():
            for token in environ.get(variable, "").split(","):
                if token.strip():
                    pairs.append((role, token.strip(), f"${variable}"))
        for _role, token, where in pairs:
            if len(token) < MIN_TOKEN_CHARS:
                raise ConfigError(
                    "tokens",
                    where,
                    f"a token of {len(token)} characters is too easy to guess: use at "
                    f"least {MIN_TOKEN_CHARS}; {_HINT}",
                )
        return cls(tuple((_digest(token), role) for role, token, _ in pairs))


def bearer_token(metadata: Mapping[str, str]) -> str | None:
    """The token of an ``authorization: Bearer <token>`` header, or None."""
    value = metadata.get("authorization", "")
    scheme, _, token = value.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8")).digest()
