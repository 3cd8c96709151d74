# ruff: noqa: E501
# mypy: ignore-errors
"""Check the s44 held-out table questions against the CSVs themselves.

Loads mlb_team_seasons.csv and us_industry_employment.csv into an in-memory SQLite
database (columns typed as their TOML schema declares), runs the SQL in every record's
notes ("SQL: ...; result: ...") and checks:
- status "ok": the first alternative of every expected fact equals some value of the
  result (numbers compared as printed plain or rounded to 0-3 decimals, text exactly
  or as a part of a value);
- status "no_answer": the SQL (an absence check) returns 0;
- status "uncertain": the SQL runs and returns a row.
It also checks the record shape and the per-kind counts. Prints passed/failed counts;
exits 1 on any failure.

    python validate_s44.py
"""

import csv
import json
import sqlite3
import sys
import tomllib
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLES = ("mlb_team_seasons", "us_industry_employment")
SQL_TYPES = {"integer": "INTEGER", "real": "REAL", "text": "TEXT", "date": "TEXT", "month": "TEXT"}
KINDS = (
    "time_window",
    "aggregate",
    "comparison",
    "filter",
    "ranking",
    "unknown_value",
    "unanswerable",
    "ambiguous",
)


def load(conn: sqlite3.Connection) -> None:
    for name in TABLES:
        schema = tomllib.loads((HERE / f"{name}.toml").read_text())
        assert schema["name"] == name, name
        cols = schema["columns"]
        conn.execute(
            f"CREATE TABLE {name} ("
            + ", ".join(f"{c} {SQL_TYPES[t]}" for c, t in cols.items())
            + ")"
        )
        with open(HERE / f"{name}.csv", newline="") as fh:
            reader = csv.DictReader(fh)
            assert list(reader.fieldnames) == list(cols), (name, reader.fieldnames)
            rows = []
            for row in reader:
                vals = []
                for c, t in cols.items():
                    v = row[c]
                    assert v != "", (name, c, row)
                    vals.append(int(v) if t == "integer" else float(v) if t == "real" else v)
                rows.append(vals)
        conn.executemany(f"INSERT INTO {name} VALUES ({', '.join('?' for _ in cols)})", rows)
        for key in ("dimensions", "measures"):
            for col, spec in schema.get(key, {}).items():
                if "expression" not in spec:
                    assert col in cols, (name, col)
        for spec in schema.get("measures", {}).values():
            if "expression" in spec:
                conn.execute(f"SELECT {spec['expression']} FROM {name} LIMIT 1").fetchall()


def renderings(value) -> set[str]:
    if isinstance(value, bool) or value is None:
        return {str(value)}
    if isinstance(value, (int, float)):
        out = {str(value)}
        for d in range(4):
            out.add(f"{value:.{d}f}")
        if float(value).is_integer():
            out.add(str(int(value)))
        return out
    return {str(value)}


def fact_found(fact: str, rows) -> bool:
    first = fact.split("|")[0].strip()
    plain = first.replace(",", "")
    for row in rows:
        for v in row:
            if isinstance(v, str):
                if first == v or first in v:
                    return True
            elif plain in renderings(v) or first.lstrip("+") in renderings(v):
                return True
    return False


def main() -> int:
    conn = sqlite3.connect(":memory:")
    load(conn)
    records = [
        json.loads(line)
        for line in (HERE / "questions.jsonl").read_text().splitlines()
        if line.strip()
    ]
    passed = failed = 0
    ids = set()
    for rec in records:
        problems = []
        if rec["id"] in ids:
            problems.append("duplicate id")
        ids.add(rec["id"])
        if rec["kind"] not in KINDS:
            problems.append(f"unknown kind {rec['kind']}")
        status = rec["expected_status"]
        want = {
            "unknown_value": "no_answer",
            "unanswerable": "no_answer",
            "ambiguous": "uncertain",
        }.get(rec["kind"], "ok")
        if status != want:
            problems.append(f"status {status} for kind {rec['kind']}")
        if status != "ok" and rec["expected_facts"]:
            problems.append("facts on a non-ok record")
        if status == "ok" and not rec["expected_facts"]:
            problems.append("ok record without facts")
        docs = set(rec["expected_documents"]) | set(rec["forbidden_documents"])
        if docs != {f"table:{t}" for t in TABLES} or set(rec["expected_documents"]) & set(
            rec["forbidden_documents"]
        ):
            problems.append("documents")
        notes = rec["notes"]
        if not notes.startswith("SQL: ") or "; result: " not in notes:
            problems.append("notes format")
            rows = []
        else:
            sql = notes[len("SQL: ") : notes.index("; result: ")]
            try:
                rows = conn.execute(sql).fetchall()
            except sqlite3.Error as exc:
                problems.append(f"SQL error {exc}")
                rows = []
        if status == "ok":
            for fact in rec["expected_facts"]:
                if not fact_found(fact, rows):
                    problems.append(f"fact {fact!r} not in {rows}")
        elif status == "no_answer":
            if rows != [(0,)]:
                problems.append(f"absence check returned {rows}")
        elif not rows:
            problems.append("ambiguity SQL returned nothing")
        if problems:
            failed += 1
            print(f"FAIL {rec['id']} ({rec['kind']}): " + "; ".join(problems))
        else:
            passed += 1
    counts = Counter(r["kind"] for r in records)
    print("per kind:", dict(sorted(counts.items())))
    for kind in KINDS:
        if not 5 <= counts[kind] <= 7:
            print(f"FAIL kind count {kind}: {counts[kind]}")
            failed += 1
    print(f"passed {passed}, failed {failed} of {len(records)} records")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
