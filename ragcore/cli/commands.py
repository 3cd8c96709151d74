"""The commands: ``main`` and ``run``, one ``_cmd_*`` per command, and ingest progress.

Exit statuses are listed in ``parsers`` (and ``ragcore --help``).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

from ragcore.cli import render
from ragcore.cli.parsers import build_parser
from ragcore.config import (
    STORE_READ_URL_ENV,
    STORE_URL_ENV,
    Config,
    StoreSettings,
    default_data_dir,
)
from ragcore.engine import Engine
from ragcore.errors import InvalidInputError, RagcoreError
from ragcore.ingest.loaders import ReadProgress
from ragcore.ingest.pipeline import IngestProgress
from ragcore.storage.filters import SearchFilters
from ragcore.storage.store import DATABASE_NAME
from ragcore.types import SkipReason

EXIT_PROBLEMS = 1
"""``check`` found problems, or ``ingest`` skipped files it was not asked to skip."""
EXIT_ERROR = 2
EXIT_EMPTY = 3
"""``ask`` or ``search`` on a data directory that holds no documents yet (``ask``: nor
tables)."""
# Commands that maintain an existing data directory: a mistyped path must not become a
# new, empty one that then "checks out".
_NEEDS_DATABASE = frozenset({"backup", "check", "rebuild-index"})


def main(argv: list[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


def store_url(args: argparse.Namespace) -> str | None:
    """``--store``, else ``$RAGCORE_STORE_URL``, for a command that has the option; else
    None (the data directory)."""
    if "store" not in args:
        return None
    return args.store or os.environ.get(STORE_URL_ENV) or None


def store_read_url(args: argparse.Namespace) -> str | None:
    """``--store-replica``, else ``$RAGCORE_STORE_REPLICA_URL``, as ``store_url``."""
    if "store_replica" not in args:
        return None
    return args.store_replica or os.environ.get(STORE_READ_URL_ENV) or None


def store_settings(args: argparse.Namespace) -> StoreSettings:
    """``--store-pool-size``, ``--store-connect-timeout``, ``--store-statement-timeout`` and
    ``--[no-]store-prepared-statements`` (each default where not given, or where the
    command has no such option); ConfigError naming the option's field for a bad value."""
    given = {
        name: getattr(args, f"store_{name}", None)
        for name in ("pool_size", "connect_timeout", "statement_timeout", "prepared_statements")
    }
    return StoreSettings(**{k: v for k, v in given.items() if v is not None})


def run(args: argparse.Namespace) -> int:
    """Run a parsed command on the Engine of ``--data-dir``; returns the exit status."""
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    settings = {}
    if args.command == "chat":
        settings = {"max_rounds": args.max_rounds}
    if args.command == "ask":
        settings = {
            "max_rounds": args.max_rounds,
            "strategy_path": args.strategy,
            "llm_base_url": args.llm_url,
            "llm_model": args.llm_model,
            "llm_context_chars": args.llm_context_chars,
        }
    try:
        config = Config(
            data_dir=args.data_dir or default_data_dir(),
            store_url=store_url(args),
            store_read_url=store_read_url(args),
            store_settings=store_settings(args),
            **{k: v for k, v in settings.items() if v is not None},
        )
    except RagcoreError as exc:
        print(f"ragcore: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    database = config.data_dir / DATABASE_NAME
    if args.command in _NEEDS_DATABASE and not database.is_file():
        print(
            f"ragcore: error: no ragcore database in {config.data_dir} (no {DATABASE_NAME}): "
            "give the data directory with --data-dir or $RAGCORE_DATA_DIR",
            file=sys.stderr,
        )
        return EXIT_ERROR
    try:
        with Engine(config) as engine:
            return _COMMANDS[args.command](engine, args)
    except RagcoreError as exc:
        print(f"ragcore: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("ragcore: interrupted; committed documents are kept", file=sys.stderr)
        return 130


def _progress(enabled: bool, stream=None):
    """An ingest progress printer: on a terminal one line rewritten in place (at most
    twice a second) and ended once; otherwise a plain line every few seconds and at the
    end. None when ``enabled`` is false."""
    if not enabled:
        return None
    return _ProgressLine(stream or sys.stderr)


class _ProgressLine:
    """One progress line for ``ingest`` (reading, then embedding and storing)."""

    def __init__(self, stream) -> None:
        self._stream = stream
        self._tty = stream.isatty()
        self._last = float("-inf")
        self._width = 0
        self._ended = True

    def _show(self, text: str, final: bool) -> None:
        now = time.monotonic()
        if not final and now - self._last < (0.5 if self._tty else 5.0):
            return
        self._last = now
        if self._tty:
            padding = " " * max(self._width - len(text), 0)
            self._width = len(text)
            self._stream.write(f"\r{text}{padding}" + ("\n" if final else ""))
            self._ended = final
        else:
            self._stream.write(text + "\n")
        self._stream.flush()

    def reading(self, p: ReadProgress) -> None:
        pages = f", {p.pages} pages" if p.pages else ""
        self._show(f"reading: {p.files_done}/{p.files_total} files{pages}", final=False)

    def __call__(self, p: IngestProgress) -> None:
        final = p.documents_done >= p.documents_total
        chunks = max(p.chunks_embedded, p.chunks_done)
        rate = chunks / p.seconds if p.seconds else 0.0
        pages = f", {p.pages_done}/{p.pages_total} pages" if p.pages_total else ""
        eta = p.eta_seconds
        left = f", {_duration(eta)} left" if eta is not None and not final else ""
        took = f" in {_duration(p.seconds)}" if final else ""
        share = f"{p.chars_done / p.chars_total:.0%}, " if p.chars_total and not final else ""
        self._show(
            f"ingest: {share}{p.documents_done}/{p.documents_total} documents{pages}, "
            f"{chunks} chunks, {rate:.0f} chunks/s{left}{took}",
            final,
        )


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def search_filters(args: argparse.Namespace) -> SearchFilters:
    """The SearchFilters of the filter options ``search`` and ``ask`` share."""
    return SearchFilters(
        knowledge_bases=tuple(args.kb),
        doc_types=tuple(args.doc_type),
        updated_after=args.after,
        updated_before=args.before,
        min_authority=args.min_authority,
        exclude_superseded=args.current,
    )


def _empty(engine: Engine, text: str, *, tables: bool = False) -> bool:
    """Whether the data directory holds no documents (nor, with ``tables``, tables: a
    store with tables only answers table questions); if so, say how to fill it.

    Blank text is left to the command, whose own message is the better one.
    """
    if not text.strip():
        return False
    data_dir = engine.config.data_dir
    if engine.config.store_url is not None:  # PostgreSQL: opening it creates nothing here
        if engine.store.counts()["documents"] or (tables and engine.list_tables()):
            return False
        print(
            "ragcore: the PostgreSQL store holds no documents yet: add some with "
            "`ragcore ingest PATH --store URL`",
            file=sys.stderr,
        )
        return True
    exists = (data_dir / DATABASE_NAME).is_file()  # don't create a database just to look
    if exists and (engine.store.counts()["documents"] or (tables and engine.list_tables())):
        return False
    print(
        f"ragcore: the data directory {data_dir} holds no documents yet: add some with "
        f"`ragcore ingest PATH --data-dir {data_dir}` (or try `ragcore demo --data-dir "
        f"{data_dir}` for the sample knowledge base)",
        file=sys.stderr,
    )
    return True


def _cmd_ingest(engine: Engine, args: argparse.Namespace) -> int:
    from ragcore.errors import InvalidDocumentError, InvalidDocumentsError
    from ragcore.ingest.loaders import load_files

    progress = _progress(not args.json)
    loaded = []
    problems: list[InvalidDocumentError] = []
    for path in args.paths:  # every path read, so every invalid file is reported at once
        try:
            loaded.append(
                load_files(
                    path,
                    args.kb,
                    skip_invalid=args.skip_invalid,
                    progress=progress.reading if progress else None,
                )
            )
        except InvalidDocumentsError as exc:
            problems += exc.problems
        except InvalidDocumentError as exc:
            problems.append(exc)
    if problems:
        raise problems[0] if len(problems) == 1 else InvalidDocumentsError(problems)
    documents = [doc for found in loaded for doc in found.documents]
    report = engine.ingest(documents, progress)
    report = replace(
        report,
        skipped=tuple(s for found in loaded for s in found.skipped),
        notes=tuple(n for found in loaded for n in found.notes),
    )
    if args.json:
        render.print_json(render.ingest_dict(report))
    else:
        render.print_ingest(report)
    unasked = [s for s in report.skipped if s.reason != SkipReason.README]
    return EXIT_PROBLEMS if unasked and not args.skip_invalid else 0


def _cmd_ingest_table(engine: Engine, args: argparse.Namespace) -> int:
    def show(rows: int) -> None:
        end = "\r" if sys.stderr.isatty() else "\n"
        print(f"ingest-table: {rows} rows", end=end, file=sys.stderr, flush=True)

    started = time.monotonic()
    info = engine.ingest_table(
        args.file,
        table=args.table,
        schema=args.schema,
        progress=None if args.json else show,
        replace=args.replace,
    )
    seconds = time.monotonic() - started
    schema = info.schema
    if args.json:
        render.print_json(
            {
                "table": info.name,
                "source": info.source,
                "sha256": info.sha256,
                "rows": info.row_count,
                "columns": dict(schema.columns),
                "dimensions": [d.column for d in schema.dimensions],
                "measures": [m.name for m in schema.measures],
                "time_column": schema.time_column,
                "ingested_at": info.ingested_at.isoformat(),
                "seconds": round(seconds, 3),
            }
        )
    else:
        if sys.stderr.isatty():
            print(file=sys.stderr)
        print(
            f"loaded table {info.name} from {info.source}: {info.row_count} rows, "
            f"{len(schema.columns)} columns, {len(schema.dimensions)} dimensions "
            f"({', '.join(d.column for d in schema.dimensions) or 'none'}), "
            f"{len(schema.measures)} measures "
            f"({', '.join(m.name for m in schema.measures)}) in {seconds:.2f} s"
        )
    return 0


def _cmd_search(engine: Engine, args: argparse.Namespace) -> int:
    if _empty(engine, args.query):
        return EXIT_EMPTY
    hits = engine.search(
        args.query,
        mode=args.mode,
        k=args.top_k,
        filters=search_filters(args),
        rerank=True if args.rerank else None,
    )
    if args.json:
        render.print_json([render.hit_dict(h) for h in hits])
    else:
        render.print_hits(hits)
    return 0


def _cmd_stats(engine: Engine, args: argparse.Namespace) -> int:
    stats = engine.stats()
    kbs = engine.knowledge_bases()
    if args.json:
        render.print_json(render.stats_dict(stats, kbs))
    else:
        render.print_stats(stats, kbs)
    return 0


def _cmd_delete(engine: Engine, args: argparse.Namespace) -> int:
    chunks = engine.delete(args.document_id)
    if args.json:
        render.print_json({"deleted": args.document_id, "chunks": chunks})
    else:
        render.print_deleted(args.document_id, chunks)
    return 0


def _cmd_ask(engine: Engine, args: argparse.Namespace) -> int:
    _ = engine.answerer  # a bad setting (strategy file, ...) is the first thing to report
    if _empty(engine, args.question, tables=True):
        return EXIT_EMPTY
    answer = engine.ask(
        args.question,
        filters=search_filters(args),
        max_rounds=args.max_rounds,
        session=args.session,
    )
    if args.json:
        render.print_json(render.answer_dict(answer, with_trace=args.trace))
        return 0
    render.print_answer(answer)
    if args.trace:
        render.print_trace(answer)
    return 0


def _cmd_chat(engine: Engine, args: argparse.Namespace) -> int:
    from ragcore.cli.chat import chat

    _ = engine.answerer  # a bad setting is the first thing to report
    if _empty(engine, "chat", tables=True):
        return EXIT_EMPTY
    return chat(engine, args, search_filters(args))


def _cmd_eval(engine: Engine, args: argparse.Namespace) -> int:
    if args.golden is not None:
        return _eval_golden(engine, args)
    if args.faults is not None:
        return _eval_faults(engine, args)
    if args.questions is not None:
        return _eval_questions(engine, args)
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
        render.print_json(result)
    else:
        render.print_beir(result)
    return 0


def _eval_faults(engine: Engine, args: argparse.Namespace) -> int:
    from ragcore.evaluation.faults import evaluate_faults

    cache = args.cache_dir or engine.config.data_dir / "eval-cache"
    folder = args.faults.resolve()
    config = replace(engine.config, data_dir=cache / f"faults-{folder.name}")
    result = evaluate_faults(folder, config, progress=None if args.json else _count_cases)
    if args.json:
        render.print_json(result)
    else:
        render.print_faults(result)
    return 0


def _eval_questions(engine: Engine, args: argparse.Namespace) -> int:
    from ragcore.evaluation.questions import evaluate_questions, load_questions
    from ragcore.ingest.loaders import load_files

    if args.documents is None or not args.documents.is_dir():
        raise InvalidInputError(
            "--questions needs --documents FOLDER, the documents the questions ask about"
        )
    questions = load_questions(args.questions)
    folder = args.documents.resolve()
    cache = args.cache_dir or engine.config.data_dir / "eval-cache"
    config = replace(engine.config, data_dir=cache / f"questions-{folder.name}")
    # One knowledge base, ids from paths relative to the folder (two sources may both
    # have a "cables" file). Files that cannot be read (a scan without text) are skipped
    # and listed, as `ingest --skip-invalid` does: the questions are about the rest.
    loaded = [load_files(folder, "documents", skip_invalid=True)]
    found = [d for files in loaded for d in files.documents]
    # Question writers name a document by its file, relative to the folder.
    ids = {Path(d.origin).resolve().relative_to(folder).as_posix(): d.id for d in found}
    questions = [
        replace(q, expected_documents=tuple(ids.get(d, d) for d in q.expected_documents))
        for q in questions
    ]
    with Engine(config) as documents:
        documents.ingest(found, _progress(not args.json))
        result = evaluate_questions(documents.ask, questions)
    result["skipped_files"] = [s.path for found in loaded for s in found.skipped]
    if args.json:
        render.print_json(result)
    else:
        render.print_questions(result)
    return 0


def _count_cases(done: int, total: int) -> None:
    end = "\n" if done == total or not sys.stderr.isatty() else "\r"
    if done == total or sys.stderr.isatty() or done % 10 == 0:
        print(f"faults: {done}/{total} cases", end=end, file=sys.stderr, flush=True)


def _eval_golden(engine: Engine, args: argparse.Namespace) -> int:
    from ragcore.evaluation.conversations import (
        SAMPLE_CONVERSATIONS,
        evaluate_conversations,
        load_conversations,
    )
    from ragcore.evaluation.golden import SAMPLE_GOLDEN, evaluate_golden, load_golden
    from ragcore.evaluation.sample import ingest_sample_tables, sample_documents

    questions = load_golden(args.golden)
    path = args.conversations or (SAMPLE_CONVERSATIONS if args.golden == SAMPLE_GOLDEN else None)
    conversations = load_conversations(path) if path is not None else []
    cache = args.cache_dir or engine.config.data_dir / "eval-cache"
    tables = args.tables.resolve() if args.tables else None
    where = f"sample-kb+{tables.name}" if tables else "sample-kb"
    config = replace(engine.config, data_dir=cache / where)
    with Engine(config) as sample:
        sample.ingest(sample_documents(), _progress(not args.json))
        ingest_sample_tables(sample)
        if tables is not None:
            ingest_sample_tables(sample, tables)
        result = evaluate_golden(
            sample.ask,
            questions,
            max_rounds=config.max_rounds,
            support_threshold=config.support_threshold,
        )
        if conversations:  # after the single-turn set: its figures are as without them
            result["conversations"] = evaluate_conversations(
                lambda question, session: sample.ask(question, session=session), conversations
            )
    if args.json:
        render.print_json(result)
    else:
        render.print_golden(result)
    return 0


DEMO_QUESTIONS = (
    "What does error E4027 mean on the HP-400?",
    "How often should the CP-200 seal be replaced?",
    "Which compressor is louder, AC-75 or AC-110?",
    "LEAP-1A fan blade inspection interval since 2025?",
    "What is the tyre pressure of the A320 main landing gear?",
)


def _cmd_demo(engine: Engine, args: argparse.Namespace) -> int:
    from ragcore.evaluation.sample import ingest_sample_tables, sample_documents

    report = engine.ingest(sample_documents(), _progress(not args.json))
    ingest_sample_tables(engine)
    answers = [engine.ask(q) for q in (args.questions or DEMO_QUESTIONS)]
    if args.json:
        render.print_json(render.demo_dict(report, answers))
    else:
        render.print_demo(engine.config.data_dir, engine.stats().documents, answers)
    return 0


def _cmd_backup(engine: Engine, args: argparse.Namespace) -> int:
    """Exit 0 for a copy of a sound data directory; 1 when its vector index was damaged
    (the copy's was rebuilt from the database and is sound; the data directory needs
    ``rebuild-index``)."""
    report = engine.backup(args.dest)
    if args.json:
        render.print_json(
            {
                "data_dir": engine.config.data_dir,
                "backup": report.dest,
                "index_rebuilt": report.index_rebuilt,
            }
        )
    else:
        print(f"backed up {engine.config.data_dir} to {report.dest}")
    if not report.ok:
        print(
            f"ragcore backup: {report.index_rebuilt} in {engine.config.data_dir}: the copy's "
            "vector index was rebuilt from the database; run `ragcore rebuild-index` on the "
            "data directory",
            file=sys.stderr,
        )
        return EXIT_PROBLEMS
    return 0


def _cmd_check(engine: Engine, args: argparse.Namespace) -> int:
    report = engine.check()
    if args.json:
        render.print_json(render.check_dict(report))
    else:
        render.print_check(report)
    return 0 if report.ok else EXIT_PROBLEMS


def _cmd_rebuild_index(engine: Engine, args: argparse.Namespace) -> int:
    vectors = engine.rebuild_index()
    if args.json:
        render.print_json({"vectors": vectors})
    else:
        print(f"rebuilt the vector index of {engine.config.data_dir}: {vectors} vectors")
    return 0


def _cmd_migrate(engine: Engine, args: argparse.Namespace) -> int:
    from ragcore.storage.migration import CopyProgress, copy_store

    config = engine.config  # the engine opens nothing: the copy opens both stores itself

    def show(p: CopyProgress) -> None:
        end = "\n" if p.done >= p.total or not sys.stderr.isatty() else "\r"
        print(f"migrate: {p.done}/{p.total} {p.part}", end=end, file=sys.stderr, flush=True)

    report = copy_store(
        config.store_url or config.data_dir,
        args.to,
        progress=show,
        hnsw=config.hnsw,
        threads=config.threads,
    )
    if args.json:
        render.print_json(
            {
                "source": report.source,
                "target": report.target,
                "embedder": report.embedder,
                "seconds": round(report.seconds, 3),
                **{
                    str(p.part): {
                        "total": p.total,
                        "copied": p.copied,
                        "skipped": p.skipped,
                        p.part.rows_name: p.rows,
                    }
                    for p in report.parts
                },
            }
        )
    else:
        for p in report.parts:
            print(
                f"{p.part}: {p.copied} copied ({p.rows} {p.part.rows_name}), "
                f"{p.skipped} already in the target, of {p.total}"
            )
        print(f"copied {report.source} to {report.target} in {report.seconds:.1f} s")
    return 0


_COMMANDS = {
    "ask": _cmd_ask,
    "chat": _cmd_chat,
    "ingest": _cmd_ingest,
    "ingest-table": _cmd_ingest_table,
    "search": _cmd_search,
    "stats": _cmd_stats,
    "delete": _cmd_delete,
    "eval": _cmd_eval,
    "demo": _cmd_demo,
    "backup": _cmd_backup,
    "check": _cmd_check,
    "rebuild-index": _cmd_rebuild_index,
    "migrate": _cmd_migrate,
}
