"""The loop: perceive → plan → retrieve → generate → validate, and retry on failure.

A failed validation adjusts the plan according to what failed (see
``Orchestrator.adjust``) until it passes, nothing new is left to try, or the round cap
is reached. The answer is ``ok`` when it passed, ``no_answer`` when no round found
evidence to answer from, and ``uncertain`` otherwise, with the open issues listed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from types import MappingProxyType

from ragcore.agents.evidence import Draft, Evidence
from ragcore.agents.generation.extractive import Generator
from ragcore.agents.perception.agent import Perception, PerceptionAgent
from ragcore.agents.planning.orchestrator import Orchestrator, Plan, Retrieval
from ragcore.agents.validation import Issue, ValidationReport, Validator
from ragcore.config import DEFAULT_MAX_ROUNDS
from ragcore.errors import ConfigError
from ragcore.trace import TraceNode, Tracer

STATUSES = ("ok", "uncertain", "no_answer")
NOTHING_TO_LOOK_UP = "There is nothing to look up in that; ask a question about the documents."
STAGES = ("perception", "plan", "retrieval", "generation", "validation")
EVENTS = ("perception", "plan", "retrieval", "answer", "validation", "retry")


@dataclass(frozen=True)
class StageEvent:
    """One stage of an ``ask`` has completed (see ``Answerer.ask``'s ``on_event``).

    ``stage`` is one of EVENTS and ``data`` what it produced: the ``Perception``, the
    ``Plan``, the ``Retrieval``, the draft answer (a ``Draft``), the
    ``ValidationReport``, or for ``retry`` the issues that caused it. ``round`` is 0 for
    perception; ``elapsed_ms`` counts from the start of the run.
    """

    stage: str
    round: int
    elapsed_ms: float
    data: object


EventListener = Callable[[StageEvent], None]


@dataclass(frozen=True)
class Citation:
    """A cited chunk and the document it is from."""

    number: int
    chunk_id: int
    document_id: str
    title: str
    knowledge_base: str
    updated_at: date | None
    text: str


@dataclass(frozen=True)
class Answer:
    """The result of ``Engine.ask``.

    ``status`` is ``ok`` (validated), ``uncertain`` (the round cap was reached or nothing
    new was left to try; ``issues`` lists what is still wrong) or ``no_answer`` (the
    documents do not answer the question). ``timings`` holds milliseconds per stage,
    summed over rounds, and ``total``.
    """

    question: str
    status: str
    text: str
    citations: tuple[Citation, ...]
    evidence: tuple[Evidence, ...]
    """What the answer was written from, best first (``[n]`` is ``evidence[n - 1]``)."""
    report: ValidationReport
    perception: Perception
    rounds: int
    tasks: int
    """Retrieval tasks planned over all rounds."""
    searches: int
    """Searches actually run (a task repeated from an earlier round is not searched again)."""
    duplicate_searches: int
    """Searches run more than once with the same query, method, depth and filters (0)."""
    generator: str
    trace: TraceNode
    timings: Mapping[str, float]

    @property
    def issues(self) -> tuple[Issue, ...]:
        return self.report.issues


@dataclass(frozen=True)
class _Attempt:
    draft: Draft
    evidence: tuple[Evidence, ...]
    report: ValidationReport


class Answerer:
    """Runs the loop over its agents; owns none of the engine's resources."""

    def __init__(
        self,
        perception: PerceptionAgent,
        orchestrator: Orchestrator,
        generator: Generator,
        validator: Validator,
        *,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
    ) -> None:
        if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
            raise ConfigError("max_rounds", max_rounds, "use a whole number of 1 or more")
        self.perception = perception
        self.orchestrator = orchestrator
        self.generator = generator
        self.validator = validator
        self.max_rounds = max_rounds

    def ask(self, question: str, on_event: EventListener | None = None) -> Answer:
        """Answer ``question``; ``on_event`` is called as each stage completes.

        An exception raised by ``on_event`` stops the run and propagates (a server
        uses this to stop work whose client has gone or whose deadline has passed).
        """
        started = time.perf_counter()

        def emit(stage: str, round_: int, data: object) -> None:
            if on_event is not None:
                on_event(StageEvent(stage, round_, (time.perf_counter() - started) * 1000, data))

        tracer = Tracer("ask", repr(question[:120]) if isinstance(question, str) else "")
        with tracer.span("perception") as span:
            perception = self.perception.run(question)
            span.note(_describe(perception))
        emit("perception", 0, perception)
        cache: dict = {}
        searched: list[tuple] = []
        attempts: list[_Attempt] = []
        plan: Plan | None = None
        planned = 0
        for round_ in range(1, self.max_rounds + 1):
            with tracer.span(f"round {round_}") as round_span:
                with tracer.span("plan") as span:
                    if plan is None:
                        plan = self.orchestrator.plan(perception)
                    else:
                        plan = self.orchestrator.adjust(
                            plan, perception, attempts[-1].report.issues
                        )
                    span.note(_describe_plan(plan) if plan else "nothing new to try: stop")
                if plan is None or not plan.tasks:
                    round_span.note("stop")
                    break
                if attempts:
                    emit("retry", round_, attempts[-1].report.issues)
                emit("plan", round_, plan)
                planned += len(plan.tasks)
                attempts.append(self._round(tracer, plan, perception, cache, searched, emit))
            if attempts[-1].report.passed:
                break
        if not attempts:  # nothing to retrieve (a greeting, thanks, ...)
            draft = Draft(NOTHING_TO_LOOK_UP, (), self.generator.name, abstained=True)
            chosen = _Attempt(draft, (), ValidationReport((), ()))
            return self._answer(tracer, perception, chosen, 0, 0, 0)
        duplicates = len(searched) - len(set(searched))
        return self._answer(
            tracer, perception, _best(attempts), len(attempts), planned, len(searched), duplicates
        )

    def _round(self, tracer, plan, perception, cache, searched, emit) -> _Attempt:
        with tracer.span("retrieval") as span:
            retrieval = self.orchestrator.execute(plan, perception, cache)
            searched += [r.task.key for r in retrieval.results if r.searched]
            _trace_retrieval(span, retrieval)
        emit("retrieval", plan.round, retrieval)
        with tracer.span("generation", self.generator.name) as span:
            draft = self.generator.generate(perception.question, retrieval.evidence, perception)
            span.note(f"{len(draft.statements)} statements" if not draft.abstained else "abstained")
        emit("answer", plan.round, draft)
        with tracer.span("validation") as span:
            report = self.validator.check(draft, retrieval.evidence, perception)
            span.note(_describe_report(report))
            for issue in report.issues:
                span.add(f"{issue.check}: {issue.kind}", issue.message)
        emit("validation", plan.round, report)
        return _Attempt(draft, retrieval.evidence, report)

    def _answer(self, tracer, perception, chosen, rounds, planned, searches, duplicates=0):
        if chosen.report.passed and not chosen.draft.abstained:
            status = "ok"
        elif chosen.draft.abstained:
            status = "no_answer"
        else:
            status = "uncertain"
        by_number = {e.number: e for e in chosen.evidence}
        citations = tuple(
            Citation(
                n,
                by_number[n].chunk_id,
                by_number[n].document.id,
                by_number[n].document.title,
                by_number[n].document.knowledge_base,
                by_number[n].document.updated_at,
                by_number[n].text,
            )
            for n in chosen.draft.citations
            if n in by_number
        )
        tracer.root.note(f"{tracer.root.detail} → {status}".strip())
        trace = tracer.finish()
        timings = dict.fromkeys(STAGES, 0.0)
        for node in trace.walk():
            if node.name in timings:
                timings[node.name] += node.ms
        timings["total"] = trace.ms
        return Answer(
            question=perception.question,
            status=status,
            text=chosen.draft.text,
            citations=citations,
            evidence=chosen.evidence,
            report=chosen.report,
            perception=perception,
            rounds=rounds,
            tasks=planned,
            searches=searches,
            duplicate_searches=duplicates,
            generator=chosen.draft.generator,
            trace=trace,
            timings=MappingProxyType(timings),
        )


def _best(attempts: list[_Attempt]) -> _Attempt:
    """The passing attempt, else the answer with the fewest open issues (latest on ties)."""
    answered = [a for a in attempts if not a.draft.abstained] or attempts
    return min(reversed(answered), key=lambda a: len(a.report.issues))


def _describe(p: Perception) -> str:
    parts = [f"action={p.action}", f"route={p.route}"]
    if p.entities:
        parts.append("entities=" + ",".join(e.text for e in p.entities))
    if p.sides:
        parts.append("sides=" + ",".join(p.sides))
    c = p.constraints
    if c.time:
        parts.append(f"time={c.time.start or '…'}..{c.time.end or '…'}")
    if c.source:
        parts.append(f"source={c.source}")
    if c.quantitative:
        parts.append("quantitative")
    return " ".join(parts)


def _describe_plan(plan: Plan) -> str:
    path = "fast path: " if plan.fast_path else ""
    reasons = f" ({'; '.join(plan.reasons)})" if plan.reasons else ""
    return f"{path}{len(plan.tasks)} task{'s' if len(plan.tasks) != 1 else ''}{reasons}"


def _trace_retrieval(span, retrieval: Retrieval) -> None:
    for r in retrieval.results:
        t = r.task
        how = (
            "skipped: " + r.skipped
            if r.skipped
            else (f"{len(r.hits)} hits" + ("" if r.searched else " (from an earlier round)"))
        )
        span.add(f"task {t.id} {t.mode} k={t.k}", f"{t.query!r} [{t.reason}] → {how}", r.ms)
    top = ", ".join(f"[{e.number}] {e.document.id}" for e in retrieval.evidence[:6])
    span.note(f"{len(retrieval.evidence)} evidence: {top}" if top else "no evidence")


def _describe_report(report: ValidationReport) -> str:
    if not report.checks:
        return "nothing to check"
    return " ".join(f"{c.name}={'pass' if c.passed else 'FAIL'}" for c in report.checks)
