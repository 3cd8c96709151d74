"""Beside other work one text runs on a one-thread session of its own: same vector."""

from __future__ import annotations

import numpy as np

from ragcore.config import DEFAULT_EMBEDDER
from ragcore.inference.embedder import OnnxEmbedder, beside_other_work
from ragcore.inference.models import embedder_spec


def test_a_single_text_beside_other_work_gets_the_same_vector():
    texts = [
        "how often should the pump seal be replaced",
        "E4027",
        "Öltemperatur über 65 °C — Kühler prüfen, Lüfter reinigen. " * 8,
    ]
    with OnnxEmbedder(embedder_spec(DEFAULT_EMBEDDER), threads=2) as embedder:
        for text in texts:
            alone = embedder.embed([text])  # the configured two threads
            with beside_other_work():
                beside = embedder.embed([text])  # the one-thread session
                batch = embedder.embed([text, text])  # a batch keeps the two threads
            assert beside.shape == (1, embedder.dimension)
            assert np.array_equal(beside, alone), text
            assert np.array_equal(batch[0], alone[0]), text
