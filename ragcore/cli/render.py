"""How command results are shown: text for people, JSON (``--json``) for machines."""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import asdict, is_dataclass
from datetime import date
from pathlib import Path

from ragcore import Answer, CheckReport, Hit, IngestReport, KnowledgeBaseInfo, Stats
from ragcore.types import IngestStatus


def print_json(value, *, compact: bool = False) -> None:
    """``value`` as JSON: indented, or on one line (``compact``, for JSON Lines)."""
    indent = None if compact else 2
    print(json.dumps(value, default=_json_default, ensure_ascii=False, indent=indent))


def _json_default(value):
    if isinstance(value, (date, Path)):
        return str(value)
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    try:
        return dict(value)
    except (TypeError, ValueError):
        return str(value)


def _ingest_summary(report: IngestReport) -> dict[str, int]:
    return {status.value: report.count(status) for status in IngestStatus}


def ingest_dict(report: IngestReport) -> dict:
    return {
        **_ingest_summary(report),
        "chunks": report.chunks,
        "seconds": round(report.seconds, 3),
        "documents": [asdict(o) for o in report.outcomes],
        "skipped": [asdict(s) for s in report.skipped],
        "notes": [asdict(n) for n in report.notes],
    }


def print_ingest(report: IngestReport) -> None:
    summary = _ingest_summary(report)
    print(
        f"{summary['added']} added, {summary['updated']} updated, {summary['unchanged']} "
        f"unchanged; {report.chunks} chunks in {report.seconds:.1f} s"
    )
    if report.skipped:
        print(f"skipped {len(report.skipped)} file{'s' if len(report.skipped) != 1 else ''}:")
        for skipped in report.skipped:
            print(f"  {skipped.path}: {skipped.reason} ({skipped.detail})")
    for note in report.notes:
        print(f"note: {note.path}: {note.detail}")


SECTION_SEPARATOR = " > "
_NUMBERED = re.compile(r"^\d+(?:\.\d+)*\.?\s")  # "5.3 Mechanical seal", "2. Safety"


def location(title: str, section: str = "", pages: tuple[int, int] | None = None) -> str:
    """Where to look, as a technician reads it: "CP-200 service manual, §5.3 Mechanical
    seal, p. 42" ("p. 42–43" for a range). The section is given from its nearest numbered
    heading ("§5.3 Mechanical seal > Torque values"), or whole when none is numbered."""
    parts = [title]
    if section:
        headings = section.split(SECTION_SEPARATOR)
        numbered = [i for i, h in enumerate(headings) if _NUMBERED.match(h)]
        shown = SECTION_SEPARATOR.join(headings[numbered[-1] :] if numbered else headings)
        parts.append(f"§{shown}" if numbered else f"§ {shown}")
    if pages is not None:
        first, last = pages
        parts.append(f"p. {first}" if first == last else f"p. {first}–{last}")
    return ", ".join(parts)


def source_line(
    title: str,
    document_id: str,
    knowledge_base: str,
    updated_at: date | str | None,
    section: str = "",
    pages: tuple[int, int] | None = None,
) -> str:
    """A cited or found chunk's source on one line: its location, then the knowledge base,
    the document id and, for a dated document only, its date (an undated one shows none)."""
    dated = f", updated {updated_at}" if updated_at else ""
    return (
        f"{location(title or document_id, section, pages)} ({knowledge_base}/{document_id}{dated})"
    )


def hit_dict(hit: Hit) -> dict:
    return {
        "chunk_id": hit.chunk_id,
        "document_id": hit.document_id,
        "score": hit.score,
        "scores": dict(hit.scores),
        "text": hit.text,
        "start": hit.start,
        "end": hit.end,
        "section": hit.section,
        "pages": hit.pages,
        "document": asdict(hit.document),
    }


def print_hits(hits: list[Hit]) -> None:
    if not hits:
        print("  (no results)")
    width = os.get_terminal_size().columns if sys.stdout.isatty() else 100
    for rank, hit in enumerate(hits, start=1):
        doc = hit.document
        dated = f", updated {doc.updated_at}" if doc.updated_at else ""
        print(
            f"{rank}. [{hit.score:.3f}] {location(doc.title or doc.id, hit.section, hit.pages)}"
            f"  ({doc.knowledge_base}/{doc.id}, {doc.doc_type}, authority {doc.authority}{dated})"
        )
        text = " ".join(hit.text.split())
        print(f"   {text[: max(40, width - 4)]}{'…' if len(text) > width - 4 else ''}")


def stats_dict(stats: Stats, kbs: list[KnowledgeBaseInfo]) -> dict:
    return {**asdict(stats), "knowledge_base_list": [asdict(k) for k in kbs]}


def print_stats(stats: Stats, kbs: list[KnowledgeBaseInfo]) -> None:
    print(f"store: {stats.store}" if stats.store else f"data directory: {stats.data_dir}")
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


def check_dict(report: CheckReport) -> dict:
    return {
        "data_dir": report.data_dir,
        "ok": report.ok,
        "seconds": round(report.seconds, 3),
        "findings": [asdict(f) for f in report.findings],
    }


def print_check(report: CheckReport) -> None:
    width = max(len(f.check) for f in report.findings)
    for f in report.findings:
        print(f"{'ok' if f.ok else 'FAILED':6}  {f.check:{width}}  {f.detail}")
        if f.fix:
            print(f"{'':6}  {'':{width}}  → {f.fix}")
    verdict = "sound" if report.ok else f"{len(report.problems)} problem(s)"
    print(f"{report.data_dir}: {verdict} ({report.seconds:.1f} s)")


def print_deleted(document_id: str, chunks: int) -> None:
    print(f"deleted {document_id} ({chunks} chunks)")


def answer_dict(answer: Answer, with_trace: bool) -> dict:
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
        "rewritten_question": answer.rewritten_question,
        "cached": answer.cached,
        "session_id": answer.session_id,
        "timings_ms": {k: round(v, 3) for k, v in answer.timings.items()},
        **({"trace": answer.trace.to_dict()} if with_trace else {}),
    }


def print_answer(answer: Answer, indent: str = "") -> None:
    label = {"ok": "", "uncertain": "UNCERTAIN: ", "no_answer": "NO ANSWER: "}[answer.status]
    if answer.rewritten_question:
        print(f"{indent}(searched as: {answer.rewritten_question})")
    print(f"{indent}{label}{answer.text}")
    if answer.status != "ok":
        print(f"{indent}why: {why(answer)}")
    for c in answer.citations:
        line = source_line(
            c.title, c.document_id, c.knowledge_base, c.updated_at, c.section, c.pages
        )
        print(f"{indent}  [{c.number}] {line}")
    if answer.status == "uncertain":
        print(f"{indent}  open issues:")
        for issue in answer.issues:
            rule = f" [{issue.rule}]" if issue.rule else ""
            print(f"{indent}  - {issue.check}/{issue.kind}{rule}: {issue.message}")


def why(answer: Answer) -> str:
    """The reason an answer is not ``ok``, on one line: its first open issue (the others
    counted; an uncertain answer lists them below)."""
    issues = answer.issues
    if not issues:
        return "nothing was found to answer it from"
    first = " ".join(issues[0].message.split())
    more = len(issues) - 1
    return first + (f" (and {more} more open issue{'s' if more > 1 else ''})" if more else "")


def print_trace(answer: Answer) -> None:
    print("\n" + answer.trace.render())


def print_beir(result: dict) -> None:
    print(
        f"{result['mode']} on {result['queries']} {result['split']} queries: nDCG@10 "
        f"{result['ndcg@10']:.4f}, Recall@100 {result['recall@100']:.4f}, "
        f"MRR@10 {result['mrr@10']:.4f}"
    )


def print_golden(result: dict) -> None:
    for layer in ("retrieval", "process", "generation", "latency_ms"):
        figures = ", ".join(f"{k} {v}" for k, v in result[layer].items())
        print(f"{layer}: {figures}")
    wrong = [r for r in result["rows"] if r["status"] != r["expected_status"]]
    for row in wrong:
        print(f"  {row['id']}: expected {row['expected_status']}, got {row['status']}")
    if conversations := result.get("conversations"):
        figures = ", ".join(f"{k} {v}" for k, v in conversations.items() if not isinstance(v, list))
        print(f"conversations: {figures}")
        for row in conversations["rows"]:
            if row["status"] != row["expected_status"]:
                print(
                    f"  {row['conversation']} turn {row['turn']}: expected "
                    f"{row['expected_status']}, got {row['status']}"
                    + (f" (searched as {row['rewritten']!r})" if row["rewritten"] else "")
                )


def print_questions(result: dict) -> None:
    print(
        f"{result['questions']} questions ({result['answerable']} answerable): "
        f"precision of ok {result['precision_of_ok']:.1%} ({result['ok']} ok), "
        f"answerable answered right {result['answerable_right']:.1%}, "
        f"unanswerable answered ok {result['unanswerable_ok']}, "
        f"right document cited {result['right_document_cited']:.1%}, "
        f"p50 {result['latency_ms']['p50']:.0f} ms"
    )
    print("statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(result["statuses"].items())))


def print_faults(result: dict) -> None:
    print(
        f"{result['cases']} cases: faults caught {result['faults_caught']:.1%} of "
        f"{result['faults']}, correct answers rejected {result['false_rejections']:.1%} "
        f"of {result['correct']} ({result['false_rejections_with_sources_retrieved']:.1%} of the "
        f"{result['correct_with_sources_retrieved']} whose cited documents were retrieved)"
    )
    for kind, figures in result["by_kind"].items():
        verb = "caught" if figures["label"] == "fault" else "accepted"
        first = ", ".join(f"{k} {n}" for k, n in figures["first_issue"].items())
        print(
            f"  {figures['label']:7} {kind:24} {verb} {figures[verb]}/{figures['cases']}"
            + (f"  ({first})" if first else "")
        )


def demo_dict(report: IngestReport, answers: list[Answer]) -> dict:
    return {
        "ingested": report.count(IngestStatus.ADDED) + report.count(IngestStatus.UPDATED),
        "answers": [answer_dict(a, with_trace=False) for a in answers],
    }


def print_demo(data_dir: Path, documents: int, answers: list[Answer]) -> None:
    print(f"sample knowledge base in {data_dir}: {documents} documents")
    for answer in answers:
        print(f"\n? {answer.question}")
        print_answer(answer, indent="  ")
