"""Numbers (``checks/numbers``): every number and every count in a statement is backed by
the cited sources, the question or the answer's own figures (``numbers.unbacked``,
``numbers.count``)."""

from __future__ import annotations

from datetime import date

from sources import (
    TC40,
    check,
    document,
    draft,
    evidence,
    evidence_of,
    findings,
    perceive,
    sample_validator,
)

from ragcore.text.quantities import quantities


def test_a_count_whose_number_the_source_gives_for_something_else_is_unsupported():
    cited = [
        evidence(
            1,
            "The BX-4 carries 4 spare nozzles. Service the pump every 6 months.",
            document("bx4", "BX-4 manual"),
        )
    ]
    question = "How many spare nozzles does the BX-4 carry?"
    wrong = check(question, "The BX-4 carries 6 spare nozzles [1].", cited)
    assert findings(wrong) == [("numbers.count", "unsupported_number")]
    right = check(question, "The BX-4 carries 4 spare nozzles [1].", cited)
    assert findings(right) == [], right.issues


def test_a_temperature_below_zero_written_as_minus_is_supported():
    cited = [
        evidence(
            1,
            "The CH-3 chiller locks out its compressor below −15 °C ambient.",
            document("ch3", "CH-3 manual"),
        )
    ]
    answer = "The CH-3 chiller locks out its compressor below minus 15 °C ambient [1]."
    report = check("When does the CH-3 lock out its compressor?", answer, cited)
    assert report.passed, report.issues


# -- counts written as words ---------------------------------------------------------------
STRINGS = [
    evidence(
        1,
        "The PW-500 takes three parallel strings, where the PW-300 takes two. Each string "
        "is 40 VRLA blocks of 12 V.",
        document("manual-pw500", "PW-500 UPS Service Manual"),
    )
]


def test_a_count_in_words_that_the_source_gives_another_side_is_unsupported():
    wrong = "The PW-500 takes two parallel strings of 40 blocks each [1]."
    right = "The PW-500 takes three parallel strings of 40 blocks each [1]."
    question = "How many battery strings does the PW-500 take?"
    assert findings(check(question, wrong, STRINGS)) == [("numbers.count", "unsupported_number")]
    assert findings(check(question, right, STRINGS)) == []


def test_one_time_unit_and_an_ordinal_count():
    found = quantities("the Directorate has to be told within a day, then run it for an hour")
    assert [(q.value, q.unit) for q in found] == [(1, "days"), (1, "h")]
    assert quantities("once a day") == []
    cited = [
        evidence(
            1,
            "E33: start failure after the third unsuccessful start attempt of a sequence.",
            document("manual-dg620", "DG-620 Generator Manual"),
        )
    ]
    answer = "It makes three tries per start sequence before it reports E33 [1]."
    report = check("How many times does the DG-620 try to start?", answer, cited)
    assert findings(report) == [], report.issues


def test_a_hedged_conversion_is_supported_by_its_figure():
    question = "What is the TC-40's maximum set temperature in Fahrenheit?"
    assert findings(check(question, "Roughly 203 °F [1].", TC40)) == []
    assert findings(check(question, "Roughly 221 °F [1].", TC40)) == [
        ("numbers.unbacked", "unsupported_number")
    ]


def test_a_count_of_the_answers_own_list_needs_no_source_number():
    cited = [
        evidence(
            1,
            "Filters: F7 pre-filter, F9 bag filter, H14 final filter.",
            document("manual-ah900", "AH-900 Air Handler Manual"),
        )
    ]
    question = "Which filter stages does the AH-900 have?"
    listed = ": an F7 pre-filter, an F9 bag filter and an H14 final filter [1]."
    assert findings(check(question, "The AH-900 has three filter stages" + listed, cited)) == []
    assert findings(check(question, "The AH-900 has four filter stages" + listed, cited)) == [
        ("numbers.count", "unsupported_number")
    ]


def test_a_unit_word_a_qualifier_apart_in_the_source_is_the_same_figure():
    cited = [
        evidence(
            1,
            "With the new seal material the seals are replaced after 750,000 switching cycles.",
            document("manual-to900-v2", "TO-900 Oxidiser Manual (Rev. 2)"),
        )
    ]
    question = "How often are the TO-900 poppet valve seals replaced?"
    assert findings(check(question, "Every 750,000 cycles [1].", cited)) == []
    assert findings(check(question, "Every 750,000 hours [1].", cited)) == [
        ("numbers.unbacked", "unsupported_number")
    ]


# -- numbers the question supplies ---------------------------------------------------------
SEAL_HISTORY = [
    evidence(
        1,
        "The CP-200 seal interval was 2000 operating hours.",
        document("manual-cp200", "CP-200 Manual"),
    )
]


SEAL_ANSWER = "Before 2025, the CP-200 seal interval was 2000 operating hours [1]."


def test_a_year_the_question_supplies_is_not_an_unsupported_number():
    report = check("Before 2025, what was the CP-200 seal interval?", SEAL_ANSWER, SEAL_HISTORY)
    assert findings(report) == []
    assert report.passed, report.issues


def test_a_year_the_question_does_not_supply_is_an_unsupported_number():
    report = check("What was the CP-200 seal interval?", SEAL_ANSWER, SEAL_HISTORY)
    [issue] = report.issues
    assert (issue.rule, issue.kind) == (
        "numbers.unbacked",
        "unsupported_number",
    ) and "2025" in issue.message


# -- worked-out figures, units and dates ----------------------------------------------------
RULE = [
    evidence(
        1,
        "The SB-12 works at up to 13 bar. The hydrostatic test is made at 1.43 times the "
        "maximum working pressure, held for 30 min.",
        document("manual-sb12", "SB-12 manual (Rev. 2)", updated_at=date(2024, 3, 18)),
    )
]


TEST = "What test pressure applies to the SB-12?"


def test_a_figure_worked_out_from_the_answers_own_figures_needs_no_source():
    answer = "The SB-12 is tested at 1.43 times its 13 bar working pressure, about 18.6 bar [1]."
    report = check(TEST, answer, RULE)
    assert report.passed, report.issues
    wrong = answer.replace("18.6", "19.6")
    assert findings(check(TEST, wrong, RULE)) == [("numbers.unbacked", "unsupported_number")]


def test_a_bare_number_in_the_source_does_not_back_a_figure_with_a_unit():
    cited = [
        evidence(
            1,
            "The BC-300 allows no more than 5 resets. Its ignition safety time is 3 s.",
            document("manual-bc300", "BC-300 manual"),
        )
    ]
    question = "What is the ignition safety time of the BC-300?"
    report = check(question, "The BC-300 ignition safety time is 5 s [1].", cited)
    assert findings(report) == [("numbers.unbacked", "unsupported_number")]


def test_a_year_from_the_cited_documents_date_is_supported():
    answer = "Rev. 2 (March 2024) tests the SB-12 at 1.43 times its 13 bar working pressure [1]."
    report = check(TEST, answer, RULE)
    assert findings(report) == [], report.issues


def test_an_unsupported_number_is_caught(sample_engine):
    validator = sample_validator(sample_engine)
    q = "What torque for the HP-400 platen bolts?"
    ev = evidence_of(sample_engine, "manual-hp400-v2", query=q)
    report = validator.check(draft("Tighten the platen bolts to 60 N·m [1]."), ev, perceive(q))
    [issue] = report.issues
    assert (issue.rule, issue.kind) == ("numbers.unbacked", "unsupported_number")
    assert "60" in issue.message
    assert issue.chunk_ids == (ev[0].chunk_id,)
    assert issue.document_ids == ("manual-hp400-v2",)
