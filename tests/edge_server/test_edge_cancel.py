"""Work that stops when asked: an Ingest cancelled by its client, past its deadline, or
cut by a shutdown stops within one model batch, frees the write lock, keeps the groups
it committed and commits nothing after; the access log says what the client saw.

The Ingests are large (minutes of embedding on two cores) relative to every wait here,
so the tests do not depend on the machine's speed: the bounds are generous, and the
benchmark (``benchmarks/ingest_cancel.py``) measures the real figures.
"""

from __future__ import annotations

import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest

from edge_server.client import Client, error_details
from edge_server.v1 import ragcore_pb2 as pb
from ragcore.types import CancelReason

pytestmark = pytest.mark.integration

STEPS = (
    "Inspect the check valve seat and spring for wear, replace the gasket if it is "
    "cracked, torque the cover bolts in a cross pattern and record it in the log book. "
)
# Generous: the lock is free within one model batch after a cancel (about 0.2 s here).
LOCK_FREE_SECONDS = 10.0


def many_documents(count: int = 2000) -> list[pb.Document]:
    """About a minute of embedding on two cores: far more than any wait of these tests."""
    return [
        pb.Document(
            id=f"bulk-{i:04d}",
            knowledge_base="faq",
            text=f"Bulk note {i}: valve V-{i}. " + STEPS * 4,
        )
        for i in range(count)
    ]


def requests(documents):
    return (pb.IngestRequest(document=d) for d in documents)


def documents_stored(server) -> int:
    return server.engine.stats().documents


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not happen within {timeout:.0f} s")
        time.sleep(0.02)


def access_lines(caplog, method: str) -> list[dict]:
    records = [r for r in caplog.records if r.name == "edge_server.access"]
    return [
        line for r in records if (line := json.loads(r.getMessage()))["method"].endswith(method)
    ]


def seconds_until_a_write_goes_through(client: Client) -> float:
    """How long a DeleteDocument (it takes the engine's write lock) waits to be done."""
    started = time.monotonic()
    client.delete("faq-cp200-seal", timeout=LOCK_FREE_SECONDS + 30)
    return time.monotonic() - started


def test_a_cancelled_ingest_stops_frees_the_lock_and_is_logged_cancelled(start_edge, caplog):
    server, target = start_edge()
    caplog.set_level(logging.INFO, logger="edge_server.access")
    before = documents_stored(server)
    with Client(target) as client:
        call = client.stub.Ingest.future(requests(many_documents()))
        wait_for(lambda: documents_stored(server) > before, 120, "a first committed group")
        call.cancel()
        cancelled = time.monotonic()
        waited = seconds_until_a_write_goes_through(client)
        lock_free = time.monotonic() - cancelled
        assert server.admission.wait_idle(30)
        stored = documents_stored(server)
        time.sleep(1.0)
        assert documents_stored(server) == stored  # nothing committed after the cut
    assert call.cancelled()
    assert lock_free < LOCK_FREE_SECONDS, f"the write lock was free {lock_free:.1f} s after"
    assert waited < LOCK_FREE_SECONDS
    assert before < stored < before + 2000  # some kept, most dropped
    wait_for(lambda: access_lines(caplog, "/Ingest"), 10, "the Ingest's access line")
    assert [line["status"] for line in access_lines(caplog, "/Ingest")] == ["CANCELLED"]
    chunks = server.engine.stats()
    assert chunks.chunks == chunks.vectors  # what was stored is whole, with its vectors


def test_an_ingest_past_its_deadline_frees_the_lock_at_once(start_edge, caplog):
    server, target = start_edge()
    caplog.set_level(logging.INFO, logger="edge_server.access")
    with Client(target) as client:
        with pytest.raises(grpc.RpcError) as expired:
            client.ingest(many_documents(), timeout=3.0)
        ended = time.monotonic()
        seconds_until_a_write_goes_through(client)
        lock_free = time.monotonic() - ended
    assert expired.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert lock_free < LOCK_FREE_SECONDS, f"the write lock was free {lock_free:.1f} s after"
    wait_for(lambda: access_lines(caplog, "/Ingest"), 10, "the Ingest's access line")
    assert [line["status"] for line in access_lines(caplog, "/Ingest")] == ["DEADLINE_EXCEEDED"]


def test_after_the_grace_period_an_ingest_is_stopped_and_nothing_commits_after_unavailable(
    start_edge, caplog
):
    server, target = start_edge()
    caplog.set_level(logging.INFO, logger="edge_server.access")
    before = documents_stored(server)
    heard: dict[str, object] = {}

    def ingest() -> None:
        with Client(target) as client:
            try:
                client.ingest(many_documents(), timeout=300)
            except grpc.RpcError as error:
                # The store as the client hears the refusal: nothing may be added later.
                heard["stored"] = documents_stored(server)
                heard["error"] = error

    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(ingest)
        wait_for(lambda: documents_stored(server) > before, 120, "a first committed group")
        started = time.monotonic()
        server.stop(grace=1.0)
        took = time.monotonic() - started
        running.result(timeout=30)
    error = heard["error"]
    assert isinstance(error, grpc.RpcError)
    assert error.code() == grpc.StatusCode.UNAVAILABLE, error.details()
    # Told by the stopped Ingest itself (with details), or, on a machine so loaded that it
    # had not unwound within the server's UNWIND_SECONDS, by gRPC closing the call: either
    # way after its work was cancelled.
    info = error_details(error).get("ErrorInfo")
    assert info is None or info.reason == "SERVER_SHUTTING_DOWN"
    assert took < 1.0 + 10, f"stop took {took:.1f} s with a grace of 1 s"
    assert documents_stored(server) == heard["stored"] > before
    stats = server.engine.stats()
    assert stats.chunks == stats.vectors
    wait_for(lambda: access_lines(caplog, "/Ingest"), 30, "the Ingest's access line")
    assert [line["status"] for line in access_lines(caplog, "/Ingest")] == ["UNAVAILABLE"]


def test_a_shutdown_during_an_ask_stops_it_at_its_next_stage(start_edge):
    # The in-flight registry cancels Asks too: an ask started while stopping is refused.
    server, target = start_edge()
    with Client(target) as client:
        server.in_flight.cancel_all(CancelReason.SHUTDOWN)
        with pytest.raises(grpc.RpcError) as refused:
            client.ask("How often should the CP-200 seal be replaced?", timeout=30)
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    assert error_details(refused.value)["ErrorInfo"].reason == "SERVER_SHUTTING_DOWN"


def test_the_lock_is_free_for_a_second_ingest_waiting_behind_a_cancelled_one(start_edge):
    server, target = start_edge()
    before = documents_stored(server)
    late = [pb.Document(id="late-note", text="Oil the GX-9.")]
    with Client(target) as client, Client(target) as other, ThreadPoolExecutor(1) as pool:
        call = client.stub.Ingest.future(requests(many_documents()))
        wait_for(lambda: documents_stored(server) > before, 120, "a first committed group")
        waiting = pool.submit(lambda: other.ingest(late, timeout=120))
        time.sleep(0.5)  # the second Ingest now waits for the lock
        call.cancel()
        cancelled = time.monotonic()
        summary = waiting.result(timeout=LOCK_FREE_SECONDS + 30)
        took = time.monotonic() - cancelled
    assert summary.added == 1
    assert took < LOCK_FREE_SECONDS
