"""An answer naming one of the asked kind, or who does the asked act (issue 29, the
unanswerable follow-ups answered ``ok``): "which lubricant goes in …" is not answered
by when the lubricant is changed nor by how much the reservoir holds, and "who
approves …" not by what the approved thing allows. Phrasings are this file's own, over
small hand-made passages."""

from __future__ import annotations

from sources import check, document, evidence, findings, perceive

from ragcore.agents.perception.asks import AnswerType

WINCH = [
    evidence(
        1,
        "Renew the lubricant in the drum gearbox every 2000 hours. The gearbox reservoir "
        "holds 4 litres. Fill it with lithium complex lubricant only.",
        document("manual-wx7", "WX-7 winch manual"),
    )
]


def test_which_lubricant_is_not_answered_by_when_it_is_renewed_nor_by_a_capacity():
    question = "Which lubricant goes in the WX-7 drum gearbox?"
    assert perceive(question).asks.answer_type == AnswerType.KIND
    when = "Renew the lubricant in the drum gearbox every 2000 hours [1]."
    assert ("answer_type.kind", "off_question") in findings(check(question, when, WINCH))
    size = "The gearbox reservoir holds 4 litres [1]."
    assert ("answer_type.kind", "off_question") in findings(check(question, size, WINCH))
    named = "Fill it with lithium complex lubricant only [1]."
    assert ("answer_type.kind", "off_question") not in findings(check(question, named, WINCH))


def test_a_kind_named_by_a_code_beside_its_noun_or_by_its_members_is_named():
    cited = [evidence(1, "Use lubricant LX2. Wear gloves and goggles.", document("m", "WX-7"))]
    question = "What lubricant does the WX-7 take?"
    coded = "Use lubricant LX2 [1]."
    assert ("answer_type.kind", "off_question") not in findings(check(question, coded, cited))
    members = "Wear gloves and goggles [1]."
    assert ("answer_type.kind", "off_question") not in findings(
        check("What protective gear do I need for the WX-7?", members, cited)
    )


def test_words_that_name_no_kind_ask_for_none():
    for question in ("What else does the WX-7 manual recommend?", "Which one goes first?"):
        assert perceive(question).asks.answer_type != AnswerType.KIND


PERMIT = [
    evidence(
        1,
        "A lifting plan is valid for one shift. The crane supervisor approves the lifting "
        "plan before the first lift.",
        document("reg-lifting", "Lifting operations rule"),
    )
]


def test_who_approves_is_not_answered_by_what_the_approved_thing_allows():
    question = "Who approves the lifting plan?"
    assert perceive(question).asks.answer_type == AnswerType.AGENT
    valid = "A lifting plan is valid for one shift [1]."
    assert ("answer_type.agent", "off_question") in findings(check(question, valid, PERMIT))
    said = "The crane supervisor approves the lifting plan before the first lift [1]."
    assert ("answer_type.agent", "off_question") not in findings(check(question, said, PERMIT))
    relative = "Only the person who drew up the plan may change it [1]."
    assert ("answer_type.agent", "off_question") not in findings(
        check("who is allowed to change the lifting plan?", relative, PERMIT)
    )


def test_a_who_question_with_no_act_of_its_own_asks_for_no_act():
    assert perceive("Who is the maker of the WX-7?").asks.answer_type != AnswerType.AGENT


def test_a_kind_word_that_is_a_measure_is_answered_by_its_figure():
    cited = [evidence(1, "The WX-7 pulls with a rope speed of 40 m/min.", document("m", "WX-7"))]
    question = "What rope speed does the WX-7 have?"
    figure = "The WX-7 pulls with a rope speed of 40 m/min [1]."
    assert ("answer_type.kind", "off_question") not in findings(check(question, figure, cited))


DRYERS = [
    evidence(
        1,
        "Replace the desiccant of the DR-20 every 4000 hours.",
        document("manual-dr20", "DR-20 dryer manual"),
    ),
    evidence(
        2,
        "Empty the DR-40 condensate trap daily and check the desiccant colour in the window. "
        "Replace the DR-40 desiccant every 3000 hours.",
        document("manual-dr40", "DR-40 dryer manual"),
    ),
]


def test_each_model_asked_the_same_is_given_it_not_something_else_of_it():
    question = "desiccant intervals for the DR-20 and the DR-40"
    other = (
        "DR-20: Replace the desiccant of the DR-20 every 4000 hours [1]. DR-40: Empty the "
        "DR-40 condensate trap daily and check the desiccant colour in the window [2]."
    )
    report = check(question, other, DRYERS)
    assert ("sides.each_answered", "missing_side") in findings(report)
    both = (
        "DR-20: Replace the desiccant of the DR-20 every 4000 hours [1]. DR-40: Replace the "
        "DR-40 desiccant every 3000 hours [2]."
    )
    assert ("sides.each_answered", "missing_side") not in findings(check(question, both, DRYERS))


def test_a_kind_phrase_that_names_a_measure_or_a_count_is_answered_by_its_figure():
    cited = [
        evidence(
            1,
            "The WX-7 drum takes 12 mm wire ropes. Set the gap between the drum and the guard "
            "rollers to 3–5 mm. It has two brake stages.",
            document("manual-wx7", "WX-7 winch manual"),
        )
    ]
    for question, answer in (
        (
            "What rope diameter does the WX-7 drum take?",
            "The WX-7 drum takes 12 mm wire ropes [1].",
        ),
        (
            "What roller gap should be set on the WX-7?",
            "Set the gap between the drum and the guard rollers to 3–5 mm [1].",
        ),
        ("Which brake stages does the WX-7 have?", "It has two brake stages [1]."),
    ):
        assert ("answer_type.kind", "off_question") not in findings(check(question, answer, cited))


def test_a_figure_in_the_ordinary_state_does_not_answer_for_a_state_the_question_sets():
    cited = [evidence(1, "The WX-7 runs at 70 dB(A) at 1 m.", document("manual-wx7", "WX-7"))]
    question = "how loud is the WX-7 with the drum cover off?"
    ordinary = "The WX-7 runs at 70 dB(A) at 1 m [1]."
    assert ("answer_type.figure", "off_question") in findings(check(question, ordinary, cited))
    yes_no = "does the WX-7 stay below 80 dB(A) with the drum cover removed?"
    assert ("answer_type.condition", "off_question") in findings(check(yes_no, ordinary, cited))
    said = "With the drum cover off the WX-7 runs at 78 dB(A) [1]."
    assert ("answer_type.figure", "off_question") not in findings(check(question, said, cited))


def test_a_model_of_its_own_names_one_of_the_kind():
    cited = [
        evidence(
            1, "The WX-7 must be fed from the PS-40 supply unit, rated 40 A.", document("m", "WX-7")
        )
    ]
    question = "Which supply unit should be used for the WX-7?"
    answer = "The WX-7 must be fed from the PS-40 supply unit, rated 40 A [1]."
    assert ("answer_type.kind", "off_question") not in findings(check(question, answer, cited))
    other = "The WX-7 draws 40 A [1]."
    assert ("answer_type.kind", "off_question") in findings(check(question, other, cited))
