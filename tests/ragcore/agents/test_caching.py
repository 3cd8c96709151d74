"""The answer and retrieval caches: exact keys, LRU bounds, and near-duplicates that may
(and may not) share a retrieval, with the real embedder and perception."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from ragcore.agents.caching import (
    AnswerCache,
    AnswerKey,
    Caches,
    QueryEmbeddings,
    RetrievalCache,
    RetrievalKey,
    config_fingerprint,
    normalise,
)
from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.config import Config
from ragcore.scope import Scope
from ragcore.storage.filters import SearchFilters

FINGERPRINT = config_fingerprint(Config(data_dir="/tmp/x"))


@pytest.fixture(scope="module")
def agent():
    return PerceptionAgent(clock=lambda: date(2026, 12, 2), nlp=None)


def key(question: str, **changes) -> AnswerKey:
    parts = dict(
        filters=SearchFilters(), scope=Scope.ALL, max_rounds=3, config=FINGERPRINT, data_version=7
    )
    parts.update(changes)
    return AnswerKey.of(question, **parts)


def test_case_spaces_and_closing_punctuation_do_not_change_a_question():
    assert (
        normalise("  What does  E4027 mean?! ")
        == normalise("what does e4027 mean")
        == ("what does e4027 mean")
    )
    assert key("What does E4027 mean?") == key("what does   E4027 mean")


@pytest.mark.parametrize(
    "change",
    [
        {"data_version": 8},
        {"scope": Scope(frozenset({"manuals"}))},
        {"filters": SearchFilters(min_authority=3)},
        {"max_rounds": 1},
        {"config": config_fingerprint(Config(data_dir="/tmp/x", max_rounds=2))},
    ],
)
def test_anything_else_that_changes_an_answer_misses(change):
    cache: AnswerCache[str] = AnswerCache(8)
    cache.put(key("What does E4027 mean?"), "answer")
    assert cache.get(key("What does E4027 mean?")) == "answer"
    assert cache.get(key("What does E4027 mean?", **change)) is None
    assert (cache.hits, cache.misses) == (1, 1)


def test_settings_of_speed_do_not_change_the_fingerprint(tmp_path):
    assert config_fingerprint(Config(data_dir=tmp_path, threads=1)) == config_fingerprint(
        Config(data_dir=tmp_path / "other", threads=2, answer_cache_size=3)
    )
    assert config_fingerprint(Config(), "rules A") != config_fingerprint(Config(), "rules B")


def test_the_least_recently_used_answer_goes_first():
    cache: AnswerCache[int] = AnswerCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "b" is now the oldest
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c"), len(cache)) == (1, None, 3, 2)


def test_a_cache_of_size_zero_keeps_nothing():
    cache: AnswerCache[int] = AnswerCache(0)
    cache.put("a", 1)
    assert cache.get("a") is None and len(cache) == 0


def retrieval_key(agent, question: str, data_version: int = 1) -> RetrievalKey:
    return RetrievalKey.of(
        agent.run(question), SearchFilters(), Scope.ALL, FINGERPRINT, data_version
    )


def test_a_near_duplicate_reuses_the_retrieval(agent, real_embedder):
    cache: RetrievalCache[str] = RetrievalCache(8, cosine=0.9)
    first = "What does error E4027 mean on the HP-400?"
    again = "What does the error E4027 mean on the HP-400?"
    vectors = real_embedder.embed([first, again])
    cache.put(retrieval_key(agent, first), first, vectors[0], "retrieval 1")
    reuse = cache.find(retrieval_key(agent, again), vectors[1])
    assert reuse is not None and reuse.value == "retrieval 1" and reuse.cosine >= 0.9
    assert reuse.question == normalise(first)


@pytest.mark.parametrize(
    "other",
    [
        "What does error E4027 mean on the HP-500?",  # one model number
        "What does error E4031 mean on the HP-400?",  # one error code
        "What did error E4027 mean on the HP-400 in 2023?",  # a year
        "How do I clear error E4027 on the HP-400?",  # another action
    ],
)
def test_one_model_number_year_or_action_apart_never_shares(agent, real_embedder, other):
    cache: RetrievalCache[str] = RetrievalCache(8, cosine=0.5)  # even when very lenient
    first = "What does error E4027 mean on the HP-400?"
    vectors = real_embedder.embed([first, other])
    cache.put(retrieval_key(agent, first), first, vectors[0], "retrieval 1")
    assert cache.find(retrieval_key(agent, other), vectors[1]) is None


def test_a_new_data_version_misses_the_retrieval(agent, real_embedder):
    cache: RetrievalCache[str] = RetrievalCache(8, cosine=0.9)
    question = "What does error E4027 mean on the HP-400?"
    vector = real_embedder.embed([question])[0]
    cache.put(retrieval_key(agent, question, 1), question, vector, "retrieval 1")
    assert cache.find(retrieval_key(agent, question, 2), vector) is None


def test_the_same_perception_but_a_distant_question_misses(agent, real_embedder):
    cache: RetrievalCache[str] = RetrievalCache(8, cosine=0.9)
    first = "What is the HP-400?"
    other = "What is the warranty period and the dealer network for the HP-400?"
    assert retrieval_key(agent, first).entities == retrieval_key(agent, other).entities
    vectors = real_embedder.embed([first, other])
    cache.put(retrieval_key(agent, first), first, vectors[0], "retrieval 1")
    assert cache.find(retrieval_key(agent, other), vectors[1]) is None


def test_the_engine_caches_read_the_data_version_and_stamp_on_every_look_up(
    tmp_path, agent, real_embedder
):
    version, stamp = [1], ["mtime-1"]
    caches = Caches(
        Config(data_dir=tmp_path),
        data_version=lambda: version[0],
        embed=lambda text: real_embedder.embed([text])[0],
        stamp=lambda: stamp[0],
        today=lambda: date(2026, 12, 2),
    )
    first = caches.answer_key("What does E4027 mean?", SearchFilters(), Scope.ALL, 3)
    caches.answers.put(first, "answer")
    assert caches.answers.get(
        caches.answer_key("what does E4027 mean", SearchFilters(), Scope.ALL, 3)
    )
    version[0] = 2  # an ingest committed, perhaps by another process
    assert (
        caches.answers.get(
            caches.answer_key("What does E4027 mean?", SearchFilters(), Scope.ALL, 3)
        )
        is None
    )
    version[0], stamp[0] = 1, "mtime-2"  # the strategy file changed
    assert (
        caches.answers.get(
            caches.answer_key("What does E4027 mean?", SearchFilters(), Scope.ALL, 3)
        )
        is None
    )

    perception = agent.run("What does error E4027 mean on the HP-400?")
    reuse, ticket = caches.near_duplicate(perception, SearchFilters(), Scope.ALL)
    assert reuse is None and ticket is not None
    caches.keep_retrieval(ticket, perception.question, "retrieval 1")
    near = agent.run("What does the error E4027 mean on the HP-400?")
    reuse, _ = caches.near_duplicate(near, SearchFilters(), Scope.ALL)
    assert reuse is not None and reuse.value == "retrieval 1"


class Counting:
    """The real embedder, counting the texts it is asked to embed."""

    def __init__(self, embedder) -> None:
        self.embedder, self.texts = embedder, 0
        self.dimension, self.max_tokens = embedder.dimension, embedder.max_tokens

    def embed(self, texts):
        self.texts += len(texts)
        return self.embedder.embed(texts)

    def token_spans(self, text):
        return self.embedder.token_spans(text)

    def close(self) -> None:
        pass


def test_a_query_embedded_for_the_look_up_is_not_embedded_again_for_its_search(real_embedder):
    counting = Counting(real_embedder)
    queries = QueryEmbeddings(counting, size=2)
    first = queries.embed(["What does E4027 mean?"])
    again = queries.embed(["What does E4027 mean?"])
    assert counting.texts == 1 and np.array_equal(first, again) and first is not again
    queries.embed(["a", "b"])  # batches (ingest) are not kept
    queries.embed(["c"])
    queries.embed(["d"])  # "What does E4027 mean?" is now the least recent of three
    queries.embed(["What does E4027 mean?"])
    assert counting.texts == 6
