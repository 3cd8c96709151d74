"""A process killed with SIGKILL mid-ingest loses no committed document."""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from ingest_worker import WORKER_DIMENSION, document

from ragcore import Config, Engine
from ragcore.inference.embedder import HashEmbedder

WORKER = Path(__file__).with_name("ingest_worker.py")


def _kill_mid_ingest(data_dir: Path, count: int, kind: str, after: int) -> None:
    command = [sys.executable, str(WORKER), str(data_dir), str(count), kind]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as process:
        try:
            for line in process.stdout:
                if int(line) >= after:
                    break
            process.send_signal(signal.SIGKILL)
        finally:
            process.wait(timeout=60)
    assert process.returncode == -signal.SIGKILL


def _check_consistent(engine: Engine) -> list[str]:
    store = engine.store
    ids = store.document_ids()
    duplicates = store._r.execute(
        "SELECT document_id, position FROM chunks GROUP BY 1, 2 HAVING count(*) > 1"
    ).fetchall()
    assert duplicates == []
    fts_rows = store._r.execute("SELECT count(*) FROM chunks_fts").fetchone()[0]
    assert fts_rows == engine.stats().chunks == len(engine._vectors.index)
    for doc_id in ids:
        n = int(doc_id.split("-")[1])
        keyword = engine.search(f"zqx{n}q", mode="keyword", k=1)
        assert keyword[0].document_id == doc_id
        vector = engine.search(document(n).text, mode="vector", k=3)
        assert doc_id in [h.document_id for h in vector]
    return ids


@pytest.mark.integration
@pytest.mark.slow
def test_sigkill_mid_ingest_keeps_every_committed_document(tmp_path, caplog):
    data_dir = tmp_path / "data"
    _kill_mid_ingest(data_dir, count=3000, kind="hash", after=200)
    with (
        caplog.at_level(logging.WARNING, logger="ragcore.storage"),
        Engine(Config(data_dir=data_dir), embedder=HashEmbedder(WORKER_DIMENSION)) as engine,
    ):
        committed = _check_consistent(engine)
        assert 200 <= len(committed) < 3000
        stale = any("rebuilding" in r.getMessage() for r in caplog.records)
        # Either the kill landed between a commit and the index save (rebuilt and logged),
        # or right after a save (the saved index was current); both must be consistent.
        assert stale or engine.store.meta("index_data_version") == str(engine.store.data_version())
        report = engine.ingest([document(n) for n in range(400)])
        assert report.count("added") == 400 - len(
            [i for i in committed if int(i.split("-")[1]) < 400]
        )
        _check_consistent(engine)


@pytest.mark.integration
@pytest.mark.slow
def test_sigkill_with_the_real_embedder(tmp_path, real_embedder):
    data_dir = tmp_path / "data"
    _kill_mid_ingest(data_dir, count=400, kind="onnx", after=20)
    with Engine(Config(data_dir=data_dir), embedder=real_embedder) as engine:
        assert len(_check_consistent(engine)) >= 20
