"""False reuse of the near-duplicate retrieval cache on the golden sets (no asking).

Every pair of golden questions (the bundled single-turn set and the held-out set) is
checked the way ``RetrievalCache`` would: the same ``RetrievalKey`` (entities,
constraints, action, route, sides) and a question-embedding cosine at or above the
threshold means the second would reuse the first's retrieval. Prints how many pairs
would share, each of them to judge by eye, the false reuses among them (pairs that differ
in a model number, error code, part number or year: goal 0), and the pairs that the
embedding alone would have shared (cosine above the threshold, different keys) — what
the key protects against.
"""

from __future__ import annotations

import argparse
import itertools
import re
from pathlib import Path

import numpy as np

from ragcore.agents.caching import RetrievalKey, normalise
from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.config import DEFAULT_RETRIEVAL_REUSE_COSINE, Config
from ragcore.evaluation.golden import SAMPLE_GOLDEN, load_golden
from ragcore.inference.embedder import OnnxEmbedder
from ragcore.inference.models import embedder_spec
from ragcore.scope import Scope
from ragcore.storage.filters import SearchFilters

HELDOUT = Path(__file__).resolve().parent / "heldout_golden.jsonl"
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--golden", type=Path, nargs="*", default=[SAMPLE_GOLDEN, HELDOUT])
    parser.add_argument("--cosine", type=float, default=DEFAULT_RETRIEVAL_REUSE_COSINE)
    args = parser.parse_args()

    questions = [q.question for path in args.golden for q in load_golden(path)]
    agent = PerceptionAgent()
    perceptions = [agent.run(q) for q in questions]
    keys = [RetrievalKey.of(p, SearchFilters(), Scope.ALL, "", 0) for p in perceptions]
    embedder = OnnxEmbedder(embedder_spec(Config().embedder), threads=2)
    vectors = embedder.embed(questions)
    vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    embedder.close()

    shared, false_reuse, embedding_only = [], [], []
    for i, j in itertools.combinations(range(len(questions)), 2):
        if normalise(questions[i]) == normalise(questions[j]):
            continue
        cosine = float(vectors[i] @ vectors[j])
        if cosine < args.cosine:
            continue
        pair = (round(cosine, 3), questions[i], questions[j])
        if keys[i] != keys[j]:
            embedding_only.append(pair)
            continue
        shared.append(pair)
        if _differs(perceptions[i], perceptions[j], questions[i], questions[j]):
            false_reuse.append(pair)
    pairs = len(questions) * (len(questions) - 1) // 2
    print(f"{len(questions)} questions, {pairs} pairs, cosine >= {args.cosine}")
    print(f"pairs that would share a retrieval: {len(shared)}")
    for pair in shared:
        print(f"  {pair[0]}  {pair[1]!r}  ~  {pair[2]!r}")
    print(f"false reuse (one identifier or year apart): {len(false_reuse)}")
    print(f"shared by the embedding alone, kept apart by the key: {len(embedding_only)}")
    for pair in embedding_only:
        print(f"  {pair[0]}  {pair[1]!r}  |  {pair[2]!r}")


def _differs(a, b, qa: str, qb: str) -> bool:
    return set(a.identifiers) != set(b.identifiers) or set(_YEAR.findall(qa)) != set(
        _YEAR.findall(qb)
    )


if __name__ == "__main__":
    main()
