"""A scoped caller can never receive a chunk, id, title or count from outside its scope.

The store holds in-scope manuals and out-of-scope documents built to be found: the other
side of a comparison, a newer revision that supersedes an in-scope manual, the
regulations a time question's strategy rule searches. Every out-of-scope id starts with
``x-`` and every out-of-scope title and text holds ZEBRA, so a leak anywhere in a result
(answer, evidence, trace, events, issues, hits, records, counts, errors) is visible in
its repr. The same calls without a scope do surface them: the test can fail.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

import pytest
from conftest import TODAY

from ragcore import Config, Document, Engine, Scope, SearchFilters
from ragcore.errors import DocumentNotFoundError, KnowledgeBaseNotFoundError, ScopeError

SCOPE = Scope(frozenset({"manuals", "faq"}))  # faq holds nothing yet: still the caller's
LEAK = re.compile(r"ZEBRA|\bx-|'x-|secret")  # "regulations" is also a rule name

INSIDE = [
    Document(
        id="m-ac75",
        knowledge_base="manuals",
        title="AC-75 compressor manual",
        doc_type="manual",
        authority=4,
        updated_at=date(2023, 5, 1),
        text="The AC-75 compressor has a noise level of 69 dB(A). Drain the AC-75 receiver "
        "tank daily and check the safety valve weekly.",
    ),
    Document(
        id="m-cp200-v1",
        knowledge_base="manuals",
        title="CP-200 pump manual, revision 1",
        doc_type="manual",
        authority=4,
        updated_at=date(2022, 3, 1),
        text="Replace the CP-200 mechanical seal every 2000 operating hours. The CP-200 "
        "delivers 120 L/min at 6 bar.",
    ),
    Document(
        id="m-hp400",
        knowledge_base="manuals",
        title="HP-400 hydraulic press manual",
        doc_type="manual",
        authority=3,
        updated_at=date(2024, 2, 1),
        text="Error E4027 on the HP-400 press means the hydraulic oil pressure fell below "
        "150 bar. Check the accumulator precharge and the relief valve.",
    ),
]
OUTSIDE = [
    Document(
        id="x-ac110",
        knowledge_base="secret",
        title="AC-110 compressor ZEBRA manual",
        doc_type="manual",
        authority=4,
        updated_at=date(2024, 1, 1),
        text="The AC-110 compressor has a noise level of 72 dB(A). ZEBRA drain the AC-110 "
        "receiver tank daily.",
    ),
    Document(
        id="x-cp200-v2",
        knowledge_base="secret",
        title="CP-200 pump manual ZEBRA, revision 2",
        doc_type="manual",
        authority=5,
        updated_at=date(2025, 3, 1),
        version=2,
        supersedes="m-cp200-v1",
        text="Replace the CP-200 mechanical seal every 3000 operating hours. ZEBRA The "
        "CP-200 delivers 130 L/min at 6 bar.",
    ),
    Document(
        id="x-loto",
        knowledge_base="regulations",
        title="Lockout rule ZEBRA",
        doc_type="regulation",
        authority=5,
        updated_at=date(2025, 1, 10),
        text="Since 2024 every machine must be locked out and tagged before servicing. "
        "ZEBRA verify zero energy before work begins.",
    ),
]
QUESTIONS = (
    "Which compressor is louder, AC-75 or AC-110?",  # a side only outside: retries
    "How often should the CP-200 seal be replaced?",  # superseded from outside
    "Which lockout rules apply since 2024?",  # the strategy searches "regulations"
    "What does error E4027 mean on the HP-400?",
    "What is the flow of the CP-200 pump?",
)


@pytest.fixture(scope="module")
def store(tmp_path_factory, real_embedder):
    # No caches: several tests ask the same question and look at the whole run.
    config = Config(
        data_dir=tmp_path_factory.mktemp("scoped") / "data",
        answer_cache_size=0,
        retrieval_cache_size=0,
    )
    with Engine(config, embedder=real_embedder, clock=lambda: TODAY) as engine:
        engine.ingest(INSIDE + OUTSIDE)
        yield engine


def _asked(engine: Engine, question: str, **kwargs):
    events: list = []
    answer = engine.ask(question, on_event=events.append, **kwargs)
    return answer, events


def test_without_a_scope_the_outside_documents_are_found(store):
    """The documents outside are built to be found: otherwise the test proves nothing."""
    seen = "".join(repr(_asked(store, q)) for q in QUESTIONS)
    assert {"x-ac110", "x-cp200-v2", "x-loto"} <= set(re.findall(r"x-[a-z0-9-]+", seen))
    assert store.document("m-cp200-v1").superseded_by == ("x-cp200-v2",)


@pytest.mark.parametrize("question", QUESTIONS)
def test_ask_stays_inside_the_scope_in_every_task_of_every_round(store, question):
    answer, events = _asked(store, question, scope=SCOPE)
    assert not LEAK.search(repr(answer)), LEAK.search(repr(answer))
    assert not LEAK.search(repr(events))
    plans = [e.data for e in events if e.stage == "plan"]
    assert plans and all(p.scope == SCOPE for p in plans)
    for plan in plans:
        for task in plan.tasks:
            assert set(task.filters.knowledge_bases) <= {"manuals", "faq"}, task
    retrievals = [e.data for e in events if e.stage == "retrieval"]
    hits = [h for r in retrievals for result in r.results for h in result.hits]
    assert {h.document.knowledge_base for h in hits} <= {"manuals"}
    assert "scope: faq, manuals" in answer.trace.render()


def test_the_comparison_retries_and_still_never_sees_the_other_side(store):
    answer, events = _asked(store, QUESTIONS[0], scope=SCOPE)
    assert answer.rounds >= 2  # the missing side was searched for again, inside the scope
    assert answer.status != "ok"
    assert any(e.stage == "retry" for e in events)


def test_a_manual_superseded_from_outside_is_current_to_the_scoped_caller(store):
    answer, _ = _asked(store, QUESTIONS[1], scope=SCOPE)
    assert answer.status == "ok" and "2000" in answer.text
    assert [c.document_id for c in answer.citations] == ["m-cp200-v1"]
    assert store.document("m-cp200-v1", scope=SCOPE).superseded_by == ()


def test_search_in_every_mode_and_filter_stays_inside(store):
    for query in ("CP-200 seal replacement", "compressor noise level", "lockout since 2024"):
        for mode in ("vector", "keyword", "hybrid"):
            for filters in (None, SearchFilters(exclude_superseded=True)):
                hits = store.search(query, mode=mode, k=20, filters=filters, scope=SCOPE)
                assert not LEAK.search(repr(hits)), (query, mode)
                assert hits or mode == "keyword"  # no in-scope words for the lockout
    # exclude_superseded does not hide a manual superseded only from outside the scope
    hits = store.search("CP-200 seal", k=5, filters=SearchFilters(exclude_superseded=True))
    assert "m-cp200-v1" not in {h.document_id for h in hits}
    scoped = store.search(
        "CP-200 seal", k=5, filters=SearchFilters(exclude_superseded=True), scope=SCOPE
    )
    assert "m-cp200-v1" in {h.document_id for h in scoped}


def test_naming_a_knowledge_base_outside_is_refused_alike_whether_it_exists_or_not(store):
    messages = []
    for name in ("secret", "no-such-kb"):
        calls = [
            lambda n=name: store.search("pump", filters=SearchFilters((n,)), scope=SCOPE),
            lambda n=name: store.ask("pump seal?", filters=SearchFilters((n,)), scope=SCOPE),
            lambda n=name: store.list_documents(knowledge_base=n, scope=SCOPE),
            lambda n=name: store.delete_knowledge_base(n, scope=SCOPE),
        ]
        for call in calls:
            with pytest.raises(ScopeError) as caught:
                call()
            messages.append(str(caught.value).replace(name, "NAME"))
    assert len(set(messages)) == 1 and "faq, manuals" in messages[0]
    # inside the scope, an empty knowledge base is searched as empty, not refused
    assert store.search("pump", filters=SearchFilters(("faq",)), scope=SCOPE) == []


def test_listing_counting_and_reading_stay_inside(store):
    assert [kb.name for kb in store.knowledge_bases(scope=SCOPE)] == ["manuals"]
    stats = store.stats(scope=SCOPE)
    inside_chunks = sum(kb.chunks for kb in store.knowledge_bases(scope=SCOPE))
    assert (stats.knowledge_bases, stats.documents) == (1, 3)
    assert stats.chunks == stats.vectors == inside_chunks
    assert stats.database_bytes == stats.index_bytes == 0
    assert store.stats().documents == 6  # unscoped, everything

    ids, token = [], None
    while True:
        page = store.list_documents(page_size=1, page_token=token, scope=SCOPE)
        ids += [d.id for d in page.documents]
        assert not LEAK.search(repr(page))
        token = page.next_page_token
        if token is None:
            break
    assert sorted(ids) == ["m-ac75", "m-cp200-v1", "m-hp400"]

    texts = []
    for document_id in ("x-ac110", "no-such-doc"):
        with pytest.raises(DocumentNotFoundError) as caught:
            store.document(document_id, scope=SCOPE)
        texts.append(str(caught.value).replace(document_id, "ID"))
        with pytest.raises(DocumentNotFoundError) as caught:
            store.delete(document_id, scope=SCOPE)
        texts.append(str(caught.value).replace(document_id, "ID"))
    assert len(set(texts)) == 1
    assert store.document("x-ac110").knowledge_base == "secret"  # still there


def test_a_scoped_writer_writes_only_inside_and_is_refused_before_anything_is_written(
    tmp_path, real_embedder
):
    with Engine(Config(data_dir=tmp_path / "data"), embedder=real_embedder) as engine:
        engine.ingest(INSIDE + OUTSIDE)
        before = engine.stats()
        new = Document(id="m-new", knowledge_base="faq", text="How do I reset the AC-75? Hold")
        refused = [
            [new, replace(OUTSIDE[0], text="overwritten", title="overwritten")],
            [new, replace(INSIDE[0], id="x-ac110")],  # an id taken outside the scope
        ]
        for documents in refused:
            with pytest.raises(ScopeError) as caught:
                engine.ingest(documents, scope=SCOPE)
            assert "ZEBRA" not in str(caught.value)  # it names only what the caller sent
        assert engine.stats() == before
        assert engine.document("x-ac110").title == OUTSIDE[0].title
        with pytest.raises(KnowledgeBaseNotFoundError):
            engine.delete_knowledge_base("faq", scope=SCOPE)  # inside, but empty

        report = engine.ingest([new], scope=SCOPE)
        assert report.count("added") == 1
        assert engine.delete_knowledge_base("faq", scope=SCOPE) == 1
        assert engine.delete("m-ac75", scope=SCOPE) >= 1
        assert engine.stats().documents == before.documents - 1
