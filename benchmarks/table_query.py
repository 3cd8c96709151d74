"""Table-question latency: reading a question on a 600,000-row table (issue 28), then
recognise, compile, execute and ask on a 100,000-row table (issue 14).

First (``_table_reading``, skipped with ``--no-reading``): a generated 600,000-row
work-order log (``--reading-rows``) loaded with its value index; question reading
(the catalog's value lookup + ``recognise``) p50/p95 with the index against the old
scan (every dimension's distinct values read, then matched per question), printed in
this one run, and the goal ratio: reading p50 <= 20 ms.

Then (skipped with ``--reading-only``):

Generates a shortages table shaped like the sample one (the same schema file,
``ragcore/evaluation/sample_kb/tables/shortages.toml``; more models, parts, regions and
months: 25 models x 4 parts x 10 regions x 100 months = 100,000 rows), loads it with
``Engine.ingest_table`` into a scratch data directory, then, for ~20 fixed questions
(rankings, totals, per-dimension, time windows, derived measures), times each stage of
answering from a table, ``--rounds`` passes:

- recognise: ``recognise`` (perception's data-question reader) over the catalogue's
  schemas and stored dimension values (perception's time constraint read beforehand);
- compile: ``compile_query`` of the recognised ``TableQuery``;
- execute: ``TableReader.run`` (schema look-up, compile, the read-only SQL, row ids);
- plan+execute: the three together, per question;
- ask: ``Engine.ask`` end to end (extractive generator, caches off).

Prints p50/p95 per stage (the median of the per-round percentiles) and the goal ratio:
planning + execution p50 <= 10 ms (issue 14). Run from the repository root; the last
line is every figure as JSON.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import sqlite3
import tempfile
import time
from contextlib import ExitStack
from datetime import date
from pathlib import Path

from _common import median, percentile, rss_mb
from _table_reading import measure as measure_reading
from _table_reading import report as report_reading

from ragcore import Config, Engine
from ragcore.agents.perception.data_question import DataQuestion, recognise
from ragcore.retrieval.tables import compile_query
from ragcore.storage.store import DATABASE_NAME
from ragcore.tabular import ColumnType

SCHEMA = (
    Path(__file__).resolve().parents[1]
    / "ragcore"
    / "evaluation"
    / "sample_kb"
    / "tables"
    / "shortages.toml"
)
TODAY = date(2026, 12, 3)
GOAL_MS = 10.0
STAGES = ("recognise", "compile", "execute", "plan+execute", "ask")
# The sample's models and one of their parts each, then invented ones; 4 parts a model.
MODELS = [
    ("CP-200", "88-2041"),
    ("CP-350", "88-3510"),
    ("HP-400", "40-1177"),
    ("AC-75", "61-0075"),
    ("AC-110", "61-0110"),
    ("CV-12", "35-0012"),
    ("GX-500", "52-0500"),
    ("RA-6", "73-0006"),
    *[
        (f"{p}-{n}", f"{10 + i:02d}-{n:04d}")
        for i, (p, n) in enumerate(
            [
                ("CP", 120),
                ("CP", 480),
                ("HP", 250),
                ("HP", 600),
                ("AC", 40),
                ("AC", 160),
                ("CV", 8),
                ("CV", 20),
                ("GX", 300),
                ("GX", 800),
                ("RA", 3),
                ("RA", 9),
                ("DP", 15),
                ("DP", 30),
                ("UV", 2),
                ("UV", 5),
                ("RO", 100),
            ]
        )
    ],
]
REGIONS = [
    "East",
    "West",
    "North",
    "South",
    "Central",
    "Northeast",
    "Northwest",
    "Southeast",
    "Southwest",
    "Coastal",
]
PARTS = ("09", "02", "03", "11")
QUESTIONS = [
    "Which three models had the highest shortage rate in the East region in October 2026?",
    "Which three equipment models had the most unfilled orders in 2025 across all regions?",
    "In which region was the CP-200 shortage rate highest in November 2026?",
    "Which two models had the lowest fill rate in the West region in March 2026?",
    "Which five models received the most order lines in the South region in 2026 so far?",
    "Which region had the most short orders last year?",
    "How many order lines were received in total in 2025, over all models and regions?",
    "What is the total number of short orders recorded for the HP-400 across all regions?",
    "How many order lines for part 61-0110-11 came from the North region?",
    "How many short orders were there in total in the Coastal region last month?",
    "What was the average shortage rate of the CP-350 per region?",
    "What is the average shortage rate per model in the East region?",
    "How many short orders were there per region in 2025?",
    "What was the average fill rate of the GX-500 per region in 2026?",
    "What was the shortage rate of the AC-75 in the East region in March 2026?",
    "How many order lines for the CV-12 were received in the last 3 months?",
    "What was the average shortage rate of the HP-400 over the last 6 months?",
    "How many unfilled orders were there since January 2026?",
    "What was the fill rate of the CP-200 in the East region in October 2026?",
    "What was the average fill rate per region last month?",
]


def write_table(path: Path) -> int:
    """The 100,000 rows, deterministic (figures from a fixed integer hash)."""
    rows = 0
    with path.open("w", newline="") as fp:
        out = csv.writer(fp)
        out.writerow(
            ["month", "model", "part_number", "region", "orders", "short_orders", "shortage_rate"]
        )
        for m in range(100):
            year, month = 2018 + (7 + m) // 12, (7 + m) % 12 + 1
            for mi, (model, stem) in enumerate(MODELS):
                for pi, suffix in enumerate(PARTS):
                    for ri, region in enumerate(REGIONS):
                        h = (m * 7919 + mi * 104729 + pi * 1299709 + ri * 15485863) % 1000003
                        orders = 10 + h % 140
                        short = (h // 140) % (orders // 5 + 1)
                        rate = round(100 * short / orders, 2)
                        out.writerow(
                            [
                                f"{year:04d}-{month:02d}",
                                model,
                                f"{stem}-{suffix}",
                                region,
                                orders,
                                short,
                                rate,
                            ]
                        )
                        rows += 1
    return rows


def single_column_indexes(db: Path, table: str, columns: list[tuple[str, bool]]) -> None:
    """Replace the table's indexes with one index per column (the layout before the
    covering time index), for the side-by-side comparison."""
    conn = sqlite3.connect(db)
    with conn:
        names = conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", (table,)
        ).fetchall()
        for (name,) in names:
            conn.execute(f'DROP INDEX "{name}"')
        for column, text in columns:
            nocase = " COLLATE NOCASE" if text else ""
            conn.execute(f'CREATE INDEX "{table}__{column}" ON "{table}" ("{column}"{nocase})')
        conn.execute(f'ANALYZE "{table}"')
    conn.close()


class Subject:
    """One data directory with the table loaded, and what one pass over it measured."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.catalog, self.reader = engine.table_catalog, engine.tables
        self.schemas, self.values = self.catalog.schemas, self.catalog.values  # cached, as in ask
        perception = engine.answerer.perception
        self.times = {q: perception.run(q).constraints.time for q in QUESTIONS}
        self.rounds: dict[str, list[list[float]]] = {s: [] for s in STAGES}
        self.results: dict[str, tuple] = {}

    def one_pass(self, ask: bool) -> None:
        got: dict[str, list[float]] = {s: [] for s in STAGES}
        for q in QUESTIONS:
            t0 = time.perf_counter()
            found = recognise(q, self.schemas, today=TODAY, time=self.times[q], values=self.values)
            t1 = time.perf_counter()
            if not isinstance(found, DataQuestion):
                raise SystemExit(f"not read as a data question: {q!r} -> {found!r}")
            schema = self.catalog.schema(found.query.table)
            compile_query(found.query, schema, max_rows=self.reader.max_rows)
            t2 = time.perf_counter()
            result = self.reader.run(found.query)
            t3 = time.perf_counter()
            self.results[q] = (result.sql, result.params, result.rows)
            got["recognise"].append((t1 - t0) * 1000)
            got["compile"].append((t2 - t1) * 1000)
            got["execute"].append((t3 - t2) * 1000)
            got["plan+execute"].append((t3 - t2 + t1 - t0) * 1000)
            if ask:
                got["ask"].append(self.engine.ask(q).timings["total"])
        for s in STAGES:
            if got[s]:
                self.rounds[s].append(got[s])

    def figures(self) -> dict[str, dict[str, float]]:
        return {
            s: {
                "p50_ms": round(median([percentile(r, 50) for r in rounds]), 3),
                "p95_ms": round(median([percentile(r, 95) for r in rounds]), 3),
            }
            for s, rounds in self.rounds.items()
            if rounds
        }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5, help="passes over the questions")
    parser.add_argument("--no-ask", action="store_true", help="skip timing Engine.ask")
    parser.add_argument(
        "--no-compare", action="store_true", help="skip the single-column-index side"
    )
    parser.add_argument("--dump", type=Path, default=None, help="write each question's result")
    parser.add_argument(
        "--reading-rows", type=int, default=600_000, help="rows of the question-reading table"
    )
    parser.add_argument("--no-reading", action="store_true", help="skip question reading")
    parser.add_argument(
        "--reading-only", action="store_true", help="only question reading (issue 28)"
    )
    args = parser.parse_args()
    reading: dict[str, float] = {}
    if not args.no_reading:
        with tempfile.TemporaryDirectory() as scratch:
            measured = measure_reading(Path(scratch), args.reading_rows, args.rounds)
        reading = report_reading(measured)
        if args.reading_only:
            print(json.dumps({"benchmark": "table_query", **reading}))
            return

    with tempfile.TemporaryDirectory() as scratch, ExitStack() as stack:
        csv_path = Path(scratch) / "shortages.csv"
        rows = write_table(csv_path)
        subjects: dict[str, Subject] = {}
        ingest_s = 0.0
        for label in ("shipped", "single") if not args.no_compare else ("shipped",):
            config = Config(
                data_dir=Path(scratch) / label, answer_cache_size=0, retrieval_cache_size=0
            )
            with Engine(config, clock=lambda: TODAY) as engine:
                started = time.perf_counter()
                info = engine.ingest_table(csv_path, table="shortages", schema=SCHEMA)
                if label == "shipped":
                    ingest_s = time.perf_counter() - started
                db = engine.config.data_dir / DATABASE_NAME  # the SQLite store's file
            if label == "single":
                schema = info.schema
                columns = [d.column for d in schema.dimensions] + [schema.time_column or ""]
                single_column_indexes(
                    db,
                    schema.sql_name,
                    [
                        (c, schema.columns[c] is ColumnType.TEXT)
                        for c in dict.fromkeys(columns)
                        if c
                    ],
                )
            engine = stack.enter_context(Engine(config, clock=lambda: TODAY))
            engine.warm_up()
            subjects[label] = Subject(engine)
        for _ in range(args.rounds):  # the sides alternate, pass by pass
            for label, subject in subjects.items():
                subject.one_pass(ask=label == "shipped" and not args.no_ask)
        rss = rss_mb()

    shipped = subjects["shipped"]
    if "single" in subjects and subjects["single"].results != shipped.results:
        differ = [q for q in QUESTIONS if subjects["single"].results[q] != shipped.results[q]]
        print(f"results differ between index layouts (float summation order?): {differ}")
    figures = {label: subject.figures() for label, subject in subjects.items()}
    print(f"{rows} rows loaded in {ingest_s:.1f} s; {len(QUESTIONS)} questions x {args.rounds}")
    for label, stages in figures.items():
        print(f"{label} indexes:")
        for s, f in stages.items():
            print(f"  {s:13s} p50 {f['p50_ms']:8.3f} ms   p95 {f['p95_ms']:8.3f} ms")
    # Paired per question (the machine's load moves between passes): the sum over the
    # questions of each one's median execute time, per side.
    totals = {
        label: sum(median([r[i] for r in subject.rounds["execute"]]) for i in range(len(QUESTIONS)))
        for label, subject in subjects.items()
    }
    if "single" in totals:
        print(
            f"execute, sum of per-question medians: shipped {totals['shipped']:.1f} ms, "
            f"single-column {totals['single']:.1f} ms, "
            f"ratio {totals['shipped'] / totals['single']:.2f}"
        )
    executes = shipped.rounds["execute"]
    slowest = sorted(range(len(QUESTIONS)), key=lambda i: -median([r[i] for r in executes]))[:3]
    print("slowest to execute: " + "; ".join(repr(QUESTIONS[i]) for i in slowest))
    p50 = figures["shipped"]["plan+execute"]["p50_ms"]
    print(f"goal: planning + execution p50 {p50:.2f}/{GOAL_MS:g} ms = {p50 / GOAL_MS:.2f}")
    text = json.dumps({q: repr(r) for q, r in sorted(shipped.results.items())})
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    if args.dump is not None:
        args.dump.write_text(text)
    print(
        json.dumps(
            {
                "benchmark": "table_query",
                "rows": rows,
                "questions": len(QUESTIONS),
                "rounds": args.rounds,
                "ingest_s": round(ingest_s, 2),
                "rss_mb": round(rss),
                "results_hash": digest,
                **{
                    f"{label}_{s}_{k}": v
                    for label, stages in figures.items()
                    for s, f in stages.items()
                    for k, v in f.items()
                },
                **{f"{label}_execute_sum_ms": round(t, 2) for label, t in totals.items()},
                "goal_ratio": round(p50 / GOAL_MS, 3),
                **reading,
            }
        )
    )


if __name__ == "__main__":
    main()
