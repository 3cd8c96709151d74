"""Engine.ingest_table / query_table / list_tables over the sample tables."""

from __future__ import annotations

import pytest
from conftest import TOP3_EAST_LAST_MONTH

from ragcore import Engine, Scope
from ragcore.errors import InvalidQueryError, ScopeError
from ragcore.evaluation.sample import SAMPLE_TABLES, ingest_sample_tables, sample_tables
from ragcore.tabular import TableQuery


@pytest.fixture
def engine(tmp_path):
    with Engine.open(tmp_path / "data") as engine:
        yield engine


def test_the_sample_tables_load_and_answer_a_ranking(engine):
    assert [name for name, _, _ in sample_tables()] == ["inventory", "shortages"]
    loaded = ingest_sample_tables(engine)
    assert [(t.name, t.row_count) for t in loaded] == [("inventory", 40), ("shortages", 736)]
    again = ingest_sample_tables(engine)  # unchanged files are not reloaded
    assert [t.ingested_at for t in again] == [t.ingested_at for t in loaded]
    assert engine.list_tables() == loaded

    # "Which three models had the highest shortage rate in the East region last month?"
    top = engine.query_table(TOP3_EAST_LAST_MONTH)
    assert [row[0] for row in top.rows] == ["CP-200", "CV-12", "HP-400"]
    assert top.rows[0][1] == pytest.approx(18.6) and all(len(ids) == 1 for ids in top.row_ids)

    # "At current stock, how many days will P/N 88-2041-09 last in the East?"
    cover = engine.query_table(
        TableQuery(
            "inventory",
            "days_of_cover",
            filters=(("part_number", "88-2041-09"), ("region", "east")),
        )
    )
    assert cover.rows[0][0] == pytest.approx(11 / 1.64)


def test_a_scoped_caller_may_not_load_a_table(engine):
    data, schema = SAMPLE_TABLES / "inventory.csv", SAMPLE_TABLES / "inventory.toml"
    with pytest.raises(ScopeError, match="needs an unrestricted caller"):
        engine.ingest_table(data, table="inventory", schema=schema, scope=Scope(frozenset({"x"})))
    assert engine.list_tables() == []
    info = engine.ingest_table(data, table="inventory", schema=schema, scope=Scope.ALL)
    assert info.row_count == 40


def test_query_table_takes_a_table_query_only(engine):
    with pytest.raises(InvalidQueryError, match="expected a TableQuery, got str"):
        engine.query_table("SELECT * FROM documents")  # type: ignore[arg-type]
