"""Relations (``checks/relations``): comparatives, rankings, changes and how-often claims
agree with the cited figures (``relations.comparative``, ``relations.ranking``,
``relations.change``, ``relations.frequency``, ``relations.concluded_frequency``,
``relations.inline``)."""

from __future__ import annotations

from dataclasses import replace

import pytest
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

from ragcore.agents.evidence import Evidence


def test_the_sides_of_a_comparison_come_from_the_statement_when_the_question_names_none():
    question = "Which dryer of the range finishes a load sooner?"
    wrong = "The HD-2 is quicker, at 40 min against 25 min for the HD-5 [1]."
    assert findings(check(question, wrong, DRYERS)) == [
        ("relations.comparative", "unsupported_relation")
    ]
    right = "The HD-5 is quicker, at 25 min against 40 min for the HD-2 [1]."
    assert findings(check(question, right, DRYERS)) == []


def test_frequency_words_are_intervals_in_a_more_often_comparison():
    question = "Is the harness inspected more or less often under the 2024 Code?"
    wrong = "Less frequently: monthly [1], compared with quarterly before [2]."
    assert ("relations.frequency", "unsupported_relation") in findings(
        check(question, wrong, HARNESS_CODES)
    )
    right = "More frequently: monthly [1], compared with quarterly before [2]."
    # also reported: support.statement (a false alarm of support.statement: the right verdict)
    assert findings(check(question, right, HARNESS_CODES)) == [("support.statement", "unsupported")]


def test_more_than_a_figure_is_a_bound_not_a_comparison_of_the_named_things():
    cited = [
        evidence(1, "The HD-2 uses the MX-1 timer; it stops after 40 min.", document("hd", "HD"))
    ]
    question = "When does the MX-1 timer stop the HD-2?"
    answer = "On the HD-2, the MX-1 timer stops the drum after more than 40 min [1]."
    assert findings(check(question, answer, cited)) == []


MASSES = [
    evidence(1, "The TW-3 tower weighs 2.5 t in operation.", document("tw3", "TW-3 manual")),
    evidence(2, "The GB-7 boiler has a dry weight of 120 kg.", document("gb7", "GB-7 manual")),
]


def test_sides_given_in_units_of_one_dimension_are_compared_converted():
    question = "Which is heavier, the GB-7 or the TW-3?"
    right = "The TW-3 is far heavier: 2.5 t [1], against 120 kg for the GB-7 [2]."
    assert findings(check(question, right, MASSES)) == []
    wrong = "The GB-7 is heavier: 120 kg [2], against 2.5 t for the TW-3 [1]."
    assert findings(check(question, wrong, MASSES)) == [
        ("relations.comparative", "unsupported_relation")
    ]


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
    assert findings(check(question, right, cited)) == []
    wrong = right.replace("so the XA-4", "so the WB-2")
    assert findings(check(question, wrong, cited)) == [
        ("relations.comparative", "unsupported_relation")
    ]


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
    assert findings(wrong) == [("relations.comparative", "unsupported_relation")]
    right = check(question, start + "so the Rev. 1 fan turns faster.", FANS)
    assert findings(right) == [], right.issues


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
    assert findings(check(question, wrong, cited)) == [
        ("relations.comparative", "unsupported_relation")
    ]
    assert findings(check(question, right, cited)) == []


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
    assert findings(check(question, wrong, CENTRIFUGE)) == [
        ("relations.inline", "unsupported_relation")
    ]
    assert findings(check(question, right, CENTRIFUGE)) == []


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
    assert findings(report) == [], report.issues


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
    assert findings(wrong) == [("relations.concluded_frequency", "unsupported_relation")], (
        wrong.issues
    )
    assert findings(right) == [], right.issues


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
    assert findings(check(question, right, cited)) == []
    assert findings(check(question, wrong, cited)) == [
        ("relations.comparative", "unsupported_relation")
    ]


def test_a_change_told_in_the_order_of_its_editions():
    cited = [
        evidence(1, "Chairlifts stop at gusts of 20 m/s.", document("reg-rso-2016", "RSO 2016")),
        evidence(2, "Chairlifts stop at gusts of 18 m/s.", document("reg-rso-2021", "RSO 2021")),
    ]
    question = "How has the chairlift wind limit changed?"
    right = (
        "It was lowered: the 2016 edition stopped chairlifts at gusts of 20 m/s [1], while "
        "the 2021 edition sets the limit at 18 m/s [2]."
    )
    wrong = right.replace("lowered", "raised")
    assert findings(check(question, right, cited)) == []
    assert findings(check(question, wrong, cited)) == [("relations.change", "unsupported_relation")]


def test_a_shortened_time_is_read_from_the_durations():
    cited = [
        evidence(1, "Reach 9 bar from 0 bar within 12 min.", document("reg-2018", "Rule 2018")),
        evidence(2, "Reach 9 bar from 0 bar within 10 min.", document("reg-2023", "Rule 2023")),
    ]
    question = "How did the charging time limit change in the brake rule?"
    right = (
        "Under the 2018 rule the reservoir had to reach 9 bar from 0 bar within 12 minutes "
        "[1]; the 2023 rule shortened this to 10 minutes [2]."
    )
    assert findings(check(question, right, cited)) == []
    wrong = right.replace("shortened", "extended")
    assert findings(check(question, wrong, cited)) == [("relations.change", "unsupported_relation")]


def test_a_change_told_by_revisions_and_what_is_now_less_frequent():
    cited = [
        evidence(1, "Gearbox oil: every 10,000 h.", document("fh250-v1", "FH-250 Rev. 1")),
        evidence(2, "Gearbox oil: every 8,000 h.", document("fh250-v2", "FH-250 Rev. 2")),
    ]
    right = (
        "It was shortened: Rev. 1 specified an oil change every 10,000 operating hours [1], "
        "while Rev. 2 reduces this to every 8,000 hours [2]."
    )
    question = "How did the FH-250 gearbox oil change interval change?"
    assert findings(check(question, right, cited)) == []
    rules = [
        evidence(1, "Sample the air every 6 months.", document("reg-dse-2018", "DSE-2018")),
        evidence(2, "Sample the air every 3 months.", document("reg-dse-2024", "DSE-2024")),
    ]
    told = (
        "DSE-2018 required sampling every 6 months [1], whereas DSE-2024 requires it every "
        "3 months [2], so sampling is now {} frequent."
    )
    question = "How does air sampling under DSE-2024 compare with DSE-2018?"
    assert findings(check(question, told.format("less"), rules)) == [
        ("relations.comparative", "unsupported_relation"),
        ("relations.frequency", "unsupported_relation"),
    ]
    assert findings(check(question, told.format("more"), rules)) == []


def test_a_comparative_verdict_before_a_colon_and_a_conclusion_with_making():
    fans = [
        evidence(
            1,
            "The AX-55 is greased every 800 h and the AX-45 every 1,000 h.",
            document("faq-fans", "Fan FAQ"),
        )
    ]
    question = "Does the AX-55 need greasing more or less often than the AX-45?"
    wrong = "Less often: the AX-55 is greased every 800 h and the AX-45 every 1,000 h [1]."
    right = wrong.replace("Less often", "More often")
    assert findings(check(question, wrong, fans)) == [
        ("relations.comparative", "unsupported_relation")
    ]
    assert findings(check(question, right, fans)) == []
    dryers = [
        evidence(1, "Noise: 77 dB(A) at 1 m.", document("manual-hd40", "HD-40 Dryer Manual")),
        evidence(2, "Noise: 79 dB(A) at 1 m.", document("manual-hd60", "HD-60 Dryer Manual")),
    ]
    question = "How do the HD-40 and HD-60 compare on noise?"
    told = (
        "The HD-40 measures 77 dB(A) [1] and the HD-60 79 dB(A) [2], making the {} the "
        "louder dryer."
    )
    assert findings(check(question, told.format("HD-40"), dryers)) == [
        ("relations.comparative", "unsupported_relation")
    ]
    assert findings(check(question, told.format("HD-60"), dryers)) == []


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
    assert findings(check(question, answer, GC7)) == []
    later = "The GC-7 and the GCC-3 fail faster than expected when E5 persists [1]."
    # rightly also reported: support.statement (no source says they fail faster)
    assert findings(check(question, later, GC7)) == [("support.statement", "unsupported")]


def test_a_difference_between_the_compared_figures_is_no_side():
    cited = [
        evidence(1, "PH-12 capacity: 12,000 L/h.", document("manual-ph12", "PH-12 Manual")),
        evidence(2, "HG-250 capacity: 8,000 L/h.", document("manual-hg250", "HG-250 Manual")),
    ]
    question = "Which has the larger capacity, the PH-12 or the HG-250?"
    answer = (
        "The PH-12, at 12,000 L/h [1], has 4,000 L/h {} capacity than the HG-250 at 8,000 L/h [2]."
    )
    assert findings(check(question, answer.format("more"), cited)) == []
    assert findings(check(question, answer.format("less"), cited)) == [
        ("relations.comparative", "unsupported_relation")
    ]


LOUDER = "Which compressor is louder, the SC-40 or the SC-55?"


def test_a_comparison_question_has_two_sides():
    p = perceive(LOUDER)
    assert (p.route, p.sides) == ("comparison", ("SC-40", "SC-55"))


# -- comparisons -----------------------------------------------------------------------------
SC40 = document("manual-sc40", "SC-40 Manual")


SC55 = document("manual-sc55", "SC-55 Manual")


NOISE = [
    evidence(1, "The SC-40 has a sound level of 68 dB(A) at 1 m.", SC40),
    evidence(2, "The SC-55 has a sound level of 72 dB(A) at 1 m.", SC55),
]


def test_the_quieter_model_called_louder_is_an_unsupported_relation():
    answer = "The SC-40 is louder: 68 dB(A) against 72 dB(A) for the SC-55 [1][2]."
    report = check(LOUDER, answer, NOISE)
    assert findings(report) == [("relations.comparative", "unsupported_relation")], report.issues
    [issue] = report.issues
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
    assert findings(report) == [("relations.comparative", "unsupported_relation")], report.issues
    [issue] = report.issues
    assert "less often" in issue.message


def test_the_shorter_interval_called_more_often_passes():
    answer = (
        "The SC-55 needs oil changes more often than the SC-40: "
        "every 3000 h instead of every 4000 h [1][2]."
    )
    assert findings(check(OFTEN, answer, OIL)) == []


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
    assert findings(report) == [("relations.change", "unsupported_relation")], report.issues
    [issue] = report.issues
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


def test_now_a_versus_b_is_read_as_a_change():
    doc = document("manual-ef25", "EF-25 manual")
    cited = [evidence(1, "The relief valve is set to 190 bar (175 bar before Rev. 2).", doc)]
    wrong = "Rev. 2 lowered the relief setting; it is now 190 bar, versus 175 bar before [1]."
    assert findings(check("How did the relief setting change?", wrong, cited)) == [
        ("relations.change", "unsupported_relation")
    ]
    right = "Rev. 2 raised the relief setting; it is now 190 bar, versus 175 bar before [1]."
    assert findings(check("How did the relief setting change?", right, cited)) == []


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
    assert findings(check("How did the repair time change?", answer, cited)) == []


def test_lowered_to_a_compared_with_a_smaller_b_contradicts_the_figures():
    cited = [
        evidence(1, "Rev. 2: the maximum working pressure is 13 bar.", document("v2", "Rev. 2")),
        evidence(2, "Rev. 1: the maximum working pressure is 12 bar.", document("v1", "Rev. 1")),
    ]
    answer = "Rev. 2 lowered the maximum working pressure to 13 bar [1], compared with 12 bar [2]."
    report = check("How did the maximum working pressure change in Rev. 2?", answer, cited)
    assert findings(report) == [("relations.change", "unsupported_relation")]


def test_more_often_compares_intervals_in_different_units():
    cited = [
        evidence(1, "The 2023 Code: review the assessment every 12 months.", document("c23", "C")),
        evidence(2, "The 2016 Code: review the assessment every 2 years.", document("c16", "C")),
    ]
    question = "Is the assessment reviewed more or less often under the 2023 Code?"
    wrong = "Less often: every 12 months [1], compared with every 2 years [2]."
    assert ("relations.frequency", "unsupported_relation") in findings(
        check(question, wrong, cited)
    )
    right = "More often: every 12 months [1], compared with every 2 years [2]."
    # also reported: timeliness.outside_interval, twice (a false alarm of
    # timeliness.outside_interval: the question names the 2023 Code, it asks about no period)
    assert findings(check(question, right, cited)) == [
        ("timeliness.outside_interval", "outside_interval"),
        ("timeliness.outside_interval", "outside_interval"),
    ]


MAGAZINES = [
    evidence(1, "The VMC-800 tool magazine holds 30 tools.", document("vmc", "VMC-800 manual")),
    evidence(2, "The HMC-500 tool magazine holds 60 tools.", document("hmc", "HMC-500 manual")),
]


LARGER = "Which has the larger tool magazine, the VMC-800 or the HMC-500?"


def test_a_comparison_drawn_as_a_conclusion_is_checked_against_the_figures():
    wrong = "The VMC-800 holds 30 tools [1] and the HMC-500 holds 60 [2], so the VMC-800 is bigger."
    assert findings(check(LARGER, wrong, MAGAZINES)) == [
        ("relations.comparative", "unsupported_relation")
    ]
    right = "The VMC-800 holds 30 tools [1] and the HMC-500 holds 60 [2], so the HMC-500 is bigger."
    assert findings(check(LARGER, right, MAGAZINES)) == []


def test_faster_is_the_shorter_time():
    cited = [
        evidence(1, "The KB-16 closes in 55 ms.", document("kb16", "KB-16 manual")),
        evidence(2, "The KB-25 closes in 70 ms.", document("kb25", "KB-25 manual")),
    ]
    question = "Which closes faster, the KB-16 or the KB-25?"
    right = "The KB-16 closes faster than the KB-25 (55 ms vs 70 ms) [1][2]."
    assert findings(check(question, right, cited)) == []
    wrong = "The KB-25 closes faster than the KB-16 (70 ms vs 55 ms) [2][1]."
    assert findings(check(question, wrong, cited)) == [
        ("relations.comparative", "unsupported_relation")
    ]


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
    assert findings(check(HIGHEST, right, RANKED)) == []
    wrong = "The CV-12 had the highest shortage rate, 10 % [2]."
    report = check(HIGHEST, wrong, RANKED)
    assert findings(report) == [("relations.ranking", "unsupported_relation")], report.issues
    [issue] = report.issues
    assert "CV12" in issue.message and "CP200" in issue.message
    lowest = "The GX-500 had the lowest shortage rate, 6.31 % [3]."
    assert findings(check(HIGHEST, lowest, RANKED)) == []


@pytest.mark.parametrize(
    ("claim", "problem"),
    [
        ("The CP-200 has more flow than the CP-350 [1][2].", "contradicts the cited figures"),
        ("The CP-200 is louder than the CP-350 [1][2].", "no cited figure"),
    ],
)
def test_an_unsupported_relation_is_caught(sample_engine, claim, problem):
    validator = sample_validator(sample_engine)
    ev = evidence_of(sample_engine, "manual-cp200-v2", "manual-cp350", query="rated flow L/min")
    text = (
        "The CP-200 delivers a rated flow of 120 L/min at 6 bar [1]. "
        f"The CP-350 delivers a rated flow of 210 L/min at 8 bar [2]. {claim}"
    )
    [issue] = validator.check(draft(text), ev, perceive(COMPARE)).issues
    assert (issue.check, issue.rule, issue.kind) == (
        "consistency",
        "relations.comparative",
        "unsupported_relation",
    )
    assert problem in issue.message
    assert issue.statement == claim


def test_sides_typed_apart_from_the_answer_are_read_in_the_answers_order():
    # "which has the bigger motor, the wx7 or the wx12?" names them as typed; the answer
    # writes "WX-12 … WX-7 (75 kW vs 45 kW)": its figures are in its own order
    cited = [
        evidence(1, "The WX-7 drive motor is rated at 45 kW.", document("manual-wx7", "WX-7")),
        evidence(2, "The WX-12 drive motor is rated at 75 kW.", document("manual-wx12", "WX-12")),
    ]
    question = "which has the bigger motor, the wx7 or the wx12?"
    right = "The WX-12 is bigger than the WX-7 (75 kW vs 45 kW) [2][1]."
    assert ("relations.comparative", "unsupported_relation") not in findings(
        check(question, right, cited)
    )
    wrong = "The WX-7 is bigger than the WX-12 (45 kW vs 75 kW) [1][2]."
    assert ("relations.comparative", "unsupported_relation") in findings(
        check(question, wrong, cited)
    )
