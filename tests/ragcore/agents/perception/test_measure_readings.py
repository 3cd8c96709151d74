"""Which measure a question's words read, and when they read two alike (issue 28, item 5).

Two invented tables of a bus fleet: the supply orders its depots place (a measure named
"spend", the freight fee) and the repair jobs done on its buses (labour hours, labour
cost, tyre cost). "How much did North spend on tyres?" is the orders' spend on tyre
lines and the repair jobs' tyre cost alike: the question is ``Ambiguous``, never a
silent pick.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragcore import Config, Engine
from ragcore.agents.perception import PerceptionAgent
from ragcore.agents.perception.data_question import (
    Ambiguous,
    DataQuestion,
    Directness,
    Unexpressible,
    recognise,
)
from ragcore.tabular import parse_schema
from ragcore.types import AnswerStatus

TODAY = date(2026, 12, 3)
AGENT = PerceptionAgent(nlp=None, clock=lambda: TODAY)

ORDERS_TOML = """
name = "supply_orders"
description = "Supply orders the depots placed for tyres, parts and oil: item, qty, price, freight"
time_column = "ordered_on"

[columns]
ordered_on = "date"
depot = "text"
item = "text"
qty = "integer"
price = "real"
freight_fee = "real"

[dimensions.depot]
synonyms = ["garage"]
description = "North, South or Harbour"

[dimensions.item]
synonyms = ["article"]
description = "What was ordered, e.g. tyre 295/80"

[measures.order_amount]
expression = "qty * price"
unit = "EUR"
aggregation = "sum"
synonyms = ["spend", "order amount"]
description = "Quantity times price"

[measures.freight_fee]
unit = "EUR"
aggregation = "sum"
synonyms = ["freight", "freight fee"]
description = "Freight charged for the order"
"""

REPAIRS_TOML = """
name = "repair_jobs"
description = "Repair jobs on the buses of each depot"
time_column = "done_on"

[columns]
done_on = "date"
depot = "text"
bus = "text"
labour_hours = "real"
labour_cost = "real"
tyre_cost = "real"

[dimensions.depot]
synonyms = ["garage"]
description = "North, South or Harbour"

[dimensions.bus]
synonyms = ["vehicle"]
description = "Fleet number, e.g. B-17"

[measures.labour_hours]
unit = "hours"
aggregation = "sum"
synonyms = ["labour", "hours worked"]
description = "Hours of labour booked on the job"

[measures.labour_cost]
unit = "EUR"
aggregation = "sum"
synonyms = ["cost of labour"]
description = "Cost of the labour booked on the job"

[measures.tyre_cost]
unit = "EUR"
aggregation = "sum"
synonyms = ["cost of tyres"]
description = "Cost of the tyres fitted on the job"
"""

# One table whose two measures share a synonym: "charges" is either.
TOLLS_TOML = """
name = "route_tolls"
description = "Tolls and parking paid per route"
time_column = "paid_on"

[columns]
paid_on = "date"
route = "text"
toll = "real"
parking = "real"

[dimensions.route]
description = "Route number, e.g. R5"

[measures.toll]
unit = "EUR"
aggregation = "sum"
synonyms = ["toll", "charges"]
description = "Road toll paid"

[measures.parking]
unit = "EUR"
aggregation = "sum"
synonyms = ["parking", "charges"]
description = "Parking fees paid"
"""

ORDERS = parse_schema(ORDERS_TOML, "supply_orders.toml")
REPAIRS = parse_schema(REPAIRS_TOML, "repair_jobs.toml")
TOLLS = parse_schema(TOLLS_TOML, "route_tolls.toml")
DEPOTS = ["Harbour", "North", "South"]
VALUES = {
    "supply_orders": {"depot": DEPOTS, "item": ["tyre 295/80", "brake pad set"]},
    "repair_jobs": {"depot": DEPOTS, "bus": ["B-17", "B-21"]},
    "route_tolls": {"route": ["R5", "R7"]},
}


def read(question: str, schemas=(ORDERS, REPAIRS)):
    constraints = AGENT.run(question).constraints
    values = {s.name: VALUES[s.name] for s in schemas}
    return recognise(question, list(schemas), today=TODAY, time=constraints.time, values=values)


@pytest.mark.parametrize(
    "question",
    [
        "How much did North spend on tyres in 2026?",
        "What was spent on tyres at the North garage in 2026?",
        "How much has South spent on tyres?",
    ],
)
def test_a_verb_reading_one_tables_measure_and_another_tables_name_is_ambiguous(question):
    """ "spend" is the orders' own measure name, "tyres" + a verb of paying the repair
    jobs' tyre cost: two readings from the same words, both named, no figure picked."""
    found = read(question)
    assert isinstance(found, Ambiguous), found
    readings = {(r.table, r.measure): r for r in found.readings}
    assert set(readings) == {("supply_orders", "order_amount"), ("repair_jobs", "tyre_cost")}
    assert all(r.how is Directness.VERB for r in found.readings)
    assert "tyres" in readings["repair_jobs", "tyre_cost"].words
    assert "supply_orders.order_amount" in found.reason
    assert "repair_jobs.tyre_cost" in found.reason


def test_a_measure_named_by_its_own_name_is_a_confident_pick():
    """ "tyre cost" is the measure's own name: no verb reading competes with it."""
    found = read("What was the tyre cost at North in 2026?")
    assert isinstance(found, DataQuestion), found
    assert (found.query.table, found.query.measure) == ("repair_jobs", "tyre_cost")


def test_a_verb_with_nothing_else_to_read_stays_one_reading():
    """ "How much did North spend?" names no other measure's words: the orders' spend."""
    found = read("How much did North spend in 2026?")
    assert isinstance(found, DataQuestion), found
    assert (found.query.table, found.query.measure) == ("supply_orders", "order_amount")


def test_a_verb_of_paying_reads_the_money_measure_over_a_synonym_of_hours():
    """ "spent on labour" is the labour cost ("labour" + the verb for its "cost"), not
    the labour hours the word "labour" alone names."""
    found = read("What was spent on labour at North in 2026?", schemas=(REPAIRS,))
    assert isinstance(found, DataQuestion), found
    assert found.query.measure == "labour_cost"
    assert found.query.filters == (("depot", "North"),)


def test_a_verb_of_paying_alone_yields_to_a_measure_named_by_other_words():
    """ "spend on freight": the verb says money is asked, "freight" which money."""
    found = read("How much did North spend on freight in 2026?", schemas=(ORDERS,))
    assert isinstance(found, DataQuestion), found
    assert found.query.measure == "freight_fee"


def test_a_verb_of_paying_alone_reads_the_measure_named_by_a_money_word():
    """ "charged" names no measure, but the orders' one named "spend" is money that adds
    up: the verb stands for it when nothing else names a measure."""
    found = read("How much were we charged at the North garage in 2026?")
    assert isinstance(found, DataQuestion), found
    assert (found.query.table, found.query.measure) == ("supply_orders", "order_amount")
    assert found.query.filters == (("depot", "North"),)


def test_a_table_missing_a_named_value_offers_no_reading():
    """B-17 is a bus of the repair jobs only: the orders' reading of "spent" is no
    whole query, so the tyre cost of B-17 is the one reading."""
    found = read("How much have we spent on tyres for B-17?")
    assert isinstance(found, DataQuestion), found
    assert (found.query.table, found.query.measure) == ("repair_jobs", "tyre_cost")
    assert found.query.filters == (("bus", "B-17"),)


def test_a_synonym_two_measures_of_one_table_share_is_ambiguous():
    """ "charges" is a synonym of the toll and of the parking fees: no first-declared pick."""
    found = read("What were the charges on route R5 in 2026?", schemas=(TOLLS,))
    assert isinstance(found, Ambiguous), found
    assert {r.measure for r in found.readings} == {"toll", "parking"}
    assert all(r.table == "route_tolls" for r in found.readings)


def test_two_measures_named_by_their_own_words_are_still_asked_for_one():
    """ "toll and parking": two measures, each by its own word, not one word read twice."""
    found = read("What were the toll and parking on route R5 in 2026?", schemas=(TOLLS,))
    assert isinstance(found, Unexpressible), found
    assert "several measures" in found.reason


def test_rows_are_counted_by_their_name_when_the_schema_declares_no_count():
    """repair_jobs declares no measure counting rows: "how many repair jobs" is the
    implicit job_count (each row one), with the filters and the period of the question."""
    assert REPAIRS.counting is not None and REPAIRS.counting.name == "job_count"
    found = read("How many repair jobs were done at North in 2026?", schemas=(REPAIRS,))
    assert isinstance(found, DataQuestion), found
    assert found.query.measure == "job_count"
    assert found.query.filters == (("depot", "North"),)
    assert REPAIRS.measure("job_count").counts_rows


def test_no_implicit_count_when_the_rows_name_is_a_measure_or_a_count_is_declared():
    """ "tolls" of route_tolls is the toll measure's own word; a declared count stays
    the only one."""
    tolls = parse_schema(TOLLS_TOML.replace('"toll", "charges"', '"tolls", "charges"'), "t.toml")
    assert tolls.counting is None
    declared = REPAIRS_TOML + '[measures.jobs]\nexpression = "1"\nsynonyms = ["job count"]\n'
    assert parse_schema(declared, "r.toml").counting is None


def read_periods(question: str, schemas=(REPAIRS,)):
    constraints = AGENT.run(question).constraints
    values = {s.name: VALUES[s.name] for s in schemas}
    return recognise(
        question,
        list(schemas),
        today=TODAY,
        time=constraints.time,
        periods=constraints.periods,
        values=values,
    )


@pytest.mark.parametrize(
    "question",
    [
        "What was the total tyre cost at North in May and June 2026?",
        "How much tyre cost did North have in May and June 2026 combined?",
        "How many repair jobs were done at North in May and June 2026?",
    ],
)
def test_periods_joined_by_and_in_a_total_are_one_window(question):
    """A total or a count over "May and June" is the figure over both months, not each
    month's and their difference."""
    found = read_periods(question)
    assert isinstance(found, DataQuestion), found
    q = found.query
    assert q.periods == ()
    assert (q.time_from, q.time_to) == (date(2026, 5, 1), date(2026, 6, 30))


@pytest.mark.parametrize(
    "question",
    [
        "Was the tyre cost at North higher in May or June 2026?",
        "Compare the tyre cost at North in May vs June 2026.",
        "What was the tyre cost at North in May and June 2026?",  # no total asked: each
    ],
)
def test_periods_compared_or_not_totalled_stay_a_figure_each(question):
    found = read_periods(question)
    assert isinstance(found, DataQuestion), found
    assert [p.start for p in found.query.periods] == [date(2026, 5, 1), date(2026, 6, 1)]


def test_a_total_over_periods_apart_is_declined_naming_them():
    """ "May and August": one window would hold June and July too."""
    found = read_periods("What was the total tyre cost at North in May and August 2026?")
    assert isinstance(found, Unexpressible), found
    assert "not next to each other" in found.reason


@pytest.mark.parametrize(
    "question",
    [
        "What was the tyre cost at North per quarter in 2026?",
        "Show the quarterly tyre cost at North in 2026.",
    ],
)
def test_a_figure_per_quarter_groups_by_the_quarter_of_the_time_column(question):
    found = read(question, schemas=(REPAIRS,))
    assert isinstance(found, DataQuestion), found
    assert found.query.group_by == ("quarter",)
    assert (found.query.time_from, found.query.time_to) == (date(2026, 1, 1), date(2026, 12, 31))


@pytest.fixture(scope="module")
def fleet(tmp_path_factory, real_embedder):
    folder = tmp_path_factory.mktemp("fleet")
    orders, repairs = folder / "supply_orders.csv", folder / "repair_jobs.csv"
    orders.write_text(
        "ordered_on,depot,item,qty,price,freight_fee\n"
        "2026-03-02,North,tyre 295/80,4,310.0,40.0\n"
        "2026-04-11,South,brake pad set,10,55.5,12.0\n",
        encoding="utf-8",
    )
    repairs.write_text(
        "done_on,depot,bus,labour_hours,labour_cost,tyre_cost\n"
        "2026-03-05,North,B-17,3.5,210.0,1240.0\n"
        "2026-05-20,South,B-21,1.0,60.0,0.0\n",
        encoding="utf-8",
    )
    (folder / "supply_orders.toml").write_text(ORDERS_TOML, encoding="utf-8")
    (folder / "repair_jobs.toml").write_text(REPAIRS_TOML, encoding="utf-8")
    config = Config(data_dir=folder / "data")
    with Engine(config, embedder=real_embedder, clock=lambda: TODAY) as engine:
        for name in ("supply_orders", "repair_jobs"):
            engine.ingest_table(folder / f"{name}.csv", table=name, schema=folder / f"{name}.toml")
        yield engine


def test_an_ambiguous_question_is_answered_uncertain_naming_both_readings(fleet):
    answer = fleet.ask("How much did North spend on tyres in 2026?")
    assert answer.status == AnswerStatus.UNCERTAIN, answer.text
    assert "supply_orders.order_amount" in answer.text
    assert "repair_jobs.tyre_cost" in answer.text
    assert not answer.citations  # no figure of either: a figure would be a pick
    assert any(i.rule == "answerability.ambiguous" for i in answer.report.issues)


def test_rows_are_counted_and_cited_without_a_declared_count(fleet):
    answer = fleet.ask("How many repair jobs were done at North in 2026?")
    assert answer.status == AnswerStatus.OK, answer.report.issues
    assert "1 jobs" in answer.text or "is 1 " in answer.text, answer.text
    cited = [c for c in answer.citations if c.document_id == "table:repair_jobs"]
    assert len(cited) == 1 and len(cited[0].rows) == 1


def test_a_count_over_two_months_is_answered_ok_over_both(fleet):
    answer = fleet.ask("How many repair jobs were done at North in March and April 2026?")
    assert answer.status == AnswerStatus.OK, answer.report.issues
    assert "2026-03-01 to 2026-04-30" in answer.text and "is 1 " in answer.text, answer.text


def test_the_measure_named_by_its_own_name_is_answered_ok(fleet):
    answer = fleet.ask("What was the tyre cost at North in 2026?")
    assert answer.status == AnswerStatus.OK, answer.report.issues
    assert "1240" in answer.text
