"""General rules of claim support and comparison, on hand-written sentences: framing
words, words echoed from the question, word families, a noun an attribute's name only
modifies, sides named by the statement, frequency words and one-figure comparisons."""

from __future__ import annotations

from datetime import date

from handmade import check, document, evidence, kinds

from ragcore.agents.attributes import default_attributes
from ragcore.agents.perception.asks import read_asks

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
    names = lambda q: {a.name for a in read_asks(q, table).attributes}  # noqa: E731
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


# -- bounds, converted sides, degree words ---------------------------------------------------
def test_a_bound_in_a_statement_naming_a_model_and_its_controller_compares_nothing():
    doc = document("kw", "KW-5 boiler manual")
    cited = [evidence(1, "The KW-5 uses the QT-2 controller. F4: flue gas above 95 °C.", doc)]
    answer = "On the KW-5 (QT-2 controller), F4 means the flue gas is above 95 °C, more than "
    answer += "95 °C [1]."
    report = check("What does F4 mean on the KW-5?", answer, cited)
    assert "missing_side" not in kinds(report), report.issues


MASSES = [
    evidence(1, "The TW-3 tower weighs 2.5 t in operation.", document("tw3", "TW-3 manual")),
    evidence(2, "The GB-7 boiler has a dry weight of 120 kg.", document("gb7", "GB-7 manual")),
]


def test_sides_given_in_units_of_one_dimension_are_compared_converted():
    question = "Which is heavier, the GB-7 or the TW-3?"
    right = "The TW-3 is far heavier: 2.5 t [1], against 120 kg for the GB-7 [2]."
    assert "unsupported_relation" not in kinds(check(question, right, MASSES))
    wrong = "The GB-7 is heavier: 120 kg [2], against 2.5 t for the TW-3 [1]."
    assert "unsupported_relation" in kinds(check(question, wrong, MASSES))


def test_how_far_a_comparison_goes_and_current_need_no_support():
    cited = [
        evidence(1, "Sound pressure at 10 m: 49 dB(A).", document("hx5", "HX-5 manual")),
        evidence(2, "Sound pressure at 10 m: 50 dB(A).", document("rz4", "RZ-4 manual")),
    ]
    question = "Which is quieter at 10 m, the RZ-4 or the HX-5?"
    answer = "The current HX-5, though only marginally: 49 dB(A) at 10 m [1], against "
    answer += "50 dB(A) for the RZ-4 [2]."
    report = check(question, answer, cited)
    assert "unsupported" not in kinds(report), report.issues


# -- a verdict that states its figure ----------------------------------------------------------
def test_a_short_verdict_with_a_figure_leans_on_the_next_cited_statement():
    question = "How often is the ZT-9 intake filter renewed?"
    right = "Every 400 h. The ZT-9 intake filter element is renewed every 400 h [1]."
    report = check(question, right, FILTER)
    assert "uncited" not in kinds(report), report.issues
    wrong = "Every 500 h. The ZT-9 intake filter element is renewed every 400 h [1]."
    assert "unsupported_number" in kinds(check(question, wrong, FILTER))


def test_a_change_word_in_a_verdict_needs_no_support():
    cited = [
        evidence(1, "Check the TK-2 seals every 12 months.", document("a", "TK-2 Rev. 1")),
        evidence(2, "Check the TK-2 seals every 6 months.", document("b", "TK-2 Rev. 2")),
    ]
    question = "How did the TK-2 seal check interval change between revisions?"
    answer = "It was halved. Rev. 1 asked for a check every 12 months [1]; Rev. 2 asks for "
    answer += "every 6 months [2]."
    assert "unsupported" not in kinds(check(question, answer, cited))


# -- a newer rule cited to say it did not apply yet -------------------------------------------
OLD_RULE = document(
    "gs12", "Gas Safety Rule GS-12", updated_at=date(2012, 3, 1), superseded_by="gs19"
)
NEW_RULE = document(
    "gs19", "Gas Safety Rule GS-19", updated_at=date(2019, 5, 20), supersedes="gs12"
)
RULES = [
    evidence(1, "Gas detectors alarm at 20 % LEL.", OLD_RULE),
    evidence(
        2, "Rule GS-19 replaces GS-12. Effective 1 September 2019. Alarm at 10 % LEL.", NEW_RULE
    ),
]


def test_a_newer_rule_cited_beside_the_one_then_in_force_is_not_outside_the_interval():
    question = "In July 2019, at what level did gas detectors alarm?"
    answer = "At 20 % LEL: GS-12 still applied [1], as GS-19 only took effect on "
    answer += "1 September 2019 [2]."
    report = check(question, answer, RULES)
    assert not {"outside_interval", "superseded"} & set(kinds(report)), report.issues


def test_the_newer_rule_alone_for_a_month_before_it_took_effect_is_still_outside():
    question = "In July 2019, at what level did gas detectors alarm?"
    report = check(question, "Gas detectors alarm at 10 % LEL under GS-19 [2].", RULES)
    assert "outside_interval" in kinds(report)


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
    assert "wrong_entity" not in kinds(report), report.issues


def test_a_parts_figure_does_not_hold_for_a_product_it_is_not_fitted_to():
    question = "Does F4 on the KW-9 clear by itself?"
    answer = "On the KW-9, F4 resets itself 3 min after the flue gas has cooled [1]."
    assert "wrong_entity" in kinds(check(question, answer, CONTROLLER))


def test_a_product_sharing_a_part_lends_its_figures_to_no_other_product():
    doc = document("hx5", "HX-5 heat pump manual")
    cited = [
        evidence(
            1, "The HX-5 uses the QT-2 controller, shared with the RZ-4. Noise: 49 dB(A).", doc
        )
    ]
    report = check("How loud is the RZ-4?", "The RZ-4 is rated at 49 dB(A) [1].", cited)
    assert "wrong_entity" in kinds(report), report.issues


# -- one-sided comparisons -------------------------------------------------------------------
NOISE = [
    evidence(1, "Sound pressure at 1 m: 78 dB(A).", document("wx", "WX-9 chiller manual")),
    evidence(2, "Sound pressure at 1 m: 48 dB(A).", document("bk", "BK-7 boiler manual")),
]


def test_a_figure_the_question_states_is_a_condition_not_a_side():
    question = "Which is louder at 1 m, the WX-9 or the BK-7?"
    one = "The WX-9 is much louder, at 78 dB(A) at 1 m [1]; the BK-7 is far quieter."
    assert "missing_side" in kinds(check(question, one, NOISE))
    both = "The WX-9 is louder, at 78 dB(A) at 1 m [1]; the BK-7 gives 48 dB(A) at 1 m [2]."
    assert "missing_side" not in kinds(check(question, both, NOISE))


def test_above_a_named_thing_compares_with_it():
    question = "Which is noisier, the BK-7 or the WX-9?"
    one = "The WX-9 gives 78 dB(A) at 1 m [1], well above the BK-7's sound level."
    assert "missing_side" in kinds(check(question, one, NOISE))
    both = "The WX-9 gives 78 dB(A) at 1 m [1], well above the BK-7's 48 dB(A) [2]."
    assert "missing_side" not in kinds(check(question, both, NOISE))


# -- a terse answer ----------------------------------------------------------------------------
def test_a_terse_answer_with_a_few_words_before_its_figure_answers_how_often():
    question = "How often must the NV-7 gearbox oil be changed?"
    for answer in ("At least every 6,000 h [1].", "Every 6,000 h [1]."):
        assert "off_question" not in kinds(check(question, answer, GEARBOX)), answer
    other = "Replace the NV-7 drive belt every 9 months [1]."
    assert "off_question" in kinds(check(question, other, GEARBOX))


def test_two_bare_figures_of_the_statement_are_what_it_compares():
    cited = [
        evidence(
            1, "No more than 6 starts per hour. Oil check every 6000 h.", document("a", "XA-4")
        ),
        evidence(
            2, "No more than 4 starts per hour. Oil check every 20000 h.", document("b", "WB-2")
        ),
    ]
    question = "Which allows more starts per hour, the XA-4 or the WB-2?"
    right = "The XA-4 allows 6 starts per hour [1], whereas the WB-2 allows 4 [2], so the XA-4 "
    right += "permits more."
    assert "unsupported_relation" not in kinds(check(question, right, cited))
    wrong = right.replace("so the XA-4", "so the WB-2")
    assert "unsupported_relation" in kinds(check(question, wrong, cited))


# -- a claim joined on after the last citation ------------------------------------------------
def test_a_claim_joined_on_after_the_last_citation_is_uncited():
    question = "How often is the ZT-9 intake filter renewed?"
    answer = "The ZT-9 intake filter element is renewed every 400 h [1], and the old element "
    answer += "must be returned to the supplier for recycling."
    report = check(question, answer, FILTER)
    assert "uncited" in kinds(report), report.issues


def test_a_conclusion_or_a_which_clause_after_the_citation_leans_on_it():
    question = "How often is the ZT-9 intake filter renewed?"
    for tail in (", which is about 17 days of running.", ", and so roughly every 17 days."):
        answer = "The ZT-9 intake filter element is renewed every 400 h [1]" + tail
        assert "uncited" not in kinds(check(question, answer, FILTER)), answer


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
    assert "off_question" in kinds(check(question, wrong, ALARMS))
    right = "The TQ-4's winding temperature alarm is set at 105 °C [1]."
    assert "off_question" not in kinds(check(question, right, ALARMS))


def test_a_paraphrase_the_sources_do_not_set_apart_is_no_other_kind():
    cited = [evidence(1, "Sound pressure level: 70 dB(A).", document("x", "XK-1 manual"))]
    question = "What is the noise level of the XK-1?"
    answer = "The XK-1's sound pressure level is 70 dB(A) [1]."
    assert "off_question" not in kinds(check(question, answer, cited))


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
    assert "off_question" not in kinds(check(question, answer, cited))


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
    assert "wrong_entity" in kinds(wrong)
    right = check(question, "Replace the LT-35 return filter every 1,000 h [1].", TRUCKS)
    assert "wrong_entity" not in kinds(right), right.issues


def test_one_figure_on_a_model_says_where_not_whose():
    cited = [evidence(1, "The CH-8 charges a pack in 9 h on the DB-2 dock.", document("c", "C"))]
    answer = "The CH-8 charges a pack in 9 h [1]."
    report = check("How long does the CH-8 take to charge a pack?", answer, cited)
    assert "wrong_entity" not in kinds(report), report.issues


# -- two revisions compared ---------------------------------------------------------------------
FANS = [
    evidence(1, "Fan speed: 720 rpm.", document("t1", "KT-2 tower manual (Rev. 1)")),
    evidence(
        2, "Replaces Rev. 1. Fan speed: 680 rpm.", document("t2", "KT-2 tower manual (Rev. 2)")
    ),
]


def test_revisions_named_in_a_statement_are_the_sides_it_compares():
    question = "Does the KT-2 fan turn faster on Rev. 1 or Rev. 2 towers?"
    start = "Rev. 1 towers run their fan at 720 rpm [1], while Rev. 2 towers run at 680 rpm [2], "
    wrong = check(question, start + "so the Rev. 2 fan turns faster.", FANS)
    assert "unsupported_relation" in kinds(wrong)
    right = check(question, start + "so the Rev. 1 fan turns faster.", FANS)
    assert "unsupported_relation" not in kinds(right), right.issues


def test_instead_of_a_model_introduces_its_figure_not_the_owner_of_the_one_before():
    question = "Why does the LT-50 get a new return filter sooner than the LT-35?"
    answer = "Its return filter is replaced after 500 h instead of the LT-35's 1,000 h [1]."
    cited = [*TRUCKS]
    report = check(question, answer.replace("Its", "The LT-50's"), cited)
    assert "wrong_entity" not in kinds(report), report.issues
