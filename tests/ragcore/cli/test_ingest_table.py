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
    taken = ragcore("ingest-table", csv, "--table", "shortages", "--schema", schema, data_dir=data)
    assert taken.returncode == 2
    assert "a table named 'shortages' is loaded already; load with --replace" in taken.stderr
    refused = ragcore(
        "ingest-table",
        str(bad),
        "--table",
        "shortages",
        "--schema",
        schema,
        "--replace",
        data_dir=data,
    )
    assert refused.returncode == 2
    assert "bad.csv: row 3, column 'shortage_rate': 'many' is not a number" in refused.stderr
    with Engine.open(data) as engine:  # the table loaded first is still there
        assert [(t.source, t.row_count) for t in engine.list_tables()] == [("shortages.csv", 736)]

    out = ragcore(
        "ingest-table",
        csv,
        "--table",
        "shortages",
        "--schema",
        schema,
        "--json",
        "--replace",
        data_dir=data,
    )
    report = json.loads(out.stdout)
    assert report["rows"] == 736 and report["time_column"] == "month"
    assert report["measures"] == ["shortage_rate", "orders", "short_orders", "fill_rate"]


def test_ingest_table_needs_table_and_schema(tmp_path):
    result = ragcore("ingest-table", "x.csv", data_dir=tmp_path / "data")
    assert result.returncode == 2 and "--table" in result.stderr


def test_a_store_with_tables_only_answers_table_questions_and_says_why_it_cannot(tmp_path):
    data = tmp_path / "data"
    schema = str(SAMPLE_TABLES / "shortages.toml")
    csv = str(SAMPLE_TABLES / "shortages.csv")
    loaded = ragcore("ingest-table", csv, "--table", "shortages", "--schema", schema, data_dir=data)
    assert loaded.returncode == 0, loaded.stderr
    asked = ragcore(
        "ask", "How many short orders were there in total in the East region?", data_dir=data
    )
    assert asked.returncode == 0, asked.stderr
    assert "holds no documents" not in asked.stderr
    assert "table:shortages" in asked.stdout and "why:" not in asked.stdout
    unknown = ragcore(
        "ask", "How many short orders were there in the Atlantis region?", data_dir=data
    )
    assert unknown.returncode == 0, unknown.stderr
    lines = unknown.stdout.splitlines()
    assert lines[0].startswith("NO ANSWER: ")
    assert (
        lines[1].startswith("why: table 'shortages' cannot answer this") and "Atlantis" in lines[1]
    )
    # Without documents or tables, ask still says how to fill the data directory.
    empty = ragcore("ask", "How many short orders?", data_dir=tmp_path / "empty")
    assert empty.returncode == 3 and "holds no documents yet" in empty.stderr
