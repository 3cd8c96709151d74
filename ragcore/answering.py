"""The loop: perceive → plan → retrieve → generate → validate, and retry on failure.

A failed validation adjusts the plan according to what failed (see
``Orchestrator.adjust``) until it passes, nothing new is left to try, or the round cap
is reached. The answer is ``ok`` when it passed, ``no_answer`` when no round found
evidence to answer from, and ``uncertain`` otherwise, with the open issues listed.
What the rounds of one question share (perception, trace, listener, search cache) is
one ``_Question``.

In a conversation the previous turn's (rewritten) question is passed in: a follow-up
("How do I clear it?") is rewritten to stand alone before anything is searched
(``agents.perception.followup``), and the trace's perception node says how and why. With
``Caches``, a repeat of a question (same rewritten text, bounds, scope, round cap,
configuration, data version and day) is answered from the answer cache without running
the loop, and round 1 of a near-duplicate reuses a cached retrieval (``agents.caching``);
both are marked in the trace.

A caller may bound the question: filters and a scope that every task of every round
stays within (the plan carries them; see ``agents.planning.planner``), and a lower
round cap. Each draft's citations are renumbered 1..n in order of first use in its
text before it is validated (``agents.generation.numbering``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from types import MappingProxyType

from ragcore.agents.caching import AnswerKey, Caches
from ragcore.agents.evidence import NO_ANSWER, Draft, Evidence, is_table_evidence
from ragcore.agents.generation import numbering
from ragcore.agents.generation.extractive import Generator
from ragcore.agents.generation.llm import OpenAICompatibleGenerator
from ragcore.agents.perception.agent import Perception, PerceptionAgent
from ragcore.agents.perception.conversation import TurnState
from ragcore.agents.perception.data_question import (
    Ambiguous,
    DataQuestion,
    NamedRows,
    Unexpressible,
    named_rows,
    recognise,
)
from ragcore.agents.perception.followup import Rewrite
from ragcore.agents.planning import Orchestrator, Plan, Retrieval, SearchCache, SearchKey
from ragcore.agents.planning.llm_sql import SqlProposer, sql_evidence
from ragcore.agents.planning.tables import (
    TableCatalog,
    TableTask,
    describe,
    table_evidence,
    table_task,
)
from ragcore.agents.validation import CheckResult, Issue, ValidationReport, Validator
from ragcore.agents.validation.elsewhere import about_another
from ragcore.config import DEFAULT_MAX_ROUNDS
from ragcore.errors import ConfigError, InvalidQueryError, NotFoundError
from ragcore.retrieval.tables import TableResult
from ragcore.scope import Scope
from ragcore.storage.filters import SearchFilters
from ragcore.trace import TraceNode, Tracer
from ragcore.types import Action, AnswerStatus, Check, EventKind, IssueKind, Route, Stage

NOTHING_TO_LOOK_UP = "There is nothing to look up in that; ask a question about the documents."
OUTSIDE_FILTERS = "no retrieval task fits the given filters, so nothing was searched"
TABLE_ONLY = "data question: the table answers it"
MODEL_SQL = "data question: the model's vetted query answers it"


@dataclass(frozen=True)
class StageEvent:
    """One stage of an ``ask`` has completed (see ``Answerer.ask``'s ``on_event``).

    ``stage`` says which (an ``EventKind``) and ``data`` what it produced: the
    ``Perception``, the ``Plan``, the ``Retrieval``, the draft answer (a ``Draft``, its
    citations already renumbered by first use, so they need not match the retrieval's
    evidence numbers), the ``ValidationReport``, or for ``retry`` the issues that caused
    it. ``round`` is 0 for perception; ``elapsed_ms`` counts from the start of the run.
    """

    stage: EventKind
    round: int
    elapsed_ms: float
    data: object


EventListener = Callable[[StageEvent], None]


@dataclass(frozen=True)
class Citation:
    """A cited chunk and the document it is from; ``number`` is its ``[n]`` in the text
    (1..n in order of first use)."""

    number: int
    chunk_id: int
    document_id: str
    title: str
    knowledge_base: str
    updated_at: date | None
    text: str
    rows: tuple[int, ...] = ()
    """For a table (``document_id`` ``table:<name>``): the rowids of the rows used."""
    query: str = ""
    """For a table: the SQL the cited figures came from."""
    section: str = ""
    """Where the cited chunk is in its document: the section path, headings from the
    outermost in joined with " > " ("5 Maintenance > 5.3 Mechanical seal"); empty when
    the document has no structure (or for a table)."""
    pages: tuple[int, int] | None = None
    """The first and last page (1-based) the cited chunk is on, equal for one page; None
    when the document has no pages."""


@dataclass(frozen=True)
class Answer:
    """The result of ``Engine.ask``.

    ``status`` is ``ok`` (validated), ``uncertain`` (the round cap was reached or nothing
    new was left to try; ``issues`` lists what is still wrong) or ``no_answer`` (the
    documents do not answer the question). ``timings`` holds milliseconds per stage,
    summed over rounds, and ``total``.
    """

    question: str
    status: AnswerStatus
    text: str
    citations: tuple[Citation, ...]
    evidence: tuple[Evidence, ...]
    """What the answer was written from, best first. ``[n]`` in the text cites the evidence
    whose ``number`` is n: the cited ones are numbered 1..n in order of first use, the
    others after them, so the numbers need not follow this order."""
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
    """Keyed by the ``Stage`` values and ``total``."""
    rewritten_question: str | None = None
    """The question as searched when it was a follow-up rewritten to stand alone (the
    trace's perception node says why); None when it was searched as asked."""
    cached: bool = False
    """Served from the answer cache: the answer to an earlier identical question, with
    the same documents and settings (the trace says so; ``timings`` are this call's)."""
    session_id: str | None = None
    """The conversation this answer is a turn of (``Engine.ask(session=...)``)."""

    @property
    def issues(self) -> tuple[Issue, ...]:
        return self.report.issues


@dataclass(frozen=True)
class _Attempt:
    draft: Draft
    evidence: tuple[Evidence, ...]
    report: ValidationReport


@dataclass(frozen=True, slots=True)
class _Question:
    """What the rounds of one ``ask`` share: its perception, trace, listener and searches.

    Frozen so no round can swap it out; ``cache`` and ``searched`` grow as rounds search.
    """

    perception: Perception
    tracer: Tracer
    listener: EventListener | None
    started: float
    """``time.perf_counter()`` at the start of the run, for ``StageEvent.elapsed_ms``."""
    asked: str = ""
    """The question as asked (``perception`` reads the rewrite of a follow-up)."""
    rewrite: Rewrite | None = None
    bounds: SearchFilters = SearchFilters()
    scope: Scope = Scope.ALL
    cache: SearchCache = field(default_factory=dict)
    """Hits by search key: a search made in one round is not made again in a later one."""
    searched: list[SearchKey] = field(default_factory=list)
    """The key of every search run, in order (repeats would be duplicate searches)."""
    data: DataQuestion | Unexpressible | Ambiguous | None = None
    """What the declared tables make of the question (None: not a data question)."""
    named: NamedRows | None = None
    """A table whose rows the question names though it is no data question of it."""
    tables: dict[TableTask, TableResult | str] = field(default_factory=dict)
    """Each table task's result (or why it failed): run once, whatever the rounds."""
    proposed: tuple[Evidence, ...] = ()
    """The evidence of the model's accepted query (an unexpressible data question)."""

    def emit(self, kind: EventKind, round_: int, data: object) -> None:
        if self.listener is not None:
            elapsed = (time.perf_counter() - self.started) * 1000
            self.listener(StageEvent(kind, round_, elapsed, data))


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
        caches: Caches | None = None,
        tables: TableCatalog | None = None,
        today: Callable[[], date] = date.today,
    ) -> None:
        if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
            raise ConfigError("max_rounds", max_rounds, "use a whole number of 1 or more")
        self.perception = perception
        self.orchestrator = orchestrator
        self.generator = generator
        self.validator = validator
        self.max_rounds = max_rounds
        self.caches = caches
        self.tables = tables
        self._today = today

    def ask(
        self,
        question: str,
        on_event: EventListener | None = None,
        *,
        bounds: SearchFilters = SearchFilters(),
        scope: Scope = Scope.ALL,
        max_rounds: int | None = None,
        conversation: Sequence[TurnState] = (),
    ) -> Answer:
        """Answer ``question``; ``on_event`` is called as each stage completes (for an
        answer from the answer cache, only perception: no other stage runs).

        ``conversation`` is the session's earlier turns, newest first (the first one's
        question as it was searched, its rewrite if it had one): a follow-up of them is
        rewritten to stand alone first.

        Every task of every round stays within ``bounds`` (the caller's filters, already
        inside ``scope``) and searches only inside ``scope``. ``max_rounds`` lowers the
        round cap for this question (1 to ``self.max_rounds``, else InvalidQueryError).
        An exception raised by ``on_event`` stops the run and propagates (a server
        uses this to stop work whose client has gone or whose deadline has passed).
        """
        cap = self._round_cap(max_rounds)
        started = time.perf_counter()
        caches, key = self.caches, None
        if caches is not None and not conversation and isinstance(question, str):
            # A repeat needs no perception: the sub-millisecond path.
            key = caches.answer_key(question, bounds, scope, cap)
            if hit := self._cached(key, question.strip(), None, None, on_event, started):
                return hit
        tracer = Tracer("ask", repr(question[:120]) if isinstance(question, str) else "")
        with tracer.span(Stage.PERCEPTION) as span:
            perception = self.perception.run(question)
            asked, rewrite = perception.question, None
            previous = self.perception.read_previous(conversation)
            if previous is not None:
                rewrite = self.perception.follow_up(perception, previous, conversation)
            if rewrite is not None and previous is not None:
                perception = self.perception.read_rewrite(
                    rewrite, perception, previous, conversation
                )
                perception = replace(
                    perception, introduced=rewrite.introduced, replaced=rewrite.replaced
                )
                why = "; ".join(rewrite.reasons)
                span.add("follow-up", f"rewritten as {rewrite.question!r}: {why}")
            span.note(_describe(perception))
            data = self._recognise(perception, scope)
            named = self._named(perception, scope) if data is None else None
            if data is not None:
                span.add("data question", _describe_data(data))
            elif named is not None:
                span.add("table rows named", f"{named.table}: {', '.join(named.values)}")
        if caches is not None and key is None:
            key = caches.answer_key(perception.question, bounds, scope, cap)
            if hit := self._cached(key, asked, rewrite, tracer, on_event, started):
                return hit
        q = _Question(
            perception,
            tracer,
            on_event,
            started,
            asked,
            rewrite,
            bounds,
            scope,
            data=data,
            named=named,
        )
        q.emit(EventKind.PERCEPTION, 0, perception)
        answer = self._loop(q, cap)
        if caches is not None and key is not None:
            caches.answers.put(key, answer)
        return answer

    def _cached(
        self,
        key: AnswerKey,
        asked: str,
        rewrite: Rewrite | None,
        tracer: Tracer | None,
        on_event: EventListener | None,
        started: float,
    ) -> Answer | None:
        """The cached answer for ``key`` as this question's answer, or None. A listener
        hears the perception event only: nothing else runs."""
        assert self.caches is not None
        stored = self.caches.answers.get(key)
        if not isinstance(stored, Answer):
            return None
        tracer = tracer or Tracer("ask", repr(asked[:120]))
        with tracer.span("cache") as span:
            span.note(
                f"answer cache hit: the answer of {stored.question!r} "
                f"(data version {key.data_version}); nothing searched, generated or validated"
            )
        tracer.root.note(f"{tracer.root.detail} → {stored.status} (cached)".strip())
        if on_event is not None:
            elapsed = (time.perf_counter() - started) * 1000
            on_event(StageEvent(EventKind.PERCEPTION, 0, elapsed, stored.perception))
        trace = tracer.finish()
        timings = dict.fromkeys(Stage.values(), 0.0)
        for node in trace.walk():
            if node.name in timings:
                timings[node.name] += node.ms
        # From the start of this call, as every event's elapsed_ms: never less than the
        # perception event's (a stream's elapsed_ms does not go back).
        timings["total"] = (time.perf_counter() - started) * 1000
        return replace(
            stored,
            question=asked,
            rewritten_question=rewrite.question if rewrite else None,
            cached=True,
            trace=trace,
            timings=MappingProxyType(timings),
            session_id=None,
            # This call's searches: none (the rounds and tasks are the cached answer's).
            searches=0,
            duplicate_searches=0,
        )

    def _recognise(
        self, perception: Perception, scope: Scope
    ) -> DataQuestion | Unexpressible | Ambiguous | None:
        """The table query the question asks for, if the tables are open to the caller
        (they belong to no knowledge base: an unrestricted caller only)."""
        if self.tables is None or not scope.unrestricted or perception.route == Route.DIRECT:
            return None
        schemas = self.tables.schemas
        if not schemas:
            return None
        found = recognise(
            perception.question,
            schemas,
            today=self._today(),
            time=perception.constraints.time,
            values=self.tables.values_for(perception.question),  # from the value index
            known=self.tables.known,
            periods=perception.constraints.periods,
            identifiers=self.tables.identifiers,
        )
        # "How did the rate in November 2026 compare with November 2025?": one query
        # reads one period and one set of filters; half an answer is no answer.
        if (
            isinstance(found, DataQuestion)
            and perception.action == Action.COMPARE
            and not found.query.group_by
            and not found.query.periods
        ):
            return Unexpressible(
                "it compares two periods or two things, and one query gives one figure; "
                "ask for each one",
                found.query.table,
            )
        return found

    def _named(self, perception: Perception, scope: Scope) -> NamedRows | None:
        """The table whose rows a question names that ``recognise`` read as no data
        question of any table (it names none of their measures)."""
        if self.tables is None or not scope.unrestricted or perception.route == Route.DIRECT:
            return None
        schemas = self.tables.schemas
        if not schemas:
            return None
        return named_rows(
            perception.question,
            schemas,
            values=self.tables.values_for(perception.question),
            time=perception.constraints.time,
            periods=perception.constraints.periods,
        )

    def _unexpressible(self, q: _Question, data: Unexpressible) -> Answer:
        """``no_answer`` with the reason: the schema cannot express the question, and
        no LLM is configured or its proposed query was refused (``llm_sql``)."""
        table = f"table {data.table!r}" if data.table else "the tables"
        # a reason naming its table opens with it ("table 'flights': it holds nothing …")
        said = data.reason.removeprefix(f"{table}: ") if data.table else data.reason
        reason = f"{table} cannot answer this: {said}"
        evidence: tuple[Evidence, ...] = ()
        with q.tracer.span(Stage.PLAN) as span:
            span.note(f"data question not expressible: {reason}")
            if (
                self.tables is not None
                and self.tables.offers_sql  # SQLite only: see PostgresTableReader
                and isinstance(self.generator, OpenAICompatibleGenerator)
            ):
                proposal = SqlProposer(self.generator, self.tables).propose(q.perception.question)
                if proposal.result is None:
                    span.add("model's query", repr(proposal.sql))
                    span.add("refused", f"the model's query was refused: {proposal.refusal}")
                else:
                    result = proposal.result
                    span.add("model's query", f"accepted: {result.sql} → {len(result.rows)} rows")
                    evidence = sql_evidence(result, self.tables.schemas)
                    span.note(f"{span.detail}; {MODEL_SQL}")
        if evidence:
            plan = Plan(1, (), frozenset(), (MODEL_SQL,), q.bounds, q.scope)
            q.emit(EventKind.PLAN, 1, plan)
            with q.tracer.span("round 1"):
                attempt = self._round(replace(q, proposed=evidence), plan)
            return self._answer(q, attempt, 1, 0)
        draft = Draft(NO_ANSWER, (), self.generator.name, abstained=True, reason=reason)
        issue = Issue(
            Check.TRACEABILITY, IssueKind.ATTRIBUTE_NOT_FOUND, reason, rule="answerability.tables"
        )
        report = ValidationReport((CheckResult(Check.TRACEABILITY, (issue,), 0),), ())
        return self._answer(q, _Attempt(draft, (), report), 0, 0)

    def _ambiguous(self, q: _Question, data: Ambiguous) -> Answer:
        """``uncertain`` naming each reading: the question's words read two measures
        alike (issue 28), and a figure of one would be a silent pick."""
        reason = data.reason
        with q.tracer.span(Stage.PLAN) as span:
            span.note(f"data question ambiguous: {reason}")
        text = f"The tables cannot tell which figure is asked: {reason}."
        draft = Draft(text, (), self.generator.name, reason=reason)
        issue = Issue(
            Check.TRACEABILITY,
            IssueKind.ATTRIBUTE_NOT_FOUND,
            reason,
            rule="answerability.ambiguous",
        )
        report = ValidationReport((CheckResult(Check.TRACEABILITY, (issue,), 0),), ())
        return self._answer(q, _Attempt(draft, (), report), 0, 0)

    def _loop(self, q: _Question, cap: int) -> Answer:
        perception, tracer, bounds, scope = q.perception, q.tracer, q.bounds, q.scope
        data = q.data
        if isinstance(data, Unexpressible):
            return self._unexpressible(q, data)
        if isinstance(data, Ambiguous):
            return self._ambiguous(q, data)
        attempts: list[_Attempt] = []
        plan: Plan | None = None
        planned = 0
        for round_ in range(1, cap + 1):
            with tracer.span(f"round {round_}") as round_span:
                with tracer.span(Stage.PLAN) as span:
                    if plan is None and data is not None and not data.needs_text:
                        plan = Plan(1, (), frozenset(), (TABLE_ONLY,), bounds, scope)
                    elif plan is None:
                        plan = self.orchestrator.plan(perception, bounds, scope)
                    else:
                        plan = self.orchestrator.adjust(
                            plan, perception, attempts[-1].report.issues
                        )
                    if plan is not None and data is not None:
                        plan = replace(plan, tables=(table_task(data.query),))
                    span.note(
                        _describe_plan(plan) + _describe_bounds(bounds, scope)
                        if plan
                        else "nothing new to try: stop"
                    )
                if plan is None or not plan.tasks and (not plan.tables or attempts):
                    round_span.note("stop")
                    break
                if attempts:
                    q.emit(EventKind.RETRY, round_, attempts[-1].report.issues)
                q.emit(EventKind.PLAN, round_, plan)
                planned += len(plan.tasks)
                attempts.append(self._round(q, plan))
            if attempts[-1].report.passed:
                break
        if not attempts and perception.route != Route.DIRECT:
            # Every task fell outside the caller's filters: no evidence can answer.
            draft = Draft(
                NO_ANSWER, (), self.generator.name, abstained=True, reason=OUTSIDE_FILTERS
            )
            issue = Issue(
                Check.TRACEABILITY,
                IssueKind.NO_EVIDENCE,
                OUTSIDE_FILTERS,
                rule="answerability.outside_filters",
            )
            report = ValidationReport((CheckResult(Check.TRACEABILITY, (issue,), 0),), ())
            return self._answer(q, _Attempt(draft, (), report), 0, 0)
        if not attempts:  # nothing to retrieve (a greeting, thanks, ...)
            draft = Draft(NOTHING_TO_LOOK_UP, (), self.generator.name, abstained=True)
            chosen = _Attempt(draft, (), ValidationReport((), ()))
            return self._answer(q, chosen, 0, 0)
        chosen = _best(attempts)
        if q.named is not None and chosen.report.passed and not chosen.draft.abstained:
            chosen = _bound(chosen, q.named, self.generator.name)
        return self._answer(q, chosen, len(attempts), planned)

    def _round(self, q: _Question, plan: Plan) -> _Attempt:
        perception, tracer = q.perception, q.tracer
        with tracer.span(Stage.RETRIEVAL) as span:
            # A data question the table alone answers searches no text.
            retrieval = self._retrieve(q, plan, span) if plan.tasks else Retrieval((), q.proposed)
            if plan.tables:
                retrieval = self._with_tables(q, plan, retrieval, span)
            _trace_retrieval(span, retrieval)
        q.emit(EventKind.RETRIEVAL, plan.round, retrieval)
        with tracer.span(Stage.GENERATION, self.generator.name) as span:
            # A mixed question's documents answer only its text part ("… and how do I
            # clear E4027?"); the table evidence answers the rest.
            data = q.data
            asked = data.text_part if isinstance(data, DataQuestion) and data.text_part else None
            draft = self.generator.generate(
                asked or perception.question, retrieval.evidence, perception
            )
            draft, evidence, mapping = numbering.renumber(draft, retrieval.evidence)
            note = f"{len(draft.statements)} statements" if not draft.abstained else "abstained"
            if renumbered := numbering.describe(mapping, len(draft.citations)):
                note += f"; citations renumbered by first use: {renumbered}"
            span.note(note)
        q.emit(EventKind.ANSWER, plan.round, draft)
        with tracer.span(Stage.VALIDATION) as span:
            report = _with_halves(
                self.validator.check(draft, evidence, perception), q, draft, evidence
            )
            span.note(_describe_report(report))
            for issue in report.issues:
                span.add(f"{issue.check}: {issue.kind}", issue.message)
        q.emit(EventKind.VALIDATION, plan.round, report)
        return _Attempt(draft, evidence, report)

    def _retrieve(self, q: _Question, plan: Plan, span) -> Retrieval:
        """The plan's text retrieval: searched, or reused from a near-duplicate."""
        perception = q.perception
        reuse, ticket = None, None
        if self.caches is not None and plan.round == 1:
            reuse, ticket = self.caches.near_duplicate(perception, q.bounds, q.scope)
        if reuse is not None and isinstance(reuse.value, Retrieval):
            span.add(
                "cache",
                f"retrieval reused from near-duplicate {reuse.question!r} "
                f"(cosine {reuse.cosine:.3f}); nothing searched",
            )
            # Nothing was searched in this run: its event and its answer count 0 searches.
            results = tuple(replace(r, searched=False) for r in reuse.value.results)
            return replace(reuse.value, results=results)
        retrieval = self.orchestrator.execute(plan, perception, q.cache)
        # The one record of the searches run: the answer's count is this list's length,
        # and each retrieval event's the searched results of its round, the same ones.
        q.searched.extend(r.task.key for r in retrieval.results if r.searched)
        if self.caches is not None and plan.round == 1:
            self.caches.keep_retrieval(ticket, perception.question, retrieval)
        return retrieval

    def _with_tables(self, q: _Question, plan: Plan, retrieval: Retrieval, span) -> Retrieval:
        """``retrieval`` with the plan's table results first as evidence, numbered
        together with the text evidence (which follows them)."""
        assert self.tables is not None
        found: list[Evidence] = []
        for task in plan.tables:
            started = time.perf_counter()
            if task not in q.tables:
                try:
                    q.tables[task] = self.tables.run(task)
                except (InvalidQueryError, NotFoundError) as exc:
                    q.tables[task] = str(exc)
            result = q.tables[task]
            ms = (time.perf_counter() - started) * 1000
            if isinstance(result, str):
                span.add(f"task {task.id} table", f"failed: {result}", ms)
                continue
            span.add(f"task {task.id} table", describe(result), ms)
            schema = self.tables.schema(task.query.table)
            found += table_evidence(result, schema, len(found) + 1)
        shift = len(found)
        text = tuple(replace(e, number=e.number + shift) for e in retrieval.evidence)
        return replace(retrieval, evidence=(*found, *text))

    def _answer(self, q: _Question, chosen: _Attempt, rounds: int, planned: int) -> Answer:
        tracer, perception = q.tracer, q.perception
        cited = [e for e in chosen.evidence if e.number in set(chosen.draft.citations)]
        if not chosen.report.passed and (
            missing := about_another(perception, chosen.draft, cited, chosen.report)
        ):
            # a figure of another thing, and nothing found about the asked one
            why = f"the documents found give this for another thing, not for {missing}"
            draft = Draft(NO_ANSWER, (), chosen.draft.generator, abstained=True, reason=why)
            chosen = replace(chosen, draft=draft)
        if chosen.report.passed and not chosen.draft.abstained:
            status = AnswerStatus.OK
        elif chosen.draft.abstained:
            status = AnswerStatus.NO_ANSWER
        else:
            status = AnswerStatus.UNCERTAIN
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
                by_number[n].rows,
                by_number[n].query,
                by_number[n].section,
                by_number[n].pages,
            )
            for n in chosen.draft.citations
            if n in by_number
        )
        tracer.root.note(f"{tracer.root.detail} → {status}".strip())
        trace = tracer.finish()
        timings = dict.fromkeys(Stage.values(), 0.0)  # plain-string keys, as before
        for node in trace.walk():
            if node.name in timings:
                timings[node.name] += node.ms
        # From the start of the run, cache look-up included, like every event's elapsed_ms.
        timings["total"] = (time.perf_counter() - q.started) * 1000
        return Answer(
            question=q.asked or perception.question,
            status=status,
            text=chosen.draft.text,
            citations=citations,
            evidence=chosen.evidence,
            report=chosen.report,
            perception=perception,
            rounds=rounds,
            tasks=planned,
            searches=len(q.searched),
            # a search repeated with one key: the cache should make this 0
            duplicate_searches=len(q.searched) - len(set(q.searched)),
            generator=chosen.draft.generator,
            trace=trace,
            timings=MappingProxyType(timings),
            rewritten_question=q.rewrite.question if q.rewrite else None,
        )

    def _round_cap(self, max_rounds: int | None) -> int:
        if max_rounds is None:
            return self.max_rounds
        if isinstance(max_rounds, bool) or not isinstance(max_rounds, int):
            raise InvalidQueryError(f"max_rounds={max_rounds!r}: give a whole number of rounds")
        if not 1 <= max_rounds <= self.max_rounds:
            raise InvalidQueryError(
                f"max_rounds={max_rounds}: use 1 to {self.max_rounds} (the configured cap)"
            )
        return max_rounds


def _bound(chosen: _Attempt, named: NamedRows, generator: str) -> _Attempt:
    """A document answer to a question naming a table's rows ("Line 2", "the Night
    shift") stands only if what it cites speaks of one of them at least; else it answers
    another question with shared words, and the table holds no measure of what is asked."""
    by_number = {e.number: e for e in chosen.evidence}
    cited = " ".join(
        f"{e.document.title} {e.text}"  # a manual's title names what it is about
        for n in chosen.draft.citations
        if (e := by_number.get(n)) is not None
    )
    if any(_speaks_of(cited, v) for v in named.values):
        return chosen  # about one of them at least: the sides' checks judge the rest
    measures = ", ".join(named.measures) or "none"
    values = ", ".join(repr(v) for v in named.values)
    reason = (
        f"table {named.table!r} holds {values} but no measure the question asks for (its "
        f"measures: {measures}), and no document answering it speaks of {values}"
    )
    draft = Draft(NO_ANSWER, (), generator, abstained=True, reason=reason)
    issue = Issue(
        Check.TRACEABILITY, IssueKind.ATTRIBUTE_NOT_FOUND, reason, rule="answerability.tables"
    )
    return _Attempt(
        draft, (), ValidationReport((CheckResult(Check.TRACEABILITY, (issue,), 0),), ())
    )


def _speaks_of(text: str, value: str) -> bool:
    """``value``'s words, in order and whole, in ``text`` (case aside)."""
    words = r"\W+".join(re.escape(w) for w in re.findall(r"\w+", value))
    return bool(words) and re.search(rf"(?<!\w){words}(?!\w)", text, re.IGNORECASE) is not None


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
    tasks = f"{len(plan.tasks)} task{'s' if len(plan.tasks) != 1 else ''}"
    for t in plan.tables:
        q = t.query
        tasks += f" + table task {q.table}.{q.measure}"
    return f"{path}{tasks}, {plan.retrieval}{reasons}"


def _describe_data(data: DataQuestion | Unexpressible | Ambiguous) -> str:
    if isinstance(data, Unexpressible):
        return f"not expressible ({data.table or 'no table'}): {data.reason}"
    if isinstance(data, Ambiguous):
        return f"ambiguous: {data.reason}"
    read = "; ".join(f"{m.role} {m.text!r} → {m.reads}" for m in data.matched)
    return f"table {data.query.table}" + (" + documents" if data.needs_text else "") + f": {read}"


def _describe_bounds(bounds: SearchFilters, scope: Scope) -> str:
    """`` | filters: kb=manuals after=2024-01-01 | scope: faq, manuals`` ("" when neither)."""
    parts = []
    for name, value in (
        ("kb", ",".join(bounds.knowledge_bases)),
        ("doc_type", ",".join(bounds.doc_types)),
        ("after", bounds.updated_after),
        ("before", bounds.updated_before),
        ("min_authority", bounds.min_authority),
        ("source", ",".join(bounds.sources)),
        ("without", ",".join(bounds.exclude_documents)),
    ):
        if value:
            parts.append(f"{name}={value}")
    parts += ["current only"] if bounds.exclude_superseded else []
    parts += ["superseded only"] if bounds.only_superseded else []
    text = f" | filters: {' '.join(parts)}" if parts else ""
    return text + ("" if scope.unrestricted else f" | scope: {scope.describe()}")


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


def _with_halves(
    report: ValidationReport, q: _Question, draft: Draft, evidence: tuple[Evidence, ...]
) -> ValidationReport:
    """A mixed question ("the stock of 88-2041-09, and how do I fit it?") is answered
    only when both halves are: the table's figure alone leaves the documents' half open."""
    data = q.data
    if not isinstance(data, DataQuestion) or not data.needs_text or draft.abstained:
        return report
    cited = {e.number: e for e in evidence}
    if any(not is_table_evidence(cited[n]) for n in draft.citations if n in cited):
        return report
    issue = Issue(
        Check.TRACEABILITY,
        IssueKind.ATTRIBUTE_NOT_FOUND,
        f"only the table's half is answered: no document answers {data.text_part!r}",
        rule="answerability.mixed",
    )
    return replace(report, checks=(*report.checks, CheckResult(Check.TRACEABILITY, (issue,), 0)))


def _describe_report(report: ValidationReport) -> str:
    if not report.checks:
        return "nothing to check"
    return " ".join(f"{c.name}={'pass' if c.passed else 'FAIL'}" for c in report.checks)
