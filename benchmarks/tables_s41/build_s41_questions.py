#!/usr/bin/env python3
# ruff: noqa: E501
# mypy: ignore-errors
"""Build questions.jsonl for the s41 held-out table set.

Each question carries the plain SQL whose result is its truth, run with sqlite3 over
hotel_stays.csv and atlantic_storms.csv (typed by the [columns] of the schema TOMLs).
The build stops if a stated fact does not match its SQL result. Run:

    python3 build_s41_questions.py      # writes questions.jsonl
    python3 validate_s41.py                 # re-runs every SQL and checks the file
"""

import csv
import json
import os
import sqlite3
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = ["hotel_stays", "atlantic_storms"]
SQLTYPE = {"date": "TEXT", "text": "TEXT", "integer": "INTEGER", "real": "REAL"}


def load_db():
    db = sqlite3.connect(":memory:")
    for t in TABLES:
        with open(os.path.join(HERE, f"{t}.toml"), "rb") as fh:
            schema = tomllib.load(fh)
        cols = schema["columns"]
        with open(os.path.join(HERE, f"{t}.csv"), newline="", encoding="utf-8") as fh:
            rd = csv.reader(fh)
            header = next(rd)
            assert header == list(cols), (t, header)
            db.execute(
                f"CREATE TABLE {t} (" + ", ".join(f"{c} {SQLTYPE[cols[c]]}" for c in header) + ")"
            )
            conv = [
                int if cols[c] == "integer" else float if cols[c] == "real" else str for c in header
            ]
            rows = []
            for r in rd:
                assert len(r) == len(header) and all(v != "" for v in r), (t, r)
                rows.append([f(v) for f, v in zip(conv, r)])
            db.executemany(f"INSERT INTO {t} VALUES ({','.join('?' * len(header))})", rows)
    return db


def run(db, sql):
    out = []
    for row in db.execute(sql).fetchall():
        out.append([round(v, 4) if isinstance(v, float) else v for v in row])
    return out


# A name a person would say for a stored code (the table stores the code).
ALIASES = {"portugal": "PRT"}


def fact_matches(alt, result):
    """True if this alternative of an expected fact is borne out by a result cell."""
    cells = [c for row in result for c in row]
    alt = ALIASES.get(alt.lower(), alt)
    try:
        want = float(alt.replace(",", ""))
    except ValueError:
        return any(isinstance(c, str) and c.lower() == alt.lower() for c in cells)
    dec = len(alt.split(".")[1]) if "." in alt else 0
    return any(
        isinstance(c, (int, float)) and not isinstance(c, bool) and abs(round(c, dec) - want) < 1e-9
        for c in cells
    )


def check_facts(q, result):
    if q["status"] != "ok":
        assert q["facts"] == [], q["id"]
        return
    assert q["facts"], q["id"]
    for fact in q["facts"]:
        # every alternative must be a right way to state the result
        for alt in fact.split("|"):
            assert fact_matches(alt, result), (q["id"], alt, result)


H, S = "hotel_stays", "atlantic_storms"

# (kind, table, question, expected_status, facts, sql)
QUESTIONS = [
    # ---------------- time_window ----------------
    (
        "time_window",
        H,
        "What was the average room rate for arrivals in August 2017?",
        "ok",
        ["203.71|203.7"],
        "SELECT AVG(avg_price_per_room) FROM hotel_stays WHERE arrival_date BETWEEN '2017-08-01' AND '2017-08-31'",
    ),
    (
        "time_window",
        H,
        "how many bookings arrived in Q4 2016",
        "ok",
        ["3321|3,321"],
        "SELECT COUNT(*) FROM hotel_stays WHERE arrival_date BETWEEN '2016-10-01' AND '2016-12-31'",
    ),
    (
        "time_window",
        H,
        "Total room nights for stays arriving since March 2017?",
        "ok",
        ["31454|31,454"],
        "SELECT SUM(weekend_nights + week_nights) FROM hotel_stays WHERE arrival_date >= '2017-03-01'",
    ),
    (
        "time_window",
        S,
        "How many storm track observations were logged in Sept 2017?",
        "ok",
        ["292"],
        "SELECT COUNT(*) FROM atlantic_storms WHERE obs_date BETWEEN '2017-09-01' AND '2017-09-30'",
    ),
    (
        "time_window",
        S,
        "whats the highest max sustained wind recorded in 2005, in knots",
        "ok",
        ["160"],
        "SELECT MAX(max_wind_kt) FROM atlantic_storms WHERE obs_date BETWEEN '2005-01-01' AND '2005-12-31'",
    ),
    (
        "time_window",
        S,
        "Lowest central pressure seen between July and September 2019?",
        "ok",
        ["910"],
        "SELECT MIN(pressure_mb) FROM atlantic_storms WHERE obs_date BETWEEN '2019-07-01' AND '2019-09-30'",
    ),
    # ---------------- comparison ----------------
    (
        "comparison",
        H,
        "For 2017 arrivals, how did the avg price per room compare between online travel agent and offline travel agent bookings?",
        "ok",
        ["120.52|120.5", "84.75|84.7"],
        "SELECT market_segment, AVG(avg_price_per_room) FROM hotel_stays WHERE arrival_date BETWEEN '2017-01-01' AND '2017-12-31' AND market_segment IN ('online travel agent', 'offline travel agent') GROUP BY market_segment ORDER BY market_segment",
    ),
    (
        "comparison",
        H,
        "Do GBR guests book further ahead than PRT guests? Give me the average lead time for each.",
        "ok",
        ["152.92|152.9", "49.15|49.2"],
        "SELECT country, AVG(lead_time_days) FROM hotel_stays WHERE country IN ('GBR', 'PRT') GROUP BY country ORDER BY country",
    ),
    (
        "comparison",
        H,
        "June-August 2017: half board vs full board, how many bookings each?",
        "ok",
        ["831", "38"],
        "SELECT meal_plan, COUNT(*) FROM hotel_stays WHERE arrival_date BETWEEN '2017-06-01' AND '2017-08-31' AND meal_plan IN ('half board', 'full board') GROUP BY meal_plan ORDER BY meal_plan",
    ),
    (
        "comparison",
        S,
        "Katrina or Rita - which one peaked at the higher wind speed, and what were the two peaks?",
        "ok",
        ["Rita", "155", "150"],
        "SELECT storm_name, MAX(max_wind_kt) FROM atlantic_storms WHERE storm_name IN ('Katrina', 'Rita') GROUP BY storm_name ORDER BY 2 DESC",
    ),
    (
        "comparison",
        S,
        "In 2020, how many obs were classed tropical storm compared with subtropical storm?",
        "ok",
        ["352", "4"],
        "SELECT status, COUNT(*) FROM atlantic_storms WHERE obs_date BETWEEN '2020-01-01' AND '2020-12-31' AND status IN ('tropical storm', 'subtropical storm') GROUP BY status ORDER BY status",
    ),
    (
        "comparison",
        S,
        "Average central pressure for category 4 observations versus category 5 ones?",
        "ok",
        ["938.90|938.9", "917.89|917.9"],
        "SELECT category, AVG(pressure_mb) FROM atlantic_storms WHERE category IN ('category 4', 'category 5') GROUP BY category ORDER BY category",
    ),
    # ---------------- aggregate ----------------
    (
        "aggregate",
        H,
        "What is the average lead time over all bookings in the table?",
        "ok",
        ["90.72|90.7"],
        "SELECT AVG(lead_time_days) FROM hotel_stays",
    ),
    (
        "aggregate",
        H,
        "Which country sends us the most bookings?",
        "ok",
        ["PRT|Portugal"],
        "SELECT country, COUNT(*) FROM hotel_stays GROUP BY country ORDER BY 2 DESC LIMIT 3",
    ),
    (
        "aggregate",
        H,
        "What's the highest average daily rate any single booking paid?",
        "ok",
        ["426.25"],
        "SELECT MAX(avg_price_per_room) FROM hotel_stays",
    ),
    (
        "aggregate",
        S,
        "Which storm had the lowest central pressure in the whole dataset?",
        "ok",
        ["Wilma"],
        "SELECT storm_name, pressure_mb, obs_date FROM atlantic_storms ORDER BY pressure_mb ASC LIMIT 3",
    ),
    (
        "aggregate",
        S,
        "mean max sustained wind across all the observations?",
        "ok",
        ["49.29|49.3"],
        "SELECT AVG(max_wind_kt) FROM atlantic_storms",
    ),
    (
        "aggregate",
        S,
        "Which status comes up most often in the storm records?",
        "ok",
        ["tropical storm"],
        "SELECT status, COUNT(*) FROM atlantic_storms GROUP BY status ORDER BY 2 DESC LIMIT 3",
    ),
    # ---------------- filter ----------------
    (
        "filter",
        H,
        "How many repeat guests booked via the corporate market segment?",
        "ok",
        ["333"],
        "SELECT COUNT(*) FROM hotel_stays WHERE repeat_guest = 'yes' AND market_segment = 'corporate'",
    ),
    (
        "filter",
        H,
        "avg rate for transient party bookings that reserved room type G",
        "ok",
        ["155.18|155.2"],
        "SELECT AVG(avg_price_per_room) FROM hotel_stays WHERE customer_type = 'transient party' AND reserved_room_type = 'G'",
    ),
    (
        "filter",
        H,
        "How many bookings from ESP were on half board?",
        "ok",
        ["434"],
        "SELECT COUNT(*) FROM hotel_stays WHERE country = 'ESP' AND meal_plan = 'half board'",
    ),
    (
        "filter",
        S,
        "How many of Irma's observations were at category 5?",
        "ok",
        ["17"],
        "SELECT COUNT(*) FROM atlantic_storms WHERE storm_name = 'Irma' AND category = 'category 5'",
    ),
    (
        "filter",
        S,
        "For Hurricane Ian in 2022, how many track points had hurricane status?",
        "ok",
        ["23"],
        "SELECT COUNT(*) FROM atlantic_storms WHERE storm_name = 'Ian' AND obs_date BETWEEN '2022-01-01' AND '2022-12-31' AND status = 'hurricane'",
    ),
    (
        "filter",
        S,
        "Average tropical-storm-force wind diameter of the hurricane-status observations in 2020?",
        "ok",
        ["278.08|278.1"],
        "SELECT AVG(tropical_storm_wind_diameter_nmi) FROM atlantic_storms WHERE status = 'hurricane' AND obs_date BETWEEN '2020-01-01' AND '2020-12-31'",
    ),
    # ---------------- unknown_value (value not in the table) ----------------
    (
        "unknown_value",
        H,
        "How many all-inclusive bookings did we have in 2017?",
        "no_answer",
        [],
        "SELECT COUNT(*) FROM hotel_stays WHERE meal_plan LIKE '%inclusive%' OR meal_plan LIKE '%all%'",
    ),
    (
        "unknown_value",
        H,
        "What was the average price for bookings that came through the GDS channel?",
        "no_answer",
        [],
        "SELECT COUNT(*) FROM hotel_stays WHERE distribution_channel LIKE '%GDS%' OR market_segment LIKE '%GDS%'",
    ),
    (
        "unknown_value",
        H,
        "how many guests were assigned room type K",
        "no_answer",
        [],
        "SELECT COUNT(*) FROM hotel_stays WHERE assigned_room_type = 'K' OR reserved_room_type = 'K'",
    ),
    (
        "unknown_value",
        S,
        "What was Hurricane Andrew's peak wind?",
        "no_answer",
        [],
        "SELECT COUNT(*) FROM atlantic_storms WHERE storm_name = 'Andrew'",
    ),
    (
        "unknown_value",
        S,
        "Lowest pressure recorded for Hurricane Patricia?",
        "no_answer",
        [],
        "SELECT COUNT(*) FROM atlantic_storms WHERE storm_name LIKE 'Patri%'",
    ),
    (
        "unknown_value",
        S,
        "How many observations were category 6?",
        "no_answer",
        [],
        "SELECT COUNT(*) FROM atlantic_storms WHERE category LIKE '%6%'",
    ),
    # ---------------- unanswerable (measure/dimension the table lacks) ----------------
    (
        "unanswerable",
        H,
        "How many bookings were cancelled in 2017?",
        "no_answer",
        [],
        "SELECT name FROM pragma_table_info('hotel_stays') WHERE name LIKE '%cancel%' OR name LIKE '%status%'",
    ),
    (
        "unanswerable",
        H,
        "What was the average guest review score for July 2017 arrivals?",
        "no_answer",
        [],
        "SELECT name FROM pragma_table_info('hotel_stays') WHERE name LIKE '%review%' OR name LIKE '%score%' OR name LIKE '%rating%' OR name LIKE '%satisf%'",
    ),
    (
        "unanswerable",
        S,
        "How many deaths did Hurricane Maria cause in 2017?",
        "no_answer",
        [],
        "SELECT name FROM pragma_table_info('atlantic_storms') WHERE name LIKE '%death%' OR name LIKE '%fatal%' OR name LIKE '%casualt%'",
    ),
    (
        "unanswerable",
        S,
        "Total damage in US dollars from the 2017 hurricanes?",
        "no_answer",
        [],
        "SELECT name FROM pragma_table_info('atlantic_storms') WHERE name LIKE '%damage%' OR name LIKE '%cost%' OR name LIKE '%usd%' OR name LIKE '%loss%'",
    ),
    (
        "unanswerable",
        S,
        "How much rain fell during Harvey in 2017?",
        "no_answer",
        [],
        "SELECT name FROM pragma_table_info('atlantic_storms') WHERE name LIKE '%rain%' OR name LIKE '%precip%'",
    ),
    # ---------------- ambiguous (two readings fit equally) ----------------
    (
        "ambiguous",
        H,
        "How many direct bookings did we get in 2017?",
        "uncertain",
        [],
        "SELECT 'market_segment=direct', COUNT(*) FROM hotel_stays WHERE market_segment = 'direct' AND arrival_date BETWEEN '2017-01-01' AND '2017-12-31' UNION ALL SELECT 'distribution_channel=direct', COUNT(*) FROM hotel_stays WHERE distribution_channel = 'direct' AND arrival_date BETWEEN '2017-01-01' AND '2017-12-31'",
    ),
    (
        "ambiguous",
        H,
        "What was the average waiting time in days for guests arriving in May 2017?",
        "uncertain",
        [],
        "SELECT AVG(lead_time_days), AVG(days_in_waiting_list) FROM hotel_stays WHERE arrival_date BETWEEN '2017-05-01' AND '2017-05-31'",
    ),
    (
        "ambiguous",
        H,
        "How many bookings were in room type D in July 2017?",
        "uncertain",
        [],
        "SELECT SUM(reserved_room_type = 'D'), SUM(assigned_room_type = 'D') FROM hotel_stays WHERE arrival_date BETWEEN '2017-07-01' AND '2017-07-31'",
    ),
    (
        "ambiguous",
        S,
        "What was the average storm diameter in 2018?",
        "uncertain",
        [],
        "SELECT AVG(tropical_storm_wind_diameter_nmi), AVG(hurricane_wind_diameter_nmi) FROM atlantic_storms WHERE obs_date BETWEEN '2018-01-01' AND '2018-12-31'",
    ),
    (
        "ambiguous",
        S,
        "How wide did Irma's wind field get at its largest?",
        "uncertain",
        [],
        "SELECT MAX(tropical_storm_wind_diameter_nmi), MAX(hurricane_wind_diameter_nmi) FROM atlantic_storms WHERE storm_name = 'Irma'",
    ),
]

WHY = {
    "unknown_value": "value absent from the table (count 0)",
    "unanswerable": "no such column in the table",
    "ambiguous": "two columns fit the question equally; both readings shown",
}


def records(db):
    out = []
    for n, (kind, table, question, status, facts, sql) in enumerate(QUESTIONS, 1):
        q = {"id": f"s41t-{n:03d}", "status": status, "facts": facts}
        result = run(db, sql)
        check_facts(q, result)
        if kind == "unknown_value":
            assert result == [[0]], (q["id"], result)
        if kind == "unanswerable":
            assert result == [], (q["id"], result)
        note = f"SQL: {sql}; result: {json.dumps(result)}"
        if kind in WHY:
            note += f" ({WHY[kind]})"
        out.append(
            {
                "id": q["id"],
                "kind": kind,
                "question": question,
                "expected_status": status,
                "expected_documents": [f"table:{table}"],
                "forbidden_documents": [],
                "expected_facts": facts,
                "notes": note,
            }
        )
    return out


def main():
    db = load_db()
    recs = records(db)
    with open(os.path.join(HERE, "questions.jsonl"), "w", encoding="utf-8") as fh:
        for r in recs:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    kinds = {}
    for r in recs:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    print(f"questions.jsonl: {len(recs)} questions", kinds)


if __name__ == "__main__":
    main()
