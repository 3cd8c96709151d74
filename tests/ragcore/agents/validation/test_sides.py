"""Sides (``checks/sides``): an answer to a comparison backs every side with a cited
figure (``sides.missing``, ``sides.one_sided``, ``sides.single_figure``)."""

from __future__ import annotations

from sources import (
    COMPARE,
    DRYERS,
    HARNESS_CODES,
    check,
    document,
    draft,
    evidence,
    evidence_of,
    findings,
    perceive,
    sample_validator,
)


def test_a_two_sided_question_answered_with_one_figure_is_one_sided():
    question = "Is the harness inspected more or less often under the 2024 Code than in 2019?"
    one = "More often: the 2024 Code asks for monthly checks [1], more than the 2019 Code did."
    assert findings(check(question, one, HARNESS_CODES)) == [
        ("sides.single_figure", "missing_side")
    ]
    both = "More often: monthly under the 2024 Code [1], against quarterly under 2019 [2]."
    assert findings(check(question, both, HARNESS_CODES)) == []


def test_a_figure_and_a_bare_number_compared_are_two_sides():
    question = "Which finishes a load sooner, the HD-2 or the HD-5?"
    answer = "The HD-5 is quicker than the HD-2 (25 vs 40 min) [1]."
    # also reported: relations.comparative (a false alarm of relations.comparative: it reads the
    # figures as 40 vs 40, the bare 25 not taken for the HD-5's 25 min)
    assert findings(check(question, answer, DRYERS)) == [
        ("relations.comparative", "unsupported_relation")
    ]


# -- bounds, converted sides, degree words ---------------------------------------------------
def test_a_bound_in_a_statement_naming_a_model_and_its_controller_compares_nothing():
    doc = document("kw", "KW-5 boiler manual")
    cited = [evidence(1, "The KW-5 uses the QT-2 controller. F4: flue gas above 95 °C.", doc)]
    answer = "On the KW-5 (QT-2 controller), F4 means the flue gas is above 95 °C, more than "
    answer += "95 °C [1]."
    report = check("What does F4 mean on the KW-5?", answer, cited)
    assert findings(report) == [], report.issues


# -- one-sided comparisons -------------------------------------------------------------------
NOISE = [
    evidence(1, "Sound pressure at 1 m: 78 dB(A).", document("wx", "WX-9 chiller manual")),
    evidence(2, "Sound pressure at 1 m: 48 dB(A).", document("bk", "BK-7 boiler manual")),
]


def test_a_figure_the_question_states_is_a_condition_not_a_side():
    question = "Which is louder at 1 m, the WX-9 or the BK-7?"
    one = "The WX-9 is much louder, at 78 dB(A) at 1 m [1]; the BK-7 is far quieter."
    assert findings(check(question, one, NOISE)) == [("sides.single_figure", "missing_side")]
    both = "The WX-9 is louder, at 78 dB(A) at 1 m [1]; the BK-7 gives 48 dB(A) at 1 m [2]."
    assert findings(check(question, both, NOISE)) == []


def test_above_a_named_thing_compares_with_it():
    question = "Which is noisier, the BK-7 or the WX-9?"
    one = "The WX-9 gives 78 dB(A) at 1 m [1], well above the BK-7's sound level."
    assert ("sides.single_figure", "missing_side") in findings(check(question, one, NOISE))
    both = "The WX-9 gives 78 dB(A) at 1 m [1], well above the BK-7's 48 dB(A) [2]."
    assert findings(check(question, both, NOISE)) == []


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
    assert findings(check(question, answer, TWO_MAKES)) == []


def test_a_side_named_by_no_word_of_it_is_still_missing():
    question = (
        "Which unit trips at the higher ground resistance, the Corvane DTU or the Halberg PMX?"
    )
    answer = "The DTU trips below 200 kΩ [1]."
    # also reported: sides.single_figure (one figure answers no "which … higher")
    assert findings(check(question, answer, TWO_MAKES)) == [
        ("sides.missing", "missing_side"),
        ("sides.single_figure", "missing_side"),
    ]


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
    assert findings(check("Which VF fan is more efficient?", answer, FANS)) == [
        ("sides.single_figure", "missing_side")
    ]
    both = "The VF-20, at 93.0 % against 91.5 % for the VF-10 [1]."
    assert findings(check("Which VF fan is more efficient?", both, FANS)) == []


def test_which_with_a_bound_compares_nothing():
    answer = "The VF-20, at 93.0 % [1]."
    report = check("Which VF fan is more than 92 % efficient?", answer, FANS)
    assert findings(report) == []


# -- "outlasts" ----------------------------------------------------------------------------
def test_outlasting_the_other_side_needs_its_figure():
    cited = [
        evidence(
            1,
            "Autonomy at full load: 12 min.",
            document("manual-pw300", "PW-300 UPS Service Manual"),
        )
    ]
    answer = "The PW-300 gives 12 min at full load [1], so it outlasts the PW-500."
    question = "Which runs longer on battery at full load, the PW-300 or the PW-500?"
    assert ("sides.single_figure", "missing_side") in findings(check(question, answer, cited))


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
    assert findings(check(question, one, cited)) == [("sides.single_figure", "missing_side")]
    both = "The FV-90 takes longer: 22 h from 20 °C to 0 °C, against 18 h for the FV-60 [1]."
    assert findings(check(question, both, cited)) == []


TX = [
    evidence(1, "The TX-1600 needs at least 1,000 mm around the tank.", document("tx16", "TX")),
    evidence(2, "The TX-1000 needs at least 800 mm around the tank.", document("tx10", "TX")),
]


CLEARANCE = "Which transformer needs more clearance, the TX-1000 or the TX-1600?"


def test_a_comparison_that_states_one_sides_figure_only_is_one_sided():
    answer = "The TX-1600 needs more: at least 1,000 mm [1], compared with the smaller TX-1000."
    # Both rules report it: no figure bound to the TX-1000, and one figure only; and the
    # "more" it concludes has no cited figure of the TX-1000 to hold against.
    report = check(CLEARANCE, answer, TX)
    assert findings(report) == [
        ("sides.one_sided", "missing_side"),
        ("sides.single_figure", "missing_side"),
        ("relations.comparative", "unsupported_relation"),
    ], report.issues
    found = [i for i in report.issues if i.kind == "missing_side"]
    assert [i.rule for i in found] == ["sides.one_sided", "sides.single_figure"]
    assert "TX1000" in found[0].message


def test_a_comparison_with_both_figures_is_not_one_sided():
    answer = "The TX-1600 needs more clearance than the TX-1000 (1,000 mm vs 800 mm) [1][2]."
    assert findings(check(CLEARANCE, answer, TX)) == []


def test_a_comparison_with_data_for_both_sides_passes(sample_engine):
    validator = sample_validator(sample_engine)
    ev = evidence_of(sample_engine, "manual-cp200-v2", "manual-cp350", query="rated flow L/min")
    text = (
        "The CP-200 delivers a rated flow of 120 L/min at 6 bar [1]. "
        "The CP-350 delivers a rated flow of 210 L/min at 8 bar [2]. "
        "The CP-350 has more flow than the CP-200 (210 vs 120 L/min) [2][1]."
    )
    report = validator.check(draft(text), ev, perceive(COMPARE))
    assert report.passed, report.issues


def test_a_comparison_missing_a_side_is_caught(sample_engine):
    validator = sample_validator(sample_engine)
    ev = evidence_of(sample_engine, "manual-cp200-v2", "manual-cp350", query="rated flow L/min")
    text = "The CP-200 delivers a rated flow of 120 L/min at 6 bar [1]."
    [issue] = validator.check(draft(text), ev, perceive(COMPARE)).issues
    assert (issue.rule, issue.kind, issue.entity) == ("sides.missing", "missing_side", "CP-350")


OILS = [
    evidence(
        1,
        "Fill the HP-400 hydraulic tank with HLP 46 oil.",
        document("manual-hp400", "HP-400 press manual"),
    ),
    evidence(
        2,
        "Fill the HP-500 hydraulic tank with HLP 68 oil.",
        document("manual-hp500", "HP-500 press manual"),
    ),
]
OILS_QUESTION = "What hydraulic oil do the HP-400 and the HP-500 take?"


def test_a_question_naming_two_models_is_answered_for_both():
    answer = "The HP-400 takes HLP 46 oil [1] and the HP-500 HLP 68 oil [2]."
    assert findings(check(OILS_QUESTION, answer, OILS)) == []


def test_an_answer_for_one_of_two_named_models_says_which_is_missing():
    # The same asked of two models side by side is answered side by side, as a comparison.
    assert perceive(OILS_QUESTION).sides == ("HP-400", "HP-500")
    report = check(OILS_QUESTION, "Fill the HP-400 hydraulic tank with HLP 46 oil [1].", OILS)
    assert findings(report) == [("sides.missing", "missing_side")]
    assert report.issues[0].entity == "HP-500"
    assert report.issues[0].message == "no cited answer for HP-500"


def test_models_side_by_side_are_answered_without_a_figure_when_none_is_asked():
    cited = [
        evidence(1, "The HP-400 takes mineral oil.", document("manual-hp400", "HP-400 manual")),
        evidence(2, "The HP-500 takes synthetic oil.", document("manual-hp500", "HP-500 manual")),
    ]
    answer = "HP-400: The HP-400 takes mineral oil [1]. HP-500: The HP-500 takes synthetic oil [2]."
    assert findings(check("What oil do the HP-400 and the HP-500 take?", answer, cited)) == []


def test_a_yes_no_question_about_two_models_is_still_answered_for_both():
    question = "Do the HP-400 and the HP-500 take HLP 46 oil?"
    assert perceive(question).sides == ()  # whether, not a value of each: no sides
    report = check(question, "Fill the HP-400 hydraulic tank with HLP 46 oil [1].", OILS)
    assert ("sides.every_model", "missing_side") in findings(report)
    assert "nothing of HP-500" in report.issues[-1].message


# -- several asks joined by "and" ------------------------------------------------------------
MILL = [
    evidence(
        1,
        "Keep the coolant concentration between 5 % and 7 %.",
        document("manual-mx", "MX-20 mill guide"),
    ),
    evidence(2, "The spindle lube reservoir holds 1.8 litres.", document("manual-mx", "MX-20")),
    evidence(3, "Fill the press tank with 120 litres of ISO VG 32.", document("manual-px", "PX")),
]


def test_two_asks_joined_by_and_answered_for_one_name_the_other():
    question = "What coolant concentration and spindle lube reservoir size does the MX-20 need?"
    one = "The MX-20 spindle lube reservoir holds 1.8 litres [2]."
    report = check(question, one, MILL)
    assert ("sides.every_part", "missing_side") in findings(report)
    assert "coolant concentration" in report.issues[-1].message
    both = one + " Keep the coolant concentration between 5 % and 7 % [1]."
    assert ("sides.every_part", "missing_side") not in findings(check(question, both, MILL))


def test_an_ask_for_a_grade_is_answered_by_the_grade_named_by_its_class():
    question = "How much oil does the PX press take, and what grade?"
    answer = "Fill the PX press tank with 120 litres of ISO VG 32 [3]."
    assert ("sides.every_part", "missing_side") not in findings(check(question, answer, MILL))


def test_two_clauses_each_asking_are_two_asks():
    question = "How often are the belts inspected, and how often are the bearings greased?"
    asked = perceive(question).asks.parts
    assert [sorted(p.key) for p in asked] == [["belt", "inspect"], ["bearing", "greas"]]
    # one thing asked of two sources, two periods, or "…, and how?" are one ask
    for one in (
        "What is the crack limit in the manual and in the directive?",
        "How many jobs were done in March and April 2026?",
        "Do I have to warm up the spindle after a weekend, and how?",
        "What oil do the HP-400 and the HP-500 take?",
        "KX-9 is showing E4031, what's wrong and what should I clean?",
    ):
        assert perceive(one).asks.parts == (), one


def test_two_things_of_one_verb_are_one_ask():
    question = "How often do we change the oil and filter on the PX press?"
    assert perceive(question).asks.parts == ()  # two things of one ask
    cited = [evidence(1, "Change the oil and the filter every 500 h.", document("px", "PX"))]
    answer = "Change the oil and the filter every 500 h [1]."
    assert ("sides.every_part", "missing_side") not in findings(check(question, answer, cited))
