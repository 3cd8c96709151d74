#!/usr/bin/env python3
"""Write the two held-out tables of this folder (fictional figures, fixed seed).

fleet_service.csv   -- service events of a small vehicle fleet, 2025-01-01 .. 2026-11-30
calibration_log.csv -- calibrations of process instruments, 2025-01-01 .. 2026-11-30

python3 stdlib only; running it twice writes the same files.
"""

import csv
import datetime as dt
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
START = dt.date(2025, 1, 1)
END = dt.date(2026, 11, 30)
SEED = 4040


def fleet_rows(rng):
    # vehicle id -> (depot, vehicle type, starting odometer km, km per day)
    vehicles = {
        "VH-12": ("Depot North", "Van", 48210, 140),
        "VH-120": ("Depot North-East", "Tipper Truck", 112640, 95),
        "VH-31": ("Depot South", "Pickup", 67300, 120),
        "VH-47": ("Riverside Depot", "Refuse Truck", 158900, 70),
        "VH-58": ("Depot South", "Van", 23450, 160),
    }
    labour_rate = {  # GBP per labour hour charged by each depot's workshop
        "Depot North": 52.0,
        "Depot North-East": 55.0,
        "Depot South": 48.0,
        "Riverside Depot": 50.0,
    }
    heavy = {"Tipper Truck", "Refuse Truck"}
    services = [
        "Scheduled Service",
        "Tyre Change",
        "Brake Repair",
        "Breakdown Repair",
        "Annual Inspection",
    ]
    weights = [0.34, 0.2, 0.15, 0.21, 0.1]
    rows = []
    for vid, (depot, vtype, odo, per_day) in vehicles.items():
        day = START + dt.timedelta(days=rng.randint(0, 9))
        while day <= END:
            stype = rng.choices(services, weights)[0]
            f = 1.35 if vtype in heavy else 1.0
            if stype == "Scheduled Service":
                hours = rng.uniform(2, 4)
                parts = rng.uniform(120, 380)
                down = rng.uniform(4, 8)
            elif stype == "Tyre Change":
                hours = rng.uniform(0.5, 1.5)
                parts = rng.uniform(280, 900)
                down = rng.uniform(1, 3)
            elif stype == "Brake Repair":
                hours = rng.uniform(2, 5)
                parts = rng.uniform(180, 650)
                down = rng.uniform(4, 12)
            elif stype == "Breakdown Repair":
                hours = rng.uniform(3, 10)
                parts = rng.uniform(50, 2400)
                down = rng.uniform(8, 72)
            else:
                hours = rng.uniform(1, 2)
                parts = rng.uniform(0, 60)
                down = rng.uniform(2, 5)
            hours = round(hours * f * 4) / 4
            parts = round(parts * f, 2)
            down = round(down * f, 1)
            rows.append(
                {
                    "service_date": day.isoformat(),
                    "vehicle_id": vid,
                    "depot": depot,
                    "vehicle_type": vtype,
                    "service_type": stype,
                    "odometer_km": odo,
                    "labour_hours": hours,
                    "labour_cost": round(hours * labour_rate[depot], 2),
                    "parts_cost": parts,
                    "downtime_hours": down,
                }
            )
            gap = rng.randint(7, 19)
            day += dt.timedelta(days=gap)
            odo += int(gap * per_day * rng.uniform(0.7, 1.3))
    rows.sort(key=lambda r: (r["service_date"], r["vehicle_id"]))
    return rows


def calibration_rows(rng):
    # instrument tag -> (instrument type, plant area)
    instruments = {
        "TT-21": ("Temperature Transmitter", "Boiler House"),
        "TT-210": ("Temperature Transmitter", "Tank Farm"),
        "PT-104": ("Pressure Transmitter", "Boiler House"),
        "FT-330": ("Flow Meter", "Packing Hall"),
        "LT-415": ("Level Transmitter", "Tank Farm"),
    }
    providers = ["In-house", "Metrix Labs", "Calibra Services"]
    pweights = [0.5, 0.3, 0.2]
    drift = {"TT-21": 0.55, "TT-210": 0.8, "PT-104": 0.65, "FT-330": 1.0, "LT-415": 0.9}
    rows = []
    for tag, (itype, area) in instruments.items():
        day = START + dt.timedelta(days=rng.randint(0, 12))
        while day <= END:
            provider = rng.choices(providers, pweights)[0]
            found = round(abs(rng.gauss(0, drift[tag])), 2)
            if found <= 0.8:
                result = "Pass"
                left = found
            elif found <= 1.6:
                result = "Adjusted"
                left = round(rng.uniform(0.05, 0.4), 2)
            else:
                result = "Failed"
                left = round(rng.uniform(0.8, 1.6), 2)
            hours = round(rng.uniform(0.5, 2.5) * 4) / 4
            if result != "Pass":
                hours += 0.75
            if provider == "In-house":
                cost = round(hours * 45.0, 2)
            else:
                rate = 70.0 if provider == "Metrix Labs" else 82.0
                cost = round(95.0 + hours * rate, 2)
            rows.append(
                {
                    "cal_date": day.isoformat(),
                    "instrument_tag": tag,
                    "instrument_type": itype,
                    "area": area,
                    "provider": provider,
                    "result": result,
                    "as_found_error_pct": found,
                    "as_left_error_pct": left,
                    "duration_hours": hours,
                    "calibration_cost": cost,
                }
            )
            day += dt.timedelta(days=rng.randint(10, 24))
    rows.sort(key=lambda r: (r["cal_date"], r["instrument_tag"]))
    return rows


def write(name, rows):
    path = os.path.join(HERE, name + ".csv")
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print(f"{path}: {len(rows)} rows")


def main():
    rng = random.Random(SEED)
    write("fleet_service", fleet_rows(rng))
    write("calibration_log", calibration_rows(rng))


if __name__ == "__main__":
    main()
