"""What a follow-up costs before retrieval: the rewrite of every turn of a conversations
file, with the conversation kept as a session keeps it.

For each turn after the first, times (a) ``follow_up`` alone — the rewrite — and (b) what
a turn in a session adds to a turn asked alone: reading the previous turn's question
again (kept by the agent from that turn), the rewrite, and reading the rewrite when there
is one — as sessions read it (``read_previous``, ``read_rewrite``: the spaCy entities
of the turns it was made of, found again by their text) and, for comparison in the same
run, read afresh (``run``: spaCy run again on the rewrite, ``added_rerun_ms``). The
perception of the turn itself is paid with or without a session and is not counted.
Prints the p50 / p95 of each over ``--rounds`` passes (goal: the rewrite adds ≤ 2 ms p50).

    python benchmarks/followup_latency.py [--conversations FILE] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from _common import percentile

from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.agents.perception.conversation import (
    TurnState,
    summarise,
    turn_state,
    turn_summary,
)
from ragcore.evaluation.conversations import SAMPLE_CONVERSATIONS, load_conversations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=Path, default=SAMPLE_CONVERSATIONS)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    conversations = load_conversations(args.conversations)
    rewrite_ms: list[float] = []
    added_ms: list[float] = []
    rerun_ms: list[float] = []
    rewritten = turns = 0
    for _ in range(args.rounds):
        agent = PerceptionAgent()  # a fresh one each pass: no reading kept from the last
        agent.warm_up()
        for conversation in conversations:
            kept: list[TurnState] = []
            for turn in conversation.turns:
                perception = agent.run(turn.question)
                started = time.perf_counter()  # as Answerer.answer reads a turn in a session
                previous = agent.read_previous(kept)
                begun = time.perf_counter()
                found = agent.follow_up(perception, previous, tuple(kept))
                done = time.perf_counter()
                if found is not None and previous is not None:
                    perception = agent.read_rewrite(found, perception, previous, kept)
                ended = time.perf_counter()
                if found is not None:
                    agent.run(found.question)  # read afresh, for comparison
                rerun = time.perf_counter() - ended
                if kept:
                    rewrite_ms.append((done - begun) * 1000)
                    added_ms.append((ended - started) * 1000)
                    rerun_ms.append((done - started + rerun) * 1000)
                    turns += 1
                    rewritten += found is not None
                summary = summarise(perception) | turn_summary(perception, (), found is not None)
                kept.insert(0, turn_state(perception.question, json.loads(json.dumps(summary))))
    print(
        json.dumps(
            {
                "turns_timed": turns,
                "rewritten": rewritten,
                "rewrite_ms": {
                    "p50": round(percentile(rewrite_ms, 50), 3),
                    "p95": round(percentile(rewrite_ms, 95), 3),
                },
                "added_ms": {
                    "p50": round(percentile(added_ms, 50), 3),
                    "p95": round(percentile(added_ms, 95), 3),
                },
                "added_rerun_ms": {
                    "p50": round(percentile(rerun_ms, 50), 3),
                    "p95": round(percentile(rerun_ms, 95), 3),
                },
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
