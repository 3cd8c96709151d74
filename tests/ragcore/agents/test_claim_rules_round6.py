"""General rules of the sixth round, on hand-written sentences: hedged conversions,
heating is not cooling, a how-many question answered with a measure, and (kept as it
was) a citation before a paragraph's last full stop."""

from __future__ import annotations

from datetime import date

from handmade import check, document, evidence, kinds

from ragcore.agents.attributes import default_attributes
from ragcore.agents.evidence import split_statements
from ragcore.agents.perception.asks import read_asks
from ragcore.agents.validation.checks.focus import no_count
from ragcore.text.counts import counts
from ragcore.text.quantities import quantities

TC40 = [
    evidence(
        1,
        "## Technical data\n- Maximum set temperature: 95 °C\n- Heater power: 6 kW\n"
        "- Direct cooling capacity: 18 kW at 70 °C\n\n## Fault codes\n- E07 – Safety "
        "thermostat tripped. Cool below 100 °C and reset manually.",
        document("manual-tc40", "TC-40 Mould Temperature Controller Manual"),
    )
]


def test_a_citation_before_the_last_full_stop_cites_only_its_own_sentence():
    question = "What does E07 mean on the TC-40?"
    answer = "E07 means the safety thermostat has tripped. Let the unit cool below 100 °C"
    assert "uncited" in kinds(check(question, answer + ", then reset it manually [1].", TC40))
    assert "uncited" not in kinds(check(question, answer + ", then reset it manually.[1]", TC40))


def test_a_hedged_conversion_is_supported_by_its_figure():
    question = "What is the TC-40's maximum set temperature in Fahrenheit?"
    assert kinds(check(question, "Roughly 203 °F [1].", TC40)) == []
    assert "unsupported_number" in kinds(check(question, "Roughly 221 °F [1].", TC40))


def test_a_heater_does_not_answer_a_cooling_question():
    question = "What is the cooling capacity of the TC-40?"
    assert "off_question" in kinds(check(question, "The TC-40 has a 6 kW heater [1].", TC40))
    assert "off_question" not in kinds(check(question, "The TC-40 cools 18 kW at 70 °C [1].", TC40))


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


def test_a_side_of_a_contrast_may_have_several_words():
    heaters = "What should I do before switching on the heaters of an HW-50?"
    cited = [evidence(1, "The heating function stays locked out below 10 L/min.", TC40[0].document)]
    answer = "Get water moving first: heating stays locked out below 10 L/min [1]."
    assert "off_question" not in kinds(check(heaters, answer, cited))


GC7 = [
    evidence(
        1,
        "The GC-7 gas cabinet runs on the GCC-3 controller.\n- E5 – Exhaust loss: cabinet "
        "static pressure weaker than −125 Pa.",
        document("manual-gc7", "GC-7 Gas Cabinet Manual"),
    )
]


def test_a_comparative_against_a_figure_or_an_expectation_compares_no_sides():
    question = "What does fault E5 mean on the GC-7 gas cabinet?"
    answer = (
        "On the GC-7's GCC-3 controller, E5 means exhaust loss: the static pressure is "
        "weaker than −125 Pa [1]."
    )
    assert kinds(check(question, answer, GC7)) == []
    later = "The GC-7 and the GCC-3 fail faster than expected when E5 persists [1]."
    assert "unsupported_relation" not in kinds(check(question, later, GC7))


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
    assert "off_question" not in kinds(check(question, answer, cited))


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
    assert "unsupported_number" not in kinds(
        check(question, "The AH-900 has three filter stages" + listed, cited)
    )
    assert "unsupported_number" in kinds(
        check(question, "The AH-900 has four filter stages" + listed, cited)
    )


def test_a_difference_between_the_compared_figures_is_no_side():
    cited = [
        evidence(1, "PH-12 capacity: 12,000 L/h.", document("manual-ph12", "PH-12 Manual")),
        evidence(2, "HG-250 capacity: 8,000 L/h.", document("manual-hg250", "HG-250 Manual")),
    ]
    question = "Which has the larger capacity, the PH-12 or the HG-250?"
    answer = (
        "The PH-12, at 12,000 L/h [1], has 4,000 L/h {} capacity than the HG-250 at 8,000 L/h [2]."
    )
    assert "unsupported_relation" not in kinds(check(question, answer.format("more"), cited))
    assert "unsupported_relation" in kinds(check(question, answer.format("less"), cited))


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
    assert "wrong_entity" not in kinds(check(question, answer, cited))
    wrong = "The TC-5 sensor, every 6 months, versus every 12 months for the BC-20's probe [1]."
    assert "wrong_entity" in kinds(check(question, wrong, cited))


def test_a_shared_manual_binding_the_figure_to_the_other_model_elsewhere_is_no_support():
    manual = document("manual-bc20-bc30", "BC-20 and BC-30 Bulk Milk Cooler Manual")
    cited = [
        evidence(1, "BC-20:\n- Cooling time: 3.0 h.\n\nBC-30:\n- Cooling time: 2.5 h.", manual),
        evidence(2, "- Cooling time: 2.5 h for a two-milking load.", manual),  # label cut off
    ]
    question = "How long does a BC-20 take to cool a two-milking load?"
    assert "wrong_entity" in kinds(check(question, "The BC-20 takes 2.5 h [1][2].", cited))
    assert "wrong_entity" not in kinds(check(question, "The BC-20 takes 3.0 h [1].", cited))


def test_a_unit_word_a_qualifier_apart_in_the_source_is_the_same_figure():
    cited = [
        evidence(
            1,
            "With the new seal material the seals are replaced after 750,000 switching cycles.",
            document("manual-to900-v2", "TO-900 Oxidiser Manual (Rev. 2)"),
        )
    ]
    question = "How often are the TO-900 poppet valve seals replaced?"
    assert kinds(check(question, "Every 750,000 cycles [1].", cited)) == []
    assert "unsupported_number" in kinds(check(question, "Every 750,000 hours [1].", cited))


def test_a_current_manual_beside_a_rule_named_by_its_year_is_in_its_period():
    from dataclasses import replace

    manual = document("manual-sx12-v2", "SX-12 Smoke Damper Manual (Rev. 2)")  # 2024
    rule = replace(
        document(
            "reg-fpstc-2021", "Fire Protection Testing Code 2021", updated_at=date(2021, 3, 1)
        ),
        doc_type="regulation",
    )
    cited = [
        evidence(1, "The dampers must be fully open within 30 s.", manual),
        evidence(2, "Dampers shall open fully within 30 s.", rule),
    ]
    answer = "Yes: the SX-12 dampers open within 30 s [1], the 30 s limit of the 2021 Code [2]."
    current = "Do the SX-12's current damper opening times satisfy the 2021 Testing Code?"
    assert "outside_interval" not in kinds(check(current, answer, cited))
    then = "Did the SX-12's damper opening times satisfy the Testing Code in 2021?"
    assert "outside_interval" in kinds(check(then, answer, cited))


def test_gauge_pressure_units_a_rate_of_a_substance_and_a_revisions_verb():
    said = [(q.value, q.unit) for q in quantities("2.5 bar (g), roughly 36 psig, or 3 barg")]
    assert said == [(2.5, "bar"), (36.0, "psi"), (3.0, "bar")]
    assert [(q.value, q.unit) for q in quantities("up to 500 kg of CO2 per hour")] == [
        (500.0, "kg/h")
    ]
    assert [q.unit for q in quantities("Rev. 2 runs 1.5 % NaOH")] == ["%"]
    assert [q.unit for q in quantities("It made 2 runs")] == ["runs"]


def test_an_interval_counted_in_anything_answers_how_often_it_changed():
    cited = [
        evidence(1, "Caustic boil-out: every 500 brews.", document("m-bk300-v1", "BK-300 Rev. 1")),
        evidence(2, "Caustic boil-out: every 400 brews.", document("m-bk300-v2", "BK-300 Rev. 2")),
    ]
    question = "How did the BK-300 caustic boil-out interval change between manual revisions?"
    answer = "Rev. 1 called for a boil-out every 500 brews [1]; Rev. 2 every 400 brews [2]."
    assert "off_question" not in kinds(check(question, answer, cited))


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
    assert "off_question" in kinds(
        check(question, "Keg washers must give at least 20 s of caustic contact [1].", cited)
    )
    assert "off_question" not in kinds(
        check(question, "Residual water in a washed keg may not exceed 30 mL [1].", cited)
    )
    tank = [evidence(1, "Working volume 90 hL; gross volume 108 hL.", document("m-fv90", "FV-90"))]
    question = "What is the gross volume of the FV-90?"
    assert "off_question" in kinds(
        check(question, "The FV-90 holds 90 hL working volume [1].", tank)
    )
    assert "off_question" not in kinds(check(question, "Its gross volume is 108 hL [1].", tank))


def test_the_span_a_time_is_measured_over_is_no_side_of_the_comparison():
    cited = [
        evidence(
            1,
            "Crash cooling from 20 °C to 0 °C: FV-60 18 h, FV-90 22 h.",
            document("m-fv60-fv90", "FV-60 and FV-90 Fermenter Manual"),
        )
    ]
    question = "Which takes longer to crash-cool, the FV-60 or the FV-90?"
    one = "The FV-90 takes longer; a full one needs about 22 h to go from 20 °C to 0 °C [1]."
    assert "missing_side" in kinds(check(question, one, cited))
    both = "The FV-90 takes longer: 22 h from 20 °C to 0 °C, against 18 h for the FV-60 [1]."
    assert "missing_side" not in kinds(check(question, both, cited))


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
    assert "wrong_entity" not in kinds(check(question, answer, cited))


def test_tenths_in_words_are_a_share_and_count_nothing():
    text = "If the flow sinks below seven tenths of its nominal value, the unit trips."
    assert [(q.value, q.unit) for q in quantities(text)] == [(70.0, "%")]
    assert counts(text) == []


def test_a_comparative_describing_a_model_gives_way_to_the_compared_one():
    comparatives = default_attributes().comparatives
    assert comparatives.find("The smaller DR-60 turns faster, at 1,200 rpm versus 900 rpm.") == (
        "faster",
        "higher",
    )
    assert comparatives.find("The quieter AC-75 runs at 69 dB(A) versus 72 dB(A).") == (
        "quieter",
        "lower",
    )


def test_a_citation_after_an_abbreviations_full_stop_closes_the_sentence():
    answer = (
        "Warm up for 60 min from cold, 0.5 bar every 10 min. [1] Skipping it voids the warranty."
    )
    statements = split_statements(answer)
    assert [s.citations for s in statements] == [(1,), ()]
