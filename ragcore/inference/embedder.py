"""Sentence embedders: the ``Embedder`` protocol, the ONNX one, and a hashing fake.

``OnnxEmbedder`` runs a sentence-transformers model exported to ONNX on the CPU:
texts are tokenized without padding, sorted by length and batched, each batch padded
only to its longest member (dynamic padding), mean-pooled over the attention mask and
L2-normalised. The ONNX session is created on first use, never by the constructor.

Within ``beside_other_work()``, one text runs on a second session with a single intra-op
thread: a hybrid search embeds its query while its keyword passes run, and there a second
thread (and its spin-wait after the run) would only contend for the core SQLite is on.
Elsewhere one text keeps the configured threads, which on an idle machine are faster for
it alone. The two sessions give the same vectors.

``embed_stream`` serves ingest: it takes batches already ordered by the caller and
tokenizes the next batch on a helper thread while onnxruntime runs the current one
(both release the GIL), one ``session.run`` per batch.
"""

from __future__ import annotations

import contextlib
import re
import threading
import zlib
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ragcore.errors import ConfigError, ModelError
from ragcore.inference.models import EmbedderSpec, resolve_embedder

_BESIDE_OTHER_WORK: ContextVar[bool] = ContextVar("ragcore_embed_beside", default=False)


@contextlib.contextmanager
def beside_other_work() -> Iterator[None]:
    """Embed one text on a single thread within: the caller runs other work meanwhile."""
    token = _BESIDE_OTHER_WORK.set(True)
    try:
        yield
    finally:
        _BESIDE_OTHER_WORK.reset(token)


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of ``dimension`` components."""

    @property
    def dimension(self) -> int: ...

    @property
    def max_tokens(self) -> int:
        """Token budget of one input, special tokens excluded."""
        ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an array of shape (len(texts), dimension)."""
        ...

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Character (start, end) of every model token of ``text``, untruncated."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class StreamingEmbedder(Embedder, Protocol):
    """An embedder that also takes pre-planned batches and overlaps their preparation."""

    @property
    def name(self) -> str:
        """What the store records as the embedder that made its vectors."""
        ...

    def plan_batches(self, lengths: Sequence[int]) -> list[list[int]]:
        """Split positions 0..n-1 (ascending ``lengths``, in tokens) into model batches."""
        ...

    def embed_stream(self, batches: Iterable[Sequence[str]]) -> Iterator[np.ndarray]:
        """The vectors of each batch of texts, in order; one model call per batch."""
        ...


class OnnxEmbedder:
    """A sentence-transformers ONNX model on onnxruntime (CPU)."""

    def __init__(
        self,
        spec: EmbedderSpec,
        *,
        model_path: Path | None = None,
        threads: int = 2,
        batch_size: int = 32,
        batch_tokens: int = 4096,
    ) -> None:
        if threads < 1:
            raise ConfigError("threads", threads, "use 1 or more threads")
        if batch_size < 1:
            raise ConfigError("batch_size", batch_size, "use a batch size of 1 or more")
        if batch_tokens < spec.max_length:
            raise ConfigError(
                "batch_tokens",
                batch_tokens,
                f"use at least the model's max length ({spec.max_length})",
            )
        self._spec = spec
        self._model_path = model_path
        self._threads = threads
        self._batch_size = batch_size
        self._batch_tokens = batch_tokens
        self._lock = threading.Lock()
        # onnxruntime and tokenizers objects, loaded on first use (the libraries have no types).
        self._session: Any = None
        self._single: Any = None
        self._model: Path | None = None
        self._tokenizer: Any = None
        self._counter: Any = None
        self._input_names: frozenset[str] = frozenset()

    @property
    def name(self) -> str:
        return self._spec.name

    @property
    def spec(self) -> EmbedderSpec:
        return self._spec

    @property
    def dimension(self) -> int:
        return self._spec.dimension

    @property
    def max_tokens(self) -> int:
        return self._spec.max_length - 2  # [CLS] and [SEP]

    def _load(self):
        with self._lock:
            if self._session is None:
                from tokenizers import Tokenizer

                model, tokenizer_file = resolve_embedder(self._spec, self._model_path)
                tokenizer = Tokenizer.from_file(str(tokenizer_file))
                tokenizer.no_padding()  # padded per batch below
                # The counting copy is never truncated: chunking needs every token.
                self._counter = Tokenizer.from_str(tokenizer.to_str())
                self._counter.no_truncation()
                tokenizer.enable_truncation(self._spec.max_length)
                session = _session(model, self._threads, self._spec.disabled_optimizers)
                self._input_names = frozenset(i.name for i in session.get_inputs())
                self._tokenizer = tokenizer
                self._model = model
                self._session = session
        return self._session, self._tokenizer

    def _single_text_session(self, session):
        """The one-thread session, made on the first single text (``session``, the batch
        one, when that has one thread too)."""
        single = self._single
        if single is None:
            with self._lock:
                if self._single is None:
                    assert self._model is not None  # _load set it with session
                    self._single = (
                        session
                        if self._threads == 1
                        else _session(self._model, 1, self._spec.disabled_optimizers)
                    )
                single = self._single
        return single

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        session, tokenizer = self._load()
        if len(texts) == 1:  # a query: no sorting or batching to do
            if _BESIDE_OTHER_WORK.get():
                session = self._single_text_session(session)
            return self._run(session, tokenizer.encode_batch(list(texts)))
        encodings = tokenizer.encode_batch(list(texts))
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for batch in self._batches(order, [len(e.ids) for e in encodings]):
            out[batch] = self._run(session, [encodings[i] for i in batch])
        return out

    def plan_batches(self, lengths: Sequence[int]) -> list[list[int]]:
        return self._batches(list(range(len(lengths))), lengths)

    def embed_stream(self, batches: Iterable[Sequence[str]]) -> Iterator[np.ndarray]:
        session, tokenizer = self._load()
        with ThreadPoolExecutor(1, thread_name_prefix="ragcore-tokenize") as helper:
            pending: Future | None = None
            for texts in batches:
                upcoming = helper.submit(tokenizer.encode_batch, list(texts))
                if pending is not None:
                    yield self._run(session, pending.result())
                pending = upcoming
            if pending is not None:
                yield self._run(session, pending.result())

    def _batches(self, order: list[int], lengths: Sequence[int]) -> list[list[int]]:
        """Consecutive runs of ``order`` of at most batch_size texts and batch_tokens tokens.

        Attention memory grows with batch x length^2: capping the padded tokens of a
        batch keeps long inputs from ballooning memory (the int8 graph's 32 x 256 batch
        fits the 600 MB budget; benchmarks/README.md, "Ingest").
        """
        batches: list[list[int]] = [[]]
        for i in order:  # ascending length, so the newest member sets the padded width
            batch = batches[-1]
            width = min(lengths[i], self._spec.max_length)
            if batch and (
                len(batch) >= self._batch_size or (len(batch) + 1) * width > self._batch_tokens
            ):
                batches.append(batch := [])
            batch.append(i)
        return batches if batches[0] else []

    def _run(self, session, encodings) -> np.ndarray:
        feeds, mask = model_inputs(encodings, self._input_names)
        hidden = session.run([self._spec.output], feeds)[0]
        return pool(hidden, mask, normalize=self._spec.normalize)

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        self._load()
        return list(self._counter.encode(text, add_special_tokens=False).offsets)

    def close(self) -> None:
        with self._lock:
            self._session = self._single = None
            self._tokenizer = None
            self._counter = None

    def __enter__(self) -> OnnxEmbedder:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


def _session(model: Path, threads: int, disabled_optimizers: Sequence[str] = ()) -> Any:
    """An onnxruntime CPU session of ``model`` running each call on ``threads`` threads,
    without the graph optimizers named in ``disabled_optimizers``."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    try:
        return ort.InferenceSession(
            str(model),
            options,
            providers=["CPUExecutionProvider"],
            disabled_optimizers=list(disabled_optimizers),
        )
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise ModelError(f"cannot load embedder model {model}: {exc}") from exc


def model_inputs(encodings, input_names: Iterable[str]) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The feeds of one ``session.run`` for ``encodings`` (tokenizers Encodings), padded
    to the longest, restricted to the graph's ``input_names``; and the attention mask."""
    width = max(len(e.ids) for e in encodings)
    ids = np.zeros((len(encodings), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    for row, encoding in enumerate(encodings):
        ids[row, : len(encoding.ids)] = encoding.ids
        mask[row, : len(encoding.ids)] = 1
    feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
    names = set(input_names)
    return {k: v for k, v in feeds.items() if k in names}, mask


def pool(hidden: np.ndarray, mask: np.ndarray, *, normalize: bool = True) -> np.ndarray:
    """Mean of the token vectors under ``mask``, optionally L2-normalised."""
    weights = mask[..., None].astype(np.float32)
    summed = (hidden * weights).sum(axis=1)
    pooled = summed / np.clip(weights.sum(axis=1), 1e-9, None)
    if normalize:
        pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
    return pooled.astype(np.float32, copy=False)


_WORD = re.compile(r"\w+", re.UNICODE)


class HashEmbedder:
    """A deterministic bag-of-hashed-words embedder for fast tests.

    Texts that share words get similar vectors, so search behaves sensibly; it is no
    substitute for the real model and is never used unless asked for.
    """

    def __init__(self, dimension: int = 64, max_tokens: int = 254) -> None:
        self._dimension = dimension
        self._max_tokens = max_tokens

    @property
    def dimension(self) -> int:
        return self._dimension

    @property
    def max_tokens(self) -> int:
        return self._max_tokens

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self._dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                out[row, zlib.crc32(word.encode()) % self._dimension] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        out[:, 0] += norms[:, 0] == 0  # an empty text still gets a unit vector
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for m in _WORD.finditer(text)]

    @property
    def name(self) -> str:
        return "HashEmbedder"

    def close(self) -> None:
        pass
