"""Optional cross-encoder reranking: the ``Reranker`` protocol and the ONNX one.

No package registry ships a cross-encoder, so deployments bring their own ONNX file in
the HuggingFace ``BertForSequenceClassification`` layout (``input_ids``,
``attention_mask``, ``token_type_ids`` -> ``logits`` [batch, 1]) with its pinned
sha256. The default configuration uses no reranker.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ragcore.errors import ModelError
from ragcore.inference.models import verify

MAX_PAIR_TOKENS = 512


@runtime_checkable
class Reranker(Protocol):
    """Scores (query, passage) pairs; a higher score means more relevant."""

    def score(self, query: str, passages: Sequence[str]) -> np.ndarray: ...

    def close(self) -> None: ...


class OnnxCrossEncoder:
    """A BERT-style cross-encoder on onnxruntime, loaded on first use."""

    def __init__(
        self,
        model_path: Path,
        sha256: str,
        tokenizer_path: Path,
        *,
        max_length: int = MAX_PAIR_TOKENS,
        threads: int = 2,
        batch_size: int = 32,
    ) -> None:
        self._model_path = Path(model_path)
        self._sha256 = sha256
        self._tokenizer_path = Path(tokenizer_path)
        self._max_length = max_length
        self._threads = threads
        self._batch_size = batch_size
        self._lock = threading.Lock()
        # onnxruntime and tokenizers objects, loaded on first use (the libraries have no types).
        self._session: Any = None
        self._tokenizer: Any = None

    def _load(self):
        with self._lock:
            if self._session is None:
                import onnxruntime as ort
                from tokenizers import Tokenizer

                how = "set reranker_path and reranker_sha256 to your cross-encoder ONNX file"
                verify(self._model_path, self._sha256, "reranker model", how)
                if not self._tokenizer_path.is_file():
                    raise ModelError(f"reranker tokenizer not found at {self._tokenizer_path}")
                tokenizer = Tokenizer.from_file(str(self._tokenizer_path))
                tokenizer.no_padding()
                tokenizer.enable_truncation(self._max_length)
                options = ort.SessionOptions()
                options.intra_op_num_threads = self._threads
                options.inter_op_num_threads = 1
                try:
                    session = ort.InferenceSession(
                        str(self._model_path), options, providers=["CPUExecutionProvider"]
                    )
                except Exception as exc:  # onnxruntime raises its own untyped errors
                    raise ModelError(f"cannot load reranker {self._model_path}: {exc}") from exc
                names = {i.name for i in session.get_inputs()}
                if not {"input_ids", "attention_mask"} <= names:
                    raise ModelError(
                        f"reranker {self._model_path} is not a cross-encoder: its "
                        f"inputs are {sorted(names)}, expected input_ids, "
                        "attention_mask and token_type_ids"
                    )
                output = session.get_outputs()[0]
                if len(output.shape) != 2:
                    raise ModelError(
                        f"reranker {self._model_path} is not a cross-encoder: its output "
                        f"{output.name!r} has shape {output.shape}, expected logits "
                        "[batch, labels]"
                    )
                self._tokenizer, self._session, self._inputs = tokenizer, session, names
        return self._session, self._tokenizer

    def score(self, query: str, passages: Sequence[str]) -> np.ndarray:
        if not passages:
            return np.zeros(0, dtype=np.float32)
        session, tokenizer = self._load()
        encodings = tokenizer.encode_batch([(query, p) for p in passages])
        out = np.empty(len(passages), dtype=np.float32)
        for begin in range(0, len(encodings), self._batch_size):
            batch = encodings[begin : begin + self._batch_size]
            width = max(len(e.ids) for e in batch)
            ids = np.zeros((len(batch), width), dtype=np.int64)
            types, mask = np.zeros_like(ids), np.zeros_like(ids)
            for row, e in enumerate(batch):
                ids[row, : len(e.ids)] = e.ids
                types[row, : len(e.ids)] = e.type_ids
                mask[row, : len(e.ids)] = 1
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
            logits = session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})[0]
            out[begin : begin + len(batch)] = np.asarray(logits).reshape(len(batch), -1)[:, -1]
        return out

    def close(self) -> None:
        with self._lock:
            self._session = None
            self._tokenizer = None
