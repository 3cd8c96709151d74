"""Orchestration: a perception becomes a plan of retrieval tasks, run in parallel and fused.

The strategy file (``ragcore.strategy``) decides which tasks a question gets. Results
of all tasks are fused (each hit's score relative to its task's best, times the task
weight, summed over tasks; or weighted reciprocal rank fusion), then blended with a
credibility score from document metadata (recency, authority, numeric density; a
superseded document loses most of it). After a failed validation, ``adjust`` changes
the plan according to what failed; a plan remembers every search already made, so no
round repeats one.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from ragcore.agents.evidence import Evidence
from ragcore.agents.perception.agent import Perception
from ragcore.agents.perception.time import dated_range
from ragcore.agents.planning.strategy import Rule, Strategy, TaskTemplate, load_strategy
from ragcore.errors import ConfigError
from ragcore.inference.reranker import Reranker
from ragcore.retrieval.search import Hit
from ragcore.storage.filters import SearchFilters

log = logging.getLogger(__name__)

DEFAULT_K = 8
MAX_WIDENED_K = 50
NUMERIC_DENSITY_FULL = 0.2  # chunks this dense in numbers get full numeric credit
_MODE_SWITCH = {"hybrid": "keyword", "keyword": "vector", "vector": "hybrid"}
OUTDATED = frozenset({"superseded", "outside_interval"})  # "outranked" excludes the document
UNSUPPORTED = frozenset(
    {"uncited", "invalid_citation", "unsupported", "unsupported_number", "unsupported_relation"}
)

SearchFunction = Callable[..., list[Hit]]
"""``search(query, *, mode, k, filters) -> hits``, e.g. ``Engine.search``."""


@dataclass(frozen=True)
class RetrievalTask:
    """One search to run: what, how, where, and how much its hits count."""

    id: str
    query: str
    mode: str
    k: int
    filters: SearchFilters
    weight: float
    priority: int
    reason: str

    @property
    def key(self) -> tuple:
        """Identifies the search itself: two tasks with one key would return the same hits."""
        return (" ".join(self.query.lower().split()), self.mode, self.k, self.filters)


@dataclass(frozen=True)
class Plan:
    """The tasks of one round, and every search key of this and earlier rounds."""

    round: int
    tasks: tuple[RetrievalTask, ...]
    searched: frozenset[tuple]
    reasons: tuple[str, ...]
    """The rules (round 1) or adjustments (later rounds) that shaped the plan."""

    @property
    def fast_path(self) -> bool:
        """A single task and no rule fired: one search, no fusion across tasks."""
        return self.round == 1 and len(self.tasks) == 1


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


class Orchestrator:
    """Plans, runs and adjusts retrieval tasks under a strategy file.

    ``search`` runs one search (``Engine.search``); ``knowledge_bases`` returns the names
    in the store. The strategy file is re-read when it changes; a broken new version is
    logged and the last good strategy stays in force (``strategy_error`` says why).
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
        self._search = search
        self._knowledge_bases = knowledge_bases
        self._reranker = reranker
        self._clock = clock
        self._strategy = load_strategy(strategy_path)
        self._stamp = _stamp(self._strategy.path)
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ragcore-task")
        self.strategy_error: str | None = None

    @property
    def strategy(self) -> Strategy:
        """The strategy in force, re-read first if its file changed."""
        stamp = _stamp(self._strategy.path)
        if stamp != self._stamp:
            with self._lock:
                if stamp != self._stamp:
                    self._stamp = stamp
                    try:
                        self._strategy = load_strategy(self._strategy.path)
                        self.strategy_error = None
                        log.info("strategy reloaded from %s", self._strategy.path)
                    except ConfigError as exc:
                        self.strategy_error = str(exc)
                        log.error("%s; keeping the last good strategy", exc)
        return self._strategy

    def close(self) -> None:
        self._pool.shutdown(wait=True)

    # -- planning ------------------------------------------------------------------
    def plan(self, perception: Perception) -> Plan:
        """Round 1: the base task plus the tasks of every matching rule."""
        if perception.route == "direct":
            return Plan(1, (), frozenset(), ("direct: nothing to retrieve",))
        strategy = self.strategy
        templates = [(strategy.base, "base", "")]
        forced_mode, fired = None, []
        for rule in strategy.rules:
            if not _matches(rule, perception):
                continue
            fired.append(rule.name)
            forced_mode = rule.mode or forced_mode
            for item in _items(rule, perception):
                templates += [(t, rule.name, item) for t in rule.tasks]
        k = strategy.base.k or DEFAULT_K
        tasks = [_task(t, reason, item, perception, k) for t, reason, item in templates]
        if forced_mode:
            tasks = [replace(t, mode=forced_mode) for t in tasks]
        return _plan(1, tasks, frozenset(), tuple(fired))

    def adjust(self, plan: Plan, perception: Perception, issues: Sequence) -> Plan | None:
        """The next round's plan for what failed, or None when nothing new is left to try.

        Outdated evidence → every task keeps to current documents (and the question's
        interval); a missing comparison side → a task for that entity; unsupported
        statements → wider searches by another method.
        """
        kinds = {issue.kind for issue in issues}
        tasks, reasons = list(plan.tasks), []
        if kinds & OUTDATED:
            tasks = [self._current(t, kinds, perception) for t in tasks]
            reasons.append("outdated evidence: current documents only")
        overridden = tuple(
            dict.fromkeys(i.document_ids[0] for i in issues if i.kind == "outranked")
        )
        if overridden:
            tasks = [_excluding(t, overridden) for t in tasks]
            reasons.append(f"overridden by newer documents: without {', '.join(overridden)}")
        for entity in dict.fromkeys(i.entity for i in issues if i.kind == "missing_side"):
            if entity:
                query = f"{entity} {_keywords(perception, entity)}"
                side = RetrievalTask("", query, "hybrid", DEFAULT_K, SearchFilters(), 1.0, 2, "")
                side = self._fresh(replace(side, reason=f"missing side {entity}"), plan)
                if side is not None:
                    tasks.append(side)
                    reasons.append(f"missing side: a task for {entity}")
        if kinds & UNSUPPORTED or "no_evidence" in kinds:
            widened = [self._fresh(_widen(t), plan) or t for t in tasks]
            if widened != tasks:
                tasks = widened
                reasons.append("unsupported statements: wider search by another method")
        # Cached tasks are not searched again, so a smaller or re-filtered set of known
        # searches is still a new plan; the same set again is not.
        if {t.key for t in tasks} == {t.key for t in plan.tasks}:
            return None
        return _plan(plan.round + 1, tasks, plan.searched, tuple(reasons))

    @staticmethod
    def _current(task: RetrievalTask, kinds: set[str], p: Perception) -> RetrievalTask:
        """``task`` kept to documents in force: not superseded, dated for the interval."""
        filters = task.filters
        if "superseded" in kinds:
            filters = replace(filters, exclude_superseded=True)
        if "outside_interval" in kinds and p.constraints.time is not None:
            after, before = dated_range(p.constraints.time)
            filters = replace(
                filters,
                updated_after=filters.updated_after or after,
                updated_before=filters.updated_before or before,
            )
        return replace(task, filters=filters, reason=f"{task.reason}; current only")

    @staticmethod
    def _fresh(task: RetrievalTask, plan: Plan) -> RetrievalTask | None:
        """``task``, or its first variant by another method, that was not searched yet."""
        for _ in range(len(_MODE_SWITCH)):
            if task.key not in plan.searched:
                return task
            task = replace(task, mode=_MODE_SWITCH[task.mode])
        return None

    # -- execution -----------------------------------------------------------------
    def execute(self, plan: Plan, perception: Perception, cache: dict) -> Retrieval:
        """Run the plan's tasks (in parallel), reusing ``cache`` hits by search key."""
        known = set(self._knowledge_bases())
        pending = [t for t in plan.tasks if t.key not in cache]
        runnable = [t for t in pending if _runnable(t, known)]
        if len(runnable) > 1:
            runs = self._pool.map(lambda t: self._run(t, known), runnable)
            done = dict(zip([t.key for t in runnable], runs))
        else:
            done = {t.key: self._run(t, known) for t in runnable}
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
        return Retrieval(tuple(results), self._fuse(results, perception))

    def _run(self, task: RetrievalTask, known: set[str]) -> tuple[tuple[Hit, ...], float]:
        started = time.perf_counter()
        filters = task.filters
        if filters.knowledge_bases:  # search the named bases the store has
            kbs = tuple(kb for kb in filters.knowledge_bases if kb in known)
            filters = replace(filters, knowledge_bases=kbs)
        hits = self._search(task.query, mode=task.mode, k=task.k, filters=filters)
        return tuple(hits), (time.perf_counter() - started) * 1000

    def _fuse(self, results: Sequence[TaskResult], perception: Perception) -> tuple[Evidence, ...]:
        strategy = self.strategy
        fused: dict[int, float] = {}
        best: dict[int, Hit] = {}
        found_by: dict[int, list[str]] = {}
        for result in results:
            top = max((h.score for h in result.hits), default=0.0)
            for rank, hit in enumerate(result.hits, start=1):
                if strategy.fusion == "rrf":
                    share = result.task.weight / (strategy.fusion_k + rank)
                else:  # the hit's score relative to its task's best, weighted
                    share = result.task.weight * max(hit.score, 0.0) / top if top > 0 else 0.0
                fused[hit.chunk_id] = fused.get(hit.chunk_id, 0.0) + share
                best.setdefault(hit.chunk_id, hit)
                found_by.setdefault(hit.chunk_id, []).append(result.task.id)
        if not fused:
            return ()
        candidates = sorted(fused, key=lambda c: -fused[c])
        relevance = self._relevance(candidates, fused, best, perception, strategy)
        today = self._clock()
        cred = {c: credibility(best[c], today, strategy) for c in relevance}
        share = strategy.credibility.share
        score = {c: (1 - share) * relevance[c] + share * cred[c] for c in relevance}
        ranked = sorted(score, key=lambda c: -score[c])
        chosen = ranked[: strategy.evidence]
        # Every task's best hit gets in, so each side of a comparison has evidence.
        for result in results:
            top = next((h.chunk_id for h in result.hits if h.chunk_id in score), None)
            if top is not None and top not in chosen:
                chosen.append(top)
        chosen.sort(key=lambda c: -score[c])
        return tuple(
            Evidence(n, best[c], round(score[c], 4), round(cred[c], 4), tuple(found_by[c]))
            for n, c in enumerate(chosen, start=1)
        )

    def _relevance(self, candidates, fused, best, perception, strategy) -> dict[int, float]:
        """0–1 relevance: fused rank fusion, or the cross-encoder when reranking."""
        use = self._reranker is not None if strategy.rerank is None else strategy.rerank
        if use and self._reranker is not None:
            top = candidates[: strategy.evidence * 3]
            logits = self._reranker.score(perception.question, [best[c].text for c in top])
            return {c: 1 / (1 + math.exp(-float(x))) for c, x in zip(top, logits)}
        high = fused[candidates[0]]
        return {c: fused[c] / high for c in candidates}


def credibility(hit: Hit, today: date, strategy: Strategy) -> float:
    """0–1 from the document's recency and authority and the chunk's numeric density."""
    weights = strategy.credibility
    doc = hit.document
    if doc.updated_at is None:
        recency = 0.5
    else:
        age = max((today - doc.updated_at).days, 0)
        recency = 0.5 ** (age / weights.half_life_days)
    authority = (doc.authority - 1) / 4
    numbers = min(hit.numeric_density / NUMERIC_DENSITY_FULL, 1.0)
    total = weights.recency + weights.authority + weights.numeric_density
    value = (
        weights.recency * recency
        + weights.authority * authority
        + weights.numeric_density * numbers
    ) / total
    return value * (weights.superseded_factor if doc.superseded_by else 1.0)


def _task(template: TaskTemplate, reason: str, item: str, p: Perception, k: int):
    """A task from a rule's template, its placeholders filled from the perception."""
    query = template.query.format(
        question=p.question,
        keywords=_keywords(p, item),
        side=item,
        entity=item,
        source=p.constraints.source or "",
    )
    after, before = dated_range(p.constraints.time) if "time" in template.filters else (None, None)
    filters = SearchFilters(
        knowledge_bases=template.knowledge_bases,
        doc_types=template.doc_types,
        updated_after=after,
        updated_before=before,
        min_authority=template.min_authority,
        exclude_superseded="current" in template.filters,
        sources=(p.constraints.source,)
        if "source" in template.filters and p.constraints.source
        else (),
    )
    return RetrievalTask(
        id="",
        query=" ".join(query.split()),
        mode=template.mode,
        k=template.k or k,
        filters=filters,
        weight=template.weight,
        priority=template.priority,
        reason=reason,
    )


def _keywords(p: Perception, item: str = "") -> str:
    """The question's keywords without ``item``: "{side} {keywords}" names a side once."""
    own = {w.lower() for w in item.split()}
    return " ".join(w for w in p.keywords if w.lower() not in own) or p.question


def _plan(round_: int, tasks: list[RetrievalTask], searched, reasons) -> Plan:
    """Number the tasks, drop repeats of one search (keeping the heaviest), order by priority."""
    unique: dict[tuple, RetrievalTask] = {}
    for task in tasks:
        if task.key not in unique or task.weight > unique[task.key].weight:
            unique[task.key] = task
    ordered = sorted(unique.values(), key=lambda t: -t.priority)
    numbered = tuple(replace(t, id=f"r{round_}t{i}") for i, t in enumerate(ordered, start=1))
    return Plan(round_, numbered, searched | {t.key for t in numbered}, reasons)


def _excluding(task: RetrievalTask, documents: tuple[str, ...]) -> RetrievalTask:
    excluded = tuple(dict.fromkeys(task.filters.exclude_documents + documents))
    filters = replace(task.filters, exclude_documents=excluded)
    return replace(task, filters=filters, reason=f"{task.reason}; without overridden")


def _widen(task: RetrievalTask) -> RetrievalTask:
    return replace(
        task,
        k=min(task.k * 2, MAX_WIDENED_K),
        mode=_MODE_SWITCH[task.mode],
        reason=f"{task.reason}; widened",
    )


def _missing_kbs(task: RetrievalTask, known: set[str]) -> set[str]:
    return set(task.filters.knowledge_bases) - known


def _runnable(task: RetrievalTask, known: set[str]) -> bool:
    """A task on named knowledge bases needs at least one of them in the store."""
    return not task.filters.knowledge_bases or bool(set(task.filters.knowledge_bases) & known)


def _matches(rule: Rule, p: Perception) -> bool:
    checks = {
        "action": lambda v: p.action in ([v] if isinstance(v, str) else v),
        "route": lambda v: p.route in ([v] if isinstance(v, str) else v),
        "time": lambda v: (p.constraints.time is not None) == v,
        "source": lambda v: (p.constraints.source is not None) == v,
        "quantitative": lambda v: p.constraints.quantitative == v,
        "latest": lambda v: p.constraints.latest == v,
        "min_entities": lambda v: len(_subjects(p)) >= v,
        "keywords": lambda v: bool({w.lower() for w in v} & set(p.keywords)),
        "labels": lambda v: bool(set(v) & {e.label for e in p.entities}),
    }
    return all(checks[key](value) for key, value in rule.when.items())


def _items(rule: Rule, p: Perception) -> list[str]:
    if rule.for_each == "side":
        return list(p.sides)
    if rule.for_each == "entity":
        return list(_subjects(p))
    return [""]


def _subjects(p: Perception) -> tuple[str, ...]:
    """What the question is about: its identifiers, else its named things (not dates)."""
    if p.identifiers:
        return tuple(dict.fromkeys(p.identifiers))
    skip = {"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY"}
    return tuple(dict.fromkeys(e.text for e in p.entities if e.label not in skip))


def _stamp(path: Path) -> tuple[float, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size)
