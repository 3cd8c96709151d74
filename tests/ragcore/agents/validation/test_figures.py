"""Figures and entity binding (``checks/figures``): each claimed figure's value, unit and
entity against the cited sources (``figures.value``), and a claim without a figure bound
to the entity of the source sentence that states it (``binding.entity``)."""

from __future__ import annotations

from dataclasses import replace

from sources import BROCHURE, FLOW, WASHERS, check, document, evidence, findings

from ragcore.agents.reading import identifiers
from ragcore.agents.validation.figures import binding
from ragcore.documents import DocumentInfo
from ragcore.text.quantities import quantities
from ragcore.text.units import agrees


# -- a product with a part -----------------------------------------------------------------
def test_a_document_about_a_product_with_a_part_is_about_the_product():
    doc = document("mt9", "MT-9 Hoist with QX-2 Controller Manual")
    cited = [evidence(1, "QX-2 settings:\n- Brake delay: 400 ms", doc)]
    report = check("What is the MT-9 brake delay?", "The MT-9 brake delay is 400 ms [1].", cited)
    assert findings(report) == [], report.issues


def test_a_figure_of_such_a_document_may_be_its_parts():
    doc = document("mt9", "MT-9 Hoist with QX-2 Controller Manual")
    cited = [evidence(1, "The overload trip acts at 110 %.", doc)]
    answer = "The QX-2 trips on overload at 110 % [1]."
    report = check("When does the QX-2 trip on overload?", answer, cited)
    assert findings(report) == [], report.issues


def test_a_document_about_two_models_lends_no_figure_to_either():
    doc = document("lm", "LM-2 and LM-4 Lathe Manual")
    cited = [
        evidence(1, "LM-2:\n- Air: 5 bar\n\nLM-4:\n- Air: 7 bar\n\nAir must be dry at 7 bar.", doc)
    ]
    report = check("What air pressure does the LM-2 need?", "The LM-2 needs 7 bar [1].", cited)
    assert findings(report) == [("figures.value", "wrong_entity")], report.issues


# -- a part and the product it is fitted to ----------------------------------------------------
CONTROLLER = [
    evidence(
        1,
        "The QT-2 controller is fitted to the KW-5 boiler. F4 resets itself 3 min after the "
        "flue gas has cooled.",
        document("qt2", "QT-2 Controller Reference"),
    )
]


def test_a_parts_figure_holds_for_the_product_its_document_fits_it_to():
    question = "Does F4 on the KW-5 clear by itself?"
    answer = "On the KW-5, F4 resets itself 3 min after the flue gas has cooled [1]."
    report = check(question, answer, CONTROLLER)
    assert findings(report) == [], report.issues


def test_a_parts_figure_does_not_hold_for_a_product_it_is_not_fitted_to():
    question = "Does F4 on the KW-9 clear by itself?"
    answer = "On the KW-9, F4 resets itself 3 min after the flue gas has cooled [1]."
    assert findings(check(question, answer, CONTROLLER)) == [("figures.value", "wrong_entity")]


def test_a_product_sharing_a_part_lends_its_figures_to_no_other_product():
    doc = document("hx5", "HX-5 heat pump manual")
    cited = [
        evidence(
            1, "The HX-5 uses the QT-2 controller, shared with the RZ-4. Noise: 49 dB(A).", doc
        )
    ]
    report = check("How loud is the RZ-4?", "The RZ-4 is rated at 49 dB(A) [1].", cited)
    assert findings(report) == [("figures.value", "wrong_entity")], report.issues


# -- several figures, each "on the" model it is for ---------------------------------------------
TRUCKS = [
    evidence(
        1,
        "Replace the return filter every 1,000 h on the LT-35 and every 500 h on the LT-50.",
        document("lt", "LT trucks hydraulics guide"),
    )
]


def test_figures_each_said_on_a_model_are_that_models():
    question = "How often is the LT-35 return filter replaced?"
    wrong = check(question, "Replace the LT-35 return filter every 500 h [1].", TRUCKS)
    assert findings(wrong) == [("figures.value", "wrong_entity")]
    right = check(question, "Replace the LT-35 return filter every 1,000 h [1].", TRUCKS)
    assert findings(right) == [], right.issues


def test_one_figure_on_a_model_says_where_not_whose():
    cited = [evidence(1, "The CH-8 charges a pack in 9 h on the DB-2 dock.", document("c", "C"))]
    answer = "The CH-8 charges a pack in 9 h [1]."
    report = check("How long does the CH-8 take to charge a pack?", answer, cited)
    assert findings(report) == [], report.issues


def test_instead_of_a_model_introduces_its_figure_not_the_owner_of_the_one_before():
    question = "Why does the LT-50 get a new return filter sooner than the LT-35?"
    answer = "Its return filter is replaced after 500 h instead of the LT-35's 1,000 h [1]."
    cited = [*TRUCKS]
    report = check(question, answer.replace("Its", "The LT-50's"), cited)
    assert findings(report) == [], report.issues


FAULT_CODES = [
    evidence(
        1,
        "Fault codes by controller:\n"
        "- F-12 on the QX-5: belt tension too low.\n"
        "- F-12 on the RM-7: hydraulic oil temperature above 80 °C.",
        document("faq-codes", "Fault code FAQ"),
    )
]


# -- codes ---------------------------------------------------------------------------------
def test_a_code_is_not_the_entity_a_claim_is_about():
    answer = "On the QX-5, F-12 means the hydraulic oil temperature is above 80 °C [1]."
    report = check("What does F-12 mean on the QX-5?", answer, FAULT_CODES)
    assert findings(report) == [("binding.entity", "wrong_entity")], report.issues


def test_a_code_meaning_stated_for_the_asked_model_is_bound_to_it():
    answer = "On the QX-5, F-12 means the belt tension is too low [1]."
    report = check("What does F-12 mean on the QX-5?", answer, FAULT_CODES)
    assert findings(report) == [], report.issues


def test_a_code_in_a_list_of_one_models_codes_is_that_models():
    cited = [
        evidence(
            1,
            "Alarm list of the NV-3 controller:\n- AL-21: door interlock open.",
            document("nv3", "NV-3 controller manual"),
        )
    ]
    answer = "On the NV-3, AL-21 means the door interlock is open [1]."
    report = check("What does alarm AL-21 mean on the NV-3?", answer, cited)
    assert findings(report) == [], report.issues


# -- figures referred back to --------------------------------------------------------------
LIMITS = [
    evidence(
        1,
        "The KT-40 oil must keep a breakdown voltage of at least 55 kV in service.",
        document("kt40", "KT-40 transformer manual"),
    ),
    evidence(
        2,
        "Oil below 40 kV shall be treated. Substations are limited to 55 dB(A) at night.",
        document("reg", "Substation rule"),
    ),
]


def test_a_figure_referred_back_to_needs_no_second_source():
    question = "Which breakdown voltage limit applies to the KT-40 oil?"
    answer = "The KT-40 manual sets at least 55 kV in service [1]. The rule only asks for 40 kV "
    answer += "[2], so the manual's 55 kV governs."
    report = check(question, answer, LIMITS)
    assert findings(report) == [], report.issues


def test_a_figure_stated_anew_still_needs_its_source():
    question = "Which breakdown voltage limit applies to the KT-40 oil?"
    answer = "The KT-40 manual sets at least 55 kV in service [1]. The rule also sets 55 kV [2]."
    assert findings(check(question, answer, LIMITS)) == [("figures.value", "unit_mismatch")]


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
    assert findings(report) == [("binding.entity", "wrong_entity")], report.issues


def test_the_meaning_given_for_the_model_and_its_controller_is_bound_to_them():
    answer = "On the DS-12's DSC-4 controller, E14 means low water pressure [1]."
    report = check("What does E14 mean on the DS-12 spray system?", answer, FAN_AND_SPRAY)
    assert findings(report) == [], report.issues


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
    assert findings(report) == [("binding.entity", "wrong_entity")], report.issues


def test_the_own_side_of_a_whereas_is_the_entitys_fact():
    answer = "On the TR-85, E-217 indicates low C2 clutch pressure [1]."
    report = check("What does fault code E-217 mean on a TR-85?", answer, TRACTOR_CODES)
    assert findings(report) == [], report.issues


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
    assert findings(report) == [("figures.value", "wrong_entity")], report.issues


def test_a_figure_named_after_it_for_its_own_entity_passes():
    answer = "At least 600 kg of rear ballast is required on the TR-85 [1]."
    report = check("How much rear ballast does a TR-85 need with the ML-40?", answer, BALLAST)
    assert not report.issues, report.issues


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
    assert findings(report) == [], report.issues


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
    assert findings(report) == [], report.issues


def test_a_where_clause_is_about_the_name_before_it_and_another_code_is_another_fact():
    answer = "On the ES-90, E22 means the comb plate safety switch has operated [1]."
    report = check("What does E22 mean on the ES-90?", answer, ESCALATORS)
    assert findings(report) == [("binding.entity", "wrong_entity")], report.issues


def test_its_in_a_clause_of_its_own_refers_to_the_entity_before():
    answer = (
        "The ES-80 uses an automatic lubricator; its 3 L reservoir is refilled every 2,000 "
        "running hours [1]."
    )
    report = check("How is the ES-80 drive chain lubricated?", answer, ESCALATORS)
    assert findings(report) == [
        ("figures.value", "wrong_entity"),
        ("figures.value", "wrong_entity"),
    ], report.issues


# -- a code's meaning on a kind of unit ----------------------------------------------------
COOLING_CODES = [
    evidence(
        1,
        "## What does E-34 mean?\nIt depends on the unit. On the air handlers E-34 is a "
        "chilled-water valve position error; on the CH-900 it signals low water flow.",
        document("faq-cooling", "Cooling FAQ"),
    )
]


def test_a_meaning_the_source_gives_for_a_kind_of_unit_is_not_the_models():
    question = "What does fault code E-34 mean on the CH-900 chiller?"
    wrong = "On the CH-900, E-34 is a chilled-water valve position error [1]."
    right = "On the CH-900, E-34 signals low water flow [1]."
    assert findings(check(question, wrong, COOLING_CODES)) == [("binding.entity", "wrong_entity")]
    assert findings(check(question, right, COOLING_CODES)) == []


# -- a name after the citation that closes a figure's claim --------------------------------
def test_a_name_after_the_figures_citation_does_not_own_the_figure():
    cited = [
        evidence(
            1,
            "Internal impedance check of every block: every 3 months.",
            document("manual-pw300-v2", "PW-300 UPS Service Manual (Rev. 2)"),
        ),
        evidence(
            2,
            "UPS battery impedance is checked at intervals not exceeding a quarter.",
            document("reg-dcps-2023", "DCPS-2023 Power Systems Code"),
        ),
    ]
    answer = (
        "Yes. The Rev. 2 manual asks for an impedance check of every block every 3 months "
        "[1], which is the interval DCPS-2023 requires [2]."
    )
    question = "Does the PW-300's battery impedance check interval meet today's code?"
    assert findings(check(question, answer, cited)) == []


# -- claims of a clause, codes, ratings ----------------------------------------------------
HEADRIGS = [
    evidence(
        1,
        "E21 on the HB-44's SawLogic 3 controller means blade strain low, while E21 on the "
        "CutMaster 2 controller of the CS-60 means the arbor brake has not released.",
        document("faq-headrigs", "Headrig FAQ"),
    )
]


def test_a_clause_naming_its_model_is_bound_on_its_own():
    question = "What does fault code E21 mean on the CS-60?"
    wrong = "On the CS-60, E21 means the blade strain is low, and the saw is braked [1]."
    right = "On the CS-60, E21 means the arbor brake has not released [1]."
    assert findings(check(question, wrong, HEADRIGS)) == [("binding.entity", "wrong_entity")]
    assert findings(check(question, right, HEADRIGS)) == []


def test_a_two_word_meaning_of_a_code_is_bound_and_the_controller_word_is_no_content():
    cited = [
        evidence(
            1,
            "On the DX-40 extraction unit F03 means filter blocked. On the RC-9 robot "
            "controller F03 means the cell gate was opened in automatic mode.",
            document("faq-codes", "Fault code FAQ"),
        )
    ]
    question = "What does F03 mean on the RB-12 robot cell?"
    wrong = "On the RC-9 controller, F03 means the filter is blocked [1]."
    assert findings(check(question, wrong, cited)) == [("binding.entity", "wrong_entity")]


def test_a_protection_rating_is_no_entity():
    cited = [
        evidence(
            1,
            "Common to both models: supply 230 V; enclosure IP65; control by external pulse "
            "input (up to 180 pulses/min).",
            document("manual-dp24", "DP-12 and DP-24 Dosing Pump Manual"),
        )
    ]
    answer = "The DP-24 accepts an external pulse input of up to 180 pulses/min [1]."
    question = "Can the DP-24 be driven by pulses?"
    assert findings(check(question, answer, cited)) == []


def test_a_heading_above_a_blank_line_labels_its_list():
    question = "What is the maximum spin speed of the WX-80?"
    assert findings(check(question, "The WX-80 spins at 950 rpm [1].", WASHERS)) == [
        ("figures.value", "wrong_entity")
    ]
    assert findings(check(question, "The WX-80 spins at 850 rpm [1].", WASHERS)) == []


def test_a_figure_right_before_a_name_is_that_names():
    cited = [
        evidence(
            1,
            "For the 16 mm TC-30 rope the discard diameter is 14.9 mm; for the 22 mm CR-80 "
            "rope it is 20.5 mm.",
            document("manual-wrh", "Wire Rope and Hook Inspection Guide"),
        )
    ]
    answer = "The 22 mm CR-80 rope must be discarded at a measured 20.5 mm [1]."
    report = check("At what diameter must the CR-80 hoist rope be discarded?", answer, cited)
    assert findings(report) == [], report.issues


def test_us_gallons_per_minute_a_hyphenated_code_and_a_figure_measured_at_a_distance():
    found = quantities("About 61 US gallons per minute, that is 230 L/min")
    assert [(q.value, q.unit) for q in found] == [(61, "gal/min"), (230, "L/min")]
    assert agrees(61, "gal/min", 230, "L/min")
    tractors = [
        evidence(
            1,
            "The battery-electric TX-50 is much quieter: 62 dB(A) at 7 m, against 74 dB(A) at "
            "7 m for the diesel PB-120.",
            document("faq-tractors", "Baggage tractor FAQ"),
        )
    ]
    question = "How loud is the TX-50 at 7 m?"
    wrong = "The TX-50 measures 74 dB(A) at 7 m [1]."
    assert findings(check(question, wrong, tractors)) == [("figures.value", "wrong_entity")]
    belt = [
        evidence(
            1,
            "The stabiliser legs must be deployed whenever the boom is raised above 2.5 m.\n"
            "- **E-19** – Stabiliser not deployed with boom above 2.5 m (belt stops).",
            document("manual-bl20", "BL-20 Belt Loader Manual"),
        )
    ]
    answer = "Whenever the boom is raised above 2.5 m, the BL-20's stabilisers must be down [1]."
    report = check("When do the BL-20 stabiliser legs have to be put down?", answer, belt)
    assert findings(report) == [], report.issues


def test_a_figure_naming_no_model_in_a_manual_of_two_holds_for_each():
    cited = [
        evidence(
            1,
            "## Maintenance\n- Calibrate the conductivity sensor every 6 months.\n- Calibrate "
            "the temperature transmitters every 12 months.",
            document("manual-tc5", "TC-5 CIP Unit Manual"),
        ),
        evidence(
            2,
            "## Maintenance\n- Calibrate the tank temperature probe every 12 months.",
            document("manual-bc20-bc30", "BC-20 and BC-30 Bulk Milk Cooler Manual"),
        ),
    ]
    question = "Which is calibrated more often, the TC-5 conductivity sensor or the BC-20 probe?"
    answer = "The TC-5 sensor, every 6 months, versus every 12 months for the BC-20's probe [1][2]."
    assert findings(check(question, answer, cited)) == []
    wrong = "The TC-5 sensor, every 6 months, versus every 12 months for the BC-20's probe [1]."
    assert findings(check(question, wrong, cited)) == [("figures.value", "wrong_entity")]


def test_a_shared_manual_binding_the_figure_to_the_other_model_elsewhere_is_no_support():
    manual = document("manual-bc20-bc30", "BC-20 and BC-30 Bulk Milk Cooler Manual")
    cited = [
        evidence(1, "BC-20:\n- Cooling time: 3.0 h.\n\nBC-30:\n- Cooling time: 2.5 h.", manual),
        evidence(2, "- Cooling time: 2.5 h for a two-milking load.", manual),  # label cut off
    ]
    question = "How long does a BC-20 take to cool a two-milking load?"
    assert findings(check(question, "The BC-20 takes 2.5 h [1][2].", cited)) == [
        ("figures.value", "wrong_entity")
    ]
    assert findings(check(question, "The BC-20 takes 3.0 h [1].", cited)) == []


def test_a_rules_figure_naming_no_product_holds_for_the_asked_one():
    from dataclasses import replace

    rule = replace(document("reg-pv-2022", "Pressure Vessel Code 2022"), doc_type="regulation")
    cited = [
        evidence(
            1,
            "PT100 sensors are calibrated every 12 months. Vessels above 0.5 bar get an "
            "external visual inspection at least every 12 months.",
            rule,
        )
    ]
    question = "How often does an FV-90 tank need an external inspection?"
    answer = "The FV-90 needs an external visual inspection at least every 12 months [1]."
    assert findings(check(question, answer, cited)) == []


def test_the_other_models_figure_claimed_for_a_model_is_a_wrong_entity():
    report = check(FLOW, "The PX-20 delivers 780 L/min [1].", BROCHURE)
    assert findings(report) == [("figures.value", "wrong_entity")], report.issues
    [issue] = report.issues
    assert issue.check == "traceability"
    assert "PX35" in issue.message and "PX20" in issue.message
    assert issue.chunk_ids == (BROCHURE[0].chunk_id,)
    assert issue.document_ids == ("brochure-px",)


def test_a_models_own_figure_from_a_sentence_naming_two_models_is_no_wrong_entity():
    report = check(FLOW, "The PX-20 delivers 450 L/min [1].", BROCHURE)
    assert findings(report) == []
    assert report.passed, report.issues


def test_a_figure_attached_by_for_the_belongs_to_the_model_that_follows_it():
    text = BROCHURE[0].text
    start = text.index("450")
    assert [name for name, _, _ in identifiers(text)] == ["px35", "px20"]
    bound = binding(text, start, start + len("450 L/min"))
    assert (bound.entity, bound.attached) == ("px20", True)


def test_the_other_models_figure_converted_to_another_unit_is_still_a_wrong_entity():
    report = check(FLOW, "The PX-20 delivers 46.8 m³/h [1].", BROCHURE)
    assert findings(report) == [("figures.value", "wrong_entity")]


def test_the_second_models_figure_in_a_while_sentence_is_not_the_first_models():
    cited = [
        evidence(
            1,
            "The PX-20 delivers 450 L/min, while the PX-35 delivers 780 L/min.",
            document("brochure-px", "PX series brochure"),
        )
    ]
    assert findings(check(FLOW, "The PX-20 delivers 780 L/min [1].", cited)) == [
        ("figures.value", "wrong_entity")
    ]


MANUAL_PX35 = [evidence(1, "The rated flow is 780 L/min.", document("manual-px35", "PX-35 Manual"))]


def test_a_figure_of_a_document_about_one_model_claimed_for_another_is_a_wrong_entity():
    report = check(
        "What is the rated flow of the PX-20?",
        "The rated flow of the PX-20 is 780 L/min [1].",
        MANUAL_PX35,
    )
    assert findings(report) == [("figures.value", "wrong_entity")]


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
    assert findings(report) == [("figures.value", "unit_mismatch")], report.issues
    [issue] = report.issues
    assert "1.2 psi" in issue.message and "1.2 bar" in issue.message
    assert issue.document_ids == ("manual-cp200",)


def test_a_correct_conversion_of_the_sources_figure_raises_no_issue_on_that_figure():
    report = check(PRESSURE, "The maximum pressure is 17.4 psi [1].", PRESSURE_SOURCE)
    assert findings(report) == [], report.issues


def test_a_figure_given_in_both_units_passes():
    report = check(PRESSURE, "The maximum pressure is 1.2 bar (17.4 psi) [1].", PRESSURE_SOURCE)
    assert report.passed, report.issues


def test_a_charging_time_on_a_charger_is_not_the_chargers_figure():
    doc = document("manual-ef50", "EF-50 manual")
    cited = [evidence(1, "A full charge of the EF-50 battery takes 9 h on the CH-80.", doc)]
    answer = "Charging the EF-50 battery takes 9 h on the CH-80 [1]."
    assert findings(check("How long does the EF-50 take to charge?", answer, cited)) == []


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
    report = check(E04, answer, CODES_FAQ)
    assert findings(report) == [("binding.entity", "wrong_entity")], report.issues
    [issue] = report.issues
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
    assert findings(wrong) == [("figures.value", "wrong_entity")]
    right = check(question, "The DP-24 has a maximum back-pressure of 7 bar [1].", SIBLINGS)
    assert right.passed, right.issues


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
    assert findings(right) == []
    # 70 lbf·ft is 95 N·m: the KB-25's figure.
    assert findings(check(question, "The KB-16 bolts take 70 lbf·ft [1].", cited)) == [
        ("figures.value", "wrong_entity")
    ]


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
    assert findings(check(question, answer, cited)) == []


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
    assert findings(check(question, answer, cited)) == []


def test_a_compound_written_with_a_slash_is_the_sources_per_word():
    # The manual writes "8.5 L per kg", the answer "8.5 L/kg": one quantity, not a
    # figure in another unit; a wrong figure in the compound is still caught.
    question = "Which uses less water per kilogram, the WX-55 or the WX-80?"
    answer = "The WX-80 uses less: 8.5 L/kg against 9.0 L/kg for the WX-55 [1]."
    assert findings(check(question, answer, WASHERS)) == []
    wrong = "The WX-80 uses less: 8.0 L/kg against 9.0 L/kg for the WX-55 [1]."
    assert findings(check(question, wrong, WASHERS))[0] == (
        "numbers.unbacked",
        "unsupported_number",
    )
