"""The command line's argparse parsers: ``Parsers``, ``build_parsers`` and argument types."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ragcore.config import default_data_dir
from ragcore.evaluation.golden import SAMPLE_GOLDEN
from ragcore.types import Fusion, SearchMode


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
    search.add_argument("--mode", choices=SearchMode.values(), default="hybrid")
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
        help="measure retrieval (BEIR), answering (golden set) or validation (fault set) quality",
        description="--beir: ingest a BEIR corpus into a cached data directory (keyed by its "
        "checksum) and print nDCG@10, Recall@100 and MRR@10 over the split's queries. "
        "--golden: ask every question of a golden file over the sample knowledge base "
        "(ingested into the cache directory) and print retrieval (hit rate, MRR), process "
        "(tasks, duplicate searches, rounds, converged share) and generation (citation "
        "precision, supported statements, status accuracy) figures. "
        "--faults: replay the prepared answers of a fault set folder (cases.jsonl and its "
        "own kb/) through a local OpenAI-compatible server on loopback, and print the share "
        "of planted faults the validator caught and of correct answers it rejected, per kind.",
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
    source.add_argument(
        "--faults",
        type=Path,
        help="fault set folder (cases.jsonl and kb/), e.g. benchmarks/faults/set-a",
    )
    evaluate.add_argument("--split", default="test", help="qrels split (default: test)")
    evaluate.add_argument("--mode", choices=SearchMode.values(), default="hybrid")
    evaluate.add_argument("--fusion", choices=Fusion.values(), default=None)
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
