#!/usr/bin/env python3
"""Generate the held-out evaluation tables (fictional plant-maintenance data).

Deterministic: a fixed seed per table, no dependency beyond the standard library.
Run from anywhere:  python3 make_tables.py   (writes the four CSV files beside it)

Tables
  work_orders          closed maintenance work orders, one row per order (date column)
  condition_monitoring monthly condition-monitoring summary per rotating asset (month)
  purchase_orders      purchase orders for maintenance materials, per supplier and part (date)
  line_energy          monthly energy, water and output per production line (month)
"""

import calendar
import csv
import datetime as dt
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent


def months(start, end):
    """'YYYY-MM' strings from start to end inclusive (both (year, month))."""
    y, m = start
    out = []
    while (y, m) <= end:
        out.append(f"{y:04d}-{m:02d}")
        m += 1
        if m == 13:
            y, m = y + 1, 1
    return out


def write(name, header, rows):
    with open(OUT / f"{name}.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    print(f"{name}: {len(rows)} rows")


# --------------------------------------------------------------------------- sites
# "Riverside" and "Riverside North" are two different sites; "Oakbank" is a small
# pilot site that appears rarely.


# --------------------------------------------------------------------------- 1
def work_orders():
    rng = random.Random(20261101)
    assets = [  # asset_id, asset_type, site
        ("P-101", "pump", "Riverside"),
        ("P-1010", "pump", "Riverside North"),
        ("P-102", "pump", "Riverside"),
        ("P-210", "pump", "Hillcrest"),
        ("C-12", "compressor", "Riverside"),
        ("C-120", "compressor", "Hillcrest"),
        ("C-14", "compressor", "Riverside North"),
        ("CV-3", "conveyor", "Riverside"),
        ("CV-30", "conveyor", "Riverside North"),
        ("CV-31", "conveyor", "Hillcrest"),
        ("B-7", "boiler", "Hillcrest"),
        ("B-8", "boiler", "Riverside"),
        ("M-41", "mixer", "Riverside North"),
        ("M-410", "mixer", "Hillcrest"),
        ("F-5", "cooling fan", "Riverside"),
        ("F-50", "cooling fan", "Riverside North"),
        ("HX-2", "heat exchanger", "Hillcrest"),
        ("PK-9", "packaging machine", "Riverside North"),
        ("P-301", "pump", "Oakbank"),
        ("C-31", "compressor", "Oakbank"),
    ]
    work_types = [
        ("preventive", 0.42),
        ("corrective", 0.33),
        ("inspection", 0.15),
        ("emergency", 0.07),
        ("modification", 0.025),
        ("warranty", 0.005),
    ]
    crafts = [
        "mechanical",
        "electrical",
        "instrumentation",
        "mechanical",
        "mechanical",
        "electrical",
        "contractor",
    ]
    start, end = dt.date(2025, 3, 1), dt.date(2026, 11, 30)
    days = (end - start).days
    rows = []
    n = 0
    for _ in range(1400):
        asset, atype, site = rng.choice(assets)
        if site == "Oakbank" and rng.random() < 0.7:  # small pilot site: few orders
            continue
        wt = rng.choices([w for w, _ in work_types], [p for _, p in work_types])[0]
        opened = start + dt.timedelta(days=rng.randrange(days + 1))
        if site == "Oakbank" and opened < dt.date(2025, 10, 1):  # pilot site opened Oct 2025
            continue
        if wt == "emergency":
            prio = "P1"
        elif wt == "corrective":
            prio = rng.choices(["P1", "P2", "P3"], [0.15, 0.5, 0.35])[0]
        elif wt in ("preventive", "inspection"):
            prio = rng.choices(["P3", "P4"], [0.6, 0.4])[0]
        else:
            prio = rng.choice(["P2", "P3", "P4"])
        close_after = {
            "P1": rng.randint(0, 3),
            "P2": rng.randint(1, 10),
            "P3": rng.randint(2, 25),
            "P4": rng.randint(5, 45),
        }[prio]
        closed = opened + dt.timedelta(days=close_after)
        if closed > end:  # the log holds orders closed by 30 Nov 2026
            continue
        labour = round(
            rng.uniform(0.5, 6)
            * (3 if wt in ("emergency", "modification") else 1)
            * (1.6 if atype in ("boiler", "packaging machine") else 1),
            1,
        )
        if wt in ("emergency", "corrective"):
            downtime = round(
                labour * rng.uniform(0.6, 2.5) + (8 if wt == "emergency" else 0) * rng.random(), 1
            )
        elif wt == "modification":
            downtime = round(rng.uniform(4, 48), 1)
        else:
            downtime = round(rng.choice([0, 0, 0, labour * rng.uniform(0.2, 1.0)]), 1)
        craft = (
            "contractor"
            if wt in ("modification", "warranty") and rng.random() < 0.7
            else rng.choice(crafts)
        )
        rate = 95.0 if craft == "contractor" else 62.0
        labour_cost = round(labour * rate, 2)
        parts = 0.0 if wt == "inspection" else round(rng.lognormvariate(5.3, 1.0), 2)
        if wt == "warranty":
            parts = 0.0
        n += 1
        rows.append(
            [
                None,
                asset,
                atype,
                site,
                wt,
                prio,
                craft,
                opened.isoformat(),
                closed.isoformat(),
                close_after,
                labour,
                downtime,
                labour_cost,
                parts,
            ]
        )
    rows.sort(key=lambda r: (r[7], r[1]))
    for i, r in enumerate(rows, 1):
        r[0] = f"WO-{25000 + i}"
    write(
        "work_orders",
        [
            "wo_number",
            "asset_id",
            "asset_type",
            "site",
            "work_type",
            "priority",
            "craft",
            "opened_date",
            "closed_date",
            "days_to_close",
            "labour_hours",
            "downtime_hours",
            "labour_cost",
            "parts_cost",
        ],
        rows,
    )


# --------------------------------------------------------------------------- 2
def condition_monitoring():
    rng = random.Random(7741)
    # asset_tag, asset_class, site, line, first month monitored
    assets = [
        ("P-101", "centrifugal pump", "Riverside", "Line 1", "2025-01"),
        ("P-102", "centrifugal pump", "Riverside", "Line 1", "2025-01"),
        ("P-1010", "centrifugal pump", "Riverside North", "Line 10", "2025-01"),
        ("P-210", "centrifugal pump", "Hillcrest", "Line 2", "2025-01"),
        ("P-211", "centrifugal pump", "Hillcrest", "Line 2", "2025-06"),
        ("C-12", "screw compressor", "Riverside", "Utilities", "2025-01"),
        ("C-120", "screw compressor", "Hillcrest", "Utilities", "2025-01"),
        ("C-14", "screw compressor", "Riverside North", "Utilities", "2025-01"),
        ("GB-4", "gearbox", "Riverside", "Line 1", "2025-01"),
        ("GB-40", "gearbox", "Riverside North", "Line 10", "2025-01"),
        ("GB-41", "gearbox", "Riverside North", "Line 11", "2025-03"),
        ("GB-7", "gearbox", "Hillcrest", "Line 2", "2025-01"),
        ("F-5", "extraction fan", "Riverside", "Line 1", "2025-01"),
        ("F-50", "extraction fan", "Riverside North", "Line 10", "2025-01"),
        ("F-51", "extraction fan", "Riverside North", "Line 11", "2025-01"),
        ("F-8", "extraction fan", "Hillcrest", "Line 3", "2025-01"),
        ("M-41", "agitator motor", "Riverside North", "Line 11", "2025-01"),
        ("M-410", "agitator motor", "Hillcrest", "Line 3", "2025-01"),
        ("M-42", "agitator motor", "Riverside North", "Line 10", "2025-09"),
        ("CV-3", "conveyor drive", "Riverside", "Line 1", "2025-01"),
        ("CV-30", "conveyor drive", "Riverside North", "Line 11", "2025-01"),
        ("CV-31", "conveyor drive", "Hillcrest", "Line 3", "2025-01"),
        ("VP-1", "vacuum pump", "Hillcrest", "Line 2", "2025-01"),
        ("VP-11", "vacuum pump", "Riverside", "Line 1", "2026-02"),
        ("P-301", "centrifugal pump", "Oakbank", "Pilot line", "2026-04"),
    ]
    base = {
        "centrifugal pump": (2.4, 58),
        "screw compressor": (3.1, 74),
        "gearbox": (3.6, 66),
        "extraction fan": (2.0, 47),
        "agitator motor": (1.7, 61),
        "conveyor drive": (2.8, 52),
        "vacuum pump": (2.6, 69),
    }
    # a few assets degrade before a repair, to make trends visible
    degrade = {
        "GB-40": ("2026-02", "2026-08"),
        "P-1010": ("2025-07", "2025-11"),
        "C-120": ("2026-06", "2026-11"),
        "F-51": ("2025-10", "2026-01"),
    }
    rows = []
    for mo in months((2025, 1), (2026, 11)):
        y, m = map(int, mo.split("-"))
        cal_h = calendar.monthrange(y, m)[1] * 24
        summer = 1.0 if m in (6, 7, 8) else 0.0
        for tag, cls, site, line, first in assets:
            if mo < first:
                continue
            v0, t0 = base[cls]
            factor = 1.0
            if tag in degrade and degrade[tag][0] <= mo <= degrade[tag][1]:
                a, b = degrade[tag]
                span = max(1, len(months(tuple(map(int, a.split("-"))), (y, m))))
                factor = 1.0 + 0.35 * span
            avg_v = round(v0 * factor * rng.uniform(0.85, 1.15), 2)
            peak_v = round(avg_v * rng.uniform(1.8, 3.2), 2)
            avg_t = round(t0 + 6 * summer + (factor - 1) * 8 + rng.uniform(-3, 3), 1)
            max_t = round(avg_t + rng.uniform(6, 18), 1)
            planned = (
                cal_h - rng.choice([0, 24, 48, 72]) - (168 if m == 8 and site != "Oakbank" else 0)
            )
            if site == "Oakbank" or line == "Pilot line":
                planned = rng.choice([160, 176, 184])  # pilot runs day shift only
            stop = rng.uniform(0.0, 0.08) + (0.12 if factor > 1.5 else 0)
            run = round(planned * (1 - stop), 1)
            starts = rng.randint(2, 30) if cls not in ("extraction fan",) else rng.randint(1, 6)
            alarms = max(0, int(rng.gauss(1 + 4 * (factor - 1), 1.2)))
            rows.append(
                [
                    mo,
                    tag,
                    cls,
                    site,
                    line,
                    avg_v,
                    peak_v,
                    avg_t,
                    max_t,
                    float(planned),
                    run,
                    starts,
                    alarms,
                ]
            )
    write(
        "condition_monitoring",
        [
            "month",
            "asset_tag",
            "asset_class",
            "site",
            "line",
            "avg_vibration",
            "peak_vibration",
            "avg_bearing_temp",
            "max_bearing_temp",
            "planned_hours",
            "run_hours",
            "starts",
            "alarms",
        ],
        rows,
    )


# --------------------------------------------------------------------------- 3
def purchase_orders():
    rng = random.Random(31337)
    # supplier, country, base quoted lead days, reliability (share of late deliveries)
    suppliers = [
        ("Norden Bearings", "Germany", 21, 0.15),
        ("Norden Bearings Service", "Netherlands", 10, 0.25),
        ("Apex Seals", "USA", 14, 0.10),
        ("Apex Sealing Solutions", "USA", 28, 0.35),
        ("Kestrel Electric", "USA", 7, 0.20),
        ("Brightline Instruments", "UK", 35, 0.30),
        ("Tanaka Drives", "Japan", 56, 0.20),
        ("Ferro Castings", "Poland", 42, 0.45),
        ("Lindqvist Filters", "Sweden", 12, 0.08),
        ("QuickFix Industrial", "USA", 3, 0.05),  # rare: emergency local supplier
    ]
    # part_number, description, category, list price, eligible suppliers
    parts = [
        ("BRG-6205", "deep-groove ball bearing 6205", "bearings", 14.5, [0, 1, 9]),
        ("BRG-62052", "sealed ball bearing 6205-2RS", "bearings", 18.9, [0, 1]),
        ("BRG-22220", "spherical roller bearing 22220", "bearings", 310.0, [0, 1]),
        ("SL-140", "mechanical seal 40 mm", "seals", 420.0, [2, 3]),
        ("SL-1400", "cartridge seal 40 mm", "seals", 1180.0, [2, 3]),
        ("GK-88", "flange gasket set DN80", "seals", 36.0, [2, 3, 9]),
        ("MTR-7K5", "motor 7.5 kW IE3", "electrical", 980.0, [4, 6]),
        ("VFD-11", "variable-frequency drive 11 kW", "electrical", 1650.0, [4, 6]),
        ("CT-20", "contactor 20 A", "electrical", 64.0, [4, 9]),
        ("TX-PT100", "PT100 temperature sensor", "instrumentation", 88.0, [5, 4]),
        ("TX-PT1000", "PT1000 temperature sensor", "instrumentation", 95.0, [5]),
        ("VS-ACC", "vibration accelerometer", "instrumentation", 265.0, [5]),
        ("IMP-210", "pump impeller for P-210", "castings", 2350.0, [7]),
        ("HSG-12", "compressor valve housing", "castings", 3900.0, [7]),
        ("FLT-A4", "air intake filter element", "filters", 42.0, [8, 9]),
        ("FLT-O2", "oil filter cartridge", "filters", 27.5, [8]),
        ("BLT-XPA", "V-belt XPA 1250", "power transmission", 21.0, [0, 6, 9]),
        ("CPL-90", "jaw coupling 90 mm", "power transmission", 145.0, [6, 0]),
    ]
    sites = ["Riverside", "Riverside North", "Hillcrest", "Oakbank"]
    site_w = [0.36, 0.30, 0.30, 0.04]
    start, end = dt.date(2024, 12, 1), dt.date(2026, 11, 30)
    days = (end - start).days
    rows = []
    for _ in range(900):
        pn, desc, cat, price, elig = rng.choice(parts)
        si = rng.choice(elig)
        if si == 9 and rng.random() < 0.9:
            continue
        sup, country, lead, late_p = suppliers[si]
        d = start + dt.timedelta(days=rng.randrange(days + 1))
        months_in = (d.year - 2024) * 12 + d.month - 12
        inflation = 1 + 0.004 * months_in  # prices creep up over time
        unit = round(
            price
            * inflation
            * rng.uniform(0.92, 1.08)
            * (1.35 if si == 9 else 1.0)
            * (0.9 if si in (1, 3) else 1.0),
            2,
        )
        big = price < 100
        qty = rng.choice([10, 20, 25, 50, 100]) if big else rng.choice([1, 1, 2, 2, 3, 4, 6])
        quoted = max(1, lead + rng.choice([-3, 0, 0, 0, 7]))
        if rng.random() < late_p:
            actual = quoted + rng.randint(2, 30)
        else:
            actual = quoted - rng.randint(0, min(3, quoted - 1))
        if d + dt.timedelta(days=actual) > end:  # only delivered orders are listed
            continue
        delivered = d + dt.timedelta(days=actual)
        freight = round(
            rng.uniform(15, 60)
            + (0.03 * unit * qty if country in ("Japan", "Poland") else 0.01 * unit * qty),
            2,
        )
        site = rng.choices(sites, site_w)[0]
        rows.append(
            [
                None,
                d.isoformat(),
                delivered.isoformat(),
                sup,
                country,
                pn,
                desc,
                cat,
                site,
                qty,
                unit,
                freight,
                quoted,
                actual,
            ]
        )
    rows.sort(key=lambda r: (r[1], r[5]))
    for i, r in enumerate(rows, 1):
        r[0] = f"PO-{4500 + i}"
    write(
        "purchase_orders",
        [
            "po_number",
            "order_date",
            "delivery_date",
            "supplier",
            "supplier_country",
            "part_number",
            "part_description",
            "category",
            "ship_to_site",
            "quantity",
            "unit_price",
            "freight_cost",
            "quoted_lead_days",
            "actual_lead_days",
        ],
        rows,
    )


# --------------------------------------------------------------------------- 4
def line_energy():
    rng = random.Random(424242)
    # site, line, product family, base output t/month, base kWh per tonne, uses steam
    lines = [
        ("Riverside", "Line 1", "sauces", 1450, 118, True),
        ("Riverside", "Line 2", "sauces", 1200, 124, True),
        ("Riverside", "Packaging hall", "packaging", 0, 0, False),
        ("Riverside North", "Line 10", "dry mixes", 2100, 64, False),
        ("Riverside North", "Line 11", "dry mixes", 1800, 71, False),
        ("Riverside North", "Line 12", "beverages", 950, 143, True),
        ("Hillcrest", "Line 2", "beverages", 1650, 131, True),
        ("Hillcrest", "Line 3", "sauces", 1100, 127, True),
        ("Hillcrest", "Line 20", "dry mixes", 760, 82, False),
        ("Oakbank", "Pilot line", "beverages", 60, 260, True),
    ]
    tariff = {"Riverside": 0.142, "Riverside North": 0.142, "Hillcrest": 0.131, "Oakbank": 0.158}
    rows = []
    for mo in months((2025, 1), (2026, 11)):
        y, m = map(int, mo.split("-"))
        season = {12: 0.85, 1: 0.9, 2: 0.95, 6: 1.08, 7: 1.12, 8: 0.8}.get(m, 1.0)
        yr_eff = 0.96 if y == 2026 else 1.0  # efficiency project in 2026
        price = tariff  # per kWh, with a rise from 2026-04
        for site, line, fam, out, kpt, steam in lines:
            if site == "Oakbank" and mo < "2025-10":  # pilot line started Oct 2025
                continue
            # Hillcrest Line 20 mothballed Sept 2026; the packaging hall makes no tonnes
            if line == "Line 20" and mo >= "2026-09" or fam == "packaging":
                tonnes = 0.0
            else:
                tonnes = round(out * season * rng.uniform(0.88, 1.1), 1)
            if fam == "packaging":
                kwh = round(rng.uniform(62000, 74000) * (1.1 if m in (6, 7, 8) else 1.0))
            elif tonnes == 0:
                kwh = round(rng.uniform(3500, 6000))  # standby load
            else:
                kwh = round(
                    tonnes
                    * kpt
                    * yr_eff
                    * rng.uniform(0.93, 1.07)
                    * (1.06 if m in (6, 7, 8) else 1.0)
                    + rng.uniform(8000, 15000)
                )
            peak_kw = round(kwh / 720 * rng.uniform(1.6, 2.3), 1)
            steam_t = (
                round(tonnes * rng.uniform(0.32, 0.45) * (1.15 if m in (12, 1, 2) else 1.0), 1)
                if steam
                else 0.0
            )
            water = round(
                tonnes
                * (3.8 if fam == "beverages" else 1.9 if fam == "sauces" else 0.25)
                * rng.uniform(0.9, 1.12)
                + (0 if tonnes else rng.uniform(0, 40)),
                1,
            )
            rate = price[site] * (1.09 if mo >= "2026-04" else 1.0)
            cost = round(kwh * rate + peak_kw * 11.5 + steam_t * 38.0, 2)
            co2 = round(kwh * 0.000233 + steam_t * 0.19, 2)
            rows.append([mo, site, line, fam, tonnes, kwh, peak_kw, steam_t, water, cost, co2])
    write(
        "line_energy",
        [
            "month",
            "site",
            "line",
            "product_family",
            "output_tonnes",
            "electricity_kwh",
            "peak_demand_kw",
            "steam_tonnes",
            "water_m3",
            "energy_cost",
            "co2_tonnes",
        ],
        rows,
    )


if __name__ == "__main__":
    work_orders()
    condition_monitoring()
    purchase_orders()
    line_energy()
