"""Conversations, the answer cache and near-duplicate reuse through ``Engine.ask``, on a
copy of the sample knowledge base with the real models."""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
import time

import pytest
from conftest import TODAY

from ragcore import Config, Document, Engine, Scope
from ragcore.errors import InvalidQueryError, ScopeError
from ragcore.storage.store import DATABASE_NAME

MANUALS = Scope(frozenset({"manuals", "faq"}))


@pytest.fixture
def data(tmp_path, sample_data_template):
    path = tmp_path / "data"
    shutil.copytree(sample_data_template, path)
    return path


@pytest.fixture
def engine(data, real_embedder):
    with Engine(Config(data_dir=data), embedder=real_embedder, clock=lambda: TODAY) as eng:
        yield eng


def turns(data) -> int:
    with sqlite3.connect(data / DATABASE_NAME) as db:
        return db.execute("SELECT count(*) FROM session_turns").fetchone()[0]


def test_a_follow_up_is_rewritten_answered_and_recorded(engine):
    first = engine.ask("What does E4027 mean on the HP-400?", session="s1")
    assert first.rewritten_question is None and first.session_id == "s1"
    second = engine.ask("What about E4031?", session="s1")
    assert second.question == "What about E4031?"
    assert second.rewritten_question == "What does E4031 mean on the HP-400?"
    assert second.status == "ok" and "manual-hp400-v2" in [c.document_id for c in second.citations]
    perception = next(n for n in second.trace.children if n.name == "perception")
    (follow_up,) = perception.children
    assert "E4031 replaces E4027" in follow_up.detail
    session = engine.session("s1")
    assert session is not None
    assert [(t.question, t.rewritten, t.status) for t in session.turns] == [
        ("What does E4027 mean on the HP-400?", "What does E4027 mean on the HP-400?", "ok"),
        ("What about E4031?", "What does E4031 mean on the HP-400?", "ok"),
    ]
    assert "manual-hp400-v2" in session.turns[1].documents


def test_a_junk_turn_does_not_become_the_context(engine):
    engine.ask("What does E4027 mean on the HP-400?", session="s1")
    junk = engine.ask("asdf", session="s1")
    assert junk.status == "no_answer"
    answer = engine.ask("And E4031?", session="s1")
    assert answer.rewritten_question is not None
    assert "asdf" not in answer.rewritten_question
    assert "HP-400" in answer.rewritten_question and "E4031" in answer.rewritten_question


def test_without_a_session_nothing_is_rewritten(engine):
    engine.ask("What does E4027 mean on the HP-400?")
    answer = engine.ask("What about E4031?")
    assert answer.rewritten_question is None and answer.session_id is None


def test_an_unrelated_question_in_a_session_stands_as_asked(engine):
    engine.ask("What does E4027 mean on the HP-400?", session="s1")
    answer = engine.ask("How often should the CP-200 seal be replaced?", session="s1")
    assert answer.rewritten_question is None
    assert "HP-400" not in answer.perception.identifiers


def test_a_session_survives_a_restart(data, real_embedder):
    with Engine(Config(data_dir=data), embedder=real_embedder, clock=lambda: TODAY) as first:
        first.ask("What does E4027 mean on the HP-400?", session="s1")
    with Engine(Config(data_dir=data), embedder=real_embedder, clock=lambda: TODAY) as again:
        answer = again.ask("And E4031?", session="s1")
    assert answer.rewritten_question == "What does E4031 mean on the HP-400?"


def test_an_ended_or_expired_session_has_no_previous_turn(data, real_embedder):
    config = Config(data_dir=data, session_idle_seconds=0.5)
    with Engine(config, embedder=real_embedder, clock=lambda: TODAY) as engine:
        engine.ask("What does E4027 mean on the HP-400?", session="s1")
        assert engine.end_session("s1") is True
        assert engine.ask("And E4031?", session="s1").rewritten_question is None
        time.sleep(0.6)
        assert engine.session("s1") is None
        assert engine.ask("And E4031?", session="s1").rewritten_question is None


def test_another_scope_cannot_use_a_session_and_nothing_is_recorded(engine, data):
    engine.ask("What does E4027 mean on the HP-400?", session="s1", scope=MANUALS)
    before = turns(data)
    with pytest.raises(ScopeError, match="not available"):
        engine.ask("And E4031?", session="s1", scope=Scope(frozenset({"regulations"})))
    with pytest.raises(ScopeError):
        engine.ask("And E4031?", session="s1")
    with pytest.raises(ScopeError):
        engine.end_session("s1")
    assert turns(data) == before
    assert engine.ask("And E4031?", session="s1", scope=MANUALS).rewritten_question


@pytest.mark.parametrize("bad", ["", "has space", "-x", "x" * 200])
def test_a_bad_session_id_or_question_records_nothing(engine, data, bad):
    engine.ask("What does E4027 mean on the HP-400?", session="s1")
    before = turns(data)
    with pytest.raises(InvalidQueryError, match="session id"):
        engine.ask("And E4031?", session=bad)
    with pytest.raises(InvalidQueryError, match="question is empty"):
        engine.ask("  ", session="s1")
    assert turns(data) == before


def test_a_repeat_is_served_from_the_answer_cache_in_well_under_a_millisecond(engine):
    question = "How often should the CP-200 seal be replaced?"
    first = engine.ask(question)
    assert not first.cached
    hits = [engine.ask(question) for _ in range(5)]
    assert all(h.cached and h.text == first.text and h.status == first.status for h in hits)
    assert min(h.timings["total"] for h in hits) < 1.0
    (cache,) = hits[0].trace.children
    assert cache.name == "cache" and "answer cache hit" in cache.detail
    # Case, spacing and the question mark do not matter; a different scope does.
    assert engine.ask("how often should the  CP-200 seal be replaced").cached
    assert not engine.ask(question, scope=MANUALS).cached


def test_an_ingest_or_delete_invalidates_cached_answers(engine):
    question = "How often should the CP-200 seal be replaced?"
    engine.ask(question)
    assert engine.ask(question).cached
    engine.ingest([Document(id="note-1", knowledge_base="faq", text="The AC-75 hums.")])
    assert not engine.ask(question).cached
    assert engine.ask(question).cached
    engine.delete("note-1")
    assert not engine.ask(question).cached


def test_a_listener_of_a_cached_answer_hears_its_perception_only(engine):
    question = "How often should the CP-200 seal be replaced?"
    engine.ask(question)
    stages = []
    answer = engine.ask(question, on_event=lambda e: stages.append(e.stage))
    assert answer.cached and stages == ["perception"]


def test_a_near_duplicate_reuses_the_retrieval_not_the_answer(engine):
    engine.ask("How often should the CP-200 seal be replaced?")
    answer = engine.ask("How often should the seal of the CP-200 be replaced?")
    assert not answer.cached
    retrieval = next(n for n in answer.trace.walk() if n.name == "retrieval")
    assert any("retrieval reused from near-duplicate" in c.detail for c in retrieval.children)
    assert "generation" in [n.name for n in answer.trace.walk()]  # generated and validated anew


def test_one_model_number_apart_never_shares_a_retrieval(engine):
    engine.ask("What is the rated flow of the CP-200?")
    answer = engine.ask("What is the rated flow of the CP-350?")
    assert not any("reused" in n.detail for n in answer.trace.walk())


def test_the_plan_shows_its_retrieval_mode(engine):
    lookup = engine.ask("What does E4027 mean on the HP-400?")
    compare = engine.ask("Which compressor is louder, AC-75 or AC-110?")
    plans = [next(n for n in a.trace.walk() if n.name == "plan") for a in (lookup, compare)]
    assert "precise" in plans[0].detail and "explore" in plans[1].detail


@pytest.mark.process
def test_concurrent_sessions_do_not_mix(engine):
    threads = {
        "hp": ["What does E4027 mean on the HP-400?", "And E4031?"],
        "ac": ["What does E2210 mean on the AC-75?", "Why?"],
    }
    errors: list[BaseException] = []

    def converse(session: str) -> None:
        try:
            for question in threads[session]:
                engine.ask(question, session=session)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    workers = [threading.Thread(target=converse, args=(s,)) for s in threads]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors
    hp, ac = engine.session("hp"), engine.session("ac")
    assert hp is not None and ac is not None
    assert hp.turns[1].rewritten == "What does E4031 mean on the HP-400?"
    assert ac.turns[1].rewritten == "Why E2210 (AC-75)?"


def test_which_one_is_louder_is_answered_for_the_models_in_play(engine):
    engine.ask("What is the noise level of the AC-75?", session="s1")
    engine.ask("And the AC-110?", session="s1")
    answer = engine.ask("Which one is louder?", session="s1")
    assert answer.rewritten_question == "Which one is louder, the AC-75 or the AC-110?"
    assert answer.status == "ok"
    assert {c.document_id for c in answer.citations} == {"manual-ac75", "manual-ac110"}
    assert "72" in answer.text and "69" in answer.text


def test_what_the_answer_introduced_is_kept_with_the_turn(engine):
    engine.ask("What is the part number of the CP-200 mechanical seal?", session="s1")
    session = engine.session("s1")
    assert session is not None
    kept = json.loads(session.turns[0].perception)
    assert ["P/N 88-2041-09", "PART_NUMBER"] in kept["answered"]
    assert kept["followed"] is False


def test_why_it_changed_asks_about_the_previous_figure(engine):
    engine.ask("What torque do the HP-400 platen bolts get?", session="s1")
    answer = engine.ask("Why was it changed?", session="s1")
    assert answer.rewritten_question == "Why was the HP-400 torque changed?"
    assert "cracked washers" in answer.text


def test_a_question_asking_the_same_of_two_models_answers_both(engine):
    answer = engine.ask("How often is the compressor oil changed on the AC-75 and on the AC-110?")
    assert answer.status == "ok"
    assert {c.document_id for c in answer.citations} == {"manual-ac75", "manual-ac110"}
    assert "4000" in answer.text and "6000" in answer.text


def test_models_side_by_side_are_each_answered_with_the_attribute_asked(engine):
    answer = engine.ask("How much oil do the CV-12 gearbox and the HP-400 hydraulic system hold?")
    assert answer.status == "ok"
    assert "4.2 litres" in answer.text and "180 litres" in answer.text
