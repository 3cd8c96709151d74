"""The int8 embedder graph: built reproducibly from the pinned wheel, verified at load,
and never mixed with the shipped graph in one store."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from ragcore import Config, Document, Engine
from ragcore.config import default_embedder
from ragcore.errors import (
    ConfigError,
    ModelError,
    ModelMismatchError,
    ModelNotFoundError,
    StoreError,
)
from ragcore.inference import build, models
from ragcore.inference.embedder import OnnxEmbedder
from ragcore.inference.models import (
    GraphFusion,
    built_model_path,
    embedder_names,
    embedder_spec,
    models_dir,
    resolve_embedder,
    sha256_of,
)

FAST = embedder_spec(default_embedder())  # the fused int8 graph
PREVIOUS = embedder_spec("all-MiniLM-L6-v2-qint8")  # the previous default, attention fused
SHIPPED = embedder_spec("all-MiniLM-L6-v2")


def test_manifest_names_the_built_graph_and_its_source():
    assert FAST.built and not SHIPPED.built
    assert FAST.build_from == SHIPPED.name in embedder_names()
    assert "onnx==" in FAST.built_with and "onnxruntime==" in FAST.built_with
    assert (FAST.dimension, FAST.max_length, FAST.tokenizer) == (
        SHIPPED.dimension,
        SHIPPED.max_length,
        SHIPPED.tokenizer,
    )
    assert built_model_path(FAST).parent.name == "build"


@pytest.mark.model
@pytest.mark.slow
@pytest.mark.parametrize("spec", [FAST, PREVIOUS], ids=lambda s: s.name)
def test_building_again_gives_the_pinned_bytes(tmp_path, spec):
    target = tmp_path / "again.onnx"
    assert build.build_graph(spec, target) == spec.sha256
    assert sha256_of(built_model_path(spec)) == spec.sha256  # what `make models` left


def test_a_missing_built_graph_says_to_run_make_models():
    absent = replace(FAST, file="build/absent.onnx")
    with pytest.raises(ModelNotFoundError, match="make models"):
        resolve_embedder(absent)


def test_a_changed_built_graph_is_refused(tmp_path):
    data = bytearray(built_model_path(FAST).read_bytes())
    data[len(data) // 2] ^= 0xFF
    changed = tmp_path / "changed.onnx"
    changed.write_bytes(bytes(data))
    with pytest.raises(ModelMismatchError, match="make models"):
        resolve_embedder(FAST, changed)


@pytest.mark.model
def test_a_build_that_misses_the_pin_is_not_installed(tmp_path):
    wrong = replace(FAST, sha256="0" * 64)
    target = tmp_path / "wrong.onnx"
    with pytest.raises(ModelMismatchError, match="pinned"):
        build.ensure_built(wrong, target=target)
    assert not target.exists()


def test_attention_fusion_refuses_a_graph_without_attention():
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "no-attention",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
    )
    with pytest.raises(ModelError, match="cannot fuse attention"):
        build.fuse_attention(helper.make_model(graph), heads=12)


@pytest.mark.model
def test_the_fast_graph_computes_with_int8_kernels():
    import onnx

    ops = {node.op_type for node in onnx.load(str(built_model_path(FAST))).graph.node}
    assert {"QAttention", "MatMulInteger", "DynamicQuantizeLinear", "BiasGelu"} <= ops
    assert not {"Attention", "IsNaN", "Erf"} & ops
    assert FAST.fusions == (GraphFusion.ATTENTION, GraphFusion.GELU)
    assert PREVIOUS.fusions == (GraphFusion.ATTENTION,)


@pytest.mark.model
def test_the_fused_graph_gives_the_previous_graphs_vectors():
    """GELU fused and onnxruntime's SkipLayerNormalization left out change only rounding
    (which per-batch int8 activations may amplify a little)."""
    texts = ["The pump delivers 120 litres per minute.", "Lock the breaker first.", "E07"]
    fused = OnnxEmbedder(FAST, threads=1).embed(texts)
    previous = OnnxEmbedder(PREVIOUS, threads=1).embed(texts)
    assert FAST.disabled_optimizers == ("SkipLayerNormFusion",)
    assert np.min(np.sum(fused * previous, axis=1)) > 0.99


def test_a_manifest_fusion_outside_the_vocabulary_is_refused(tmp_path, monkeypatch):
    manifest = (models_dir() / "manifest.toml").read_text("utf-8")
    (tmp_path / "manifest.toml").write_text(
        manifest.replace('fusions = ["attention", "gelu"]', 'fusions = ["attention", "softmax"]')
    )
    monkeypatch.setattr(models, "models_dir", lambda: tmp_path)
    with pytest.raises(ConfigError, match="use some of"):
        models.embedder_spec(FAST.name)


def test_gelu_fusion_refuses_a_graph_without_gelu():
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "no-gelu",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
    )
    assert build.fuse_gelu(helper.make_model(graph)) == 0


@pytest.mark.model
def test_a_store_built_with_one_graph_refuses_the_other(tmp_path):
    doc = Document(id="pump", title="Pump", text="The pump delivers 120 litres per minute.")
    with Engine(Config(data_dir=tmp_path, embedder=FAST.name)) as engine:
        engine.ingest([doc])
    with (
        Engine(Config(data_dir=tmp_path, embedder=SHIPPED.name)) as engine,
        pytest.raises(StoreError, match=f"built with embedder {FAST.name}/384") as error,
    ):
        engine.search("pump flow", mode="vector")
    assert f"configure embedder {FAST.name!r}" in str(error.value)
    assert "new data directory" in str(error.value)
    with Engine(Config(data_dir=tmp_path, embedder=FAST.name)) as engine:
        assert engine.search("pump flow", mode="vector")[0].document_id == "pump"


@pytest.mark.model
def test_with_the_default_configured_a_store_keeps_the_graph_it_was_built_with(tmp_path):
    doc = Document(id="pump", title="Pump", text="The pump delivers 120 litres per minute.")
    with Engine(Config(data_dir=tmp_path, embedder=SHIPPED.name)) as engine:
        engine.ingest([doc])  # e.g. a data directory made before the default changed
    assert Config().embedder == FAST.name
    with Engine(Config(data_dir=tmp_path)) as engine:
        assert engine.search("pump flow", mode="vector")[0].document_id == "pump"
        assert engine.embedder.name == SHIPPED.name
    with Engine(Config(data_dir=tmp_path / "new")) as engine:
        assert engine.embedder.name == FAST.name


def test_an_injected_embedder_is_recorded_by_its_own_graph(tmp_path):
    shipped = OnnxEmbedder(SHIPPED)  # the config names the other graph: the embedder wins
    with Engine(Config(data_dir=tmp_path, embedder=FAST.name), embedder=shipped) as engine:
        engine.stats()
        assert engine.store.meta("embedder") == f"{SHIPPED.name}/384"
