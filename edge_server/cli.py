"""The ``ragcore`` command: the library's commands plus ``serve``, ``ask --server`` and
``search --server``.

The console script lives here, not in ``ragcore.cli``, so that the library never
imports the service: this module takes ragcore's parsers and adds these.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
from dataclasses import fields, replace
from pathlib import Path

import grpc
from google.protobuf import json_format

from edge_server import config as defaults
from edge_server.auth import Tokens
from edge_server.client import Client, error_details
from edge_server.config import ServerConfig
from edge_server.server import serve
from edge_server.supervisor import (
    check_metrics_ports,
    child_command,
    child_metrics_port,
    child_workers,
    default_processes,
    die_with_parent,
    open_listener,
    supervise,
)
from edge_server.v1 import ragcore_pb2 as pb
from ragcore import Config, Engine, TraceNode
from ragcore import cli as ragcore_cli
from ragcore.cli import default_data_dir, location, source_line
from ragcore.errors import RagcoreError
from ragcore.evaluation import ingest_sample_tables, sample_documents
from ragcore.types import IngestStatus

_LIBRARY_DEFAULTS = {f.name: f.default for f in fields(Config)}

log = logging.getLogger(__name__)

TOKEN_ENV = "RAGCORE_TOKEN"
LABELS = {pb.ANSWER_STATUS_UNCERTAIN: "UNCERTAIN: ", pb.ANSWER_STATUS_NO_ANSWER: "NO ANSWER: "}


def build_parser():
    parsers = ragcore_cli.build_parsers()
    _add_serve(parsers)
    _add_remote_ask(parsers.commands.choices["ask"])
    _add_remote(parsers.commands.choices["search"], "search")
    return parsers.root


def _add_serve(parsers: ragcore_cli.Parsers) -> None:
    serve_ = parsers.commands.add_parser(
        "serve",
        parents=[parsers.common, parsers.store, parsers.replica],
        help="run the gRPC edge service on the data directory",
        description="Serve the ragcore.v1 gRPC contract (proto/ragcore/v1/ragcore.proto) with "
        "health checking and reflection. Health is NOT_SERVING until the models and the "
        "index are loaded. SIGTERM or Ctrl-C drains: new requests are refused, in-flight "
        "ones get --grace seconds, then are stopped; the process exits within --grace + 1.5 "
        "s. Tokens: --tokens-file and $RAGCORE_READER_TOKENS / "
        "$RAGCORE_ADMIN_TOKENS (comma-separated; TOKEN@kb1+kb2 limits one to those knowledge "
        "bases); without any, every caller may do everything.",
    )
    serve_.add_argument(
        "--host",
        default=defaults.DEFAULT_HOST,
        help=f"address to listen on (default {defaults.DEFAULT_HOST}; 0.0.0.0 for every interface)",
    )
    serve_.add_argument(
        "--port",
        type=int,
        default=defaults.DEFAULT_PORT,
        help=f"port (default {defaults.DEFAULT_PORT}; 0 picks a free one)",
    )
    serve_.add_argument(
        "--sample-kb",
        action="store_true",
        help="ingest the bundled sample knowledge base first (skipped if there)",
    )
    serve_.add_argument(
        "--max-in-flight",
        type=int,
        default=defaults.DEFAULT_MAX_IN_FLIGHT,
        help="requests admitted at once; more get RESOURCE_EXHAUSTED "
        f"(default {defaults.DEFAULT_MAX_IN_FLIGHT})",
    )
    serve_.add_argument(
        "--workers",
        type=int,
        default=defaults.DEFAULT_WORKERS,
        help=f"requests worked on at once (default {defaults.DEFAULT_WORKERS}); with "
        "--processes N, each process works on its share (rounded up)",
    )
    serve_.add_argument(
        "--threads",
        type=int,
        default=defaults.DEFAULT_ENGINE_THREADS,
        help="CPU threads each request's model runs use "
        f"(default {defaults.DEFAULT_ENGINE_THREADS}: requests run side by side instead)",
    )
    serve_.add_argument(
        "--max-message-bytes",
        type=int,
        default=defaults.DEFAULT_MAX_MESSAGE_BYTES,
        help="largest message either way, an Ingest file included (default 8 MiB)",
    )
    serve_.add_argument(
        "--grace",
        type=float,
        default=defaults.DEFAULT_GRACE_SECONDS,
        help="seconds in-flight requests get at shutdown (default 10); what still runs then "
        "is stopped (an Ingest keeps the groups it committed) and the process exits within "
        "1.5 s more",
    )
    serve_.add_argument(
        "--tokens-file",
        type=Path,
        help="lines of 'reader TOKEN' / 'admin TOKEN', optionally followed by the knowledge "
        "bases the token is limited to: 'reader TOKEN manuals,faq'",
    )
    serve_.add_argument("--tls-cert", type=Path, help="server certificate chain (PEM)")
    serve_.add_argument("--tls-key", type=Path, help="server private key (PEM)")
    serve_.add_argument(
        "--llm-url",
        default=None,
        help="OpenAI-compatible endpoint to write answers (key from $RAGCORE_LLM_API_KEY; "
        "default: extractive answers, no model)",
    )
    serve_.add_argument("--llm-model", default=None, help="model name for --llm-url")
    serve_.add_argument(
        "--llm-context-chars",
        type=int,
        default=_LIBRARY_DEFAULTS["llm_context_chars"],
        help="characters of numbered context sent to --llm-url (default %(default)s, about "
        "2,300 tokens; the highest-numbered passages are dropped first)",
    )
    serve_.add_argument(
        "--answer-cache",
        type=int,
        default=_LIBRARY_DEFAULTS["answer_cache_size"],
        metavar="N",
        help="answers kept for repeated questions until the documents change (default "
        f"{_LIBRARY_DEFAULTS['answer_cache_size']}; 0: every question runs the whole loop)",
    )
    serve_.add_argument(
        "--retrieval-cache",
        type=int,
        default=_LIBRARY_DEFAULTS["retrieval_cache_size"],
        metavar="N",
        help="retrievals kept for near-duplicate questions (default "
        f"{_LIBRARY_DEFAULTS['retrieval_cache_size']}; 0: none)",
    )
    serve_.add_argument(
        "--tls-client-ca",
        type=Path,
        help="CA that client certificates must be signed by (mutual TLS)",
    )
    serve_.add_argument(
        "--metrics-port",
        type=int,
        metavar="PORT",
        help="serve Prometheus metrics at http://HOST:PORT/metrics on --host (HTTPS with "
        "--tls-cert; 0 picks a free port, logged; default: none); with --processes N, "
        "process i serves them on PORT+i",
    )
    serve_.add_argument(
        "--http-port",
        type=int,
        metavar="PORT",
        help="also serve the JSON/HTTP API (every rpc at /v1/..., AskStream as Server-Sent "
        "Events, /v1/openapi.json) and the page (/) on this port, in the same process, with "
        "the same tokens, limits and errors (HTTPS with --tls-cert; 0 picks a free port, "
        "logged; default: none); with --processes N, every process serves it on that port",
    )
    serve_.add_argument(
        "--http-host",
        default=None,
        help="address the HTTP API listens on (default: --host)",
    )
    serve_.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a web origin (https://panel.example:8443, or *) whose pages may call the HTTP "
        "API from a browser; repeat for several (default: none, no CORS headers)",
    )
    serve_.add_argument(
        "--processes",
        type=int,
        default=None,
        metavar="N",
        help="server processes behind the one port, each with its own engine; the parent "
        "hands each new connection to the one holding the fewest, restarts a dead one, "
        "and drains them together on SIGTERM (default: the core count, "
        f"{default_processes()} here; 1: a single process)",
    )
    # Set by the parent of --processes N on each of its children: which one it is.
    serve_.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    # ... and the unix socket it listens on (the parent relays the port's connections).
    serve_.add_argument("--child-socket", type=Path, default=None, help=argparse.SUPPRESS)
    # ... and the parent's pid (the child is signalled when it dies).
    serve_.add_argument("--parent-pid", type=int, default=None, help=argparse.SUPPRESS)


def _add_remote_ask(ask) -> None:
    remote = _add_remote(ask, "ask")
    remote.add_argument(
        "--stream", action="store_true", help="print each stage as the server completes it"
    )


def _add_remote(command, verb: str):
    """The options of a command run on a server instead of the local data directory; the
    command's own filter options (--kb, --after, ...) apply there as well."""
    remote = command.add_argument_group(
        f"{'asking' if verb == 'ask' else 'searching'} a server (--server)",
        "The knowledge base and filter options apply on the server too (within the "
        "token's knowledge bases).",
    )
    remote.add_argument(
        "--server",
        metavar="HOST:PORT",
        help=f"{verb} a running edge service instead of the local data directory",
    )
    remote.add_argument("--token", default=None, help=f"bearer token (default ${TOKEN_ENV})")
    remote.add_argument("--tls-ca", type=Path, help="CA of the server's certificate (TLS)")
    remote.add_argument("--tls-cert", type=Path, help="client certificate (mutual TLS)")
    remote.add_argument("--tls-key", type=Path, help="client private key (mutual TLS)")
    remote.add_argument(
        "--timeout", type=float, default=30.0, help="seconds before giving up (default 30)"
    )
    return remote


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        return _serve(args, _serve_args(argv))
    if args.command == "ask" and args.server:
        return _remote_ask(args)
    if args.command == "search" and args.server:
        return _remote_search(args)
    return ragcore_cli.run(args)


# -- serve --------------------------------------------------------------------------------
def _serve_args(argv: list[str] | None) -> list[str]:
    """The options given after ``serve``: what each child of --processes N runs with."""
    given = list(sys.argv[1:] if argv is None else argv)
    return given[given.index("serve") + 1 :] if "serve" in given else given


def _serve(args, serve_args: list[str]) -> int:
    if args.parent_pid is not None:
        die_with_parent(args.parent_pid)
    processes = default_processes() if args.processes is None else args.processes
    _log_to_stderr(args.verbose, tag_pid=processes > 1 or args.child is not None)
    if processes < 1:
        print(
            f"ragcore serve: error: --processes {processes}: use 1 or more (1: a single process)",
            file=sys.stderr,
        )
        return 2
    try:
        config = ServerConfig(
            engine=Config(
                data_dir=args.data_dir or default_data_dir(),
                store_url=ragcore_cli.store_url(args),
                store_read_url=ragcore_cli.store_read_url(args),
                store_settings=ragcore_cli.store_settings(args),
                threads=args.threads,
                llm_base_url=args.llm_url,
                llm_model=args.llm_model,
                llm_context_chars=args.llm_context_chars,
                answer_cache_size=args.answer_cache,
                retrieval_cache_size=args.retrieval_cache,
            ),
            host=args.host,
            port=args.port,
            max_in_flight=args.max_in_flight,
            workers=args.workers,
            max_message_bytes=args.max_message_bytes,
            grace_seconds=args.grace,
            tokens_file=args.tokens_file,
            tls_cert=args.tls_cert,
            tls_key=args.tls_key,
            tls_client_ca=args.tls_client_ca,
            metrics_port=args.metrics_port,
            http_port=args.http_port,
            http_host=args.http_host,
            cors_origins=tuple(args.cors_origin),
            reuse_port=args.child is not None,
            private_socket=args.child_socket,
        )
        if processes > 1:
            return _serve_processes(config, processes, serve_args, args.sample_kb)
        engine = Engine(config.engine)
        with engine:
            if args.sample_kb and args.child is None:  # the parent of --processes did it
                _ingest_sample(engine)
            if args.child is not None:
                # Load before listening: the parent relays connections to a child as soon
                # as its socket accepts, and a loading one would refuse their calls.
                _exit_on_signal()  # stopped while loading: nothing in flight to drain
                engine.warm_up()
            return serve(config, engine)
    except RagcoreError as error:
        print(f"ragcore serve: error: {error}", file=sys.stderr)
        return 2


def _serve_processes(
    config: ServerConfig, processes: int, serve_args: list[str], sample_kb: bool
) -> int:
    """The parent of --processes N: checks what the children would only fail on, ingests
    the sample knowledge base once, then supervises (see edge_server.supervisor)."""
    check_metrics_ports(config.metrics_port, processes)
    Tokens.load(config.tokens_file)  # a bad file: one error here, not one per child
    listener = open_listener(config)
    # The children share the HTTP port (SO_REUSEPORT): a free one is picked here for port 0.
    http = []
    if config.http_port is not None:
        where = replace(config, host=config.http_host or config.host, port=config.http_port)
        with open_listener(where) as probe:
            http = ["--http-port", str(probe.getsockname()[1])]
    _exit_on_signal()  # until supervise() takes over: no child yet
    if sample_kb:
        with Engine(config.engine) as engine:
            _ingest_sample(engine)
    port = listener.getsockname()[1]
    workers = ["--workers", str(child_workers(config.workers, processes))]
    log.info(
        "listening on %s:%d with %d processes, %s requests worked on at once in each",
        config.host,
        port,
        processes,
        workers[1],
    )
    return supervise(
        processes,
        lambda i, private: [
            *child_command(serve_args, i, private, child_metrics_port(config.metrics_port, i)),
            *http,
            *workers,
        ],
        config.grace_seconds,
        listener,
    )


def _exit_on_signal() -> None:
    """SIGTERM or SIGINT exits 0 (through the engine's ``with``) until ``serve`` or
    ``supervise`` installs its own handlers."""

    def leave(_number, _frame) -> None:
        raise SystemExit(0)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, leave)


def _ingest_sample(engine: Engine) -> None:
    report = engine.ingest(sample_documents())
    ingest_sample_tables(engine)
    log.info(
        "sample knowledge base: %d added, %d updated, %d unchanged",
        report.count(IngestStatus.ADDED),
        report.count(IngestStatus.UPDATED),
        report.count(IngestStatus.UNCHANGED),
    )


def _log_to_stderr(verbose: bool, tag_pid: bool = False) -> None:
    """Access lines are bare JSON (one per request, with the pid); everything else has a
    prefix (with the pid when several processes share the log)."""
    plain = logging.StreamHandler(sys.stderr)
    pid = " [%(process)d]" if tag_pid else ""
    plain.setFormatter(logging.Formatter(f"%(asctime)s{pid} %(levelname)s %(name)s: %(message)s"))
    plain.addFilter(lambda record: record.name != "edge_server.access")
    access = logging.StreamHandler(sys.stderr)
    access.setFormatter(logging.Formatter("%(message)s"))
    access.addFilter(lambda record: record.name == "edge_server.access")
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO, handlers=[plain, access])


# -- ask --server, search --server ---------------------------------------------------------
def _client(args) -> Client:
    return Client(
        args.server,
        token=args.token or os.environ.get(TOKEN_ENV) or None,
        tls_ca=args.tls_ca,
        client_cert=args.tls_cert,
        client_key=args.tls_key,
        timeout=args.timeout,
    )


def _remote_filters(args) -> dict:
    """The filter options ``ask`` and ``search`` share, as SearchFilters fields."""
    return {
        "knowledge_bases": args.kb,
        "doc_types": args.doc_type,
        "updated_after": args.after.isoformat() if args.after else "",
        "updated_before": args.before.isoformat() if args.before else "",
        "min_authority": args.min_authority or 0,
        "exclude_superseded": args.current,
    }


def _failed(command: str, error: grpc.RpcError) -> int:
    """Print why a call failed (and which field, when the server says) and return 2."""
    print(f"ragcore {command}: {error.code().name}: {error.details()}", file=sys.stderr)
    bad = error_details(error).get("BadRequest")
    for violation in getattr(bad, "field_violations", ()):
        if violation.field:
            print(f"  field: {violation.field}", file=sys.stderr)
    return 2


def _remote_ask(args) -> int:
    filters = _remote_filters(args)
    rounds = args.max_rounds or 0
    session = args.session or ""  # a turn of that conversation, kept on the server
    try:
        with _client(args) as client:
            if args.stream:
                answer = None
                events = client.ask_stream(
                    args.question,
                    trace=args.trace,
                    max_rounds=rounds,
                    session_id=session,
                    **filters,
                )
                for event in events:
                    if event.HasField("result"):
                        answer = event.result
                    elif not args.json:
                        print(_describe_event(event), file=sys.stderr)
            else:
                answer = client.ask(
                    args.question,
                    trace=args.trace,
                    max_rounds=rounds,
                    session_id=session,
                    **filters,
                )
    except grpc.RpcError as error:
        return _failed("ask", error)
    except OSError as error:  # an unreadable certificate file
        print(f"ragcore ask: error: {error}", file=sys.stderr)
        return 2
    if answer is None:  # the stream ended without its result
        print("ragcore ask: the server sent no answer", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(_to_dict(answer), indent=2, ensure_ascii=False))
        return 0
    _print_answer(answer)
    if args.trace:
        print("\n" + _trace(answer.trace).render())
    return 0


def _remote_search(args) -> int:
    if args.rerank:
        print(
            "ragcore search: error: --rerank is the server's choice; leave it out with --server",
            file=sys.stderr,
        )
        return 2
    mode = pb.SearchMode.Value(f"SEARCH_MODE_{args.mode.upper()}")
    try:
        with _client(args) as client:
            reply = client.search(args.query, mode=mode, k=args.top_k, **_remote_filters(args))
    except grpc.RpcError as error:
        return _failed("search", error)
    except OSError as error:
        print(f"ragcore search: error: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([_to_dict(h) for h in reply.hits], indent=2, ensure_ascii=False))
        return 0
    for rank, h in enumerate(reply.hits, 1):
        pages = (h.first_page, h.last_page) if h.first_page else None
        where = location(h.title or h.document_id, h.section, pages)
        print(f"{rank:2d}. {h.score:.3f}  {where}  ({h.knowledge_base})")
        print(f"    {' '.join(h.text.split())[:200]}")
    return 0


def _to_dict(message) -> dict:
    return json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )


def _print_answer(answer: pb.Answer) -> None:
    if answer.rewritten_question:
        print(f"(searched as: {answer.rewritten_question})")
    print(f"{LABELS.get(answer.status, '')}{answer.text}")
    if answer.status in LABELS:  # not ok: the reason on one line, as ragcore ask prints it
        print(f"why: {_why(answer)}")
    for c in answer.citations:
        pages = (c.first_page, c.last_page) if c.first_page else None
        line = source_line(c.title, c.document_id, c.knowledge_base, c.updated_at, c.section, pages)
        print(f"  [{c.number}] {line}")
    if answer.status == pb.ANSWER_STATUS_UNCERTAIN:
        print("  open issues:")
        for check in answer.report.checks:
            for issue in check.issues:
                where = f"{_name(pb.Check, issue.check)}/{_name(pb.IssueKind, issue.kind)}"
                rule = f" [{issue.rule}]" if issue.rule else ""
                print(f"  - {where}{rule}: {issue.message}")


def _why(answer: pb.Answer) -> str:
    """The first open issue's message, the others counted (``ragcore.cli.render.why``)."""
    messages = [" ".join(i.message.split()) for c in answer.report.checks for i in c.issues]
    if not messages:
        return "nothing was found to answer it from"
    more = len(messages) - 1
    return messages[0] + (f" (and {more} more open issue{'s' if more > 1 else ''})" if more else "")


def _describe_event(event: pb.AskEvent) -> str:
    kind = event.WhichOneof("event")
    data = getattr(event, kind)
    where = f"round {event.round} " if event.round else ""
    summary = {
        "perception": lambda: (
            f"action={_name(pb.Action, data.action)} route={_name(pb.Route, data.route)}"
        ),
        "plan": lambda: f"{len(data.tasks)} tasks",
        "retrieval": lambda: f"{data.evidence} evidence, {data.searches} searches",
        "draft": lambda: "abstained" if data.abstained else data.text[:80],
        "validation": lambda: "passed" if data.passed else "failed",
        "retry": lambda: ", ".join(_name(pb.IssueKind, i.kind) for i in data.issues),
    }[kind]()
    return f"{event.elapsed_ms:7.1f} ms  {where}{kind}: {summary}"


def _name(enum, number: int) -> str:
    """An enum value as ragcore writes it: ``ISSUE_KIND_NO_EVIDENCE`` → ``no_evidence``."""
    prefix = "".join(f"_{c}" if c.isupper() else c for c in enum.DESCRIPTOR.name)
    return enum.Name(number).removeprefix(prefix.upper().lstrip("_") + "_").lower()


def _trace(node: pb.TraceNode) -> TraceNode:
    return TraceNode(node.name, node.ms, node.detail, tuple(_trace(c) for c in node.children))


if __name__ == "__main__":
    sys.exit(main())
