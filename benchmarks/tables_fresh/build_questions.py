# ruff: noqa: E501 -- each question keeps its SQL on the lines a reader checks it by
"""Compute the expected figures of questions_fresh.jsonl with plain SQL (sqlite3) over
the two CSVs, and write the file. "Today" is 2026-12-05: last month = November 2026,
last quarter = Q3 2026, last year = 2025, since September = 2026-09-01 onwards.

    python3 make_fresh_tables.py && python3 build_questions.py && python3 validate_questions.py
"""

import csv
import json
import os
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))

SCHEMA = {
    "stores_issues": "issue_id text, issue_date text, site text, part_number text, "
    "part_description text, part_category text, quantity integer, "
    "unit_cost real, cost_centre text",
    "shift_production": "prod_date text, shift text, site text, line text, product text, "
    "units_produced integer, scrap_units integer, planned_minutes integer, "
    "run_minutes integer",
}


def load():
    con = sqlite3.connect(":memory:")
    for t, cols in SCHEMA.items():
        con.execute(f"create table {t} ({cols})")
        with open(os.path.join(HERE, t + ".csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        names = list(rows[0])
        con.executemany(
            f"insert into {t} values ({','.join('?' * len(names))})",
            [[r[c] for c in names] for r in rows],
        )
    return con


def fmt(v):
    if isinstance(v, str):
        return v
    r = round(float(v), 2)
    if r == int(r):
        return str(int(r))
    return f"{r:.2f}".rstrip("0").rstrip(".")


def median_sql(expr, table, where):
    return (
        f"SELECT AVG(v) FROM (SELECT {expr} AS v FROM {table} WHERE {where} ORDER BY v "
        f"LIMIT 2 - (SELECT COUNT(*) FROM {table} WHERE {where}) % 2 "
        f"OFFSET (SELECT (COUNT(*) - 1) / 2 FROM {table} WHERE {where}))"
    )


SI, SP = "stores_issues", "shift_production"
VAL = "quantity * unit_cost"

# (kind, table, question, sql) — facts are every cell of the result, formatted
Q = [
    # ---- stores_issues
    (
        "time_window",
        SI,
        "What was our total spare parts spend in Q2 2026?",
        f"SELECT SUM({VAL}) FROM {SI} WHERE issue_date BETWEEN '2026-04-01' AND '2026-06-30'",
    ),
    (
        "time_window",
        SI,
        "How much did we spend on spare parts between March and May 2026?",
        f"SELECT SUM({VAL}) FROM {SI} WHERE issue_date BETWEEN '2026-03-01' AND '2026-05-31'",
    ),
    (
        "time_window",
        SI,
        "What has Riverside spent on spare parts since September?",
        f"SELECT SUM({VAL}) FROM {SI} WHERE site = 'Riverside' AND issue_date >= '2026-09-01'",
    ),
    (
        "time_window",
        SI,
        "What was the spare parts cost last month?",
        f"SELECT SUM({VAL}) FROM {SI} WHERE issue_date BETWEEN '2026-11-01' AND '2026-11-30'",
    ),
    (
        "ranking",
        SI,
        "What were the top 3 parts by spend in 2026?",
        f"SELECT part_number, SUM({VAL}) AS v FROM {SI} WHERE issue_date LIKE '2026-%' "
        f"GROUP BY part_number ORDER BY v DESC LIMIT 3",
    ),
    (
        "ranking",
        SI,
        "Which part category cost us the most last year?",
        f"SELECT part_category, SUM({VAL}) AS v FROM {SI} WHERE issue_date LIKE '2025-%' "
        f"GROUP BY part_category ORDER BY v DESC LIMIT 1",
    ),
    (
        "ranking",
        SI,
        "Which part number had the most units issued in H2 2025?",
        f"SELECT part_number, SUM(quantity) AS v FROM {SI} WHERE issue_date BETWEEN '2025-07-01' AND '2025-12-31' "
        f"GROUP BY part_number ORDER BY v DESC LIMIT 1",
    ),
    (
        "comparison",
        SI,
        "Compare the spend on BR-6205 vs BR-6205-ZZ in 2025.",
        f"SELECT part_number, SUM({VAL}) FROM {SI} WHERE issue_date LIKE '2025-%' "
        f"AND part_number IN ('BR-6205', 'BR-6205-ZZ') GROUP BY part_number ORDER BY part_number",
    ),
    (
        "comparison",
        SI,
        "How much was charged to cost centre CC-410 versus CC-4100 in 2026?",
        f"SELECT cost_centre, SUM({VAL}) FROM {SI} WHERE issue_date LIKE '2026-%' "
        f"AND cost_centre IN ('CC-410', 'CC-4100') GROUP BY cost_centre ORDER BY cost_centre",
    ),
    (
        "count",
        SI,
        "How many issues of bearings were there in 2026?",
        f"SELECT COUNT(*) FROM {SI} WHERE part_category = 'Bearings' AND issue_date LIKE '2026-%'",
    ),
    (
        "count",
        SI,
        "How many stores issues did Oakmont have in H2 2025?",
        f"SELECT COUNT(*) FROM {SI} WHERE site = 'Oakmont' AND issue_date BETWEEN '2025-07-01' AND '2025-12-31'",
    ),
    (
        "share",
        SI,
        "What share of the 2025 spare parts spend went to Hillcrest?",
        f"SELECT 100.0 * SUM(CASE WHEN site = 'Hillcrest' THEN {VAL} ELSE 0 END) / SUM({VAL}) "
        f"FROM {SI} WHERE issue_date LIKE '2025-%'",
    ),
    (
        "share",
        SI,
        "What percentage of our parts spend in 2026 was on seals?",
        f"SELECT 100.0 * SUM(CASE WHEN part_category = 'Seals' THEN {VAL} ELSE 0 END) / SUM({VAL}) "
        f"FROM {SI} WHERE issue_date LIKE '2026-%'",
    ),
    (
        "aggregate",
        SI,
        "What was the average unit cost of the SL-MS45 mechanical seal in 2026?",
        f"SELECT AVG(unit_cost) FROM {SI} WHERE part_number = 'SL-MS45' AND issue_date LIKE '2026-%'",
    ),
    (
        "aggregate",
        SI,
        "What is the median quantity per issue of V-belt VB-SPA1250?",
        median_sql("quantity", SI, "part_number = 'VB-SPA1250'"),
    ),
    (
        "aggregate",
        SI,
        "What was the highest unit cost paid for the BR-22216 bearing?",
        f"SELECT MAX(unit_cost) FROM {SI} WHERE part_number = 'BR-22216'",
    ),
    (
        "breakdown",
        SI,
        "Break down spare parts spend per site for Q3 2026.",
        f"SELECT site, SUM({VAL}) FROM {SI} WHERE issue_date BETWEEN '2026-07-01' AND '2026-09-30' "
        f"GROUP BY site ORDER BY site",
    ),
    (
        "breakdown",
        SI,
        "Quantity issued per part category last month?",
        f"SELECT part_category, SUM(quantity) FROM {SI} WHERE issue_date BETWEEN '2026-11-01' AND '2026-11-30' "
        f"GROUP BY part_category ORDER BY part_category",
    ),
    # ---- shift_production
    (
        "time_window",
        SP,
        "How many units did Line 2 produce in Q1 2026?",
        f"SELECT SUM(units_produced) FROM {SP} WHERE line = 'Line 2' AND prod_date BETWEEN '2026-01-01' AND '2026-03-31'",
    ),
    (
        "time_window",
        SP,
        "What was the total scrap in H1 2025?",
        f"SELECT SUM(scrap_units) FROM {SP} WHERE prod_date BETWEEN '2025-01-01' AND '2025-06-30'",
    ),
    (
        "time_window",
        SP,
        "How many minutes of downtime did we have in October 2026?",
        f"SELECT SUM(planned_minutes - run_minutes) FROM {SP} WHERE prod_date BETWEEN '2026-10-01' AND '2026-10-31'",
    ),
    (
        "ranking",
        SP,
        "Which line had the most scrap last year?",
        f"SELECT site, line, SUM(scrap_units) AS v FROM {SP} WHERE prod_date LIKE '2025-%' "
        f"GROUP BY site, line ORDER BY v DESC LIMIT 1",
    ),
    (
        "ranking",
        SP,
        "Which product had the highest output in 2026?",
        f"SELECT product, SUM(units_produced) AS v FROM {SP} WHERE prod_date LIKE '2026-%' "
        f"GROUP BY product ORDER BY v DESC LIMIT 1",
    ),
    (
        "comparison",
        SP,
        "Hillcrest Line 1 vs Hillcrest Line 10: units produced in 2025?",
        f"SELECT line, SUM(units_produced) FROM {SP} WHERE site = 'Hillcrest' AND line IN ('Line 1', 'Line 10') "
        f"AND prod_date LIKE '2025-%' GROUP BY line ORDER BY line",
    ),
    (
        "comparison",
        SP,
        "Compare scrap units of PX-200 and PX-2000 in 2026.",
        f"SELECT product, SUM(scrap_units) FROM {SP} WHERE product IN ('PX-200', 'PX-2000') "
        f"AND prod_date LIKE '2026-%' GROUP BY product ORDER BY product",
    ),
    (
        "comparison",
        SP,
        "Early shift versus Night shift output in Q3 2026?",
        f"SELECT shift, SUM(units_produced) FROM {SP} WHERE shift IN ('Early', 'Night') "
        f"AND prod_date BETWEEN '2026-07-01' AND '2026-09-30' GROUP BY shift ORDER BY shift",
    ),
    (
        "count",
        SP,
        "How many shifts did Line 10 run in 2026?",
        f"SELECT COUNT(*) FROM {SP} WHERE line = 'Line 10' AND prod_date LIKE '2026-%'",
    ),
    (
        "share",
        SP,
        "What share of 2026 output came from Riverside?",
        f"SELECT 100.0 * SUM(CASE WHEN site = 'Riverside' THEN units_produced ELSE 0 END) / SUM(units_produced) "
        f"FROM {SP} WHERE prod_date LIKE '2026-%'",
    ),
    (
        "aggregate",
        SP,
        "What was the average scrap rate on Line 10 in 2025?",
        f"SELECT AVG(100.0 * scrap_units / units_produced) FROM {SP} WHERE line = 'Line 10' AND prod_date LIKE '2025-%'",
    ),
    (
        "aggregate",
        SP,
        "What was the highest output of a single shift on Line 3?",
        f"SELECT MAX(units_produced) FROM {SP} WHERE line = 'Line 3'",
    ),
    (
        "breakdown",
        SP,
        "Units produced per shift in 2026?",
        f"SELECT shift, SUM(units_produced) FROM {SP} WHERE prod_date LIKE '2026-%' GROUP BY shift ORDER BY shift",
    ),
    (
        "breakdown",
        SP,
        "Scrap per product last quarter?",
        f"SELECT product, SUM(scrap_units) FROM {SP} WHERE prod_date BETWEEN '2026-07-01' AND '2026-09-30' "
        f"GROUP BY product ORDER BY product",
    ),
]

# extra remarks appended to a question's notes
REMARKS = {
    "Which line had the most scrap last year?": "line is declared within site, so lines are grouped per site (Line 1 summed over both "
    "sites would be 1126)",
    "What was the average scrap rate on Line 10 in 2025?": "scrap_rate aggregates as avg of per-shift rates, as the schema declares (pooled "
    "100*SUM(scrap)/SUM(units) would be 4.34)",
    "Hillcrest Line 1 vs Hillcrest Line 10: units produced in 2025?": "Line 1 exists at both sites; the question names Hillcrest",
}

# (question, reason) — expected no_answer
U = [
    (
        "How many labour hours did the Night shift book on Line 2 in Q1 2026?",
        "shift_production has no labour hours column",
    ),
    (
        "How much scrap did Line 7 produce in 2025?",
        "no line 'Line 7' (lines: Line 1, Line 2, Line 3, Line 10)",
    ),
    (
        "Which supplier supplied the most bearings we issued in 2026?",
        "stores_issues has no supplier column",
    ),
    (
        "How many units of part BR-6310 were issued in 2026?",
        "no part number 'BR-6310' in stores_issues",
    ),
    (
        "What was the total spare parts spend at the Westbrook site in 2025?",
        "no site 'Westbrook' (sites: Hillcrest, Riverside, Oakmont)",
    ),
    (
        "Which operator produced the most units in October 2026?",
        "shift_production has no operator column",
    ),
    (
        "What was the average changeover time on Line 10 in H1 2026?",
        "shift_production has no changeover time column",
    ),
    (
        "How many units of product PX-500 were produced in Q3 2026?",
        "no product 'PX-500' (products: PX-200, PX-2000, PX-350, CV-12)",
    ),
]

# the writer's kinds as `ragcore eval --golden` names them (added by the lead, after writing)
KINDS = {
    "count": "total",
    "share": "derived",
    "aggregate": "derived",
    "breakdown": "per_dimension",
    "unanswerable": "unexpressible",
}

# where each unanswerable question goes in the file (spread through it)
U_POS = [4, 9, 14, 19, 24, 29, 34, 39]


def main():
    con = load()
    answered = []
    for kind, table, question, sql in Q:
        rows = con.execute(sql).fetchall()
        assert rows and all(c is not None for r in rows for c in r), (question, rows)
        facts = [fmt(c) for r in rows for c in r]
        answered.append(
            {
                "kind": kind,
                "question": question,
                "expected_status": "ok",
                "expected_documents": [f"table:{table}"],
                "forbidden_documents": [],
                "expected_facts": facts,
                "notes": f"SQL: {sql}; result: {json.dumps([list(r) for r in rows])}"
                + (f"; note: {REMARKS[question]}" if question in REMARKS else ""),
            }
        )
    unanswerable = [
        {
            "kind": "unanswerable",
            "question": q,
            "expected_status": "no_answer",
            "expected_documents": [],
            "forbidden_documents": [],
            "expected_facts": [],
            "notes": f"Unanswerable: {why}.",
        }
        for q, why in U
    ]
    out, a, u = [], iter(answered), iter(unanswerable)
    for i in range(len(answered) + len(unanswerable)):
        out.append(next(u) if i in U_POS else next(a))
    with open(os.path.join(HERE, "questions_fresh.jsonl"), "w") as f:
        for i, obj in enumerate(out, start=1):
            kind = str(obj["kind"])
            obj["kind"] = KINDS.get(kind, kind)
            f.write(json.dumps({"id": f"tf-{i:03d}", **obj}, ensure_ascii=False) + "\n")
    print(f"{len(out)} questions written")


if __name__ == "__main__":
    main()
