"""The ragcore command line, run as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.integration


def ragcore(*args, data_dir, check=True):
    result = subprocess.run(
        [sys.executable, "-m", "ragcore.cli", *args, "--data-dir", str(data_dir)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if check and result.returncode != 0:
        raise AssertionError(f"exit {result.returncode}: {result.stderr}")
    return result


def test_ingest_search_stats_delete(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ac75.md").write_text(
        "---\nid: ac75\ntitle: AC-75 compressor\nauthority: 4\n"
        "updated_at: 2024-02-01\n---\nDrain the AC-75 receiver tank "
        "daily. Rated pressure is 10 bar.",
        "utf-8",
    )
    (docs / "gx500.txt").write_text("GX-500 generator\n\nChange the oil every 250 hours.", "utf-8")
    data = tmp_path / "data"

    out = json.loads(
        ragcore("ingest", str(docs), "--kb", "manuals", "--json", data_dir=data).stdout
    )
    assert (out["added"], out["unchanged"]) == (2, 0)
    assert (
        json.loads(ragcore("ingest", str(docs), "--kb", "manuals", "--json", data_dir=data).stdout)[
            "unchanged"
        ]
        == 2
    )

    hits = json.loads(
        ragcore("search", "generator oil change", "--json", "-k", "1", data_dir=data).stdout
    )
    assert hits[0]["document_id"] == "gx500"
    hits = json.loads(
        ragcore(
            "search", "tank", "--mode", "keyword", "--after", "2024-01-01", "--json", data_dir=data
        ).stdout
    )
    assert [h["document_id"] for h in hits] == ["ac75"]
    assert hits[0]["document"]["authority"] == 4

    stats = json.loads(ragcore("stats", "--json", data_dir=data).stdout)
    assert (stats["documents"], stats["knowledge_bases"]) == (2, 1)
    assert stats["chunks"] == stats["vectors"] >= 2

    ragcore("delete", "ac75", data_dir=data)
    assert json.loads(ragcore("stats", "--json", data_dir=data).stdout)["documents"] == 1


def test_bad_input_exits_2_with_a_message_and_writes_nothing(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "good.txt").write_text("A good document.", "utf-8")
    (docs / "bad.md").write_text("---\nauthority: 7\n---\nText.", "utf-8")
    data = tmp_path / "data"
    result = ragcore("ingest", str(docs), data_dir=data, check=False)
    assert result.returncode == 2
    assert "bad.md" in result.stderr and "authority" in result.stderr
    assert "Traceback" not in result.stderr
    assert json.loads(ragcore("stats", "--json", data_dir=data).stdout)["documents"] == 0

    result = ragcore("search", "   ", data_dir=data, check=False)
    assert result.returncode == 2 and "empty" in result.stderr
    result = ragcore("search", "x", "--after", "2024-99-01", data_dir=data, check=False)
    assert result.returncode == 2 and "YYYY-MM-DD" in result.stderr
    result = ragcore("delete", "nope", data_dir=data, check=False)
    assert result.returncode == 2 and "nope" in result.stderr


def test_help_lists_every_command():
    result = subprocess.run(
        [sys.executable, "-m", "ragcore.cli", "--help"], capture_output=True, text=True, check=True
    )
    for command in ("ingest", "search", "stats", "delete", "eval", "demo"):
        assert command in result.stdout
