"""The embedder graphs side by side: session.run time on the same batches, and how far
each graph's vectors are from the shipped one's.

The texts are the first ``--documents`` SciFact train documents (title and text, as
ingest embeds a one-chunk document), tokenized once, sorted by length and cut into the
batches the embedder plans (``batch_size`` / ``batch_tokens``). Each graph gets its own
session, with its manifest settings (threads, disabled optimizers), and every round runs
every graph over all the batches in rotating order, timing only ``session.run``. Then
one query at a time (``--queries`` train queries) is timed the same way. Medians of the
rounds, and each graph's ratio to the shipped graph from the same rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np
from _common import DEFAULT_BEIR, cpu_description, cpu_line, median

from ragcore.config import DEFAULT_THREADS, default_embedder
from ragcore.evaluation.beir import open_beir
from ragcore.inference.embedder import OnnxEmbedder, model_inputs, pool
from ragcore.inference.models import embedder_names, embedder_spec
from ragcore.ingest.loaders import load_file

SHIPPED = "all-MiniLM-L6-v2"


def timed(session, output: str, batches) -> tuple[float, np.ndarray]:
    """Seconds in session.run over ``batches``, and the pooled vectors."""
    total, vectors = 0.0, []
    for feed, mask in batches:
        began = time.perf_counter()
        hidden = session.run([output], feed)[0]
        total += time.perf_counter() - began
        vectors.append(pool(hidden, mask))
    return total, np.vstack(vectors)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--beir", type=Path, default=DEFAULT_BEIR, help="BEIR folder or .tgz")
    parser.add_argument("--documents", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS)
    parser.add_argument(
        "--embedder",
        action="append",
        default=[],
        help="manifest name (repeatable; default: every embedder in the manifest)",
    )
    parser.add_argument("--cache-dir", type=Path, default=Path.home() / ".cache" / "ragcore-bench")
    args = parser.parse_args()

    names = args.embedder or embedder_names()
    if SHIPPED not in names:
        names = [SHIPPED, *names]
    data = open_beir(args.beir, "train", args.cache_dir)
    documents = load_file(data.corpus, "corpus")[: args.documents]
    texts = [f"{d.title}\n{d.text}" if d.title else d.text for d in documents]
    queries = [q for _, q in sorted(data.queries.items())][: args.queries]
    embedders = {n: OnnxEmbedder(embedder_spec(n), threads=args.threads) for n in names}
    sessions = {n: e._load()[0] for n, e in embedders.items()}
    tokenizer = embedders[SHIPPED]._load()[1]  # one tokenizer file for all (the manifest's)
    encodings = sorted(tokenizer.encode_batch(texts), key=lambda e: len(e.ids))
    plan = embedders[SHIPPED].plan_batches([len(e.ids) for e in encodings])
    inputs = {n: {i.name for i in s.get_inputs()} for n, s in sessions.items()}
    batches = {n: [model_inputs([encodings[i] for i in m], inputs[n]) for m in plan] for n in names}
    queried = tokenizer.encode_batch(queries)
    singles = {n: [model_inputs([e], inputs[n]) for e in queried] for n in names}
    positions = sum(len(e.ids) for e in encodings)
    print(
        f"{len(texts)} texts, {positions} token positions in {len(plan)} batches; "
        f"{len(queries)} queries; threads {args.threads}; default {default_embedder()}; "
        f"load average {os.getloadavg()[0]:.2f}; {cpu_line()}",
        flush=True,
    )
    batch_s: dict[str, list[float]] = {n: [] for n in names}
    query_ms: dict[str, list[float]] = {n: [] for n in names}
    vectors: dict[str, np.ndarray] = {}
    for round_number in range(args.rounds):
        order = names[round_number % len(names) :] + names[: round_number % len(names)]
        for name in order:
            output = embedder_spec(name).output
            seconds, vectors[name] = timed(sessions[name], output, batches[name])
            batch_s[name].append(seconds)
            per_query = [timed(sessions[name], output, [q])[0] for q in singles[name]]
            query_ms[name].append(1000 * median(per_query))
        print(
            f"round {round_number + 1}: "
            + ", ".join(f"{n} {batch_s[n][-1]:.1f} s / {query_ms[n][-1]:.2f} ms" for n in names),
            flush=True,
        )
    rows = []
    for name in names:
        cosine = np.sum(vectors[name] * vectors[SHIPPED], axis=1)
        ratio = median([a / b for a, b in zip(batch_s[name], batch_s[SHIPPED])])
        query_ratio = median([a / b for a, b in zip(query_ms[name], query_ms[SHIPPED])])
        rows.append(
            {
                "embedder": name,
                "batches_s": round(median(batch_s[name]), 2),
                "batches_vs_shipped": round(ratio, 3),
                "query_p50_ms": round(median(query_ms[name]), 2),
                "query_vs_shipped": round(query_ratio, 3),
                "cosine_to_shipped_median": round(float(np.median(cosine)), 5),
                "cosine_to_shipped_min": round(float(cosine.min()), 5),
            }
        )
        print(
            f"{name:32s} batches {rows[-1]['batches_s']:6.1f} s ({ratio:.3f} of shipped), "
            f"query p50 {rows[-1]['query_p50_ms']:.2f} ms ({query_ratio:.3f}); cosine to "
            f"shipped median {rows[-1]['cosine_to_shipped_median']:.4f}, min "
            f"{rows[-1]['cosine_to_shipped_min']:.4f}"
        )
    print(
        json.dumps(
            {
                "benchmark": "embedder_speed",
                "threads": args.threads,
                "cpu": cpu_description(),
                "rows": rows,
            }
        )
    )


if __name__ == "__main__":
    main()
