"""The loop end to end: perceive → plan → retrieve → generate → validate → retry."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import TODAY

from ragcore import Config, Document, Engine
from ragcore.agents.generation.llm import OpenAICompatibleGenerator
from ragcore.agents.planning.strategy import DEFAULT_STRATEGY
from ragcore.errors import InvalidQueryError

pytestmark = pytest.mark.integration


def strategy(tmp_path, *edits: tuple[str, str]):
    """The shipped strategy with text replacements, written to tmp_path."""
    text = DEFAULT_STRATEGY.read_text("utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / "strategy.toml"
    path.write_text(text, "utf-8")
    return path


def open_engine(tmp_path, real_embedder, documents, generator=None, **settings) -> Engine:
    config = Config(data_dir=tmp_path / "data", **settings)
    engine = Engine(config, embedder=real_embedder, generator=generator, clock=lambda: TODAY)
    engine.ingest(documents)
    return engine


# An old revision phrased exactly like the question outranks its successor on relevance;
# without credibility in the ranking (share = 0) only validation can catch it.
TRAP = [
    Document(
        id="hx10-v1",
        knowledge_base="manuals",
        title="HX-10 press manual",
        doc_type="manual",
        authority=4,
        updated_at=date(2020, 1, 10),
        text="How often to change the HX-10 hydraulic oil: change the HX-10 hydraulic oil "
        "every 500 operating hours.",
    ),
    Document(
        id="hx10-v2",
        knowledge_base="manuals",
        title="HX-10 press manual, revision 2",
        doc_type="manual",
        authority=4,
        updated_at=date(2024, 3, 1),
        version=2,
        supersedes="hx10-v1",
        text="Revision 2 of the schedule: change the oil every 400 operating hours.",
    ),
]
TRAP_QUESTION = "How often should the HX-10 hydraulic oil be changed?"
NO_CREDIBILITY = ("share = 0.3", "share = 0.0")


def test_an_outdated_document_is_caught_and_retried_into_the_newer_one(tmp_path, real_embedder):
    path = strategy(tmp_path, NO_CREDIBILITY)
    with open_engine(tmp_path, real_embedder, TRAP, strategy_path=path) as engine:
        answer = engine.ask(TRAP_QUESTION)
    assert answer.status == "ok", answer.issues
    assert answer.rounds == 2
    assert [c.document_id for c in answer.citations] == ["hx10-v2"]
    assert "400" in answer.text and "500" not in answer.text
    assert answer.duplicate_searches == 0
    rendered = answer.trace.render()
    assert "timeliness: superseded" in rendered
    assert "hx10-v1 is superseded by hx10-v2" in rendered
    assert "outdated evidence: current documents only" in rendered


def test_the_round_cap_is_honoured_and_gives_uncertain(tmp_path, real_embedder):
    path = strategy(tmp_path, NO_CREDIBILITY)
    with open_engine(tmp_path, real_embedder, TRAP, strategy_path=path, max_rounds=1) as engine:
        answer = engine.ask(TRAP_QUESTION)
    assert answer.status == "uncertain"
    assert answer.rounds == 1
    issues = {i.kind: i for i in answer.issues}
    assert issues["superseded"].document_ids == ("hx10-v1", "hx10-v2")
    assert [c.document_id for c in answer.citations] == ["hx10-v1"]


PUMPS = [
    Document(
        id=f"zx1-{part}",
        knowledge_base="manuals",
        title=f"ZX-1 pump {part} sheet",
        authority=4,
        updated_at=date(2024, 1, 1),
        text=f"ZX-1 pump {part}: the ZX-1 flow is 100 L/min. Compare the flow of the ZX-1 "
        f"pump before and after the {part}.",
    )
    for part in ("impeller", "casing", "seal")
] + [
    Document(
        id="zx2",
        knowledge_base="datasheets",
        title="ZX-2 pump data sheet",
        authority=4,
        updated_at=date(2024, 1, 1),
        text="The ZX-2 delivers 150 L/min.",
    )
]


def test_a_comparison_missing_one_side_gets_a_task_for_that_side(tmp_path, real_embedder):
    # Without the per-side rule and with the base task on the manuals only, round 1 finds
    # only the ZX-1; the ZX-2 data sheet is in another knowledge base.
    no_per_side = ('name = "comparison-per-side"', 'name = "comparison-off"\nwhen.route = "direct"')
    no_about = (
        'name = "documents-about-each-named-model"\nwhen = { min_entities = 1 }',
        'name = "about-off"\nwhen = { route = "direct" }',
    )
    path = strategy(
        tmp_path,
        no_per_side,
        no_about,
        ('when = { route = "comparison" }\nfor_each', "for_each"),
        ('mode = "hybrid"      # search type of the base task', 'knowledge_bases = ["manuals"]'),
    )
    with open_engine(tmp_path, real_embedder, PUMPS, strategy_path=path) as engine:
        answer = engine.ask("Compare the flow of the ZX-1 and the ZX-2.")
    assert answer.status == "ok", answer.issues
    assert answer.rounds == 2
    assert "zx2" in {c.document_id for c in answer.citations}
    rendered = answer.trace.render()
    assert "consistency: missing_side" in rendered
    assert "missing side: a task for ZX-2" in rendered


def test_an_unanswerable_question_gives_no_answer(sample_engine):
    for question in (
        "What is the boiling point of mercury?",
        "What does E9999 mean on the HP-400?",
    ):
        answer = sample_engine.ask(question)
        assert answer.status == "no_answer", answer.text
        assert answer.citations == ()
        assert answer.duplicate_searches == 0


def test_nothing_to_look_up_gives_no_answer_without_searching(sample_engine):
    answer = sample_engine.ask("hello")
    assert (answer.status, answer.rounds, answer.searches) == ("no_answer", 0, 0)


def test_a_simple_answer_has_citations_report_trace_and_timings(sample_engine):
    answer = sample_engine.ask("What torque for the HP-400 platen bolts?")
    assert answer.status == "ok"
    assert "52 N·m" in answer.text
    [citation] = answer.citations
    assert citation.document_id == "manual-hp400-v2"
    assert citation.title.startswith("HP-400")
    assert citation.updated_at == date(2023, 11, 15)
    assert answer.evidence[citation.number - 1].chunk_id == citation.chunk_id
    # One round: the base task, the keyword task kept to the HP-400's documents, and the
    # passages naming the HP-400 by name (strategy rule passages-naming-each-identifier).
    assert answer.report.passed and answer.rounds == 1 and answer.tasks == 3
    names = [node.name for node in answer.trace.walk()]
    for stage in ("perception", "plan", "retrieval", "generation", "validation"):
        assert stage in names
        assert answer.timings[stage] >= 0
    assert answer.timings["total"] >= sum(answer.timings[s] for s in ("perception", "retrieval"))
    assert "route=simple" in answer.trace.render()


def test_a_comparison_is_answered_with_both_sides(sample_engine):
    answer = sample_engine.ask("Which compressor is louder, AC-75 or AC-110?")
    assert answer.status == "ok", answer.issues
    assert {"manual-ac75", "manual-ac110"} <= {c.document_id for c in answer.citations}
    assert "The AC-110 is louder than the AC-75" in answer.text


@pytest.mark.parametrize(
    ("question", "problem"),
    [("", "empty"), ("   ", "empty"), ("x" * 2001, "2000"), (42, "text"), (None, "text")],
)
def test_a_bad_question_is_an_error_that_says_so(sample_engine, question, problem):
    before = sample_engine.stats()
    with pytest.raises(InvalidQueryError, match=problem):
        sample_engine.ask(question)
    assert sample_engine.stats() == before


def test_concurrent_questions_get_the_same_answers(sample_engine):
    questions = [
        "What torque for the HP-400 platen bolts?",
        "Which compressor is louder, AC-75 or AC-110?",
        "How often must lockout devices be inspected?",
        "What is the boiling point of mercury?",
    ]
    alone = [sample_engine.ask(q).text for q in questions]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda q: sample_engine.ask(q).text, questions * 2))
    assert together == alone * 2


# -- an LLM generator served by a real local HTTP server ---------------------------------
class _LLM(BaseHTTPRequestHandler):
    reply = ""
    requests = 0

    def do_POST(self):  # noqa: N802 (http.server's name)
        type(self).requests += 1
        self.rfile.read(int(self.headers["Content-Length"]))
        body = json.dumps({"choices": [{"message": {"content": self.reply}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args):
        pass


@pytest.fixture
def llm_server():
    """Yields a function: reply text -> base URL of a server that always answers it."""
    servers = []

    def serve(reply: str) -> str:
        handler = type("Handler", (_LLM,), {"reply": reply, "requests": 0})
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        servers.append((server, thread))
        return f"http://127.0.0.1:{server.server_address[1]}/v1"

    yield serve
    for server, thread in servers:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        ("Tighten the platen bolts to 52 N·m [7].", "invalid_citation"),
        ("Tighten the platen bolts to 99 N·m [1].", "unsupported_number"),
    ],
)
def test_a_hallucinating_llm_is_caught_and_capped(tmp_path, real_embedder, llm_server, reply, kind):
    from ragcore.evaluation.sample import sample_documents

    generator = OpenAICompatibleGenerator(llm_server(reply), "stand-in", timeout=5)
    with open_engine(
        tmp_path, real_embedder, sample_documents(), generator=generator, max_rounds=2
    ) as engine:
        answer = engine.ask("What torque for the HP-400 platen bolts?")
    assert answer.generator == "openai-compatible"
    assert answer.status == "uncertain"
    assert answer.rounds == 2
    assert kind in [i.kind for i in answer.issues]
    assert answer.duplicate_searches == 0


def test_a_faithful_llm_answer_passes(tmp_path, real_embedder, llm_server):
    from ragcore.evaluation.sample import sample_documents

    url = llm_server("Tighten the platen bolts to 52 N·m in a cross pattern [1].")
    with open_engine(
        tmp_path,
        real_embedder,
        sample_documents(),
        llm_base_url=url,
        llm_model="stand-in",
    ) as engine:
        answer = engine.ask("What torque for the HP-400 platen bolts?")
    assert (answer.status, answer.generator) == ("ok", "openai-compatible"), answer.issues


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"max_rounds": 0}, "max_rounds"),
        ({"support_threshold": 1.5}, "support_threshold"),
        ({"llm_base_url": "http://127.0.0.1:1/v1"}, "llm_model"),
        ({"llm_model": "m"}, "llm_base_url"),
        ({"llm_timeout": 0}, "llm_timeout"),
        ({"llm_context_chars": 0}, "llm_context_chars"),
        ({"llm_context_chars": 2.5}, "llm_context_chars"),
    ],
)
def test_bad_answering_settings_name_the_field(tmp_path, settings, field):
    from ragcore.errors import ConfigError

    with pytest.raises(ConfigError) as error:
        Config(data_dir=tmp_path, **settings)
    assert error.value.field == field


def test_stage_events_come_in_order_and_a_raising_listener_stops_the_run(sample_engine):
    from ragcore.answering import StageEvent

    events: list[StageEvent] = []
    answer = sample_engine.ask(
        "How often should the CP-200 seal be replaced?", on_event=events.append
    )
    stages = [e.stage for e in events]
    assert stages[0] == "perception" and events[0].round == 0
    assert stages[1:5] == ["plan", "retrieval", "answer", "validation"]
    assert stages.count("validation") == answer.rounds
    assert stages.count("retry") == answer.rounds - 1
    assert [e.elapsed_ms for e in events] == sorted(e.elapsed_ms for e in events)
    assert events[-1].stage == "validation"

    class Stop(Exception):
        pass

    def stop_after_retrieval(event: StageEvent) -> None:
        if event.stage == "retrieval":
            raise Stop

    with pytest.raises(Stop):  # a question not asked before: a repeat is answered from cache
        sample_engine.ask(
            "How often should the CP-350 seal be replaced?", on_event=stop_after_retrieval
        )
