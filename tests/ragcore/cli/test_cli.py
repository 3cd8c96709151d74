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


@pytest.mark.parametrize("module", ["ragcore.cli", "ragcore"])
def test_help_lists_every_command(module):
    result = subprocess.run(
        [sys.executable, "-m", module, "--help"], capture_output=True, text=True, check=True
    )
    for command in ("ask", "ingest", "search", "stats", "delete", "eval", "demo"):
        assert command in result.stdout


def test_demo_builds_the_sample_and_answers_then_ask_uses_it(tmp_path):
    data = tmp_path / "data"
    out = json.loads(ragcore("demo", "--json", data_dir=data).stdout)
    assert out["ingested"] == 33
    statuses = {a["question"]: a["status"] for a in out["answers"]}
    assert statuses["What does error E4027 mean on the HP-400?"] == "ok"
    assert statuses["What is the tyre pressure of the A320 main landing gear?"] == "no_answer"

    answer = json.loads(
        ragcore(
            "ask",
            "Which compressor is louder, AC-75 or AC-110?",
            "--json",
            "--trace",
            data_dir=data,
        ).stdout
    )
    assert answer["status"] == "ok"
    assert {c["document_id"] for c in answer["citations"]} >= {"manual-ac75", "manual-ac110"}
    assert [c["name"] for c in answer["checks"]] == ["traceability", "timeliness", "consistency"]
    assert answer["trace"]["name"] == "ask"
    assert answer["timings_ms"]["total"] > 0

    text = ragcore("ask", "What torque for the HP-400 platen bolts?", "--trace", data_dir=data)
    assert "52 N·m" in text.stdout
    assert "manuals/manual-hp400-v2" in text.stdout
    assert "└── round 1" in text.stdout and "validation" in text.stdout


def test_ask_rejects_a_bad_question_and_bad_settings(tmp_path):
    data = tmp_path / "data"
    result = ragcore("ask", "   ", data_dir=data, check=False)
    assert result.returncode == 2
    assert "the question is empty" in result.stderr
    result = ragcore("ask", "x?", "--max-rounds", "0", data_dir=data, check=False)
    assert result.returncode == 2
    assert "max_rounds=0" in result.stderr
    result = ragcore("ask", "x?", "--llm-model", "m", data_dir=data, check=False)
    assert result.returncode == 2
    assert "llm_base_url" in result.stderr
    broken = tmp_path / "strategy.toml"
    broken.write_text("[defaults]\nk = 'many'\n", "utf-8")
    result = ragcore("ask", "x?", "--strategy", str(broken), data_dir=data, check=False)
    assert result.returncode == 2
    assert "line 2" in result.stderr and "k = 'many'" in result.stderr


def test_eval_golden_prints_three_layers(tmp_path):
    golden = tmp_path / "golden.jsonl"
    golden.write_text(
        '{"id": "s-1", "kind": "simple", "question": "What torque for the HP-400 platen '
        'bolts?", "expected_documents": ["manual-hp400-v2"], "expected_status": "ok", '
        '"expected_facts": ["52"]}\n'
        '{"id": "n-1", "kind": "no_answer", "question": "What is the boiling point of '
        'mercury?", "expected_status": "no_answer"}\n',
        "utf-8",
    )
    out = json.loads(
        ragcore("eval", "--golden", str(golden), "--json", data_dir=tmp_path / "data").stdout
    )
    assert out["questions"] == 2
    assert out["retrieval"]["hit_rate"] == 1.0
    assert out["process"]["duplicate_searches"] == 0
    assert out["generation"]["status_accuracy"] == 1.0
    assert [r["status"] for r in out["rows"]] == ["ok", "no_answer"]


def test_ask_and_search_on_an_empty_data_directory_say_how_to_fill_it(tmp_path):
    data = tmp_path / "data"
    for args in (("ask", "What does E4027 mean?"), ("search", "E4027", "--json")):
        result = ragcore(*args, data_dir=data, check=False)
        assert result.returncode == 3, result.stderr
        assert "holds no documents yet" in result.stderr and "ragcore ingest" in result.stderr
        assert "Traceback" not in result.stderr
    assert not (data / "ragcore.sqlite3").exists()  # looking did not create a store


def test_operator_commands_ingest_check_backup_rebuild_and_damage(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ac75.md").write_text(
        "---\nid: ac75\ntitle: AC-75 compressor\n---\nDrain the AC-75 receiver tank daily.",
        "utf-8",
    )
    (docs / "README.md").write_text("# About these files", "utf-8")
    (docs / "photo.png").write_bytes(b"\x89PNG")
    data = tmp_path / "data"
    # A skipped file makes the exit status 1 (a README alone would not), unless asked.
    result = ragcore("ingest", str(docs), "--kb", "manuals", data_dir=data, check=False)
    assert result.returncode == 1
    assert "skipped 2 files" in result.stdout and "photo.png: unsupported_type" in result.stdout
    assert "README.md: readme" in result.stdout
    out = json.loads(
        ragcore(
            "ingest", str(docs), "--kb", "manuals", "--json", "--skip-invalid", data_dir=data
        ).stdout
    )  # fmt: skip
    assert {s["reason"] for s in out["skipped"]} == {"readme", "unsupported_type"}

    result = ragcore("ask", "How often to drain?", "--kb", "nope", data_dir=data, check=False)
    assert result.returncode == 2 and "unknown knowledge base 'nope'" in result.stderr
    answer = json.loads(
        ragcore(
            "ask", "How often should the AC-75 tank be drained?", "--kb", "manuals",
            "--max-rounds", "1", "--json", "--trace", data_dir=data,
        ).stdout
    )  # fmt: skip
    assert answer["rounds"] == 1
    assert "filters: kb=manuals" in json.dumps(answer["trace"])

    report = json.loads(ragcore("check", "--json", data_dir=data).stdout)
    assert report["ok"] and {f["check"] for f in report["findings"]} >= {"sqlite", "vectors"}
    backup = tmp_path / "backup"
    ragcore("backup", str(backup), data_dir=data)
    assert json.loads(ragcore("check", "--json", data_dir=backup).stdout)["ok"]
    rebuilt = ragcore("rebuild-index", "--json", data_dir=data)
    assert json.loads(rebuilt.stdout)["vectors"] >= 1
    assert "missing" not in rebuilt.stderr and "WARNING" not in rebuilt.stderr  # it was sound

    # A backup of a data directory whose index file is damaged says so (exit 1); the copy
    # gets an index rebuilt from its database, and passes check.
    (index_file,) = data.glob("vectors-*.hnsw")
    index_file.write_bytes(b"\0" * index_file.stat().st_size)
    damaged_backup = tmp_path / "backup-of-damaged"
    result = ragcore("backup", str(damaged_backup), data_dir=data, check=False)
    assert result.returncode == 1, result.stderr
    assert "corrupt" in result.stderr and "rebuild-index" in result.stderr
    assert json.loads(ragcore("check", "--json", data_dir=damaged_backup).stdout)["ok"]
    assert ragcore("rebuild-index", data_dir=data).returncode == 0
    assert json.loads(ragcore("check", "--json", data_dir=data).stdout)["ok"]

    database = data / "ragcore.sqlite3"
    database.write_bytes(database.read_bytes()[:-8192] + b"\xff" * 8192)
    result = ragcore("search", "tank", data_dir=data, check=False)
    assert result.returncode == 2 and "damaged" in result.stderr
    assert "Traceback" not in result.stderr
    result = ragcore("check", data_dir=data, check=False)
    assert result.returncode == 1 and "FAILED" in result.stdout
    result = ragcore("check", data_dir=tmp_path / "typo", check=False)
    assert result.returncode == 2 and "no ragcore database" in result.stderr
