"""An answer to a question naming several things answers each, and a figure for another
thing or condition is not ``ok`` (issue 29, s41): things coordinated and asked of each
(``sides.every_thing``), a bare number beside a model (``sides.every_model``), a claim
given back unjudged (``answer_type.claim_restated``), a figure at another condition
(``answer_type.figure``), a letter written before its noun (``substitution.designator``),
a choice answered from one document (``sides.one_source``) and an oil grade's number (no
second figure)."""

from __future__ import annotations

from sources import check, document, evidence, findings

HOT_WORK = document("reg-hot-work", "Hot work permits")
CONFINED = document("reg-confined-space", "Confined space entry")
WATCH = [
    evidence(1, "A fire watch must stay for at least 60 minutes after the work ends.", HOT_WORK),
    evidence(2, "An attendant must stay outside the space for the whole entry.", CONFINED),
]


def test_things_asked_of_each_are_each_answered():
    question = "hot work and confined space - who has to stay on watch for each?"
    one = "A fire watch must stay for at least 60 minutes after the work ends [1]."
    report = check(question, one, WATCH)
    assert ("sides.every_thing", "missing_side") in findings(report)
    assert "nothing of confined space" in report.issues[0].message
    both = one + " An attendant must stay outside the space for the whole entry [2]."
    assert ("sides.every_thing", "missing_side") not in findings(check(question, both, WATCH))


RESERVOIRS = [
    evidence(
        1,
        "The green reservoir holds 14 litres at the normal level.",
        document("manual-a320", "A320 hydraulic system manual"),
    ),
    evidence(
        2,
        "Reservoir A holds 22.7 litres at the full mark.",
        document("manual-b737", "B737-800 hydraulic system manual"),
    ),
]


def test_a_bare_number_beside_a_model_is_a_model_the_answer_covers():
    question = "reservoir capacity - A320 green and 737 reservoir A?"
    one = "The green reservoir holds 14 litres at the normal level [1]."
    assert ("sides.every_model", "missing_side") in findings(check(question, one, RESERVOIRS))
    both = one + " Reservoir A holds 22.7 litres at the full mark [2]."
    assert ("sides.every_model", "missing_side") not in findings(check(question, both, RESERVOIRS))


def test_a_letter_before_its_noun_designates_it():
    question = "How much does the B737-800's B reservoir hold?"
    answer = "Reservoir A holds 22.7 litres at the full mark [1]."
    assert ("substitution.designator", "wrong_entity") in findings(
        check(question, answer, RESERVOIRS[1:])
    )


NOISE = [
    evidence(1, "The CP-350's noise level is 78 dB(A) at 1 m.", document("cp350", "CP-350 manual")),
    evidence(
        2,
        "Above an action level of 85 dB(A), a hearing conservation program is required.",
        document("reg-noise", "Noise exposure rule"),
    ),
]


def test_a_claim_given_back_is_not_judged():
    question = "the CP-350 is 78 dB(A) right, is that over the action level?"
    back = "The CP-350's noise level is 78 dB(A) at 1 m [1]."
    assert ("answer_type.claim_restated", "off_question") in findings(check(question, back, NOISE))
    judged = back + " The action level is 85 dB(A) [2]."
    assert ("answer_type.claim_restated", "off_question") not in findings(
        check(question, judged, NOISE)
    )


GENSET = [
    evidence(
        1,
        "The GX-500 produces 500 kVA of standby power at 400 V and 50 Hz.",
        document("gx500", "GX-500 generator manual"),
    )
]


def test_a_figure_at_another_condition_is_no_answer():
    answer = "The GX-500 produces 500 kVA of standby power at 400 V and 50 Hz [1]."
    report = check("rated output of the GX-500 at 60 Hz?", answer, GENSET)
    assert any("at 60 Hz" in i.message for i in report.issues), report.issues
    report = check("rated output of the GX-500 at 50 Hz?", answer, GENSET)
    assert not any("asks at" in i.message for i in report.issues), report.issues


BLADES = [
    evidence(
        1,
        "AD 2025-03-11 reduces the fan blade inspection interval from 750 to 500 flight cycles.",
        document("reg-ad-2025-03-11", "AD 2025-03-11 LEAP-1A fan blades"),
    )
]


def test_a_choice_with_unnamed_sides_is_not_answered_from_one_document():
    question = "which gets looked at more often, this or the leap fan blades?"
    answer = (
        "AD 2025-03-11 reduces the fan blade inspection interval from 750 to 500 flight cycles [1]."
    )
    assert ("sides.one_source", "missing_side") in findings(check(question, answer, BLADES))


SUMP = [
    evidence(1, "The sump holds 62 litres of 5W-40 synthetic oil.", document("gx500", "GX-500"))
]


def test_an_oil_grade_is_no_second_figure_of_a_comparison():
    question = "is the gx-500 sump bigger than the press then?"
    answer = "The sump holds 62 litres of 5W-40 synthetic oil [1]."
    assert ("sides.single_figure", "missing_side") in findings(check(question, answer, SUMP))


PUMPS = [
    evidence(
        1,
        "Field data showed early seal wear, so the seal interval was shortened from 2000 to "
        "1500 operating hours.",
        document("manual-cp200", "CP-200 pump manual"),
    ),
    evidence(
        2,
        "Grease the bearings every 750 operating hours with 25 g of lithium grease.",
        document("manual-cp350", "CP-350 pump manual"),
    ),
    evidence(
        3,
        "Grease the bearings every 500 operating hours with 15 g of lithium grease.",
        document("manual-cp200", "CP-200 pump manual"),
    ),
]


def test_each_model_is_answered_with_the_same_thing():
    question = "grease interval + amount for cp-200 and cp-350"
    other = (
        "CP-200: Field data showed early seal wear, so the seal interval was shortened from "
        "2000 to 1500 operating hours [1]. CP-350: Grease the bearings every 750 operating "
        "hours with 25 g of lithium grease [2]."
    )
    report = check(question, other, PUMPS)
    assert ("sides.same_thing", "off_question") in findings(report)
    assert "never says grease" in next(
        i.message for i in report.issues if i.rule == "sides.same_thing"
    )
    same = (
        "CP-200: Grease the bearings every 500 operating hours with 15 g of lithium grease [3]. "
        "CP-350: Grease the bearings every 750 operating hours with 25 g of lithium grease [2]."
    )
    assert ("sides.same_thing", "off_question") not in findings(
        check(question, same, [PUMPS[2], PUMPS[1]])
    )


def test_a_figure_for_another_colour_of_the_thing_is_another_things():
    answer = "The green reservoir holds 14 litres at the normal level [1]."
    report = check("a320 blue reservoir capacity", answer, RESERVOIRS[:1])
    assert ("substitution.designator", "wrong_entity") in findings(report)
    assert ("substitution.designator", "wrong_entity") not in findings(
        check("a320 green reservoir capacity", answer, RESERVOIRS[:1])
    )


def test_an_acronym_is_named_by_its_words_written_out():
    rule = document("reg-noise", "Noise exposure rule")
    cited = [evidence(1, "The permissible exposure limit is 90 dB(A) over 8 hours.", rule)]
    answer = "The permissible exposure limit is 90 dB(A) over 8 hours [1]."
    assert ("answer_type.named_term", "off_question") not in findings(
        check("osha noise PEL?", answer, cited)
    )
    assert ("answer_type.named_term", "off_question") in findings(
        check("osha noise STEL?", answer, cited)
    )
