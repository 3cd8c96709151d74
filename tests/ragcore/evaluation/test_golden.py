"""The golden set over the sample knowledge base, and the file format's checks."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ragcore.errors import InvalidInputError
from ragcore.evaluation.golden import SAMPLE_GOLDEN, evaluate_golden, load_golden
from ragcore.evaluation.sample import sample_documents
from ragcore.types import GoldenKind

pytestmark = pytest.mark.integration


DOCUMENT_KINDS = {
    GoldenKind.SIMPLE,
    GoldenKind.COMPARISON,
    GoldenKind.TIME,
    GoldenKind.TRAP,
    GoldenKind.AMBIGUOUS,
    GoldenKind.NO_ANSWER,
}
# Kinds of table sets written apart from the code, in their authors' words.
AUTHORS_KINDS = {
    GoldenKind.AGGREGATE,
    GoldenKind.FILTER,
    GoldenKind.UNKNOWN_VALUE,
    GoldenKind.UNANSWERABLE,
}


def test_the_tables_golden_set_covers_the_table_kinds_and_real_tables():
    questions = load_golden(Path(__file__).parents[3] / "benchmarks" / "tables_golden.jsonl")
    counts = Counter(q.kind for q in questions)
    assert set(counts) == set(GoldenKind) - DOCUMENT_KINDS - AUTHORS_KINDS
    assert len(questions) >= 40
    documents = {d.id for d in sample_documents()} | {"table:inventory", "table:shortages"}
    for q in questions:
        assert set(q.expected_documents) <= documents, q.id


@pytest.mark.parametrize(
    "folder", ["tables_real", "tables_s40", "tables_s41", "tables_s42", "tables_s43"]
)
def test_the_table_sets_written_apart_from_the_code_load(folder):
    # Loading only (their kinds and fields are valid); scoring them is benchmarks' work.
    (path,) = (Path(__file__).parents[3] / "benchmarks" / folder).glob("questions*.jsonl")
    questions = load_golden(path)
    assert len(questions) == 40
    assert {q.kind for q in questions} & AUTHORS_KINDS


def test_the_bundled_golden_set_covers_every_kind_and_real_documents():
    questions = load_golden()
    assert len(questions) >= 40
    counts = Counter(q.kind for q in questions)
    assert set(counts) == DOCUMENT_KINDS
    assert all(counts[kind] >= 4 for kind in DOCUMENT_KINDS)
    ids = {d.id for d in sample_documents()}
    for q in questions:
        assert set(q.expected_documents) <= ids, q.id
        assert set(q.forbidden_documents) <= ids, q.id
        assert (q.expected_status == "no_answer") == (not q.expected_documents), q.id


def test_the_golden_set_scores_on_all_three_layers(sample_engine):
    config = sample_engine.config
    result = evaluate_golden(
        sample_engine.ask,
        load_golden(),
        max_rounds=config.max_rounds,
        support_threshold=config.support_threshold,
    )
    retrieval, process, generation = (result[k] for k in ("retrieval", "process", "generation"))
    assert process["duplicate_searches"] == 0
    assert process["rounds_max"] <= config.max_rounds
    # Floors well under the measured figures (benchmarks/README.md): a regression fails.
    assert retrieval["hit_rate"] >= 0.9
    assert retrieval["mrr"] >= 0.75
    assert generation["status_accuracy"] >= 0.85
    assert generation["no_answer_recall"] >= 0.7
    assert generation["citation_precision"] >= 0.85
    assert generation["forbidden_cited"] <= 0.05
    assert process["converged_share"] >= 0.9
    assert len(result["rows"]) == result["questions"]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("not json", "not JSON"),
        ('{"id": "a", "kind": "odd", "question": "q", "expected_status": "ok"}', "'kind'"),
        ('{"id": "a", "kind": "simple", "question": "", "expected_status": "ok"}', "'question'"),
        ('{"id": "a", "kind": "simple", "question": "q", "expected_status": "maybe"}', "status"),
        (
            '{"id": "a", "kind": "simple", "question": "q", "expected_status": "ok", '
            '"expected_documents": "doc"}',
            "'expected_documents'",
        ),
    ],
)
def test_a_bad_golden_line_is_named(tmp_path, line, problem):
    path = tmp_path / "golden.jsonl"
    good = '{"id": "ok-1", "kind": "simple", "question": "q?", "expected_status": "ok"}'
    path.write_text(f"{good}\n{line}\n", "utf-8")
    with pytest.raises(InvalidInputError, match=problem) as error:
        load_golden(path)
    assert f"{path}:2" in str(error.value)


def test_a_repeated_id_and_an_empty_file_are_errors(tmp_path):
    path = tmp_path / "golden.jsonl"
    line = '{"id": "a", "kind": "simple", "question": "q?", "expected_status": "ok"}'
    path.write_text(f"{line}\n{line}\n", "utf-8")
    with pytest.raises(InvalidInputError, match="used twice"):
        load_golden(path)
    path.write_text("\n", "utf-8")
    with pytest.raises(InvalidInputError, match="no questions"):
        load_golden(path)
    assert SAMPLE_GOLDEN.exists()
