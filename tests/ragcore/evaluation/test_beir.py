"""The BEIR evaluation harness on a small real dataset written in the test."""

from __future__ import annotations

import json
import math

import pytest

from ragcore import Config
from ragcore.errors import InvalidInputError
from ragcore.evaluation.beir import evaluate_beir, mrr_at, ndcg_at, recall_at


def test_metrics_by_hand():
    relevant = {"a": 1, "b": 2}
    assert ndcg_at(["b", "a", "x"], relevant) == pytest.approx(1.0)
    dcg = 1 / math.log2(3) + 2 / math.log2(4)
    idcg = 2 + 1 / math.log2(3)
    assert ndcg_at(["x", "a", "b"], relevant) == pytest.approx(dcg / idcg)
    assert recall_at(["a", "x"], relevant) == 0.5
    assert mrr_at(["x", "y", "b"], relevant) == pytest.approx(1 / 3)
    assert mrr_at(["x"], relevant) == 0.0


def _write_beir(folder):
    (folder / "qrels").mkdir(parents=True)
    corpus = [
        ("d1", "Pump seals", "Mechanical seals of centrifugal pumps wear out after 2000 hours."),
        ("d2", "Compressor drains", "Drain the receiver tank of an air compressor every day."),
        ("d3", "Generator oil", "Change the generator engine oil every 250 running hours."),
        ("d4", "Lockout", "Isolate all energy sources and lock them before maintenance."),
    ]
    (folder / "corpus.jsonl").write_text(
        "\n".join(json.dumps({"_id": i, "title": t, "text": x}) for i, t, x in corpus), "utf-8"
    )
    queries = [
        ("q1", "when do pump seals wear out"),
        ("q2", "how often to change generator oil"),
        ("q3", "lock energy sources before servicing"),
        ("q9", "not judged"),
    ]
    (folder / "queries.jsonl").write_text(
        "\n".join(json.dumps({"_id": i, "text": t}) for i, t in queries), "utf-8"
    )
    (folder / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td3\t1\nq3\td4\t1\n", "utf-8"
    )


@pytest.mark.model
@pytest.mark.parametrize("mode", ["keyword", "vector", "hybrid"])
def test_eval_on_a_tiny_beir_dataset(tmp_path, mode):
    _write_beir(tmp_path / "beir")
    result = evaluate_beir(
        tmp_path / "beir",
        split="test",
        mode=mode,
        config=Config(data_dir=tmp_path / "unused"),
        cache_dir=tmp_path / "c",
    )
    assert result["queries"] == 3 and result["mode"] == mode
    assert result["ndcg@10"] == 1.0 and result["recall@100"] == 1.0 and result["mrr@10"] == 1.0
    again = evaluate_beir(
        tmp_path / "beir",
        split="test",
        mode=mode,
        config=Config(data_dir=tmp_path / "unused"),
        cache_dir=tmp_path / "c",
    )
    assert again["data_dir"] == result["data_dir"]  # the ingested corpus is cached


def test_unknown_split_is_named(tmp_path):
    _write_beir(tmp_path / "beir")
    with pytest.raises(InvalidInputError, match="no 'dev' split; it has test"):
        evaluate_beir(
            tmp_path / "beir",
            split="dev",
            mode="hybrid",
            config=Config(data_dir=tmp_path),
            cache_dir=tmp_path / "c",
        )
