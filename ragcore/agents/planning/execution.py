"""Execution: a plan's tasks run on a thread pool, with the per-question search cache.

A task whose search key is in the cache is not searched again (its hits come from an
earlier round); a task on knowledge bases the store does not have is skipped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

from ragcore.agents.evidence import Evidence
from ragcore.agents.planning.planner import Plan, RetrievalTask, SearchKey
from ragcore.documents import identifiers_of, named_identifiers
from ragcore.retrieval.search import Hit
from ragcore.scope import Scope

SearchFunction = Callable[..., list[Hit]]
"""``search(query, *, mode, k, filters, scope) -> hits``, e.g. ``Engine.search``."""

ABOUT_DEPTH = 4
"""A task kept to documents about an entity searches this many times deeper."""

SearchCache = dict[SearchKey, tuple[Hit, ...]]
"""The hits of every search made for one question, by search key."""


@dataclass(frozen=True)
class TaskResult:
    task: RetrievalTask
    hits: tuple[Hit, ...]
    searched: bool
    """False when the hits came from an earlier round (nothing was searched again)."""
    ms: float
    skipped: str = ""
    """Why the task was not run (e.g. its knowledge base is not in the store)."""


@dataclass(frozen=True)
class Retrieval:
    results: tuple[TaskResult, ...]
    evidence: tuple[Evidence, ...]

    @property
    def searches(self) -> int:
        return sum(r.searched for r in self.results)


class Executor:
    """Runs tasks with ``search``; ``knowledge_bases`` returns the names in the store."""

    def __init__(
        self,
        search: SearchFunction,
        knowledge_bases: Callable[[], Iterable[str]],
        *,
        workers: int = 2,
    ) -> None:
        self._search = search
        self._knowledge_bases = knowledge_bases
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ragcore-task")

    def close(self) -> None:
        self._pool.shutdown(wait=True)

    def run(self, plan: Plan, cache: SearchCache) -> tuple[TaskResult, ...]:
        """Run the plan's tasks (in parallel), reusing ``cache`` hits by search key and
        adding the new ones to it; one result per task, in plan order."""
        known = set(self._knowledge_bases())
        pending = [t for t in plan.tasks if t.key not in cache]
        runnable = [t for t in pending if _runnable(t, known)]
        # A single search runs on the calling thread: no hand-off for the fast path.
        if len(runnable) > 1:
            runs = self._pool.map(lambda t: self._run(t, known, plan.scope), runnable)
            done = dict(zip([t.key for t in runnable], runs))
        else:
            done = {t.key: self._run(t, known, plan.scope) for t in runnable}
        results = []
        for task in plan.tasks:
            if task.key in done:
                hits, ms = done[task.key]
                cache[task.key] = hits
                results.append(TaskResult(task, hits, True, ms))
            elif task.key in cache:
                results.append(TaskResult(task, cache[task.key], False, 0.0))
            else:
                missing = ", ".join(sorted(_missing_kbs(task, known)))
                results.append(TaskResult(task, (), False, 0.0, f"no knowledge base {missing}"))
        return tuple(results)

    def _run(
        self, task: RetrievalTask, known: set[str], scope: Scope
    ) -> tuple[tuple[Hit, ...], float]:
        started = time.perf_counter()
        filters = task.filters
        if filters.knowledge_bases:  # search the named bases the store has
            kbs = tuple(kb for kb in filters.knowledge_bases if kb in known)
            filters = replace(filters, knowledge_bases=kbs)
        if task.unnamed:
            # Passages naming a code no document is about; none when one is (its own
            # manual or FAQ entry is found by the other tasks, and ranked by them).
            hits = self._search(task.query, mode=task.mode, k=task.k, filters=filters, scope=scope)
            name = named_identifiers(task.unnamed)
            if any(name <= identifiers_of(h.document) for h in hits):
                hits = []
            return tuple(hits), (time.perf_counter() - started) * 1000
        if not task.about:
            hits = self._search(task.query, mode=task.mode, k=task.k, filters=filters, scope=scope)
            return tuple(hits), (time.perf_counter() - started) * 1000
        # Documents about an entity, kept from a deeper search: their titles and metadata
        # are read from the hits, so the store needs no filter of its own for them.
        name = named_identifiers(task.about)
        deeper = self._search(
            task.query, mode=task.mode, k=task.k * ABOUT_DEPTH, filters=filters, scope=scope
        )
        hits = [h for h in deeper if name <= identifiers_of(h.document)][: task.k]
        return tuple(hits), (time.perf_counter() - started) * 1000


def _missing_kbs(task: RetrievalTask, known: set[str]) -> set[str]:
    return set(task.filters.knowledge_bases) - known


def _runnable(task: RetrievalTask, known: set[str]) -> bool:
    """A task on named knowledge bases needs at least one of them in the store."""
    return not task.filters.knowledge_bases or bool(set(task.filters.knowledge_bases) & known)
