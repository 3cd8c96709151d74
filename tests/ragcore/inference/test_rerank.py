"""The optional cross-encoder: a real ONNX graph built by the tests, run by onnxruntime."""

from __future__ import annotations

import pytest
from overlap_cross_encoder import build_overlap_cross_encoder

from ragcore import Config, Engine
from ragcore.errors import (
    ConfigError,
    InvalidQueryError,
    ModelError,
    ModelMismatchError,
    ModelNotFoundError,
)
from ragcore.inference.models import models_dir
from ragcore.inference.reranker import OnnxCrossEncoder

pytestmark = pytest.mark.model  # builds and runs ONNX cross-encoder graphs

TOKENIZER = models_dir() / "all-MiniLM-L6-v2" / "tokenizer.json"


@pytest.fixture
def graph(tmp_path):
    path = tmp_path / "overlap.onnx"
    return path, build_overlap_cross_encoder(path)


def test_graph_is_deterministic(tmp_path, graph):
    assert build_overlap_cross_encoder(tmp_path / "again.onnx") == graph[1]


def test_scores_overlapping_passage_highest_in_any_batching(graph):
    path, sha = graph
    passages = [
        "Bananas are yellow fruit.",
        "Replace the pump seal every 2000 hours.",
        "The weather is mild today.",
        "Seal replacement for the pump is routine work.",
        "Nothing here matters.",
    ]
    one_batch = OnnxCrossEncoder(path, sha, TOKENIZER).score("pump seal replacement", passages)
    small = OnnxCrossEncoder(path, sha, TOKENIZER, batch_size=2).score(
        "pump seal replacement", passages
    )
    assert one_batch.tolist() == small.tolist()
    assert one_batch.argmax() == 3 and one_batch[1] > max(one_batch[2], one_batch[4])


def test_wrong_hash_missing_file_and_wrong_graph(tmp_path, graph):
    path, _ = graph
    with pytest.raises(ModelMismatchError, match=str(path)):
        OnnxCrossEncoder(path, "0" * 64, TOKENIZER).score("q", ["p"])
    with pytest.raises(ModelNotFoundError, match="not found"):
        OnnxCrossEncoder(tmp_path / "none.onnx", "0" * 64, TOKENIZER).score("q", ["p"])
    import hashlib

    from ragcore.inference.models import embedder_spec, resolve_embedder

    embedder_file, _ = resolve_embedder(embedder_spec("all-MiniLM-L6-v2"))
    digest = hashlib.sha256(embedder_file.read_bytes()).hexdigest()
    # The embedder is a valid ONNX file, but it has no logits output to rerank with.
    with pytest.raises(ModelError, match="not a cross-encoder"):
        OnnxCrossEncoder(embedder_file, digest, TOKENIZER).score("q", ["p"])


def test_engine_reranks_when_configured(tmp_path, graph, real_embedder, docs):
    path, sha = graph
    config = Config(data_dir=tmp_path / "d", reranker_path=path, reranker_sha256=sha)
    with Engine(config, embedder=real_embedder) as engine:
        engine.ingest(docs)
        hits = engine.search("personal lock and tag before servicing", k=3)
        assert all("rerank" in h.scores for h in hits)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        assert hits[0].document_id == "rule-loto"
        plain = engine.search("personal lock and tag", k=3, rerank=False)
        assert all("rerank" not in h.scores for h in plain)


def test_rerank_without_reranker_and_unpinned_config(tmp_path, engine, docs):
    engine.ingest(docs)
    with pytest.raises(InvalidQueryError, match="no reranker is configured"):
        engine.search("pump", rerank=True)
    with pytest.raises(ConfigError, match="reranker_sha256"):
        Config(data_dir=tmp_path, reranker_path=tmp_path / "x.onnx")


def test_ask_reranks_evidence_and_scores_support_with_the_cross_encoder(
    tmp_path, graph, real_embedder
):
    from ragcore.evaluation.sample import sample_documents

    path, sha = graph
    config = Config(
        data_dir=tmp_path / "data",
        reranker_path=path,
        reranker_sha256=sha,
        reranker_tokenizer_path=TOKENIZER,
    )
    with Engine(config, embedder=real_embedder) as engine:
        engine.ingest(sample_documents())
        plain = Engine(Config(data_dir=tmp_path / "data"), embedder=real_embedder)
        with plain:
            unranked = plain.ask("What torque for the HP-400 platen bolts?")
        answer = engine.ask("What torque for the HP-400 platen bolts?")
    assert answer.status == "ok", answer.issues
    assert [c.document_id for c in answer.citations] == ["manual-hp400-v2"]
    assert "52 N·m" in answer.text
    # The cross-encoder (a token-overlap graph) ordered the evidence, not the fusion.
    order = [e.chunk_id for e in answer.evidence]
    assert order != [e.chunk_id for e in unranked.evidence]
