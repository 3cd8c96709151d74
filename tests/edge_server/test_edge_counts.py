"""One count: an AskStream's retrieval events add up to its result's ``searches``, and its
``elapsed_ms`` never goes back, whether the run searched, retried, reused a
near-duplicate's retrieval or was answered from the answer cache."""

from __future__ import annotations

import pytest

from edge_server.client import Client
from edge_server.v1 import ragcore_pb2 as pb

pytestmark = pytest.mark.integration

QUESTION = "How often should the CP-200 seal be replaced?"
NEAR_DUPLICATE = "How often should the seal of the CP-200 be replaced?"
RETRIES = "What does the CP-200 weigh?"  # no document gives it: the answerer retries


def counted(events: list[pb.AskEvent]) -> tuple[int, pb.Answer]:
    """The searches the retrieval events add up to, and the result (checked last, once)."""
    assert events and events[-1].HasField("result")
    assert sum(e.HasField("result") for e in events) == 1
    elapsed = [e.elapsed_ms for e in events]
    assert elapsed == sorted(elapsed), f"elapsed_ms went back: {elapsed}"
    return sum(e.retrieval.searches for e in events if e.HasField("retrieval")), events[-1].result


def test_retrieval_events_add_up_to_the_results_searches_cached_or_not(start_edge):
    _, target = start_edge()
    with Client(target) as client:
        fresh, first = counted(list(client.ask_stream(QUESTION)))
        again, repeat = counted(list(client.ask_stream(QUESTION)))
        near, reused = counted(list(client.ask_stream(NEAR_DUPLICATE)))
        retried_events = list(client.ask_stream(RETRIES))
        retried, last = counted(retried_events)
        unary = client.ask(QUESTION)  # cached too: its count is this call's
    assert not first.cached and fresh == first.searches >= 1
    assert repeat.cached and again == repeat.searches == 0
    assert not reused.cached and near == reused.searches
    assert retried == last.searches and last.rounds >= 2
    assert sum(e.HasField("retry") for e in retried_events) == last.rounds - 1
    assert unary.cached and unary.searches == 0
