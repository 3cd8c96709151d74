"""Check questions_fresh.jsonl: every line parses, ids are unique and sequential, fields are
well-formed, and each recorded SQL re-runs over the CSVs to the recorded result and facts."""

import json
import math
import os
import sys

from build_questions import fmt, load

HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = {
    "time_window",
    "ranking",
    "comparison",
    "total",
    "derived",
    "per_dimension",
    "unexpressible",
}  # as build_questions.py names them for ragcore eval (KINDS there)
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


def main():
    con, seen, errors = load(), set(), []
    with open(os.path.join(HERE, "questions_fresh.jsonl")) as file:
        lines = file.read().splitlines()
    for n, line in enumerate(lines, start=1):
        o = json.loads(line)

        def err(m, n=n, o=o):
            errors.append(f"line {n} {o.get('id')}: {m}")

        if list(o) != KEYS:
            err(f"keys {list(o)}")
        if o["id"] != f"tf-{n:03d}" or o["id"] in seen:
            err("id not unique/sequential")
        seen.add(o["id"])
        if o["kind"] not in KINDS:
            err("kind")
        if o["kind"] == "unexpressible":
            if (
                o["expected_status"] != "no_answer"
                or o["expected_facts"]
                or o["expected_documents"]
            ):
                err("unanswerable must be no_answer with no facts/documents")
            continue
        if (
            o["expected_status"] != "ok"
            or not o["expected_facts"]
            or len(o["expected_documents"]) != 1
        ):
            err("answerable must be ok with facts and one document")
        notes = o["notes"]
        assert notes.startswith("SQL: ")
        sql, rest = notes[5:].split("; result: ", 1)
        recorded = json.loads(rest.split("; note: ")[0])
        rows = [list(r) for r in con.execute(sql).fetchall()]
        same = len(rows) == len(recorded) and all(
            len(a) == len(b)
            and all(
                (x == y)
                if isinstance(x, str) or isinstance(y, str)
                else math.isclose(x, y, rel_tol=1e-9)
                for x, y in zip(a, b)
            )
            for a, b in zip(rows, recorded)
        )
        if not same:
            err(f"SQL re-run gives {rows}, recorded {recorded}")
        if [fmt(c) for r in rows for c in r] != o["expected_facts"]:
            err("facts do not match the SQL result")
        table = o["expected_documents"][0].removeprefix("table:")
        if table not in sql:
            err("SQL does not read the expected table")
    print(f"{len(lines)} lines, {len(seen)} unique ids, {len(errors)} errors")
    for e in errors:
        print(" ", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
