# ruff: noqa: E501  (the questions and their SQL read best one to a line)
"""Practice questions for issue 28 (helper h28) over weather.csv and economics.csv, each
figure recomputed with sqlite3 over the CSVs (the SQL is in each question's notes).
Asked as of 6 December 2026: both tables end years before it (2013, April 2015).

    python build_practice_questions.py   # writes questions.jsonl
"""

import csv
import json
import sqlite3
from pathlib import Path

HERE = Path(__file__).resolve().parent
W, E = "table:weather", "table:economics"
# (id, kind, question, table, expected status, SQL of the figure(s) or None)
QUESTIONS = [
    (
        "p-001",
        "time_window",
        "What was the average temperature at JFK in July 2013?",
        W,
        "ok",
        "SELECT AVG(temp) FROM weather WHERE origin='JFK' AND obs_date BETWEEN '2013-07-01' AND '2013-07-31'",
    ),
    (
        "p-002",
        "time_window",
        "Total precipitation at LGA between June and August 2013?",
        W,
        "ok",
        "SELECT SUM(precip) FROM weather WHERE origin='LGA' AND obs_date BETWEEN '2013-06-01' AND '2013-08-31'",
    ),
    (
        "p-003",
        "time_window",
        "average wind speed at Newark in Q3 2013",
        W,
        "ok",
        "SELECT AVG(wind_speed) FROM weather WHERE origin='EWR' AND obs_date BETWEEN '2013-07-01' AND '2013-09-30'",
    ),
    (
        "p-004",
        "aggregate",
        "Which airport had the highest average humidity in 2013?",
        W,
        "ok",
        "SELECT origin FROM weather GROUP BY origin ORDER BY AVG(humid) DESC LIMIT 1",
    ),
    (
        "p-005",
        "comparison",
        "JFK vs LGA average temperature in January 2013",
        W,
        "ok",
        "SELECT AVG(temp) FROM weather WHERE obs_date LIKE '2013-01%' AND origin IN ('JFK','LGA') GROUP BY origin ORDER BY origin",
    ),
    (
        "p-006",
        "time_window",
        "total rainfall at JFK from March to May 2013",
        W,
        "ok",
        "SELECT SUM(precip) FROM weather WHERE origin='JFK' AND obs_date BETWEEN '2013-03-01' AND '2013-05-31'",
    ),
    ("p-007", "unknown_value", "What was the temperature at BOS in 2013?", W, "no_answer", None),
    ("p-008", "unknown_value", "average humidity at JKF in 2013", W, "no_answer", None),
    ("p-009", "unanswerable", "average wind at JFK in 2013 at 18:00", W, "no_answer", None),
    (
        "p-010",
        "unanswerable",
        "What was the average dew point at JFK in 2013?",
        W,
        "no_answer",
        None,
    ),
    (
        "p-011",
        "time_window",
        "What was the average savings rate in 1975?",
        E,
        "ok",
        "SELECT AVG(psavert) FROM economics WHERE month LIKE '1975%'",
    ),
    (
        "p-012",
        "time_window",
        "unemployment in Q2 2009",
        E,
        "ok",
        "SELECT AVG(unemploy) FROM economics WHERE month BETWEEN '2009-04' AND '2009-06'",
    ),
    (
        "p-013",
        "aggregate",
        "Which year had the highest savings rate?",
        E,
        "ok",
        "SELECT substr(month, 1, 4) FROM economics GROUP BY 1 ORDER BY AVG(psavert) DESC LIMIT 1",
    ),
    (
        "p-014",
        "time_window",
        "median unemployment duration in the second half of 2010",
        E,
        "ok",
        "SELECT AVG(uempmed) FROM economics WHERE month BETWEEN '2010-07' AND '2010-12'",
    ),
    (
        "p-015",
        "aggregate",
        "What was the highest number unemployed in 2009?",
        E,
        "ok",
        "SELECT MAX(CAST(unemploy AS INTEGER)) FROM economics WHERE month LIKE '2009%'",
    ),
    (
        "p-016",
        "time_window",
        "unemployment in the third quarter of 1982",
        E,
        "ok",
        "SELECT AVG(unemploy) FROM economics WHERE month BETWEEN '1982-07' AND '1982-09'",
    ),
    ("p-017", "unanswerable", "What was the inflation rate in 1990?", E, "no_answer", None),
    ("p-018", "time_window", "unemployment in 2016", E, "no_answer", None),
]


def fact(value: object) -> str:
    if isinstance(value, float):
        return f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
    return str(value)


def main() -> None:
    db = sqlite3.connect(":memory:")
    for name in ("weather", "economics"):
        with open(HERE / f"{name}.csv", encoding="utf-8", newline="") as file:
            rows = list(csv.reader(file))
        db.execute(f"CREATE TABLE {name} ({', '.join(rows[0])})")
        db.executemany(f"INSERT INTO {name} VALUES ({', '.join('?' * len(rows[0]))})", rows[1:])
    with open(HERE / "questions.jsonl", "w", encoding="utf-8") as out:
        for qid, kind, question, table, status, sql in QUESTIONS:
            result = db.execute(sql).fetchall() if sql else []
            other = E if table == W else W
            out.write(
                json.dumps(
                    {
                        "id": qid,
                        "kind": kind,
                        "question": question,
                        "expected_status": status,
                        "expected_documents": [table] if status == "ok" else [],
                        "forbidden_documents": [other],
                        "expected_facts": [fact(r[0]) for r in result],
                        "notes": f"SQL: {sql}; result: {result}" if sql else "no figure expected",
                    }
                )
                + "\n"
            )


if __name__ == "__main__":
    main()
