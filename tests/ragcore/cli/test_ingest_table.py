"""``ragcore ingest-table``, run as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ragcore import Engine
from ragcore.evaluation.sample import SAMPLE_TABLES

pytestmark = pytest.mark.integration


def ragcore(*args, data_dir):
    return subprocess.run(
        [sys.executable, "-m", "ragcore.cli", *args, "--data-dir", str(data_dir)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_ingest_table_loads_reports_and_refuses_a_bad_file(tmp_path):
    data = tmp_path / "data"
    schema = str(SAMPLE_TABLES / "shortages.toml")
    csv = str(SAMPLE_TABLES / "shortages.csv")
    shown = ragcore("ingest-table", csv, "--table", "shortages", "--schema", schema, data_dir=data)
    assert shown.returncode == 0, shown.stderr
    assert "loaded table shortages from shortages.csv: 736 rows" in shown.stdout
    assert "ingest-table: 736 rows" in shown.stderr

    bad = tmp_path / "bad.csv"
    lines = (SAMPLE_TABLES / "shortages.csv").read_text("utf-8").splitlines()
    bad.write_text("\n".join([*lines[:3], lines[3].rsplit(",", 1)[0] + ",many"]) + "\n")
    refused = ragcore(
        "ingest-table", str(bad), "--table", "shortages", "--schema", schema, data_dir=data
    )
    assert refused.returncode == 2
    assert "bad.csv: row 3, column 'shortage_rate': 'many' is not a number" in refused.stderr
    with Engine.open(data) as engine:  # the table loaded first is still there
        assert [(t.source, t.row_count) for t in engine.list_tables()] == [("shortages.csv", 736)]

    out = ragcore(
        "ingest-table", csv, "--table", "shortages", "--schema", schema, "--json", data_dir=data
    )
    report = json.loads(out.stdout)
    assert report["rows"] == 736 and report["time_column"] == "month"
    assert report["measures"] == ["shortage_rate", "orders", "short_orders", "fill_rate"]


def test_ingest_table_needs_table_and_schema(tmp_path):
    result = ragcore("ingest-table", "x.csv", data_dir=tmp_path / "data")
    assert result.returncode == 2 and "--table" in result.stderr
