"""What the JSON/HTTP API adds over the in-process ask, and how soon AskStream's first
event arrives as Server-Sent Events.

One Engine over a scratch copy of the sample knowledge base, served in this process by
an EdgeServer with ``http_port`` (loopback). Each round asks every golden-set question
in-process (``Engine.ask``), over HTTP (``POST /v1/ask``, one keep-alive connection),
and over gRPC (``Client.ask``), one after the other per question, so the three do the
same work at the same time of the run. With the answer and retrieval caches off (the
default here; ``--answer-cache`` keeps both on) every ask does the whole work.

Overhead: the median of the per-question differences, HTTP - in-process (and gRPC -
in-process, for comparison), per round. SSE first event: from sending ``POST
/v1/ask:stream`` to reading its first ``event:`` line (the perception stage), median
per round. Figures are medians over ``--rounds``.

Goals on 2 cores: HTTP overhead p50 <= 3 ms; SSE first event <= 50 ms.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import tempfile
import time
from pathlib import Path

import httpx
from _common import median

from edge_server import ServerConfig, create_server
from edge_server.client import Client
from ragcore import Config, Engine
from ragcore.evaluation.golden import SAMPLE_GOLDEN, load_golden
from ragcore.evaluation.sample import sample_documents


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="passes over the questions")
    parser.add_argument("--answer-cache", action="store_true", help="keep the answer cache on")
    args = parser.parse_args()
    questions = [q.question for q in load_golden(SAMPLE_GOLDEN)]
    scratch = Path(tempfile.mkdtemp(prefix="http-overhead-"))
    config = Config(
        data_dir=scratch / "data",
        threads=1,
        answer_cache_size=128 if args.answer_cache else 0,
        retrieval_cache_size=128 if args.answer_cache else 0,
    )
    try:
        with Engine(config) as engine:
            engine.ingest(sample_documents())
            server = create_server(ServerConfig(engine=config, port=0, http_port=0), engine)
            server.start()
            assert server.wait_until_loaded(120) and server.serving
            try:
                rounds = _measure(server, engine, questions, args.rounds)
            finally:
                server.stop(grace=0)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(
        f"{len(questions)} questions x {args.rounds} rounds, sample knowledge base, answer "
        f"cache {'on' if args.answer_cache else 'off'}; medians over rounds (ms)"
    )
    for name in ("in_process", "http", "grpc", "http_overhead", "grpc_overhead", "sse_first"):
        values = [r[name] for r in rounds]
        print(
            f"  {name:<14} {median(values):8.2f}   rounds: {', '.join(f'{v:.2f}' for v in values)}"
        )
    print("goals: http_overhead <= 3 ms, sse_first <= 50 ms")
    return 0


def _measure(server, engine: Engine, questions: list[str], rounds: int) -> list[dict]:
    base = f"http://127.0.0.1:{server.http_port}"
    results = []
    # TCP_NODELAY as curl, browsers and Node's fetch set it: httpx writes a request's
    # headers and body apart, and without it the body waits for the delayed ACK (40 ms).
    transport = httpx.HTTPTransport(socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])
    with (
        httpx.Client(base_url=base, timeout=60, transport=transport) as http,
        Client(f"127.0.0.1:{server.port}") as grpc_client,
    ):
        for question in questions[:3]:  # warm-up of every path
            engine.ask(question)
            http.post("/v1/ask", json={"question": question}).raise_for_status()
            grpc_client.ask(question)
        for _ in range(rounds):
            local, over_http, over_grpc, first = [], [], [], []
            for question in questions:
                local.append(_timed(lambda q=question: engine.ask(q)))
                over_http.append(
                    _timed(lambda q=question: http.post("/v1/ask", json={"question": q}))
                )
                over_grpc.append(_timed(lambda q=question: grpc_client.ask(q)))
                first.append(_first_event(http, question))
            results.append(
                {
                    "in_process": median(local),
                    "http": median(over_http),
                    "grpc": median(over_grpc),
                    "http_overhead": median([h - i for h, i in zip(over_http, local)]),
                    "grpc_overhead": median([g - i for g, i in zip(over_grpc, local)]),
                    "sse_first": median(first),
                }
            )
    return results


def _timed(work) -> float:
    started = time.perf_counter()
    reply = work()
    if isinstance(reply, httpx.Response):
        reply.raise_for_status()
    return (time.perf_counter() - started) * 1000


def _first_event(http: httpx.Client, question: str) -> float:
    started = time.perf_counter()
    with http.stream("POST", "/v1/ask:stream", json={"question": question}) as response:
        response.raise_for_status()
        lines = response.iter_lines()
        for line in lines:
            if line.startswith("event: "):
                first = (time.perf_counter() - started) * 1000
                break
        for _ in lines:  # the rest, so that the next ask starts on an idle server
            pass
    return first


if __name__ == "__main__":
    raise SystemExit(main())
