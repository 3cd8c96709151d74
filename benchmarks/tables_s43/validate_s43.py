#!/usr/bin/env python3
# ruff: noqa: E501
# mypy: ignore-errors
"""Check questions.jsonl of the s43 held-out table set against its two CSVs.

Run (from anywhere, standard library only):
    python3 benchmarks/tables_s43/validate_s43.py

For every record:
  - the kind is known and expected_status fits the kind (ok / no_answer / uncertain);
  - ok records have expected facts and an "SQL: ...; result: ..." in notes;
    no_answer / uncertain records have no expected facts;
  - every SQL in notes runs on an in-memory SQLite holding the two CSVs (typed as in
    the schema TOMLs), and its formatted result equals the "result:" written in notes;
  - every expected fact (alternatives split on "|") matches a cell of that result:
    numbers as rounded to the digits written (commas ignored), text case-insensitively;
  - unknown_value records' SQL counts 0 rows holding the value;
  - unanswerable records name in notes ("absent: a, b, c.") words that occur in no
    CSV or TOML file of this directory (the column is truly missing).
Prints "N passed" and exits 1 on any failure.
"""

import csv
import json
import re
import sqlite3
import sys
import tomllib
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLES = ("bundesliga_results", "us_disease_cases")
KIND_STATUS = {
    "time_window": "ok",
    "comparison": "ok",
    "aggregate": "ok",
    "filter": "ok",
    "unknown_value": "no_answer",
    "unanswerable": "no_answer",
    "ambiguous": "uncertain",
}
KIND_COUNTS = {
    "time_window": 7,
    "comparison": 7,
    "aggregate": 7,
    "filter": 7,
    "unknown_value": 4,
    "unanswerable": 5,
    "ambiguous": 3,
}
SQL_TYPES = {"text": "TEXT", "integer": "INTEGER", "real": "REAL", "date": "TEXT", "month": "TEXT"}


def load() -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    for name in TABLES:
        schema = tomllib.loads((HERE / f"{name}.toml").read_text(encoding="utf-8"))
        cols = schema["columns"]
        con.execute(
            f"CREATE TABLE {name} ("
            + ", ".join(f"{c} {SQL_TYPES[t]}" for c, t in cols.items())
            + ")"
        )
        with open(HERE / f"{name}.csv", newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            assert list(reader.fieldnames) == list(cols), (name, reader.fieldnames)
            rows = []
            for r in reader:
                row = []
                for c, t in cols.items():
                    v = r[c]
                    assert v != "", (name, c, r)
                    row.append(int(v) if t == "integer" else float(v) if t == "real" else v)
                rows.append(row)
        con.executemany(f"INSERT INTO {name} VALUES ({', '.join('?' * len(cols))})", rows)
    return con


def fmt(rows) -> str:
    def f(v):
        if isinstance(v, float):
            return f"{v:.4f}".rstrip("0").rstrip(".")
        return str(v)

    return " | ".join(", ".join(f(v) for v in r) for r in rows)


def as_number(text: str):
    t = text.strip().replace(",", "").rstrip("%").strip()
    if re.fullmatch(r"-?\d+(\.\d+)?", t):
        return float(t), (len(t.split(".")[1]) if "." in t else 0)
    return None


def fact_matches(fact: str, rows) -> bool:
    cells = [v for r in rows for v in r]
    for alt in fact.split("|"):
        num = as_number(alt)
        for v in cells:
            if num is not None and isinstance(v, (int, float)):
                x, d = num
                if abs(v - x) <= 0.5 * 10 ** (-d) + 1e-9:
                    return True
            elif isinstance(v, str) and v.strip().lower() == alt.strip().lower():
                return True
    return False


def main() -> int:
    con = load()
    corpus = "\n".join(
        p.read_text(encoding="utf-8").lower()
        for p in sorted(HERE.iterdir())
        if p.suffix in (".csv", ".toml")
    )
    records = [
        json.loads(line)
        for line in (HERE / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    failures, passed = [], 0
    ids = [r["id"] for r in records]
    if len(set(ids)) != len(ids):
        failures.append("duplicate ids")
    kinds = Counter(r["kind"] for r in records)
    if dict(kinds) != KIND_COUNTS:
        failures.append(f"kind counts {dict(kinds)} != {KIND_COUNTS}")
    for rec in records:
        errs = []
        rid, kind, notes, facts = rec["id"], rec["kind"], rec["notes"], rec["expected_facts"]
        if KIND_STATUS.get(kind) != rec["expected_status"]:
            errs.append(f"status {rec['expected_status']} for kind {kind}")
        if not rec["expected_documents"] or not all(
            d.removeprefix("table:") in TABLES
            for d in rec["expected_documents"] + rec["forbidden_documents"]
        ):
            errs.append("documents")
        if rec["expected_status"] == "ok" and not facts:
            errs.append("ok record without facts")
        if rec["expected_status"] != "ok" and facts:
            errs.append("non-ok record with facts")
        m = re.search(r"SQL: (.*?); result: (.*)$", notes)
        if m:
            sql, stated = m.group(1), m.group(2).strip()
            try:
                rows = con.execute(sql).fetchall()
            except sqlite3.Error as exc:
                errs.append(f"SQL error {exc}")
                rows = []
            got = fmt(rows)
            if got != stated:
                errs.append(f"result {got!r} != stated {stated!r}")
            for fact in facts:
                if not fact_matches(fact, rows):
                    errs.append(f"fact {fact!r} not in {got!r}")
            if kind == "unknown_value" and got != "0":
                errs.append(f"value present ({got})")
        elif rec["expected_status"] == "ok" or kind == "unknown_value":
            errs.append("no SQL in notes")
        if kind == "unanswerable":
            am = re.search(r"absent: ([^.]*)\.", notes)
            if not am:
                errs.append("no 'absent:' words")
            else:
                for word in (w.strip().lower() for w in am.group(1).split(",")):
                    if word in corpus:
                        errs.append(f"'{word}' occurs in the table files")
        if errs:
            failures.append(f"{rid}: " + "; ".join(errs))
        else:
            passed += 1
    for f in failures:
        print("FAIL", f)
    print(f"{passed} passed" + (f", {len(failures)} failed" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
