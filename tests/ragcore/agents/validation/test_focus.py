"""What is asked (``checks/focus``): the answer gives the asked attribute, the form's
focus and measure (``focus.attribute``, ``focus.phrase``, ``focus.frequency``,
``focus.duration``, ``focus.count``, ``focus.unbacked_attribute``), the asked side of a
contrast (``focus.contrast``), kind (``focus.other_kind``) and subject
(``focus.other_subject``)."""

from __future__ import annotations

import pytest
from sources import TC40, WASHERS, check, document, evidence, findings

from ragcore.agents.attributes import load_attributes
from ragcore.agents.perception.asks import read_asks
from ragcore.agents.validation.checks.focus import no_count, off_focus, other_kind
from ragcore.text.quantities import quantities
from ragcore.text.units import agrees

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
    assert findings(report) == [("focus.phrase", "off_question")]


def test_how_often_answered_about_the_thing_or_with_it_passes():
    question = "How often must the NV-7 gearbox oil be changed?"
    for answer in (
        "Change the NV-7 gearbox oil every 6,000 h [1].",
        "It must be changed every 6,000 h [1].",
    ):
        assert findings(check(question, answer, GEARBOX)) == [], answer


VM3000 = [
    evidence(
        1,
        "Check the VM-3000 way-lube tank weekly; it holds 2.5 litres. The VM-3000 gearbox "
        "holds 3 litres of gear oil.",
        document("vm3000", "VM-3000 mill manual"),
    )
]


def test_how_much_a_thing_holds_is_not_answered_by_what_another_thing_holds():
    question = "How much does the VM-3000's gearbox hold?"
    tank = "Check the VM-3000 way-lube tank weekly; it holds 2.5 litres [1]."
    assert ("focus.phrase", "off_question") in findings(check(question, tank, VM3000))
    gearbox = "The VM-3000 gearbox holds 3 litres of gear oil [1]."
    assert ("focus.phrase", "off_question") not in findings(check(question, gearbox, VM3000))
    # a model with its kind noun is the model: "The CH-80 weighs 56 kg" names it
    charger = [evidence(1, "The CH-80 weighs 56 kg.", document("ch80", "CH-80 charger manual"))]
    weighs = "How much does the CH-80 charger weigh?"
    assert ("focus.phrase", "off_question") not in findings(
        check(weighs, "The CH-80 weighs 56 kg [1].", charger)
    )
    # a model alone holds what its manual says: no thing of its own to name
    assert read_asks("How much does the VM-3000 hold?").focus is None or not (
        read_asks("How much does the VM-3000 hold?").focus.wanted
    )


def test_an_inflection_of_the_focus_word_names_the_focus():
    cited = [evidence(1, "The VB-4 runs continuously at 40 A.", document("vb4", "VB-4 manual"))]
    question = "What is the continuous load of the VB-4?"
    answer = "The VB-4 carries 40 A continuously [1]."
    assert findings(check(question, answer, cited)) == []


def test_litres_per_hour_answer_a_capacity():
    cited = [evidence(1, "The PW-3 treats 8,000 L/h.", document("pw3", "PW-3 manual"))]
    answer = "The PW-3 is rated for 8,000 L/h [1]."
    assert findings(check("What is the capacity of the PW-3?", answer, cited)) == []


def test_how_often_answered_with_what_is_done_to_the_thing_passes():
    cited = [evidence(1, "A load test at 1.25 times SWL is due every 4 years.", document("r", "R"))]
    question = "How often does a hoist need a load test, and at what load?"
    answer = "A load test at 1.25 times the SWL is required every 4 years [1]."
    assert findings(check(question, answer, cited)) == []


# -- a terse answer ----------------------------------------------------------------------------
def test_a_terse_answer_with_a_few_words_before_its_figure_answers_how_often():
    question = "How often must the NV-7 gearbox oil be changed?"
    for answer, expected in (
        # also reported: support.statement (a false alarm of support.statement: "at least")
        ("At least every 6,000 h [1].", [("support.statement", "unsupported")]),
        ("Every 6,000 h [1].", []),
    ):
        assert findings(check(question, answer, GEARBOX)) == expected, answer
    other = "Replace the NV-7 drive belt every 9 months [1]."
    assert findings(check(question, other, GEARBOX)) == [("focus.phrase", "off_question")]


# -- another kind of the thing asked about -----------------------------------------------------
ALARMS = [
    evidence(
        1,
        "- Top-oil temperature alarm: 90 °C\n- Winding temperature alarm: 105 °C",
        document("tq", "TQ-4 transformer manual"),
    )
]


def test_another_kind_of_the_thing_the_sources_also_name_is_off_question():
    question = "What is the winding temperature alarm setting on the TQ-4?"
    wrong = "The TQ-4's top-oil temperature alarm is set at 90 °C [1]."
    assert findings(check(question, wrong, ALARMS)) == [("focus.other_kind", "off_question")]
    right = "The TQ-4's winding temperature alarm is set at 105 °C [1]."
    assert findings(check(question, right, ALARMS)) == []


def test_a_paraphrase_the_sources_do_not_set_apart_is_no_other_kind():
    cited = [evidence(1, "Sound pressure level: 70 dB(A).", document("x", "XK-1 manual"))]
    question = "What is the noise level of the XK-1?"
    answer = "The XK-1's sound pressure level is 70 dB(A) [1]."
    assert findings(check(question, answer, cited)) == []


def test_a_describing_word_outside_the_sources_labels_is_no_other_kind():
    cited = [
        evidence(
            1,
            "- Perimeter guard height: 1,800 mm\nThe lower guard edge sits 150 mm up.",
            document("r", "Robot cell rules"),
        )
    ]
    question = "How high must a robot cell perimeter guard be?"
    answer = "The guard must be at least 1,800 mm high, measured from the floor [1]."
    # rightly also reported: support.statement (no source says "measured from the floor")
    assert findings(check(question, answer, cited)) == [("support.statement", "unsupported")]


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
    assert findings(check("What is the fan speed of the CT-9?", off, cited)) == [
        ("focus.attribute", "off_question")
    ]
    on = "The CT-9 fan turns at 720 rpm, set by a variable-speed drive [1]."
    assert findings(check("What is the fan speed of the CT-9?", on, cited)) == []


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
    assert ("focus.unbacked_attribute", "unsupported_claim") in findings(report), report.issues


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
    assert findings(report) == [], report.issues


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
    assert findings(report) == [], report.issues


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
    assert ("focus.phrase", "off_question") in findings(report), report.issues


def test_how_often_what_is_done_answers_the_question():
    answer = "Audiometric testing must be offered every 12 months [1]."
    question = "How often must hearing checks be offered under the 2021 regulation?"
    report = check(question, answer, NOISE_RULE)
    # also reported: timeliness.outside_interval (a false alarm of timeliness.outside_interval:
    # the question names the 2021 regulation, it asks about no period of 2021)
    assert findings(report) == [("timeliness.outside_interval", "outside_interval")], report.issues


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
    assert findings(report) == [], report.issues


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
    assert findings(duration) == [("focus.frequency", "off_question")], duration.issues
    interval = check(question, "Replace the UF-86 alarm battery every 3 years [1].", FREEZER)
    assert findings(interval) == [], interval.issues


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
    assert findings(torque) == [("focus.phrase", "off_question")], torque.issues
    gap = check(question, "Its air gap should be 0.3 to 0.5 mm [1].", cited)
    assert findings(gap) == [], gap.issues


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
    assert findings(other) == [("focus.phrase", "off_question")], other.issues
    kept = check(
        question, "Examination reports must be kept for at least 6 years [1].", RECORDS_RULE
    )
    assert findings(kept) == [], kept.issues


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
    assert findings(laden) == [("focus.contrast", "off_question")], laden.issues
    unladen = check(
        "What is the unladen travel speed of the EF-50?",
        "Unladen, it travels at 19 km/h [1].",
        cited,
    )
    assert findings(unladen) == [], unladen.issues
    floating = check(
        "What is the EF-50 boost charge voltage?",
        "The EF-50 charger floats at 2.27 V per cell [1].",
        cited,
    )
    assert findings(floating) == [("focus.contrast", "off_question")], floating.issues


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
    assert findings(report) == [], report.issues


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
    assert findings(report) == [], report.issues


# -- how often a qualified action is done --------------------------------------------------
TESTS = [
    evidence(
        1,
        "FS-60 cylinder pressure and agent quantity are checked every 6 months. The "
        "cylinders need a hydrostatic test every 10 years.",
        document("manual-fs60", "FS-60 Clean Agent System Manual"),
    )
]


HYDROSTATIC = "How often must FS-60 cylinders be hydrostatically tested?"


def test_how_often_another_action_is_done_does_not_answer():
    answer = "FS-60 cylinder pressure has to be checked every 6 months [1]."
    assert findings(check(HYDROSTATIC, answer, TESTS)) == [("focus.frequency", "off_question")]


def test_how_often_the_asked_action_is_done_answers_in_any_form():
    for answer in (
        "FS-60 cylinders need a hydrostatic test every 10 years [1].",
        "Every 10 years [1].",
    ):
        assert findings(check(HYDROSTATIC, answer, TESTS)) == [], answer


# -- cooling capacity ----------------------------------------------------------------------
CHILLER = [
    evidence(
        1,
        "Cooling capacity: 900 kW at 35 °C ambient. Nominal chilled water flow: 129 m³/h. "
        "Compressor motor: 160 kW.",
        document("manual-ch900", "CH-900 Chiller Manual"),
    )
]


def test_a_cooling_capacity_is_answered_by_a_power_not_a_flow_or_a_motor():
    question = "What is the cooling capacity of the CH-900?"
    off = [("focus.attribute", "off_question")]
    for answer, expected in (
        ("The CH-900 delivers a nominal chilled water flow of 129 m³/h [1].", off),
        ("The CH-900 has a 160 kW compressor motor [1].", off),
        ("The CH-900 provides 900 kW of cooling at 35 °C ambient [1].", []),
    ):
        assert findings(check(question, answer, CHILLER)) == expected, answer


# -- what happens --------------------------------------------------------------------------
def test_a_what_does_it_do_question_asks_for_no_attribute_its_clause_names():
    cited = [
        evidence(
            1,
            "Retransfer delay after mains returns: default 5 min. Generator cooldown after "
            "retransfer: 5 min at no load.",
            document("manual-ts400", "TS-400 Transfer Switch Manual"),
        )
    ]
    answer = (
        "It waits 5 min before moving the load back to the mains, then lets the generator "
        "cool down for 5 min at no load [1]."
    )
    report = check("What does the TS-400 do once utility power comes back?", answer, cited)
    # also reported: support.statement (a false alarm of support.statement: a faithful paraphrase)
    assert findings(report) == [("support.statement", "unsupported")], report.issues


def test_a_terse_answer_may_start_with_a_bare_number_but_not_a_year():
    cited = [
        evidence(
            1,
            "Hardwood dust: 5 mg/m³ (8-hour time-weighted average). Dust concentrations are "
            "measured every 6 months.",
            document("reg-exposure-2016", "Wood Dust Exposure Regulation 2016"),
        )
    ]
    question = "What was the exposure limit for hardwood dust in 2019?"
    terse = "5 mg/m³ as an 8-hour time-weighted average [1]."
    # also reported: timeliness.outside_interval (a false alarm of timeliness.outside_interval:
    # the 2016 regulation, dated by the fixture's default 2024-01-15, for a question on 2019)
    assert findings(check(question, terse, cited)) == [
        ("timeliness.outside_interval", "outside_interval")
    ]
    other = "The 2016 regulation requires dust concentrations to be measured every 6 months [1]."
    assert ("focus.phrase", "off_question") in findings(check(question, other, cited))


def test_the_same_figure_on_the_asked_kinds_line_is_not_another_kind():
    cited = [
        evidence(
            1,
            "Limits:\n- Hardwood dust: 5 mg/m³\n- Softwood dust: 5 mg/m³",
            document("reg-exposure-2016", "Wood Dust Exposure Regulation 2016"),
        )
    ]
    answer = "5 mg/m³ as an 8-hour average [1]."
    report = check("What is the hardwood dust limit?", answer, cited)
    # rightly also reported: numbers.unbacked and support.statement (this source gives no
    # 8-hour average)
    assert findings(report) == [
        ("numbers.unbacked", "unsupported_number"),
        ("support.statement", "unsupported"),
    ], report.issues


def test_a_what_is_question_without_a_preposition_reads_no_focus():
    cited = [
        evidence(
            1,
            "Maximum cutting diameter: 620 mm.",
            document("manual-h55", "H-55 Harvester Head Manual"),
        )
    ]
    answer = "The H-55 has a maximum cutting diameter of 620 mm [1]."
    question = "What is the largest tree diameter the H-55 harvester head can cut?"
    assert findings(check(question, answer, cited)) == []


def test_how_fast_is_answered_by_a_time_and_a_capacity_not_by_a_power():
    spark = [
        evidence(
            1,
            "Full water flow is reached within 300 ms of a detected spark.",
            document("manual-dx20", "DX-20 Spark Detection Manual"),
        )
    ]
    answer = "Full water flow comes at most 0.3 s after the spark is detected [1]."
    question = "How fast does the DX-20 get water onto a detected spark?"
    assert findings(check(question, answer, spark)) == []
    kiln = [
        evidence(
            1,
            "Charge volume: 300 m³ of sawn timber. Installed heating power: 950 kW.",
            document("manual-kd300", "KD-300 Drying Kiln Manual"),
        )
    ]
    power = "The KD-300 has an installed heating power of 950 kW [1]."
    question = "How much timber does one KD-300 charge hold?"
    assert findings(check(question, power, kiln)) == [("focus.attribute", "off_question")]


def test_times_an_hour_answers_how_often():
    cited = [
        evidence(
            1,
            "The automatic condensate drain opens every 15 minutes for 6 seconds.",
            document("manual-hpc280", "HPC-280 Compressor Manual"),
        )
    ]
    answer = "It opens four times an hour, for about six seconds each time [1]."
    report = check("How often does the HPC-280 condensate drain open?", answer, cited)
    # also reported: support.statement (a false alarm of support.statement: "every 15 minutes"
    # said as "four times an hour")
    assert findings(report) == [("support.statement", "unsupported")], report.issues


def test_how_long_something_takes_needs_a_time():
    cited = [
        evidence(
            1,
            "The SC-3 closes in 25 s; during the final 1 m it is slowed to 0.15 m/s.",
            document("manual-sc3", "SC-3 Safety Curtain Manual"),
        )
    ]
    question = "How long does the SC-3 take to close completely?"
    speed = "During the final 1 m of travel the SC-3 is slowed to 0.15 m/s [1]."
    time = "The SC-3 closes completely in 25 s [1]."
    assert findings(check(question, speed, cited)) == [("focus.duration", "off_question")]
    assert findings(check(question, time, cited)) == []


def test_a_volume_is_not_a_load_and_per_kilogram_asks_no_weight():
    volume = "What is the drum volume of the WX-80?"
    assert findings(check(volume, "The WX-80 takes an 80 kg dry load [1].", WASHERS)) == [
        ("focus.attribute", "off_question")
    ]
    question = "Which uses less water per kilogram, the WX-55 or the WX-80?"
    answer = "The WX-80 uses slightly less: 8.5 L per kg against 9.0 L per kg for the WX-55 [1]."
    assert findings(check(question, answer, WASHERS)) == []


def test_devices_named_after_an_attribute_and_a_verdict_with_nothing_to_support():
    cited = [
        evidence(
            1,
            "The GI-4 uses a differential pressure switch set at 50 Pa. Stage 2 at 50 ppm "
            "shuts the gas off.",
            document("manual-gi4", "GI-4 Gas Interlock Manual"),
        )
    ]
    question = "At what setting does the GI-4 airflow proving switch work?"
    answer = "The GI-4 uses a differential pressure switch set at 50 Pa [1]."
    assert findings(check(question, answer, cited)) == []
    verdict = "Not by default. The GI-4 shuts the gas off at stage 2, 50 ppm [1]."
    report = check("Does the GI-4 shut off gas at 20 ppm?", verdict, cited)
    assert findings(report) == [], report.issues


def test_throughput_and_each_day():
    cited = [
        evidence(
            1,
            "Throughput: up to 800 kg/h. The low-water cutout is tested every day the boiler "
            "is in use.",
            document("manual-tw16", "TW-16 Tunnel Washer Manual"),
        )
    ]
    question = "What is the rated throughput of the TW-16 tunnel washer?"
    # also reported: support.statement (a false alarm of support.statement: "rated for" 800 kg/h)
    assert findings(check(question, "It is rated for 800 kg/h [1].", cited)) == [
        ("support.statement", "unsupported")
    ]
    question = "How often must the low-water cutout be tested?"
    answer = "It is function-tested on each day the boiler is in service [1]."
    assert findings(check(question, answer, cited)) == []


def test_the_acid_tank_is_not_the_caustic_tank():
    cited = [
        evidence(
            1,
            "- Caustic tank: 1,200 L\n- Acid tank: 800 L",
            document("manual-tc5", "TC-5 CIP Unit Manual"),
        )
    ]
    question = "How large is the acid tank on the TC-5?"
    assert findings(check(question, "The TC-5's caustic tank holds 1,200 L [1].", cited)) == [
        ("focus.contrast", "off_question"),
        ("focus.other_kind", "off_question"),
    ]
    assert findings(check(question, "The TC-5's acid tank holds 800 L [1].", cited)) == []


def test_a_heater_does_not_answer_a_cooling_question():
    question = "What is the cooling capacity of the TC-40?"
    assert findings(check(question, "The TC-40 has a 6 kW heater [1].", TC40)) == [
        ("focus.contrast", "off_question")
    ]
    assert findings(check(question, "The TC-40 cools 18 kW at 70 °C [1].", TC40)) == []


def test_how_many_is_answered_by_a_count_not_a_measure():
    question = "How many rotor knives does the GR-450 have?"
    assert no_count(read_asks(question), "The GR-450 rotor runs at 380 rpm [1].")
    for answer in (
        "The GR-450 has five rotor knives [1].",
        "It has 5 knives on a 450 mm rotor [1].",
    ):
        assert no_count(read_asks(question), answer) is None, answer
    assert no_count(read_asks("How many hours does the filter last?"), "About 2,000 h [1].") is None
    assert no_count(read_asks("How many times a year is it tested?"), "Every 6 months [1].") is None


def test_a_how_many_question_answered_with_only_a_measure_is_off_question():
    cited = [
        evidence(
            1,
            "The GR-450 rotor carries five knives and runs at 380 rpm.",
            document("manual-gr450", "GR-450 Granulator Manual"),
        )
    ]
    question = "How many rotor knives does the GR-450 have?"
    report = check(question, "The GR-450 rotor runs at 380 rpm [1].", cited)
    assert findings(report) == [("focus.count", "off_question")]
    assert "how many" in report.issues[0].message
    assert findings(check(question, "The GR-450 has five rotor knives [1].", cited)) == []


def test_a_side_of_a_contrast_may_have_several_words():
    heaters = "What should I do before switching on the heaters of an HW-50?"
    cited = [evidence(1, "The heating function stays locked out below 10 L/min.", TC40[0].document)]
    answer = "Get water moving first: heating stays locked out below 10 L/min [1]."
    # rightly also reported: figures.value and subject.other_model (the cited chunk is the
    # TC-40 manual's, not the HW-50's)
    assert findings(check(heaters, answer, cited)) == [
        ("figures.value", "wrong_entity"),
        ("subject.other_model", "off_question"),
    ]


def test_a_hyphenated_attribute_before_a_noun_only_modifies_it():
    question = "Which has the bigger motor, the RO-14 high-pressure pump or the UP-60 pump?"
    cited = [
        evidence(1, "RO-14 high-pressure pump motor: 30 kW.", document("m-ro14", "RO-14")),
        evidence(2, "UP-60 distribution pump motor: 22 kW.", document("m-up60", "UP-60")),
    ]
    answer = (
        "The RO-14's high-pressure pump motor is larger at 30 kW [1], against 22 kW for the "
        "UP-60 [2]."
    )
    assert findings(check(question, answer, cited)) == []


def test_an_interval_counted_in_anything_answers_how_often_it_changed():
    cited = [
        evidence(1, "Caustic boil-out: every 500 brews.", document("m-bk300-v1", "BK-300 Rev. 1")),
        evidence(2, "Caustic boil-out: every 400 brews.", document("m-bk300-v2", "BK-300 Rev. 2")),
    ]
    question = "How did the BK-300 caustic boil-out interval change between manual revisions?"
    answer = "Rev. 1 called for a boil-out every 500 brews [1]; Rev. 2 every 400 brews [2]."
    assert findings(check(question, answer, cited)) == []


def test_what_a_rule_says_about_something_is_its_focus_and_gross_is_not_working():
    cited = [
        evidence(
            1,
            "Keg washers shall give at least 20 s of caustic contact per keg. Residual water "
            "in a washed keg shall not exceed 30 mL.",
            document("reg-hyg-2020", "Brewery Hygiene Standard 2020"),
        )
    ]
    question = "What does the hygiene standard say about residual water in kegs?"
    assert findings(
        check(question, "Keg washers must give at least 20 s of caustic contact [1].", cited)
    ) == [("focus.phrase", "off_question")]
    assert (
        findings(check(question, "Residual water in a washed keg may not exceed 30 mL [1].", cited))
        == []
    )
    tank = [evidence(1, "Working volume 90 hL; gross volume 108 hL.", document("m-fv90", "FV-90"))]
    question = "What is the gross volume of the FV-90?"
    assert findings(check(question, "The FV-90 holds 90 hL working volume [1].", tank)) == [
        ("focus.contrast", "off_question")
    ]
    assert findings(check(question, "Its gross volume is 108 hL [1].", tank)) == []


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
    assert (issue.check, issue.rule, issue.kind) == (
        "consistency",
        "focus.attribute",
        "off_question",
    )
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
    # Both say so: the answer names another code, and none names the asked one.
    issue, unnamed = report.issues
    assert (issue.rule, issue.kind) == ("focus.other_subject", "off_question")
    assert "E03" in issue.message and "E07" in issue.message
    assert (unnamed.rule, unnamed.kind) == ("answer_type.signal", "off_question")


def test_an_answer_about_the_asked_error_code_passes():
    report = check(
        "What does error E03 mean on the CX-200?",
        "Error E03 means the motor overheated [1].",
        CODES,
    )
    assert report.passed, report.issues


def test_volts_are_a_unit_of_the_voltage_a_question_asks_for():
    doc = document("manual-ch80", "CH-80 charger manual")
    cited = [evidence(1, "The CH-80 delivers 80 V nominal at up to 150 A.", doc)]
    answer = "The CH-80 delivers 80 V nominal [1]."
    assert findings(check("What output voltage does the CH-80 give?", answer, cited)) == []


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
    assert findings(report) == [], report.issues


def test_a_yes_no_question_does_not_ask_for_the_attribute_it_names():
    question = "Can the operator test the low-water cutoff at full pressure?"
    report = check(question, "Yes: BIR-2023 requires a daily test of the cutoff [1].", CUTOFF)
    assert findings(report) == [], report.issues


def test_lowered_is_a_change_not_the_lower_of_a_contrast():
    cited = [
        evidence(1, "The upper action value is now 83 dB(A), was 85 dB(A).", document("n", "N"))
    ]
    question = "How did the upper exposure action value change?"
    answer = "The upper action value was lowered from 85 dB(A) to 83 dB(A) [1]."
    assert findings(check(question, answer, cited)) == []


TABLE = load_attributes()


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What is the lift height of the OH-10?", "The OH-10 has a span of 18 m [1]."),
        ("What payload can the RB-12 carry?", "The RB-12 reaches up to 1,450 mm [1]."),
        ("How many tools does the VMC-600 hold?", "The VMC-600 X-axis travel is 600 mm [1]."),
    ],
)
def test_an_answer_naming_another_attribute_is_off_focus(question, answer):
    assert off_focus(read_asks(question, TABLE), answer)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What is the lift height of the OH-10?", "The OH-10 lift height is 9 m [1]."),
        ("What was the lead limit for drinking water in 2020?", "10 µg/L, under the 2016 rules."),
        ("What is the rated output of the KG-150?", "The KG-150 is rated 150 kVA [1]."),
        ("How many pounds of refrigerant does the PC-600 hold?", "It holds 118 kg, about 260 lb."),
        ("How many litres per minute can a DP-24 deliver?", "About 0.4 L/min [1]."),
    ],
)
def test_an_answer_about_the_focus_terse_or_in_the_asked_unit_is_on_focus(question, answer):
    assert off_focus(read_asks(question, TABLE), answer) is None
