#!/usr/bin/env python3
# ruff: noqa: E501, SIM115
# mypy: ignore-errors
"""Check questions.jsonl of the s41 held-out table set against the CSVs.

Re-runs every SQL quoted in the notes with plain sqlite3 over hotel_stays.csv and
atlantic_storms.csv, and checks: the result equals the one recorded; every alternative
of every expected fact is borne out by the result (rounded as stated); no_answer and
uncertain items have no facts; unknown values are absent from the table and from
DESCRIPTIONS.md; unanswerable items name no column the table has; ids, line format and
kinds are as expected. Also checks that the CSVs have no empty field and that
the schema TOMLs declare exactly the CSV columns, in order. Exit 1 on any failure.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from build_s41_questions import QUESTIONS, check_facts, load_db, run  # noqa: E402

KEYS = [
    "id",
    "kind",
    "question",
    "expected_status",
    "expected_documents",
    "forbidden_documents",
    "expected_facts",
    "notes",
]
STATUS = {
    "time_window": "ok",
    "comparison": "ok",
    "aggregate": "ok",
    "filter": "ok",
    "unknown_value": "no_answer",
    "unanswerable": "no_answer",
    "ambiguous": "uncertain",
}
# Values the unknown_value questions name, which must appear nowhere in the table's
# description of its values.
ABSENT_VALUES = ["inclusive", "GDS", "room type K", "Andrew", "Patricia", "category 6"]


def main():
    failures = []
    db = load_db()
    for t in ("hotel_stays", "atlantic_storms"):
        n = db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
        print(f"{t}: {n} rows")
    with open(os.path.join(HERE, "questions.jsonl"), encoding="utf-8") as fh:
        recs = [json.loads(line) for line in fh if line.strip()]
    if len(recs) != 40:
        failures.append(f"expected 40 questions, found {len(recs)}")
    if len(recs) != len(QUESTIONS):
        failures.append("questions.jsonl and build_s41_questions.py disagree in length")
    desc = open(os.path.join(HERE, "DESCRIPTIONS.md"), encoding="utf-8").read()
    seen = set()
    kinds = {}
    for i, r in enumerate(recs, 1):
        rid = r.get("id")
        try:
            assert list(r) == KEYS, f"keys {list(r)}"
            assert rid == f"s41t-{i:03d}" and rid not in seen, "id out of order or repeated"
            seen.add(rid)
            kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
            assert r["expected_status"] == STATUS[r["kind"]], "status does not fit kind"
            assert r["expected_documents"] in (["table:hotel_stays"], ["table:atlantic_storms"])
            assert r["forbidden_documents"] == []
            m = re.fullmatch(r"SQL: (.*); result: (\[.*\])( \(.*\))?", r["notes"], re.S)
            assert m, "notes are not 'SQL: ...; result: ...'"
            sql, recorded = m.group(1), json.loads(m.group(2))
            table = r["expected_documents"][0].split(":", 1)[1]
            assert table in sql, "SQL does not read the expected table"
            result = run(db, sql)
            assert result == recorded, f"result {result} != recorded {recorded}"
            q = {"id": rid, "status": r["expected_status"], "facts": r["expected_facts"]}
            check_facts(q, result)
            if r["kind"] == "unknown_value":
                assert result == [[0]], "value is in the table"
            if r["kind"] == "unanswerable":
                assert result == [], "table has a column for it"
            if r["kind"] == "ambiguous":
                cells = [c for row in result for c in row if isinstance(c, (int, float))]
                assert len(cells) == 2 and cells[0] != cells[1], "readings do not differ"
            src = QUESTIONS[i - 1]
            assert (src[0], src[2], src[5]) == (r["kind"], r["question"], sql), (
                "stale file: rebuild"
            )
        except AssertionError as e:
            failures.append(f"{rid}: {e}")
    for v in ABSENT_VALUES:
        if re.search(r"\b" + re.escape(v) + r"\b", desc, re.I):
            failures.append(f"DESCRIPTIONS.md names '{v}', meant to be absent")
    print("kinds:", kinds)
    for f in failures:
        print("FAIL", f)
    ok = len(recs) - len({f.split(":")[0] for f in failures if f.startswith("s41t-")})
    print(f"{ok} passed, {len(recs) - ok} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
