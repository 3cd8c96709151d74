"""How soon ``ragcore serve`` exits after SIGTERM with a large Ingest in flight.

Each round copies a data directory holding the sample knowledge base, starts
``python -m edge_server --grace G`` on it (``--processes`` as given: 1 is the server
itself, 2 the supervisor and two children), streams an Ingest of ``--documents``
documents (about ten seconds of embedding per thousand on 2 cores: far longer than the
grace period), waits until its first group is committed, sends SIGTERM and times the
process's exit. Also: the client's status, and the documents kept (committed groups).

The contract (issue 32): the process exits within ``--grace`` + 2 s of SIGTERM, whatever
is in flight. The last line is JSON with every figure; the median is over ``--rounds``.

    .venv/bin/python benchmarks/shutdown_bound.py --grace 10 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import median  # noqa: E402

from edge_server.client import Client  # noqa: E402
from edge_server.v1 import ragcore_pb2 as pb  # noqa: E402
from ragcore import Config, Engine  # noqa: E402
from ragcore.evaluation.sample import sample_documents  # noqa: E402

STEPS = (
    "Inspect the check valve seat and spring for wear, replace the gasket if it is "
    "cracked, torque the cover bolts in a cross pattern and record it in the log book. "
)


def template(scratch: Path) -> Path:
    path = scratch / "template"
    with Engine(Config(data_dir=path)) as engine:
        engine.ingest(sample_documents())
    return path


def one_round(data: Path, grace: float, processes: int, count: int) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAGCORE_")}
    env["PYTHONPATH"] = str(ROOT)
    log = data.parent / f"{data.name}.log"
    command = [sys.executable, "-m", "edge_server", "--data-dir", str(data), "--port", "0"]
    command += ["--grace", str(grace), "--processes", str(processes)]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=sink, stderr=sink)
    try:
        target = None
        deadline = time.monotonic() + 120
        while target is None:
            found = re.search(r"listening on 127\.0\.0\.1:(\d+)", log.read_text("utf-8", "replace"))
            if found:
                target = f"127.0.0.1:{found.group(1)}"
            elif process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start:\n{log.read_text()}")
            else:
                time.sleep(0.1)
        with Client(target) as client:
            client.wait_until_serving(timeout=120)
            before = client.stats().documents
        documents = [
            pb.Document(id=f"bulk-{i:05d}", knowledge_base="faq", text=f"Note {i}. " + STEPS * 4)
            for i in range(count)
        ]
        outcome: dict[str, object] = {}

        def ingest() -> None:
            with Client(target) as client:
                try:
                    client.ingest(documents, timeout=3600)
                    outcome["code"] = "OK"
                except grpc.RpcError as error:
                    outcome["code"] = error.code().name
                    outcome["heard"] = time.monotonic()

        thread = threading.Thread(target=ingest, daemon=True)
        thread.start()
        with Client(target) as client:
            while client.stats().documents == before:
                time.sleep(0.05)
        signalled = time.monotonic()
        process.send_signal(signal.SIGTERM)
        code = process.wait(grace + 120)
        took = time.monotonic() - signalled
        thread.join(30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    with Engine(Config(data_dir=data)) as engine:
        stats = engine.stats()
    heard = outcome.get("heard")
    return {
        "exit_seconds": round(took, 3),
        "exit_code": code,
        "client_status": outcome.get("code"),
        "client_told_after_seconds": round(heard - signalled, 3)
        if isinstance(heard, float)
        else None,
        "documents_kept": stats.documents - before,
        "whole": stats.chunks == stats.vectors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--grace", type=float, default=10.0, help="--grace of the server (10)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (5)")
    parser.add_argument("--documents", type=int, default=2000, help="documents ingested (2000)")
    parser.add_argument(
        "--processes", type=int, default=1, help="--processes of the server (1; 2: supervised)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ragcore-shutdown-") as scratch_name:
        scratch = Path(scratch_name)
        base = template(scratch)
        rounds = []
        for n in range(args.rounds):
            data = scratch / f"round-{n}"
            shutil.copytree(base, data)
            result = one_round(data, args.grace, args.processes, args.documents)
            rounds.append(result)
            print(
                f"round {n + 1}: exit {result['exit_seconds']:.2f} s after SIGTERM "
                f"(code {result['exit_code']}), client {result['client_status']} after "
                f"{result['client_told_after_seconds']} s, {result['documents_kept']} documents "
                f"kept, whole: {result['whole']}",
                flush=True,
            )
            shutil.rmtree(data)
    exits = [r["exit_seconds"] for r in rounds]
    summary = {
        "grace_seconds": args.grace,
        "processes": args.processes,
        "documents": args.documents,
        "exit_seconds_median": round(median(exits), 3),
        "exit_seconds_max": max(exits),
        "bound_seconds": args.grace + 2,
        "within_bound": all(e <= args.grace + 2 for e in exits),
        "rounds": rounds,
    }
    print(
        f"median exit {summary['exit_seconds_median']:.2f} s after SIGTERM (max "
        f"{summary['exit_seconds_max']:.2f} s) with --grace {args.grace:g}: bound "
        f"{args.grace + 2:g} s {'met' if summary['within_bound'] else 'MISSED'}"
    )
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
