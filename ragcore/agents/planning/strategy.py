"""The retrieval strategy: a TOML file of rules, loaded into frozen, validated data.

The file format is documented at the top of the shipped ``rules/strategy.toml``. Every
problem in a file is reported with the file, the line and the reason, and nothing of a
broken file is used. Closed sets (routes, search modes, task filters, ``for_each``,
fusion) are read into the enums of ``ragcore.types``; their values are the TOML strings.
"""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from ragcore.errors import ConfigError
from ragcore.retrieval.search import MAX_TOP_K
from ragcore.types import ForEach, RetrievalMode, Route, SearchMode, TaskFilter, TaskFusion

DEFAULT_STRATEGY = Path(__file__).resolve().parents[2] / "rules" / "strategy.toml"
PLACEHOLDERS = frozenset({"question", "keywords", "side", "entity", "source"})
_CONDITIONS = {
    "action": (str, list),
    "route": (str, list),
    "time": (bool,),
    "source": (bool,),
    "quantitative": (bool,),
    "latest": (bool,),
    "history": (bool,),
    "min_entities": (int,),
    "keywords": (list,),
    "labels": (list,),
}


@dataclass(frozen=True)
class TaskTemplate:
    """A retrieval task a rule adds, before its placeholders are filled in."""

    query: str
    mode: SearchMode
    knowledge_bases: tuple[str, ...] = ()
    k: int | None = None
    weight: float = 1.0
    priority: int = 1
    filters: frozenset[TaskFilter] = frozenset()
    doc_types: tuple[str, ...] = ()
    min_authority: int | None = None


@dataclass(frozen=True)
class Rule:
    name: str
    when: Mapping[str, object]
    tasks: tuple[TaskTemplate, ...] = ()
    for_each: ForEach | None = None
    mode: SearchMode | None = None
    retrieval: RetrievalMode | None = None
    """The retrieval mode of a plan this rule fires in (the last such rule wins)."""


@dataclass(frozen=True)
class ModeSettings:
    """What a retrieval mode (``[modes.precise]``, ``[modes.explore]``) sets."""

    k: int
    """Hits per task (a task's own larger k is kept)."""
    evidence: int
    """Fused chunks handed to the generator."""
    floor: float = 0.0
    """Evidence whose relevance is below this share of the best's is dropped (0: none)."""
    per_document: int = 0
    """At most this many chunks of one document in the evidence (0: no limit)."""


@dataclass(frozen=True)
class Credibility:
    """How document metadata turns into a 0–1 credibility score."""

    share: float = 0.3
    recency: float = 0.4
    authority: float = 0.4
    numeric_density: float = 0.2
    half_life_days: float = 1095.0
    superseded_factor: float = 0.3


@dataclass(frozen=True)
class Strategy:
    base: TaskTemplate
    evidence: int
    fusion: TaskFusion
    """``score`` (task-relative scores, weighted) or ``rrf`` (weighted reciprocal rank)."""
    fusion_k: int
    rerank: bool | None
    """None: rerank when a reranker is configured."""
    credibility: Credibility
    rules: tuple[Rule, ...]
    path: Path
    retrieval: RetrievalMode = RetrievalMode.PRECISE
    """The retrieval mode of a plan no rule gives one."""
    modes: Mapping[RetrievalMode, ModeSettings] | None = None
    """Settings per retrieval mode (None: precise is ``base.k``/``evidence``, unfloored)."""

    def mode(self, retrieval: RetrievalMode) -> ModeSettings:
        if self.modes is not None and retrieval in self.modes:
            return self.modes[retrieval]
        k = self.base.k or 8
        if retrieval == RetrievalMode.EXPLORE:
            return ModeSettings(k * 2, self.evidence + 2, 0.0, 2)
        return ModeSettings(k, self.evidence)


def load_strategy(path: Path | str | None = None) -> Strategy:
    """Read and validate a strategy file (the shipped default when ``path`` is None)."""
    path = Path(path) if path is not None else DEFAULT_STRATEGY
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError("strategy_path", str(path), f"cannot read it ({exc.strerror})") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("strategy_path", str(path), f"not valid TOML: {exc}") from exc
    return _Parser(path, text).strategy(data)


class _Parser:
    """Turns parsed TOML into a Strategy; errors name the file, the line and the key."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()
        self.rule_lines = [i + 1 for i, line in enumerate(self.lines) if line.strip() == "[[rule]]"]

    def fail(self, where: str, problem: str, rule: int | None = None, key: str = "") -> NoReturn:
        line = self._line(rule, key)
        at = f"line {line}, " if line else ""
        raise ConfigError("strategy_path", str(self.path), f"{at}{where}: {problem}")

    def _line(self, rule: int | None, key: str) -> int | None:
        """The line of ``key`` inside the rule (or the whole file), for the message."""
        first, last = 0, len(self.lines)
        if rule is not None and rule < len(self.rule_lines):
            first = self.rule_lines[rule] - 1
            last = self.rule_lines[rule + 1] - 1 if rule + 1 < len(self.rule_lines) else last
        pattern = re.compile(rf"(^|[\s{{,]){re.escape(key)}\s*=") if key else None
        for number in range(first, last):
            if pattern is None or pattern.search(self.lines[number]):
                return number + 1
        return first + 1 if rule is not None else None

    def strategy(self, data: dict) -> Strategy:
        unknown = set(data) - {"defaults", "credibility", "rule", "modes"}
        if unknown:
            self.fail(
                f"table [{sorted(unknown)[0]}]", "unknown; use defaults, credibility, modes, rule"
            )
        defaults = dict(data.get("defaults", {}))
        default_retrieval = self.retrieval(
            defaults.pop("retrieval", RetrievalMode.PRECISE.value), "defaults", None
        )
        rerank = defaults.pop("rerank", "auto")
        if rerank not in ("auto", True, False):
            self.fail("defaults.rerank", f'{rerank!r}: use "auto", true or false', key="rerank")
        raw_fusion = defaults.pop("fusion", TaskFusion.SCORE.value)
        fusion = TaskFusion.parse(raw_fusion)
        if fusion is None:
            allowed = " or ".join(f'"{v}"' for v in TaskFusion.values())
            self.fail("defaults.fusion", f"{raw_fusion!r}: use {allowed}", key="fusion")
        evidence = defaults.pop("evidence", 6)
        fusion_k = defaults.pop("fusion_k", 60)
        for key, value in (("evidence", evidence), ("fusion_k", fusion_k)):
            if not _whole(value, 1, 100 if key == "evidence" else 10_000):
                self.fail(f"defaults.{key}", f"{value!r} is not a whole number in range", key=key)
        base = self.task({"query": "{question}", **defaults}, "defaults", None)
        rules = data.get("rule", [])
        if not isinstance(rules, list):
            self.fail("rule", "write each rule as a [[rule]] table")
        return Strategy(
            base=base,
            evidence=evidence,
            fusion=fusion,
            fusion_k=fusion_k,
            rerank=None if rerank == "auto" else rerank,
            credibility=self.credibility(data.get("credibility", {})),
            rules=tuple(self.rule(r, i) for i, r in enumerate(rules)),
            path=self.path,
            retrieval=default_retrieval or RetrievalMode.PRECISE,
            modes=self.modes(data.get("modes", {})) if "modes" in data else None,
        )

    def modes(self, table: object) -> dict[RetrievalMode, ModeSettings]:
        if not isinstance(table, dict):
            self.fail("modes", "write each mode as a [modes.<name>] table")
        found = {}
        for name, settings in table.items():
            mode = RetrievalMode.parse(name)
            if mode is None:
                self.fail(f"modes.{name}", f"unknown mode; use {', '.join(RetrievalMode.values())}")
            if not isinstance(settings, dict) or set(settings) - set(
                ModeSettings.__dataclass_fields__
            ):
                keys = ", ".join(ModeSettings.__dataclass_fields__)
                self.fail(f"modes.{name}", f"a table with keys from {keys}", key=name)
            k, evidence = settings.get("k"), settings.get("evidence")
            floor, per_document = settings.get("floor", 0.0), settings.get("per_document", 0)
            if not _whole(k, 1, MAX_TOP_K) or not _whole(evidence, 1, 100):
                self.fail(
                    f"modes.{name}", f"k (1 to {MAX_TOP_K}) and evidence (1 to 100) are needed"
                )
            if isinstance(floor, bool) or not isinstance(floor, int | float) or not 0 <= floor < 1:
                self.fail(
                    f"modes.{name}.floor", f"{floor!r}: use a number from 0 up to 1", key="floor"
                )
            if not _whole(per_document, 0, 100):
                self.fail(
                    f"modes.{name}.per_document", f"{per_document!r}: use 0 (no limit) or more"
                )
            assert isinstance(k, int) and isinstance(evidence, int)  # checked by _whole
            found[mode] = ModeSettings(k, evidence, float(floor), per_document)
        return found

    def retrieval(self, value: object, where: str, rule: int | None) -> RetrievalMode | None:
        if value is None:
            return None
        mode = RetrievalMode.parse(value)
        if mode is None:
            allowed = " or ".join(f'"{v}"' for v in RetrievalMode.values())
            self.fail(where, f"retrieval {value!r}: use {allowed}", rule, "retrieval")
        return mode

    def credibility(self, table: dict) -> Credibility:
        fields = Credibility.__dataclass_fields__
        for key, value in table.items():
            if key not in fields:
                self.fail(f"credibility.{key}", f"unknown key; use {', '.join(fields)}", key=key)
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                self.fail(f"credibility.{key}", f"{value!r}: use a number ≥ 0", key=key)
        result = Credibility(**{k: float(v) for k, v in table.items()})
        if result.share > 1 or result.superseded_factor > 1 or result.half_life_days <= 0:
            self.fail("credibility", "share and superseded_factor must be ≤ 1, half_life_days > 0")
        if result.recency + result.authority + result.numeric_density <= 0:
            self.fail("credibility", "recency, authority and numeric_density are all 0")
        return result

    def rule(self, table: object, index: int) -> Rule:
        if not isinstance(table, dict):
            self.fail(f"rule {index + 1}", "must be a table", index)
        name = table.get("name")
        where = f"rule {name!r}" if isinstance(name, str) and name else f"rule {index + 1}"
        if not isinstance(name, str) or not name:
            self.fail(where, 'needs a name = "..."', index)
        unknown = set(table) - {"name", "when", "tasks", "for_each", "mode", "retrieval"}
        if unknown:
            key = sorted(unknown)[0]
            use = "when, tasks, for_each, mode, retrieval"
            self.fail(where, f"unknown key {key!r}; use {use}", index, key)
        when = table.get("when", {})
        if not isinstance(when, dict):
            self.fail(where, "when must be a table, e.g. when = { time = true }", index, "when")
        for key, value in when.items():
            kinds = _CONDITIONS.get(key)
            if kinds is None:
                self.fail(
                    where, f"unknown condition {key!r}; use {', '.join(_CONDITIONS)}", index, key
                )
            if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
                self.fail(where, f"condition {key} = {value!r} has the wrong type", index, key)
        when = dict(when)
        if "route" in when:
            when["route"] = self.routes(when["route"], where, index)
        raw_for_each = table.get("for_each")
        for_each = None if raw_for_each is None else ForEach.parse(raw_for_each)
        if raw_for_each is not None and for_each is None:
            allowed = " or ".join(ForEach.values())
            self.fail(where, f"for_each {raw_for_each!r}: use {allowed}", index, "for_each")
        mode = self.mode(table.get("mode"), where, index)
        tasks = table.get("tasks", [])
        if not isinstance(tasks, list) or not all(isinstance(t, dict) for t in tasks):
            self.fail(where, "tasks must be a list of tables", index, "tasks")
        retrieval = self.retrieval(table.get("retrieval"), where, index)
        if not tasks and mode is None and retrieval is None:
            self.fail(where, "does nothing: give tasks, a mode or a retrieval", index)
        return Rule(
            name=name,
            when=when,
            tasks=tuple(self.task(t, where, index) for t in tasks),
            for_each=for_each,
            mode=mode,
            retrieval=retrieval,
        )

    def task(self, table: dict, where: str, rule: int | None) -> TaskTemplate:
        allowed = set(TaskTemplate.__dataclass_fields__)
        for key in table:
            if key not in allowed:
                self.fail(
                    where, f"unknown task key {key!r}; use {', '.join(sorted(allowed))}", rule, key
                )
        query = table.get("query")
        if not isinstance(query, str) or not query.strip():
            self.fail(where, 'a task needs a query, e.g. "{question}"', rule, "query")
        try:
            names = {f for _, f, _, _ in string.Formatter().parse(query) if f is not None}
        except ValueError as exc:
            self.fail(where, f"query {query!r}: {exc}", rule, "query")
        if names - PLACEHOLDERS:
            self.fail(
                where,
                f"unknown placeholder {{{sorted(names - PLACEHOLDERS)[0]}}}; use "
                + ", ".join(f"{{{p}}}" for p in sorted(PLACEHOLDERS)),
                rule,
                "query",
            )
        mode = self.mode(table.get("mode", SearchMode.HYBRID.value), where, rule)
        assert (
            mode is not None
        )  # TOML has no null: only a missing mode is None, and it has a default
        k = table.get("k")
        if k is not None and not _whole(k, 1, MAX_TOP_K):
            self.fail(where, f"k = {k!r}: use 1 to {MAX_TOP_K}", rule, "k")
        weight = table.get("weight", 1.0)
        if isinstance(weight, bool) or not isinstance(weight, int | float) or weight <= 0:
            self.fail(where, f"weight = {weight!r}: use a number > 0", rule, "weight")
        priority = table.get("priority", 1)
        if not _whole(priority, -100, 100):
            self.fail(where, f"priority = {priority!r}: use a whole number", rule, "priority")
        filters = table.get("filters", [])
        if not isinstance(filters, list) or any(TaskFilter.parse(f) is None for f in filters):
            known = ", ".join(TaskFilter.values())
            self.fail(where, f"filters = {filters!r}: use any of {known}", rule, "filters")
        lists = {}
        for key in ("knowledge_bases", "doc_types"):
            value = table.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
                self.fail(where, f"{key} must be a list of names", rule, key)
            lists[key] = tuple(value)
        authority = table.get("min_authority")
        if authority is not None and not _whole(authority, 1, 5):
            self.fail(where, f"min_authority = {authority!r}: use 1 to 5", rule, "min_authority")
        return TaskTemplate(
            query=query,
            mode=mode,
            k=k,
            weight=float(weight),
            priority=priority,
            filters=frozenset(TaskFilter(f) for f in filters),
            min_authority=authority,
            **lists,
        )

    def routes(self, value: object, where: str, rule: int) -> Route | list[Route]:
        """A ``when.route`` condition (one route or a list) read into Routes."""
        routes = []
        for raw in value if isinstance(value, list) else [value]:
            route = Route.parse(raw)
            if route is None:
                known = ", ".join(sorted(Route.values()))
                self.fail(where, f"unknown route {raw!r}; use {known}", rule, "route")
            routes.append(route)
        return routes[0] if isinstance(value, str) else routes

    def mode(self, value: object, where: str, rule: int | None) -> SearchMode | None:
        """A search mode (None stays None: a rule need not force one)."""
        if value is None:
            return None
        mode = SearchMode.parse(value)
        if mode is None:
            allowed = ", ".join(SearchMode.values())
            self.fail(where, f"mode {value!r}: use one of {allowed}", rule, "mode")
        return mode


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
