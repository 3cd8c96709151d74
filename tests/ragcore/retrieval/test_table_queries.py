"""Table queries: compiled from the schema only, bound values, read-only and bounded;
the same rows and row ids on SQLite and on PostgreSQL (the session's throw-away server)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import date

import pytest

from ragcore.errors import InvalidQueryError, NotFoundError, StoreError
from ragcore.retrieval.tables import (
    POSTGRES,
    AnyTableReader,
    PostgresTableReader,
    TableReader,
    authorizer,
    compile_query,
)
from ragcore.storage.postgres import PostgresStore
from ragcore.storage.store import Store
from ragcore.storage.tables import Tables
from ragcore.tabular import Aggregation, Order, Period, TableQuery, parse_schema

SCHEMA = """
description = "stock per region and month"
time_column = "month"
[columns]
region = "text"
part = "text"
qty = "integer"
usage = "integer"
month = "month"
[dimensions.region]
synonyms = ["area"]
[dimensions.part]
[measures.qty]
unit = "units"
[measures.usage]
unit = "units/day"
aggregation = "avg"
[measures.cover]
expression = "qty / usage"
unit = "days"
aggregation = "min"
"""
ROWS = [  # rowid: region, part, qty, usage, month
    ("East", "P1", 10, 4, "2025-01"),  # 1
    ("East", "P2", 30, 3, "2025-02"),  # 2
    ("West", "P1", 5, 2, "2025-01"),  # 3
    ("West", "P2", 7, 7, "2025-02"),  # 4
    ("North", "P1", 20, 8, "2025-03"),  # 5
    ("East", "P1", 1, 1, "2025-03"),  # 6
]


def _write(tmp_path, rows: list[tuple], table: str = "stock") -> None:
    (tmp_path / f"{table}.toml").write_text(SCHEMA, "utf-8")
    lines = ["region,part,qty,usage,month"] + [",".join(map(str, r)) for r in rows]
    (tmp_path / f"{table}.csv").write_text("\n".join(lines) + "\n", "utf-8")


def _opened(request, tmp_path, kind: str, rows: list[tuple]) -> Iterator[AnyTableReader]:
    """A reader of table ``stock`` holding ``rows`` on the ``kind`` store."""
    _write(tmp_path, rows)
    if kind == "sqlite":
        store: Store | PostgresStore = Store(tmp_path / "data")
        reader: AnyTableReader = TableReader(store)
    else:
        store = PostgresStore(request.getfixturevalue("postgres_url"), dimension=4)
        reader = PostgresTableReader(store)
    reader.tables.ingest(tmp_path / "stock.csv", table="stock", schema=tmp_path / "stock.toml")
    yield reader
    reader.close()
    store.close()


BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.process)]


@pytest.fixture(params=BACKENDS)
def reader(request, tmp_path) -> Iterator[AnyTableReader]:
    """The sample rows on either store: behaviour both must share."""
    yield from _opened(request, tmp_path, request.param, ROWS)


@pytest.fixture
def lite_reader(request, tmp_path) -> Iterator[TableReader]:
    """The sample rows on SQLite, for its connection's own guards."""
    for opened in _opened(request, tmp_path, "sqlite", ROWS):
        assert isinstance(opened, TableReader)
        yield opened


def _all(reader: TableReader) -> list[tuple]:
    return reader._store.reader().execute("SELECT * FROM data_stock ORDER BY rowid").fetchall()


def test_a_total_over_every_row(reader):
    result = reader.run(TableQuery("stock", "qty"))
    assert result.columns == ("qty",)
    assert result.rows == ((73,),) and result.row_ids == ((1, 2, 3, 4, 5, 6),)
    assert not result.truncated and result.params[-1] == reader.max_rows + 1


def test_the_time_column_groups_like_a_dimension(reader):
    result = reader.run(TableQuery("stock", "qty", group_by=("month",), order=Order.DESC, limit=1))
    assert result.rows == (("2025-02", 37),) and result.row_ids == ((2, 4),)


def test_two_values_of_one_column_are_alternatives(reader):
    both = TableQuery(
        "stock", "qty", group_by=("region",), filters=(("region", "East"), ("region", "West"))
    )
    assert reader.run(both).rows == (("East", 41), ("West", 12))


def test_the_median_is_the_middle_value_or_the_mean_of_the_two_middle_ones(reader):
    median = TableQuery("stock", "qty", aggregation=Aggregation.MEDIAN, group_by=("region",))
    result = reader.run(median)  # East 1, 10, 30; West 5, 7; North 20
    assert result.rows == (("East", 10), ("North", 20), ("West", 6))
    assert result.row_ids == ((1, 2, 6), (5,), (3, 4))


def test_a_share_is_each_group_s_part_of_the_whole_without_the_grouped_filters(reader):
    share = TableQuery(
        "stock",
        "qty",
        aggregation=Aggregation.SHARE,
        group_by=("region",),
        filters=(("region", "West"), ("part", "P1")),
    )
    result = reader.run(share)  # P1: East 11, West 5, North 20 of 36
    assert result.rows == (("West", pytest.approx(500 / 36)),)
    assert result.row_ids == ((3,),)
    averaged = TableQuery("stock", "usage", aggregation=Aggregation.SHARE, group_by=("region",))
    with pytest.raises(InvalidQueryError, match="has no share"):
        reader.run(averaged)


def test_periods_compared_give_a_figure_each_earliest_first(reader):
    months = (
        Period("March", date(2025, 3, 1), date(2025, 3, 31)),
        Period("Jan-Feb", date(2025, 1, 1), date(2025, 2, 28)),
    )
    result = reader.run(TableQuery("stock", "qty", periods=months))
    assert result.columns == ("period", "qty")
    assert result.rows == (("Jan-Feb", 52), ("March", 21))
    assert result.row_ids == ((1, 2, 3, 4), (5, 6))
    by_region = TableQuery("stock", "qty", group_by=("region",), periods=months, order=Order.DESC)
    assert reader.run(by_region).rows[0] == ("Jan-Feb", "East", 40)
    with pytest.raises(InvalidQueryError, match="two or more"):
        reader.run(TableQuery("stock", "qty", periods=months[:1]))
    with pytest.raises(InvalidQueryError, match="no time window"):
        reader.run(TableQuery("stock", "qty", periods=months, time_from=date(2025, 1, 1)))


def test_a_year_of_the_time_column_groups(reader):
    result = reader.run(TableQuery("stock", "qty", group_by=("year", "region")))
    assert result.columns == ("year", "region", "qty")
    assert result.rows == (("2025", "East", 41), ("2025", "North", 20), ("2025", "West", 12))
    with pytest.raises(InvalidQueryError, match="group by"):
        reader.run(TableQuery("stock", "qty", group_by=("week",)))


QUARTERS = [  # rowid: region, part, qty, usage, month
    ("East", "P1", 10, 4, "2025-01"),  # 1
    ("East", "P1", 5, 1, "2025-04"),  # 2
    ("West", "P2", 7, 7, "2025-06"),  # 3
    ("North", "P1", 2, 1, "2025-12"),  # 4
]


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_quarter_of_the_time_column_groups(request, tmp_path, kind):
    """ "per quarter": the quarter of each row's month ("2025-04" is "2025-Q2"), each
    quarter's figure citing its rows; a quarter without rows has no figure."""
    for reader in _opened(request, tmp_path, kind, QUARTERS):
        result = reader.run(TableQuery("stock", "qty", group_by=("quarter",)))
        assert result.columns == ("quarter", "qty")
        assert result.rows == (("2025-Q1", 10), ("2025-Q2", 12), ("2025-Q4", 2))
        assert result.row_ids == ((1,), (2, 3), (4,))


def test_a_ranking_keeps_the_groups_tied_with_its_last(reader):
    busiest = TableQuery(
        "stock",
        "qty",
        aggregation=Aggregation.COUNT,
        group_by=("month",),
        order=Order.DESC,
        limit=1,
    )
    assert reader.run(busiest).rows == (("2025-01", 2), ("2025-02", 2), ("2025-03", 2))
    top = TableQuery("stock", "qty", group_by=("region",), order=Order.DESC, limit=1)
    assert reader.run(top).rows == (("East", 41),)


def test_group_order_and_limit(reader):
    query = TableQuery("stock", "qty", group_by=("region",), order=Order.DESC, limit=2)
    result = reader.run(query)
    assert result.columns == ("region", "qty")
    assert result.rows == (("East", 41), ("North", 20))
    assert result.row_ids == ((1, 2, 6), (5,))
    ascending = reader.run(TableQuery("stock", "qty", group_by=("region",), order=Order.ASC))
    assert [r[0] for r in ascending.rows] == ["West", "North", "East"]
    assert result.query is query and '"region"' in result.sql


def test_filters_match_case_insensitively_and_are_bound(reader):
    result = reader.run(TableQuery("stock", "qty", filters=(("region", "east"), ("part", "P1"))))
    assert result.rows == ((11,),) and result.row_ids == ((1, 6),)
    assert "east" not in result.sql and result.params[:2] == ("east", "P1")


def test_a_time_window_on_a_month_column(reader):
    window = TableQuery(
        "stock", "qty", time_from=date(2025, 1, 15), time_to=date(2025, 2, 3), group_by=("part",)
    )
    result = reader.run(window)
    assert result.rows == (("P1", 15), ("P2", 37))  # Jan and Feb rows only, by part
    assert result.params[:2] == ("2025-01", "2025-02")


def test_a_derived_measure_divides_as_reals_and_min_cites_its_row(reader):
    result = reader.run(TableQuery("stock", "cover", group_by=("region",)))
    assert result.rows == (("East", 1.0), ("North", 2.5), ("West", 1.0))
    assert result.row_ids == ((6,), (5,), (4,))  # the row holding each minimum
    average = reader.run(TableQuery("stock", "cover", Aggregation.AVG, filters=(("part", "P1"),)))
    assert average.rows[0][0] == pytest.approx((10 / 4 + 5 / 2 + 20 / 8 + 1 / 1) / 4)


def test_latest_reads_the_most_recent_month_of_the_selection(reader):
    assert reader.run(TableQuery("stock", "qty", Aggregation.LATEST)).rows == ((21,),)
    west = reader.run(TableQuery("stock", "qty", Aggregation.LATEST, filters=(("region", "West"),)))
    assert west.rows == ((7,),) and west.row_ids == ((4,),)
    usage = reader.run(TableQuery("stock", "usage", Aggregation.LATEST))
    assert usage.rows == ((4.5,),) and usage.row_ids == ((5, 6),)  # avg of March's rows


def test_earliest_reads_the_first_month_of_the_selection_and_its_rows(reader):
    assert reader.run(TableQuery("stock", "qty", Aggregation.EARLIEST)).rows == ((15,),)
    east = TableQuery(
        "stock",
        "qty",
        Aggregation.EARLIEST,
        group_by=("part", "month"),
        filters=(("region", "East"),),
    )
    result = reader.run(east)
    assert result.rows == (("P1", "2025-01", 10),) and result.row_ids == ((1,),)


def test_dated_by_must_name_a_date_column(reader):
    with pytest.raises(InvalidQueryError, match="no date or month column.*its date columns: month"):
        reader.run(TableQuery("stock", "qty", dated_by="region", time_from=date(2025, 1, 1)))


def test_the_measure_s_own_aggregation_and_count(reader):
    assert reader.run(TableQuery("stock", "usage")).rows == ((25 / 6,),)
    count = reader.run(TableQuery("stock", "qty", Aggregation.COUNT, group_by=("part",)))
    assert count.rows == (("P1", 4), ("P2", 2))


def test_no_matching_rows_is_an_empty_result(reader):
    result = reader.run(TableQuery("stock", "qty", filters=(("region", "Mars"),)))
    assert result.rows == () and result.row_ids == ()


def test_the_row_cap_truncates(reader):
    reader.max_rows = 2
    result = reader.run(TableQuery("stock", "qty", group_by=("region",)))
    assert len(result.rows) == 2 and result.truncated


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (TableQuery("stock", "price"), "has no measure 'price'"),
        (TableQuery("stock", "qty", group_by=("usage",)), "cannot group by 'usage'"),
        (TableQuery("stock", "qty", filters=(("qty", 3.0),)), "cannot filter on 'qty'"),
        (TableQuery("stock", "qty", filters=(("region", 3.0),)), "is not text"),
        (TableQuery("stock", "qty", limit=0), "limit must be a whole number"),
        (TableQuery("stock", "qty", group_by=("region", "region")), "twice"),
        (TableQuery("stock", 'qty") FROM documents --'), "has no measure"),
    ],
)
def test_what_the_schema_does_not_declare_is_refused(reader, query, message):
    with pytest.raises(InvalidQueryError, match=message):
        reader.run(query)


def test_an_unknown_table_is_not_found(reader):
    with pytest.raises(NotFoundError, match="no table is named 'sales'; loaded tables: stock"):
        reader.run(TableQuery("sales", "qty"))


def test_a_time_window_needs_a_time_column(reader):
    schema = reader.tables.schema("stock")
    timeless = type(schema)(
        schema.name, "x", None, schema.columns, schema.dimensions, schema.measures
    )
    with pytest.raises(InvalidQueryError, match="has no time column"):
        compile_query(TableQuery("stock", "qty", time_from=date(2025, 1, 1)), timeless, max_rows=9)


def test_injected_values_are_data_not_sql(reader):
    before = reader.run(TableQuery("stock", "qty", group_by=("region", "part")))
    for value in ("East' OR '1'='1", "East'; DROP TABLE data_stock; --", '" OR 1=1 --'):
        result = reader.run(TableQuery("stock", "qty", filters=(("region", value),)))
        assert result.rows == ()
    assert reader.run(TableQuery("stock", "qty", group_by=("region", "part"))).rows == before.rows


@pytest.mark.parametrize(
    "statement",
    [
        "DROP TABLE data_stock",
        "DELETE FROM data_stock",
        "INSERT INTO data_stock VALUES ('x', 'y', 1, 1, '2025-01')",
        "UPDATE data_stock SET qty = 0",
        "SELECT * FROM table_registry",
        "SELECT * FROM sqlite_master",
        "SELECT name FROM documents",
        "ATTACH DATABASE ':memory:' AS other",
        "PRAGMA query_only = OFF",
        "CREATE TABLE evil (x)",
        "SELECT load_extension('evil')",
    ],
)
def test_the_query_connection_refuses_everything_but_declared_reads(lite_reader, statement):
    reader = lite_reader
    before = _all(reader)
    conn = reader.connection()
    with pytest.raises(sqlite3.DatabaseError):  # between queries: refused outright
        conn.execute(statement)
    conn.set_authorizer(authorizer(reader.tables.schema("stock")))
    try:  # and with the authorizer a query runs under
        with pytest.raises(sqlite3.DatabaseError):
            conn.execute(statement)
        assert conn.execute("SELECT sum(qty), count(rowid) FROM data_stock").fetchone() == (73, 6)
    finally:
        conn.set_authorizer(None)
    assert _all(reader) == before


def test_the_connection_is_read_only_even_without_an_authorizer(lite_reader):
    reader = lite_reader
    conn = reader.connection()
    conn.set_authorizer(None)
    with pytest.raises(sqlite3.OperationalError, match="readonly|read-only|query_only"):
        conn.execute("DELETE FROM data_stock")
    assert len(_all(reader)) == len(ROWS)


def test_a_query_over_the_time_limit_is_stopped(tmp_path):
    (tmp_path / "big.toml").write_text(SCHEMA, "utf-8")
    lines = ["region,part,qty,usage,month"] + [
        f"R{i % 97},P{i % 13},{i},1,2025-01" for i in range(20000)
    ]
    (tmp_path / "big.csv").write_text("\n".join(lines) + "\n", "utf-8")
    store = Store(tmp_path / "data")
    try:
        Tables(store).ingest(tmp_path / "big.csv", table="big", schema=tmp_path / "big.toml")
        reader = TableReader(store, time_limit=0.0)
        with pytest.raises(InvalidQueryError, match="took longer than 0 s and was stopped"):
            reader.run(TableQuery("big", "qty", group_by=("region", "part")))
        reader.time_limit = 10.0  # the same connection is usable again
        assert reader.run(TableQuery("big", "qty")).rows == ((sum(range(20000)),),)
        reader.close()
    finally:
        store.close()


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_zero_divisor_gives_no_figure_on_either_store(request, tmp_path, kind):
    rows = [*ROWS, ("South", "P1", 3, 0, "2025-03")]  # rowid 7: cover 3 / 0
    for reader in _opened(request, tmp_path, kind, rows):
        south = reader.run(TableQuery("stock", "cover", filters=(("region", "south"),)))
        assert south.rows == ((None,),) and south.row_ids == ((7,),)
        by_region = reader.run(TableQuery("stock", "cover", group_by=("region",), order=Order.ASC))
        assert [r[0] for r in by_region.rows] == ["East", "West", "North", "South"]  # NULL last


def test_postgres_sql_is_the_same_query_in_its_dialect():
    schema = parse_schema(SCHEMA, "stock.toml", default_name="stock")
    query = TableQuery(
        "stock",
        "qty",
        group_by=("part",),
        filters=(("region", "East"),),
        time_from=date(2025, 1, 1),
        order=Order.DESC,
        limit=3,
    )
    compiled = compile_query(query, schema, max_rows=10, dialect=POSTGRES)
    assert compiled.sql == (
        'SELECT "part", CAST(sum("qty") AS bigint) AS "value", string_agg("row_id"::text, \',\') '
        'FROM "data_stock" WHERE lower("region") = lower(%s) AND "month" >= %s '
        'GROUP BY "part" HAVING count(*) > 0 ORDER BY "value" DESC NULLS LAST, "part" LIMIT %s'
    )
    # the limit, 3, and up to TIES groups tied with the third, capped at max_rows + 1
    assert compiled.params == ("East", "2025-01", 11) and "?" not in compiled.sql
    lowest = compile_query(TableQuery("stock", "cover"), schema, max_rows=10, dialect=POSTGRES)
    cover = '"qty"::double precision / NULLIF("usage"::double precision, 0)'
    assert lowest.sql == (
        f'SELECT min({cover}) AS "value", (array_agg("row_id" ORDER BY {cover} ASC NULLS LAST, '
        '"row_id"))[1] FROM "data_stock" WHERE true HAVING count(*) > 0 LIMIT %s'
    )
    assert lowest.single_row_ids
    latest = compile_query(
        TableQuery("stock", "usage", Aggregation.LATEST), schema, max_rows=10, dialect=POSTGRES
    )
    assert latest.sql.startswith('SELECT CAST(avg("usage") AS double precision) AS "value"')
    assert '(SELECT max("month") FROM "data_stock" WHERE true)' in latest.sql


@pytest.mark.process
def test_postgres_queries_run_read_only_and_are_stopped_at_the_time_limit(request, tmp_path):
    rows = [(f"R{i % 97}", f"P{i % 13}", i, 1, "2025-01") for i in range(20000)]
    for reader in _opened(request, tmp_path, "postgres", rows):
        assert isinstance(reader, PostgresTableReader)
        with pytest.raises(StoreError, match="read-only transaction"):
            reader.tables.select("stock", "DELETE FROM data_stock", (), time_limit=1.0, max_rows=10)
        reader.time_limit = 0.0
        with pytest.raises(InvalidQueryError, match="took longer than 0 s and was stopped"):
            reader.run(TableQuery("stock", "qty", group_by=("region", "part")))
        reader.time_limit = 10.0  # the pool's connections are usable again
        assert reader.run(TableQuery("stock", "qty")).rows == ((sum(range(20000)),),)
        with pytest.raises(InvalidQueryError, match="SQLite store only"):
            reader.run_sql("SELECT 1", ())
