"""The Orchestrator: one object over planning, execution and fusion for the answering loop.

It holds what those need between questions (the strategy file, kept current; the thread
pool; the reranker and the clock) and nothing of any one question: the loop passes in
the perception, the plan and the question's search cache.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from ragcore.agents.perception.agent import Perception
from ragcore.agents.planning.execution import (
    Executor,
    Retrieval,
    SearchCache,
    SearchFunction,
)
from ragcore.agents.planning.fusion import fuse
from ragcore.agents.planning.planner import Plan, adjust, initial_plan
from ragcore.agents.planning.reloading import ReloadingStrategy
from ragcore.agents.planning.strategy import Strategy
from ragcore.inference.reranker import Reranker
from ragcore.scope import Scope
from ragcore.storage.filters import SearchFilters

if TYPE_CHECKING:  # validation is a sibling agent; only its Issue type is needed here
    from ragcore.agents.validation import Issue


class Orchestrator:
    """Plans, runs and adjusts retrieval tasks under a strategy file.

    ``search`` runs one search (``Engine.search``, called with the plan's ``scope``);
    ``knowledge_bases`` returns the names in the store. The strategy file is re-read when
    it changes; a broken new version is logged and the last good strategy stays in force
    (``strategy_error`` says why).
    """

    def __init__(
        self,
        search: SearchFunction,
        knowledge_bases: Callable[[], Iterable[str]],
        *,
        strategy_path: Path | str | None = None,
        reranker: Reranker | None = None,
        clock: Callable[[], date] = date.today,
        workers: int = 2,
    ) -> None:
        self._strategy = ReloadingStrategy(strategy_path)
        self._executor = Executor(search, knowledge_bases, workers=workers)
        self._reranker = reranker
        self._clock = clock

    @property
    def strategy(self) -> Strategy:
        """The strategy in force, re-read first if its file changed."""
        return self._strategy.current

    @property
    def strategy_error(self) -> str | None:
        """Why the last edit of the strategy file was refused (None: it was not)."""
        return self._strategy.error

    def close(self) -> None:
        self._executor.close()

    def plan(
        self,
        perception: Perception,
        bounds: SearchFilters = SearchFilters(),
        scope: Scope = Scope.ALL,
    ) -> Plan:
        """Round 1: the base task plus the tasks of every matching rule, each within
        ``bounds`` (the caller's filters, inside ``scope``); later rounds keep both."""
        return initial_plan(perception, self.strategy, bounds, scope)

    def adjust(self, plan: Plan, perception: Perception, issues: Sequence[Issue]) -> Plan | None:
        """The next round's plan for what failed, or None when nothing new is left to try."""
        return adjust(plan, perception, issues)

    def execute(self, plan: Plan, perception: Perception, cache: SearchCache) -> Retrieval:
        """Run the plan's tasks (in parallel), reusing ``cache`` hits by search key, and
        fuse their hits into evidence."""
        results = self._executor.run(plan, cache)
        strategy = self.strategy
        mode = strategy.mode(plan.retrieval)
        evidence = fuse(results, perception, strategy, self._reranker, self._clock(), mode)
        return Retrieval(results, evidence)
