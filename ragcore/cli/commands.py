"""The ``ragcore`` command line: ask, ingest, search, stats, delete, eval, demo."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from dataclasses import asdict, dataclass, is_dataclass, replace
from datetime import date
from pathlib import Path

from ragcore.config import FUSIONS, Config, default_data_dir
from ragcore.engine import Engine
from ragcore.errors import RagcoreError
from ragcore.evaluation.golden import SAMPLE_GOLDEN
from ragcore.ingest.pipeline import IngestProgress
from ragcore.retrieval.search import MODES, Hit
from ragcore.storage.filters import SearchFilters


def _date(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date: use YYYY-MM-DD") from None


@dataclass(frozen=True)
class Parsers:
    """The command line's parsers, for ``edge_server.cli`` to add ``serve`` and
    ``ask --server`` to: the root, its subcommands, and the options they share."""

    root: argparse.ArgumentParser
    commands: argparse._SubParsersAction
    common: argparse.ArgumentParser


def build_parser() -> argparse.ArgumentParser:
    return build_parsers().root


def build_parsers() -> Parsers:
    """Every command's parser."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help=f"data directory (default: $RAGCORE_DATA_DIR or {default_data_dir()})",
    )
    common.add_argument("--json", action="store_true", help="print machine-readable JSON")
    common.add_argument("-v", "--verbose", action="store_true", help="log more detail to stderr")

    parser = argparse.ArgumentParser(
        prog="ragcore", description="Offline, CPU-only retrieval-augmented answering."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ingest = commands.add_parser(
        "ingest",
        parents=[common],
        help="add or update documents from files",
        description="Ingest .txt, .md (front matter), .html and .jsonl (incl. BEIR corpus) files "
        "or directories. Every file is checked first: if any is invalid, nothing is "
        "written. Unchanged documents are skipped.",
    )
    ingest.add_argument("paths", nargs="+", type=Path, help="files or directories")
    ingest.add_argument(
        "--kb",
        default=None,
        help="knowledge base for documents that do not name one (default: default)",
    )

    search = commands.add_parser(
        "search",
        parents=[common],
        help="search the knowledge bases",
        description="Search chunks by vector, keyword or hybrid search.",
    )
    search.add_argument("query")
    search.add_argument("--mode", choices=MODES, default="hybrid")
    search.add_argument("-k", "--top-k", type=int, default=5, help="results to show (default 5)")
    search.add_argument(
        "--kb", action="append", default=[], help="only this knowledge base (repeatable)"
    )
    search.add_argument(
        "--doc-type", action="append", default=[], help="only this doc_type (repeatable)"
    )
    search.add_argument("--after", type=_date, help="only documents updated on/after YYYY-MM-DD")
    search.add_argument("--before", type=_date, help="only documents updated on/before YYYY-MM-DD")
    search.add_argument("--min-authority", type=int, help="only documents of authority >= N (1-5)")
    search.add_argument("--current", action="store_true", help="skip superseded documents")
    search.add_argument(
        "--rerank", action="store_true", help="rerank with the configured cross-encoder"
    )

    ask = commands.add_parser(
        "ask",
        parents=[common],
        help="answer a question from the knowledge bases, with citations",
        description="Perceive the question, plan and run retrieval tasks, write an answer "
        "that cites its sources, validate it, and retry with an adjusted plan when a check "
        "fails. The status is ok, uncertain (open issues listed) or no_answer.",
    )
    ask.add_argument("question", help="the question, in quotes")
    ask.add_argument("--trace", action="store_true", help="print the decision tree with timings")
    ask.add_argument(
        "--max-rounds", type=int, default=None, help="cap on retrieval rounds (default 3)"
    )
    ask.add_argument("--strategy", type=Path, default=None, help="strategy TOML file to use")
    ask.add_argument(
        "--llm-url",
        default=None,
        help="OpenAI-compatible endpoint (e.g. http://127.0.0.1:8080/v1) to write answers; "
        "key from $RAGCORE_LLM_API_KEY (default: extractive answers, no model)",
    )
    ask.add_argument("--llm-model", default=None, help="model name for --llm-url")

    commands.add_parser("stats", parents=[common], help="show what the data directory holds")

    delete = commands.add_parser("delete", parents=[common], help="delete a document by id")
    delete.add_argument("document_id")

    evaluate = commands.add_parser(
        "eval",
        parents=[common],
        help="measure retrieval (BEIR) or answering (golden set) quality",
        description="--beir: ingest a BEIR corpus into a cached data directory (keyed by its "
        "checksum) and print nDCG@10, Recall@100 and MRR@10 over the split's queries. "
        "--golden: ask every question of a golden file over the sample knowledge base "
        "(ingested into the cache directory) and print retrieval (hit rate, MRR), process "
        "(tasks, duplicate searches, rounds, converged share) and generation (citation "
        "precision, supported statements, status accuracy) figures.",
    )
    source = evaluate.add_mutually_exclusive_group(required=True)
    source.add_argument("--beir", type=Path, help="BEIR folder or .tgz")
    source.add_argument(
        "--golden",
        type=Path,
        nargs="?",
        const=SAMPLE_GOLDEN,
        help="golden JSONL file (default: the bundled set for the sample knowledge base)",
    )
    evaluate.add_argument("--split", default="test", help="qrels split (default: test)")
    evaluate.add_argument("--mode", choices=MODES, default="hybrid")
    evaluate.add_argument("--fusion", choices=FUSIONS, default=None)
    evaluate.add_argument("--vector-weight", type=float, default=None)
    evaluate.add_argument("--max-queries", type=int, default=None)
    evaluate.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="where corpora are ingested (default: <data-dir>/eval-cache)",
    )

    demo = commands.add_parser(
        "demo",
        parents=[common],
        help="build the sample knowledge base and answer questions from it",
        description="Ingest the bundled sample knowledge base (manuals, regulations, faq) "
        "into the data directory if needed, then answer sample questions with sources.",
    )
    demo.add_argument("questions", nargs="*", help="questions to ask (default: a few samples)")
    return Parsers(parser, commands, common)


def main(argv: list[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


def run(args: argparse.Namespace) -> int:
    """Run a parsed command on the Engine of ``--data-dir``; returns the exit status."""
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    settings = {}
    if args.command == "ask":
        settings = {
            "max_rounds": args.max_rounds,
            "strategy_path": args.strategy,
            "llm_base_url": args.llm_url,
            "llm_model": args.llm_model,
        }
    try:
        config = Config(
            data_dir=args.data_dir or default_data_dir(),
            **{k: v for k, v in settings.items() if v is not None},
        )
    except RagcoreError as exc:
        print(f"ragcore: error: {exc}", file=sys.stderr)
        return 2
    try:
        with Engine(config) as engine:
            return _COMMANDS[args.command](engine, args)
    except RagcoreError as exc:
        print(f"ragcore: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ragcore: interrupted; committed documents are kept", file=sys.stderr)
        return 130


def _progress(enabled: bool):
    if not enabled:
        return None
    last = [0.0]

    def show(p: IngestProgress) -> None:
        now = time.monotonic()
        if now - last[0] < 0.5 and p.documents_done < p.documents_total:
            return
        last[0] = now
        rate = p.chunks_done / p.seconds if p.seconds else 0.0
        end = "\n" if p.documents_done >= p.documents_total or not sys.stderr.isatty() else "\r"
        print(
            f"ingest: {p.documents_done}/{p.documents_total} documents, "
            f"{p.chunks_done} chunks, {rate:.0f} chunks/s",
            end=end,
            file=sys.stderr,
            flush=True,
        )

    return show


def _cmd_ingest(engine: Engine, args) -> int:
    from ragcore.ingest.loaders import load_path

    documents = [doc for path in args.paths for doc in load_path(path, args.kb)]
    report = engine.ingest(documents, _progress(not args.json))
    summary = {s: report.count(s) for s in ("added", "updated", "unchanged")}
    if args.json:
        _print_json(
            {
                **summary,
                "chunks": report.chunks,
                "seconds": round(report.seconds, 3),
                "documents": [asdict(o) for o in report.outcomes],
            }
        )
    else:
        print(
            f"{summary['added']} added, {summary['updated']} updated, {summary['unchanged']} "
            f"unchanged; {report.chunks} chunks in {report.seconds:.1f} s"
        )
    return 0


def _cmd_search(engine: Engine, args) -> int:
    filters = SearchFilters(
        tuple(args.kb),
        tuple(args.doc_type),
        args.after,
        args.before,
        args.min_authority,
        args.current,
    )
    hits = engine.search(
        args.query,
        mode=args.mode,
        k=args.top_k,
        filters=filters,
        rerank=True if args.rerank else None,
    )
    if args.json:
        _print_json([_hit_dict(h) for h in hits])
    else:
        _print_hits(hits)
    return 0


def _cmd_stats(engine: Engine, args) -> int:
    stats = engine.stats()
    kbs = engine.knowledge_bases()
    if args.json:
        _print_json({**asdict(stats), "knowledge_base_list": [asdict(k) for k in kbs]})
        return 0
    print(f"data directory: {stats.data_dir}")
    print(
        f"{stats.documents} documents, {stats.chunks} chunks, {stats.vectors} vectors in "
        f"{stats.knowledge_bases} knowledge bases"
    )
    for kb in kbs:
        print(f"  {kb.name}: {kb.documents} documents, {kb.chunks} chunks")
    print(
        f"database {stats.database_bytes / 1e6:.1f} MB, index {stats.index_bytes / 1e6:.1f} MB, "
        f"embedder {stats.embedder}, reranker {'on' if stats.reranker else 'off'}"
    )
    return 0


def _cmd_delete(engine: Engine, args) -> int:
    chunks = engine.delete(args.document_id)
    if args.json:
        _print_json({"deleted": args.document_id, "chunks": chunks})
    else:
        print(f"deleted {args.document_id} ({chunks} chunks)")
    return 0


def _cmd_ask(engine: Engine, args) -> int:
    answer = engine.ask(args.question)
    if args.json:
        _print_json(_answer_dict(answer, with_trace=args.trace))
        return 0
    _print_answer(answer)
    if args.trace:
        print("\n" + answer.trace.render())
    return 0


def _print_answer(answer, indent: str = "") -> None:
    label = {"ok": "", "uncertain": "UNCERTAIN: ", "no_answer": "NO ANSWER: "}[answer.status]
    print(f"{indent}{label}{answer.text}")
    for c in answer.citations:
        print(
            f"{indent}  [{c.number}] {c.title or c.document_id} "
            f"({c.knowledge_base}/{c.document_id}, updated {c.updated_at or '?'})"
        )
    if answer.status == "uncertain":
        print(f"{indent}  open issues:")
        for issue in answer.issues:
            print(f"{indent}  - {issue.check}/{issue.kind}: {issue.message}")


def _answer_dict(answer, with_trace: bool) -> dict:
    return {
        "question": answer.question,
        "status": answer.status,
        "text": answer.text,
        "citations": [asdict(c) for c in answer.citations],
        "issues": [asdict(i) for i in answer.issues],
        "checks": [
            {"name": c.name, "passed": c.passed, "checked": c.checked} for c in answer.report.checks
        ],
        "rounds": answer.rounds,
        "tasks": answer.tasks,
        "searches": answer.searches,
        "generator": answer.generator,
        "timings_ms": {k: round(v, 3) for k, v in answer.timings.items()},
        **({"trace": answer.trace.to_dict()} if with_trace else {}),
    }


def _cmd_eval(engine: Engine, args) -> int:
    if args.golden is not None:
        return _eval_golden(engine, args)
    from ragcore.evaluation.beir import evaluate_beir

    settings = {
        k: v
        for k, v in (("fusion", args.fusion), ("vector_weight", args.vector_weight))
        if v is not None
    }
    result = evaluate_beir(
        args.beir,
        split=args.split,
        mode=args.mode,
        config=engine.config,
        cache_dir=args.cache_dir or engine.config.data_dir / "eval-cache",
        progress=_progress(True),
        search_settings=settings,
        max_queries=args.max_queries,
    )
    if args.json:
        _print_json(result)
    else:
        print(
            f"{result['mode']} on {result['queries']} {result['split']} queries: nDCG@10 "
            f"{result['ndcg@10']:.4f}, Recall@100 {result['recall@100']:.4f}, "
            f"MRR@10 {result['mrr@10']:.4f}"
        )
    return 0


def _eval_golden(engine: Engine, args) -> int:
    from ragcore.evaluation.golden import evaluate_golden, load_golden
    from ragcore.evaluation.sample import sample_documents

    questions = load_golden(args.golden)
    cache = args.cache_dir or engine.config.data_dir / "eval-cache"
    config = replace(engine.config, data_dir=cache / "sample-kb")
    with Engine(config) as sample:
        sample.ingest(sample_documents(), _progress(not args.json))
        result = evaluate_golden(
            sample.ask,
            questions,
            max_rounds=config.max_rounds,
            support_threshold=config.support_threshold,
        )
    if args.json:
        _print_json(result)
        return 0
    for layer in ("retrieval", "process", "generation", "latency_ms"):
        figures = ", ".join(f"{k} {v}" for k, v in result[layer].items())
        print(f"{layer}: {figures}")
    wrong = [r for r in result["rows"] if r["status"] != r["expected_status"]]
    for row in wrong:
        print(f"  {row['id']}: expected {row['expected_status']}, got {row['status']}")
    return 0


DEMO_QUESTIONS = (
    "What does error E4027 mean on the HP-400?",
    "How often should the CP-200 seal be replaced?",
    "Which compressor is louder, AC-75 or AC-110?",
    "LEAP-1A fan blade inspection interval since 2025?",
    "What is the tyre pressure of the A320 main landing gear?",
)


def _cmd_demo(engine: Engine, args) -> int:
    from ragcore.evaluation.sample import sample_documents

    report = engine.ingest(sample_documents(), _progress(not args.json))
    answers = [engine.ask(q) for q in (args.questions or DEMO_QUESTIONS)]
    if args.json:
        _print_json(
            {
                "ingested": report.count("added") + report.count("updated"),
                "answers": [_answer_dict(a, with_trace=False) for a in answers],
            }
        )
        return 0
    print(
        f"sample knowledge base in {engine.config.data_dir}: {engine.stats().documents} documents"
    )
    for answer in answers:
        print(f"\n? {answer.question}")
        _print_answer(answer, indent="  ")
    return 0


_COMMANDS = {
    "ask": _cmd_ask,
    "ingest": _cmd_ingest,
    "search": _cmd_search,
    "stats": _cmd_stats,
    "delete": _cmd_delete,
    "eval": _cmd_eval,
    "demo": _cmd_demo,
}


def _hit_dict(hit: Hit) -> dict:
    return {
        "chunk_id": hit.chunk_id,
        "document_id": hit.document_id,
        "score": hit.score,
        "scores": dict(hit.scores),
        "text": hit.text,
        "start": hit.start,
        "end": hit.end,
        "document": asdict(hit.document),
    }


def _print_hits(hits: list[Hit]) -> None:
    if not hits:
        print("  (no results)")
    width = os.get_terminal_size().columns if sys.stdout.isatty() else 100
    for rank, hit in enumerate(hits, start=1):
        doc = hit.document
        print(
            f"{rank}. [{hit.score:.3f}] {doc.title or doc.id}  ({doc.knowledge_base}/{doc.id}, "
            f"{doc.doc_type}, authority {doc.authority}, updated {doc.updated_at or '?'})"
        )
        text = " ".join(hit.text.split())
        print(f"   {text[: max(40, width - 4)]}{'…' if len(text) > width - 4 else ''}")


def _print_json(value) -> None:
    print(json.dumps(value, default=_json_default, ensure_ascii=False, indent=2))


def _json_default(value):
    if isinstance(value, (date, Path)):
        return str(value)
    if is_dataclass(value):
        return asdict(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    try:
        return dict(value)
    except (TypeError, ValueError):
        return str(value)
