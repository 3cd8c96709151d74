"""Orchestration: the strategy file, the plans it makes, execution, fusion, adjustment."""

from __future__ import annotations

import os
from datetime import date

import pytest
from conftest import SAMPLE_KB, TODAY

from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.agents.planning import Orchestrator, SearchCache
from ragcore.agents.planning.strategy import DEFAULT_STRATEGY, load_strategy
from ragcore.agents.validation import Issue
from ragcore.errors import ConfigError
from ragcore.types import Check, IssueKind

perceive = PerceptionAgent(nlp=None, clock=lambda: TODAY).run


SAMPLE_KBS = sorted(p.name for p in SAMPLE_KB.iterdir() if p.is_dir())


def orchestrator(engine, strategy_path=None) -> Orchestrator:
    return Orchestrator(
        engine.search,
        lambda: [kb.name for kb in engine.knowledge_bases()],
        strategy_path=strategy_path,
        clock=lambda: TODAY,
    )


def _never_search(*args, **kwargs):
    raise AssertionError("a test that only plans must not search")


def planner(strategy_path=None) -> Orchestrator:
    """An orchestrator for tests that only plan and adjust: no engine, so no model."""
    return Orchestrator(
        _never_search, lambda: SAMPLE_KBS, strategy_path=strategy_path, clock=lambda: TODAY
    )


@pytest.fixture
def sample_orchestrator():
    """Plans for the sample knowledge bases; never searches (see ``searching_orchestrator``)."""
    orch = planner()
    yield orch
    orch.close()


@pytest.fixture
def searching_orchestrator(sample_engine):
    """Plans and searches the sample engine (which loads the real embedder)."""
    orch = orchestrator(sample_engine)
    yield orch
    orch.close()


def test_a_simple_question_takes_the_fast_path(sample_orchestrator):
    plan = sample_orchestrator.plan(perceive("How long must a lockout tag stay on?"))
    assert plan.fast_path
    [task] = plan.tasks
    assert (task.mode, task.reason, task.query) == (
        "hybrid",
        "base",
        "How long must a lockout tag stay on?",
    )


def test_a_named_model_adds_a_keyword_task_kept_to_its_documents(sample_orchestrator):
    plan = sample_orchestrator.plan(perceive("What torque for the HP-400 platen bolts?"))
    [base] = [t for t in plan.tasks if t.reason == "base"]
    [about] = [t for t in plan.tasks if t.reason == "documents-about-each-named-model"]
    assert base.about == ""
    assert (about.mode, about.about) == ("keyword", "HP-400")
    assert about.query.startswith("HP-400 ")


def test_a_named_code_is_also_searched_by_its_own_name_in_every_document(sample_orchestrator):
    # A code named only in a passage ("### When starting the program on the TP, I get a
    # C207A0 error."), in no document's title: the whole question's words rank longer
    # chunks sharing more of them first.
    plan = sample_orchestrator.plan(perceive("What torque for the HP-400 platen bolts?"))
    [named] = [t for t in plan.tasks if t.reason == "passages-naming-each-identifier"]
    assert (named.mode, named.query, named.about) == ("keyword", "HP-400", "")
    assert named.unnamed == "HP-400"  # its hits count only if no document is about it
    # Not for a named thing that is no identifier ("diesel").
    plan = sample_orchestrator.plan(perceive("How often is the diesel generator tested?"))
    assert not [t for t in plan.tasks if t.reason == "passages-naming-each-identifier"]


def test_documents_about_a_model_are_those_naming_it(searching_orchestrator):
    p = perceive("Does the CP-350 need hearing protection under the noise regulation?")
    plan = searching_orchestrator.plan(p)
    [about] = [t for t in plan.tasks if t.about]
    retrieval = searching_orchestrator.execute(plan, p, {})
    [result] = [r for r in retrieval.results if r.task is about]
    assert result.hits and all("CP-350" in h.document.title for h in result.hits)
    # Its best hit is evidence even when the regulation outranks the manual.
    assert result.hits[0].chunk_id in {e.chunk_id for e in retrieval.evidence}


def test_a_model_with_documents_of_its_own_adds_no_passages_by_its_bare_name(
    searching_orchestrator,
):
    # The CP-350 manual is about the CP-350: the passages naming it would only crowd the
    # regulation out of the evidence.
    p = perceive("Does the CP-350 need hearing protection under the noise regulation?")
    plan = searching_orchestrator.plan(p)
    [named] = [t for t in plan.tasks if t.unnamed]
    retrieval = searching_orchestrator.execute(plan, p, {})
    [result] = [r for r in retrieval.results if r.task is named]
    assert result.hits == ()


def test_a_time_constraint_adds_a_dated_keyword_task_on_regulations(sample_orchestrator):
    plan = sample_orchestrator.plan(perceive("Which lockout rules apply since 2024?"))
    regulation = [t for t in plan.tasks if t.filters.knowledge_bases == ("regulations",)]
    assert len(regulation) == 1
    assert regulation[0].mode == "keyword"
    assert regulation[0].filters.updated_after == date(2024, 1, 1)
    assert not plan.fast_path


def test_a_comparison_adds_one_task_per_side(sample_orchestrator):
    plan = sample_orchestrator.plan(perceive("Compare the flow of the CP-200 and the CP-350."))
    per_side = [t for t in plan.tasks if t.reason == "comparison-per-side"]
    assert sorted(t.query.split()[0] for t in per_side) == ["CP-200", "CP-350"]
    # The side is named once, not twice ("CP-200 ... cp-200").
    assert all(t.query.lower().count("cp-200") <= 1 for t in per_side)


def test_asking_for_the_latest_adds_a_current_documents_task(sample_orchestrator):
    plan = sample_orchestrator.plan(perceive("What is the latest CP-200 seal interval?"))
    [current] = [t for t in plan.tasks if t.reason == "latest-current-only"]
    assert current.filters.exclude_superseded


def test_a_question_about_a_rule_adds_a_task_on_regulations(sample_orchestrator):
    p = perceive("Does the CP-200's seal interval meet today's code?")
    [rules] = [
        t for t in sample_orchestrator.plan(p).tasks if t.reason == "rules-for-a-requirement"
    ]
    assert rules.filters.doc_types == ("regulation",)
    plain = sample_orchestrator.plan(perceive("What is the CP-200 seal interval?"))
    assert not [t for t in plain.tasks if t.reason == "rules-for-a-requirement"]


def test_a_question_about_a_change_reads_the_earlier_and_the_current_revision(
    sample_orchestrator,
):
    p = perceive("How did the CP-200 seal interval change between Rev. 1 and Rev. 2?")
    tasks = [
        t for t in sample_orchestrator.plan(p).tasks if t.reason == "history-earlier-revisions"
    ]
    assert {(t.filters.only_superseded, t.filters.exclude_superseded) for t in tasks} == {
        (True, False),
        (False, True),
    }


def test_interaction_forces_keyword_search(sample_orchestrator):
    plan = sample_orchestrator.plan(perceive("Is there an interaction between seal and oil?"))
    assert {t.mode for t in plan.tasks} == {"keyword"}


def test_a_named_source_filters_by_document_source(searching_orchestrator):
    p = perceive("Borescope interval for CFM56-7B on a B737-800 according to the FAA?")
    plan = searching_orchestrator.plan(p)
    [sourced] = [t for t in plan.tasks if t.filters.sources]
    assert sourced.filters.sources == ("FAA",)
    retrieval = searching_orchestrator.execute(plan, p, {})
    [result] = [r for r in retrieval.results if r.task is sourced]
    assert result.hits and {h.document.source for h in result.hits} == {"FAA"}


def test_a_direct_question_plans_nothing(sample_orchestrator):
    assert sample_orchestrator.plan(perceive("hello")).tasks == ()


def test_execution_fuses_tasks_and_weighs_credibility(searching_orchestrator):
    p = perceive("Compare the flow of the CP-200 and the CP-350.")
    plan = searching_orchestrator.plan(p)
    cache: SearchCache = {}
    retrieval = searching_orchestrator.execute(plan, p, cache)
    assert retrieval.searches == len(plan.tasks)
    documents = [e.document.id for e in retrieval.evidence]
    assert {"manual-cp200-v2", "manual-cp350"} <= set(documents)
    assert [e.number for e in retrieval.evidence] == list(range(1, len(documents) + 1))
    scores = [e.score for e in retrieval.evidence]
    assert scores == sorted(scores, reverse=True)
    # The superseded revision is found but loses credibility to its successor.
    credibility = {e.document.id: e.credibility for e in retrieval.evidence}
    if "manual-cp200-v1" in credibility:
        assert credibility["manual-cp200-v1"] < credibility["manual-cp200-v2"]
    # Executing the same plan again searches nothing: every hit comes from the cache.
    again = searching_orchestrator.execute(plan, p, cache)
    assert again.searches == 0
    assert [e.chunk_id for e in again.evidence] == [e.chunk_id for e in retrieval.evidence]


def test_a_task_on_a_missing_knowledge_base_is_skipped(engine, docs):
    engine.ingest([d for d in docs if d.knowledge_base == "manuals"])
    orch = orchestrator(engine)
    try:
        p = perceive("What changed in the pump rules since 2023?")
        retrieval = orch.execute(orch.plan(p), p, {})
    finally:
        orch.close()
    skipped = [r for r in retrieval.results if r.skipped]
    assert [r.task.filters.knowledge_bases for r in skipped] == [("regulations",)]
    assert "regulations" in skipped[0].skipped


def test_adjust_follows_what_failed_and_never_repeats_a_search(sample_orchestrator):
    p = perceive("Compare the flow of the CP-200 and the CP-350.")
    plan = sample_orchestrator.plan(p)
    outdated = sample_orchestrator.adjust(
        plan, p, [Issue("timeliness", "superseded", "old", document_ids=("a", "b"))]
    )
    assert outdated is not None and outdated.round == 2
    assert all(t.filters.exclude_superseded for t in outdated.tasks)
    side = sample_orchestrator.adjust(
        plan, p, [Issue("consistency", "missing_side", "no CP-350", entity="CP-999")]
    )
    assert any(t.query.startswith("CP-999") for t in side.tasks)
    overridden = sample_orchestrator.adjust(
        plan, p, [Issue("timeliness", "outranked", "x", document_ids=("faq-x", "manual-y"))]
    )
    assert all(t.filters.exclude_documents == ("faq-x",) for t in overridden.tasks)
    # Unsupported statements widen by switching method, never repeating a search key.
    unsupported = [Issue("traceability", "unsupported", "low support")]
    plans = [plan]
    while (nxt := sample_orchestrator.adjust(plans[-1], p, unsupported)) is not None:
        plans.append(nxt)
        assert len(plans) < 10, "adjust must run out of new searches"
    keys = [t.key for pl in plans for t in pl.tasks]
    assert len(keys) == len(set(keys))
    # (the tasks kept to a model's documents or searching its bare name aside)
    switched = [t for t in plans[1].tasks if not t.about and "passages-naming" not in t.reason]
    assert {t.mode for t in switched} == {"keyword"}


# -- the strategy file -----------------------------------------------------------------
def write(tmp_path, text: str):
    path = tmp_path / "strategy.toml"
    path.write_text(text, "utf-8")
    return path


def test_the_shipped_strategy_loads():
    strategy = load_strategy()
    assert strategy.path == DEFAULT_STRATEGY
    assert {r.name for r in strategy.rules} >= {
        "time-constraint-regulations",
        "comparison-per-side",
        "interaction-forces-keyword",
    }


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("[defaults]\nk = 8\nmode = hybrid\n", 3, "not valid TOML"),
        (
            '[defaults]\nk = 8\n\n[[rule]]\nname = "a"\n'
            'when = { colour = "red" }\nmode = "keyword"\n',
            6,
            "unknown condition 'colour'",
        ),
        (
            '[[rule]]\nname = "a"\nmode = "keyword"\n\n[[rule]]\nname = "b"\n'
            'tasks = [{ query = "{question}", mode = "fuzzy" }]\n',
            7,
            "mode 'fuzzy'",
        ),
        (
            '[[rule]]\nname = "a"\ntasks = [{ query = "{colour} pumps" }]\n',
            3,
            "unknown placeholder {colour}",
        ),
        ('[[rule]]\nname = "a"\n', 1, "does nothing"),
        ("[defaults]\nk = 0\n", 2, "k = 0"),
        ('[credibility]\nshare = "high"\n', 2, "share"),
    ],
)
def test_a_broken_strategy_is_rejected_with_its_line_and_reason(tmp_path, text, line, reason):
    with pytest.raises(ConfigError) as error:
        load_strategy(write(tmp_path, text))
    message = str(error.value)
    assert f"line {line}" in message
    assert reason in message
    assert str(tmp_path / "strategy.toml") in message


def test_a_missing_strategy_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read it"):
        load_strategy(tmp_path / "nope.toml")


def test_an_edited_strategy_is_reloaded_and_a_broken_edit_keeps_the_last_good(tmp_path):
    good = DEFAULT_STRATEGY.read_text("utf-8")
    path = write(tmp_path, good)
    orch = planner(path)
    question = perceive("Does the seal kit interaction matter for the CP-200?")
    try:
        assert {t.mode for t in orch.plan(question).tasks} == {"keyword"}

        # An operator edits the file: the "interaction" rule now forces vector search.
        edited = good.replace(
            'interactions", "compatibility", "compatible"] }\nmode = "keyword"',
            'interactions", "compatibility", "compatible"] }\nmode = "vector"',
        )
        assert edited != good
        _rewrite(path, edited)
        assert {t.mode for t in orch.plan(question).tasks} == {"vector"}
        assert orch.strategy_error is None

        # A broken edit is refused with its line; the last good strategy stays in force.
        _rewrite(path, edited + '\n[[rule]]\nname = "broken"\nwhen = { route = "sideways" }\n')
        assert {t.mode for t in orch.plan(question).tasks} == {"vector"}
        assert orch.strategy_error is not None
        assert "unknown route 'sideways'" in orch.strategy_error
        assert f"line {len(edited.splitlines()) + 4}" in orch.strategy_error
    finally:
        orch.close()


def _rewrite(path, text: str) -> None:
    """Write and move the mtime on, so the change is seen even within one clock tick."""
    before = path.stat().st_mtime_ns
    path.write_text(text, "utf-8")
    os.utime(path, ns=(before + 1_000_000_000, before + 1_000_000_000))


def test_an_answer_about_another_entity_gets_a_search_focused_on_the_asked_one(
    sample_orchestrator,
):
    perception = perceive("What is the maximum pressure of the CP-200?")
    plan = sample_orchestrator.plan(perception)
    issue = Issue(Check.TRACEABILITY, IssueKind.WRONG_ENTITY, "8 bar is the CP-350's")
    adjusted = sample_orchestrator.adjust(plan, perception, [issue])
    assert adjusted is not None
    focused = [t for t in adjusted.tasks if t.reason == "focused"]
    assert len(focused) == 1 and focused[0].mode == "keyword"
    assert focused[0].query.startswith("CP-200 ")


def test_a_cited_claim_its_passages_do_not_back_is_searched_with_its_own_words(
    sample_orchestrator,
):
    perception = perceive("How did the CP-200 oil change interval change between revisions?")
    plan = sample_orchestrator.plan(perception)
    claim = "Rev. 2 allows 3,000 h between oil changes [2]."
    issue = Issue(
        Check.TRACEABILITY, IssueKind.UNSUPPORTED_NUMBER, "3000 appears in no cited chunk", claim
    )
    second = sample_orchestrator.adjust(plan, perception, [issue])
    assert second is not None
    own = [t for t in second.tasks if t.query == "Rev. 2 allows 3,000 h between oil changes."]
    assert len(own) == 1 and own[0].mode == "hybrid"
    third = sample_orchestrator.adjust(second, perception, [issue])
    assert third is not None  # the claim's search is widened with the others, not repeated
    assert sum(t.query == own[0].query for t in third.tasks) == 1
    uncited = Issue(
        Check.TRACEABILITY, IssueKind.UNCITED, "cites nothing", "Rev. 2 allows 3,000 h."
    )
    plain = sample_orchestrator.adjust(plan, perception, [uncited])
    assert plain is None or not any(t.query == "Rev. 2 allows 3,000 h." for t in plain.tasks)
