"""``ragcore migrate``, run as a real subprocess: a data directory to PostgreSQL and back
(no model is loaded), progress on stderr, the summary on stdout, and exit 2 with a
message for a target it refuses."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.integration


def ragcore(*args, check=True, env=None):
    result = subprocess.run(
        [sys.executable, "-m", "ragcore.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    if check and result.returncode != 0:
        raise AssertionError(f"exit {result.returncode}: {result.stderr}")
    return result


def test_migrate_to_postgres_and_back(tmp_path, sample_data_template, postgres_url):
    source = tmp_path / "source"
    shutil.copytree(sample_data_template, source)
    out = ragcore("migrate", "--data-dir", str(source), "--to", postgres_url, "--json")
    summary = json.loads(out.stdout)
    documents = summary["documents"]
    assert documents["copied"] == documents["total"] == 33 and documents["skipped"] == 0
    assert summary["embedder"].endswith("/384")
    assert summary["documents"]["chunks"] >= 33 and summary["sessions"]["total"] == 0
    assert summary["tables"] == {"total": 0, "copied": 0, "skipped": 0, "rows": 0}
    assert "migrate: 33/33 documents" in out.stderr

    back = tmp_path / "back"
    out = ragcore("migrate", "--store", postgres_url, "--to", str(back))
    assert "documents: 33 copied" in out.stdout and "0 already in the target" in out.stdout
    stats = json.loads(ragcore("stats", "--json", "--data-dir", str(back)).stdout)
    assert stats["documents"] == 33 and stats["vectors"] == stats["chunks"]
    assert ragcore("check", "--data-dir", str(back)).returncode == 0

    again = ragcore("migrate", "--data-dir", str(source), "--to", postgres_url)
    assert "documents: 0 copied" in again.stdout and "33 already in the target" in again.stdout


def test_migrate_refuses_a_bad_target_with_exit_2(tmp_path, sample_data_template):
    source = tmp_path / "source"
    shutil.copytree(sample_data_template, source)
    result = ragcore("migrate", "--data-dir", str(source), "--to", "mysql://h/db", check=False)
    assert result.returncode == 2 and "scheme 'mysql'" in result.stderr
    assert "Traceback" not in result.stderr
    result = ragcore("migrate", "--data-dir", str(source), "--to", str(source), check=False)
    assert result.returncode == 2 and "is the source itself" in result.stderr
    missing = tmp_path / "missing"
    result = ragcore(
        "migrate", "--data-dir", str(missing), "--to", str(tmp_path / "t"), check=False
    )
    assert result.returncode == 2 and "no ragcore data directory" in result.stderr
    assert not missing.exists() and not (tmp_path / "t").exists()
    result = ragcore("migrate", "--data-dir", str(source), check=False)
    assert result.returncode == 2 and "--to" in result.stderr


def test_migrate_help():
    out = ragcore("migrate", "--help").stdout
    assert "--to TARGET" in out and "without re-embedding" in ragcore("--help").stdout
    assert "stored embeddings" in out
