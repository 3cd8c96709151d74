"""The LLM fallback for table questions the planner cannot express, against a real HTTP
server on loopback standing in for the LLM: a good SELECT is run read-only and cited;
anything that writes, reads outside the declared tables and columns, is more than one
statement or runs too long is refused, changes nothing and leaves the no_answer."""

from __future__ import annotations

from datetime import date

import pytest
from llm_stand_in import stand_in_llm

from ragcore import Config, Engine
from ragcore.agents.planning.llm_sql import build_messages, vet
from ragcore.errors import InvalidQueryError
from ragcore.evaluation.sample import ingest_sample_tables, sample_documents
from ragcore.retrieval.tables import TableReader
from ragcore.types import AnswerStatus, IssueKind

TODAY = date(2026, 12, 2)
QUESTION = "Which supplier had the highest shortage rate last month?"  # no supplier column
GOOD = (
    "SELECT rowid, month, model, region, shortage_rate FROM data_shortages "
    "WHERE month = '2026-11' ORDER BY shortage_rate DESC LIMIT 2;"
)


@pytest.fixture(scope="module")
def llm():
    with stand_in_llm(GOOD) as server:
        yield server


@pytest.fixture(scope="module")
def engine(tmp_path_factory, real_embedder, llm):
    config = Config(
        data_dir=tmp_path_factory.mktemp("llm_sql") / "data",
        llm_base_url=llm.url,
        llm_model="stand-in",
        answer_cache_size=0,  # the same question is asked with different model replies
        retrieval_cache_size=0,
    )
    with Engine(config, embedder=real_embedder, clock=lambda: TODAY) as eng:
        eng.ingest(sample_documents())
        ingest_sample_tables(eng)
        yield eng


def _snapshot(engine):
    reader = engine.store.reader()
    names = sorted(r[0] for r in reader.execute("SELECT name FROM sqlite_master"))
    rows = {
        t: reader.execute(
            f'SELECT count(*), total(rowid), total(length(quote("{c}"))) FROM {t}'
        ).fetchone()
        for t, c in (
            ("data_shortages", "shortage_rate"),
            ("data_inventory", "stock_qty"),
            ("documents", "id"),
            ("chunks", "text"),
        )
    }
    return names, rows, engine.store.data_version()


def _trace(answer) -> str:
    return "\n".join(f"{n.name} {n.detail}" for n in answer.trace.walk())


def test_a_good_select_is_run_read_only_and_cited(engine, llm):
    llm.sql = GOOD
    before = _snapshot(engine)
    answer = engine.ask(QUESTION)
    assert _snapshot(engine) == before
    assert answer.status == AnswerStatus.OK, (answer.issues, _trace(answer))
    expected = engine.store.reader().execute(GOOD).fetchall()
    cited = [c for c in answer.citations if c.document_id == "table:shortages"]
    assert cited and cited[0].rows == (expected[0][0],)
    assert cited[0].query == GOOD.rstrip(";") and cited[0].knowledge_base == "tables"
    assert f"model {expected[0][2]}" in answer.text
    assert f"{round(expected[0][4], 2):g} %" in answer.text
    assert [e.rows for e in answer.evidence] == [(row[0],) for row in expected]
    trace = _trace(answer)
    assert "accepted: SELECT rowid, month, model" in trace and "refused" not in trace
    # The prompt gave the schemas: SQL names, typed columns, measures, short value lists.
    system, user = next(r for r in reversed(llm.requests) if "SQLite SELECT" in r[0])
    assert "Table data_shortages" in user and "shortage_rate real" in user
    assert "measure fill_rate = 100 - shortage_rate in %" in user
    assert "'East'" in user and QUESTION in user


def test_a_select_without_rowid_is_cited_without_rows(engine, llm):
    llm.sql = (
        "SELECT month, region, avg(shortage_rate) AS shortage_rate FROM data_shortages "
        "WHERE month = '2026-11' GROUP BY 1, 2"
    )
    answer = engine.ask(QUESTION)
    assert answer.status == AnswerStatus.OK, (answer.issues, _trace(answer))
    assert answer.citations and all(c.rows == () for c in answer.citations)
    assert all(e.query == llm.sql for e in answer.evidence)


REFUSED = {
    "delete": ("DELETE FROM data_shortages", "not a SELECT"),
    "update": ("UPDATE data_shortages SET orders = 0", "not a SELECT"),
    "drop": ("DROP TABLE data_inventory", "not a SELECT"),
    "insert": ("INSERT INTO data_shortages SELECT * FROM data_shortages", "not a SELECT"),
    "cte delete": ("WITH x AS (SELECT 1) DELETE FROM data_shortages", "DELETE"),
    "replace into": (
        "WITH x AS (SELECT 1) REPLACE INTO data_shortages SELECT * FROM data_shortages",
        "INTO",
    ),
    "sqlite_master": ("SELECT name, sql FROM sqlite_master", "outside the declared"),
    "documents": ("SELECT id, title FROM documents", "outside the declared"),
    "chunks": ("SELECT c.text FROM chunks c JOIN data_shortages d ON 1", "outside the declared"),
    "registry": ("SELECT schema FROM table_registry", "outside the declared"),
    "undeclared column": ("SELECT supplier FROM data_shortages", "no such column"),
    "two statements": ("SELECT 1 FROM data_shortages; DELETE FROM data_shortages", "statement"),
    "two selects": ("SELECT 1; SELECT 2;", "more than one statement"),
    "attach": ("ATTACH DATABASE '/tmp/llm_sql_x.db' AS x", "not a SELECT"),
    "pragma": ("PRAGMA writable_schema = ON", "not a SELECT"),
    "pragma function": ("SELECT * FROM pragma_table_info('data_shortages')", "outside"),
    "comment": ("SELECT model FROM data_shortages -- all of them", "comment"),
    "extension": ("SELECT load_extension('/tmp/x.so') FROM data_shortages", "LOAD_EXTENSION"),
    "unlisted function": ("SELECT sqlite_version(), model FROM data_shortages", "outside"),
    "no table": ("SELECT 42", "none of the declared tables"),
    "count of sqlite_master": ("SELECT count(*) FROM sqlite_master", "outside the declared"),
    "count of documents": ("SELECT count(*) FROM documents", "outside the declared"),
    "syntax": ("SELECT (1 FROM data_shortages", "SQLite refused it"),
    "prose": ("I think the answer is the CP-200.", "not a SELECT"),
    "none": ("NONE", "found no query"),
    "recursive": (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
        "SELECT count(*) FROM c, data_shortages",
        "time limit",
    ),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_bad_proposal_is_refused_and_changes_nothing(engine, llm, case):
    sql, why = REFUSED[case]
    llm.sql = sql
    before = _snapshot(engine)
    answer = engine.ask(QUESTION)
    assert _snapshot(engine) == before
    assert answer.status == AnswerStatus.NO_ANSWER and not answer.citations
    (issue,) = answer.issues
    assert issue.kind == IssueKind.ATTRIBUTE_NOT_FOUND and "supplier" in issue.message
    refused = [n.detail for n in answer.trace.walk() if n.name == "refused"]
    assert len(refused) == 1 and refused[0].startswith("the model's query was refused: ")
    assert why in refused[0], refused[0]


def test_an_expressible_question_does_not_ask_for_sql(engine, llm):
    llm.requests.clear()
    engine.ask("What is the total stock of the CP-200 parts?")
    assert not any("SQLite SELECT" in system for system, _ in llm.requests)


# -- the pieces ----------------------------------------------------------------------
def test_vet_keeps_one_select_and_strips_a_fence_and_a_trailing_semicolon():
    assert vet("```sql\nSELECT model FROM data_shortages;\n```") == (
        "SELECT model FROM data_shortages"
    )
    assert vet("SELECT CASE WHEN orders > 0 THEN 1 END FROM data_shortages").startswith("SELECT")
    for bad in ("SELECT 1;;", "", "SELECT 1 /* x */", "VACUUM"):
        with pytest.raises(InvalidQueryError):
            vet(bad)


def test_the_reader_refuses_an_undeclared_column_that_exists(engine):
    schemas = tuple(info.schema for info in engine.list_tables())
    shortages = next(s for s in schemas if s.name == "shortages")
    narrowed = type(shortages)(
        shortages.name,
        shortages.description,
        shortages.time_column,
        {k: v for k, v in shortages.columns.items() if k != "orders"},
        shortages.dimensions,
        (),
    )
    reader = engine.tables
    assert reader.run_sql("SELECT model FROM data_shortages", (narrowed,)).rows
    with pytest.raises(InvalidQueryError, match="outside the declared"):
        reader.run_sql("SELECT orders FROM data_shortages", (narrowed,))
    # The same statement again is authorised afresh, not taken from a statement cache.
    with pytest.raises(InvalidQueryError, match="outside the declared"):
        reader.run_sql("SELECT orders FROM data_shortages", (narrowed,))
    assert reader.run_sql("SELECT orders FROM data_shortages", schemas).tables == ("shortages",)
    # A CTE over declared tables is a read like any other; a join names both tables.
    cte = (
        "WITH t AS (SELECT model, sum(stock_qty) AS stock FROM data_inventory GROUP BY 1) "
        "SELECT s.model, max(s.shortage_rate), t.stock FROM data_shortages s "
        "JOIN t ON t.model = s.model GROUP BY 1"
    )
    assert set(reader.run_sql(cte, schemas).tables) == {"shortages", "inventory"}


def test_the_row_cap_refuses_rather_than_truncates(engine):
    schemas = tuple(info.schema for info in engine.list_tables())
    reader = TableReader(engine.store, max_rows=2)
    try:
        with pytest.raises(InvalidQueryError, match="more than the 2-row cap"):
            reader.run_sql("SELECT rowid FROM data_shortages", schemas)
        assert len(reader.run_sql("SELECT rowid FROM data_shortages LIMIT 2", schemas).rows) == 2
    finally:
        reader.close()


def test_the_prompt_lists_every_declared_table(engine):
    schemas = tuple(info.schema for info in engine.list_tables())
    (system, user) = build_messages("q?", schemas)
    assert "reply exactly: NONE" in system["content"]
    assert all(f"Table {s.sql_name}:" in user["content"] for s in schemas)
