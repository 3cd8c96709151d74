"""Build a tiny, real ONNX cross-encoder for the reranker tests.

No package registry ships a cross-encoder (see MODELS.md), so the tests build one: a
graph in the HuggingFace ``BertForSequenceClassification`` layout — inputs
``input_ids``, ``attention_mask``, ``token_type_ids`` (int64, [batch, seq]), output
``logits`` (float, [batch, 1]) — that scores a (query, passage) pair by lexical
overlap: token ids are hashed into ``buckets`` (Mod), one-hot encoded, masked by the
attention mask and by segment (type 0 = query, type 1 = passage; [CLS]/[SEP] dropped),
max-pooled over the sequence into one bag per segment, and the logit is the number of
buckets both bags share. It is no language model, but it drives the real
``OnnxCrossEncoder`` path end to end: pair tokenization, token types, batching, dynamic
padding and the sha256 pin. The bytes are deterministic, so the hash is stable.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

CLS, SEP = 101, 102


def build_overlap_cross_encoder(path: Path, buckets: int = 1024) -> str:
    """Write the graph to ``path`` and return its sha256."""

    def const(name, value, dtype=np.int64):
        return numpy_helper.from_array(np.asarray(value, dtype=dtype), name)

    nodes = [
        # Which positions count: real tokens that are not [CLS] / [SEP].
        helper.make_node("Equal", ["input_ids", "cls"], ["is_cls"]),
        helper.make_node("Equal", ["input_ids", "sep"], ["is_sep"]),
        helper.make_node("Or", ["is_cls", "is_sep"], ["is_special"]),
        helper.make_node("Not", ["is_special"], ["not_special"]),
        helper.make_node("Cast", ["not_special"], ["keep_special"], to=TensorProto.FLOAT),
        helper.make_node("Cast", ["attention_mask"], ["keep_mask"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["keep_special", "keep_mask"], ["keep"]),
        helper.make_node("Cast", ["token_type_ids"], ["passage"], to=TensorProto.FLOAT),
        helper.make_node("Sub", ["one", "passage"], ["query"]),
        helper.make_node("Mul", ["keep", "query"], ["query_keep"]),
        helper.make_node("Mul", ["keep", "passage"], ["passage_keep"]),
        # Bag of hashed tokens per segment: [batch, buckets].
        helper.make_node("Mod", ["input_ids", "buckets"], ["hashed"]),
        helper.make_node("OneHot", ["hashed", "depth", "off_on"], ["onehot"], axis=-1),
        helper.make_node("Unsqueeze", ["query_keep", "last_axis"], ["query_keep3"]),
        helper.make_node("Unsqueeze", ["passage_keep", "last_axis"], ["passage_keep3"]),
        helper.make_node("Mul", ["onehot", "query_keep3"], ["query_hot"]),
        helper.make_node("Mul", ["onehot", "passage_keep3"], ["passage_hot"]),
        helper.make_node("ReduceMax", ["query_hot", "seq_axis"], ["query_bag"], keepdims=0),
        helper.make_node("ReduceMax", ["passage_hot", "seq_axis"], ["passage_bag"], keepdims=0),
        helper.make_node("Mul", ["query_bag", "passage_bag"], ["shared"]),
        helper.make_node("ReduceSum", ["shared", "last_axis"], ["logits"], keepdims=1),
    ]
    initializers = [
        const("cls", CLS),
        const("sep", SEP),
        const("buckets", buckets),
        const("depth", buckets),
        const("off_on", [0.0, 1.0], np.float32),
        const("one", 1.0, np.float32),
        const("last_axis", [-1]),
        const("seq_axis", [1]),
    ]
    inputs = [
        helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])
        for name in ("input_ids", "attention_mask", "token_type_ids")
    ]
    output = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 1])
    graph = helper.make_graph(nodes, "overlap_cross_encoder", inputs, [output], initializers)
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 18)], producer_name="ragcore-tests"
    )
    model.ir_version = 8
    onnx.checker.check_model(model)
    data = model.SerializeToString()
    Path(path).write_bytes(data)
    return hashlib.sha256(data).hexdigest()
