"""Loading tables: typed rows, atomic replacement, and bad input that changes nothing,
on both stores (SQLite, and PostgreSQL on the session's throw-away server)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import psycopg
import pytest

from ragcore.errors import InvalidInputError, NotFoundError
from ragcore.storage.postgres import PostgresStore
from ragcore.storage.postgres.tables import PostgresTables
from ragcore.storage.store import Store
from ragcore.storage.tables import Tables

SCHEMA = """
description = "stock per region"
time_column = "month"
[columns]
region = "text"
qty = "integer"
usage = "real"
month = "month"
[dimensions.region]
synonyms = ["area"]
[measures.qty]
unit = "units"
[measures.cover]
expression = "qty / usage"
unit = "days"
aggregation = "min"
"""
GOOD_CSV = "region,qty,usage,month,note\nEast,10,2.5,2025-01,x\nWest,4,1,2025-02,y\n"


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "data")
    yield store
    store.close()


@pytest.fixture
def files(tmp_path):
    def write(name: str, text: str):
        path = tmp_path / name
        path.write_text(text, "utf-8")
        return path

    write("stock.toml", SCHEMA)
    return write


def _rows(store: Store, table: str = "stock") -> list[tuple]:
    return store.reader().execute(f"SELECT rowid, * FROM data_{table} ORDER BY rowid").fetchall()


@dataclass
class Side:
    """One store's tables, and what its database holds, read around them."""

    tables: Tables | PostgresTables
    rows: Callable[[str], list[tuple]]
    """(row id, declared columns...) of ``data_<table>``, in row id order."""
    names: Callable[[], set[str]]
    """Every table name in the database."""


# The postgres side starts a server (once per session): "process", out of make test-fast.
@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.process)])
def side(request, tmp_path) -> Iterator[Side]:
    if request.param == "sqlite":
        store = Store(tmp_path / "data")
        names = "SELECT name FROM sqlite_master WHERE type = 'table'"
        yield Side(
            Tables(store),
            lambda table="stock": _rows(store, table),
            lambda: {r[0] for r in store.reader().execute(names)},
        )
        store.close()
        return
    url = request.getfixturevalue("postgres_url")
    postgres = PostgresStore(url, dimension=4)

    def pg(sql: str) -> list[tuple]:
        with psycopg.connect(url) as conn:
            return conn.execute(sql.encode()).fetchall()

    yield Side(
        PostgresTables(postgres),
        lambda table="stock": pg(f"SELECT * FROM data_{table} ORDER BY row_id"),
        lambda: {r[0] for r in pg("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")},
    )
    postgres.close()


def test_csv_rows_load_typed_and_are_registered(side, files, tmp_path):
    seen = []
    info = side.tables.ingest(
        files("stock.csv", GOOD_CSV),
        table="stock",
        schema=tmp_path / "stock.toml",
        progress=seen.append,
    )
    assert (info.name, info.source, info.row_count) == ("stock", "stock.csv", 2)
    assert len(info.sha256) == 64 and seen == [2]
    assert side.rows("stock") == [
        (1, "East", 10, 2.5, "2025-01"),
        (2, "West", 4, 1.0, "2025-02"),
    ]  # 'note' is not declared: not loaded
    listed = side.tables.all()
    assert [(t.name, t.row_count, t.schema.time_column) for t in listed] == [("stock", 2, "month")]
    assert side.tables.get("stock").schema_text == SCHEMA
    assert listed == [info]


def test_sqlite_column_types(store, files, tmp_path):
    Tables(store).ingest(
        files("stock.csv", GOOD_CSV), table="stock", schema=tmp_path / "stock.toml"
    )
    types = [r[2] for r in store.reader().execute("PRAGMA table_info(data_stock)")]
    assert types == ["TEXT", "INTEGER", "REAL", "TEXT"]


@pytest.mark.process
def test_postgres_column_types_batches_and_a_version_every_store_sees(
    postgres_url, files, tmp_path
):
    lines = [f"R{n % 7},{n},{n / 4},2025-{n % 12 + 1:02d}" for n in range(2500)]
    files("big.csv", "region,qty,usage,month\n" + "\n".join(lines) + "\n")
    one, two = (PostgresStore(postgres_url, dimension=4) for _ in range(2))
    try:
        before = PostgresTables(two).version()
        seen: list[int] = []
        info = PostgresTables(one).ingest(
            tmp_path / "big.csv",
            table="stock",
            schema=tmp_path / "stock.toml",
            progress=seen.append,
        )
        assert info.row_count == 2500 and seen == [1000, 2000, 2500]
        assert PostgresTables(two).version() == before + 1  # another server sees the load
        assert PostgresTables(two).all() == [info]
        with psycopg.connect(postgres_url) as conn:
            types = conn.execute(
                "SELECT column_name, data_type, collation_name FROM information_schema.columns "
                "WHERE table_name = 'data_stock' ORDER BY ordinal_position"
            ).fetchall()
            last = conn.execute("SELECT * FROM data_stock WHERE row_id = 2500").fetchone()
        assert types == [
            ("row_id", "bigint", None),
            ("region", "text", "C"),
            ("qty", "bigint", None),
            ("usage", "double precision", None),
            ("month", "text", "C"),
        ]
        assert last == (2500, "R0", 2499, 2499 / 4, "2025-04")
        files(
            "rowid.toml", SCHEMA.replace('qty = "integer"', 'qty = "integer"\nrow_id = "integer"')
        )
        with pytest.raises(InvalidInputError, match="column 'row_id' is the row id"):
            PostgresTables(one).ingest(
                tmp_path / "big.csv", table="stock", schema=tmp_path / "rowid.toml"
            )
        assert PostgresTables(two).version() == before + 1 and PostgresTables(two).all() == [info]
    finally:
        one.close()
        two.close()


def test_a_load_through_one_process_moves_the_version_the_others_read(files, tmp_path):
    """serve --processes N: each process has its own Store on the one data directory; a
    table loaded through one must be noticed by the others' catalogs."""
    one, two = Store(tmp_path / "data"), Store(tmp_path / "data")
    try:
        before = Tables(two).version()
        files("stock.csv", GOOD_CSV)
        Tables(one).ingest(tmp_path / "stock.csv", table="stock", schema=tmp_path / "stock.toml")
        assert Tables(two).version() == before + 1
        with pytest.raises(InvalidInputError):
            Tables(one).ingest(tmp_path / "stock.toml", table="stock", schema=tmp_path / "x")
        assert Tables(two).version() == before + 1  # a refused load moves nothing
        assert [t.name for t in Tables(two).all()] == ["stock"]
    finally:
        one.close()
        two.close()


def test_jsonl_rows_load_and_the_table_name_comes_from_the_caller(side, files, tmp_path):
    lines = [
        {"region": "East", "qty": 3, "usage": 1.5, "month": "2025-03"},
        {"region": "North", "qty": "7", "usage": "2", "month": "2025-04"},
    ]
    path = files("rows.jsonl", "\n".join(json.dumps(line) for line in lines) + "\n")
    info = side.tables.ingest(path, table="other", schema=tmp_path / "stock.toml")
    assert info.schema.name == "other" and info.schema.sql_name == "data_other"
    named = files("named.toml", 'name = "stock"\n' + SCHEMA)
    side.tables.ingest(
        path, table="other", schema=named, replace=True
    )  # a schema's own name yields
    assert side.tables.get("other").schema.name == "other"
    assert side.rows("other") == [
        (1, "East", 3, 1.5, "2025-03"),
        (2, "North", 7, 2.0, "2025-04"),
    ]


def test_reingesting_replaces_the_table_and_its_registry_row(side, files, tmp_path):
    tables = side.tables
    first = tables.ingest(files("a.csv", GOOD_CSV), table="stock", schema=tmp_path / "stock.toml")
    second = tables.ingest(
        files("b.csv", "region,qty,usage,month\nSouth,99,3,2025-05\n"),
        table="stock",
        schema=tmp_path / "stock.toml",
        replace=True,
    )
    assert side.rows("stock") == [(1, "South", 99, 3.0, "2025-05")]
    assert (second.source, second.row_count) == ("b.csv", 1) and second.sha256 != first.sha256
    assert [(t.source, t.row_count) for t in tables.all()] == [("b.csv", 1)]
    names = side.names()
    assert "data_stock" in names
    assert not any(n.startswith("tableload_") for n in names)  # no staging table left


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "region,qty,usage,month\nEast,10,2.5,2025-01\nWest,four,1,2025-02\n",
            r"bad.csv: row 2, column 'qty': 'four' is not a whole number",
        ),
        (
            "region,qty,usage,month\nEast,10,2.5,2025-01\n,4,1,2025-02\n",
            r"bad.csv: row 2, column 'region': missing value",
        ),
        (
            "region,qty,usage,month\nEast,10,2.5,2025-13\n",
            r"bad.csv: row 1, column 'month': '2025-13' is not a month",
        ),
        (
            "region,qty,usage,month\nEast,10,nan,2025-01\n",
            r"bad.csv: row 1, column 'usage': 'nan' is not a finite number",
        ),
        (
            "region,qty,month\nEast,10,2025-01\n",
            r"bad.csv: the schema declares column 'usage', which the file does not have",
        ),
        ("region,qty,usage,month\n", r"bad.csv: has no rows"),
    ],
)
def test_a_bad_file_is_an_error_naming_row_and_column_and_the_old_table_stays(
    side, files, tmp_path, text, message
):
    tables = side.tables
    before = tables.ingest(
        files("good.csv", GOOD_CSV), table="stock", schema=tmp_path / "stock.toml"
    )
    with pytest.raises(InvalidInputError, match=message):
        tables.ingest(
            files("bad.csv", text), table="stock", schema=tmp_path / "stock.toml", replace=True
        )
    assert side.rows("stock") == [
        (1, "East", 10, 2.5, "2025-01"),
        (2, "West", 4, 1.0, "2025-02"),
    ]
    assert tables.all() == [before]
    assert not any(n.startswith("tableload_") for n in side.names())


def test_a_bad_jsonl_value_names_its_line_and_column(side, files, tmp_path):
    path = files("bad.jsonl", '{"region": "East", "qty": 1.5, "usage": 1, "month": "2025-01"}\n')
    with pytest.raises(InvalidInputError, match=r"row 1, column 'qty': 1.5 is not a whole number"):
        side.tables.ingest(path, table="stock", schema=tmp_path / "stock.toml")
    assert side.tables.all() == []


def test_a_schema_naming_an_unknown_column_changes_nothing(side, files, tmp_path):
    tables = side.tables
    tables.ingest(files("good.csv", GOOD_CSV), table="stock", schema=tmp_path / "stock.toml")
    bad = files("bad.toml", SCHEMA.replace("[dimensions.region]", "[dimensions.area]"))
    with pytest.raises(InvalidInputError, match=r"bad.toml: key 'dimensions.area.column'"):
        tables.ingest(tmp_path / "good.csv", table="stock", schema=bad, replace=True)
    assert tables.get("stock").schema_text == SCHEMA and len(side.rows("stock")) == 2


def test_unusable_names_types_and_unknown_tables(side, files, tmp_path):
    tables = side.tables
    schema = tmp_path / "stock.toml"
    with pytest.raises(InvalidInputError, match="table name 'data; drop' is not usable"):
        tables.ingest(files("a.csv", GOOD_CSV), table="data; drop", schema=schema)
    with pytest.raises(InvalidInputError, match=r"unsupported table file type '.xlsx'"):
        tables.ingest(files("a.xlsx", GOOD_CSV), table="stock", schema=schema)
    with pytest.raises(InvalidInputError, match="cannot read the table file"):
        tables.ingest(tmp_path / "missing.csv", table="stock", schema=schema)
    with pytest.raises(NotFoundError, match="no table is named 'stock'; loaded tables: none"):
        tables.get("stock")


def _index_keys(store: Store, table: str = "stock") -> dict[str, list[str]]:
    conn = store.reader()
    names = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", (f"data_{table}",)
    ).fetchall()
    return {name: [r[2] for r in conn.execute(f'PRAGMA index_info("{name}")')] for (name,) in names}


def _plan(store: Store, sql: str, params: tuple) -> str:
    return " ".join(r[3] for r in store.reader().execute(f"EXPLAIN QUERY PLAN {sql}", params))


def test_a_time_window_is_read_from_a_covering_index_and_a_dimension_with_its_time(
    store, files, tmp_path
):
    tables = Tables(store)
    lines = [
        f"{region},{qty},1.5,20{year:02d}-{month:02d}"
        for year in range(10, 26)
        for month in range(1, 13)
        for qty, region in enumerate(("East", "West", "North", "South", "Central"))
    ]
    text = "region,qty,usage,month\n" + "\n".join(lines) + "\n"
    for name in ("a.csv", "b.csv"):  # a re-ingest builds the same indexes on the new table
        tables.ingest(
            files(name, text), table="stock", schema=tmp_path / "stock.toml", replace=True
        )
        assert _index_keys(store) == {
            "data_stock__region": ["region", "month"],
            "data_stock__month": ["month", "region", "qty", "usage"],
        }
    window = _plan(
        store,
        'SELECT "region", sum("qty") FROM data_stock WHERE "month" >= ? AND "month" <= ? '
        'GROUP BY "region"',
        ("2025-01", "2025-03"),
    )
    assert "COVERING INDEX data_stock__month" in window
    narrowed = _plan(
        store,
        'SELECT sum("qty") FROM data_stock WHERE "region" = ? COLLATE NOCASE AND "month" >= ?',
        ("east", "2025-06"),
    )
    assert "data_stock__region (region=? AND month>?)" in narrowed


def test_a_time_column_that_is_also_a_dimension_gets_one_index(store, files, tmp_path):
    schema = SCHEMA.replace(
        "[dimensions.region]", '[dimensions.month]\nsynonyms = ["period"]\n[dimensions.region]'
    )
    files("both.toml", schema)
    Tables(store).ingest(files("a.csv", GOOD_CSV), table="stock", schema=tmp_path / "both.toml")
    assert _index_keys(store) == {
        "data_stock__region": ["region", "month"],
        "data_stock__month": ["month", "region", "qty", "usage"],
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "region,qty,usage,month,qty\nEast,10,2.5,2025-01,99\n",
            r"bad.csv: the header names column 'qty' twice",
        ),
        (
            "region,qty,usage,month\nEast,10,2.5,2025-01\nWest,4,1,2025-02,x\n",
            r"bad.csv: row 2 has 5 fields, more than the header's 4",
        ),
        (
            "region,qty,usage,month\nEast,10,2.5\n",
            r"bad.csv: row 1 has 3 fields, fewer than the header's 4",
        ),
        ("region,,usage,month\nEast,10,2.5,2025-01\n", r"bad.csv: the header's column 2 has no"),
        (
            'region,qty,usage,month\nEast,10,2.5,2025-01\n"'
            + "x" * (8 * 1024 * 1024 + 1)
            + '",1,1,2025-02\n',
            r"bad.csv: row 2 has a field longer than 8,388,608 characters",
        ),
    ],
)
def test_a_file_that_is_not_exactly_a_table_is_refused_and_the_stored_one_stays(
    side, files, tmp_path, text, message
):
    tables = side.tables
    before = tables.ingest(
        files("good.csv", GOOD_CSV), table="stock", schema=tmp_path / "stock.toml"
    )
    with pytest.raises(InvalidInputError, match=message):
        tables.ingest(
            files("bad.csv", text), table="stock", schema=tmp_path / "stock.toml", replace=True
        )
    assert side.rows("stock") == [(1, "East", 10, 2.5, "2025-01"), (2, "West", 4, 1.0, "2025-02")]
    assert tables.all() == [before]
    assert not any(n.startswith("tableload_") for n in side.names())


def test_a_field_longer_than_pythons_csv_default_loads(side, files, tmp_path):
    long = "x" * 200_000  # Python's csv stops at 131,072 characters unless told otherwise
    text = f"region,qty,usage,month\n{long},10,2.5,2025-01\n\nWest,4,1,2025-02\n"
    info = side.tables.ingest(
        files("long.csv", text), table="stock", schema=tmp_path / "stock.toml"
    )
    assert info.row_count == 2  # the blank line is no row
    assert side.rows("stock")[0][1] == long


def test_a_taken_name_without_replace_is_refused_and_nothing_changes(side, files, tmp_path):
    tables = side.tables
    schema = tmp_path / "stock.toml"
    before = tables.ingest(files("good.csv", GOOD_CSV), table="stock", schema=schema)
    version = tables.version()
    other = files("other.csv", "region,qty,usage,month\nSouth,99,3,2025-05\n")
    with pytest.raises(InvalidInputError, match="a table named 'stock' is loaded already"):
        tables.ingest(other, table="stock", schema=schema)
    assert tables.all() == [before] and tables.version() == version
    assert len(side.rows("stock")) == 2
    replaced = tables.ingest(other, table="stock", schema=schema, replace=True)
    assert side.rows("stock") == [(1, "South", 99, 3.0, "2025-05")] and replaced.row_count == 1


def _index_rows(tables) -> tuple[list, list]:
    index = tables.value_index()
    values = sorted(
        (c, v) for t in {x.name for x in tables.all()} for c, v in index.column_values(t)
    )
    return values, sorted(index.shapes())


def test_a_load_keeps_each_dimensions_distinct_values_by_word_and_shape(side, files, tmp_path):
    tables = side.tables
    text = "region,qty,usage,month\nEast,1,1,2025-01\nEast,2,1,2025-02\nNorth-2,3,1,2025-02\n"
    tables.ingest(files("a.csv", text), table="stock", schema=tmp_path / "stock.toml")
    index = tables.value_index()
    assert _index_rows(tables) == (
        [("region", "East"), ("region", "North-2")],
        [("stock", "region", "A", "East", 1), ("stock", "region", "A-9", "North-2", 1)],
    )
    assert index.named({"east", "west"}) == [("stock", "region", "East")]
    assert index.named({"north-2"}) == [("stock", "region", "North-2")]
    assert index.near("stock", "region", "North-3")[0] == ("region", "North-2")
    # A replacing load replaces the index; a refused one leaves it as it was.
    other = files("b.csv", "region,qty,usage,month\nWest,1,1,2025-01\n")
    tables.ingest(other, table="stock", schema=tmp_path / "stock.toml", replace=True)
    before = _index_rows(tables)
    assert before == ([("region", "West")], [("stock", "region", "A", "West", 1)])
    bad = files("bad.csv", "region,qty,usage,month\nSouth,x,1,2025-01\n")
    with pytest.raises(InvalidInputError):
        tables.ingest(bad, table="stock", schema=tmp_path / "stock.toml", replace=True)
    with pytest.raises(InvalidInputError):
        tables.ingest(other, table="stock", schema=tmp_path / "stock.toml")
    assert _index_rows(tables) == before


NESTING_SCHEMA = """
description = "alarms"
[columns]
site = "text"
line = "text"
priority = "text"
asset = "text"
alarms = "integer"
[dimensions.site]
[dimensions.line]
description = "a production line within the site"
[dimensions.priority]
description = "the alarm's priority at the site"
[dimensions.asset]
description = "the asset, on one site"
[measures.alarms]
"""


def _nesting(rows: list[tuple[str, str, int]], child: str = "line") -> list[tuple[str, str, str]]:
    from ragcore.storage.table_values import nesting
    from ragcore.tabular import parse_schema

    schema = parse_schema(NESTING_SCHEMA, "test", default_name="t")
    return nesting(schema, {(child, "site"): rows})


def test_a_name_repeated_under_a_few_parents_is_nested_in_them():
    rows = [("L1", "A", 3), ("L2", "A", 2), ("L3", "B", 2), ("Utilities", "A", 2)]
    assert _nesting([*rows, ("Utilities", "B", 2)]) == [("t", "line", "site")]
    assert _nesting(rows) == []  # each line at one site: nothing to tell apart
    crossing = [(p, s, 2) for p in ("P1", "P2", "P3") for s in ("A", "B")]
    assert _nesting([*crossing, ("P4", "A", 2)], "priority") == []  # at every site
    # A value of one row is at one site by necessity: it is no evidence of nesting.
    ones = [("L1", "A", 1), ("L2", "A", 1), ("L3", "B", 1)]
    assert _nesting([*ones, ("Utilities", "A", 2), ("Utilities", "B", 2)]) == []


def test_nesting_needs_the_schema_to_describe_the_child_in_the_parent_s_words():
    from ragcore.storage.table_values import described_in
    from ragcore.tabular import parse_schema

    schema = parse_schema(NESTING_SCHEMA, "test", default_name="t")
    assert described_in(schema, "line", "site")
    assert described_in(schema, "asset", "site")
    assert not described_in(schema, "site", "line")  # the site's description says nothing
    rows = [("Acme", "A", 3), ("Borg", "B", 2), ("Cole", "B", 2), ("Acme", "B", 2)]
    assert _nesting(rows) != [] and _nesting(rows, "asset") != []
    plain = NESTING_SCHEMA.replace('description = "a production line within the site"', "")
    from ragcore.storage.table_values import nesting

    bare = parse_schema(plain, "test", default_name="t")
    assert nesting(bare, {("line", "site"): rows}) == []
