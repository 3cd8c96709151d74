"""Table questions through the answer loop: table evidence, citations of rows, validation,
no_answer for what the schemas cannot express, and hostile questions that change nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from conftest import ORDERS_SCHEMA, TOP3_EAST_LAST_MONTH

from ragcore import Config, Engine, Scope
from ragcore.agents.evidence import Draft, Statement, split_statements
from ragcore.evaluation.sample import ingest_sample_tables, sample_documents
from ragcore.tabular import Aggregation, TableQuery
from ragcore.types import AnswerStatus, IssueKind

TODAY = date(2026, 12, 2)


@pytest.fixture(scope="module")
def engine(tmp_path_factory, real_embedder):
    config = Config(data_dir=tmp_path_factory.mktemp("tables") / "data")
    with Engine(config, embedder=real_embedder, clock=lambda: TODAY) as eng:
        eng.ingest(sample_documents())
        ingest_sample_tables(eng)
        yield eng


def _table_citations(answer, table: str):
    return [c for c in answer.citations if c.document_id == f"table:{table}"]


def test_a_ranking_is_answered_from_the_table_in_order_citing_rows(engine):
    answer = engine.ask(
        "Which three models had the highest shortage rate in the East region last month?"
    )
    assert answer.status == AnswerStatus.OK, answer.issues
    expected = engine.query_table(TOP3_EAST_LAST_MONTH)
    cited = _table_citations(answer, "shortages")
    assert len(cited) == 3 and len(answer.report.issues) == 0
    models = [row[0] for row in expected.rows]
    # One statement per row, highest first, each naming its model and citing its rows.
    positions = [answer.text.index(f"model {m} ") for m in models]
    assert positions == sorted(positions)
    assert [c.rows for c in cited] == [tuple(sorted(ids)) for ids in expected.row_ids]
    first = f"{round(expected.rows[0][1], 2):g} %"
    assert first in answer.text
    assert all(c.title.startswith("Table shortages — ") for c in cited)
    assert all(c.knowledge_base == "tables" for c in cited)
    # The trace shows the table task with its SQL and parameters.
    trace = "\n".join(f"{n.name} {n.detail}" for n in answer.trace.walk())
    assert 'FROM "data_shortages"' in trace and "'East'" in trace and "'2026-11'" in trace


def test_a_total_and_a_derived_measure(engine):
    total = engine.ask("What is the total stock of the CP-200 parts?")
    assert total.status == AnswerStatus.OK, total.issues
    expected = engine.query_table(
        TableQuery(
            "inventory",
            "stock_qty",
            aggregation=Aggregation.SUM,
            filters=(("model", "CP-200"),),
        )
    )
    assert f"{expected.rows[0][0]} units" in total.text
    assert _table_citations(total, "inventory")[0].rows == expected.row_ids[0]

    cover = engine.ask("How many days of cover does part 88-2041-09 have?")
    assert cover.status == AnswerStatus.OK, cover.issues
    assert "days of cover" in cover.text and " days [1]" in cover.text
    # the minimum over the part's warehouses, the first to run out: one row cited
    assert len(_table_citations(cover, "inventory")[0].rows) == 1


def test_a_mixed_question_gets_the_figure_and_the_procedure(engine):
    answer = engine.ask(
        "Which region had the lowest shortage rate last month, and how do I replace the "
        "mechanical seal on the CP-200?"
    )
    assert answer.status == AnswerStatus.OK, answer.issues
    kinds = [c.document_id.startswith("table:") for c in answer.citations]
    assert kinds[0] and not all(kinds), answer.citations  # the table first, then a manual
    assert answer.tasks > 1 and answer.searches >= 1  # the text retrieval ran too


def test_a_mixed_question_whose_documents_half_no_document_answers_is_not_ok(engine):
    answer = engine.ask(
        "What was the shortage rate in the East region last month, and what colour is the "
        "warehouse door painted?"
    )
    assert answer.status != AnswerStatus.OK
    assert any(i.rule == "answerability.mixed" for i in answer.issues), answer.issues


def test_two_named_values_are_compared_with_a_figure_each(engine):
    answer = engine.ask("Which region had the higher shortage rate last month, East or West?")
    assert answer.status == AnswerStatus.OK, answer.issues
    cited = _table_citations(answer, "shortages")
    assert len(cited) == 3  # a figure for each side, the higher first, then the relation
    expected = engine.query_table(
        TableQuery(
            "shortages",
            "shortage_rate",
            group_by=("region",),
            filters=(("region", "East"), ("region", "West")),
            time_from=date(2026, 11, 1),
            time_to=date(2026, 11, 30),
        )
    )
    higher, lower = sorted(expected.rows, key=lambda row: -row[1])
    assert answer.text.index(f"region {higher[0]} ") < answer.text.index(f"region {lower[0]} ")
    difference = f"{round(higher[1], 2) - round(lower[1], 2):.2f}".rstrip("0").rstrip(".")
    assert f"is {difference} % higher than of region {lower[0]}" in answer.text, answer.text
    assert set(cited[2].rows) == set(cited[0].rows) | set(cited[1].rows)


def test_a_question_naming_a_value_the_table_lacks_gets_no_figure(engine):
    answer = engine.ask("What was the total stock held by Acme Logistics in the East region?")
    assert answer.status == AnswerStatus.NO_ANSWER
    assert not _table_citations(answer, "inventory")
    assert "Acme" in answer.issues[0].message


def test_an_unexpressible_question_gets_no_answer_with_the_reason(engine):
    answer = engine.ask("Which supplier had the highest shortage rate last month?")
    assert answer.status == AnswerStatus.NO_ANSWER
    assert answer.searches == 0 and not answer.citations
    (issue,) = answer.issues
    assert issue.kind == IssueKind.ATTRIBUTE_NOT_FOUND
    assert "supplier" in issue.message and "shortages" in issue.message


def test_a_question_about_a_table_s_rows_is_not_answered_from_a_document_about_others(engine):
    # North-1 is a warehouse of the inventory table, which has no noise measure; the
    # noise regulation shares "noise level" but says nothing of North-1.
    answer = engine.ask("What was the noise level at warehouse North-1 last month?")
    assert answer.status == AnswerStatus.NO_ANSWER and not answer.citations
    (issue,) = answer.issues
    assert issue.kind == IssueKind.ATTRIBUTE_NOT_FOUND
    assert "'inventory'" in issue.message and "North-1" in issue.message
    assert "stock" in issue.message  # the measures it does hold
    # A document that speaks of the table's value named still answers.
    seal = engine.ask("How often should the CP-200 seal be replaced?")
    assert seal.status != AnswerStatus.NO_ANSWER and seal.citations


def test_a_scoped_caller_does_not_read_the_tables(engine):
    answer = engine.ask("What is the total stock?", scope=Scope(frozenset({"manuals"})))
    assert not any(c.document_id.startswith("table:") for c in answer.citations)


def test_a_wrong_figure_from_a_table_does_not_pass_validation(engine):
    answer = engine.ask("What is the total stock of the CP-200 parts?")
    assert answer.status == AnswerStatus.OK
    validator = engine.answerer.validator
    good = Draft(answer.text, split_statements(answer.text), "test")
    assert validator.check(good, answer.evidence, answer.perception).passed
    figure = answer.text.split(" is ")[1].split(" units")[0]
    wrong_text = answer.text.replace(f"{figure} units", f"{int(figure) + 7} units")
    wrong = Draft(wrong_text, split_statements(wrong_text), "test")
    report = validator.check(wrong, answer.evidence, answer.perception)
    assert not report.passed
    # a wrong unit is no support either
    other_unit = answer.text.replace(f"{figure} units", f"{figure} days")
    draft = Draft(other_unit, (Statement(other_unit, (1,)),), "test")
    assert not validator.check(draft, answer.evidence, answer.perception).passed


def _snapshot(engine):
    tables = [(t.name, t.sha256, t.row_count) for t in engine.list_tables()]
    reader = engine.store.reader()
    names = sorted(r[0] for r in reader.execute("SELECT name FROM sqlite_master"))
    rows = {
        t: reader.execute(f'SELECT count(*), total(rowid) FROM "data_{t}"').fetchone()
        for t in ("inventory", "shortages")
    }
    return tables, names, rows, engine.store.data_version()


HOSTILE = [
    "total stock'; DROP TABLE data_inventory; --",
    'What is the total stock"; DELETE FROM data_shortages; SELECT " in the East region?',
    "total stock UNION SELECT sql FROM sqlite_master --",
    "Which model had the highest shortage rate from table_registry or documents?",
    "shortage rate per region); ATTACH DATABASE '/tmp/x.db' AS x; --",
    'stock NEAR("shortage" "rate") OR * AND -region:East',
    "What is the highest stock_qty) FROM data_inventory WHERE 1=1 OR (region",
    "highest shortage rate per model' OR '1'='1",
]


@pytest.mark.parametrize("question", HOSTILE)
def test_hostile_questions_read_only_declared_tables_and_write_nothing(engine, question):
    before = _snapshot(engine)
    answer = engine.ask(question)
    assert _snapshot(engine) == before
    for e in answer.evidence:
        if e.document.id.startswith("table:"):
            assert e.document.id in ("table:inventory", "table:shortages")
            assert "sqlite_master" not in e.query and "table_registry" not in e.query
            assert ";" not in e.query and "ATTACH" not in e.query.upper()
    # nothing of the question reaches the SQL except as bound, stored values
    for node in answer.trace.walk():
        if node.name.startswith("task table:"):
            sql = node.detail.split(" | params")[0]
            assert "DROP" not in sql and "DELETE" not in sql and "UNION" not in sql


def test_a_reloaded_table_is_seen_by_the_next_question(engine, tmp_path):
    before = engine.ask("What is the total stock?")
    assert before.status == AnswerStatus.OK
    (info,) = [t for t in engine.list_tables() if t.name == "inventory"]
    from ragcore.evaluation.sample import SAMPLE_TABLES

    rows = (SAMPLE_TABLES / "inventory.csv").read_text(encoding="utf-8").splitlines()
    smaller = tmp_path / "inventory.csv"
    smaller.write_text("\n".join(rows[:3]) + "\n", encoding="utf-8")
    try:
        engine.ingest_table(
            smaller, table="inventory", schema=SAMPLE_TABLES / "inventory.toml", replace=True
        )
        after = engine.ask("What is the total stock?")
        assert after.status == AnswerStatus.OK and not after.cached
        assert after.text != before.text
        assert len(_table_citations(after, "inventory")[0].rows) == 2
    finally:
        engine.ingest_table(
            SAMPLE_TABLES / "inventory.csv",
            table="inventory",
            schema=SAMPLE_TABLES / "inventory.toml",
            replace=True,
        )
    again = engine.ask("What is the total stock?")
    assert replace(again, trace=None, timings=None, cached=False).text == before.text


ORDERS = [  # rowid: po_number, supplier, order_date, delivery_date, qty
    ("PO-1", "Kestrel Electric", "2026-01-20", "2026-02-03", 4),  # 1
    ("PO-2", "Apex Seals", "2026-01-05", "2026-01-09", 2),  # 2
    ("PO-3", "Kestrel Electric", "2026-03-02", "2026-03-30", 9),  # 3
    ("PO-4", "Kestrel Electric", "2025-12-30", "2026-01-12", 1),  # 4
]


@pytest.mark.parametrize(
    ("question", "expected", "row"),
    [
        ("What was the earliest Kestrel Electric order in 2026, and on what date?",
         "the earliest purchase order is po number PO-1 and order date 2026-01-20", 1),
        ("When was the last order from Kestrel Electric?",
         "the latest purchase order is po number PO-3 and order date 2026-03-02", 3),
        ("What was the first Kestrel Electric order delivered in 2026?",
         "the earliest purchase order is po number PO-4 and delivery date 2026-01-12", 4),
    ],
)  # fmt: skip
def test_the_earliest_or_latest_row_asked_for_is_named_and_cited(
    engine, tmp_path, question, expected, row
):
    (tmp_path / "orders.toml").write_text(ORDERS_SCHEMA, encoding="utf-8")
    lines = [
        "po_number,supplier,order_date,delivery_date,qty",
        *(",".join(map(str, r)) for r in ORDERS),
    ]
    (tmp_path / "orders.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    engine.ingest_table(
        tmp_path / "orders.csv", table="purchase_orders", schema=tmp_path / "orders.toml",
        replace=True,
    )  # fmt: skip
    answer = engine.ask(question)
    assert answer.status == AnswerStatus.OK, answer.issues
    assert expected in answer.text
    assert [c.rows for c in _table_citations(answer, "purchase_orders")] == [(row,)]


ISSUES_SCHEMA = """
description = "Spare-parts issues from the stores"
time_column = "issue_date"
[columns]
issue_date = "date"
site = "text"
quantity = "integer"
unit_cost = "real"
[dimensions.site]
[measures.quantity]
unit = "units"
[measures.issue_value]
expression = "quantity * unit_cost"
unit = "USD"
aggregation = "sum"
synonyms = ["issue value", "spend", "cost"]
"""


def test_a_table_answer_is_not_judged_by_a_document_attribute_word(tmp_path):
    # "cost" is the documents' price attribute and this table's issue value: the figure
    # of the measure the question named is the answer, not an answer without a price.
    (tmp_path / "issues.toml").write_text(ISSUES_SCHEMA, encoding="utf-8")
    rows = [
        "issue_date,site,quantity,unit_cost",
        "2026-02-01,Kestrel,2,10.5",
        "2026-03-01,Kestrel,1,4",
    ]
    (tmp_path / "issues.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    with Engine(Config(data_dir=tmp_path / "data"), clock=lambda: TODAY) as engine:
        engine.ingest_table(
            tmp_path / "issues.csv", table="stores_issues", schema=tmp_path / "issues.toml"
        )
        answer = engine.ask("What was the spare parts cost at Kestrel in 2026?")
    assert answer.status == AnswerStatus.OK, answer.issues
    assert "25" in answer.text and _table_citations(answer, "stores_issues")
