"""General rules of claim support and comparison, on hand-written sentences: framing
words, words echoed from the question, word families, a noun an attribute's name only
modifies, sides named by the statement, frequency words and one-figure comparisons."""

from __future__ import annotations

from datetime import date

from conftest import TODAY
from handmade import document, evidence

from ragcore.agents.attributes import default_attributes
from ragcore.agents.evidence import Draft, Evidence, split_statements
from ragcore.agents.focus import asked_attributes
from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.agents.validation import ValidationReport, Validator

perceive = PerceptionAgent(nlp=None, clock=lambda: TODAY).run
validator = Validator()


def check(question: str, answer: str, cited: list[Evidence]) -> ValidationReport:
    draft = Draft(answer, split_statements(answer), "test")
    return validator.check(draft, cited, perceive(question))


def kinds(report: ValidationReport) -> list[str]:
    return [i.kind for i in report.issues]


FILTER = [
    evidence(
        1,
        "Renew the ZT-9 intake filter element every 400 h of operation.",
        document("zt9", "ZT-9 blower manual"),
    )
]


# -- support -------------------------------------------------------------------------------
def test_words_that_report_the_source_do_not_need_support():
    answer = "The manual requires that the ZT-9 intake filter element is renewed every 400 h [1]."
    assert "unsupported" not in kinds(
        check("How often is the ZT-9 filter renewed?", answer, FILTER)
    )


def test_a_claim_of_other_words_is_still_unsupported():
    answer = "The ZT-9 intake filter is washed in solvent, dried and oiled every 400 h [1]."
    report = check("How often is the ZT-9 filter renewed?", answer, FILTER)
    assert "unsupported" in kinds(report)


def test_words_the_question_supplies_are_context():
    question = "Our ZT-9 runs around the clock in a dusty quarry; when is its intake filter due?"
    answer = "In a dusty quarry running around the clock, the ZT-9 intake filter element is "
    answer += "renewed every 400 h of operation [1]."
    assert check(question, answer, FILTER).passed, check(question, answer, FILTER).issues


def test_an_answer_that_only_restates_a_yes_no_question_is_not_supported_by_it():
    question = "Can the ZT-9 blower run submerged in seawater?"
    report = check(question, "Yes, the ZT-9 blower can run submerged in seawater [1].", FILTER)
    assert "unsupported" in kinds(report)


def test_inflections_of_one_word_family_match():
    cited = [
        evidence(
            1,
            "Recovery of the QM-3 sludge runs continuously.",
            document("qm3", "QM-3 manual"),
        )
    ]
    answer = "The QM-3 sludge is recovered in continuous operation [1]."
    assert "unsupported" not in kinds(check("What about the QM-3 sludge?", answer, cited))


def test_a_y_turned_i_is_the_same_word():
    cited = [evidence(1, "Empty the QM-3 tray and dry it.", document("qm3", "QM-3 manual"))]
    answer = "The QM-3 tray is emptied and dried [1]."
    assert "unsupported" not in kinds(check("What about the QM-3 tray?", answer, cited))


def test_words_that_only_share_a_beginning_do_not_match():
    cited = [evidence(1, "The QM-3 closure is fitted.", document("qm3", "QM-3 manual"))]
    answer = "The QM-3 closes itself [1]."
    assert "unsupported" in kinds(check("What about the QM-3?", answer, cited))


# -- what a question asks ------------------------------------------------------------------
def test_an_attribute_name_that_modifies_another_noun_is_not_asked():
    table = default_attributes()
    names = lambda q: {a.name for a in asked_attributes(q, table)}  # noqa: E731
    assert "pressure" not in names("How long are the pressure gauge calibration certificates kept?")
    assert "flow" not in names("Who may reset the flow switch on the RT-4?")
    assert "pressure" in names("What is the pressure setting of the RT-4 relief valve?")
    assert "noise" in names("What noise level does the RT-4 reach?")
    assert "interval" in names("How did the RT-4 greasing interval change?")
    assert "temperature" in names("Which runs hotter fluid, the RT-4 or the RT-6?")


# -- comparisons ---------------------------------------------------------------------------
DRYERS = [
    evidence(
        1,
        "The HD-2 dries a load in 40 min, the HD-5 in 25 min.",
        document("hd", "HD dryer range brochure"),
    )
]


def test_the_sides_of_a_comparison_come_from_the_statement_when_the_question_names_none():
    question = "Which dryer of the range finishes a load sooner?"
    wrong = "The HD-2 is quicker, at 40 min against 25 min for the HD-5 [1]."
    assert "unsupported_relation" in kinds(check(question, wrong, DRYERS))
    right = "The HD-5 is quicker, at 25 min against 40 min for the HD-2 [1]."
    assert "unsupported_relation" not in kinds(check(question, right, DRYERS))


CODES = [
    evidence(1, "The 2024 Code: inspect the harness monthly.", document("c24", "Code 2024")),
    evidence(2, "The 2019 Code: inspect the harness quarterly.", document("c19", "Code 2019")),
]


def test_frequency_words_are_intervals_in_a_more_often_comparison():
    question = "Is the harness inspected more or less often under the 2024 Code?"
    wrong = "Less frequently: monthly [1], compared with quarterly before [2]."
    assert "unsupported_relation" in kinds(check(question, wrong, CODES))
    right = "More frequently: monthly [1], compared with quarterly before [2]."
    assert "unsupported_relation" not in kinds(check(question, right, CODES))


def test_a_two_sided_question_answered_with_one_figure_is_one_sided():
    question = "Is the harness inspected more or less often under the 2024 Code than in 2019?"
    one = "More often: the 2024 Code asks for monthly checks [1], more than the 2019 Code did."
    assert "missing_side" in kinds(check(question, one, CODES))
    both = "More often: monthly under the 2024 Code [1], against quarterly under 2019 [2]."
    assert "missing_side" not in kinds(check(question, both, CODES))


def test_a_figure_and_a_bare_number_compared_are_two_sides():
    question = "Which finishes a load sooner, the HD-2 or the HD-5?"
    answer = "The HD-5 is quicker than the HD-2 (25 vs 40 min) [1]."
    assert "missing_side" not in kinds(check(question, answer, DRYERS))


def test_more_than_a_figure_is_a_bound_not_a_comparison_of_the_named_things():
    cited = [
        evidence(1, "The HD-2 uses the MX-1 timer; it stops after 40 min.", document("hd", "HD"))
    ]
    question = "When does the MX-1 timer stop the HD-2?"
    answer = "On the HD-2, the MX-1 timer stops the drum after more than 40 min [1]."
    assert "unsupported_relation" not in kinds(check(question, answer, cited))


# -- the thing asked about -----------------------------------------------------------------
GEARBOX = [
    evidence(
        1,
        "Change the NV-7 gearbox oil every 6,000 h. Replace the NV-7 drive belt every 9 months.",
        document("nv7", "NV-7 mixer manual"),
    )
]


def test_how_often_asks_about_a_thing_an_interval_of_another_thing_is_off_question():
    question = "How often must the NV-7 gearbox oil be changed?"
    report = check(question, "Replace the NV-7 drive belt every 9 months [1].", GEARBOX)
    assert "off_question" in kinds(report)


def test_how_often_answered_about_the_thing_or_with_it_passes():
    question = "How often must the NV-7 gearbox oil be changed?"
    for answer in (
        "Change the NV-7 gearbox oil every 6,000 h [1].",
        "It must be changed every 6,000 h [1].",
    ):
        assert "off_question" not in kinds(check(question, answer, GEARBOX)), answer


def test_an_inflection_of_the_focus_word_names_the_focus():
    cited = [evidence(1, "The VB-4 runs continuously at 40 A.", document("vb4", "VB-4 manual"))]
    question = "What is the continuous load of the VB-4?"
    answer = "The VB-4 carries 40 A continuously [1]."
    assert "off_question" not in kinds(check(question, answer, cited))


def test_litres_per_hour_answer_a_capacity():
    cited = [evidence(1, "The PW-3 treats 8,000 L/h.", document("pw3", "PW-3 manual"))]
    answer = "The PW-3 is rated for 8,000 L/h [1]."
    assert "off_question" not in kinds(check("What is the capacity of the PW-3?", answer, cited))


# -- a product with a part -----------------------------------------------------------------
def test_a_document_about_a_product_with_a_part_is_about_the_product():
    doc = document("mt9", "MT-9 Hoist with QX-2 Controller Manual")
    cited = [evidence(1, "QX-2 settings:\n- Brake delay: 400 ms", doc)]
    report = check("What is the MT-9 brake delay?", "The MT-9 brake delay is 400 ms [1].", cited)
    assert "wrong_entity" not in kinds(report), report.issues


def test_a_figure_of_such_a_document_may_be_its_parts():
    doc = document("mt9", "MT-9 Hoist with QX-2 Controller Manual")
    cited = [evidence(1, "The overload trip acts at 110 %.", doc)]
    answer = "The QX-2 trips on overload at 110 % [1]."
    report = check("When does the QX-2 trip on overload?", answer, cited)
    assert "wrong_entity" not in kinds(report), report.issues


# -- in force from the date a document states ------------------------------------------------
RULE = [
    evidence(
        1,
        "Rule GS-19 replaces GS-12. Effective 1 September 2019. Gas detectors alarm at 10 % LEL.",
        document("gs19", "Gas Safety Rule GS-19", updated_at=date(2019, 5, 20)),
    )
]
ALARM = "Gas detectors alarm at 10 % LEL under GS-19 [1]."


def test_a_rule_cited_for_a_month_before_it_took_effect_is_outside_the_interval():
    report = check("In July 2019, at what level did gas detectors alarm?", ALARM, RULE)
    [issue] = [i for i in report.issues if i.kind == "outside_interval"]
    assert "in force from 2019-09-01" in issue.message


def test_a_rule_cited_for_a_month_after_it_took_effect_is_in_the_interval():
    report = check("In October 2019, at what level did gas detectors alarm?", ALARM, RULE)
    assert "outside_interval" not in kinds(report), report.issues


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
    assert "unsupported_number" in kinds(wrong)
    right = check(question, "The BX-4 carries 4 spare nozzles [1].", cited)
    assert "unsupported_number" not in kinds(right), right.issues


def test_how_often_answered_with_what_is_done_to_the_thing_passes():
    cited = [evidence(1, "A load test at 1.25 times SWL is due every 4 years.", document("r", "R"))]
    question = "How often does a hoist need a load test, and at what load?"
    answer = "A load test at 1.25 times the SWL is required every 4 years [1]."
    assert "off_question" not in kinds(check(question, answer, cited))


def test_a_document_about_two_models_lends_no_figure_to_either():
    doc = document("lm", "LM-2 and LM-4 Lathe Manual")
    cited = [
        evidence(1, "LM-2:\n- Air: 5 bar\n\nLM-4:\n- Air: 7 bar\n\nAir must be dry at 7 bar.", doc)
    ]
    report = check("What air pressure does the LM-2 need?", "The LM-2 needs 7 bar [1].", cited)
    assert "wrong_entity" in kinds(report), report.issues
