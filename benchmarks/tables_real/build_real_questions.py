# ruff: noqa: E501 -- each question keeps its SQL on the lines a reader checks it by
# mypy: ignore-errors
"""Compute, with plain sqlite3 over the CSVs of this folder, the truth of the dev
questions on the two real tables and write questions_dev.jsonl.

    /tmp/tr-venv/bin/python benchmarks/tables_real/make_real_tables.py   # the CSVs (see there)
    python3 benchmarks/tables_real/build_real_questions.py

Checks before writing: every `ok` question's SQL returns exactly one row whose values
are all non-null; a "which ... the most/least" answer is not tied with the runner-up;
a "which of two" answer is not a tie; every value an `unknown_value` question names
occurs in no text column of its table; the kinds and statuses add up.
"""

from __future__ import annotations

import collections
import csv
import json
import os
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

TYPES = {
    "flights": {"dep_delay": int, "arr_delay": int, "air_time": int, "distance": int},
    "txhousing": {
        "sales": int,
        "volume": int,
        "median_price": int,
        "listings": int,
        "months_inventory": float,
    },
}


def connect() -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    for name, types in TYPES.items():
        with open(os.path.join(HERE, f"{name}.csv"), newline="") as fh:
            rows = list(csv.reader(fh))
        header = rows[0]
        cols = ", ".join(
            f"{c} {'INTEGER' if types.get(c) is int else 'REAL' if types.get(c) is float else 'TEXT'}"
            for c in header
        )
        con.execute(f"CREATE TABLE {name} ({cols})")
        conv = [types.get(c, str) for c in header]
        con.executemany(
            f"INSERT INTO {name} VALUES ({', '.join('?' * len(header))})",
            ([f(v) for f, v in zip(conv, r)] for r in rows[1:]),
        )
    return con


def fmt(x) -> str:
    if isinstance(x, str):
        return x
    s = f"{round(float(x), 2):.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def median_sql(table: str, col: str, where: str) -> str:
    n = f"(SELECT COUNT(*) FROM {table} WHERE {where})"
    return (
        f"SELECT AVG({col}) FROM (SELECT {col} FROM {table} WHERE {where} ORDER BY {col} "
        f"LIMIT 2 - {n} % 2 OFFSET ({n} - 1) / 2)"
    )


F, T = "flights", "txhousing"
JUL = "flight_date BETWEEN '2013-07-01' AND '2013-07-31'"

# (kind, table, question, sql | None, extra)
#   ok questions: sql returns one row; the facts are its columns (all, or the first
#   `facts` of them). extra may hold: facts=N (how many leading columns are facts),
#   tie_sql (ranking: 2 rows, name and value; the first must not tie the second),
#   unknown=(value, ...) for unknown_value, status for no_answer / uncertain.
Q = [
    # ---------------- time_window (8) ----------------
    (
        "time_window",
        F,
        "What was the average departure delay in July 2013?",
        f"SELECT AVG(dep_delay) FROM flights WHERE {JUL}",
        {},
    ),
    (
        "time_window",
        F,
        "How many flights left JFK between June and August 2013?",
        "SELECT COUNT(*) FROM flights WHERE origin = 'JFK' AND flight_date BETWEEN '2013-06-01' AND '2013-08-31'",
        {},
    ),
    (
        "time_window",
        F,
        "total miles flown Q4 2013",
        "SELECT SUM(distance) FROM flights WHERE flight_date BETWEEN '2013-10-01' AND '2013-12-31'",
        {},
    ),
    (
        "time_window",
        F,
        "Average arrival delay in 2013-W27?",
        "SELECT AVG(arr_delay) FROM flights WHERE flight_date BETWEEN '2013-07-01' AND '2013-07-07'",
        {},
    ),
    (
        "time_window",
        F,
        "Since October 2013, what's our average arrival delay?",
        "SELECT AVG(arr_delay) FROM flights WHERE flight_date >= '2013-10-01'",
        {},
    ),
    (
        "time_window",
        T,
        "How many homes were sold in Texas in H1 2014?",
        "SELECT SUM(sales) FROM txhousing WHERE month BETWEEN '2014-01' AND '2014-06'",
        {},
    ),
    (
        "time_window",
        T,
        "Dallas sales volume in 2013",
        "SELECT SUM(volume) FROM txhousing WHERE city = 'Dallas' AND month BETWEEN '2013-01' AND '2013-12'",
        {},
    ),
    (
        "time_window",
        T,
        "Average months of inventory in Austin between March and May 2010?",
        "SELECT AVG(months_inventory) FROM txhousing WHERE city = 'Austin' AND month BETWEEN '2010-03' AND '2010-05'",
        {},
    ),
    # ---------------- aggregate (8) ----------------
    (
        "aggregate",
        F,
        "What was the longest arrival delay of any flight in 2013?",
        "SELECT MAX(arr_delay) FROM flights WHERE flight_date BETWEEN '2013-01-01' AND '2013-12-31'",
        {},
    ),
    (
        "aggregate",
        F,
        "Which destination got the most flights out of LGA in 2013?",
        "SELECT dest FROM flights WHERE origin = 'LGA' AND flight_date BETWEEN '2013-01-01' AND '2013-12-31' "
        "GROUP BY dest ORDER BY COUNT(*) DESC LIMIT 1",
        {
            "tie_sql": "SELECT dest, COUNT(*) FROM flights WHERE origin = 'LGA' AND flight_date BETWEEN '2013-01-01' "
            "AND '2013-12-31' GROUP BY dest ORDER BY 2 DESC LIMIT 2"
        },
    ),
    (
        "aggregate",
        F,
        "Median departure delay for UA in December 2013?",
        median_sql(
            "flights",
            "dep_delay",
            "carrier = 'UA' AND flight_date BETWEEN '2013-12-01' AND '2013-12-31'",
        ),
        {},
    ),
    (
        "aggregate",
        F,
        "Which airline had the lowest average arrival delay in Q1 2013?",
        "SELECT carrier FROM flights WHERE flight_date BETWEEN '2013-01-01' AND '2013-03-31' "
        "GROUP BY carrier ORDER BY AVG(arr_delay) ASC LIMIT 1",
        {
            "tie_sql": "SELECT carrier, ROUND(AVG(arr_delay), 2) FROM flights WHERE flight_date BETWEEN '2013-01-01' "
            "AND '2013-03-31' GROUP BY carrier ORDER BY 2 ASC LIMIT 2"
        },
    ),
    (
        "aggregate",
        F,
        "how many flights to SFO in 2013",
        "SELECT COUNT(*) FROM flights WHERE dest = 'SFO' AND flight_date BETWEEN '2013-01-01' AND '2013-12-31'",
        {},
    ),
    (
        "aggregate",
        T,
        "Which city sold the most homes in 2012?",
        "SELECT city FROM txhousing WHERE month BETWEEN '2012-01' AND '2012-12' GROUP BY city ORDER BY SUM(sales) DESC LIMIT 1",
        {
            "tie_sql": "SELECT city, SUM(sales) FROM txhousing WHERE month BETWEEN '2012-01' AND '2012-12' "
            "GROUP BY city ORDER BY 2 DESC LIMIT 2"
        },
    ),
    (
        "aggregate",
        T,
        "Highest median sale price in Collin County in 2014?",
        "SELECT MAX(median_price) FROM txhousing WHERE city = 'Collin County' AND month BETWEEN '2014-01' AND '2014-12'",
        {},
    ),
    (
        "aggregate",
        T,
        "What was the average number of active listings in San Antonio in 2011?",
        "SELECT AVG(listings) FROM txhousing WHERE city = 'San Antonio' AND month BETWEEN '2011-01' AND '2011-12'",
        {},
    ),
    # ---------------- comparison (7) ----------------
    (
        "comparison",
        F,
        "JFK vs LGA: average departure delay in August 2013",
        "SELECT AVG(CASE WHEN origin = 'JFK' THEN dep_delay END), AVG(CASE WHEN origin = 'LGA' THEN dep_delay END) "
        "FROM flights WHERE flight_date BETWEEN '2013-08-01' AND '2013-08-31'",
        {},
    ),
    (
        "comparison",
        F,
        "Did AA or DL have longer arrival delays in June 2013?",
        "SELECT CASE WHEN a > d THEN 'AA' ELSE 'DL' END, a, d FROM (SELECT "
        "AVG(CASE WHEN carrier = 'AA' THEN arr_delay END) AS a, AVG(CASE WHEN carrier = 'DL' THEN arr_delay END) AS d "
        "FROM flights WHERE flight_date BETWEEN '2013-06-01' AND '2013-06-30')",
        {"facts": 1, "distinct": (1, 2)},
    ),
    (
        "comparison",
        F,
        "Which had the higher average departure delay in 2013, EWR or JFK?",
        "SELECT CASE WHEN e > j THEN 'EWR' ELSE 'JFK' END, e, j FROM (SELECT "
        "AVG(CASE WHEN origin = 'EWR' THEN dep_delay END) AS e, AVG(CASE WHEN origin = 'JFK' THEN dep_delay END) AS j "
        "FROM flights WHERE flight_date BETWEEN '2013-01-01' AND '2013-12-31')",
        {"facts": 1, "distinct": (1, 2)},
    ),
    (
        "comparison",
        F,
        "DL miles flown, Q2 2013 vs Q3 2013",
        "SELECT SUM(CASE WHEN flight_date BETWEEN '2013-04-01' AND '2013-06-30' THEN distance END), "
        "SUM(CASE WHEN flight_date BETWEEN '2013-07-01' AND '2013-09-30' THEN distance END) "
        "FROM flights WHERE carrier = 'DL'",
        {},
    ),
    (
        "comparison",
        T,
        "Houston or Dallas - which sold more homes in 2014?",
        "SELECT CASE WHEN h > d THEN 'Houston' ELSE 'Dallas' END, h, d FROM (SELECT "
        "SUM(CASE WHEN city = 'Houston' THEN sales END) AS h, SUM(CASE WHEN city = 'Dallas' THEN sales END) AS d "
        "FROM txhousing WHERE month BETWEEN '2014-01' AND '2014-12')",
        {"facts": 1, "distinct": (1, 2)},
    ),
    (
        "comparison",
        T,
        "Median price in Austin: June 2010 vs June 2015?",
        "SELECT MAX(CASE WHEN month = '2010-06' THEN median_price END), MAX(CASE WHEN month = '2015-06' THEN median_price END) "
        "FROM txhousing WHERE city = 'Austin'",
        {},
    ),
    (
        "comparison",
        T,
        "Compare the dollar volume of Fort Worth and Arlington in 2013",
        "SELECT SUM(CASE WHEN city = 'Fort Worth' THEN volume END), SUM(CASE WHEN city = 'Arlington' THEN volume END) "
        "FROM txhousing WHERE month BETWEEN '2013-01' AND '2013-12'",
        {},
    ),
    # ---------------- filter (6) ----------------
    (
        "filter",
        F,
        "Average arrival delay of UA flights from EWR to SFO in May 2013?",
        "SELECT AVG(arr_delay) FROM flights WHERE carrier = 'UA' AND origin = 'EWR' AND dest = 'SFO' "
        "AND flight_date BETWEEN '2013-05-01' AND '2013-05-31'",
        {},
    ),
    (
        "filter",
        F,
        "How many DL flights did we run from LGA to ATL in 2013?",
        "SELECT COUNT(*) FROM flights WHERE carrier = 'DL' AND origin = 'LGA' AND dest = 'ATL' "
        "AND flight_date BETWEEN '2013-01-01' AND '2013-12-31'",
        {},
    ),
    (
        "filter",
        F,
        "avg air time AA JFK to LAX, January 2013",
        "SELECT AVG(air_time) FROM flights WHERE carrier = 'AA' AND origin = 'JFK' AND dest = 'LAX' "
        "AND flight_date BETWEEN '2013-01-01' AND '2013-01-31'",
        {},
    ),
    (
        "filter",
        F,
        "What was the average speed of DL flights from JFK to SFO in 2013?",
        "SELECT AVG(distance * 60.0 / air_time) FROM flights WHERE carrier = 'DL' AND origin = 'JFK' AND dest = 'SFO' "
        "AND flight_date BETWEEN '2013-01-01' AND '2013-12-31'",
        {},
    ),
    (
        "filter",
        F,
        "How much time did AA flights from JFK to MIA make up on average in March 2013?",
        "SELECT AVG(dep_delay - arr_delay) FROM flights WHERE carrier = 'AA' AND origin = 'JFK' AND dest = 'MIA' "
        "AND flight_date BETWEEN '2013-03-01' AND '2013-03-31'",
        {},
    ),
    (
        "filter",
        T,
        "Sales volume in Bryan-College Station in August 2012?",
        "SELECT SUM(volume) FROM txhousing WHERE city = 'Bryan-College Station' AND month = '2012-08'",
        {},
    ),
    # ---------------- unknown_value (4) ----------------
    (
        "unknown_value",
        F,
        "Average departure delay of WN flights in 2013?",
        None,
        {"unknown": ("WN",)},
    ),
    ("unknown_value", F, "How many flights went to BWI in 2013?", None, {"unknown": ("BWI",)}),
    (
        "unknown_value",
        T,
        "How many homes were sold in Plano in 2014?",
        None,
        {"unknown": ("Plano",)},
    ),
    ("unknown_value", T, "Median price in Frisco, Q3 2013", None, {"unknown": ("Frisco",)}),
    # ---------------- unanswerable (4) ----------------
    (
        "unanswerable",
        F,
        "How many passengers flew out of JFK in July 2013?",
        None,
        {"why": "no passenger counts in the table"},
    ),
    (
        "unanswerable",
        F,
        "How many flights were cancelled in March 2013?",
        None,
        {"why": "no cancellation flag: the table holds only flights that arrived"},
    ),
    (
        "unanswerable",
        T,
        "Average days on market in Austin in 2014?",
        None,
        {"why": "no days-on-market measure"},
    ),
    (
        "unanswerable",
        T,
        "Homes sold in Dallas in 2013 per ZIP code",
        None,
        {"why": "no ZIP code dimension"},
    ),
    # ---------------- ambiguous (3) ----------------
    (
        "ambiguous",
        F,
        "What was the average delay for DL in March 2013?",
        "SELECT AVG(dep_delay), AVG(arr_delay) FROM flights WHERE carrier = 'DL' "
        "AND flight_date BETWEEN '2013-03-01' AND '2013-03-31'",
        {"status": "uncertain", "why": "'delay' fits departure delay and arrival delay equally"},
    ),
    (
        "ambiguous",
        F,
        "How late were UA flights out of EWR in July 2013?",
        f"SELECT AVG(dep_delay), AVG(arr_delay) FROM flights WHERE carrier = 'UA' AND origin = 'EWR' AND {JUL}",
        {"status": "uncertain", "why": "'late' fits late departure and late arrival equally"},
    ),
    (
        "ambiguous",
        T,
        "Home price in Austin in June 2014?",
        "SELECT median_price, volume * 1.0 / sales FROM txhousing WHERE city = 'Austin' AND month = '2014-06'",
        {
            "status": "uncertain",
            "why": "'price' fits the median price and the average price equally",
        },
    ),
]

EXPECTED_KINDS = {
    "time_window": 8,
    "aggregate": 8,
    "comparison": 7,
    "filter": 6,
    "unknown_value": 4,
    "unanswerable": 4,
    "ambiguous": 3,
}
TEXT_COLS = {"flights": ("carrier", "origin", "dest"), "txhousing": ("city",)}


def main() -> int:
    con = connect()
    out, errors = [], []
    for n, (kind, table, question, sql, extra) in enumerate(Q, 1):
        qid = f"tr-{n:03d}"
        status = extra.get(
            "status", "no_answer" if kind in ("unknown_value", "unanswerable") else "ok"
        )
        facts: list[str] = []
        notes = ""
        if sql is not None:
            rows = con.execute(sql).fetchall()
            if len(rows) != 1 or any(v is None for v in rows[0]):
                errors.append(f"{qid}: SQL must return one non-null row, got {rows!r}")
                continue
            row = rows[0]
            shown = [round(v, 4) if isinstance(v, float) else v for v in row]
            notes = f"SQL: {sql}; result: [{json.dumps(shown)}]"
            if "tie_sql" in extra:
                top = con.execute(extra["tie_sql"]).fetchall()
                if len(top) == 2 and top[0][1] == top[1][1]:
                    errors.append(f"{qid}: ranking tie {top!r}")
                if top[0][0] != row[0]:
                    errors.append(f"{qid}: ranking mismatch {top!r} vs {row!r}")
                notes += f"; top two: {json.dumps(top)}"
            if "distinct" in extra:
                i, j = extra["distinct"]
                if row[i] == row[j]:
                    errors.append(f"{qid}: comparison tie {row!r}")
            if status == "ok":
                facts = [fmt(v) for v in row[: extra.get("facts", len(row))]]
                if len(facts) > 2:
                    errors.append(f"{qid}: more than 2 facts")
            else:
                notes = f"table {table}: {extra['why']}; the readings for reference: " + notes
        elif "unknown" in extra:
            for value in extra["unknown"]:
                for col in TEXT_COLS[table]:
                    hit = con.execute(
                        f"SELECT COUNT(*) FROM {table} WHERE lower({col}) = lower(?)", (value,)
                    ).fetchone()[0]
                    if hit:
                        errors.append(f"{qid}: unknown value {value!r} occurs in {table}.{col}")
            notes = (
                f"table {table}: value {', '.join(map(repr, extra['unknown']))} occurs in no column of {table} "
                f"(checked: {', '.join(TEXT_COLS[table])})"
            )
        else:
            notes = f"table {table}: {extra['why']}"
        out.append(
            {
                "id": qid,
                "kind": kind,
                "question": question,
                "expected_status": status,
                "expected_documents": [f"table:{table}"] if status == "ok" else [],
                "forbidden_documents": [],
                "expected_facts": facts,
                "notes": notes,
            }
        )
    kinds = collections.Counter(q["kind"] for q in out)
    if dict(kinds) != EXPECTED_KINDS:
        errors.append(f"kinds {dict(kinds)} != {EXPECTED_KINDS}")
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    path = os.path.join(HERE, "questions_dev.jsonl")
    with open(path, "w") as fh:
        for q in out:
            fh.write(json.dumps(q, ensure_ascii=False) + "\n")
    statuses = collections.Counter(q["expected_status"] for q in out)
    print(f"{path}: {len(out)} questions; kinds {dict(kinds)}; statuses {dict(statuses)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
