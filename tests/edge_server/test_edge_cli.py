"""``ragcore ask --server`` and ``ragcore serve``, run as real subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.integration

QUESTION = "How often should the CP-200 seal be replaced?"


def ragcore(*args, check=True):
    result = subprocess.run(
        [sys.executable, "-m", "edge_server.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if check and result.returncode != 0:
        raise AssertionError(f"exit {result.returncode}: {result.stderr}")
    return result


def test_ask_a_server_as_text_json_and_stream(start_edge):
    _, target = start_edge()
    text = ragcore("ask", QUESTION, "--server", target, "--trace").stdout
    assert "[1]" in text and "manual" in text and "ask " in text and "perception" in text
    answer = json.loads(ragcore("ask", QUESTION, "--server", target, "--json").stdout)
    assert answer["status"] == "ANSWER_STATUS_OK" and answer["citations"]
    # Another question: a repeat is answered from the cache, with a perception event only.
    streamed = ragcore(
        "ask", "Which compressor is louder, AC-75 or AC-110?", "--server", target, "--stream"
    )
    assert "perception:" in streamed.stderr and "validation:" in streamed.stderr
    assert "[1]" in streamed.stdout
    repeated = ragcore("ask", QUESTION, "--server", target, "--stream")
    assert "perception:" in repeated.stderr and "validation:" not in repeated.stderr


def test_an_answer_that_is_not_ok_says_why_on_one_line(start_edge):
    _, target = start_edge()
    lines = ragcore(
        "ask", "What is the warranty period of the ZX-9000 submarine?", "--server", target
    ).stdout.splitlines()
    assert lines[0].startswith(("NO ANSWER: ", "UNCERTAIN: ")), lines
    assert lines[1].startswith("why: ") and len(lines[1]) > len("why: ") + 10, lines


def test_ask_a_server_with_a_token(start_edge, tmp_path):
    tokens = tmp_path / "tokens"
    tokens.write_text("reader reader-token-0123456789\n")
    _, target = start_edge(tokens_file=tokens)
    refused = ragcore("ask", QUESTION, "--server", target, check=False)
    assert refused.returncode == 2 and "UNAUTHENTICATED" in refused.stderr
    assert (
        "[1]"
        in ragcore("ask", QUESTION, "--server", target, "--token", "reader-token-0123456789").stdout
    )


def test_ask_and_search_a_server_with_the_local_filter_options(start_edge):
    _, target = start_edge()
    answer = json.loads(
        ragcore(
            "ask", QUESTION, "--server", target, "--kb", "faq", "--max-rounds", "1", "--json"
        ).stdout
    )
    assert answer["rounds"] == 1
    assert {c["knowledge_base"] for c in answer["citations"]} <= {"faq"}
    hits = json.loads(
        ragcore(
            "search",
            "seal replacement",
            "--server",
            target,
            "--kb",
            "manuals",
            "--after",
            "2024-01-01",
            "-k",
            "3",
            "--mode",
            "keyword",
            "--json",
        ).stdout
    )
    assert 1 <= len(hits) <= 3
    assert all(h["knowledge_base"] == "manuals" and h["updated_at"] >= "2024" for h in hits)
    refused = ragcore("search", "seal", "--server", target, "-k", "-1", check=False)
    assert refused.returncode == 2 and "k must be between 1 and 100, got -1" in refused.stderr
    assert "field: k" in refused.stderr


def test_ask_an_unreachable_server_says_so():
    result = ragcore("ask", QUESTION, "--server", "127.0.0.1:1", "--timeout", "2", check=False)
    assert result.returncode == 2 and "UNAVAILABLE" in result.stderr
    assert "Traceback" not in result.stderr


def test_serve_with_bad_settings_is_a_clear_error(tmp_path):
    tokens = tmp_path / "tokens"
    tokens.write_text("reader short\n")
    result = ragcore(
        "serve", "--data-dir", str(tmp_path / "d"), "--tokens-file", str(tokens), check=False
    )
    assert (
        result.returncode == 2 and "at least 16" in result.stderr and "short" not in result.stderr
    )
    result = ragcore("serve", "--data-dir", str(tmp_path / "d"), "--port", "99999", check=False)
    assert result.returncode == 2 and "port" in result.stderr


def test_python_m_edge_server_is_serve():
    result = subprocess.run(
        [sys.executable, "-m", "edge_server", "--help"], capture_output=True, text=True, timeout=60
    )
    assert (
        result.returncode == 0 and "--tokens-file" in result.stdout and "--grace" in result.stdout
    )
