"""The validator's claim checks on hand-built evidence: entity, unit, clause, relation,
question and revision of every cited figure."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from handmade import check, document, evidence, kinds, perceive

from ragcore.agents.evidence import Evidence
from ragcore.agents.reading import identifiers
from ragcore.agents.validation.figures import binding

# -- wrong entity --------------------------------------------------------------------------
BROCHURE = [
    evidence(
        1,
        "The PX-35 delivers 780 L/min, compared with 450 L/min for the PX-20.",
        document("brochure-px", "PX series brochure"),
    )
]
FLOW = "What flow does the PX-20 deliver?"


def test_the_other_models_figure_claimed_for_a_model_is_a_wrong_entity():
    report = check(FLOW, "The PX-20 delivers 780 L/min [1].", BROCHURE)
    [issue] = [i for i in report.issues if i.kind == "wrong_entity"]
    assert issue.check == "traceability"
    assert "PX35" in issue.message and "PX20" in issue.message
    assert issue.chunk_ids == (BROCHURE[0].chunk_id,)
    assert issue.document_ids == ("brochure-px",)


def test_a_models_own_figure_from_a_sentence_naming_two_models_is_no_wrong_entity():
    report = check(FLOW, "The PX-20 delivers 450 L/min [1].", BROCHURE)
    assert "wrong_entity" not in kinds(report)
    assert report.passed, report.issues


def test_a_figure_attached_by_for_the_belongs_to_the_model_that_follows_it():
    text = BROCHURE[0].text
    start = text.index("450")
    assert [name for name, _, _ in identifiers(text)] == ["px35", "px20"]
    bound = binding(text, start, start + len("450 L/min"))
    assert (bound.entity, bound.attached) == ("px20", True)


def test_the_other_models_figure_converted_to_another_unit_is_still_a_wrong_entity():
    report = check(FLOW, "The PX-20 delivers 46.8 m³/h [1].", BROCHURE)
    assert "wrong_entity" in kinds(report)


def test_a_statement_without_a_model_is_about_the_questions_model():
    assert "wrong_entity" in kinds(check(FLOW, "It delivers 780 L/min [1].", BROCHURE))
    assert "wrong_entity" not in kinds(check(FLOW, "It delivers 450 L/min [1].", BROCHURE))


def test_the_second_models_figure_in_a_while_sentence_is_not_the_first_models():
    cited = [
        evidence(
            1,
            "The PX-20 delivers 450 L/min, while the PX-35 delivers 780 L/min.",
            document("brochure-px", "PX series brochure"),
        )
    ]
    assert "wrong_entity" in kinds(check(FLOW, "The PX-20 delivers 780 L/min [1].", cited))


MANUAL_PX35 = [evidence(1, "The rated flow is 780 L/min.", document("manual-px35", "PX-35 Manual"))]


def test_a_figure_of_a_document_about_one_model_claimed_for_another_is_a_wrong_entity():
    report = check(
        "What is the rated flow of the PX-20?",
        "The rated flow of the PX-20 is 780 L/min [1].",
        MANUAL_PX35,
    )
    assert "wrong_entity" in kinds(report)


def test_a_figure_of_a_document_about_one_model_claimed_for_that_model_passes():
    report = check(
        "What is the rated flow of the PX-35?",
        "The rated flow of the PX-35 is 780 L/min [1].",
        MANUAL_PX35,
    )
    assert report.passed, report.issues


# -- units ---------------------------------------------------------------------------------
PRESSURE = "What is the maximum pressure of the CP-200?"
PRESSURE_SOURCE = [
    evidence(1, "Maximum pressure 1.2 bar.", document("manual-cp200", "CP-200 Manual"))
]


def test_the_sources_number_in_another_unit_is_a_unit_mismatch():
    report = check(PRESSURE, "The maximum pressure is 1.2 psi [1].", PRESSURE_SOURCE)
    [issue] = [i for i in report.issues if i.kind == "unit_mismatch"]
    assert "1.2 psi" in issue.message and "1.2 bar" in issue.message
    assert issue.document_ids == ("manual-cp200",)


def test_a_correct_conversion_of_the_sources_figure_raises_no_issue_on_that_figure():
    report = check(PRESSURE, "The maximum pressure is 17.4 psi [1].", PRESSURE_SOURCE)
    figure_kinds = {"unit_mismatch", "unsupported_number", "wrong_entity"}
    assert not figure_kinds & set(kinds(report)), report.issues


def test_a_figure_given_in_both_units_passes():
    report = check(PRESSURE, "The maximum pressure is 1.2 bar (17.4 psi) [1].", PRESSURE_SOURCE)
    assert report.passed, report.issues


def test_a_statement_differing_from_its_source_only_by_a_converted_unit_is_supported():
    cited = [
        evidence(
            1,
            "The maximum working pressure of the CP-200 is 1.2 bar.",
            document("manual-cp200", "CP-200 Manual"),
        )
    ]
    report = check(
        "What is the maximum working pressure of the CP-200?",
        "The maximum working pressure of the CP-200 is 17.4 psi [1].",
        cited,
    )
    assert report.passed, report.issues


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
    assert "unsupported_number" not in kinds(report)
    assert report.passed, report.issues


def test_a_year_the_question_does_not_supply_is_an_unsupported_number():
    report = check("What was the CP-200 seal interval?", SEAL_ANSWER, SEAL_HISTORY)
    [issue] = report.issues
    assert issue.kind == "unsupported_number" and "2025" in issue.message


# -- every clause ----------------------------------------------------------------------------
E4027 = "What does error E4027 mean on the HP-400?"
E4027_SOURCE = [
    evidence(
        1,
        "Error E4027 means the hydraulic oil pressure fell below 150 bar.",
        document("manual-hp400", "HP-400 Manual"),
    )
]


def test_a_statement_whose_first_clause_is_supported_passes():
    report = check(
        E4027, "Error E4027 means the hydraulic oil pressure fell below 150 bar [1].", E4027_SOURCE
    )
    assert report.passed, report.issues


def test_an_unsupported_second_clause_is_an_unsupported_claim():
    answer = (
        "Error E4027 means the hydraulic oil pressure fell below 150 bar, "
        "and it can only be cleared by a certified electrician [1]."
    )
    report = check(E4027, answer, E4027_SOURCE)
    [issue] = report.issues
    assert (issue.check, issue.kind) == ("traceability", "unsupported_claim")
    assert "certified electrician" in issue.message
    assert issue.statement == answer


# -- comparisons -----------------------------------------------------------------------------
SC40 = document("manual-sc40", "SC-40 Manual")
SC55 = document("manual-sc55", "SC-55 Manual")
LOUDER = "Which compressor is louder, the SC-40 or the SC-55?"
NOISE = [
    evidence(1, "The SC-40 has a sound level of 68 dB(A) at 1 m.", SC40),
    evidence(2, "The SC-55 has a sound level of 72 dB(A) at 1 m.", SC55),
]


def test_a_comparison_question_has_two_sides():
    p = perceive(LOUDER)
    assert (p.route, p.sides) == ("comparison", ("SC-40", "SC-55"))


def test_the_quieter_model_called_louder_is_an_unsupported_relation():
    answer = "The SC-40 is louder: 68 dB(A) against 72 dB(A) for the SC-55 [1][2]."
    report = check(LOUDER, answer, NOISE)
    [issue] = [i for i in report.issues if i.kind == "unsupported_relation"]
    assert issue.check == "consistency"
    assert "68 vs 72" in issue.message
    assert issue.statement == answer


def test_the_louder_model_called_louder_passes():
    answer = "The SC-55 is louder than the SC-40 (72 dB(A) vs 68 dB(A)) [1][2]."
    assert check(LOUDER, answer, NOISE).passed


OFTEN = "Which compressor needs oil changes more often, the SC-55 or the SC-40?"
OIL = [
    evidence(1, "Change the SC-40 compressor oil every 4000 h.", SC40),
    evidence(2, "Change the SC-55 compressor oil every 3000 h.", SC55),
]


def test_the_shorter_interval_called_less_often_is_an_unsupported_relation():
    answer = (
        "The SC-55 needs oil changes less often than the SC-40: "
        "every 3000 h instead of every 4000 h [1][2]."
    )
    report = check(OFTEN, answer, OIL)
    [issue] = [i for i in report.issues if i.kind == "unsupported_relation"]
    assert "less often" in issue.message


def test_the_shorter_interval_called_more_often_passes():
    answer = (
        "The SC-55 needs oil changes more often than the SC-40: "
        "every 3000 h instead of every 4000 h [1][2]."
    )
    assert "unsupported_relation" not in kinds(check(OFTEN, answer, OIL))


# -- changes ---------------------------------------------------------------------------------
CHANGE = "What does revision 2 do to the alarm threshold?"
BULLETIN = [
    evidence(
        1,
        "Revision 2 lowers the alarm threshold to 3.5 mm/s, down from 4.5 mm/s.",
        document("bulletin-vibration", "Vibration bulletin revision 2"),
    )
]


@pytest.mark.parametrize(
    "answer",
    [
        "Revision 2 raises the alarm threshold to 3.5 mm/s, up from 4.5 mm/s [1].",
        "Revision 2 raises the alarm threshold from 4.5 mm/s to 3.5 mm/s [1].",
    ],
)
def test_a_fall_called_a_rise_is_an_unsupported_relation(answer):
    report = check(CHANGE, answer, BULLETIN)
    [issue] = [i for i in report.issues if i.kind == "unsupported_relation"]
    assert "'raises' contradicts" in issue.message


@pytest.mark.parametrize(
    "answer",
    [
        "Revision 2 lowers the alarm threshold to 3.5 mm/s, down from 4.5 mm/s [1].",
        "Revision 2 lowers the alarm threshold from 4.5 mm/s to 3.5 mm/s [1].",
    ],
)
def test_a_fall_called_a_fall_passes(answer):
    assert check(CHANGE, answer, BULLETIN).passed


# -- the question asked ----------------------------------------------------------------------
def test_a_flow_figure_for_a_weight_question_is_off_question():
    cited = [
        evidence(
            1,
            "The CP-200 delivers a rated flow of 120 L/min at 6 bar.",
            document("manual-cp200", "CP-200 Manual"),
        )
    ]
    report = check("What does the CP-200 weigh?", "The CP-200 delivers 120 L/min [1].", cited)
    [issue] = report.issues
    assert (issue.check, issue.kind) == ("consistency", "off_question")
    assert "weight" in issue.message


CODES = [
    evidence(
        1,
        "Error E03 means the motor overheated. Error E07 means the inlet filter is blocked.",
        document("manual-cx200", "CX-200 Manual"),
    )
]


def test_an_answer_about_another_error_code_is_off_question():
    report = check(
        "What does error E03 mean on the CX-200?",
        "Error E07 means the inlet filter is blocked [1].",
        CODES,
    )
    [issue] = report.issues
    assert issue.kind == "off_question"
    assert "E03" in issue.message and "E07" in issue.message


def test_an_answer_about_the_asked_error_code_passes():
    report = check(
        "What does error E03 mean on the CX-200?",
        "Error E03 means the motor overheated [1].",
        CODES,
    )
    assert report.passed, report.issues


# -- revisions -------------------------------------------------------------------------------
OLD = document(
    "manual-cp200-v1",
    "CP-200 Manual revision 1",
    updated_at=date(2022, 1, 10),
    superseded_by="manual-cp200-v2",
)
NEW = document(
    "manual-cp200-v2",
    "CP-200 Manual revision 2",
    updated_at=date(2024, 5, 2),
    version=2,
    supersedes="manual-cp200-v1",
)
REVISIONS = [
    evidence(1, "Replace the CP-200 mechanical seal every 2000 operating hours.", OLD),
    evidence(2, "Replace the CP-200 mechanical seal every 3000 operating hours.", NEW),
]
HOW_CHANGED = "How did the seal interval change between revisions?"
OLD_ONLY = "Replace the CP-200 mechanical seal every 2000 operating hours [1]."


def test_a_question_about_a_change_is_about_history_and_a_plain_one_is_not():
    assert perceive(HOW_CHANGED).constraints.history is True
    assert perceive("How often is the oil changed?").constraints.history is False


def test_a_change_question_may_cite_the_superseded_revision_beside_its_successor():
    answer = (
        "Replace the CP-200 mechanical seal every 2000 operating hours [1]. "
        "Revision 2 replaces this with every 3000 operating hours [2]."
    )
    assert "superseded" not in kinds(check(HOW_CHANGED, answer, REVISIONS))


def test_a_plain_question_answered_from_the_superseded_revision_only_is_superseded():
    report = check("What is the seal interval?", OLD_ONLY, REVISIONS[:1])
    [issue] = report.issues
    assert (issue.check, issue.kind) == ("timeliness", "superseded")
    assert issue.document_ids == ("manual-cp200-v1", "manual-cp200-v2")


def test_a_change_question_answered_in_the_present_from_the_old_revision_only_is_superseded():
    assert "superseded" in kinds(check(HOW_CHANGED, OLD_ONLY, REVISIONS[:1]))


def test_a_newer_document_outranks_a_figure_only_in_a_sentence_about_the_same_thing():
    old = document("faq-ef50", "Forklift FAQ (EF-50)", updated_at=date(2021, 1, 10))
    new = document("guide-ef50", "EF-50 hydraulics guide", updated_at=date(2023, 10, 18))
    answer = "The EF-50 needs a periodic service every 250 hours [1]."
    about_oil = evidence(2, "Change the EF-50 hydraulic oil every 2000 h.", new)
    cited = [evidence(1, "The EF-50 needs a periodic service every 250 h.", old), about_oil]
    assert "outranked" not in kinds(check("How often is the EF-50 serviced?", answer, cited))
    about_service = evidence(2, "The EF-50 periodic service is now due every 500 h.", new)
    cited = [cited[0], about_service]
    assert "outranked" in kinds(check("How often is the EF-50 serviced?", answer, cited))


def test_a_change_question_naming_years_may_cite_both_versions():
    old = document(
        "reg-2020", "Charging rule 2020", updated_at=date(2020, 3, 1), superseded_by="reg-2025"
    )
    new = document(
        "reg-2025", "Charging rule 2025", updated_at=date(2025, 1, 1), supersedes="reg-2020"
    )
    question = "What changed in the ventilation requirement between the 2020 and 2025 rules?"
    answer = "The minimum was raised from 6 air changes per hour [1] to 8 air changes per hour [2]."
    cited = [
        evidence(1, "Charging rooms need 6 air changes per hour.", old),
        evidence(2, "Charging rooms need 8 air changes per hour.", new),
    ]
    report = check(question, answer, cited)
    assert not {"outside_interval", "superseded"} & set(kinds(report))


def test_now_a_versus_b_is_read_as_a_change():
    doc = document("manual-ef25", "EF-25 manual")
    cited = [evidence(1, "The relief valve is set to 190 bar (175 bar before Rev. 2).", doc)]
    wrong = "Rev. 2 lowered the relief setting; it is now 190 bar, versus 175 bar before [1]."
    assert "unsupported_relation" in kinds(
        check("How did the relief setting change?", wrong, cited)
    )
    right = "Rev. 2 raised the relief setting; it is now 190 bar, versus 175 bar before [1]."
    assert "unsupported_relation" not in kinds(
        check("How did the relief setting change?", right, cited)
    )


def test_one_version_then_the_other_with_while_is_read_in_order():
    old = document("rcr-2018", "RCR-2018")
    new = document("rcr-2023", "RCR-2023")
    cited = [
        evidence(1, "Repair a leak within 30 days.", old),
        evidence(2, "Repair a leak within 14 days.", new),
    ]
    answer = (
        "RCR-2018 allowed 30 days to repair a leak [1], while RCR-2023 shortened it to 14 days [2]."
    )
    assert "unsupported_relation" not in kinds(
        check("How did the repair time change?", answer, cited)
    )


def test_a_charging_time_on_a_charger_is_not_the_chargers_figure():
    doc = document("manual-ef50", "EF-50 manual")
    cited = [evidence(1, "A full charge of the EF-50 battery takes 9 h on the CH-80.", doc)]
    answer = "Charging the EF-50 battery takes 9 h on the CH-80 [1]."
    assert "wrong_entity" not in kinds(
        check("How long does the EF-50 take to charge?", answer, cited)
    )


def test_volts_are_a_unit_of_the_voltage_a_question_asks_for():
    doc = document("manual-ch80", "CH-80 charger manual")
    cited = [evidence(1, "The CH-80 delivers 80 V nominal at up to 150 A.", doc)]
    answer = "The CH-80 delivers 80 V nominal [1]."
    assert "off_question" not in kinds(
        check("What output voltage does the CH-80 give?", answer, cited)
    )


# -- facts bound to the entity of the sentence that states them ---------------------------
CODES_FAQ = [
    evidence(
        1,
        "## What does E04 mean?\n"
        "- **RO-300**: pre-filter differential pressure high; change the cartridges.\n"
        "- **UV-80**: lamp end of life; replace the lamp and reset the counter.",
        document("faq-codes", "Fault code questions"),
    )
]
E04 = "What does E04 mean on the UV-80?"


def test_another_controllers_meaning_of_a_code_is_a_wrong_entity():
    answer = "On the UV-80, E04 means the pre-filter differential pressure is too high [1]."
    [issue] = [i for i in check(E04, answer, CODES_FAQ).issues if i.kind == "wrong_entity"]
    assert "RO300" in issue.message and "UV80" in issue.message


def test_the_controllers_own_meaning_of_a_code_passes():
    answer = "On the UV-80, E04 means the lamp has reached its end of life [1]."
    report = check(E04, answer, CODES_FAQ)
    assert report.passed, report.issues


SIBLINGS = [
    evidence(
        1,
        "DP-12:\n- Maximum back-pressure: 10 bar\n- Output: 12 L/h\n\n"
        "DP-24:\n- Maximum back-pressure: 7 bar\n- Output: 24 L/h",
        document("manual-dp", "DP-12 / DP-24 dosing pump manual"),
    )
]


def test_items_under_a_label_line_are_the_labelled_models():
    question = "What is the maximum back-pressure of the DP-24?"
    wrong = check(question, "The DP-24 doses against up to 10 bar [1].", SIBLINGS)
    assert "wrong_entity" in kinds(wrong)
    right = check(question, "The DP-24 has a maximum back-pressure of 7 bar [1].", SIBLINGS)
    assert right.passed, right.issues


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
    assert "unsupported_number" in kinds(check(TEST, wrong, RULE))


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
    assert "unsupported_number" in kinds(report)


def test_a_year_from_the_cited_documents_date_is_supported():
    answer = "Rev. 2 (March 2024) tests the SB-12 at 1.43 times its 13 bar working pressure [1]."
    report = check(TEST, answer, RULE)
    assert "unsupported_number" not in kinds(report), report.issues


# -- uncited verdicts and conclusions --------------------------------------------------------
NOISE_LIMIT = [
    evidence(1, "The SB-12 produces 84 dB(A) at 1 m.", document("manual-sb12", "SB-12 manual")),
    evidence(2, "The noise limit at operator positions is 80 dB(A).", document("reg", "Rule")),
]
LOUD = "How does the SB-12 noise level compare with the limit?"


def test_a_conclusion_from_cited_figures_leans_on_their_citations():
    answer = (
        "The SB-12 produces 84 dB(A) [1]. The limit is 80 dB(A) [2]. "
        "The SB-12 is therefore 4 dB(A) above the limit."
    )
    report = check(LOUD, answer, NOISE_LIMIT)
    assert "uncited" not in kinds(report), report.issues


def test_an_uncited_sentence_with_a_new_fact_stays_uncited():
    answer = "The SB-12 produces 84 dB(A) [1]. Hearing protection is mandatory above the limit."
    assert "uncited" in kinds(check(LOUD, answer, NOISE_LIMIT))


def test_a_short_verdict_before_its_backing_leans_on_the_next_citation():
    answer = "Yes. The SB-12 produces 84 dB(A) while the limit is 80 dB(A) [1][2]."
    report = check("Is the SB-12 louder than the limit allows?", answer, NOISE_LIMIT)
    assert "uncited" not in kinds(report), report.issues


# -- what the question asks -------------------------------------------------------------------
CUTOFF = [
    evidence(
        1,
        "BIR-2023 requires the operator to test the low-water cutoff daily.",
        document("reg-bir-2023", "Boiler Inspection Rule BIR-2023"),
    )
]


def test_daily_answers_how_often_without_a_figure():
    answer = "Under BIR-2023 the low-water cutoff must be tested daily [1]."
    report = check("How often must the low-water cutoff be tested?", answer, CUTOFF)
    assert "off_question" not in kinds(report), report.issues


def test_a_yes_no_question_does_not_ask_for_the_attribute_it_names():
    question = "Can the operator test the low-water cutoff at full pressure?"
    report = check(question, "Yes: BIR-2023 requires a daily test of the cutoff [1].", CUTOFF)
    assert "off_question" not in kinds(report), report.issues


def test_lowered_to_a_compared_with_a_smaller_b_contradicts_the_figures():
    cited = [
        evidence(1, "Rev. 2: the maximum working pressure is 13 bar.", document("v2", "Rev. 2")),
        evidence(2, "Rev. 1: the maximum working pressure is 12 bar.", document("v1", "Rev. 1")),
    ]
    answer = "Rev. 2 lowered the maximum working pressure to 13 bar [1], compared with 12 bar [2]."
    report = check("How did the maximum working pressure change in Rev. 2?", answer, cited)
    assert "unsupported_relation" in kinds(report)


def test_more_often_compares_intervals_in_different_units():
    cited = [
        evidence(1, "The 2023 Code: review the assessment every 12 months.", document("c23", "C")),
        evidence(2, "The 2016 Code: review the assessment every 2 years.", document("c16", "C")),
    ]
    question = "Is the assessment reviewed more or less often under the 2023 Code?"
    wrong = "Less often: every 12 months [1], compared with every 2 years [2]."
    assert "unsupported_relation" in kinds(check(question, wrong, cited))
    right = "More often: every 12 months [1], compared with every 2 years [2]."
    assert "unsupported_relation" not in kinds(check(question, right, cited))


MAGAZINES = [
    evidence(1, "The VMC-800 tool magazine holds 30 tools.", document("vmc", "VMC-800 manual")),
    evidence(2, "The HMC-500 tool magazine holds 60 tools.", document("hmc", "HMC-500 manual")),
]
LARGER = "Which has the larger tool magazine, the VMC-800 or the HMC-500?"


def test_a_comparison_drawn_as_a_conclusion_is_checked_against_the_figures():
    wrong = "The VMC-800 holds 30 tools [1] and the HMC-500 holds 60 [2], so the VMC-800 is bigger."
    assert "unsupported_relation" in kinds(check(LARGER, wrong, MAGAZINES))
    right = "The VMC-800 holds 30 tools [1] and the HMC-500 holds 60 [2], so the HMC-500 is bigger."
    assert "unsupported_relation" not in kinds(check(LARGER, right, MAGAZINES))


def test_lowered_is_a_change_not_the_lower_of_a_contrast():
    cited = [
        evidence(1, "The upper action value is now 83 dB(A), was 85 dB(A).", document("n", "N"))
    ]
    question = "How did the upper exposure action value change?"
    answer = "The upper action value was lowered from 85 dB(A) to 83 dB(A) [1]."
    assert "off_question" not in kinds(check(question, answer, cited))


def test_a_question_that_starts_with_has_and_ends_on_changed_is_about_a_change():
    question = "Has the RB-12 encoder battery replacement interval changed?"
    assert perceive(question).constraints.history
    assert not perceive("How often is the RB-12 gearbox oil changed?").constraints.history


def test_faster_is_the_shorter_time():
    cited = [
        evidence(1, "The KB-16 closes in 55 ms.", document("kb16", "KB-16 manual")),
        evidence(2, "The KB-25 closes in 70 ms.", document("kb25", "KB-25 manual")),
    ]
    question = "Which closes faster, the KB-16 or the KB-25?"
    right = "The KB-16 closes faster than the KB-25 (55 ms vs 70 ms) [1][2]."
    assert "unsupported_relation" not in kinds(check(question, right, cited))
    wrong = "The KB-25 closes faster than the KB-16 (70 ms vs 55 ms) [2][1]."
    assert "unsupported_relation" in kinds(check(question, wrong, cited))


TX = [
    evidence(1, "The TX-1600 needs at least 1,000 mm around the tank.", document("tx16", "TX")),
    evidence(2, "The TX-1000 needs at least 800 mm around the tank.", document("tx10", "TX")),
]
CLEARANCE = "Which transformer needs more clearance, the TX-1000 or the TX-1600?"


def test_a_comparison_that_states_one_sides_figure_only_is_one_sided():
    answer = "The TX-1600 needs more: at least 1,000 mm [1], compared with the smaller TX-1000."
    # Both rules report it: no figure bound to the TX-1000, and one figure only.
    found = [i for i in check(CLEARANCE, answer, TX).issues if i.kind == "missing_side"]
    assert [i.rule for i in found] == ["sides.one_sided", "sides.single_figure"]
    assert "TX1000" in found[0].message


def test_a_comparison_with_both_figures_is_not_one_sided():
    answer = "The TX-1600 needs more clearance than the TX-1000 (1,000 mm vs 800 mm) [1][2]."
    assert "missing_side" not in kinds(check(CLEARANCE, answer, TX))


def test_a_figure_in_a_markdown_table_belongs_to_its_columns_model():
    cited = [
        evidence(
            1,
            "| | KB-16 | KB-25 |\n|---|---|---|\n| Main terminal bolt torque | 70 N·m | 95 N·m |",
            document("manual-kb", "KB-16 / KB-25 manual"),
        )
    ]
    question = "What torque do the KB-16 terminal bolts need?"
    right = check(question, "The KB-16 terminal bolts take 70 N·m [1].", cited)
    assert "wrong_entity" not in kinds(right)
    # 70 lbf·ft is 95 N·m: the KB-25's figure.
    assert "wrong_entity" in kinds(check(question, "The KB-16 bolts take 70 lbf·ft [1].", cited))


def _table_row(number: int, text: str, order: str = "DESC") -> Evidence:
    """A ranked table result row as evidence (position = its rank)."""
    doc = replace(document("table:shortages", "Table shortages"), knowledge_base="tables")
    e = evidence(number, text, doc)
    sql = f'SELECT model, avg(rate) AS "value" ORDER BY "value" IS NULL, "value" {order}'
    return replace(e, hit=replace(e.hit, position=number - 1), query=sql)


RANKED = [
    _table_row(1, "shortages, 2026-10, region East: shortage rate of model CP-200 is 11.11 %."),
    _table_row(2, "shortages, 2026-10, region East: shortage rate of model CV-12 is 10 %."),
    _table_row(3, "shortages, 2026-10, region East: shortage rate of model GX-500 is 6.31 %."),
]
HIGHEST = "Which model had the highest shortage rate in the East region in October 2026?"


def test_the_highest_of_a_ranked_table_result_is_its_first_row():
    right = "The CP-200 had the highest shortage rate, 11.11 % [1]."
    assert "unsupported_relation" not in kinds(check(HIGHEST, right, RANKED))
    wrong = "The CV-12 had the highest shortage rate, 10 % [2]."
    [issue] = [i for i in check(HIGHEST, wrong, RANKED).issues if i.kind == "unsupported_relation"]
    assert "CV12" in issue.message and "CP200" in issue.message
    lowest = "The GX-500 had the lowest shortage rate, 6.31 % [3]."
    assert "unsupported_relation" not in kinds(check(HIGHEST, lowest, RANKED))


def test_a_figure_in_its_own_clause_is_about_the_subject_not_a_rule_named_before():
    cited = [
        evidence(1, "PSI-2022: cut-outs are function tested every 6 months.", document("psi", "P")),
        evidence(2, "Change the NK-75 oil every 8,000 operating hours.", document("nk75", "NK-75")),
    ]
    question = "How often do the NK-75's cut-outs need a test, and how often is its oil changed?"
    answer = (
        "The cut-outs must be tested every 6 months under PSI-2022 [1], and the oil is "
        "changed every 8,000 operating hours [2]."
    )
    assert "wrong_entity" not in kinds(check(question, answer, cited))


def test_a_rules_sentence_is_not_about_the_rule_as_an_entity():
    cited = [
        evidence(
            1,
            "The compressors are isolated automatically at stage 3, 500 ppm of ammonia.",
            replace(
                document("reg-amr-2020", "Ammonia Machinery Rule AMR-2020"), doc_type="regulation"
            ),
        )
    ]
    question = "At what ammonia level are the NK-75 compressors isolated?"
    answer = "The NK-75 compressors are isolated automatically at stage 3, 500 ppm of ammonia [1]."
    assert "wrong_entity" not in kinds(check(question, answer, cited))
