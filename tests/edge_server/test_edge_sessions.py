"""Conversations over a live gRPC server: session ids in and out, the rewrite in the answer
and in AskStream's perception event, cached answers, EndSession, restarts, concurrent
clients and scoped tokens."""

from __future__ import annotations

import shutil
import threading

import grpc
import pytest
from conftest import TODAY

from edge_server.client import Client, error_details
from edge_server.v1 import ragcore_pb2 as pb
from ragcore import Config, Engine

pytestmark = [pytest.mark.integration, pytest.mark.process]

HP = "What does E4027 mean on the HP-400?"
MANUALS_READER = "manuals-reader-0123456789abcdef"
FAQ_READER = "faq-reader-0123456789abcdef"


def test_a_session_goes_in_and_the_rewrite_comes_out(start_edge):
    _, target = start_edge()
    with Client(target) as client:
        first = client.ask(HP, session_id="shift-1")
        assert first.session_id == "shift-1" and first.rewritten_question == ""
        second = client.ask("And E4031?", session_id="shift-1", trace=True)
        assert second.rewritten_question == "What does E4031 mean on the HP-400?"
        assert second.question == "And E4031?" and second.perception.question == (
            second.rewritten_question
        )
        perception = next(n for n in second.trace.children if n.name == "perception")
        assert "E4031 replaces E4027" in perception.children[0].detail
        alone = client.ask("And E4031?")  # no session: nothing to lean on
        assert alone.rewritten_question == "" and alone.session_id == ""


def test_a_server_made_session_askstream_shows_the_rewrite_and_a_repeat_is_cached(start_edge):
    _, target = start_edge()
    with Client(target) as client:
        made = client.ask(HP, new_session=True).session_id
        assert made and Engine.check_session_id(made) == made
        events = list(client.ask_stream("And on the HP-500?", session_id=made))
        perception = events[0].perception
        assert perception.question == "What does E4027 mean on the HP-500?"
        assert events[-1].result.rewritten_question == perception.question
        assert events[-1].result.session_id == made
        # A repeat (here of the rewritten question) is answered from the cache.
        again = client.ask("What does E4027 mean on the HP-500?", trace=True)
        assert again.cached and [n.name for n in again.trace.children] == ["cache"]


def test_end_session_and_bad_ids(start_edge):
    _, target = start_edge()
    with Client(target) as client:
        client.ask(HP, session_id="shift-2")
        assert client.end_session("shift-2") is True
        assert client.end_session("shift-2") is False
        assert client.ask("And E4031?", session_id="shift-2").rewritten_question == ""
        for call in (
            lambda: client.ask(HP, session_id="has space"),
            lambda: client.ask(HP, session_id="s", new_session=True),
            lambda: client.end_session(""),
        ):
            with pytest.raises(grpc.RpcError) as error:
                call()
            assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            violations = error_details(error.value)["BadRequest"].field_violations
            assert [v.field for v in violations] == ["session_id"]


def test_a_session_survives_a_server_restart(tmp_path, real_embedder, sample_data_template):
    from edge_server import ServerConfig, create_server

    data = tmp_path / "data"
    shutil.copytree(sample_data_template, data)
    for question, expected in ((HP, ""), ("And E4031?", "What does E4031 mean on the HP-400?")):
        engine = Engine(Config(data_dir=data), embedder=real_embedder, clock=lambda: TODAY)
        server = create_server(ServerConfig(engine=engine.config, port=0), engine).start()
        try:
            assert server.wait_until_loaded(60)
            with Client(f"127.0.0.1:{server.port}") as client:
                answer = client.ask(question, session_id="shift-3")
            assert answer.rewritten_question == expected
        finally:
            server.stop(grace=0)
            engine.close()


def test_concurrent_clients_do_not_mix_their_sessions(start_edge):
    _, target = start_edge()
    threads = {
        "hp": [HP, "And E4031?"],
        "ac": ["What does E2210 mean on the AC-75?", "Why?"],
        "cp": ["How often should the CP-200 seal be replaced?", "And the CP-350?"],
    }
    answers: dict[str, list[pb.Answer]] = {}
    errors: list[BaseException] = []

    def converse(session: str) -> None:
        try:
            with Client(target) as client:
                answers[session] = [client.ask(q, session_id=session) for q in threads[session]]
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    workers = [threading.Thread(target=converse, args=(s,)) for s in threads]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors
    assert answers["hp"][1].rewritten_question == "What does E4031 mean on the HP-400?"
    assert answers["ac"][1].rewritten_question == "Why E2210 (AC-75)?"
    assert answers["cp"][1].rewritten_question == "How often should the CP-350 seal be replaced?"


def test_a_scoped_token_cannot_use_another_scopes_session(start_edge, tmp_path):
    tokens = tmp_path / "tokens"
    tokens.write_text(f"reader {MANUALS_READER} manuals\nreader {FAQ_READER} faq\n")
    _, target = start_edge(tokens_file=tokens)
    with Client(target, token=MANUALS_READER) as manuals, Client(target, token=FAQ_READER) as faq:
        manuals.ask(HP, session_id="shift-4")
        for call in (
            lambda: faq.ask("And E4031?", session_id="shift-4"),
            lambda: faq.end_session("shift-4"),
        ):
            with pytest.raises(grpc.RpcError) as error:
                call()
            assert error.value.code() == grpc.StatusCode.PERMISSION_DENIED
            assert "not available to this caller" in error.value.details()
        follow_up = manuals.ask("And E4031?", session_id="shift-4")
        assert follow_up.rewritten_question == "What does E4031 mean on the HP-400?"
