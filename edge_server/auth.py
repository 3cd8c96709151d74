"""Bearer tokens with two roles and an optional scope: readers ask, search and read;
admins also ingest and delete; a scoped token sees only its knowledge bases.

Tokens come from a file, one per line::

    # role   token                                   knowledge bases (optional)
    reader   s3cr3t-terminal-token-for-line-4        manuals,faq
    admin    s3cr3t-admin-token-of-the-plant
    admin    s3cr3t-admin-token-for-line-4           line4

and from the environment, comma-separated, a scope after ``@`` with ``+`` between the
knowledge bases (``@`` and a kb name's characters cannot clash: bearer tokens never
contain ``@``)::

    RAGCORE_READER_TOKENS="s3cr3t-terminal-token-for-line-4@manuals+faq,another-reader-token"
    RAGCORE_ADMIN_TOKENS="s3cr3t-admin-token-of-the-plant"

Tokens are kept only as SHA-256 digests and compared with ``hmac.compare_digest``
against every known token (no early exit), so the time a check takes says nothing
about how much of a token was right. Tokens never appear in logs or error messages.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ragcore.errors import ConfigError

READER = "reader"
ADMIN = "admin"
ROLES = (READER, ADMIN)
ENV = {READER: "RAGCORE_READER_TOKENS", ADMIN: "RAGCORE_ADMIN_TOKENS"}
MIN_TOKEN_CHARS = 16
SCOPE_MARK = "@"  # in the environment form: TOKEN@kb1+kb2
_HINT = "make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))'"
# A knowledge base's name, as ragcore's documents require it.
_KNOWLEDGE_BASE = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


@dataclass(frozen=True)
class Access:
    """What a caller may do: its role, and the knowledge bases it is limited to (None:
    every one)."""

    role: str
    knowledge_bases: frozenset[str] | None = None

    @property
    def admin(self) -> bool:
        return self.role == ADMIN

    @property
    def scope_names(self) -> list[str]:
        """The scope, sorted; empty when the caller may use every knowledge base."""
        return sorted(self.knowledge_bases or ())


FULL_ACCESS = Access(ADMIN)  # every caller, when the server has no tokens


@dataclass(frozen=True)
class Tokens:
    """Known token digests and what each may do; empty means authentication is off."""

    digests: tuple[tuple[bytes, Access], ...] = ()

    @property
    def enabled(self) -> bool:
        return bool(self.digests)

    def access_of(self, token: str) -> Access | None:
        """What ``token`` may do, or None if it is not a known token."""
        given = _digest(token)
        found = None
        for digest, access in self.digests:  # every one, so that the time says nothing
            if hmac.compare_digest(given, digest):
                found = access
        return found

    def role_of(self, token: str) -> str | None:
        """The role of ``token``, or None if it is not a known token."""
        access = self.access_of(token)
        return access.role if access else None

    @classmethod
    def load(cls, path: Path | None = None, environ: Mapping[str, str] = os.environ) -> Tokens:
        """Tokens from ``path`` (``ROLE TOKEN [KB,KB...]`` per line, ``#`` comments) and
        the environment (``$RAGCORE_READER_TOKENS``, ``$RAGCORE_ADMIN_TOKENS``)."""
        entries: list[tuple[str, Access, str]] = []  # (token, access, where)
        if path is not None:
            for number, line in enumerate(Path(path).read_text("utf-8").splitlines(), 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                parts = line.split()
                where = f"{path}, line {number}"
                if len(parts) not in (2, 3) or parts[0] not in ROLES:
                    raise ConfigError(
                        "tokens_file",
                        where,
                        "write 'reader TOKEN' or 'admin TOKEN' per line, optionally followed "
                        "by the knowledge bases it is limited to: 'reader TOKEN manuals,faq'",
                    )
                scope = _scope(parts[2].split(","), where) if len(parts) == 3 else None
                entries.append((parts[1], Access(parts[0], scope), where))
        for role, variable in ENV.items():
            for item in environ.get(variable, "").split(","):
                token, mark, names = item.strip().partition(SCOPE_MARK)
                if token:
                    where = f"${variable}"
                    scope = _scope(names.split("+"), where) if mark else None
                    entries.append((token, Access(role, scope), where))
        seen: dict[bytes, str] = {}
        for token, _access, where in entries:
            if len(token) < MIN_TOKEN_CHARS:
                raise ConfigError(
                    "tokens",
                    where,
                    f"a token of {len(token)} characters is too easy to guess: use at "
                    f"least {MIN_TOKEN_CHARS}; {_HINT}",
                )
            digest = _digest(token)
            if digest in seen:
                raise ConfigError(
                    "tokens",
                    where,
                    f"the same token is also listed at {seen[digest]}: list each token once, "
                    "with its one role and scope",
                )
            seen[digest] = where
        return cls(tuple((_digest(token), access) for token, access, _ in entries))


def _scope(names: list[str], where: str) -> frozenset[str]:
    """The knowledge bases of a scope. A bad name is not quoted back: a token written in
    the wrong column must not end up in an error message or a log."""
    cleaned = [name.strip() for name in names]
    for number, name in enumerate(cleaned, 1):
        if not _KNOWLEDGE_BASE.fullmatch(name):
            raise ConfigError(
                "tokens",
                where,
                f"knowledge base {number} of the scope is not a knowledge base name: use "
                "1-64 lowercase letters, digits, _ or -, separated by ',' in the file and "
                "'+' in the environment",
            )
    return frozenset(cleaned)


def bearer_token(metadata: Mapping[str, str]) -> str | None:
    """The token of an ``authorization: Bearer <token>`` header, or None."""
    value = metadata.get("authorization", "")
    scheme, _, token = value.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8")).digest()
