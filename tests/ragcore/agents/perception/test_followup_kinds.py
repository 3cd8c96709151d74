"""Follow-ups by kind (issue 29, fourth round): another version named by its document or
by the figure it restates, why a figure changed, "each"/"both" and "these two" over the
things in play, a fragment naming only an attribute, "it" after a verb done to a machine,
"that <noun>" for a thing the previous answer named, a comparison with the previous figure
and "now". Real perception rules, no spaCy; the conversation kept as a session keeps it."""

from __future__ import annotations

from datetime import date

import pytest
from test_conversation import session

from ragcore.agents.perception.agent import PerceptionAgent
from ragcore.agents.perception.conversation import answered_limit


@pytest.fixture(scope="module")
def agent():
    return PerceptionAgent(clock=lambda: date(2026, 12, 2), nlp=None)


def converse(agent: PerceptionAgent, *turns: str | tuple[str, str]) -> list[str | None]:
    """Each turn's rewrite (None when it stands alone); a turn may be (question, answer)."""
    return [rewrite for _, rewrite in session(agent, *turns)]


def test_a_version_named_by_its_document_asks_the_previous_question_of_it(agent):
    assert (
        converse(
            agent, "What torque for the HP-400 platen bolts?", "What was it in the 2020 manual?"
        )[1]
        == "What torque for the HP-400 platen bolts in the 2020 manual?"
    )


def test_a_version_question_restating_the_interval_then_a_bare_why(agent):
    assert converse(
        agent,
        "How often should the CP-200 seal be replaced?",
        "What was the interval before 2024?",
        "Why?",
    )[1:] == [
        "How often should the CP-200 seal be replaced before 2024?",
        # the figure asked before changed (a how-often question's: its interval)
        "Why was the CP-200 seal interval changed?",
    ]


def test_a_version_question_about_another_attribute_goes_back_to_the_turn_that_asked_it(agent):
    assert (
        converse(
            agent,
            "How often should the CP-200 mechanical seal be replaced?",
            "What's its part number?",
            "what did the older manual say about how often?",
        )[2]
        == "How often should the CP-200 mechanical seal be replaced in the older manual?"
    )


def test_why_it_changed_is_about_the_figure_not_the_model(agent):
    rewritten = converse(
        agent,
        "How often do I change the engine oil on the GX-500 generator?",
        "what was it in the 2019 manual?",
        "how come it got longer?",
    )
    assert rewritten[1] == (
        "How often do I change the engine oil on the GX-500 generator in the 2019 manual?"
    )
    assert rewritten[2] is not None
    assert "GX-500 engine oil interval got longer" in rewritten[2]
    assert "2019" not in rewritten[2]  # the reason is in the version that made the change


def test_they_in_a_why_question_is_whoever_changed_it(agent):
    rewritten = converse(
        agent, "What torque for the HP-400 platen bolts?", "Why did they raise it?"
    )
    assert rewritten[1] is not None
    assert rewritten[1].startswith("Why did they raise the HP-400 torque")


def test_a_why_question_about_a_change_naming_nothing_carries_the_model(agent):
    assert (
        converse(
            agent,
            "How often should I change the hydraulic oil on the HP-400?",
            "Why was the oil interval shortened?",
        )[1]
        == "Why was the oil interval shortened (HP-400)?"
    )


def test_each_and_both_ask_of_every_thing_in_play(agent):
    assert converse(
        agent,
        "What flow does the CP-200 deliver?",
        "and the CP-350?",
        "give me the motor power of both",
        "what bearing temperature limits apply to each?",
    )[2:] == [
        "Give me the motor power of the CP-200 and the CP-350?",
        "What bearing temperature limits apply to the CP-200 and the CP-350?",
    ]


def test_these_two_are_the_things_in_play_and_it_the_limit_the_answer_named(agent):
    rewritten = converse(
        agent,
        "Which compressor is louder, AC-75 or AC-110?",
        (
            "What is the action level for a hearing conservation program?",
            "Above an action level of 85 dB(A), the employer must run a program [1].",
        ),
        "So are these two compressors above it?",
    )
    assert rewritten[2] == (
        "So are the AC-110 and the AC-75 compressors above the 85 dB(A) action level?"
    )


def test_a_fragment_naming_an_attribute_asks_it_of_the_previous_subject_and_junk_stays(agent):
    rewritten = converse(
        agent,
        "What torque for the HP-400 platen bolts?",
        "inspection intervals?",
    )
    # of the thing of the model the previous question was about (its words after the model)
    assert rewritten[1] == "Inspection intervals of the HP-400 platen bolts?"
    assert converse(agent, "What torque for the HP-400 platen bolts?", "hmm ok")[1] is None


def test_it_after_a_verb_done_to_a_machine_is_the_model_not_the_code(agent):
    rewritten = converse(
        agent, "What does E1102 mean on the CP-200?", "what do I do before restarting it?"
    )
    assert rewritten[1] == "What do I do before restarting CP-200 (E1102)?"
    cleared = converse(agent, "What does E4027 mean on the HP-400?", "How do I clear it?")
    assert cleared[1] == "How do I clear E4027 (HP-400)?"


def test_that_noun_the_previous_question_did_not_say_completes_the_question(agent):
    assert (
        converse(
            agent,
            "My HP-400 press is throwing E4027, what does it mean?",
            "what should that precharge be?",
        )[1]
        == "What should that HP-400 precharge be (E4027)?"
    )


def test_that_compared_with_another_model_is_the_previous_figure(agent):
    assert (
        converse(
            agent,
            "What's the air filter part number for the AC-110?",
            "What motor does that machine have?",
            "How does that compare with the AC-75?",
        )[2]
        == "How does the AC-110 motor compare with the AC-75?"
    )


def test_now_asks_the_previous_question_of_the_current_version(agent):
    assert (
        converse(
            agent,
            "In 2022, what seal replacement interval did the CP-200 manual give?",
            "And what does it say now?",
        )[1]
        == "What seal replacement interval did the CP-200 manual give?"
    )


def test_a_limit_written_noun_first_is_a_limit_and_a_measured_level_is_not():
    assert answered_limit("Above an action level of 85 dB(A), run a program [1].") == (
        "85 dB(A) action level"
    )
    assert answered_limit("A permissible exposure limit of 90 dB(A) applies.") == (
        "90 dB(A) exposure limit"
    )
    assert answered_limit("Its noise level of 72 dB(A) at 1 m [1].") is None


def test_it_compared_with_after_a_named_model_is_the_model_in_play(agent):
    assert (
        converse(
            agent,
            "How much fluid does reservoir A on the B737-800 hold?",
            "How many hydraulic systems does the A320 have compared with it?",
        )[1]
        == "How many hydraulic systems does the A320 have compared with the B737-800?"
    )


def test_a_follow_up_naming_a_document_of_its_own_does_not_carry_the_previous_source(agent):
    rewritten = converse(
        agent,
        "According to the FAA, how often must the HPT stage 1 blades of a CFM56-7B be borescoped?",
        "And the manual's standard interval for that engine?",
    )[1]
    assert rewritten is not None
    assert "CFM56-7B" in rewritten
    assert "FAA" not in rewritten


def test_a_bare_number_standing_for_a_model_is_restated_and_replaced_like_one(agent):
    # "the 400's" names the model of its question: nothing is borrowed from the turn
    # before (a rewrite that would only capitalise "and" is none), and "what about the
    # ATR-72?" puts the ATR-72 in its place
    assert converse(
        agent,
        "How often are the ATR-72 hydraulic filters replaced?",
        "and the 400's hydraulic filters, how often?",
        "what about the ATR-72?",
    )[1:] == [None, "and the ATR-72's hydraulic filters, how often?"]


def test_a_fragment_naming_no_attribute_of_the_table_asks_it_of_the_model_in_play(agent):
    rewritten = converse(agent, "What flow does the CP-200 deliver?", "shaft seal temp limit?")
    assert rewritten[1] == "Shaft seal temp limit of the CP-200?"
    # two things asked, joined by "and": still a fragment
    assert converse(agent, "How heavy is the GX-500?", "fuel tank size and filter grade?")[1] == (
        "Fuel tank size and filter grade of the GX-500?"
    )


def test_a_fragment_opening_with_a_question_word_carries_the_model_in_play(agent):
    rewritten = converse(
        agent, "How often is the GX-500 coolant changed?", "how much coolant and what type?"
    )
    assert rewritten[1] == "How much coolant and what type (GX-500)?"


def test_a_fragment_after_a_turn_that_named_nothing_reaches_back_to_the_model_in_play(agent):
    rewritten = converse(
        agent,
        "How often does the oil get changed on the HP-400?",
        "the sheet on the wall says otherwise, which one is right?",
        "how much oil and what viscosity?",
    )
    assert rewritten[1] is None
    assert rewritten[2] == "How much oil and what viscosity (HP-400)?"


def test_a_fragment_prefers_the_model_to_a_code_and_a_clause_is_no_fragment(agent):
    after_code = converse(agent, "What does E1102 mean on the CP-200?", "impeller clearance spec?")
    assert after_code[1] == "Impeller clearance spec of the CP-200?"
    # a verb or a pronoun gives the question a subject of its own
    for own in ("how loud is the workshop itself?", "which grade should I buy?"):
        assert converse(agent, "How loud is the AC-75?", own)[1] is None
    # an acronym or a source names another subject; small talk is no fragment
    for other in ("OSHA exposure limit?", "hmm ok", "nice"):
        assert converse(agent, "How loud is the AC-75?", other)[1] is None


def test_a_fragment_after_a_question_naming_a_rule_of_its_own_does_not_reach_back(agent):
    rewritten = converse(
        agent,
        "How loud is the AC-75?",
        "What noise level requires hearing protection under the OSHA rule?",
        "dent limit?",
    )
    assert rewritten[2] is None
