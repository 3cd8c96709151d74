"""The fault benchmark: how well validation catches planted faults in an LLM's answers.

A fault set is a folder with ``cases.jsonl`` and a knowledge base ``kb/<knowledge
base>/*`` of its own. Each case is a question and a prepared answer, correct or with one
planted fault (a figure of another entity, a wrong unit, the wrong direction of a
comparison, an invented citation, ...). The answers are served by ``ReplayServer``, a
real OpenAI-compatible HTTP server on loopback: for each chat request it finds the case
by the question, and turns every ``{cite:DOC_ID}`` of the prepared answer into the
``[n]`` that the engine's numbered context gave that document (a document that was not
retrieved gets a number that points at no passage). The engine runs its whole loop
with that server as its LLM, so the validator judges exactly what a model would have
written.

A fault is caught when the answer does not come back ``ok``; a correct answer is
accepted when its status is the expected one (``ok`` unless the case says otherwise).

Case line: ``{"id", "question", "answer", "label": "fault"|"correct", "kind",
"expected_status"?: "ok"|"no_answer", "note"?}``.
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from ragcore.answering import Answer
from ragcore.config import Config
from ragcore.engine import Engine
from ragcore.errors import InvalidInputError
from ragcore.evaluation.jsonl import read_rows
from ragcore.ingest.loaders import load_path
from ragcore.types import AnswerStatus

LABELS = ("fault", "correct")
CASES_FILE = "cases.jsonl"
KB_FOLDER = "kb"
REPLAY_MODEL = "ragcore-replay"
# The day the fault sets were written against ("today" for relative time words).
FAULTS_TODAY = date(2026, 12, 1)
_CITE = re.compile(r"\{cite:([^}\s]+)\}")
# A context passage of the numbered-context prompt: "[n] (title, 2024-01-31) text".
_PASSAGE = re.compile(r"^\[(\d+)\] \((.*), (?:\d{4}-\d{2}-\d{2}|undated)\) ", re.MULTILINE)
_QUESTION = re.compile(r"\n\nQuestion: (.*)\Z", re.DOTALL)


@dataclass(frozen=True)
class FaultCase:
    id: str
    question: str
    answer: str
    """The prepared answer, with ``{cite:DOC_ID}`` markers."""
    label: str
    """``fault`` (one planted fault) or ``correct``."""
    kind: str
    expected_status: AnswerStatus = AnswerStatus.OK
    note: str = ""


def load_fault_set(folder: Path | str) -> tuple[list[FaultCase], Path]:
    """The cases of a fault set folder and its knowledge base folder; errors name the line."""
    folder = Path(folder)
    if folder.is_file():  # the cases file itself was named
        folder = folder.parent
    path, kb = folder / CASES_FILE, folder / KB_FOLDER
    if not kb.is_dir():
        raise InvalidInputError(f"{folder} has no {KB_FOLDER}/ folder: a fault set needs one")
    return read_rows(path, "fault cases", "cases", _case), kb


def _case(row: object, where: str) -> FaultCase:
    if not isinstance(row, dict):
        raise InvalidInputError(f"{where}: each line must be a JSON object")
    for key in ("id", "question", "answer", "kind"):
        if not isinstance(row.get(key), str) or not row[key].strip():
            raise InvalidInputError(f"{where}: field '{key}' must be non-empty text")
    if row.get("label") not in LABELS:
        raise InvalidInputError(f"{where}: field 'label' must be one of {', '.join(LABELS)}")
    status = AnswerStatus.parse(row.get("expected_status", AnswerStatus.OK.value))
    if status is None:
        raise InvalidInputError(f"{where}: field 'expected_status' must be ok or no_answer")
    return FaultCase(
        id=row["id"],
        question=row["question"],
        answer=row["answer"],
        label=row["label"],
        kind=row["kind"],
        expected_status=status,
        note=str(row.get("note", "")),
    )


def cite_numbers(answer: str, prompt: str, titles: dict[str, str]) -> str:
    """``answer`` with each ``{cite:DOC_ID}`` replaced by the ``[n]`` of every passage the
    prompt's numbered context gave from that document (by its title), as a model citing
    the document would; one past the last passage when the document is not there."""
    numbers: dict[str, list[int]] = {}
    for match in _PASSAGE.finditer(prompt):
        numbers.setdefault(match.group(2), []).append(int(match.group(1)))
    missing = max((n for ns in numbers.values() for n in ns), default=0) + 1

    def number(match: re.Match[str]) -> str:
        title = titles.get(match.group(1), match.group(1))
        return "".join(f"[{n}]" for n in numbers.get(title, [missing]))

    return _CITE.sub(number, answer)


class ReplayServer:
    """An OpenAI-compatible chat-completions server on 127.0.0.1 that answers with the
    prepared answer of the case being asked (``case``; see the module docstring). A
    request for another question gets 404: several cases may share a question."""

    def __init__(self, titles: dict[str, str]) -> None:
        replay = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server name)
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                prompt = body["messages"][-1]["content"]
                found = _QUESTION.search(prompt)
                case = replay.case
                asked = " ".join(found.group(1).split()) if found else None
                if case is None or asked != " ".join(case.question.split()):
                    self.send_error(404, "no prepared answer for this question")
                    return
                replay.requests += 1
                content = cite_numbers(case.answer, prompt, titles)
                reply = {"choices": [{"message": {"role": "assistant", "content": content}}]}
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_args: object) -> None:  # one line per request is noise
                pass

        self.requests = 0
        self.case: FaultCase | None = None
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def __enter__(self) -> ReplayServer:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._http.shutdown()
        self._http.server_close()
        self._thread.join()


@dataclass(frozen=True)
class FaultOutcome:
    case: FaultCase
    answer: Answer

    @property
    def cited_not_retrieved(self) -> list[str]:
        """Documents the prepared answer cites that retrieval did not bring: a model could
        not have cited them, so rejecting the answer is retrieval's miss, not validation's."""
        retrieved = {e.document.id for e in self.answer.evidence}
        return sorted(set(_CITE.findall(self.case.answer)) - retrieved)

    @property
    def passed(self) -> bool:
        """A fault caught (not ``ok``), or a correct answer accepted (its expected status)."""
        if self.case.label == "fault":
            return self.answer.status != AnswerStatus.OK
        return self.answer.status == self.case.expected_status

    def row(self) -> dict:
        a = self.answer
        return {
            "id": self.case.id,
            "label": self.case.label,
            "kind": self.case.kind,
            "status": a.status,
            "passed": self.passed,
            "rounds": a.rounds,
            "issues": [f"{i.check}/{i.kind}: {i.message}" for i in a.issues],
            "rules": [i.rule for i in a.issues],  # which rule found each issue
            "cited_not_retrieved": self.cited_not_retrieved,
        }


def evaluate_faults(
    folder: Path | str,
    config: Config,
    *,
    clock: Callable[[], date] = lambda: FAULTS_TODAY,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Replay a fault set through the engine's LLM path and score the validator.

    ``config.data_dir`` is where the set's knowledge base is ingested (unchanged
    documents are skipped on a second run).
    """
    cases, kb = load_fault_set(folder)
    documents = [doc for base in _bases(kb) for doc in load_path(base, base.name)]
    titles = {doc.id: doc.title or doc.id for doc in documents}
    with ReplayServer(titles) as server:
        # Cases may share a question: a cached answer would be another case's.
        settings = replace(
            config, llm_base_url=server.url, llm_model=REPLAY_MODEL, answer_cache_size=0
        )
        with Engine(settings, clock=clock) as engine:
            engine.ingest(documents)
            outcomes = []
            for n, case in enumerate(cases, start=1):
                server.case = case
                outcomes.append(FaultOutcome(case, engine.ask(case.question)))
                if progress is not None:
                    progress(n, len(cases))
    return score(outcomes)


def score(outcomes: Sequence[FaultOutcome]) -> dict:
    """Faults caught and correct answers rejected, overall and per kind."""
    faults = [o for o in outcomes if o.case.label == "fault"]
    correct = [o for o in outcomes if o.case.label == "correct"]
    # Correct answers whose every cited document was retrieved: validation's own share.
    reachable = [o for o in correct if not o.cited_not_retrieved]
    by_kind: dict[str, dict] = {}
    for kind, label in dict.fromkeys((o.case.kind, o.case.label) for o in outcomes):
        group = [o for o in outcomes if o.case.kind == kind and o.case.label == label]
        caught = [o for o in group if o.passed]
        key = "caught" if label == "fault" else "accepted"
        checks = Counter(i.kind for o in caught for i in o.answer.issues[:1])
        by_kind[kind] = {
            "label": label,
            "cases": len(group),
            key: len(caught),
            "share": _share(len(caught), len(group)),
            "first_issue": dict(checks.most_common()),
        }
    return {
        "cases": len(outcomes),
        "faults": len(faults),
        "correct": len(correct),
        "faults_caught": _share(sum(o.passed for o in faults), len(faults)),
        "false_rejections": _share(sum(not o.passed for o in correct), len(correct)),
        "correct_with_sources_retrieved": len(reachable),
        "false_rejections_with_sources_retrieved": _share(
            sum(not o.passed for o in reachable), len(reachable)
        ),
        "by_kind": by_kind,
        "rows": [o.row() for o in outcomes],
    }


def _bases(kb: Path) -> Iterator[Path]:
    """Each folder of ``kb`` is one knowledge base, named after it."""
    yield from sorted(p for p in kb.iterdir() if p.is_dir())


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0
