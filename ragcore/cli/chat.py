"""``ragcore chat``: questions at an interactive prompt, as the turns of one session.

Each line is asked with ``Engine.ask(..., session=...)``; a follow-up is rewritten from
the previous turn, and the rewrite is shown before the answer. The session lives in the
data directory, so ``--session ID`` resumes it later (until it expires). Lines starting
with ``/`` are commands: ``/history``, ``/end``, ``/quit``; end of input also quits.
"""

from __future__ import annotations

import argparse
import contextlib
import sys

from ragcore.cli import render
from ragcore.engine import Engine
from ragcore.errors import InvalidInputError, ScopeError
from ragcore.storage.filters import SearchFilters

PROMPT = "? "
HELP = "commands: /history (the turns so far), /end (end the session), /quit (leave; kept)"


def chat(engine: Engine, args: argparse.Namespace, filters: SearchFilters) -> int:
    """Run the prompt until /quit, /end or end of input; 0 when left normally."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (line editing and history for input())
    session = args.session or engine.new_session()
    existing = engine.session(session)  # a bad or foreign id is refused before the prompt
    interactive = sys.stdin.isatty()
    if not args.json:
        resumed = f", {len(existing.turns)} turns so far" if existing else ""
        # Two short lines: a terminal wraps one long line in the middle of a word.
        print(f"session {session}{resumed}: resume with --session {session}")
        print(HELP)
    try:
        return _prompt(engine, args, filters, session, interactive)
    except KeyboardInterrupt:  # Ctrl-C: the turns so far are stored
        print(f"\nsession {session} kept: resume with ragcore chat --session {session}")
        return 130


def _prompt(
    engine: Engine,
    args: argparse.Namespace,
    filters: SearchFilters,
    session: str,
    interactive: bool,
) -> int:
    """Read and answer questions until /quit, /end or end of input."""
    while True:
        try:
            line = input(PROMPT if interactive else "")
        except EOFError:
            if interactive:
                print()  # Ctrl-D: end the prompt's line
            break
        question = line.strip()
        if not question:
            continue
        if question in ("/quit", "/exit"):
            break
        if question == "/end":
            engine.end_session(session)
            if not args.json:
                print(f"session {session} ended")
            return 0
        if question == "/history":
            _history(engine, session, args.json)
            continue
        if question.startswith("/"):
            print(HELP, file=sys.stderr)
            continue
        try:
            answer = engine.ask(
                question, filters=filters, max_rounds=args.max_rounds, session=session
            )
        except (InvalidInputError, ScopeError) as exc:  # a bad question: the chat goes on
            print(f"ragcore: error: {exc}", file=sys.stderr)
            continue
        if args.json:
            render.print_json(render.answer_dict(answer, with_trace=args.trace), compact=True)
            continue
        render.print_answer(answer)
        if args.trace:
            render.print_trace(answer)
    return 0


def _history(engine: Engine, session: str, as_json: bool) -> None:
    found = engine.session(session)
    turns = found.turns if found else ()
    if as_json:
        render.print_json(
            [
                {
                    "turn": t.number,
                    "question": t.question,
                    "rewritten": t.rewritten,
                    "status": t.status,
                    "documents": list(t.documents),
                }
                for t in turns
            ],
            compact=True,
        )
        return
    for t in turns:
        searched = f"  (searched as: {t.rewritten})" if t.rewritten != t.question else ""
        print(f"  {t.number}. {t.question}{searched} → {t.status} {', '.join(t.documents)}")
