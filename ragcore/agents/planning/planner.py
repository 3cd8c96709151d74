"""Planning: what to search for, as pure functions of perception, strategy and issues.

Round 1 is the strategy's base task plus the tasks of every rule the perception matches
(``initial_plan``). After a failed validation, ``adjust`` changes the plan according to
what failed. A plan remembers every search key of its rounds, so no round repeats a
search. Nothing here searches; ``execution`` runs the tasks.

A plan carries the caller's bounds (``Engine.ask(filters=..., scope=...)``) and every
task of every round is narrowed to them in one place (``_plan``): what the question and
the retries add (a dated range, a source, current documents only, a side's task) only
narrows the caller's filters, never widens them; a task that cannot fit them is dropped
and the plan's reasons say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple

from ragcore.agents.perception.agent import Perception
from ragcore.agents.perception.time import dated_range
from ragcore.agents.planning.strategy import Rule, Strategy, TaskTemplate
from ragcore.agents.planning.tables import TableTask
from ragcore.scope import Scope
from ragcore.storage.filters import SearchFilters
from ragcore.text.citations import strip_citations
from ragcore.text.terms import model_terms, terms
from ragcore.types import ForEach, IssueKind, RetrievalMode, Route, SearchMode, TaskFilter

if TYPE_CHECKING:  # validation is a sibling agent; only its Issue type is needed here
    from ragcore.agents.validation import Issue

DEFAULT_K = 8
MAX_WIDENED_K = 50
# Widening and de-duplicating cycle through every method: hybrid → keyword → vector.
_MODE_SWITCH = {
    SearchMode.HYBRID: SearchMode.KEYWORD,
    SearchMode.KEYWORD: SearchMode.VECTOR,
    SearchMode.VECTOR: SearchMode.HYBRID,
}
OUTDATED = frozenset({IssueKind.SUPERSEDED, IssueKind.OUTSIDE_INTERVAL})
"""Issue kinds answered by current documents only (``outranked`` excludes the document)."""
UNSUPPORTED = frozenset(
    {
        IssueKind.UNCITED,
        IssueKind.INVALID_CITATION,
        IssueKind.UNSUPPORTED,
        IssueKind.UNSUPPORTED_CLAIM,
        IssueKind.UNIT_MISMATCH,
        IssueKind.UNSUPPORTED_NUMBER,
        IssueKind.UNSUPPORTED_RELATION,
    }
)
"""Issue kinds answered by wider searches by another method."""
MISSING_EVIDENCE = frozenset({IssueKind.NO_EVIDENCE, IssueKind.ATTRIBUTE_NOT_FOUND})
# A cited claim its passages do not back: its own words may find the passage of the
# document that does, when it was not among those shown ("… allows 750,000 cycles").
UNBACKED_CLAIM = frozenset(
    {
        IssueKind.INVALID_CITATION,
        IssueKind.UNSUPPORTED,
        IssueKind.UNSUPPORTED_CLAIM,
        IssueKind.UNIT_MISMATCH,
        IssueKind.UNSUPPORTED_NUMBER,
    }
)
CLAIM_SEARCHES = 2
"""At most this many unbacked claims get a search of their own per round."""
"""Issue kinds after which a precise plan widens to explore."""
OFF_TARGET = frozenset({IssueKind.WRONG_ENTITY, IssueKind.OFF_QUESTION})
"""Issue kinds answered by a search focused on what the question names and asks."""
_NOT_SUBJECTS = frozenset({"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY"})


class SearchKey(NamedTuple):
    """Identifies one search: two tasks with one key would return the same hits.

    A tuple, so it hashes and compares by value (and equals the plain tuple it replaced).
    """

    query: str
    """The query, lower-cased with its whitespace collapsed."""
    mode: SearchMode
    k: int
    filters: SearchFilters
    about: str = ""
    unnamed: str = ""


@dataclass(frozen=True)
class RetrievalTask:
    """One search to run: what, how, where, and how much its hits count."""

    id: str
    query: str
    mode: SearchMode
    k: int
    filters: SearchFilters
    weight: float
    priority: int
    reason: str
    about: str = ""
    """Only hits from documents whose title or metadata names this identifier ("CH-310"):
    a question about one model and a rule may otherwise retrieve only the rule."""
    unnamed: str = ""
    """Hits only when no hit's document is about this identifier (its title or metadata
    names it): a code named only in passages ("… I get a C207A0 error"), which a search
    for the whole question missed. A model with a manual of its own is found by that."""

    @property
    def key(self) -> SearchKey:
        """Identifies the search itself: two tasks with one key would return the same hits."""
        query = " ".join(self.query.lower().split())
        return SearchKey(query, self.mode, self.k, self.filters, self.about, self.unnamed)


@dataclass(frozen=True)
class Plan:
    """The tasks of one round, and every search key of this and earlier rounds."""

    round: int
    tasks: tuple[RetrievalTask, ...]
    searched: frozenset[SearchKey]
    reasons: tuple[str, ...]
    """The rules (round 1) or adjustments (later rounds) that shaped the plan."""
    bounds: SearchFilters = SearchFilters()
    """The caller's filters (inside its scope): every task's filters lie within them."""
    scope: Scope = Scope.ALL
    """The knowledge bases the caller may read; every search runs inside them."""
    retrieval: RetrievalMode = RetrievalMode.PRECISE
    """Precise (a lookup) or explore (comparisons, lists, summaries; a retry for missing
    evidence): how many hits per task and how the evidence is chosen from them."""
    tables: tuple[TableTask, ...] = ()
    """Queries on the declared tables (a data question); their results are evidence too."""

    @property
    def fast_path(self) -> bool:
        """A single task and no rule fired: one search, no fusion across tasks."""
        return self.round == 1 and len(self.tasks) == 1


def initial_plan(
    perception: Perception,
    strategy: Strategy,
    bounds: SearchFilters = SearchFilters(),
    scope: Scope = Scope.ALL,
) -> Plan:
    """Round 1: the base task plus the tasks of every matching rule, within ``bounds``
    (the caller's filters, already inside ``scope``)."""
    if perception.route == Route.DIRECT:
        return Plan(1, (), frozenset(), ("direct: nothing to retrieve",), bounds, scope)
    templates = [(strategy.base, "base", "")]
    forced_mode: SearchMode | None = None
    retrieval = strategy.retrieval
    fired = []
    for rule in strategy.rules:
        if not _matches(rule, perception):
            continue
        fired.append(rule.name)
        forced_mode = rule.mode or forced_mode
        retrieval = rule.retrieval or retrieval
        for item in _items(rule, perception):
            templates += [(t, rule.name, item) for t in rule.tasks]
    k = strategy.mode(retrieval).k
    made = (_task(t, reason, item, perception, k) for t, reason, item in templates)
    tasks = [t for t in made if t is not None]
    if retrieval == RetrievalMode.EXPLORE:  # explore searches deeper than any task's own k
        tasks = [replace(t, k=max(t.k, k)) for t in tasks]
    if forced_mode:
        tasks = [replace(t, mode=forced_mode) for t in tasks]
    return _plan(1, tasks, frozenset(), tuple(fired), bounds, scope, retrieval)


def adjust(plan: Plan, perception: Perception, issues: Sequence[Issue]) -> Plan | None:
    """The next round's plan for what failed, or None when nothing new is left to try.

    Outdated evidence → every task keeps to current documents (and the question's
    interval); a missing comparison side → a task for that entity; unsupported
    statements → wider searches by another method, and a cited claim its passages do not
    back → a search with its own words.
    """
    kinds = {issue.kind for issue in issues}
    tasks, reasons, retrieval = list(plan.tasks), [], plan.retrieval
    if kinds & OUTDATED:
        tasks = [_current(t, kinds, perception) for t in tasks]
        reasons.append("outdated evidence: current documents only")
    overridden = tuple(
        dict.fromkeys(i.document_ids[0] for i in issues if i.kind == IssueKind.OUTRANKED)
    )
    if overridden:
        tasks = [_excluding(t, overridden) for t in tasks]
        reasons.append(f"overridden by newer documents: without {', '.join(overridden)}")
    for entity in dict.fromkeys(i.entity for i in issues if i.kind == IssueKind.MISSING_SIDE):
        if entity:
            query = f"{entity} {_keywords(perception, entity)}"
            side = RetrievalTask(
                "", query, SearchMode.HYBRID, DEFAULT_K, SearchFilters(), 1.0, 2, ""
            )
            bounded = _bound(replace(side, reason=f"missing side {entity}"), plan)
            fresh = _fresh(bounded, plan) if bounded is not None else None
            if fresh is not None:
                tasks.append(fresh)
                reasons.append(f"missing side: a task for {entity}")
    if kinds & OFF_TARGET:
        subjects = " ".join(perception.identifiers)
        query = f"{subjects} {_keywords(perception, subjects)}".strip()
        focused = RetrievalTask(
            "", query, SearchMode.KEYWORD, DEFAULT_K, SearchFilters(), 1.2, 2, "focused"
        )
        bounded = _bound(focused, plan)
        fresh = _fresh(bounded, plan) if bounded is not None else None
        if fresh is not None:
            tasks.append(fresh)
            reasons.append("answer about another entity or attribute: a focused search")
    # Evidence about the subject without the asked attribute: one wider search may find
    # it in another chunk; after that, the documents do not give it.
    if kinds == {IssueKind.ATTRIBUTE_NOT_FOUND} and plan.round >= 2:
        return None
    if kinds & UNSUPPORTED or kinds & {IssueKind.NO_EVIDENCE, IssueKind.ATTRIBUTE_NOT_FOUND}:
        widened = [_fresh(_widen(t), plan) or t for t in tasks]
        if widened != tasks:
            tasks = widened
            reasons.append("unsupported statements: wider search by another method")
            if kinds & MISSING_EVIDENCE and retrieval == RetrievalMode.PRECISE:
                retrieval = RetrievalMode.EXPLORE
                reasons.append("missing evidence: precise → explore")
    claims = dict.fromkeys(i.statement for i in issues if i.kind in UNBACKED_CLAIM and i.statement)
    weight = max((t.weight for t in tasks), default=1.0)  # as much as the heaviest task
    for claim in list(claims)[:CLAIM_SEARCHES]:
        query = " ".join(strip_citations(claim).split())
        if any(t.query == query for t in tasks):
            continue  # searched last round (and widened with the others)
        own = RetrievalTask(
            "", query, SearchMode.HYBRID, DEFAULT_K, SearchFilters(), weight, 2, "a claim's words"
        )
        bounded = _bound(own, plan)
        fresh = _fresh(bounded, plan) if bounded is not None else None
        if fresh is not None:
            tasks.append(fresh)
            reasons.append("unbacked claim: a search with its own words")
    # Cached tasks are not searched again, so a smaller or re-filtered set of known
    # searches is still a new plan; the same set again is not.
    if {t.key for t in tasks} == {t.key for t in plan.tasks}:
        return None
    return _plan(
        plan.round + 1, tasks, plan.searched, tuple(reasons), plan.bounds, plan.scope, retrieval
    )


# -- round 1 -----------------------------------------------------------------------------
def _task(
    template: TaskTemplate, reason: str, item: str, p: Perception, k: int
) -> RetrievalTask | None:
    """A task from a rule's template, its placeholders filled from the perception (None:
    it keeps to documents about an item that is no identifier)."""
    query = template.query.format(
        question=p.question,
        keywords=_keywords(p, item),
        side=item,
        entity=item,
        source=p.constraints.source or "",
    )
    dated = TaskFilter.TIME in template.filters
    after, before = dated_range(p.constraints.time) if dated else (None, None)
    filters = SearchFilters(
        knowledge_bases=template.knowledge_bases,
        doc_types=template.doc_types,
        updated_after=after,
        updated_before=before,
        min_authority=template.min_authority,
        exclude_superseded=TaskFilter.CURRENT in template.filters,
        only_superseded=TaskFilter.SUPERSEDED in template.filters,
        sources=(p.constraints.source,)
        if TaskFilter.SOURCE in template.filters and p.constraints.source
        else (),
    )
    about, unnamed = "", ""
    identifier = bool(model_terms(terms(item)))  # "diesel" names no documents; "CH-310" does
    if TaskFilter.IDENTIFIER in template.filters:
        if not identifier:
            return None
        unnamed = item
    if TaskFilter.ABOUT in template.filters:
        if not identifier:
            return None
        about = item
    return RetrievalTask(
        id="",
        query=" ".join(query.split()),
        mode=template.mode,
        k=template.k or k,
        filters=filters,
        weight=template.weight,
        priority=template.priority,
        reason=reason,
        about=about,
        unnamed=unnamed,
    )


def _matches(rule: Rule, p: Perception) -> bool:
    checks = {
        "action": lambda v: p.action in ([v] if isinstance(v, str) else v),
        "route": lambda v: p.route in ([v] if isinstance(v, str) else v),
        "time": lambda v: (p.constraints.time is not None) == v,
        "source": lambda v: (p.constraints.source is not None) == v,
        "quantitative": lambda v: p.constraints.quantitative == v,
        "latest": lambda v: p.constraints.latest == v,
        "history": lambda v: p.constraints.history == v,
        "min_entities": lambda v: len(_subjects(p)) >= v,
        "keywords": lambda v: bool({w.lower() for w in v} & set(p.keywords)),
        "labels": lambda v: bool(set(v) & {e.label for e in p.entities}),
    }
    return all(checks[key](value) for key, value in rule.when.items())


def _items(rule: Rule, p: Perception) -> list[str]:
    """What the rule's tasks are repeated for ([""]: once, with no item)."""
    if rule.for_each == ForEach.SIDE:
        return list(p.sides)
    if rule.for_each == ForEach.ENTITY:
        return list(_subjects(p))
    return [""]


def _subjects(p: Perception) -> tuple[str, ...]:
    """What the question is about: its identifiers, else its named things (not dates)."""
    if p.identifiers:
        return tuple(dict.fromkeys(p.identifiers))
    return tuple(dict.fromkeys(e.text for e in p.entities if e.label not in _NOT_SUBJECTS))


# -- later rounds ------------------------------------------------------------------------
def _bound(task: RetrievalTask, plan: Plan) -> RetrievalTask | None:
    """``task`` within the plan's bounds (so its search key is the one that will run),
    or None when it cannot fit them."""
    filters = task.filters.within(plan.bounds)
    return None if filters is None else replace(task, filters=filters)


def _current(task: RetrievalTask, kinds: set[IssueKind], p: Perception) -> RetrievalTask:
    """``task`` kept to documents in force: not superseded, dated for the interval."""
    filters = task.filters
    if IssueKind.SUPERSEDED in kinds:
        filters = replace(filters, exclude_superseded=True)
    if IssueKind.OUTSIDE_INTERVAL in kinds and p.constraints.time is not None:
        after, before = dated_range(p.constraints.time)
        filters = replace(
            filters,
            updated_after=filters.updated_after or after,
            updated_before=filters.updated_before or before,
        )
    return replace(task, filters=filters, reason=f"{task.reason}; current only")


def _fresh(task: RetrievalTask, plan: Plan) -> RetrievalTask | None:
    """``task``, or its first variant by another method, that was not searched yet."""
    for _ in range(len(_MODE_SWITCH)):
        if task.key not in plan.searched:
            return task
        task = replace(task, mode=_MODE_SWITCH[task.mode])
    return None


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


# -- both --------------------------------------------------------------------------------
def _keywords(p: Perception, item: str = "") -> str:
    """The question's keywords without ``item``: "{side} {keywords}" names a side once."""
    own = {w.lower() for w in item.split()}
    return " ".join(w for w in p.keywords if w.lower() not in own) or p.question


def _plan(
    round_: int,
    tasks: list[RetrievalTask],
    searched: frozenset[SearchKey],
    reasons: tuple[str, ...],
    bounds: SearchFilters,
    scope: Scope,
    retrieval: RetrievalMode = RetrievalMode.PRECISE,
) -> Plan:
    """Keep every task within ``bounds`` (dropping those that cannot be), drop repeats of
    one search (keeping the heaviest), number them and order them by priority."""
    bounded, dropped = [], []
    for task in tasks:
        filters = task.filters.within(bounds)
        if filters is None:
            dropped.append(task.reason or "base")
        else:
            bounded.append(replace(task, filters=filters))
    if dropped:
        names = ", ".join(dict.fromkeys(dropped))
        reasons = (*reasons, f"outside the given filters, dropped: {names}")
    unique: dict[SearchKey, RetrievalTask] = {}
    for task in bounded:
        if task.key not in unique or task.weight > unique[task.key].weight:
            unique[task.key] = task
    ordered = sorted(unique.values(), key=lambda t: -t.priority)
    numbered = tuple(replace(t, id=f"r{round_}t{i}") for i, t in enumerate(ordered, start=1))
    searched = searched | {t.key for t in numbered}
    return Plan(round_, numbered, searched, reasons, bounds, scope, retrieval)
