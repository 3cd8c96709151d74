"""``ragcore chat`` and ``ask --session``, run as real subprocesses on the sample knowledge base."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.process]


def ragcore(*args, data_dir, stdin: str = "", check=True):
    result = subprocess.run(
        [sys.executable, "-m", "ragcore.cli", *args, "--data-dir", str(data_dir)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if check and result.returncode != 0:
        raise AssertionError(f"exit {result.returncode}: {result.stderr}")
    return result


@pytest.fixture
def data(tmp_path, sample_data_template):
    path = tmp_path / "data"
    shutil.copytree(sample_data_template, path)
    return path


def test_chat_rewrites_follow_ups_goes_on_after_a_bad_question_and_ask_resumes(data):
    lines = "What does E4027 mean on the HP-400?\n\n" + "x" * 2100 + "\nAnd E4031?\n/history\n"
    out = ragcore("chat", "--session", "shift-1", "--json", data_dir=data, stdin=lines)
    first, second, history = [json.loads(line) for line in out.stdout.splitlines()]
    assert "more than 2000" in out.stderr  # the bad question is reported; the chat goes on
    assert first["rewritten_question"] is None and first["session_id"] == "shift-1"
    assert second["rewritten_question"] == "What does E4031 mean on the HP-400?"
    assert [t["turn"] for t in history] == [1, 2]

    shown = ragcore("ask", "Why?", "--session", "shift-1", data_dir=data).stdout
    assert shown.startswith("(searched as: Why E4031 (HP-400)?)")


def test_chat_ends_a_session_and_refuses_a_bad_id(data):
    ended = ragcore("chat", "--session", "shift-2", data_dir=data, stdin="What is E4027?\n/end\n")
    assert "session shift-2 ended" in ended.stdout
    bad = ragcore("chat", "--session", "no spaces", data_dir=data, stdin="", check=False)
    assert bad.returncode == 2 and "session id 'no spaces' is not usable" in bad.stderr
