"""The command line's argparse parsers: ``Parsers``, ``build_parsers`` and argument types.

Exit status of every command: 0 done; 1 ``check`` found problems, or ``ingest`` skipped
files (without ``--skip-invalid``); 2 an error (bad input,
an unusable data directory; the message says what to do); 3 ``ask`` or ``search`` on a
data directory that holds no documents yet (``ask``: nor tables); 130 interrupted.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ragcore.config import (
    DEFAULT_LLM_CONTEXT_CHARS,
    DEFAULT_STORE_CONNECT_TIMEOUT,
    DEFAULT_STORE_POOL_SIZE,
    DEFAULT_STORE_STATEMENT_TIMEOUT,
    STORE_READ_URL_ENV,
    STORE_URL_ENV,
    default_data_dir,
)
from ragcore.evaluation.conversations import SAMPLE_CONVERSATIONS
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
    store: argparse.ArgumentParser
    """``--store URL``, for the commands that run on a PostgreSQL store too."""
    replica: argparse.ArgumentParser
    """``--store-replica URL``, for the commands that search (and serve)."""


def build_parser() -> argparse.ArgumentParser:
    return build_parsers().root


EXIT_CODES = (
    "exit status: 0 done; 1 check found problems, or ingest skipped files; 2 error (the "
    "message says what to do); 3 ask/search on a data directory that holds no documents "
    "yet (ask: nor tables); 130 interrupted"
)


def _filter_options() -> argparse.ArgumentParser:
    """The search filters, shared by ``search`` and ``ask`` (read by ``search_filters``)."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument(
        "--kb", action="append", default=[], help="only this knowledge base (repeatable)"
    )
    options.add_argument(
        "--doc-type", action="append", default=[], help="only this doc_type (repeatable)"
    )
    options.add_argument("--after", type=_date, help="only documents updated on/after YYYY-MM-DD")
    options.add_argument("--before", type=_date, help="only documents updated on/before YYYY-MM-DD")
    options.add_argument("--min-authority", type=int, help="only documents of authority >= N (1-5)")
    options.add_argument("--current", action="store_true", help="skip superseded documents")
    return options


def _store_options() -> argparse.ArgumentParser:
    """``--store``: where the documents live (read by ``commands.store_url``)."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument(
        "--store",
        metavar="URL",
        default=None,
        help="keep the documents in this PostgreSQL database (postgresql://user@host/db, "
        f"shared by every server given it) instead of the data directory (default: "
        f"${STORE_URL_ENV}, else the data directory)",
    )
    options.add_argument(
        "--store-pool-size",
        type=int,
        metavar="N",
        default=None,
        help="with --store: at most N connections to the database per process (and as many "
        f"to a --store-replica) (default: {DEFAULT_STORE_POOL_SIZE}; docs/scale-out.md has "
        "the capacity plan)",
    )
    options.add_argument(
        "--store-connect-timeout",
        type=float,
        metavar="SECONDS",
        default=None,
        help="with --store: seconds to connect, also the longest wait for a free connection; "
        "a database that does not answer in time is unavailable, and calls fail at once "
        f"until it is back (default: {DEFAULT_STORE_CONNECT_TIMEOUT:g})",
    )
    options.add_argument(
        "--store-statement-timeout",
        type=float,
        metavar="SECONDS",
        default=None,
        help="with --store: seconds one statement may run before the database stops it; 0: "
        f"no limit (default: {DEFAULT_STORE_STATEMENT_TIMEOUT:g})",
    )
    options.add_argument(
        "--store-prepared-statements",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="with --store: prepare the statements run often on each connection (default: "
        "on; turn off behind PgBouncer before 1.21 in transaction mode)",
    )
    return options


def _replica_options() -> argparse.ArgumentParser:
    """``--store-replica``: where searches read (read by ``commands.store_read_url``)."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument(
        "--store-replica",
        metavar="URL",
        default=None,
        help="a read replica of the --store database: searches and document reads go "
        f"there, writes, sessions and tables to --store (default: ${STORE_READ_URL_ENV}, "
        "else none)",
    )
    return options


def build_parsers() -> Parsers:
    """Every command's parser."""
    filters = _filter_options()
    store = _store_options()
    replica = _replica_options()
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
        prog="ragcore",
        description="Offline, CPU-only retrieval-augmented answering.",
        epilog=EXIT_CODES,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ingest = commands.add_parser(
        "ingest",
        parents=[common, store],
        help="add or update documents from files",
        description="Ingest .txt, .md (YAML front matter), .html, .jsonl (incl. BEIR corpus), "
        ".pdf, .docx and .odt files or directories. A document without an id of its own "
        "takes one from its path relative to the folder (lower-case ASCII, - for spaces "
        "and symbols: 'Pumps/Seal & Bearing.pdf' is pumps/seal-bearing). Every file is "
        "read first: if any is invalid, all are listed (path, problem, what to do) and "
        "nothing is written, unless --skip-invalid. Unchanged documents are skipped. In a "
        "directory, files that cannot be documents (another type, unreadable, text neither "
        "UTF-8 nor Windows-1252) are skipped and listed with the reason, and the exit status "
        "is 1 unless --skip-invalid; the README on top documents the folder and is skipped "
        "silently (one in a subfolder is read). PDF pages without "
        "a text layer are OCRed when the tesseract program is installed, else listed.",
    )
    ingest.add_argument("paths", nargs="+", type=Path, help="files or directories")
    ingest.add_argument(
        "--kb",
        default=None,
        help="knowledge base for documents that do not name one (default: default)",
    )
    ingest.add_argument(
        "--skip-invalid",
        action="store_true",
        help="ingest the valid files and skip the invalid ones (listed with the reason), "
        "and exit 0 though files were skipped",
    )

    ingest_table = commands.add_parser(
        "ingest-table",
        parents=[common, store],
        help="load a CSV or JSONL file as a table beside the documents",
        description="Load the rows of a .csv or .jsonl file into table NAME, typed by the "
        "TOML schema file (columns and their types, dimensions, measures, derived "
        "measures; see ragcore.tabular). Every row is checked: a missing or mistyped value, "
        "a row with more or fewer fields than the CSV header, a column the header names "
        "twice, a field over 8 MiB, or a schema column the file lacks, is an error naming "
        "the file, row and column, and nothing changes. A table of that name is replaced "
        "atomically with --replace; without it, loading is refused and nothing changes.",
    )
    ingest_table.add_argument("file", type=Path, help="the .csv or .jsonl file")
    ingest_table.add_argument("--table", required=True, help="the table's name (a-z, 0-9, _)")
    ingest_table.add_argument(
        "--schema", required=True, type=Path, help="the table's schema file (.toml)"
    )
    ingest_table.add_argument(
        "--replace",
        action="store_true",
        help="replace a loaded table of the same name (without it, that is an error)",
    )

    search = commands.add_parser(
        "search",
        parents=[common, store, replica, filters],
        help="search the knowledge bases",
        description="Search chunks by vector, keyword or hybrid search. On a data directory "
        "that holds no documents it says so and exits 3.",
    )
    search.add_argument("query")
    search.add_argument("--mode", choices=SearchMode.values(), default="hybrid")
    search.add_argument("-k", "--top-k", type=int, default=5, help="results to show (default 5)")
    search.add_argument(
        "--rerank", action="store_true", help="rerank with the configured cross-encoder"
    )

    ask = commands.add_parser(
        "ask",
        parents=[common, store, replica, filters],
        help="answer a question from the knowledge bases, with citations",
        description="Perceive the question, plan and run retrieval tasks, write an answer "
        "that cites its sources (numbered [1]..[n] in order of use, each listed with its "
        "section and pages when the document has them: 'CP-200 service manual, §5.3 "
        "Mechanical seal, p. 42', and its date when it has one), validate it, and retry "
        "with an adjusted plan when a check fails. The status is ok, uncertain (open issues "
        "listed) or no_answer, with a 'why:' line saying the reason when it is not ok. The "
        "filter options bound every retrieval task of every round. On a data directory "
        "that holds no documents and no tables it says so and exits 3 (tables alone "
        "answer table questions).",
    )
    ask.add_argument("question", help="the question, in quotes")
    ask.add_argument("--trace", action="store_true", help="print the decision tree with timings")
    ask.add_argument(
        "--max-rounds",
        type=int,
        default=None,
        help="cap on retrieval rounds for this question (default 3)",
    )
    ask.add_argument("--strategy", type=Path, default=None, help="strategy TOML file to use")
    ask.add_argument(
        "--llm-url",
        default=None,
        help="OpenAI-compatible endpoint (e.g. http://127.0.0.1:8080/v1) to write answers; "
        "key from $RAGCORE_LLM_API_KEY (default: extractive answers, no model)",
    )
    ask.add_argument("--llm-model", default=None, help="model name for --llm-url")
    ask.add_argument(
        "--llm-context-chars",
        type=int,
        default=DEFAULT_LLM_CONTEXT_CHARS,
        help="characters of numbered context sent to --llm-url (default %(default)s, about "
        "2,300 tokens; the highest-numbered passages are dropped first)",
    )
    ask.add_argument(
        "--session",
        default=None,
        help="ask as a turn of this conversation (an id of your choice, or one `ragcore chat` "
        "printed): a follow-up such as 'And on the HP-500?' is rewritten from the previous turn",
    )

    chat = commands.add_parser(
        "chat",
        parents=[common, filters],
        help="ask questions in a conversation, at an interactive prompt",
        description="An interactive prompt (line editing and history where readline is "
        "available) whose questions are turns of one session kept in the data directory: a "
        "follow-up ('How do I clear it?', 'And on the HP-500?', 'Why?') is rewritten from "
        "the previous turn into a standalone question, which is shown before the answer. "
        "Type /history for the turns so far, /end to end the session, /quit or Ctrl-D to "
        "leave (the session is kept and can be resumed with --session).",
    )
    chat.add_argument(
        "--session", default=None, help="resume (or start) this session id (default: a new one)"
    )
    chat.add_argument("--trace", action="store_true", help="print the decision tree of each turn")
    chat.add_argument(
        "--max-rounds", type=int, default=None, help="cap on retrieval rounds per question"
    )

    commands.add_parser(
        "stats",
        parents=[common, store, replica],
        help="show what the data directory (or store) holds",
    )

    delete = commands.add_parser("delete", parents=[common], help="delete a document by id")
    delete.add_argument("document_id")

    backup = commands.add_parser(
        "backup",
        parents=[common],
        help="copy the data directory, consistently, while it may be in use",
        description="Copy the database with SQLite's online backup API (a consistent "
        "snapshot, taken while searches and asks go on) and the vector index file into "
        "DEST, a new or empty directory. Restore by pointing --data-dir at the copy (or "
        "moving it into place).",
    )
    backup.add_argument("dest", type=Path, help="a new or empty directory")

    commands.add_parser(
        "check",
        parents=[common],
        help="check the database, the keyword indexes and the vector index",
        description="SQLite integrity_check; FTS5 integrity-check of every keyword index; "
        "the vector index file against the database (recorded SHA-256, data version "
        "stamp, vector count, a random sample of vectors compared with SQLite's). Repairs "
        "nothing: each problem says what to do. Exits 0 when all is sound, 1 otherwise.",
    )
    commands.add_parser(
        "rebuild-index",
        parents=[common],
        help="rebuild the vector index from the embeddings in the database",
        description="Rebuild the hnswlib vector index from the embeddings stored in SQLite "
        "(no model is run) and record it. Use it when `ragcore check` reports the index.",
    )

    migrate = commands.add_parser(
        "migrate",
        parents=[common, store],
        help="copy the store to another (data directory <-> PostgreSQL) without re-embedding",
        description="Copy every document of the source (the data directory, or the "
        "PostgreSQL store of --store / $RAGCORE_STORE_URL) into TARGET, a postgresql:// URL "
        "or a data directory path: metadata, text, chunks and their stored embeddings (no "
        "model is run), and the embedder they came from; then the sessions (conversations) "
        "with their turns, scope and times; then the tables (registry and rows, row ids "
        "kept). The source is only read. Documents and sessions are written in groups, one "
        "transaction each, a table in one: an interrupted copy keeps whole ones, and running "
        "it again skips those already there and goes on. Nothing is written to a target that "
        "holds other documents, sessions or tables under the same ids or names, embeddings "
        "of another dimension or another embedder's vectors. Progress goes to stderr, the "
        "summary to stdout.",
    )
    migrate.add_argument(
        "--to",
        required=True,
        metavar="TARGET",
        help="postgresql://user@host/db, or a new, empty or ragcore data directory",
    )

    evaluate = commands.add_parser(
        "eval",
        parents=[common],
        help="measure retrieval (BEIR), answering (golden set) or validation (fault set) quality",
        description="--beir: ingest a BEIR corpus into a cached data directory (keyed by its "
        "checksum) and print nDCG@10, Recall@100 and MRR@10 over the split's queries. "
        "--golden: ask every question of a golden file over the sample knowledge base "
        "(ingested into the cache directory) and print retrieval (hit rate, MRR), process "
        "(tasks, duplicate searches, rounds, converged share) and generation (citation "
        "precision, supported statements, status accuracy) figures, then ask every "
        "conversation of a multi-turn file turn by turn in a session of its own and print "
        "turn-level status accuracy, retrieval hit rate and how well follow-ups were told "
        "apart (--conversations; by default the bundled set with the bundled golden set). "
        "--faults: replay the prepared answers of a fault set folder (cases.jsonl and its "
        "own kb/) through a local OpenAI-compatible server on loopback, and print the share "
        "of planted faults the validator caught and of correct answers it rejected, per kind. "
        "--questions: ingest a folder of documents (--documents) into the cache directory, "
        "ask every question of a question file over it and print the precision of ok (the "
        "share of ok answers that contain the expected facts), answerable questions "
        "answered right, unanswerable ones answered ok, the right document cited, and p50.",
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
    source.add_argument(
        "--questions",
        type=Path,
        help="question JSONL file over --documents (see ragcore/evaluation/questions.py)",
    )
    evaluate.add_argument(
        "--tables",
        type=Path,
        default=None,
        help="a folder of tables (NAME.toml beside NAME.csv or .jsonl) loaded beside the "
        "sample knowledge base for --golden",
    )
    evaluate.add_argument(
        "--documents",
        type=Path,
        default=None,
        help="the folder of documents --questions asks about (every file under it)",
    )
    evaluate.add_argument(
        "--conversations",
        type=Path,
        default=None,
        help="multi-turn JSONL file for --golden (default: the bundled set "
        f"{SAMPLE_CONVERSATIONS.name} with the bundled golden set, none with another)",
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
    return Parsers(parser, commands, common, store, replica)
