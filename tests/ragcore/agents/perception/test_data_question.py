"""Recognising data questions: the sample tables' schemas and values, read offline."""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path

import pytest
from conftest import ORDERS_SCHEMA, TOP3_EAST_LAST_MONTH

from ragcore.agents.perception import PerceptionAgent, TimeConstraint
from ragcore.agents.perception import data_question as dq
from ragcore.agents.perception.data_question import (
    MAX_LIMIT,
    DataQuestion,
    Role,
    Unexpressible,
    recognise,
)
from ragcore.errors import ConfigError, InvalidInputError, InvalidQueryError
from ragcore.tabular import Aggregation, Order, TableQuery, load_schema, parse_schema

TABLES = Path(__file__).resolve().parents[4] / "ragcore" / "evaluation" / "sample_kb" / "tables"
TODAY = date(2026, 12, 3)
SCHEMAS = [load_schema(TABLES / "inventory.toml"), load_schema(TABLES / "shortages.toml")]


def _values(schema) -> dict[str, list[str]]:
    with open(TABLES / f"{schema.name}.csv", encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    return {d.column: sorted({row[d.column] for row in rows}) for d in schema.dimensions}


VALUES = {schema.name: _values(schema) for schema in SCHEMAS}
AGENT = PerceptionAgent(nlp=None, clock=lambda: TODAY)


def read(question: str, schemas=SCHEMAS, values=VALUES):
    """What recognise makes of ``question``, with the time perception reads from it."""
    time = AGENT.run(question).constraints.time
    return recognise(question, schemas, today=TODAY, time=time, values=values)


def query(question: str, **kwargs) -> TableQuery:
    found = read(question, **kwargs)
    assert isinstance(found, DataQuestion), found
    return found.query


def reason(question: str, **kwargs) -> str:
    found = read(question, **kwargs)
    assert isinstance(found, Unexpressible), found
    return found.reason


# --- questions the tables answer ------------------------------------------------------


def test_the_issue_example_ranks_models_in_a_region_last_month():
    found = read(
        "Which three models had the highest spare-part shortage rate in the East region last month?"
    )
    assert isinstance(found, DataQuestion)
    assert found.query == TOP3_EAST_LAST_MONTH
    assert not found.needs_text
    roles = {m.role: m for m in found.matched}
    assert roles[Role.MEASURE].text == "shortage rate"
    assert roles[Role.FILTER].reads == "region = East"
    assert roles[Role.TIME].text == "last month"


def test_how_many_days_at_current_stock_is_the_derived_measure_for_the_part():
    q = query("At current stock, how many days will P/N 88-2041-09 last?")
    assert (q.table, q.measure) == ("inventory", "days_of_cover")
    assert q.filters == (("part_number", "88-2041-09"),)
    assert q.aggregation is None  # the measure's own (the first warehouse to run out)
    assert (q.group_by, q.order, q.limit) == ((), None, None)


@pytest.mark.parametrize(
    ("question", "measure", "aggregation", "group_by", "order", "limit"),
    [
        ("Which warehouse has the lowest days of cover?", "days_of_cover", None,
         ("warehouse",), Order.ASC, 1),
        ("Top 3 parts by stock value", "stock_value", None, ("part_number",), Order.DESC, 3),
        ("What is the total stock per region?", "stock_qty", Aggregation.SUM, ("region",),
         None, None),
        ("For each model, what is the average unit cost?", "unit_cost", Aggregation.AVG,
         ("model",), None, None),
        ("Bottom 2 models by fill rate", "fill_rate", None, ("model",), Order.ASC, 2),
        ("The five highest stock-out rates per area", "shortage_rate", None, ("region",),
         Order.DESC, 5),
        ("Which models had the most backorders?", "short_orders", None, ("model",),
         Order.DESC, None),
        ("the region with the lowest fill rate", "fill_rate", None, ("region",), Order.ASC, 1),
        ("Which of the regions had the lowest shortage rate?", "shortage_rate", None,
         ("region",), Order.ASC, 1),
        ("Total orders per region and model", "orders", Aggregation.SUM,
         ("region", "model"), None, None),
        ("orders by region, part", "orders", None, ("region", "part_number"), None, None),
        ("What was the highest shortage rate?", "shortage_rate", Aggregation.MAX, (), None,
         None),
        ("What was the maximum shortage rate per zone?", "shortage_rate", Aggregation.MAX,
         ("region",), None, None),
        ("Which territory had the maximum shortage rate?", "shortage_rate", Aggregation.MAX,
         ("region",), Order.DESC, 1),
        ("What are the Stock-Out Rates per Machine?", "shortage_rate", None, ("model",),
         None, None),
    ],
)  # fmt: skip
def test_aggregations_groupings_and_rankings(
    question, measure, aggregation, group_by, order, limit
):
    q = query(question)
    assert (q.measure, q.aggregation, q.group_by, q.order, q.limit) == (
        measure,
        aggregation,
        group_by,
        order,
        limit,
    )
    assert (q.time_from, q.time_to) == (None, None)


def test_filters_are_the_stored_values_whatever_the_spelling_in_the_question():
    q = query("How many days of cover does the east-1 warehouse have for the Mechanical Seal Kit?")
    assert q.filters == (("warehouse", "East-1"), ("part_name", "mechanical seal kit"))
    q = query("shortage rate of the cp-200 in the west")
    assert q.filters == (("model", "CP-200"), ("region", "West"))
    assert query("stock of 88-2041-09").filters == query("stock of P/N 88-2041-09").filters


def test_the_time_window_is_the_interval_perception_read():
    q = query("What was the average shortage rate per region in 2025?")
    assert (q.time_from, q.time_to) == (date(2025, 1, 1), date(2025, 12, 31))
    q = query("How many orders did the CP-200 get since March 2026?")
    assert (q.measure, q.time_from, q.time_to) == ("orders", date(2026, 3, 1), None)


def test_the_current_stock_is_the_latest_and_the_total_of_an_additive_measure_sums():
    assert query("Current stock of 88-2041-09?").aggregation is Aggregation.LATEST
    assert query("total orders of the HP-400").aggregation is Aggregation.SUM


def test_a_question_that_also_asks_for_a_procedure_needs_text():
    found = read("How many shortages did the CP-200 have in 2025 and how do I replace the seal?")
    assert isinstance(found, DataQuestion) and found.needs_text
    assert found.query.measure == "short_orders"
    assert found.query.filters == (("model", "CP-200"),)
    found = read("Which of the regions had the lowest shortage rate, and what causes shortages?")
    assert isinstance(found, DataQuestion) and found.needs_text
    assert found.query.measure == "shortage_rate"  # not the "shortages" of the text part
    found = read("What is the stock of 88-2041-09 and how do I clear E4027?")
    assert isinstance(found, DataQuestion) and found.needs_text  # E4027: the manual's
    assert found.query.filters == (("part_number", "88-2041-09"),)
    assert not read("What is the shortage rate of the CP-200?").needs_text


@pytest.mark.parametrize(
    "question",
    [
        "What does error E4027 mean?",
        "How do I replace the mechanical seal on the CP-200?",
        "What is the maximum pressure of the HP-400 in the East plant?",
        "Hello!",
    ],
)
def test_a_question_naming_no_measure_is_no_data_question(question):
    assert read(question) is None


def test_the_table_whose_measure_is_named_most_specifically_is_read():
    assert query("shortage rate").table == "shortages"  # "shortage" alone names it too
    assert query("how many shortages?").measure == "short_orders"  # as spelled, not folded
    assert query("stock value in the North").table == "inventory"


@pytest.mark.parametrize(
    ("question", "time_from", "time_to"),
    [
        ("How many shortages were there in the first quarter of 2026?", "2026-01-01",
         "2026-03-31"),
        ("Total orders last quarter", "2026-07-01", "2026-09-30"),
        ("Total orders in H1 2026", "2026-01-01", "2026-06-30"),
        ("Total orders between June and August 2026", "2026-06-01", "2026-08-31"),
        ("Total orders from July to September", "2026-07-01", "2026-09-30"),
        ("Total orders since March", "2026-03-01", None),
        # Month ranges without "from", days in words, a quarter or half named by its
        # place in a year, the start of a period (issue 28).
        ("Total orders in July–September 2026", "2026-07-01", "2026-09-30"),
        ("Total orders in Jul-Sep 2025", "2025-07-01", "2025-09-30"),
        ("Total orders June to August 2026", "2026-06-01", "2026-08-31"),
        ("Total orders from 1 March 2026 to 31 May 2026", "2026-03-01", "2026-05-31"),
        ("Total orders in the last quarter of 2025", "2025-10-01", "2025-12-31"),
        ("Total orders in the second half of last year", "2025-07-01", "2025-12-31"),
        ("Total orders since the start of 2026", "2026-01-01", None),
    ],
)  # fmt: skip
def test_periods_become_the_time_window_whole(question, time_from, time_to):
    found = query(question)
    window = (found.time_from, found.time_to)
    assert window == (date.fromisoformat(time_from), time_to and date.fromisoformat(time_to))


# --- data questions the schema cannot express -----------------------------------------


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Total shortage rate last month", "cannot be given as sum"),
        ("What is the shortage rate by supplier?", "no dimension 'supplier'"),
        ("Which supplier had the highest shortage rate?", "no dimension 'supplier'"),
        ("What was the shortage rate in Nordic region last month?", "no region 'Nordic'"),
        ("Stock of the CP-999?", "no model 'CP-999'"),
        ("What is the shortage rate of part 99-9999-99?", "no part_number '99-9999-99'"),
        ("What is the stock of E4027 parts?", "cannot filter by 'E4027'"),
        ("Which parts had a shortage rate above 5% last month?", "condition on the figure"),
        ("models with more than 10 backorders", "condition on the figure"),
        ("What is the current shortage rate of the HP-400?", "say which"),
        ("shortage rate next month", "'next month' is after today"),
        # Monthly figures cannot answer for part of a month: declined, not the month's.
        ("Total orders in week 20 of 2026", "'in week 20 of 2026' is not whole months"),
        ("Total orders in 2026-W20", "'in 2026-W20' is not whole months"),
        ("Total orders since 15 March 2026", "'since 15 March 2026' is not whole months"),
        ("Total orders in the last hour", "which period 'last hour'"),
        ("How many order lines were short last month?", "nothing for 'short'"),
        ("How many order lines did Acme Corp get last month?", "nothing named 'Acme Corp'"),
        ("What is the shortage rate for the CP-200 in 2030?", "after today"),
        ("Top 1000 parts by stock", f"1 to {MAX_LIMIT} rows"),
        ("the three highest shortage rates", "say what to rank"),
        ("stock and daily usage of 88-2041-09", "several measures"),
        ("which model has the highest and the lowest shortage rate", "highest and the lowest"),
    ],
)
def test_what_the_schema_cannot_express_gets_the_reason(question, expected):
    found = read(question)
    assert isinstance(found, Unexpressible), found
    assert expected in found.reason
    assert found.table is not None and found.reason.startswith(f"table {found.table!r}")


def test_a_time_window_on_a_table_without_dates_is_unexpressible():
    schema = parse_schema(
        """
        description = "Parts catalogue"
        [columns]
        part = "text"
        price = "real"
        [dimensions.part]
        [measures.price]
        aggregation = "avg"
        """,
        "catalogue.toml",
        default_name="catalogue",
    )
    last_year = TimeConstraint(date(2025, 1, 1), date(2025, 12, 31), "last year")
    found = recognise("average price last year", [schema], today=TODAY, time=last_year)
    assert isinstance(found, Unexpressible) and "no dated figures" in found.reason
    found = recognise("current average price", [schema], today=TODAY, time=None)
    assert isinstance(found, DataQuestion)  # "current": the table holds nothing else
    assert found.query == TableQuery("catalogue", "price", Aggregation.AVG)


def test_without_values_no_filter_is_guessed():
    assert "no model 'CP-200'" not in reason("stock of the CP-200", values={})
    assert "cannot filter by 'CP-200'" in reason("stock of the CP-200", values={})
    assert query("total stock", values={}).filters == ()


# --- hostile questions ----------------------------------------------------------------

HOSTILE = [
    "shortage rate'; DROP TABLE data_shortages; --",
    "Robert'); DROP TABLE data_inventory;-- stock",
    'stock" OR 1=1 --',
    "stock per region UNION SELECT * FROM sqlite_master",
    "total stock by (SELECT password FROM users)",
    "shortage* NEAR(rate) AND region:East",
    '"shortage rate" OR "stock" -region',
    "stock_qty; ATTACH DATABASE '/tmp/x.db' AS x",
    "shortage rate per region; DELETE FROM data_shortages WHERE 1",
    "top 3 models by shortage rate in the East' OR '1'='1",
    "stock of P/N 88-2041-09'--",
    "which data_inventory.stock_qty is highest per model/**/",
    "shortage rate in region = 'East' OR region LIKE '%'",
    "stock for warehouse East-1\x00; VACUUM",
]


@pytest.mark.parametrize("question", HOSTILE)
def test_hostile_questions_yield_only_schema_identifiers_and_stored_values(question):
    found = read(question)
    if found is None or isinstance(found, Unexpressible):
        return
    q = found.query
    schema = next(s for s in SCHEMAS if s.name == q.table)
    assert q.measure in {m.name for m in schema.measures}
    dimensions = {d.column for d in schema.dimensions}
    assert set(q.group_by) <= dimensions
    for column, value in q.filters:
        assert column in dimensions and value in VALUES[q.table][column]
    assert q.limit is None or 1 <= q.limit <= MAX_LIMIT


def test_hostile_questions_do_reach_a_query_so_the_test_above_checks_something():
    readings = [read(q) for q in HOSTILE]
    # The others are mostly declined, naming a word no part of the query reads ("DROP").
    assert sum(isinstance(r, DataQuestion) for r in readings) >= len(HOSTILE) // 3
    q = query("top 3 models by shortage rate in the East' OR '1'='1")
    assert q.filters == (("region", "East"),) and q.limit == 3


def test_the_same_question_always_reads_the_same():
    question = "Which three models had the highest shortage rate in the East region last month?"
    assert read(question) == read(question)


# --- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "expected"),
    [(None, "must be text"), ("   ", "empty"), ("stock " * 500, "more than 2000")],
)
def test_a_bad_question_is_an_invalid_query_error(question, expected):
    with pytest.raises(InvalidQueryError, match=expected):
        recognise(question, SCHEMAS, today=TODAY, time=None)


@pytest.mark.parametrize(
    ("schemas", "values", "expected"),
    [
        ("inventory", None, "sequence of TableSchema"),
        ([{"name": "inventory"}], None, "TableSchema objects"),
        ([SCHEMAS[0], SCHEMAS[0]], None, "same table"),
        (SCHEMAS, {"orders": {}}, "table 'orders', which is not among the schemas"),
        (SCHEMAS, {"inventory": {"stock_qty": ["1"]}}, "no dimension of the table"),
        (SCHEMAS, {"inventory": {"region": "East"}}, "must be a sequence"),
        (SCHEMAS, {"inventory": {"region": [None]}}, "values are str or numbers"),
        (SCHEMAS, ["inventory"], "must map a table name"),
    ],
)
def test_bad_schemas_or_values_are_an_invalid_input_error(schemas, values, expected):
    with pytest.raises(InvalidInputError, match=expected):
        recognise("total stock", schemas, today=TODAY, time=None, values=values)


def test_a_time_that_is_no_time_constraint_is_refused():
    with pytest.raises(InvalidInputError, match="TimeConstraint"):
        recognise("total stock", SCHEMAS, today=TODAY, time="last month")  # type: ignore[arg-type]


def test_a_broken_rules_file_is_a_config_error_naming_the_key(tmp_path, monkeypatch):
    broken = tmp_path / "data_question.toml"
    broken.write_text(
        dq.DATA_RULES.read_text(encoding="utf-8").replace('sum = ["total"', 'total = ["total"')
    )
    monkeypatch.setattr(dq, "DATA_RULES", broken)
    dq._words.cache_clear()
    try:
        with pytest.raises(ConfigError, match="aggregations.*'total'"):
            recognise("total stock", SCHEMAS, today=TODAY, time=None)
    finally:
        monkeypatch.undo()
        dq._words.cache_clear()
    assert isinstance(read("total stock"), DataQuestion)


@pytest.mark.parametrize(
    "question",
    [
        "How much does a GX-500 generator cost?",  # the machine's price, not a part's
        "What is Borealis Pumps' share price today?",
        "I need to order an air filter for the AC-110, what's the part number?",
    ],
)
def test_an_everyday_measure_word_alone_is_a_question_about_the_equipment(question):
    assert read(question) is None


def test_an_everyday_measure_word_with_a_grouping_or_dimension_is_a_data_question():
    assert query("What is the average unit cost per region?").group_by == ("region",)
    assert query("What does P/N 88-2041-09 cost?").filters


def test_how_many_things_in_stock_is_the_stock_not_a_count_of_rows():
    q = query("How many parts are in stock in the East?")
    assert q.measure == "stock_qty" and q.aggregation is None


# --- a work-order log: several cost measures, a row count, look-alike assets ----------

WORK_ORDERS = parse_schema(
    """
    description = "Closed maintenance work orders"
    time_column = "opened_date"
    [columns]
    opened_date = "date"
    asset_id = "text"
    site = "text"
    work_type = "text"
    supplier = "text"
    labour_cost = "real"
    parts_cost = "real"
    days_to_close = "integer"
    [dimensions.asset_id]
    synonyms = ["asset"]
    [dimensions.site]
    synonyms = ["plant"]
    [dimensions.work_type]
    synonyms = ["maintenance type"]
    [dimensions.supplier]
    [measures.labour_cost]
    synonyms = ["labour cost"]
    [measures.parts_cost]
    synonyms = ["parts cost"]
    [measures.total_cost]
    expression = "labour_cost + parts_cost"
    synonyms = ["total cost", "maintenance cost", "cost"]
    [measures.days_to_close]
    aggregation = "avg"
    synonyms = ["days to close", "time to close"]
    [measures.work_order_count]
    expression = "1"
    synonyms = ["work orders", "orders", "number of work orders"]
    """,
    "work_orders.toml",
    default_name="work_orders",
)
WORK_ORDER_VALUES = {
    "work_orders": {
        "asset_id": ["P-101", "P-1010", "C-12"],
        "site": ["Riverside", "Riverside North", "Hillcrest"],
        "work_type": ["preventive", "corrective", "emergency"],
        "supplier": ["Apex Seals", "Norden Bearings"],
    }
}


def read_work_orders(question: str):
    time = AGENT.run(question).constraints.time
    return recognise(question, [WORK_ORDERS], today=TODAY, time=time, values=WORK_ORDER_VALUES)


def test_words_another_measure_took_name_no_measure_apart():
    found = read_work_orders("What was the total parts cost at Riverside in 2025?")
    assert isinstance(found, DataQuestion), found
    assert found.query.measure == "parts_cost"  # not "total ... cost", the derived total


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # a value named with its column that the table does not hold
        ("What was the total labour cost of the site 7 orders?", "no site 'site 7'"),
        # a supplier the table does not hold is no figure over the others
        ("How much parts cost did we book with Siemens in 2026?", "nothing named 'Siemens'"),
        ("What was the labour cost of open work orders last month?", "nothing for 'open'"),
    ],
)
def test_a_constraint_no_part_of_the_query_reads_declines_the_question(question, expected):
    found = read_work_orders(question)
    assert isinstance(found, Unexpressible), found
    assert expected in found.reason


@pytest.mark.parametrize(
    "question",
    [
        "What was the total parts cost across all sites in H1 2026?",
        "How much labour cost did we book at Riverside last quarter?",
        "Which site spent the most on parts cost in 2025?",
        "What was the average days to close of emergency work orders since March?",
        "How many emergency work orders were opened at Hillcrest in 2025?",
    ],
)
def test_words_of_asking_and_of_the_tables_own_description_decline_nothing(question):
    assert isinstance(read_work_orders(question), DataQuestion), read_work_orders(question)


@pytest.mark.parametrize(
    ("question", "order"),
    [
        ("Compare the labour cost of P-101 vs P-1010 in H1 2026.", None),
        ("Riverside or Hillcrest: which site had the higher labour cost in 2025?", Order.DESC),
        ("Which had fewer work orders last quarter, P-101 or P-1010?", Order.ASC),
    ],
)
def test_named_values_of_one_column_are_compared_with_a_figure_each(question, order):
    found = read_work_orders(question)
    assert isinstance(found, DataQuestion), found
    column = found.query.filters[0][0]
    assert [c for c, _ in found.query.filters] == [column, column]
    assert found.query.group_by == (column,)
    assert (found.query.order, found.query.limit) == (order, None)  # every side shown


def test_measures_named_in_parentheses_gloss_the_one_asked_for():
    found = read_work_orders("Compare the total cost (labour plus parts cost) of P-101 vs P-1010.")
    assert isinstance(found, DataQuestion), found
    assert found.query.measure == "total_cost"


def test_a_measure_named_as_itself_wins_over_one_named_by_a_synonym():
    # "orders" is a synonym of the row count; "labour cost" is the measure's own name.
    found = read_work_orders("What was the labour cost of the orders at Riverside in 2025?")
    assert isinstance(found, DataQuestion), found
    assert found.query.measure == "labour_cost"


def test_the_time_column_groups_and_ranks_like_a_dimension():
    q = query("In which month of 2025 did the CP-200 have its highest shortage rate?")
    assert (q.group_by, q.order, q.limit) == (("month",), Order.DESC, 1)
    assert query("Show the shortage rate per month for the CP-200").group_by == ("month",)


def test_the_most_recently_opened_order_is_the_latest_row_not_a_ranking_of_counts():
    # "most" before an adverb of time is the latest row, as "the most recent" is; read as
    # "the most orders" it ranked the opening dates by their count (answered "ok").
    found = read_work_orders("What was the most recently opened emergency work order at Hillcrest?")
    assert isinstance(found, DataQuestion), found
    q = found.query
    assert (q.measure, q.aggregation) == ("work_order_count", Aggregation.LATEST)
    assert set(q.filters) == {("site", "Hillcrest"), ("work_type", "emergency")}


def test_a_word_of_a_dimensions_names_before_it_is_part_of_it():
    found = read_work_orders("What was the labour cost per maintenance work type in 2025?")
    assert isinstance(found, DataQuestion), found
    assert found.query.group_by == ("work_type",)


def test_a_share_is_the_named_part_of_every_group():
    found = read_work_orders("What proportion of the labour cost in 2025 went to Riverside North?")
    assert isinstance(found, DataQuestion), found
    q = found.query
    assert (q.measure, q.aggregation, q.group_by) == ("labour_cost", Aggregation.SHARE, ("site",))
    assert q.filters == (("site", "Riverside North"),)
    ranked = read_work_orders("Which plant had the largest share of parts cost?")
    assert isinstance(ranked, DataQuestion), ranked
    q = ranked.query
    assert (q.aggregation, q.group_by, q.order, q.limit) == (
        Aggregation.SHARE,
        ("site",),
        Order.DESC,
        1,
    )


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What share of the labour cost at Riverside was corrective work?", "a part of"),
        ("What share of the labour cost did we have in 2025?", "a part of"),
        ("What share of the days to close was at Hillcrest?", "cannot be given as share"),
    ],
)
def test_a_share_of_no_single_part_or_of_an_average_is_declined(question, expected):
    found = read_work_orders(question)
    assert isinstance(found, Unexpressible) and expected in found.reason, found


def test_periods_named_apart_are_compared_with_a_figure_each():
    question = "Compare the labour cost at Hillcrest in Q1 2026 vs Q2 2026."
    periods = AGENT.run(question).constraints.periods
    found = recognise(
        question, [WORK_ORDERS], today=TODAY, time=periods[0], values=WORK_ORDER_VALUES,
        periods=periods,
    )  # fmt: skip
    assert isinstance(found, DataQuestion), found
    q = found.query
    assert [(p.label, p.start, p.end) for p in q.periods] == [
        ("Q1 2026", date(2026, 1, 1), date(2026, 3, 31)),
        ("Q2 2026", date(2026, 4, 1), date(2026, 6, 30)),
    ]
    assert (q.time_from, q.time_to, q.filters) == (None, None, (("site", "Hillcrest"),))
    ranked = "In which year was the parts cost higher, 2024 or 2025?"
    periods = AGENT.run(ranked).constraints.periods
    found = recognise(ranked, [WORK_ORDERS], today=TODAY, time=periods[0], periods=periods)
    assert isinstance(found, DataQuestion), found
    assert (len(found.query.periods), found.query.order) == (2, Order.DESC)
    future = "Compare the labour cost in 2026 vs 2027."
    periods = AGENT.run(future).constraints.periods
    found = recognise(future, [WORK_ORDERS], today=TODAY, time=periods[0], periods=periods)
    assert isinstance(found, Unexpressible) and "after today" in found.reason


def test_rows_named_without_a_count_ask_for_no_count():
    found = read_work_orders("How much did we spend on emergency work orders at Riverside in 2026?")
    assert isinstance(found, Unexpressible) and "asks for no count" in found.reason, found
    for counted in (
        "How many emergency work orders were opened at Riverside in 2026?",
        "What were the total work orders at Hillcrest in 2025?",
        "Which site had the most work orders in 2025?",
    ):
        found = read_work_orders(counted)
        assert isinstance(found, DataQuestion) and found.query.measure == "work_order_count", (
            counted,
            found,
        )


MONITORING = parse_schema(
    """
    description = "Monthly condition monitoring per asset"
    time_column = "month"
    [columns]
    month = "month"
    asset = "text"
    avg_temp = "real"
    max_temp = "real"
    [dimensions.asset]
    [measures.avg_temp]
    aggregation = "avg"
    synonyms = ["bearing temperature", "temperature"]
    [measures.max_temp]
    aggregation = "max"
    synonyms = ["maximum bearing temperature", "highest temperature"]
    """,
    "monitoring.toml",
    default_name="monitoring",
)


def read_monitoring(question: str) -> DataQuestion:
    values = {"monitoring": {"asset": ["P-101", "C-12"]}}
    found = recognise(question, [MONITORING], today=TODAY, time=None, values=values)
    assert isinstance(found, DataQuestion), found
    return found


def test_an_extreme_word_naming_the_measure_ranks_which_asks():
    q = read_monitoring("Which asset had the highest temperature?").query
    assert (q.measure, q.group_by, q.order, q.limit) == ("max_temp", ("asset",), Order.DESC, 1)


def test_a_name_opening_with_an_extreme_word_is_named_by_any_word_of_that_extreme():
    # "maximum bearing temperature" is the "highest bearing temperature", not the
    # highest of the average bearing temperatures
    q = read_monitoring("What was the highest bearing temperature of P-101?").query
    assert (q.measure, q.aggregation, q.filters) == ("max_temp", None, (("asset", "P-101"),))
    q = read_monitoring("Which asset had the highest average bearing temperature?").query
    assert (q.measure, q.order, q.limit) == ("avg_temp", Order.DESC, 1)


def test_a_date_column_groups_by_its_month_quarter_or_year_and_declines_other_periods():
    q = read_work_orders("What was the labour cost per month in Q3 2026?").query
    assert q.group_by == ("month",) and (q.time_from, q.time_to) == (
        date(2026, 7, 1),
        date(2026, 9, 30),
    )
    q = read_work_orders("In which year did Riverside have the highest labour cost?").query
    assert (q.group_by, q.order, q.limit) == (("year",), Order.DESC, 1)
    q = read_work_orders("What was the labour cost per quarter in 2025?").query
    assert q.group_by == ("quarter",)  # issue 28: the quarter of opened_date
    found = read_work_orders("What was the labour cost per week in 2025?")
    assert isinstance(found, Unexpressible) and "per week" in found.reason, found


def test_a_dimension_within_another_is_grouped_with_it():
    schema = parse_schema(
        """
        description = "Monthly energy per site and line"
        time_column = "month"
        [columns]
        month = "month"
        site = "text"
        line = "text"
        kwh = "real"
        [dimensions.site]
        [dimensions.line]
        within = "site"
        synonyms = ["production line"]
        [measures.kwh]
        synonyms = ["electricity"]
        """,
        "energy.toml",
        default_name="energy",
    )
    values = {"energy": {"site": ["Riverside", "Hillcrest"], "line": ["Line 1", "Line 2"]}}

    def read(question: str) -> TableQuery:
        found = recognise(question, [schema], today=TODAY, time=None, values=values)
        assert isinstance(found, DataQuestion), found
        return found.query

    q = read("Which production line used the least electricity?")
    assert (q.group_by, q.order, q.limit) == (("site", "line"), Order.ASC, 1)
    assert read("How much electricity did Line 2 use?").group_by == ("site",)
    assert read("How much electricity did Line 2 at Hillcrest use?").group_by == ()


def test_a_value_named_in_the_plural_is_read_unless_another_folds_the_same():
    values = {"work_orders": {"work_type": ["corrective", "emergency"], "site": ["Riverside"]}}
    values["work_orders"]["asset_id"] = ["boiler", "cooling fan", "seal", "seals"]
    found = recognise(
        "What was the labour cost of cooling fans in 2025?",
        [WORK_ORDERS], today=TODAY, time=None, values=values,
    )  # fmt: skip
    assert isinstance(found, DataQuestion), found
    assert found.query.filters == (("asset_id", "cooling fan"),)
    exact = recognise(
        "What was the labour cost of seals?", [WORK_ORDERS], today=TODAY, time=None, values=values
    )
    assert isinstance(exact, DataQuestion) and exact.query.filters == (("asset_id", "seals"),)


def test_a_measure_per_a_word_of_its_own_name_is_a_ratio_the_table_lacks():
    found = read_work_orders("What was the parts cost per part at Riverside in 2025?")
    assert isinstance(found, Unexpressible), found
    assert "no parts_cost per 'part'" in found.reason


def test_a_dimension_listed_is_a_figure_each_even_after_all():
    for question in (
        "List the suppliers by labour cost in 2025.",
        "Rank all sites by parts cost in 2025.",
    ):
        found = read_work_orders(question)
        assert isinstance(found, DataQuestion), (question, found)
        assert len(found.query.group_by) == 1, (question, found.query)
    found = read_work_orders("What was the parts cost across all sites in 2025?")
    assert isinstance(found, DataQuestion) and found.query.group_by == ()


def test_per_a_dimension_with_a_value_in_every_row_is_an_average_over_rows():
    identifiers = {"work_orders": frozenset({"asset_id"})}  # as if each row had its own

    def read(question: str) -> TableQuery:
        found = recognise(
            question, [WORK_ORDERS], today=TODAY, time=None, values=WORK_ORDER_VALUES,
            identifiers=identifiers,
        )  # fmt: skip
        assert isinstance(found, DataQuestion), found
        return found.query

    q = read("What was the labour cost per asset at Riverside?")
    assert (q.aggregation, q.group_by) == (Aggregation.AVG, ())
    assert read("What was the labour cost per site?").group_by == ("site",)
    assert read("Which asset had the highest labour cost?").group_by == ("asset_id",)


def test_a_word_describing_the_rows_is_a_constraint_even_if_a_measure_uses_it():
    schema = parse_schema(
        """
        description = "Purchase order lines"
        time_column = "order_date"
        [columns]
        order_date = "date"
        supplier = "text"
        delay = "real"
        [dimensions.supplier]
        [measures.delay]
        aggregation = "avg"
        synonyms = ["days late", "delivery delay"]
        """,
        "purchase_orders.toml",
        default_name="purchase_orders",
    )
    values = {"purchase_orders": {"supplier": ["Tanaka Drives"]}}

    def read(question: str):
        return recognise(question, [schema], today=TODAY, time=None, values=values)

    late = read("What was the average delay of late orders?")
    assert isinstance(late, Unexpressible) and "'late'" in late.reason, late
    assert isinstance(read("What was the average delay of Tanaka Drives deliveries?"), DataQuestion)
    assert isinstance(read("What was the average delay of all purchase orders?"), DataQuestion)


@pytest.mark.parametrize(
    "question",
    [
        "Which site holds the highest labour cost in 2025?",  # a verb after a dimension
        "What labour cost was booked for P-101 pumps in 2025?",  # a value's description
        "How much labour cost did we receive from Riverside in 2025?",  # after a subject
        "What was the labour cost over the whole period in the table?",  # words of asking
    ],
)
def test_verbs_value_descriptions_and_words_of_asking_constrain_nothing(question):
    assert isinstance(read_work_orders(question), DataQuestion), read_work_orders(question)


def test_a_value_of_a_measure_another_is_computed_from_names_the_other_apart():
    # "value of stock" is the stock value, computed from the stock "in stock" names
    q = query("What is the total value of all spare parts in stock?")
    assert q.measure == "stock_value", q


def test_the_rows_name_names_the_measure_counting_them():
    schema = parse_schema(
        """
        description = "Purchase order lines"
        [columns]
        supplier = "text"
        qty = "integer"
        [dimensions.supplier]
        [measures.qty]
        [measures.order_count]
        expression = "1"
        synonyms = ["number of order lines"]
        """,
        "purchase_orders.toml",
        default_name="purchase_orders",
    )
    values = {"purchase_orders": {"supplier": ["Apex Seals", "Kestrel"]}}
    found = recognise(
        "Which supplier had the most orders?", [schema], today=TODAY, time=None, values=values
    )
    assert isinstance(found, DataQuestion), found
    assert (found.query.measure, found.query.group_by) == ("order_count", ("supplier",))


@pytest.mark.parametrize(
    "question",
    [
        "What was the labour cost of work orders not at Riverside in 2025?",
        "What was the labour cost except emergency work in 2025?",
        "What was the parts cost of non-emergency work orders?",
    ],
)
def test_a_question_leaving_rows_out_is_declined_not_answered_for_them(question):
    found = read_work_orders(question)
    assert isinstance(found, Unexpressible) and "cannot leave rows out" in found.reason, found


ORDERS = parse_schema(
    ORDERS_SCHEMA,
    "purchase_orders.toml",
    default_name="purchase_orders",
)


def read_orders(question: str, schemas=(ORDERS,)):
    time = AGENT.run(question).constraints.time
    values = {"purchase_orders": {"supplier": ["QuickFix Industrial", "Kestrel"]}}
    identifiers = {"purchase_orders": frozenset({"po_number"})}
    return recognise(
        question, list(schemas), today=TODAY, time=time, values=values, identifiers=identifiers
    )


@pytest.mark.parametrize(
    ("question", "aggregation"),
    [
        ("What was the earliest QuickFix Industrial order placed in 2026, and on what date?",
         Aggregation.EARLIEST),
        ("When was the last order from Kestrel?", Aggregation.LATEST),
        ("Which was the first order of 2025?", Aggregation.EARLIEST),
        ("Show me the most recent purchase order.", Aggregation.LATEST),
    ],
)  # fmt: skip
def test_the_earliest_or_latest_rows_named_is_their_row_by_identifier_and_time(
    question, aggregation
):
    found = read_orders(question)
    assert isinstance(found, DataQuestion), found
    assert found.query.measure == "order_count" and found.query.aggregation is aggregation
    assert found.query.group_by == ("po_number", "order_date")


def test_a_count_of_rows_in_a_period_named_first_is_no_row_request():
    found = read_orders("How many orders did Kestrel get in the first quarter of 2026?")
    assert isinstance(found, DataQuestion), found
    assert found.query.aggregation is None and found.query.group_by == ()
    assert (found.query.time_from, found.query.time_to) == (date(2026, 1, 1), date(2026, 3, 31))


def test_of_two_tables_the_one_holding_the_values_named_is_read():
    # shortages names "order lines" more specifically; only purchase_orders holds the
    # supplier, so its reading (or its reason) is the one given
    question = "How many order lines did QuickFix Industrial have in 2026?"
    found = read_orders(question, schemas=(SCHEMAS[1], ORDERS))
    assert isinstance(found, DataQuestion) and found.query.table == "purchase_orders", found
    reason = read_orders("What were the orders of QuickFix Industrial?", (SCHEMAS[1], ORDERS))
    assert isinstance(reason, Unexpressible) and reason.table == "purchase_orders", reason


def test_a_row_asked_for_also_gives_the_columns_the_question_names():
    found = read_orders("Who was the supplier of the most recent order?")
    assert isinstance(found, DataQuestion), found
    assert found.query.group_by == ("po_number", "supplier", "order_date")
    named = read_orders("When was the last order from supplier Kestrel?")
    assert isinstance(named, DataQuestion) and named.query.group_by == ("po_number", "order_date")


JOBS = parse_schema(
    """
    description = "Closed maintenance jobs: dates opened and closed"
    time_column = "opened_date"
    [columns]
    wo_number = "text"
    asset_class = "text"
    site = "text"
    opened_date = "date"
    closed_date = "date"
    hours = "real"
    [dimensions.wo_number]
    synonyms = ["ticket", "job number"]
    [dimensions.asset_class]
    [dimensions.site]
    [measures.hours]
    synonyms = ["downtime"]
    [measures.job_count]
    expression = "1"
    synonyms = ["number of jobs"]
    """,
    "work_jobs.toml",
    default_name="work_jobs",
)
JOB_VALUES = {
    "work_jobs": {
        "asset_class": ["centrifugal pump", "vacuum pump", "screw compressor"],
        "site": ["Riverside"],
    }
}


def read_jobs(question: str):
    constraints = AGENT.run(question).constraints
    return recognise(
        question,
        [JOBS],
        today=TODAY,
        time=constraints.time,
        values=JOB_VALUES,
        identifiers={"work_jobs": frozenset({"wo_number"})},
        periods=constraints.periods,
    )


def test_a_period_named_with_another_date_column_s_word_selects_rows_by_it():
    closed = read_jobs("How many jobs were closed in 2026?")
    assert isinstance(closed, DataQuestion), closed
    assert closed.query.dated_by == "closed_date"
    assert (closed.query.time_from, closed.query.time_to) == (date(2026, 1, 1), date(2026, 12, 31))
    opened = read_jobs("How many jobs were opened in 2026?")
    assert isinstance(opened, DataQuestion) and opened.query.dated_by is None, opened
    both = read_jobs("How many jobs were opened in 2025 and closed in 2026?")
    assert isinstance(both, Unexpressible) and "more than one date" in both.reason, both
    last = read_jobs("What was the last job closed at Riverside?")
    assert isinstance(last, DataQuestion) and last.query.dated_by == "closed_date", last
    assert last.query.group_by == ("wo_number", "closed_date")


def test_a_word_ending_values_of_one_column_names_them_all_unless_asked_which():
    pumps = read_jobs("What was the downtime of the pumps in 2025?")
    assert isinstance(pumps, DataQuestion), pumps
    assert pumps.query.filters == (
        ("asset_class", "centrifugal pump"),
        ("asset_class", "vacuum pump"),
    )
    assert pumps.query.group_by == ()  # named with one word: together, not compared
    which = read_jobs("Which pump had the most downtime in 2025?")
    assert not isinstance(which, DataQuestion) or not which.query.filters, which


def test_an_identifier_in_the_plural_is_counted_and_per_one_is_per_row():
    counted = read_jobs("How many tickets did Riverside have in 2025?")
    assert isinstance(counted, DataQuestion), counted
    assert counted.query.measure == "job_count" and counted.query.filters == (
        ("site", "Riverside"),
    )
    per = read_jobs("What was the average downtime per ticket in 2025?")
    assert isinstance(per, DataQuestion) and per.query.measure == "hours", per


@pytest.mark.parametrize(
    ("question", "group_by"),
    [
        ("What was the monthly downtime at Riverside in 2025?", ("month",)),
        ("Show the yearly downtime of the pumps", ("year",)),
    ],
)
def test_a_word_of_one_time_unit_groups_by_it(question, group_by):
    found = read_jobs(question)
    assert isinstance(found, DataQuestion), found
    assert found.query.group_by == group_by
    quarterly = query("What was the quarterly shortage rate in the East region?")
    assert quarterly.group_by == ("quarter",)  # of the month column


@pytest.mark.parametrize(
    "question",
    [
        "What was the average monthly downtime at Riverside in 2025?",
        "Average downtime per year?",
        "What was the median monthly downtime at Riverside in 2025?",
    ],
)
def test_an_average_per_period_of_a_total_is_declined_not_each_period_s_average_row(question):
    found = read_jobs(question)
    assert isinstance(found, Unexpressible) and "cannot average hours over" in found.reason, found


def test_values_named_together_are_summed_and_a_change_needs_both_sides():
    values = {"work_jobs": {"site": ["Riverside", "Hillcrest"]}}
    time = AGENT.run("in 2025").constraints.time
    question = "What was the downtime of Riverside and Hillcrest together in 2025?"
    found = recognise(question, [JOBS], today=TODAY, time=time, values=values)
    assert isinstance(found, DataQuestion), found
    assert found.query.group_by == () and len(found.query.filters) == 2
    changed = read_jobs("How did downtime at Riverside change from 2025 to 2026?")
    assert isinstance(changed, Unexpressible) and "changed ('change')" in changed.reason
    compared = read_jobs("How did downtime at Riverside change, 2025 vs 2026?")
    assert isinstance(compared, DataQuestion) and len(compared.query.periods) == 2, compared


def test_a_share_of_the_rows_or_of_a_period_s_total_is_read():
    count = read_jobs("What percent of jobs were pumps in 2026?")
    assert isinstance(count, DataQuestion), count
    assert (count.query.measure, count.query.aggregation) == ("job_count", Aggregation.SHARE)
    part = read_jobs("What fraction of 2025 downtime was at Riverside?")
    assert isinstance(part, DataQuestion), part
    assert (part.query.aggregation, part.query.group_by) == (Aggregation.SHARE, ("site",))


STORES = parse_schema(
    """
    description = "Spare-parts issues from the stores"
    time_column = "issue_date"
    [columns]
    issue_date = "date"
    site = "text"
    quantity = "integer"
    unit_cost = "real"
    [dimensions.site]
    [measures.quantity]
    synonyms = ["quantity"]
    [measures.issue_value]
    expression = "quantity * unit_cost"
    synonyms = ["issue value", "spend"]
    """,
    "stores_issues.toml",
    default_name="stores_issues",
)


@pytest.mark.parametrize(
    "question",
    [
        "What has Riverside spent on spare parts since September?",
        "How much did Riverside spend on spare parts since September?",
    ],
)
def test_a_measure_named_by_a_verb_is_named_by_its_other_forms(question):
    """ "spent" names the measure whose name is "spend" (rules file, ``[verb_forms]``)."""
    time = AGENT.run(question).constraints.time
    values = {"stores_issues": {"site": ["Riverside", "Hillcrest"]}}
    found = recognise(question, [STORES], today=TODAY, time=time, values=values)
    assert isinstance(found, DataQuestion), found
    assert found.query.measure == "issue_value"
    assert found.query.filters == (("site", "Riverside"),)
    assert (found.query.time_from, found.query.time_to) == (date(2026, 9, 1), None)


def test_periods_sharing_a_year_are_compared_each_named_with_it():
    """ "Q3 and Q4 2025": Q3 of 2025 (not the latest Q3), named "Q3 2025" in the answer;
    the total of both is one window over them (issue 28)."""

    def periods_read(question: str) -> DataQuestion:
        constraints = AGENT.run(question).constraints
        found = recognise(
            question,
            SCHEMAS,
            today=TODAY,
            time=constraints.time,
            periods=constraints.periods,
            values=VALUES,
        )
        assert isinstance(found, DataQuestion), found
        return found

    found = periods_read("Orders in Q3 vs Q4 2025")
    assert [(p.label, p.start, p.end) for p in found.query.periods] == [
        ("Q3 2025", date(2025, 7, 1), date(2025, 9, 30)),
        ("Q4 2025", date(2025, 10, 1), date(2025, 12, 31)),
    ]
    total = periods_read("Total orders in Q3 and Q4 2025").query
    assert total.periods == ()
    assert (total.time_from, total.time_to) == (date(2025, 7, 1), date(2025, 12, 31))
