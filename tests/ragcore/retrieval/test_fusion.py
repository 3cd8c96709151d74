"""Hybrid fusion on hand-made score arrays: each scale, document signals and siblings."""

from __future__ import annotations

import numpy as np
import pytest

from ragcore import Config
from ragcore.errors import ConfigError
from ragcore.retrieval.fusion import Signals, fuse
from ragcore.types import Fusion

VECTOR = np.array([0.9, 0.5, 0.7, 0.1])
KEYWORD = np.array([0.0, 12.0, 6.0, 3.0])


def _config(**changes) -> Config:
    settings = {"fusion": Fusion.WEIGHTED, "document_keyword_weight": 0.0, **changes}
    return Config(data_dir="unused", **settings)


def test_min_max_is_the_weighted_sum_of_scaled_scores():
    fused = fuse(Signals(10, VECTOR, KEYWORD), _config(vector_weight=0.6))
    vector = (VECTOR - 0.1) / 0.8
    keyword = KEYWORD / 12.0
    assert fused == pytest.approx(0.6 * vector + 0.4 * keyword)


def test_z_score_centres_and_scales_each_signal():
    fused = fuse(Signals(10, VECTOR, KEYWORD), _config(fusion=Fusion.ZSCORE))
    z = [(s - s.mean()) / s.std() for s in (VECTOR, KEYWORD)]
    total = 0.5 * z[0] + 0.5 * z[1]
    # reported from 0 (the worst candidate) to 1 (the best), in the same order
    assert fused == pytest.approx((total - total.min()) / (total.max() - total.min()))
    assert fused.min() == 0.0 and fused.max() == 1.0


def test_a_constant_signal_adds_no_order():
    flat = np.full(4, 2.0)
    for fusion in Fusion:
        fused = fuse(Signals(10, VECTOR, flat), _config(fusion=fusion))
        assert list(np.argsort(-fused)) == [0, 2, 1, 3], fusion


def test_rrf_credits_ranks_within_the_depth_and_only_matching_keywords():
    fused = fuse(Signals(2, VECTOR, KEYWORD), _config(fusion=Fusion.RRF, rrf_k=60))
    # vector ranks: 0, 2 within the depth of 2; keyword ranks: 1, 2 (chunk 0 has no match)
    expected = 0.5 * np.array([1 / 61, 0, 1 / 62, 0]) + 0.5 * np.array([0, 1 / 61, 1 / 62, 0])
    assert fused == pytest.approx(expected)


def test_document_keyword_signal_lifts_every_chunk_of_its_document():
    owners = np.array([10, 11, 11, 13])
    document_keyword = np.array([0.0, 8.0, 8.0, 2.0])
    signals = Signals(10, VECTOR, KEYWORD, owners, document_keyword=document_keyword)
    fused = fuse(signals, _config(document_keyword_weight=0.5))
    plain = fuse(Signals(10, VECTOR, KEYWORD), _config())
    lift = 0.5 * 0.5 * (document_keyword / 8.0 - KEYWORD / 12.0)
    assert fused == pytest.approx(plain + lift)
    only_documents = fuse(signals, _config(vector_weight=0.0, document_keyword_weight=1.0))
    assert only_documents == pytest.approx(document_keyword / 8.0)


def test_a_document_signal_not_gathered_leaves_its_share_to_the_chunk_signal():
    config = _config(document_keyword_weight=0.5, document_vector_weight=0.5)
    assert fuse(Signals(10, VECTOR, KEYWORD), config) == pytest.approx(
        fuse(Signals(10, VECTOR, KEYWORD), _config())
    )


def test_rrf_ranks_documents_not_their_chunks():
    owners = np.array([10, 11, 11, 13])
    document_vector = np.array([0.2, 0.8, 0.8, 0.4])
    signals = Signals(10, VECTOR, KEYWORD, owners, document_vector=document_vector)
    config = _config(fusion=Fusion.RRF, vector_weight=1.0, document_vector_weight=1.0)
    # documents 11, 13, 10 rank 1, 2, 3: both chunks of 11 share rank 1
    assert fuse(signals, config) == pytest.approx([1 / 63, 1 / 61, 1 / 61, 1 / 62])


def test_siblings_make_a_document_score_max_plus_a_share_of_the_rest():
    owners = np.array([10, 11, 11, 11])
    fused = fuse(Signals(10, VECTOR, KEYWORD, owners), _config(sibling_weight=0.1))
    alone = fuse(Signals(10, VECTOR, KEYWORD), _config())
    best = int(np.argmax(alone[1:])) + 1
    others = alone[1:].sum() - alone[best]
    assert fused[best] == pytest.approx(alone[best] + 0.1 * others)
    assert fused[0] == pytest.approx(alone[0])  # the only candidate of its document
    assert list(np.argsort(-fused[1:])) == list(np.argsort(-alone[1:]))  # order kept within


@pytest.mark.parametrize("fusion", list(Fusion))
def test_every_fusion_scores_from_0(fusion):
    owners = np.array([10, 11, 11, 13])
    signals = Signals(2, VECTOR, KEYWORD, owners, VECTOR[::-1].copy(), KEYWORD[::-1].copy())
    fused = fuse(signals, _config(fusion=fusion, document_keyword_weight=0.5))
    assert fused.min() >= 0.0 and fused.max() > 0.0


@pytest.mark.parametrize(
    "name", ["vector_weight", "document_keyword_weight", "document_vector_weight", "sibling_weight"]
)
@pytest.mark.parametrize("value", [-0.1, 1.5, float("nan"), True, "0.5"])
def test_fusion_weights_outside_0_to_1_are_refused(name, value):
    with pytest.raises(ConfigError, match=f"{name}.*use a number from 0 to 1"):
        _config(**{name: value})


def test_unknown_fusion_names_the_choices():
    with pytest.raises(ConfigError, match="use one of weighted, zscore, rrf"):
        _config(fusion="softmax")
