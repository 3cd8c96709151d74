"""Scope: the knowledge bases one caller may read and write.

A ``Scope`` travels with a call (``Engine.ask``, ``search``, ``document``, ``ingest``,
...) and is enforced where the data is read: the store answers a scoped call as if the
knowledge bases outside the scope did not exist (ids, titles and counts included), and
every retrieval task of every round searches only inside it. ``Scope.ALL`` (the
default) is no restriction.

Naming a knowledge base outside the scope is a ``ScopeError`` whose text is the same
whether or not that knowledge base exists, so the error itself leaks nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import ClassVar

from ragcore.errors import InvalidInputError, ScopeError, quoted
from ragcore.storage.filters import SearchFilters


@dataclass(frozen=True)
class Scope:
    """The knowledge bases a caller may use; ``None`` means all of them.

    ``Scope(frozenset({"manuals", "faq"}))`` (any iterable of names is accepted). A scope
    of no knowledge bases at all is refused: it is almost surely a configuration slip,
    and ``None`` already says "everything".
    """

    knowledge_bases: frozenset[str] | None = None
    ALL: ClassVar[Scope]

    def __post_init__(self) -> None:
        names = self.knowledge_bases
        if names is None:
            return
        if isinstance(names, str) or not isinstance(names, Iterable):
            raise InvalidInputError(
                f"a scope's knowledge_bases must be a set of names, got {names!r}"
            )
        names = frozenset(names)
        if not names or not all(isinstance(n, str) and n for n in names):
            raise InvalidInputError(
                f"a scope needs one or more knowledge base names, got {sorted(map(str, names))}; "
                "use Scope.ALL (None) for every knowledge base"
            )
        object.__setattr__(self, "knowledge_bases", names)

    @property
    def unrestricted(self) -> bool:
        return self.knowledge_bases is None

    @property
    def names(self) -> tuple[str, ...]:
        """The scope's knowledge bases, sorted (empty for ``Scope.ALL``)."""
        return tuple(sorted(self.knowledge_bases or ()))

    def allows(self, knowledge_base: str) -> bool:
        return self.knowledge_bases is None or knowledge_base in self.knowledge_bases

    def check(self, knowledge_base: str) -> None:
        """ScopeError if ``knowledge_base`` is outside the scope (existing or not)."""
        if not self.allows(knowledge_base):
            raise ScopeError(
                f"knowledge base {quoted(knowledge_base)} is outside the knowledge bases this "
                f"caller may use ({', '.join(self.names)}): name one of those"
            )

    def restrict(self, filters: SearchFilters) -> SearchFilters:
        """``filters`` kept inside the scope.

        No knowledge base named: the scope's. Named ones must all be inside it, else
        ``ScopeError`` (before anything is looked up, so it leaks nothing).
        """
        if self.knowledge_bases is None:
            return filters
        if not filters.knowledge_bases:
            return replace(filters, knowledge_bases=self.names)
        for name in filters.knowledge_bases:
            self.check(name)
        return filters

    def describe(self) -> str:
        """``all knowledge bases`` or ``faq, manuals`` (for traces and logs)."""
        return "all knowledge bases" if self.knowledge_bases is None else ", ".join(self.names)


Scope.ALL = Scope()
