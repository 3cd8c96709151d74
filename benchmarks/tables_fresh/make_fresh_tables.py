"""Generate two fictional plant tables for a held-out table-QA set.

  stores_issues.csv     spare-parts issues from the maintenance stores (one row per issue)
  shift_production.csv  shift production log (one row per shift, site and line run)

Deterministic (fixed seed, no network): re-running rewrites identical files.
    python3 make_fresh_tables.py
"""

import csv
import datetime as dt
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
START = dt.date(2025, 1, 1)
END = dt.date(2026, 11, 30)

# part_number, description, category, base unit cost (USD), quantity range per issue
PARTS = [
    ("BR-6205", "deep groove ball bearing 6205", "Bearings", 12.40, (1, 6)),
    ("BR-6205-ZZ", "ball bearing 6205 shielded", "Bearings", 14.90, (1, 6)),
    ("BR-22216", "spherical roller bearing 22216", "Bearings", 186.00, (1, 2)),
    ("SL-MS45", "mechanical seal 45 mm", "Seals", 312.00, (1, 2)),
    ("SL-OR120", "O-ring assortment kit", "Seals", 38.50, (1, 3)),
    ("VB-SPA1250", "V-belt SPA 1250", "Belts", 21.80, (1, 4)),
    ("VB-XPB2000", "cogged V-belt XPB 2000", "Belts", 44.60, (1, 4)),
    ("FL-HY10", "hydraulic filter element 10 micron", "Filters", 67.20, (1, 3)),
    ("FL-AIR450", "compressor intake air filter", "Filters", 92.00, (1, 2)),
    ("EL-CB16", "circuit breaker 16 A", "Electrical", 54.00, (1, 3)),
    ("EL-PRX18", "inductive proximity sensor M18", "Electrical", 88.50, (1, 2)),
    ("FS-M12KIT", "M12 bolt and nut kit", "Fasteners", 19.90, (1, 5)),
    ("LB-EP2", "EP2 grease cartridge 400 g", "Lubricants", 8.75, (2, 24)),
    ("LB-ISO68", "hydraulic oil ISO VG 68, 20 L", "Lubricants", 96.00, (1, 3)),
]
PART_WEIGHTS = [9, 6, 3, 3, 4, 6, 4, 6, 3, 4, 3, 5, 9, 4]

# site -> cost centres used there (CC-410 and CC-4100 are look-alikes at one site)
SITE_CC = {
    "Hillcrest": ["CC-410", "CC-4100"],
    "Riverside": ["CC-420"],
    "Oakmont": ["CC-430"],
}
SITE_WEIGHTS = [5, 3, 2]

# site -> line -> products (Line 1 exists at both sites: within = "site")
LINES = {
    "Hillcrest": {
        "Line 1": ["PX-200", "PX-2000"],
        "Line 2": ["PX-350"],
        "Line 10": ["PX-2000", "CV-12"],
    },
    "Riverside": {"Line 1": ["PX-200", "CV-12"], "Line 3": ["PX-350"]},
}
RATE = {"PX-200": 2.1, "PX-2000": 1.4, "PX-350": 1.8, "CV-12": 3.0}  # units per run minute
SCRAP = {"Line 1": 0.020, "Line 2": 0.012, "Line 10": 0.034, "Line 3": 0.017}
SHIFTS = [("Early", 450), ("Late", 450), ("Night", 420)]


def dates_spread(rng, n):
    """n dates over START..END, at least a few in every month."""
    months = []
    d = START
    while d <= END:
        months.append((d.year, d.month))
        d = (d.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    out = []
    for i in range(n):
        y, m = months[i % len(months)] if i < 4 * len(months) else rng.choice(months)
        last = (
            (dt.date(y, m, 28) + dt.timedelta(days=4)).replace(day=1) - dt.timedelta(days=1)
        ).day
        out.append(dt.date(y, m, rng.randint(1, last)))
    return sorted(out)


def stores_issues(rng, n=240):
    rows = []
    for seq, day in enumerate(dates_spread(rng, n), start=1):
        pn, desc, cat, cost, (lo, hi) = rng.choices(PARTS, PART_WEIGHTS)[0]
        site = rng.choices(list(SITE_CC), SITE_WEIGHTS)[0]
        cc = rng.choice(SITE_CC[site])
        if day.year == 2026:
            cost *= 1.04  # supplier price rise in January 2026
        cost = round(cost * rng.uniform(0.98, 1.02), 2)
        rows.append(
            {
                "issue_id": f"SI-{day.year % 100:02d}-{seq:05d}",
                "issue_date": day.isoformat(),
                "site": site,
                "part_number": pn,
                "part_description": desc,
                "part_category": cat,
                "quantity": rng.randint(lo, hi),
                "unit_cost": f"{cost:.2f}",
                "cost_centre": cc,
            }
        )
    return rows


def shift_production(rng, n=276):
    runs = [(s, line) for s in LINES for line in LINES[s]]
    rows = []
    for day in dates_spread(rng, n):
        site, line = rng.choice(runs)
        shift, planned = rng.choice(SHIFTS)
        product = rng.choice(LINES[site][line])
        down = rng.choice([0, 0, 10, 15, 20, 25, 30, 45, 60, 90, 120])
        run = planned - 30 - down  # 30 min planned breaks are inside planned minutes
        units = int(run * RATE[product] * rng.uniform(0.85, 1.02))
        scrap = max(0, int(round(units * SCRAP[line] * rng.uniform(0.4, 1.8))))
        rows.append(
            {
                "prod_date": day.isoformat(),
                "shift": shift,
                "site": site,
                "line": line,
                "product": product,
                "units_produced": units,
                "scrap_units": scrap,
                "planned_minutes": planned,
                "run_minutes": run,
            }
        )
    return rows


def write(name, rows):
    with open(os.path.join(HERE, name), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    write("stores_issues.csv", stores_issues(random.Random(20251205)))
    write("shift_production.csv", shift_production(random.Random(20261205)))
