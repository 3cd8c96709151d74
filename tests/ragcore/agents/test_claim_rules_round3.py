"""General rules of the third round, on hand-written sentences: codes are not what a
claim is about, a make's short name, figures referred back to, "which … more"
questions, data lines labelled with another kind, and electrical units and flows
written out."""

from __future__ import annotations

from handmade import check, document, evidence, kinds

from ragcore.agents.attributes import default_attributes
from ragcore.agents.perception.asks import read_asks
from ragcore.agents.validation.checks.focus import other_kind

CODES = [
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
    report = check("What does F-12 mean on the QX-5?", answer, CODES)
    assert "wrong_entity" in kinds(report), report.issues


def test_a_code_meaning_stated_for_the_asked_model_is_bound_to_it():
    answer = "On the QX-5, F-12 means the belt tension is too low [1]."
    report = check("What does F-12 mean on the QX-5?", answer, CODES)
    assert "wrong_entity" not in kinds(report), report.issues


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
    assert "wrong_entity" not in kinds(report), report.issues


# -- sides named for short -----------------------------------------------------------------
TWO_MAKES = [
    evidence(
        1,
        "The Corvane DTU trips when the ground resistance falls below 200 kΩ.",
        document("dtu", "Corvane DTU manual"),
    ),
    evidence(
        2,
        "The Halberg PMX trips when the ground resistance falls below 40 kΩ.",
        document("pmx", "Halberg PMX manual"),
    ),
]


def test_a_side_of_several_words_is_named_by_its_capitalised_short_name():
    question = (
        "Which unit trips at the higher ground resistance, the Corvane DTU or the Halberg PMX?"
    )
    answer = "The DTU trips below 200 kΩ [1], the PMX only below 40 kΩ [2]."
    assert "missing_side" not in kinds(check(question, answer, TWO_MAKES))


def test_a_side_named_by_no_word_of_it_is_still_missing():
    question = (
        "Which unit trips at the higher ground resistance, the Corvane DTU or the Halberg PMX?"
    )
    answer = "The DTU trips below 200 kΩ [1]."
    assert "missing_side" in kinds(check(question, answer, TWO_MAKES))


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
    assert not {"unit_mismatch", "unsupported_number"} & set(kinds(report)), report.issues


def test_a_figure_stated_anew_still_needs_its_source():
    question = "Which breakdown voltage limit applies to the KT-40 oil?"
    answer = "The KT-40 manual sets at least 55 kV in service [1]. The rule also sets 55 kV [2]."
    assert "unit_mismatch" in kinds(check(question, answer, LIMITS))


# -- "which … more" questions --------------------------------------------------------------
FANS = [
    evidence(
        1,
        "The VF-10 fan is 91.5 % efficient; the VF-20 fan is 93.0 % efficient.",
        document("vf", "VF fan catalogue"),
    )
]


def test_which_with_a_comparative_chooses_between_sides():
    answer = "The VF-20 is the more efficient one, at 93.0 % [1]."
    assert "missing_side" in kinds(check("Which VF fan is more efficient?", answer, FANS))
    both = "The VF-20, at 93.0 % against 91.5 % for the VF-10 [1]."
    assert "missing_side" not in kinds(check("Which VF fan is more efficient?", both, FANS))


def test_which_with_a_bound_compares_nothing():
    answer = "The VF-20, at 93.0 % [1]."
    report = check("Which VF fan is more than 92 % efficient?", answer, FANS)
    assert "missing_side" not in kinds(report)


# -- data lines labelled with another kind -------------------------------------------------
BRAKE = [
    "Brake settings:\n- Holding pressure (rotor locked): 160 bar.\n"
    "- Residual pressure while turning: 20 bar."
]


def test_a_figure_from_a_line_labelled_with_another_kind_is_off_the_question():
    question = "What residual pressure does the brake keep while turning?"
    assert other_kind(read_asks(question), "The brake holds a full 160 bar.", BRAKE)
    assert other_kind(read_asks(question), "It keeps 20 bar while turning.", BRAKE) is None


def test_a_line_whose_label_the_question_spells_out_is_what_it_asks():
    question = "What is the holding pressure of the brake with the rotor locked?"
    assert other_kind(read_asks(question), "160 bar.", BRAKE) is None


# -- units ---------------------------------------------------------------------------------
def test_capacity_in_kwh_and_voltage_in_kv_address_the_question():
    table = default_attributes()
    (capacity,) = table.asked_in("What is the energy capacity of the BX-5 battery?")
    assert capacity.addressed_by("The BX-5 stores 500 kWh.")
    (voltage,) = table.asked_in("What is the rated voltage of the TX-2?")
    assert voltage.addressed_by("The TX-2 is rated 11 kV.")


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


# -- compounds -----------------------------------------------------------------------------
def test_an_attribute_word_in_a_hyphenated_modifier_does_not_answer_for_it():
    cited = [
        evidence(
            1,
            "The CT-9 fan motor is rated 4 kW and has a variable-speed drive; the fan turns "
            "at 720 rpm.",
            document("ct9", "CT-9 cooling tower manual"),
        )
    ]
    off = "The CT-9 fan motor is rated 4 kW with a variable-speed drive [1]."
    assert "off_question" in kinds(check("What is the fan speed of the CT-9?", off, cited))
    on = "The CT-9 fan turns at 720 rpm, set by a variable-speed drive [1]."
    assert "off_question" not in kinds(check("What is the fan speed of the CT-9?", on, cited))
