# ruff: noqa: SIM115 -- a short script: files are read once and the process ends
#!/usr/bin/env python3
"""Re-check questions.jsonl against the CSVs, independently of build_s40_questions.py:
re-run every SQL written in the notes (sqlite3 over the CSVs, types from the TOMLs),
check each `ok` SQL returns one non-null row and that the expected facts are its figures
(or, for a ranking, the first name); check no_answer/uncertain questions carry no facts,
that every unknown value in an unknown_value question really does not occur, and that ids
are unique and facts are at most two. Exit 1 on any failure."""

import csv
import json
import os
import re
import sqlite3
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = {"text": "TEXT", "integer": "INTEGER", "real": "REAL", "date": "TEXT"}


def fmt(x):
    if isinstance(x, str):
        return x
    s = f"{round(float(x), 2):.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


db = sqlite3.connect(":memory:")
texts = []
for t in ("fleet_service", "calibration_log"):
    cols = tomllib.load(open(os.path.join(HERE, t + ".toml"), "rb"))["columns"]
    db.execute(f"CREATE TABLE {t} (" + ", ".join(f"{c} {TYPES[y]}" for c, y in cols.items()) + ")")
    for r in csv.DictReader(open(os.path.join(HERE, t + ".csv"), newline="")):
        db.execute(
            f"INSERT INTO {t} VALUES ({','.join('?' * len(cols))})",
            [
                int(r[c]) if y == "integer" else float(r[c]) if y == "real" else r[c]
                for c, y in cols.items()
            ],
        )
    texts += [(t, c) for c, y in cols.items() if y == "text"]

fail = []
ids = set()
for line in open(os.path.join(HERE, "questions.jsonl")):
    q = json.loads(line)
    if q["id"] in ids:
        fail.append(f"{q['id']}: duplicate id")
    ids.add(q["id"])
    facts = q["expected_facts"]
    if len(facts) > 2:
        fail.append(f"{q['id']}: more than 2 facts")
    sqls = re.findall(r"SQL: (SELECT .*?); result:", q["notes"])
    if q["expected_status"] == "ok":
        got = []
        for sql in sqls:
            rows = db.execute(sql).fetchall()
            if not rows or any(v is None for v in rows[0]):
                fail.append(f"{q['id']}: null/empty result: {sql}")
                continue
            if len(rows[0]) == 1:
                if len(rows) != 1:
                    fail.append(f"{q['id']}: {len(rows)} rows: {sql}")
                got.append(fmt(rows[0][0]))
            else:  # ranking: name, figure ordered best first
                got.append(rows[0][0])
        if not sqls or got != facts:
            fail.append(f"{q['id']}: facts {facts} but SQL gives {got}")
    else:
        if facts:
            fail.append(f"{q['id']}: facts on a {q['expected_status']} question")
        if q["kind"] == "unknown_value":
            m = re.search(r"WHERE \w+ = '([^']+)'", q["notes"])
            if m is None:
                fail.append(f"{q['id']}: no unknown value named in the notes")
                continue
            val = m.group(1)
            if val.lower() not in q["question"].lower():
                fail.append(f"{q['id']}: value {val!r} not in the question")
            for t, c in texts:
                n = db.execute(
                    f"SELECT COUNT(*) FROM {t} WHERE instr(lower({c}), lower(?)) > 0", (val,)
                ).fetchone()[0]
                if n:
                    fail.append(f"{q['id']}: {val!r} occurs in {t}.{c}")
if len(ids) != 40:
    fail.append(f"{len(ids)} questions, not 40")
print("\n".join(fail) or f"ok: {len(ids)} questions checked")
sys.exit(1 if fail else 0)
