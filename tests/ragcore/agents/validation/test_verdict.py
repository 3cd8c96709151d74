"""A yes/no question is answered by a statement that decides it (``answer_types.verdict``,
``answer_type.yes_no``): one that states the asked relation or its negation, or gives a
figure the question's own figure is read against — not one about the subject that says
something else of it. The yes/no form is read in the sentence that asks and in its last
clause, after a situation told first."""

from __future__ import annotations

import pytest
from sources import check, document, evidence, findings, perceive

from ragcore.agents.answer_types.verdict import decides, undecided
from ragcore.agents.generation.extractive import ExtractiveGenerator
from ragcore.agents.perception.asks import AnswerType, QuestionForm

FEEDER = document("feeder/manual", "KF-20 bar feeder manual")
WATCHDOG = [
    evidence(
        1,
        "The KF-20 keeps the last feed rate while the link is up. "
        "After a link timeout the feeder stops and will only move again after a reset command.",
        FEEDER,
    )
]
RESUMES = (
    "The KF-20 link dropped for a second during a run. Will the feeder start moving again "
    "by itself once the link comes back?"
)


@pytest.mark.parametrize(
    "question",
    [
        RESUMES,
        "I only have the short cable - will the KF-20 feed with it?",
        "once the feeder is in timeout, will it pick up again by itself when commands arrive?",
        "Can the KF-20 feed bar stock thinner than 6 mm?",
    ],
)
def test_a_yes_no_question_is_read_in_the_sentence_or_clause_that_asks(question):
    asks = perceive(question).asks
    assert (asks.form, asks.answer_type) == (QuestionForm.YES_NO, AnswerType.YES_NO)


def test_a_clause_that_asks_with_a_wh_word_is_no_yes_no_question():
    asks = perceive("can't reach the KF-20 over the link, what do I try next?").asks
    assert asks.form != QuestionForm.YES_NO


def test_a_yes_no_clause_that_leans_on_the_situation_told_has_no_relation_of_its_own():
    asks = perceive("I pulled the link cable and the KF-20 kept feeding. Is it broken?").asks
    assert asks.answer_type == AnswerType.YES_NO
    assert asks.relation == frozenset()
    assert undecided(asks, ["The feeder has a watchdog."]) is None


def test_a_statement_that_states_the_asked_relation_or_its_negation_decides():
    asks = perceive(RESUMES).asks
    assert decides(asks, "After a link timeout the feeder will only move again after a reset.")
    assert decides(asks, "The feeder does not start moving again by itself.")
    assert not decides(asks, "The KF-20 keeps the last feed rate while the link is up.")


def test_a_figure_of_the_dimension_the_question_gives_decides():
    asks = perceive("Can the KF-20 feed bar stock thinner than 6 mm?").asks
    assert decides(asks, "The smallest diameter it takes is 8 mm.")
    assert not decides(asks, "The KF-20 is painted grey.")


def test_two_sentences_read_as_one_are_judged_one_by_one():
    asks = perceive(RESUMES).asks
    joined = "The feeder starts its drive. moteus-like links move commands again once up."
    assert undecided(asks, [joined]) is not None


def test_a_yes_no_answer_that_decides_nothing_is_not_ok_and_one_that_does_is():
    wrong = "The KF-20 keeps the last feed rate while the link is up [1]."
    assert ("answer_type.yes_no", "off_question") in findings(check(RESUMES, wrong, WATCHDOG))
    right = (
        "After a link timeout the feeder stops and will only move again after a reset command [1]."
    )
    assert ("answer_type.yes_no", "off_question") not in findings(check(RESUMES, right, WATCHDOG))


def test_the_generator_answers_a_yes_no_question_with_the_sentence_that_decides_it():
    question = "Will the KF-20 feeder start moving again by itself after a link timeout?"
    chunk = (
        "After a link timeout the KF-20 feeder logs the event and shows the timeout on "
        "its display. The feeder will only move again after a reset command."
    )
    cited = [evidence(1, chunk, FEEDER)]
    without = ExtractiveGenerator().generate(question, cited, perceive(question))
    assert without.statements[0].text.startswith("The feeder will only move again")


def test_an_answer_in_its_own_words_may_leave_the_relation_to_the_sentence_it_cites():
    question = "Will the KF-20 feeder start moving again by itself after a link timeout?"
    cited = [evidence(1, "The feeder will only move again after a reset command.", FEEDER)]
    answer = "It needs a reset command first [1]."
    assert ("answer_type.yes_no", "off_question") not in findings(check(question, answer, cited))
    other = [evidence(1, "The feeder logs every link timeout on its display.", FEEDER)]
    answer = "It logs the timeout first [1]."
    assert ("answer_type.yes_no", "off_question") in findings(check(question, answer, other))


def test_an_answer_that_says_yes_or_no_itself_has_decided():
    question = "Will the KF-20 feeder start moving again by itself after a link timeout?"
    cited = [evidence(1, "Feed is never resumed automatically: reset the KF-20 by hand.", FEEDER)]
    answer = "No. Feed is never resumed automatically: reset the KF-20 by hand [1]."
    assert ("answer_type.yes_no", "off_question") not in findings(check(question, answer, cited))


def test_a_short_uncited_verdict_before_its_backing_has_decided_too():
    question = "Is the KF-20 feed rate long and strong enough for the bar stock standard?"
    cited = [evidence(1, "The KF-20 feeds at 40 mm/s with 2 kN.", FEEDER)]
    answer = "It is. The KF-20 feeds at 40 mm/s with 2 kN [1]."
    assert ("answer_type.yes_no", "off_question") not in findings(check(question, answer, cited))


def test_a_prefix_scrap_is_no_word_of_the_relation():
    asks = perceive("After torquing the KF-20 clamp bolts, do they need to be re-checked?").asks
    assert "re" not in asks.relation
