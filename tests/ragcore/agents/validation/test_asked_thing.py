"""An answer about the asked thing, not a neighbour of it (issue 29, the wrong turns with
status ``ok``): the reason for the change of another thing of the same name, a number
that counts something else, an answer that restates a why question, an answer with no
place for a where question, a code's meaning for "what do I do", and a bare number
standing for a model ("the 737") that the answer says nothing of. Phrasings are this
file's own, over small hand-made passages."""

from __future__ import annotations

from dataclasses import replace

from sources import check, document, evidence, findings, perceive

from ragcore.agents.perception.asks import AnswerType

FILTERS = [
    evidence(
        1,
        "Clogging reports from the field led to a shorter strainer interval: the strainer "
        "cleaning interval was shortened from 400 to 250 hours. The bag filter interval "
        "stays at 1000 hours.",
        document("manual-fx9", "FX-9 filter unit manual"),
    )
]


def test_the_reason_for_the_change_of_another_thing_of_the_same_name_is_no_reason():
    other = (
        "Clogging reports from the field led to a shorter strainer interval, so the strainer "
        "interval was shortened from 400 to 250 hours [1]."
    )
    question = "Why was the FX-9 calibration interval shortened?"
    assert ("answer_type.reason", "off_question") in findings(check(question, other, FILTERS))
    asked = "Why was the FX-9 strainer interval shortened?"
    assert ("answer_type.reason", "off_question") not in findings(check(asked, other, FILTERS))


def test_a_describing_word_outside_the_part_that_states_the_change_does_not_make_another_thing():
    # "the new synthetic grease" is the reason; the part stating the change is about the
    # grease interval, so the answer is about the asked grease
    cited = [
        evidence(
            1,
            "With the new synthetic grease, the grease interval was extended to 2 years.",
            document("manual-vx2", "VX-2 valve manual"),
        )
    ]
    answer = "With the new synthetic grease, the grease interval was extended to 2 years [1]."
    question = "Why was the VX-2 valve grease changed?"
    assert ("answer_type.reason", "off_question") not in findings(check(question, answer, cited))


TURBINE = [
    evidence(
        1,
        "Inspect the vanes of stage 2 every 800 cycles. The compressor of the TX-7 has "
        "24 titanium vanes in its first stage.",
        document("manual-tx7", "TX-7 turbine manual"),
    )
]


def test_a_how_many_answer_must_count_the_asked_noun():
    question = "How many vanes does the TX-7 compressor have?"
    interval = "Inspect the vanes of stage 2 every 800 cycles [1]."
    assert ("focus.count", "off_question") in findings(check(question, interval, TURBINE))
    counted = "The compressor of the TX-7 has 24 titanium vanes in its first stage [1]."
    assert ("focus.count", "off_question") not in findings(check(question, counted, TURBINE))


def test_a_number_labelling_another_thing_does_not_count_the_asked_one():
    cited = [
        evidence(
            1,
            "Check the stage 2 vanes of the TX-7 turbine for cracks every 800 cycles.",
            document("manual-tx7", "TX-7 turbine manual"),
        )
    ]
    question = "And how many compressor vanes on the TX-7?"
    assert perceive(question).asks.answer_type == AnswerType.COUNT  # after "and"
    answer = "Check the stage 2 vanes of the TX-7 turbine for cracks every 800 cycles [1]."
    assert ("focus.count", "off_question") in findings(check(question, answer, cited))


def test_a_bare_count_that_ends_its_clause_stands_for_the_asked_noun():
    cited = [evidence(1, "Vanes in the first stage: 24.", document("manual-tx7", "TX-7"))]
    question = "How many vanes does the TX-7 have in its first stage?"
    answer = "The first stage has 24 [1]."
    assert ("focus.count", "off_question") not in findings(check(question, answer, cited))


def test_an_answer_that_restates_a_why_question_answers_nothing():
    cited = [
        evidence(
            1,
            "Wear safety goggles in the grinding bay.",
            document("faq-grinding", "Grinding bay FAQ"),
        )
    ]
    question = "So why does everyone wear safety goggles in the grinding bay?"
    assert perceive(question).asks.answer_type == AnswerType.REASON  # after "so"
    answer = "Wear safety goggles in the grinding bay [1]."
    assert ("answer_type.echo", "off_question") in findings(check(question, answer, cited))
    # a yes/no answer may restate its question: the verdict is the answer
    yes_no = "Do I wear safety goggles in the grinding bay?"
    assert ("answer_type.echo", "off_question") not in findings(check(yes_no, answer, cited))


STORAGE = [
    evidence(
        1,
        "Top up the KL-3 coolant every 200 hours. Coolant drums must be kept in a locked, "
        "ventilated store away from direct sunlight.",
        document("manual-kl3", "KL-3 chiller manual"),
    )
]


def test_a_where_question_is_answered_by_a_place():
    question = "Where do the KL-3 coolant drums have to be kept?"
    assert perceive(question).asks.answer_type == AnswerType.PLACE
    interval = "Top up the KL-3 coolant every 200 hours [1]."
    assert findings(check(question, interval, STORAGE)) == [("answer_type.place", "off_question")]
    place = (
        "Coolant drums must be kept in a locked, ventilated store away from direct sunlight [1]."
    )
    assert ("answer_type.place", "off_question") not in findings(check(question, place, STORAGE))


def test_an_occasion_is_no_place():
    cited = [evidence(1, "Swap the strainer at every coolant top-up.", document("m", "KL-3"))]
    question = "Where is the KL-3 strainer?"
    answer = "Swap the strainer at every coolant top-up [1]."
    assert ("answer_type.place", "off_question") in findings(check(question, answer, cited))


def test_what_the_reader_is_to_do_is_not_answered_by_a_meaning():
    cited = [
        evidence(
            1,
            "Code F12 means the feed roller jammed. Clear the roller and reset the guard before "
            "restarting the LX-4.",
            document("manual-lx4", "LX-4 lathe manual"),
        )
    ]
    question = "What should I do before restarting the LX-4 after F12?"
    assert perceive(question).asks.answer_type == AnswerType.ACTION
    meaning = "Code F12 means the feed roller jammed [1]."
    assert ("answer_type.action", "off_question") in findings(check(question, meaning, cited))
    step = "Clear the roller and reset the guard before restarting the LX-4 [1]."
    assert ("answer_type.action", "off_question") not in findings(check(question, step, cited))
    told = "The roller has to be cleared before the LX-4 is restarted [1]."
    assert ("answer_type.action", "off_question") not in findings(check(question, told, cited))
    # what a machine does is not asked of the reader
    behaviour = "What does the LX-4 do after F12?"
    assert perceive(behaviour).asks.answer_type != AnswerType.ACTION


TANKS = [
    evidence(
        1,
        "The Q400 main tank holds 35 litres of fluid.",
        document("manual-q400", "Q400 hydraulics manual"),
    ),
    evidence(
        2,
        "The ATR-72 main tank holds 28 litres of fluid.",
        document("manual-atr-72", "ATR-72 hydraulics manual"),
    ),
]


def test_a_bare_number_standing_for_a_model_is_a_side_the_answer_must_cover():
    question = "How much fluid do the ATR-72 main tank and the 400 main tank hold?"
    assert perceive(question).asks.side_by_side == ("ATR-72", "400")
    one = "The ATR-72 main tank holds 28 litres of fluid [2]."
    report = check(question, one, TANKS)
    assert ("sides.every_model", "missing_side") in findings(report)
    assert "nothing of 400" in report.issues[-1].message
    both = "The ATR-72 main tank holds 28 litres [2]; the Q400 main tank holds 35 litres [1]."
    assert ("sides.every_model", "missing_side") not in findings(check(question, both, TANKS))


def test_a_figure_after_the_is_no_model():
    question = "Is the ATR-72 tank and the 400 litres enough?"
    assert "400" not in perceive(question).asks.side_by_side


def test_a_number_is_read_as_a_model_only_where_a_name_stands():
    sides = lambda q: perceive(q).asks.side_by_side  # noqa: E731
    assert sides("Which tank holds more, the ATR-72 main or the 400's main?") == ("ATR-72", "400")
    assert sides("What do the ATR-72 and the 2021 rule require?") == ()  # a year
    assert sides("Do the ATR-72 and the 300 bar pump fit?") == ()  # a figure in a unit
    # a number standing for a model is searched as words, never as a comparison's side
    assert perceive("How much fluid do the ATR-72 tank and the 400 tank hold?").sides == ()


def test_a_question_naming_its_kind_of_document_is_answered_from_one():
    manual = document("manual-tx7", "TX-7 turbine manual")
    bulletin = replace(
        document("reg-sb-2024-02", "Service directive SB 2024-02: TX-7 vanes"),
        doc_type="regulation",
    )
    cited = [
        evidence(1, "SB 2024-02 requires a vane inspection every 600 cycles.", bulletin),
        evidence(2, "Inspect the TX-7 vanes every 900 cycles as a standard.", manual),
    ]
    question = "And the manual's standard vane interval for the TX-7?"
    assert perceive(question).asks.documents == ("manual",)
    directive = "SB 2024-02 requires a vane inspection every 600 cycles [1]."
    report = check(question, directive, cited)
    assert ("answer_type.named_document", "off_question") in findings(report)
    assert "reg-sb-2024-02" in report.issues[-1].message
    standard = "Inspect the TX-7 vanes every 900 cycles as a standard [2]."
    assert ("answer_type.named_document", "off_question") not in findings(
        check(question, standard, cited)
    )
    # "under the directive" asks the directive, which its title names
    under = "Under the directive, how often are the TX-7 vanes inspected?"
    assert ("answer_type.named_document", "off_question") not in findings(
        check(under, directive, cited)
    )
    # what the manual gives is the manual's figure, not the directive's
    gives = "What vane interval does the TX-7 manual give?"
    assert ("answer_type.named_document", "off_question") in findings(
        check(gives, directive, cited)
    )
    assert findings(check(gives, standard, cited)) == []
    # a document named in passing is no source asked for
    assert perceive("Did the vane interval change between manual revisions?").asks.documents == ()
