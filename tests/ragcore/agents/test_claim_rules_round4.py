"""General rules of the fourth round, on hand-written sentences: a code's meaning claimed
for a model and its controller, a figure whose one name follows it, each side of a
"whereas", what an answer adds after its citation, an attribute no figure backs
(colour), why-questions, what is done in a how-often question, a successor that takes
effect later than it is dated, and pressures in Pa and flows per second."""

from __future__ import annotations

from datetime import date

from handmade import check, document, evidence, kinds, perceive

from ragcore.agents.evidence import Draft, split_statements
from ragcore.agents.validation import Validator
from ragcore.documents import DocumentInfo
from ragcore.text.quantities import quantities
from ragcore.text.units import agrees
from ragcore.types import Route

FAN_AND_SPRAY = [
    evidence(
        1,
        "On the FCU-7 controller used by both fans, E14 means motor winding over-temperature. "
        "On the DSC-4 controller of the DS-12 spray system, E14 means low water pressure.",
        document("faq-dust", "Dust and ventilation FAQ"),
    )
]


# -- a model and its controller ------------------------------------------------------------
def test_a_code_meaning_of_another_controller_claimed_for_a_model_and_its_own():
    answer = "On the DS-12's DSC-4 controller, E14 signals motor winding over-temperature [1]."
    report = check("What does E14 mean on the DS-12 spray system?", answer, FAN_AND_SPRAY)
    assert "wrong_entity" in kinds(report), report.issues


def test_the_meaning_given_for_the_model_and_its_controller_is_bound_to_them():
    answer = "On the DS-12's DSC-4 controller, E14 means low water pressure [1]."
    report = check("What does E14 mean on the DS-12 spray system?", answer, FAN_AND_SPRAY)
    assert "wrong_entity" not in kinds(report), report.issues


# -- each side of a contrast ---------------------------------------------------------------
TRACTOR_CODES = [
    evidence(
        1,
        "An E-217 on a TR-110 is therefore a filter warning, whereas on a TR-85 it indicates "
        "low C2 clutch pressure.",
        document("manual-tr110", "TR-110 Tractor Service Manual"),
    )
]


def test_the_other_side_of_a_whereas_is_another_entitys_fact():
    answer = "On the TR-110, E-217 indicates low pressure in the C2 reverse clutch pack [1]."
    report = check("What does fault code E-217 mean on a TR-110?", answer, TRACTOR_CODES)
    assert "wrong_entity" in kinds(report), report.issues


def test_the_own_side_of_a_whereas_is_the_entitys_fact():
    answer = "On the TR-85, E-217 indicates low C2 clutch pressure [1]."
    report = check("What does fault code E-217 mean on a TR-85?", answer, TRACTOR_CODES)
    assert "wrong_entity" not in kinds(report), report.issues


# -- a figure whose one name follows it ----------------------------------------------------
BALLAST = [
    evidence(
        1,
        "On the TR-85, at least 600 kg rear ballast is required; on the TR-110, at least 800 kg.",
        document("manual-ml40", "ML-40 Front Loader Manual"),
    )
]


def test_a_figure_named_after_it_for_another_entity_is_wrong_entity():
    answer = "At least 800 kg of rear ballast is required on the TR-85 [1]."
    report = check("How much rear ballast does a TR-85 need with the ML-40?", answer, BALLAST)
    assert "wrong_entity" in kinds(report), report.issues


def test_a_figure_named_after_it_for_its_own_entity_passes():
    answer = "At least 600 kg of rear ballast is required on the TR-85 [1]."
    report = check("How much rear ballast does a TR-85 need with the ML-40?", answer, BALLAST)
    assert not report.issues, report.issues


# -- what comes after the citation ---------------------------------------------------------
KNIVES = [
    evidence(
        1,
        "Straw chopper: turn or replace the 64 chopper knives of the chopper rotor every "
        "300 h, and check the counter-knife gap.",
        document("manual-ch310", "CH-310 Combine Service Manual"),
    )
]


def test_a_clause_added_after_the_citation_must_be_supported():
    answer = (
        "Turn or replace the 64 chopper knives of the chopper rotor every 300 h [1], always "
        "as a complete set so the rotor stays balanced."
    )
    report = check("How often should the CH-310 chopper knives be serviced?", answer, KNIVES)
    # (here the whole statement falls short too; with the embedder's support it may not)
    assert {"unsupported_claim", "unsupported"} & set(kinds(report)), report.issues


def test_a_conclusion_after_the_citation_is_no_claim_of_the_source():
    answer = (
        "Turn or replace the 64 chopper knives of the chopper rotor every 300 h [1], so about "
        "twice a season."
    )
    report = check("How often should the CH-310 chopper knives be serviced?", answer, KNIVES)
    assert not report.issues, report.issues


# -- an attribute without units ------------------------------------------------------------
GUARDS = [
    evidence(
        1,
        "Guard mesh openings on the BC-600 guard kit are 20 mm.",
        document("manual-bc600", "BC-600 Conveyor Service Manual"),
    )
]


def test_a_colour_no_cited_source_speaks_of_is_unsupported():
    answer = "The BC-600 guard kit is supplied painted in safety yellow [1]."
    report = check("What colour are the BC-600 pulley guards painted?", answer, GUARDS)
    assert "unsupported_claim" in kinds(report), report.issues


def test_a_colour_the_source_gives_is_backed():
    cited = [
        evidence(
            1,
            "The BC-600 guard kit is supplied in safety yellow (RAL 1003).",
            document("manual-bc600", "BC-600 Conveyor Service Manual"),
        )
    ]
    answer = "The BC-600 guard kit comes in safety yellow [1]."
    report = check("What colour are the BC-600 pulley guards?", answer, cited)
    assert "unsupported_claim" not in kinds(report), report.issues


# -- what a question asks for --------------------------------------------------------------
EXCITER = [
    evidence(
        1,
        "Rev. 2 changes the exciter oil to ISO VG 220, a heavier grade that stays in service "
        "longer; the oil change interval is extended to 2,000 h.",
        document("manual-vs24-v2", "VS-24 Screen Manual (Rev. 2)"),
    )
]


def test_a_why_question_asks_for_a_reason_not_the_attribute():
    answer = "Because the exciters were switched to a heavier oil (ISO VG 220) [1]."
    report = check("Why was the VS-24 exciter oil change interval extended?", answer, EXCITER)
    assert "off_question" not in kinds(report), report.issues


NOISE_RULE = [
    evidence(
        1,
        "A noise survey of each processing plant must be carried out at least every 2 years. "
        "Workers exposed above the upper action value must be offered audiometric testing "
        "every 12 months.",
        document("reg-noise", "Quarry Noise Regulation 2021"),
    )
]


def test_how_often_something_else_is_done_is_off_the_question():
    answer = "The 2021 regulation requires a noise survey of each plant at least every 2 years [1]."
    question = "How often must hearing checks be offered under the 2021 regulation?"
    report = check(question, answer, NOISE_RULE)
    assert "off_question" in kinds(report), report.issues


def test_how_often_what_is_done_answers_the_question():
    answer = "Audiometric testing must be offered every 12 months [1]."
    question = "How often must hearing checks be offered under the 2021 regulation?"
    report = check(question, answer, NOISE_RULE)
    assert "off_question" not in kinds(report), report.issues


def test_a_figure_made_longer_is_a_history_question_an_alarm_raised_is_not():
    assert perceive("Why was the VS-24 oil change interval extended in Rev. 2?").constraints.history
    assert perceive("What happened to the BC-600 gearbox oil interval?").constraints.history
    alarm = "Before July 2024, at what vibration velocity was a PX-20 alarm to be raised?"
    assert not perceive(alarm).constraints.history


def test_which_of_two_models_is_quieter_asked_yes_no_style_is_a_comparison():
    perception = perceive("Is the TR-85 or the TR-110 cab quieter?")
    assert perception.route == Route.COMPARISON
    assert set(perception.sides) == {"TR-85", "TR-110"}


def test_narrower_is_checked_against_the_figures():
    cited = [
        evidence(
            1,
            "| Item | SP-24 | SP-32 |\n|---|---|---|\n| Transport width | 2.55 m | 2.95 m |",
            document("manual-sp", "SP-24 and SP-32 Sprayer Manual"),
        )
    ]
    question = "Which sprayer is narrower in transport position, the SP-24 or the SP-32?"
    wrong = "The SP-32 is the narrower of the two, at 2.95 m versus 2.55 m for the SP-24 [1]."
    right = "The SP-24 is the narrower of the two, at 2.55 m versus 2.95 m for the SP-32 [1]."
    assert "unsupported_relation" in kinds(check(question, wrong, cited))
    assert "unsupported_relation" not in kinds(check(question, right, cited))


# -- a successor that takes effect after its date ------------------------------------------
OLD_RULE = document(
    "reg-dust-2016",
    "Quarry Dust Control Regulation 2016",
    updated_at=date(2016, 5, 1),
    superseded_by="reg-dust-2023",
)
NEW_RULE = document(
    "reg-dust-2023",
    "Quarry Dust Control Regulation 2023",
    updated_at=date(2023, 1, 16),
    version=2,
    supersedes="reg-dust-2016",
)


def test_the_old_rule_answers_for_a_month_before_its_successor_took_effect():
    retrieved = [
        evidence(1, "The respirable silica limit is 0.1 mg/m³ over an 8-hour shift.", OLD_RULE),
        evidence(2, "Effective 1 March 2023. The silica limit is 0.05 mg/m³.", NEW_RULE),
    ]
    validator = Validator(documents=lambda ids: {d.id: d for d in (OLD_RULE, NEW_RULE)})
    question = "What was the respirable crystalline silica limit in January 2023?"
    for cited_answer, superseded in (
        ("In January 2023 the limit was 0.1 mg/m³ over an 8-hour shift [1].", False),
        ("In April 2023 the limit was 0.1 mg/m³ over an 8-hour shift [1].", None),
    ):
        if superseded is None:  # the same answer for a month after: the newer rule applied
            question = "What was the respirable crystalline silica limit in April 2023?"
        draft = Draft(cited_answer, split_statements(cited_answer), "test")
        report = validator.check(draft, retrieved, perceive(question))
        assert ("superseded" in kinds(report)) is (superseded is None), report.issues


# -- units ---------------------------------------------------------------------------------
def test_pascals_and_flows_per_second_are_units():
    found = quantities("At least 50 Pa above ambient; about 2.6 m³/s, or 60 litres a minute")
    assert [(q.value, q.unit) for q in found] == [(50, "Pa"), (2.6, "m³/s"), (60, "L/min")]
    assert agrees(2.6, "m³/s", 9500, "m³/h")
    assert agrees(10.6, "m³/s", 38000, "m³/h")
    assert not agrees(2.6, "m³/s", 9500, "m³/min")


def test_a_pressure_in_pa_answers_a_pressure_question():
    cited = [
        evidence(
            1,
            "Enclosed operator cabins must be kept at least 50 Pa above ambient pressure.",
            document("reg-dust-2023", "Quarry Dust Control Regulation 2023"),
        )
    ]
    question = "What positive pressure must enclosed operator cabins maintain?"
    report = check(question, "At least 50 Pa above ambient [1].", cited)
    assert "off_question" not in kinds(report), report.issues


# -- second half of the round ----------------------------------------------------------------
def test_a_citation_of_a_passage_the_writer_was_not_given_is_invalid():
    cited = [
        evidence(1, "The ES-90 drive motor is rated 11 kW.", document("es90", "ES-90 Manual")),
        evidence(2, "The ES-80 drive motor is rated 7.5 kW.", document("es80", "ES-80 Manual")),
    ]
    answer = "The ES-80 drive motor is rated 7.5 kW [2]."
    perception = perceive("What power is the ES-80 drive motor?")
    shown_one = Draft(answer, split_statements(answer), "test", shown=(1,))
    report = Validator().check(shown_one, cited, perception)
    assert "invalid_citation" in kinds(report), report.issues
    shown_both = Draft(answer, split_statements(answer), "test", shown=(1, 2))
    assert not Validator().check(shown_both, cited, perception).issues


def test_a_rules_designation_is_not_the_entity_of_its_figures():
    rule = document("reg-mgps", "MGPS-1 Medical Gas Pipeline Systems 2023")
    rule = DocumentInfo(**{**rule.__dict__, "doc_type": "regulation"})
    cited = [
        evidence(
            1,
            "The VX-300 raises the low vacuum alarm at -450 mbar.",
            document("vx", "VX-300 Manual"),
        ),
        evidence(
            2, "Under MGPS-1 each terminal unit must hold at least 40 kPa below atmospheric.", rule
        ),
    ]
    answer = (
        "The VX-300 raises its low vacuum alarm at -450 mbar [1]. Each terminal unit must "
        "hold at least 40 kPa below atmospheric [2]."
    )
    report = check(
        "What is the VX-300's low vacuum alarm, and what must terminal units hold?", answer, cited
    )
    assert "wrong_entity" not in kinds(report), report.issues


def test_temperatures_below_zero_keep_their_sign():
    found = quantities("set point -80 °C, which is -112 °F; colder than minus 20 °C; 5-30 °C")
    assert [q.value for q in found] == [-80, -112, -20, 5, 30]
    assert agrees(-112, "°F", -80, "°C") and not agrees(112, "°F", -80, "°C")


def test_cubic_feet_and_people_per_hour_are_units():
    found = quantities("about 25.7 cubic feet; 11,000 persons per hour")
    assert [(q.value, q.unit) for q in found] == [(25.7, "ft³"), (11000, "persons/h")]
    assert agrees(25.7, "ft³", 728, "L")


CENTRIFUGE = [
    evidence(
        1,
        "The CR-22 accelerates to maximum speed in 45 s and brakes to standstill in 50 s.",
        document("cr22", "CR-22 Centrifuge Manual"),
    )
]


def test_a_comparison_inside_a_statement_is_checked_against_its_figures():
    question = "On the CR-22, how does acceleration time compare with braking time?"
    wrong = (
        "The CR-22 takes 45 s to accelerate, which is slower than braking, which takes 50 s [1]."
    )
    right = (
        "The CR-22 takes 45 s to accelerate, which is faster than braking, which takes 50 s [1]."
    )
    assert "unsupported_relation" in kinds(check(question, wrong, CENTRIFUGE))
    assert "unsupported_relation" not in kinds(check(question, right, CENTRIFUGE))


def test_a_bound_after_than_is_no_comparison():
    cited = [
        evidence(
            1,
            "Below 2 °C the step heaters switch on and keep the step band above 3 °C.",
            document("es90", "ES-90 Escalator Manual"),
        )
    ]
    answer = "Once it is colder than 2 °C, heaters keep the step band warmer than 3 °C [1]."
    report = check("How does the ES-90 cope with frost?", answer, cited)
    assert "unsupported_relation" not in kinds(report), report.issues


STERILISER_RULE = [
    evidence(
        1,
        "The small-load thermometric test is required every 6 months; the door interlock "
        "check every 3 months.",
        document("reg-stu2", "STU-2 Steriliser Code 2021"),
    )
]


def test_a_concluded_more_often_is_checked_against_whose_interval_is_shorter():
    question = "Is the thermometric test done more or less often than the door interlock check?"
    stated = (
        "The thermometric test is required every 6 months and the door interlock check every "
        "3 months [1], so the {} is done more often."
    )
    wrong = check(question, stated.format("thermometric test"), STERILISER_RULE)
    right = check(question, stated.format("door interlock check"), STERILISER_RULE)
    assert "unsupported_relation" in kinds(wrong), wrong.issues
    assert "unsupported_relation" not in kinds(right), right.issues


FREEZER = [
    evidence(
        1,
        "The UF-86 alarm battery provides 72 h of back-up. Replace it every 3 years.",
        document("uf86", "UF-86 Freezer Manual"),
    )
]


def test_how_often_is_answered_by_a_frequency_not_a_duration():
    question = "How often should the UF-86 alarm battery be replaced?"
    duration = check(question, "The UF-86 alarm battery provides 72 h of back-up [1].", FREEZER)
    assert "off_question" in kinds(duration), duration.issues
    interval = check(question, "Replace the UF-86 alarm battery every 3 years [1].", FREEZER)
    assert "off_question" not in kinds(interval), interval.issues


def test_the_focus_is_named_by_its_head_or_half_its_words():
    cited = [
        evidence(
            1,
            "VL-20 brake: holding torque 200 N·m per circuit; air gap 0.3 to 0.5 mm.",
            document("vl20", "VL-20 Lift Manual"),
        )
    ]
    question = "What brake air gap should the VL-20 have?"
    torque = check(
        question, "The VL-20 brake holding torque should be 200 N·m per circuit [1].", cited
    )
    assert "off_question" in kinds(torque), torque.issues
    gap = check(question, "Its air gap should be 0.3 to 0.5 mm [1].", cited)
    assert "off_question" not in kinds(gap), gap.issues


ESCALATORS = [
    evidence(
        1,
        "- Drive motor: 11 kW, 400 V (ES-80: 7.5 kW)\n\n"
        "Unlike the ES-80, whose drive chain is lubricated by hand every 1,000 running hours, "
        "the ES-90 has an automatic lubricator. Refill its 3 L reservoir every 2,000 running "
        "hours.\n\n"
        "Note that E22 has a different meaning on the ES-90 than on the ES-80, where it "
        "indicates the comb plate safety switch. On the ES-90 the comb plate switch is "
        "reported as E23.",
        document("manual-es90", "ES-90 Escalator Manual"),
    )
]


def test_a_parenthesised_aside_does_not_take_its_lines_figure():
    report = check(
        "What power is the ES-90 drive motor?",
        "The ES-90 has an 11 kW drive motor [1].",
        ESCALATORS,
    )
    assert "wrong_entity" not in kinds(report), report.issues


def test_a_where_clause_is_about_the_name_before_it_and_another_code_is_another_fact():
    answer = "On the ES-90, E22 means the comb plate safety switch has operated [1]."
    report = check("What does E22 mean on the ES-90?", answer, ESCALATORS)
    assert "wrong_entity" in kinds(report), report.issues


def test_its_in_a_clause_of_its_own_refers_to_the_entity_before():
    answer = (
        "The ES-80 uses an automatic lubricator; its 3 L reservoir is refilled every 2,000 "
        "running hours [1]."
    )
    report = check("How is the ES-80 drive chain lubricated?", answer, ESCALATORS)
    assert "wrong_entity" in kinds(report), report.issues


RECORDS_RULE = [
    evidence(
        1,
        "Overload limiters must be calibrated every 12 months. Examination reports shall be "
        "kept for at least 6 years.",
        document("reg-ler", "Lifting Equipment Rules LER-2024"),
    )
]


def test_how_long_something_else_is_done_is_off_the_question():
    question = "Under LER-2024, how long must examination reports be kept?"
    other = check(
        question, "Overload limiters must be calibrated every 12 months [1].", RECORDS_RULE
    )
    assert "off_question" in kinds(other), other.issues
    kept = check(
        question, "Examination reports must be kept for at least 6 years [1].", RECORDS_RULE
    )
    assert "off_question" not in kinds(kept), kept.issues


def test_laden_and_boost_are_not_unladen_and_float():
    cited = [
        evidence(
            1,
            "The EF-50 travels at 17 km/h laden and 19 km/h unladen. Its charger floats at "
            "2.27 V per cell and boosts at 2.35 V per cell.",
            document("ef50", "EF-50 Truck Manual"),
        )
    ]
    laden = check(
        "What is the unladen travel speed of the EF-50?", "Laden, it travels at 17 km/h [1].", cited
    )
    assert "off_question" in kinds(laden), laden.issues
    unladen = check(
        "What is the unladen travel speed of the EF-50?",
        "Unladen, it travels at 19 km/h [1].",
        cited,
    )
    assert "off_question" not in kinds(unladen), unladen.issues
    floating = check(
        "What is the EF-50 boost charge voltage?",
        "The EF-50 charger floats at 2.27 V per cell [1].",
        cited,
    )
    assert "off_question" in kinds(floating), floating.issues


def test_mid_early_and_late_in_a_year_are_thirds_of_it():
    mid = perceive("What oil content limit applied in mid-2019?").constraints.time
    assert (mid.start, mid.end) == (date(2019, 5, 1), date(2019, 8, 31))
    late = perceive("How often was it tested in late 2022?").constraints.time
    assert (late.start, late.end) == (date(2022, 9, 1), date(2022, 12, 31))


def test_a_figure_in_the_unit_the_question_spells_answers_it():
    cited = [
        evidence(
            1,
            "PX-45 maximum heavy fuel oil throughput: 4,500 L/h.",
            document("px45", "PX-30 and PX-45 Separator Manual"),
        )
    ]
    question = "What is the maximum heavy fuel oil throughput of the PX-45 in m³/h?"
    report = check(question, "About 4.5 m³/h [1].", cited)
    assert "off_question" not in kinds(report), report.issues


def test_a_clause_on_when_a_rule_applied_is_left_to_the_timeliness_check():
    rule = document("reg-survey-2019", "Class Survey Rules 2019", updated_at=date(2019, 3, 1))
    cited = [
        evidence(1, "Starting-air receivers: internal examination at least every 60 months.", rule)
    ]
    answer = (
        "60 months, under the 2019 edition of the rules, which stayed in force until the "
        "2023 edition took effect on 1 July 2023 [1]."
    )
    question = (
        "In 2021, what was the maximum interval between internal examinations of a "
        "starting-air receiver?"
    )
    assert "unsupported_claim" not in kinds(check(question, answer, cited))


def test_watts_heating_capacity_and_signed_range_starts():
    found = quantities("-25 to +70 °C; 60 W against 45 W")
    assert [(q.value, q.unit) for q in found] == [(-25, "°C"), (70, "°C"), (60, "W"), (45, "W")]
    assert agrees(0.06, "kW", 60, "W")
    cited = [
        evidence(1, "HV-14 heating capacity: 30 kW.", document("hv14", "HV-14 Coach HVAC Manual")),
        evidence(2, "HV-12 heating capacity: 24 kW.", document("hv12", "HV-12 Coach HVAC Manual")),
    ]
    answer = "The HV-14 heats with 30 kW [1], more than the HV-12's 24 kW [2]."
    report = check("Compare the heating capacity of the HV-12 and HV-14.", answer, cited)
    assert "off_question" not in kinds(report), report.issues


def test_a_comparative_after_while_is_said_of_the_side_named_there():
    cited = [
        evidence(
            1,
            "Mounting bolt torque: CB-20 85 N·m; CB-35 120 N·m.",
            document("faq-compressors", "Depot FAQ - CB-20 versus CB-35 Brake Compressors"),
        )
    ]
    question = "Are CB-20 and CB-35 mounting bolts tightened to the same torque?"
    right = "No. CB-20 bolts take 85 N·m, while the CB-35 needs a higher 120 N·m [1]."
    wrong = "No. CB-20 bolts take 120 N·m, while the CB-35 needs a higher 85 N·m [1]."
    assert "unsupported_relation" not in kinds(check(question, right, cited))
    assert {"unsupported_relation", "wrong_entity"} & set(kinds(check(question, wrong, cited)))
