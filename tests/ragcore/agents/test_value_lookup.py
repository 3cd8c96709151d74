"""The value index kept at load, as perception reads it: a question gets only the values
it could name (and an example of each shape), and reads exactly as with every value; a
value the table lacks still gets close matches; on both stores."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from ragcore.agents.perception.data_question import DataQuestion, Unexpressible, recognise
from ragcore.agents.planning.tables import TableCatalog
from ragcore.evaluation.sample import sample_tables
from ragcore.retrieval.tables import PostgresTableReader, TableReader
from ragcore.storage.postgres import PostgresStore
from ragcore.storage.store import Store

TODAY = date(2026, 12, 2)
QUESTIONS = [
    "Which three models had the highest shortage rate in the East region?",
    "In which region was the CP-200 shortage rate highest?",
    "How many order lines for part 61-0110-11 came from the North region?",
    "What is the average shortage rate per model in the East region?",
    "What was the shortage rate of the AC-75 in the East region?",
    "What is the total stock of part 88-2041-09?",
    "What is the total stock of the HP-400 in the West region?",
    "How many days of cover does the mechanical seal kit have at East-1?",
    "What is the shortage rate of the CP-999?",  # an unknown model, known by its shape
    "What is the total stock of part 88-9999-09?",
    "How many short orders were there in the Atlantis region?",
    "What was the shortage rate for Acme Corp?",
    "What is the total stock in the Eats region?",
    "shortage rate of cp-200 and ac-110 per region",
]
BIG_SCHEMA = """
description = "work orders"
[columns]
work_order = "text"
site = "text"
hours = "real"
[dimensions.work_order]
synonyms = ["order"]
[dimensions.site]
[measures.hours]
unit = "h"
"""


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.process)])
def catalog(request, tmp_path) -> Iterator[TableCatalog]:
    if request.param == "sqlite":
        store = Store(tmp_path / "data")
        reader: TableReader | PostgresTableReader = TableReader(store)
    else:
        store = PostgresStore(request.getfixturevalue("postgres_url"), dimension=4)
        reader = PostgresTableReader(store)
    for name, data, schema in sample_tables():
        reader.tables.ingest(data, table=name, schema=schema)
    yield TableCatalog(reader)
    store.close()


def _read(catalog: TableCatalog, question: str, *, whole: bool):
    if whole:
        return recognise(question, catalog.schemas, today=TODAY, time=None, values=catalog.values)
    return recognise(
        question,
        catalog.schemas,
        today=TODAY,
        time=None,
        values=catalog.values_for(question),
        known=catalog.known,
    )


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_question_reads_the_same_from_the_values_it_could_name_as_from_all(catalog, question):
    assert _read(catalog, question, whole=False) == _read(catalog, question, whole=True)


def test_a_question_gets_the_values_it_names_and_an_example_of_each_shape(catalog):
    every = catalog.values["shortages"]
    some = catalog.values_for("What was the shortage rate of the CP-200 in the East region?")
    assert set(some) == {"inventory", "shortages"}
    shortages = some["shortages"]
    assert list(shortages) == list(every)  # every dimension, in the schema's order
    assert "CP-200" in shortages["model"] and "East" in shortages["region"]
    assert "West" not in shortages["region"]
    assert sum(map(len, shortages.values())) < sum(map(len, every.values()))


def test_a_big_column_gives_close_matches_from_the_index(catalog, tmp_path):
    lines = ["work_order,site,hours"] + [
        f"WO-{n:06d},{('Riverside', 'Hilltop')[n % 2]},{n % 7 + 1}" for n in range(3000)
    ]
    (tmp_path / "wo.csv").write_text("\n".join(lines) + "\n", "utf-8")
    (tmp_path / "wo.toml").write_text(BIG_SCHEMA, "utf-8")
    catalog._reader.tables.ingest(tmp_path / "wo.csv", table="wo", schema=tmp_path / "wo.toml")
    catalog.refresh()
    found = _read(catalog, "What were the total hours of WO-001234?", whole=False)
    assert isinstance(found, DataQuestion), found
    assert found.query.filters == (("work_order", "WO-001234"),)
    missing = _read(catalog, "What were the total hours of WO-0012345?", whole=False)
    assert isinstance(missing, Unexpressible)
    assert "no work_order 'WO-0012345'" in missing.reason and "WO-001234" in missing.reason
    some = catalog.values_for("What were the total hours of WO-001234?")["wo"]
    assert len(some["work_order"]) <= 2  # the value named and an example of its shape


def test_a_table_loaded_before_the_index_is_read_by_a_scan(catalog):
    tables = catalog._reader.tables
    run = (
        tables._store.transaction if isinstance(tables._store, Store) else tables._store.connection
    )
    with run() as conn:  # as a store migrated with tables loaded before 0006/0007 is
        conn.execute("DELETE FROM table_values")
        conn.execute("DELETE FROM table_value_shapes")
    catalog.refresh()
    question = "What was the shortage rate of the CP-200 in the East region?"
    assert catalog.values_for(question)["shortages"] == catalog.values["shortages"]
    assert isinstance(_read(catalog, question, whole=False), DataQuestion)


def test_every_development_question_reads_the_same_from_the_index(tmp_path):
    """The held-out tables and the development and golden table questions (not the
    untouched set): the index changes what perception is handed, never what it reads."""
    root = Path(__file__).resolve().parents[3] / "benchmarks"
    store = Store(tmp_path / "data")
    reader = TableReader(store)
    for name, data, schema in sample_tables(root / "tables_heldout") + sample_tables():
        reader.tables.ingest(data, table=name, schema=schema)
    catalog = TableCatalog(reader)
    questions = [
        json.loads(line)["question"]
        for path in (root / "tables_heldout" / "questions_dev.jsonl", root / "tables_golden.jsonl")
        for line in path.read_text("utf-8").splitlines()
        if line.strip()
    ]
    assert len(questions) > 80
    differ = [
        q for q in questions if _read(catalog, q, whole=False) != _read(catalog, q, whole=True)
    ]
    store.close()
    assert differ == []


def test_a_dimension_with_a_value_in_every_row_is_an_identifier(catalog, tmp_path):
    lines = ["work_order,site,hours"] + [
        f"WO-{n:04d},{('Riverside', 'Hilltop')[n % 2]},{n % 7 + 1}" for n in range(40)
    ]
    (tmp_path / "wo.csv").write_text("\n".join(lines) + "\n", "utf-8")
    (tmp_path / "wo.toml").write_text(BIG_SCHEMA, "utf-8")
    catalog._reader.tables.ingest(tmp_path / "wo.csv", table="wo", schema=tmp_path / "wo.toml")
    catalog.refresh()
    assert catalog.identifiers["wo"] == frozenset({"work_order"})
    assert catalog.identifiers["shortages"] == frozenset()


KIND_SCHEMA = """
description = "alarms per asset"
[columns]
asset = "text"
asset_class = "text"
alarms = "integer"
[dimensions.asset]
[dimensions.asset_class]
[measures.alarms]
unit = "alarms"
"""


def test_the_last_word_of_a_small_column_s_values_names_them_all(catalog, tmp_path):
    rows = [
        ("P-1", "centrifugal pump", 3),
        ("P-2", "vacuum pump", 4),
        ("C-1", "screw compressor", 5),
    ]
    lines = ["asset,asset_class,alarms", *(",".join(map(str, r)) for r in rows)]
    (tmp_path / "alarms.csv").write_text("\n".join(lines) + "\n", "utf-8")
    (tmp_path / "alarms.toml").write_text(KIND_SCHEMA, "utf-8")
    tables = catalog._reader.tables
    tables.ingest(tmp_path / "alarms.csv", table="alarms", schema=tmp_path / "alarms.toml")
    catalog.refresh()
    question = "How many alarms did the pumps have?"
    named = catalog.values_for(question)["alarms"]["asset_class"]
    assert {"centrifugal pump", "vacuum pump"} <= set(named)
    found = _read(catalog, question, whole=False)
    assert found == _read(catalog, question, whole=True)
    assert isinstance(found, DataQuestion), found
    assert found.query.filters == (
        ("asset_class", "centrifugal pump"),
        ("asset_class", "vacuum pump"),
    )


NESTED_SCHEMA = """
description = "alarms per line and supplier"
[columns]
site = "text"
line = "text"
supplier = "text"
category = "text"
alarms = "integer"
[dimensions.site]
synonyms = ["plant"]
[dimensions.line]
synonyms = ["production line", "plant area"]
[dimensions.supplier]
description = "who serviced the line"
[dimensions.category]
[measures.alarms]
unit = "alarms"
"""
# Lines: most at one site, "Utilities" at two (one name, two lines). Suppliers: most in
# one category, one in two (one supplier, whose figure is one): the same pattern in the
# data, told apart by the schema's words ("plant area": a line is within a plant).
NESTED_ROWS = [
    ("Riverside", "Line 1", "Acme", "seals", 3),
    ("Riverside", "Line 1", "Acme", "seals", 2),
    ("Riverside", "Utilities", "Acme", "bearings", 9),
    ("Hillcrest", "Utilities", "Borg", "bearings", 1),
    ("Hillcrest", "Line 2", "Borg", "bearings", 4),
    ("Hillcrest", "Line 2", "Cole", "filters", 4),
    ("Oakbank", "Line 3", "Cole", "filters", 6),
    ("Oakbank", "Line 3", "Dyer", "filters", 6),
    ("Oakbank", "Utilities", "Dyer", "filters", 1),
]


def test_a_line_name_repeated_at_sites_is_read_within_its_site(catalog, tmp_path):
    lines = ["site,line,supplier,category,alarms", *(",".join(map(str, r)) for r in NESTED_ROWS)]
    (tmp_path / "nested.csv").write_text("\n".join(lines) + "\n", "utf-8")
    (tmp_path / "nested.toml").write_text(NESTED_SCHEMA, "utf-8")
    tables = catalog._reader.tables
    tables.ingest(tmp_path / "nested.csv", table="nested", schema=tmp_path / "nested.toml")
    catalog.refresh()
    assert tables.value_index().nesting() == [("nested", "line", "site")]
    schema = catalog.schema("nested")
    assert schema.dimension("line").within == "site"
    assert schema.dimension("supplier").within is None  # "Acme" in two categories is one
    assert tables.schema("nested").dimension("line").within is None  # the file is as written
    found = _read(catalog, "Which production line had the fewest alarms?", whole=False)
    assert isinstance(found, DataQuestion), found
    assert found.query.group_by == ("site", "line")
    found = _read(catalog, "Which supplier had the fewest alarms?", whole=False)
    assert isinstance(found, DataQuestion), found
    assert found.query.group_by == ("supplier",)
    # Loaded again without the repeated name: no nesting is left behind.
    lines = [line for line in lines if "Utilities" not in line]
    (tmp_path / "nested.csv").write_text("\n".join(lines) + "\n", "utf-8")
    tables.ingest(
        tmp_path / "nested.csv", table="nested", schema=tmp_path / "nested.toml", replace=True
    )
    catalog.refresh()
    assert tables.value_index().nesting() == []
    assert catalog.schema("nested").dimension("line").within is None
