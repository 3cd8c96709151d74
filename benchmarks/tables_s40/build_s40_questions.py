# ruff: noqa: E501 -- each question keeps its SQL on the lines a reader checks it by
#!/usr/bin/env python3
"""Compute the truth of the 40 held-out table questions with plain sqlite3 over the CSVs
of this folder and write questions.jsonl. Run make_s40_tables.py first.

Today is taken as 2026-12-06: "last month" = November 2026, "this year" = 2026,
"last quarter" = Q3 2026. The data ends 2026-11-30.

Checks (the script stops with an error if one fails):
  * every `ok` question's SQL returns exactly one row whose values are not null;
  * a "which X has the most/least" answer is not tied with the runner-up;
  * every value an `unknown_value` question names really does not occur in its column;
  * every measure/dimension an `unanswerable` question asks about is not a column;
  * the kinds add up to the planned counts (40 questions).
"""

import collections
import csv
import json
import os
import sqlite3
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = ["fleet_service", "calibration_log"]
SQL_TYPES = {"text": "TEXT", "integer": "INTEGER", "real": "REAL", "date": "TEXT"}
PLAN = {
    "time_window": 8,
    "aggregate": 8,
    "comparison": 7,
    "filter": 6,
    "unknown_value": 4,
    "unanswerable": 4,
    "ambiguous": 3,
}

F, C = "fleet_service", "calibration_log"


def load():
    db = sqlite3.connect(":memory:")
    schemas = {}
    for t in TABLES:
        with open(os.path.join(HERE, t + ".toml"), "rb") as fh:
            schema = tomllib.load(fh)
        schemas[t] = schema
        cols = schema["columns"]
        db.execute(
            f"CREATE TABLE {t} ("
            + ", ".join(f"{c} {SQL_TYPES[ty]} NOT NULL" for c, ty in cols.items())
            + ")"
        )
        with open(os.path.join(HERE, t + ".csv"), newline="") as fh:
            rows = list(csv.DictReader(fh))
        for r in rows:
            vals = []
            for c, ty in cols.items():
                v = r[c]
                vals.append(int(v) if ty == "integer" else float(v) if ty == "real" else v)
            db.execute(f"INSERT INTO {t} VALUES ({', '.join('?' * len(cols))})", vals)
    return db, schemas


def fmt(x):
    """Round to 2 decimals, no trailing zeros: 12.5, 3, 5250.78."""
    if isinstance(x, str):
        return x
    s = f"{round(float(x) + 0.0, 2):.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


# Each question: (kind, text, status, table, spec, notes)
# spec for ok questions:
#   ("value", sql)                 one row, one value -> one fact
#   ("name", sql)                  rows of (name, figure) ordered best first -> the name
#   ("both", sql_a, sql_b)         two single values -> two facts
#   ("winner", sql_a, sql_b, name_a, name_b, "max"|"min") -> the winning name
# spec for no_answer unknown_value: ("absent", column, value)
# spec for no_answer unanswerable: ("missing", [words not among the columns])
# spec for uncertain: ("readings", [measure, measure]) -> both are measures of the table
Q: list[tuple] = []


def q(kind, text, status, table, spec, notes=""):
    Q.append((kind, text, status, table, spec, notes))


def yr(col, y):
    return f"{col} BETWEEN '{y}-01-01' AND '{y}-12-31'"


def rng(col, a, b):
    return f"{col} BETWEEN '{a}' AND '{b}'"


SD, CD = "service_date", "cal_date"

# ---------------------------------------------------------------- time_window (8)
q(
    "time_window",
    "Total parts cost for the fleet in March 2026?",
    "ok",
    F,
    ("value", f"SELECT SUM(parts_cost) FROM {F} WHERE {rng(SD, '2026-03-01', '2026-03-31')}"),
)
q(
    "time_window",
    "downtime hours Q3 2026",
    "ok",
    F,
    ("value", f"SELECT SUM(downtime_hours) FROM {F} WHERE {rng(SD, '2026-07-01', '2026-09-30')}"),
)
q(
    "time_window",
    "How many labour hours have we booked on the vehicles since March 2026?",
    "ok",
    F,
    ("value", f"SELECT SUM(labour_hours) FROM {F} WHERE {rng(SD, '2026-03-01', '2026-11-30')}"),
    "since March 2026 = 2026-03-01 up to the end of the data (2026-11-30)",
)
q(
    "time_window",
    "What did calibrations cost us last month?",
    "ok",
    C,
    ("value", f"SELECT SUM(calibration_cost) FROM {C} WHERE {rng(CD, '2026-11-01', '2026-11-30')}"),
    "last month = November 2026",
)
q(
    "time_window",
    "Average as-found error in the first half of 2025?",
    "ok",
    C,
    (
        "value",
        f"SELECT AVG(as_found_error_pct) FROM {C} WHERE {rng(CD, '2025-01-01', '2025-06-30')}",
    ),
)
q(
    "time_window",
    "calibration hours last quarter",
    "ok",
    C,
    ("value", f"SELECT SUM(duration_hours) FROM {C} WHERE {rng(CD, '2026-07-01', '2026-09-30')}"),
    "last quarter = Q3 2026",
)
q(
    "time_window",
    "parts spend April to June 2025",
    "ok",
    F,
    ("value", f"SELECT SUM(parts_cost) FROM {F} WHERE {rng(SD, '2025-04-01', '2025-06-30')}"),
)
q(
    "time_window",
    "How many hours were our vehicles off the road in 2025?",
    "ok",
    F,
    ("value", f"SELECT SUM(downtime_hours) FROM {F} WHERE {yr(SD, 2025)}"),
)

# ---------------------------------------------------------------- aggregate (8)
q(
    "aggregate",
    "Which depot had the most downtime this year?",
    "ok",
    F,
    (
        "name",
        f"SELECT depot, SUM(downtime_hours) AS v FROM {F} WHERE {yr(SD, 2026)} "
        f"GROUP BY depot ORDER BY v DESC",
    ),
    "this year = 2026",
)
q(
    "aggregate",
    "What's the average parts cost of a brake repair?",
    "ok",
    F,
    ("value", f"SELECT AVG(parts_cost) FROM {F} WHERE service_type = 'Brake Repair'"),
    "all dates",
)
q(
    "aggregate",
    "highest odometer reading on VH-120",
    "ok",
    F,
    ("value", f"SELECT MAX(odometer_km) FROM {F} WHERE vehicle_id = 'VH-120'"),
    "VH-120, not VH-12",
)
q(
    "aggregate",
    "How many calibrations did Metrix Labs do in 2026?",
    "ok",
    C,
    ("value", f"SELECT COUNT(*) FROM {C} WHERE provider = 'Metrix Labs' AND {yr(CD, 2026)}"),
)
q(
    "aggregate",
    "Which instrument has the highest average as-found error?",
    "ok",
    C,
    (
        "name",
        f"SELECT instrument_tag, AVG(as_found_error_pct) AS v FROM {C} "
        f"GROUP BY instrument_tag ORDER BY v DESC",
    ),
    "all dates",
)
q(
    "aggregate",
    "Which calibration provider cost us the least in 2025?",
    "ok",
    C,
    (
        "name",
        f"SELECT provider, SUM(calibration_cost) AS v FROM {C} WHERE {yr(CD, 2025)} "
        f"GROUP BY provider ORDER BY v ASC",
    ),
    "lowest total calibration cost",
)
q(
    "aggregate",
    "total maintenance cost of the fleet in 2025",
    "ok",
    F,
    ("value", f"SELECT SUM(labour_cost + parts_cost) FROM {F} WHERE {yr(SD, 2025)}"),
    "derived total_cost = labour cost + parts cost",
)
q(
    "aggregate",
    "How many breakdown repairs have we had this year?",
    "ok",
    F,
    (
        "value",
        f"SELECT COUNT(*) FROM {F} WHERE service_type = 'Breakdown Repair' AND {yr(SD, 2026)}",
    ),
    "this year = 2026; count of rows",
)

# ---------------------------------------------------------------- comparison (7)
q(
    "comparison",
    "Depot North vs Depot North-East parts cost in 2026",
    "ok",
    F,
    (
        "both",
        f"SELECT SUM(parts_cost) FROM {F} WHERE depot = 'Depot North' AND {yr(SD, 2026)}",
        f"SELECT SUM(parts_cost) FROM {F} WHERE depot = 'Depot North-East' AND {yr(SD, 2026)}",
    ),
    "Depot North must not include Depot North-East",
)
q(
    "comparison",
    "Did VH-12 or VH-120 have more downtime in 2025?",
    "ok",
    F,
    (
        "both",
        f"SELECT SUM(downtime_hours) FROM {F} WHERE vehicle_id = 'VH-12' AND {yr(SD, 2025)}",
        f"SELECT SUM(downtime_hours) FROM {F} WHERE vehicle_id = 'VH-120' AND {yr(SD, 2025)}",
    ),
    "facts: VH-12 figure, VH-120 figure",
)
q(
    "comparison",
    "Parts cost Q1 2026 vs Q2 2026?",
    "ok",
    F,
    (
        "both",
        f"SELECT SUM(parts_cost) FROM {F} WHERE {rng(SD, '2026-01-01', '2026-03-31')}",
        f"SELECT SUM(parts_cost) FROM {F} WHERE {rng(SD, '2026-04-01', '2026-06-30')}",
    ),
)
q(
    "comparison",
    "TT-21 vs TT-210 average as-found error",
    "ok",
    C,
    (
        "both",
        f"SELECT AVG(as_found_error_pct) FROM {C} WHERE instrument_tag = 'TT-21'",
        f"SELECT AVG(as_found_error_pct) FROM {C} WHERE instrument_tag = 'TT-210'",
    ),
    "all dates; TT-21 must not include TT-210",
)
q(
    "comparison",
    "Which cost more in 2026, calibrations by Metrix Labs or by Calibra Services?",
    "ok",
    C,
    (
        "both",
        f"SELECT SUM(calibration_cost) FROM {C} WHERE provider = 'Metrix Labs' AND {yr(CD, 2026)}",
        f"SELECT SUM(calibration_cost) FROM {C} WHERE provider = 'Calibra Services' AND {yr(CD, 2026)}",
    ),
    "facts: Metrix Labs figure, Calibra Services figure",
)
q(
    "comparison",
    "labour hours May or June 2026",
    "ok",
    F,
    (
        "both",
        f"SELECT SUM(labour_hours) FROM {F} WHERE {rng(SD, '2026-05-01', '2026-05-31')}",
        f"SELECT SUM(labour_hours) FROM {F} WHERE {rng(SD, '2026-06-01', '2026-06-30')}",
    ),
)
q(
    "comparison",
    "What cost more last year: tyre changes or brake repairs?",
    "ok",
    F,
    (
        "both",
        f"SELECT SUM(labour_cost + parts_cost) FROM {F} WHERE service_type = 'Tyre Change' AND {yr(SD, 2025)}",
        f"SELECT SUM(labour_cost + parts_cost) FROM {F} WHERE service_type = 'Brake Repair' AND {yr(SD, 2025)}",
    ),
    "last year = 2025; 'cost' = total cost (labour + parts), a synonym of total_cost",
)

# ---------------------------------------------------------------- filter (6)
q(
    "filter",
    "Parts cost for vans at Depot South in 2026",
    "ok",
    F,
    (
        "value",
        f"SELECT SUM(parts_cost) FROM {F} WHERE vehicle_type = 'Van' AND depot = 'Depot South' AND {yr(SD, 2026)}",
    ),
)
q(
    "filter",
    "downtime from breakdown repairs on tipper trucks in 2025",
    "ok",
    F,
    (
        "value",
        f"SELECT SUM(downtime_hours) FROM {F} WHERE service_type = 'Breakdown Repair' "
        f"AND vehicle_type = 'Tipper Truck' AND {yr(SD, 2025)}",
    ),
)
q(
    "filter",
    "How many failed calibrations in the Packing Hall this year?",
    "ok",
    C,
    (
        "value",
        f"SELECT COUNT(*) FROM {C} WHERE result = 'Failed' AND area = 'Packing Hall' AND {yr(CD, 2026)}",
    ),
    "this year = 2026",
)
q(
    "filter",
    "Calibration cost of pressure transmitters done by Calibra Services",
    "ok",
    C,
    (
        "value",
        f"SELECT SUM(calibration_cost) FROM {C} WHERE instrument_type = 'Pressure Transmitter' "
        f"AND provider = 'Calibra Services'",
    ),
    "all dates",
)
q(
    "filter",
    "average as-left error for temperature transmitters in the Boiler House, 2026",
    "ok",
    C,
    (
        "value",
        f"SELECT AVG(as_left_error_pct) FROM {C} WHERE instrument_type = 'Temperature Transmitter' "
        f"AND area = 'Boiler House' AND {yr(CD, 2026)}",
    ),
)
q(
    "filter",
    "Labour hours on scheduled services at Riverside Depot in the second half of 2025?",
    "ok",
    F,
    (
        "value",
        f"SELECT SUM(labour_hours) FROM {F} WHERE service_type = 'Scheduled Service' "
        f"AND depot = 'Riverside Depot' AND {rng(SD, '2025-07-01', '2025-12-31')}",
    ),
)

# ---------------------------------------------------------------- unknown_value (4)
q(
    "unknown_value",
    "Parts cost at Depot West in 2026?",
    "no_answer",
    F,
    ("absent", "depot", "Depot West"),
    "no depot West; close: Depot North, Depot North-East, Depot South",
)
q(
    "unknown_value",
    "downtime for VH-99 last quarter",
    "no_answer",
    F,
    ("absent", "vehicle_id", "VH-99"),
    "no vehicle VH-99",
)
q(
    "unknown_value",
    "What did we spend on calibrations in the Paint Shop in 2025?",
    "no_answer",
    C,
    ("absent", "area", "Paint Shop"),
    "no area Paint Shop",
)
q(
    "unknown_value",
    "how many calibrations did Trescal do this year",
    "no_answer",
    C,
    ("absent", "provider", "Trescal"),
    "no provider Trescal",
)

# ---------------------------------------------------------------- unanswerable (4)
q(
    "unanswerable",
    "What was the fuel cost at Depot North in 2026?",
    "no_answer",
    F,
    ("missing", ["fuel"]),
    "the fleet table has no fuel figures",
)
q(
    "unanswerable",
    "Which driver had the most downtime in 2025?",
    "no_answer",
    F,
    ("missing", ["driver"]),
    "no driver column",
)
q(
    "unanswerable",
    "Which technician did the most calibrations this year?",
    "no_answer",
    C,
    ("missing", ["technician"]),
    "provider is not a technician; no technician column",
)
q(
    "unanswerable",
    "When is FT-330 next due for calibration?",
    "no_answer",
    C,
    ("missing", ["due"]),
    "no due date / calibration interval in the table",
)

# ---------------------------------------------------------------- ambiguous (3)
q(
    "ambiguous",
    "How many hours did VH-31 rack up in 2026?",
    "uncertain",
    F,
    ("readings", ["labour_hours", "downtime_hours"]),
    "'hours' fits labour hours and downtime hours equally; no figure expected",
)
q(
    "ambiguous",
    "What was the error on TT-210 in 2026?",
    "uncertain",
    C,
    ("readings", ["as_found_error_pct", "as_left_error_pct"]),
    "'error' fits as-found and as-left error equally; no figure expected",
)
q(
    "ambiguous",
    "What did we spend on labour at Depot South in 2026?",
    "ok",
    F,
    ("value", f"SELECT SUM(labour_cost) FROM {F} WHERE depot = 'Depot South' AND {yr(SD, 2026)}"),
    "judged: 'spend' is money, so labour cost (not labour hours, not total cost)",
)


def run_one(db, sql):
    rows = db.execute(sql).fetchall()
    if len(rows) != 1 or len(rows[0]) != 1 or rows[0][0] is None:
        raise SystemExit(f"not one non-null value: {sql} -> {rows}")
    if rows[0][0] == 0:
        raise SystemExit(f"zero result (no rows matched?): {sql}")
    return rows[0][0]


def build(db, schemas):
    out = []
    kinds: collections.Counter[str] = collections.Counter()
    for n, (kind, text, status, table, spec, notes) in enumerate(Q, 1):
        kinds[kind] += 1
        other = [f"table:{t}" for t in TABLES if t != table]
        rec = {
            "id": f"tu40-{n:03d}",
            "kind": kind,
            "question": text,
            "expected_status": status,
            "expected_documents": [f"table:{table}"] if status == "ok" else [],
            "forbidden_documents": other,
            "expected_facts": [],
            "notes": "",
        }
        cols = schemas[table]["columns"]
        measures = schemas[table]["measures"]
        tag = spec[0]
        if tag == "value":
            v = run_one(db, spec[1])
            rec["expected_facts"] = [fmt(v)]
            rec["notes"] = f"SQL: {spec[1]}; result: [[{v!r}]]"
        elif tag == "name":
            rows = db.execute(spec[1]).fetchall()
            if not rows or rows[0][0] is None or rows[0][1] is None:
                raise SystemExit(f"empty ranking: {spec[1]}")
            if len(rows) > 1 and round(rows[0][1], 6) == round(rows[1][1], 6):
                raise SystemExit(f"tie at the top: {spec[1]} -> {rows[:2]}")
            rec["expected_facts"] = [rows[0][0]]
            rec["notes"] = f"SQL: {spec[1]}; result: {json.dumps([list(r) for r in rows])}"
        elif tag == "both":
            a, b = run_one(db, spec[1]), run_one(db, spec[2])
            if fmt(a) == fmt(b):
                raise SystemExit(f"comparison without a difference: {text}")
            rec["expected_facts"] = [fmt(a), fmt(b)]
            rec["notes"] = f"SQL: {spec[1]}; result: [[{a!r}]] | SQL: {spec[2]}; result: [[{b!r}]]"
        elif tag == "winner":
            a, b = run_one(db, spec[1]), run_one(db, spec[2])
            if a == b:
                raise SystemExit(f"comparison without a winner: {text}")
            win = spec[3] if (a > b) == (spec[5] == "max") else spec[4]
            rec["expected_facts"] = [win]
            rec["notes"] = (
                f"SQL: {spec[1]}; result: [[{a!r}]] | SQL: {spec[2]}; "
                f"result: [[{b!r}]]; winner: {win}"
            )
        elif tag == "absent":
            col, val = spec[1], spec[2]
            if col not in cols:
                raise SystemExit(f"unknown column {col}")
            # the value must occur in no text column of any table, not even as a part
            for t in TABLES:
                for c, ty in schemas[t]["columns"].items():
                    if ty != "text":
                        continue
                    hits = db.execute(
                        f"SELECT COUNT(*) FROM {t} WHERE instr(lower({c}), lower(?)) > 0", (val,)
                    ).fetchone()[0]
                    if hits:
                        raise SystemExit(f"value {val!r} occurs in {t}.{c}")
            stored = [r[0] for r in db.execute(f"SELECT DISTINCT {col} FROM {table} ORDER BY 1")]
            rec["notes"] = (
                f"SQL: SELECT COUNT(*) FROM {table} WHERE {col} = '{val}'; result: [[0]]; "
                f"stored values: {stored}; {notes}"
            )
            notes = ""
        elif tag == "missing":
            for word in spec[1]:
                if any(word in c for c in cols) or any(word in m for m in measures):
                    raise SystemExit(f"{word!r} is in the schema of {table}")
            rec["notes"] = f"no column or measure of {table} matches {spec[1]}; {notes}"
            notes = ""
        elif tag == "readings":
            for m in spec[1]:
                if m not in measures:
                    raise SystemExit(f"{m} is not a measure of {table}")
            rec["notes"] = f"readings: {', '.join(f'{table}.{m}' for m in spec[1])}; {notes}"
            notes = ""
        else:
            raise SystemExit(f"bad spec {spec}")
        if status == "ok" and not rec["expected_facts"]:
            raise SystemExit(f"ok without facts: {text}")
        if status != "ok" and rec["expected_facts"]:
            raise SystemExit(f"facts on a non-ok question: {text}")
        if len(rec["expected_facts"]) > 2:
            raise SystemExit(f"more than 2 facts: {text}")
        if notes:
            rec["notes"] += f"; {notes}"
        out.append(rec)
    if dict(kinds) != PLAN:
        raise SystemExit(f"kinds {dict(kinds)} differ from the plan {PLAN}")
    return out


def main():
    db, schemas = load()
    db.execute("PRAGMA query_only = 1")
    recs = build(db, schemas)
    path = os.path.join(HERE, "questions.jsonl")
    with open(path, "w") as fh:
        for r in recs:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    by_kind = collections.Counter(r["kind"] for r in recs)
    by_status = collections.Counter(r["expected_status"] for r in recs)
    print(f"{path}: {len(recs)} questions; kinds {dict(by_kind)}; statuses {dict(by_status)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
