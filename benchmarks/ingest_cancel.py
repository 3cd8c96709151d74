"""How soon the write lock is free after an Ingest is cancelled or passes its deadline.

A server (in this process, ``create_server`` on a copy of the sample knowledge base, one
model thread per request as ``ragcore serve`` runs) receives an Ingest of
``--documents`` documents, far more than the rounds wait for. Each round, once its first
group is committed:

* cancel: the client cancels the call; from then on, the time until the engine's write
  lock can be taken (probed in this process: ``Engine._lock``, which every write holds),
  and until a DeleteDocument sent at once is answered (it takes the lock, then writes
  and fsyncs the index file);
* deadline: the same, from the moment the client hears DEADLINE_EXCEEDED
  (``--deadline`` s).

Also the chunks embedded for nobody: how many documents were committed after the cut
(should be 0), and the access log's code for each Ingest. Medians over ``--rounds``;
the last line is JSON. Goal (issue 32): the lock is free within 1 s of a cancel.

    .venv/bin/python benchmarks/ingest_cancel.py --rounds 5
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
import time
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import median  # noqa: E402

from edge_server import ServerConfig, create_server  # noqa: E402
from edge_server.client import Client  # noqa: E402
from edge_server.v1 import ragcore_pb2 as pb  # noqa: E402
from ragcore import Config, Document, Engine  # noqa: E402
from ragcore.evaluation.sample import sample_documents  # noqa: E402

STEPS = (
    "Inspect the check valve seat and spring for wear, replace the gasket if it is "
    "cracked, torque the cover bolts in a cross pattern and record it in the log book. "
)


class AccessCodes(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.codes: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        line = json.loads(record.getMessage())
        if line["method"].endswith("/Ingest"):
            self.codes.append(line["status"])


def wait_for_commit(engine: Engine, before: int) -> None:
    while engine.stats().documents == before:
        time.sleep(0.02)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each kind (5)")
    parser.add_argument("--documents", type=int, default=2000, help="documents sent (2000)")
    parser.add_argument("--deadline", type=float, default=3.0, help="the deadline, s (3)")
    args = parser.parse_args()
    codes = AccessCodes()
    access = logging.getLogger("edge_server.access")
    access.addHandler(codes)
    access.setLevel(logging.INFO)
    results: dict[str, list[dict]] = {"cancel": [], "deadline": []}
    with tempfile.TemporaryDirectory(prefix="ragcore-cancel-") as scratch_name:
        data = Path(scratch_name) / "data"
        with Engine(Config(data_dir=data)) as engine:
            engine.ingest(sample_documents())
        config = Config(data_dir=data, threads=1)
        with Engine(config) as engine:
            server = create_server(ServerConfig(engine=config, port=0), engine).start()
            server.wait_until_loaded(120)
            target = f"127.0.0.1:{server.port}"
            spare = Document(id="spare-note", text="Oil the GX-9 weekly.", knowledge_base="faq")
            try:
                with Client(target) as client:
                    for n in range(args.rounds):
                        for kind in ("cancel", "deadline"):
                            engine.ingest([spare])  # something for the timed delete to remove
                            before = engine.stats().documents
                            documents = [
                                pb.Document(
                                    id=f"r{n}-{kind}-{i:05d}",
                                    knowledge_base="faq",
                                    text=f"Note {i}. " + STEPS * 4,
                                )
                                for i in range(args.documents)
                            ]
                            stream = (pb.IngestRequest(document=d) for d in documents)
                            if kind == "cancel":
                                call = client.stub.Ingest.future(stream)
                                wait_for_commit(engine, before)
                                call.cancel()
                            else:
                                call = client.stub.Ingest.future(stream, timeout=args.deadline)
                                try:
                                    call.result()
                                except grpc.RpcError as error:
                                    assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
                            cut = time.monotonic()
                            with engine._lock:  # the write lock, as a write takes it
                                free = time.monotonic() - cut
                            client.delete("spare-note", timeout=600)
                            deleted = time.monotonic() - cut
                            server.admission.wait_idle(60)
                            kept = engine.stats().documents - before + 1  # + the spare deleted
                            time.sleep(0.5)
                            later = engine.stats().documents - before + 1
                            results[kind].append(
                                {
                                    "lock_free_seconds": round(free, 3),
                                    "delete_done_seconds": round(deleted, 3),
                                    "documents_kept": kept,
                                    "committed_after_the_cut": later - kept,
                                }
                            )
                            print(
                                f"round {n + 1} {kind}: write lock free {free:.3f} s after the "
                                f"cut, a DeleteDocument done after {deleted:.3f} s; {kept} "
                                f"documents kept, {later - kept} committed after",
                                flush=True,
                            )
            finally:
                server.stop(grace=0)
    summary = {
        kind: {
            "lock_free_seconds_median": round(median([r["lock_free_seconds"] for r in rounds]), 3),
            "lock_free_seconds_max": max(r["lock_free_seconds"] for r in rounds),
            "delete_done_seconds_median": round(
                median([r["delete_done_seconds"] for r in rounds]), 3
            ),
            "committed_after_the_cut": sum(r["committed_after_the_cut"] for r in rounds),
            "rounds": rounds,
        }
        for kind, rounds in results.items()
    }
    for kind in ("cancel", "deadline"):
        s = summary[kind]
        print(
            f"{kind}: write lock free {s['lock_free_seconds_median']:.3f} s median (max "
            f"{s['lock_free_seconds_max']:.3f} s) after the cut, a DeleteDocument done "
            f"{s['delete_done_seconds_median']:.3f} s median; {s['committed_after_the_cut']} "
            "documents committed after it"
        )
    print(f"access log codes of the Ingests: {', '.join(codes.codes)}")
    print(json.dumps({**summary, "access_log_codes": codes.codes}))


if __name__ == "__main__":
    main()
