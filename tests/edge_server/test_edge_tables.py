"""Tables over a live server: IngestTable streams a table in (admin only, bad input refused
with the file, row and column, the stored table untouched), ListTables describes them, a
table question's citations name the table, the rows and the SQL, and hostile questions
sent through Ask write nothing and read only the declared tables."""

from __future__ import annotations

import hashlib

import grpc
import pytest
from conftest import TOP3_EAST_LAST_MONTH

from edge_server.client import Client, error_details
from edge_server.v1 import ragcore_pb2 as pb
from ragcore.evaluation.sample import SAMPLE_TABLES, ingest_sample_tables

pytestmark = pytest.mark.integration

ADMIN = "admin-token-0123456789abcdef"
READER = "reader-token-0123456789abcdef"
FAQ_ADMIN = "faq-admin-0123456789abcdef"  # scoped to faq
FAQ_READER = "faq-reader-0123456789abcdef"  # scoped to faq
INVENTORY = SAMPLE_TABLES / "inventory.csv"
INVENTORY_SCHEMA = SAMPLE_TABLES / "inventory.toml"
SHORTAGES = SAMPLE_TABLES / "shortages.csv"
SHORTAGES_SCHEMA = SAMPLE_TABLES / "shortages.toml"
RANKING = "Which three models had the highest shortage rate in the East region last month?"


@pytest.fixture
def served(start_edge, tmp_path):
    path = tmp_path / "tokens"
    path.write_text(
        f"admin {ADMIN}\nreader {READER}\nadmin {FAQ_ADMIN} faq\nreader {FAQ_READER} faq\n"
    )
    server, target = start_edge(tokens_file=path)
    return server, target


def snapshot(engine) -> tuple:
    """Everything a write would change: the registry, the schema objects, each table's
    rows (count and rowid sum) and SQLite's data version."""
    reader = engine.store.reader()
    registry = reader.execute(
        "SELECT name, schema, source, sha256, row_count, ingested_at FROM table_registry"
    ).fetchall()
    objects = sorted(reader.execute("SELECT type, name, sql FROM sqlite_master").fetchall())
    rows = {
        name: reader.execute(f'SELECT count(*), total(rowid) FROM "data_{name}"').fetchone()
        for (name, *_) in registry
    }
    return registry, objects, rows, engine.store.data_version()


def refused(call) -> tuple[grpc.StatusCode, dict]:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value.code(), error_details(caught.value)


def stream(
    table: str,
    schema: str,
    file_name: str,
    data: bytes,
    *more: pb.IngestTableRequest,
    replace: bool = True,
):
    first = pb.IngestTableRequest(
        table=table, schema=schema, file_name=file_name, data=data, replace=replace
    )
    return iter([first, *more])


def pieces(data: bytes, size: int = 1 << 20) -> list[pb.IngestTableRequest]:
    """``data`` in messages of ``size`` bytes, each under the message limit."""
    return [pb.IngestTableRequest(data=data[i : i + size]) for i in range(0, len(data), size)]


HEADER = INVENTORY.read_text(encoding="utf-8").splitlines()[0]
LONG_FIELD = (
    f"{HEADER}\n88-2041-09,{'x' * (8 * 1024 * 1024 + 1)},CP-200,East,E-1,8,1,1,2026-11-30\n"
)


def test_a_table_streamed_in_is_listed_and_a_question_cites_its_table_rows_and_sql(served):
    server, target = served
    with Client(target, token=ADMIN) as admin:
        # Small chunks: the file arrives over many messages.
        loaded = admin.ingest_table(
            SHORTAGES, table="shortages", schema=SHORTAGES_SCHEMA, chunk_bytes=1000
        )
        admin.ingest_table(INVENTORY, table="inventory", schema=INVENTORY_SCHEMA)
    data = SHORTAGES.read_bytes()
    assert loaded.table == "shortages"
    assert loaded.rows == len(data.decode().splitlines()) - 1 > 700
    assert loaded.checksum == hashlib.sha256(data).hexdigest()

    with Client(target, token=READER) as reader:
        listed = {t.name: t for t in reader.tables().tables}
        answer = reader.ask(RANKING, trace=True)
    assert list(listed) == ["inventory", "shortages"]
    shortages = listed["shortages"]
    assert shortages.rows == loaded.rows and shortages.checksum == loaded.checksum
    assert shortages.source == "shortages.csv" and shortages.description
    assert shortages.time_column == "month"
    columns = {c.name: c for c in shortages.columns}
    assert columns["month"].type == pb.COLUMN_TYPE_MONTH
    assert columns["shortage_rate"].type == pb.COLUMN_TYPE_REAL
    assert columns["region"].dimension and "area" in columns["region"].synonyms
    assert not columns["orders"].dimension
    measures = {m.name: m for m in shortages.measures}
    assert measures["shortage_rate"].unit == "%"
    assert measures["shortage_rate"].aggregation != pb.AGGREGATION_UNSPECIFIED
    cover = next(m for m in listed["inventory"].measures if m.name == "days_of_cover")
    assert cover.expression == "stock_qty / avg_daily_usage" and cover.column == ""
    assert cover.unit == "days"

    assert answer.status == pb.ANSWER_STATUS_OK, answer.report
    expected = server.engine.query_table(TOP3_EAST_LAST_MONTH)
    cited = [c for c in answer.citations if c.table]
    assert [c.table for c in cited] == ["shortages"] * 3
    assert all(c.document_id == "table:shortages" and c.knowledge_base == "tables" for c in cited)
    assert [list(c.rows) for c in cited] == [sorted(ids) for ids in expected.row_ids]
    assert all(c.query == expected.sql for c in cited)
    assert 'FROM "data_shortages"' in cited[0].query and "?" in cited[0].query
    assert "'East'" not in cited[0].query  # values are bound, never spliced in


def test_replace_loads_over_a_table_and_without_it_the_table_stays(served):
    server, target = served
    smaller = b"\n".join(INVENTORY.read_bytes().splitlines()[:3]) + b"\n"
    with Client(target, token=ADMIN) as admin:
        first = admin.ingest_table(INVENTORY, table="inventory", schema=INVENTORY_SCHEMA)
        before = snapshot(server.engine)
        code, details = refused(
            lambda: admin.stub.IngestTable(
                stream("inventory", SCHEMA, "small.csv", smaller, replace=False),
                **admin._call(None),
            )
        )
        assert code == grpc.StatusCode.INVALID_ARGUMENT
        assert details["ErrorInfo"].reason == "INVALID_TABLE"
        assert details["BadRequest"].field_violations[0].field == "table"
        assert snapshot(server.engine) == before
        replaced = admin.stub.IngestTable(
            stream("inventory", SCHEMA, "small.csv", smaller), **admin._call(None)
        )
        assert (replaced.rows, first.rows) == (2, 40)
        assert [(t.name, t.rows, t.source) for t in admin.tables().tables] == [
            ("inventory", 2, "small.csv")
        ]


def test_a_document_citation_has_no_table_fields(served):
    _, target = served
    with Client(target, token=READER) as reader:
        answer = reader.ask("How often should the CP-200 seal be replaced?")
    assert answer.citations
    assert all(not c.table and not c.rows and not c.query for c in answer.citations)


def test_only_an_unscoped_admin_loads_a_table_and_scoped_tokens_see_none(served):
    server, target = served
    ingest_sample_tables(server.engine)
    before = snapshot(server.engine)
    for token, code, reason in (
        (READER, grpc.StatusCode.PERMISSION_DENIED, "ADMIN_REQUIRED"),
        (FAQ_READER, grpc.StatusCode.PERMISSION_DENIED, "ADMIN_REQUIRED"),
        (FAQ_ADMIN, grpc.StatusCode.PERMISSION_DENIED, "OUTSIDE_SCOPE"),
    ):
        with Client(target, token=token) as client:
            got, details = refused(
                lambda c=client: c.ingest_table(
                    INVENTORY, table="inventory", schema=INVENTORY_SCHEMA
                )
            )
        assert (got, details["ErrorInfo"].reason) == (code, reason)
        assert snapshot(server.engine) == before
    with Client(target, token=FAQ_READER) as scoped:
        assert list(scoped.tables().tables) == []
        answer = scoped.ask(RANKING)
        assert not any(c.table for c in answer.citations)
    with Client(target, token=READER) as reader:
        assert [t.name for t in reader.tables().tables] == ["inventory", "shortages"]


def bad_row_file() -> bytes:
    lines = INVENTORY.read_text(encoding="utf-8").splitlines()
    cells = lines[3].split(",")
    cells[5] = "many"  # stock_qty of data row 3
    lines[3] = ",".join(cells)
    return ("\n".join(lines) + "\n").encode()


SCHEMA = INVENTORY_SCHEMA.read_text(encoding="utf-8")
CASES = [
    (  # a mistyped value
        stream(
            "inventory",
            SCHEMA,
            "stock.csv",
            bad_row_file()[:500],
            pb.IngestTableRequest(data=bad_row_file()[500:]),
        ),
        "data",
        {"file": "stock.csv", "row": "3", "column": "stock_qty"},
        "stock.csv: row 3, column 'stock_qty'",
    ),
    (  # a schema naming a column the schema does not declare
        stream(
            "inventory",
            SCHEMA.replace("[measures.stock_qty]", '[measures.stock_qty]\ncolumn = "on_hand"'),
            "inventory.csv",
            INVENTORY.read_bytes(),
        ),
        "schema.measures.stock_qty.column",
        {"key": "measures.stock_qty.column"},
        "schema: key 'measures.stock_qty.column' names column 'on_hand'",
    ),
    (  # a schema declaring a column the file does not have
        stream(
            "inventory",
            SCHEMA.replace("[columns]\n", '[columns]\nbin = "text"\n'),
            "inventory.csv",
            INVENTORY.read_bytes(),
        ),
        "data",
        {"file": "inventory.csv", "column": "bin"},
        "inventory.csv: the schema declares column 'bin'",
    ),
    (  # not TOML
        stream("inventory", "name = [", "inventory.csv", INVENTORY.read_bytes()),
        "schema",
        {},
        "schema: not valid TOML",
    ),
    (
        stream("Inventory; DROP", SCHEMA, "inventory.csv", INVENTORY.read_bytes()),
        "table",
        {},
        "table name 'Inventory; DROP' is not usable",
    ),
    (
        stream("inventory", SCHEMA, "inventory.txt", INVENTORY.read_bytes()),
        "file_name",
        {"file": "inventory.txt"},
        "unsupported table file type '.txt'",
    ),
    (
        stream("inventory", SCHEMA, "../inventory.csv", INVENTORY.read_bytes()),
        "file_name",
        {},
        "is not usable",
    ),
    (
        stream(
            "inventory",
            SCHEMA,
            "inventory.csv",
            b"",
            pb.IngestTableRequest(table="shortages", data=INVENTORY.read_bytes()),
        ),
        "requests[1].table",
        {},
        "only the first message names the table",
    ),
    (iter([]), "requests", {}, "the stream had no messages"),
    (  # no schema: the table's problem, INVALID_TABLE as the .proto says
        stream("inventory", "", "inventory.csv", INVENTORY.read_bytes()),
        "schema",
        {},
        "the first message carries no schema",
    ),
    (  # a taken name without replace
        stream("inventory", SCHEMA, "inventory.csv", INVENTORY.read_bytes(), replace=False),
        "table",
        {},
        "a table named 'inventory' is loaded already; load with --replace",
    ),
    (  # a column named twice: the second would silently win
        stream(
            "inventory",
            SCHEMA,
            "inventory.csv",
            INVENTORY.read_bytes().replace(b"region", b"model", 1),
        ),
        "data",
        {"file": "inventory.csv"},
        "inventory.csv: the header names column 'model' twice",
    ),
    (  # a row with an extra field, named by its number
        stream(
            "inventory",
            SCHEMA,
            "inventory.csv",
            INVENTORY.read_bytes().replace(b"\n", b",extra\n", 3).replace(b",extra\n", b"\n", 2),
        ),
        "data",
        {"file": "inventory.csv", "row": "2"},
        "inventory.csv: row 2 has 10 fields, more than the header's 9",
    ),
    (  # a field over 8 MiB, sent in messages under the limit: a reason, not INTERNAL
        stream("inventory", SCHEMA, "inventory.csv", b"", *pieces(LONG_FIELD.encode())),
        "data",
        {"file": "inventory.csv", "row": "1"},
        "inventory.csv: row 1 has a field longer than 8,388,608 characters",
    ),
    (
        stream("inventory", SCHEMA, "inventory.csv", b"part_number,model\n"),
        "data",
        {"file": "inventory.csv"},
        "",
    ),
]


@pytest.mark.parametrize("requests,field,where,message", CASES)
def test_bad_input_names_its_field_file_row_and_column_and_changes_nothing(
    served, requests, field, where, message
):
    server, target = served
    ingest_sample_tables(server.engine)
    before = snapshot(server.engine)
    with Client(target, token=ADMIN) as admin:
        code, details = refused(lambda: admin.stub.IngestTable(requests, **admin._call(None)))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    info = details["ErrorInfo"]
    # The stream's own shape is a field of the request; everything of the table is the table's.
    assert info.reason == ("INVALID_FIELD" if field.startswith("requests") else "INVALID_TABLE")
    (violation,) = details["BadRequest"].field_violations
    assert violation.field == field
    assert message in violation.description
    assert "ragcore-table-" not in violation.description  # no server path
    for key, value in where.items():
        assert info.metadata[key] == value, dict(info.metadata)
    assert snapshot(server.engine) == before


HOSTILE = [
    "total stock'; DROP TABLE data_inventory; --",
    'What is the total stock"; DELETE FROM data_shortages; SELECT " in the East region?',
    "total stock UNION SELECT sql FROM sqlite_master --",
    "Which model had the highest shortage rate from table_registry or documents?",
    "shortage rate per region); ATTACH DATABASE '/tmp/x.db' AS x; --",
    'stock NEAR("shortage" "rate") OR * AND -region:East',
    "What is the highest stock_qty) FROM data_inventory WHERE 1=1 OR (region",
    "highest shortage rate per model' OR '1'='1",
    'shortage rate" MATCH "*" -- AND region:East^',
    "total stock; UPDATE data_inventory SET stock_qty = 0",
]


def test_hostile_questions_through_ask_write_nothing_and_read_only_declared_tables(served):
    server, target = served
    ingest_sample_tables(server.engine)
    before = snapshot(server.engine)
    declared = ('FROM "data_inventory"', 'FROM "data_shortages"')
    seen_sql = 0
    with Client(target, token=ADMIN) as admin:
        for question in HOSTILE:
            answer = admin.ask(question, trace=True)
            assert snapshot(server.engine) == before, question
            for citation in answer.citations:
                if citation.table:
                    seen_sql += 1
                    assert citation.table in ("inventory", "shortages")
                    assert any(d in citation.query for d in declared)
            queries = [c.query for c in answer.citations if c.query]
            nodes = [answer.trace]
            while nodes:
                node = nodes.pop()
                nodes += node.children
                if node.name.startswith("task table:"):
                    queries.append(node.detail.split(" | params")[0])
            for sql in queries:
                assert any(d in sql for d in declared), sql
                upper = sql.upper()
                for word in ("SQLITE_MASTER", "TABLE_REGISTRY", "ATTACH", "DROP", "DELETE"):
                    assert word not in upper, (question, sql)
                assert "UNION" not in upper and "UPDATE" not in upper and ";" not in sql
    assert seen_sql > 0  # some of them were read as data questions and ran
    with Client(target, token=READER) as reader:
        assert reader.ask(RANKING).status == pb.ANSWER_STATUS_OK
