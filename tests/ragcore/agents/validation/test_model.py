"""The answer model (``validation/model``): which citations a statement leans on (short
verdicts, conclusions, a paragraph's sentences), how statements are split at their
citations, and the entity a statement is about."""

from __future__ import annotations

from sources import BROCHURE, FILTER, FLOW, TC40, check, document, evidence, findings

from ragcore.agents.evidence import split_statements


# -- a verdict that states its figure ----------------------------------------------------------
def test_a_short_verdict_with_a_figure_leans_on_the_next_cited_statement():
    question = "How often is the ZT-9 intake filter renewed?"
    right = "Every 400 h. The ZT-9 intake filter element is renewed every 400 h [1]."
    report = check(question, right, FILTER)
    assert findings(report) == [], report.issues
    wrong = "Every 500 h. The ZT-9 intake filter element is renewed every 400 h [1]."
    assert findings(check(question, wrong, FILTER)) == [("numbers.unbacked", "unsupported_number")]


def test_a_conclusion_or_a_which_clause_after_the_citation_leans_on_it():
    question = "How often is the ZT-9 intake filter renewed?"
    for tail in (", which is about 17 days of running.", ", and so roughly every 17 days."):
        answer = "The ZT-9 intake filter element is renewed every 400 h [1]" + tail
        assert findings(check(question, answer, FILTER)) == [], answer


# -- a paragraph that cites once; a change told in turn ------------------------------------
BD900 = [
    evidence(
        1,
        "After a standstill of more than 30 days, run the lubrication pump alone for 5 min "
        "before starting the main motor. Below -15 °C, warm the oil with the 2 kW heater to "
        "at least 5 °C first.",
        document("manual-bd900", "BD-900 Drive Manual"),
    )
]


RESTART = "What must be done before restarting a BD-900 drive after a month?"


def test_a_paragraph_citing_after_its_last_full_stop_covers_its_sentences():
    answer = (
        "Run the lubrication pump alone for about five minutes before starting the main "
        "motor. Below -15 °C, first warm the oil with the 2 kW heater to at least 5 °C.[1]"
    )
    assert findings(check(RESTART, answer, BD900)) == []


def test_a_sentence_of_another_paragraph_or_before_a_cited_clause_stays_uncited():
    for answer in (
        "Run the lubrication pump alone for about five minutes first.\n\nBelow -15 °C, warm "
        "the oil with the 2 kW heater to at least 5 °C.[1]",
        "Run the lubrication pump alone for about five minutes first. Below -15 °C, warm "
        "the oil with the 2 kW heater [1] to at least 5 °C.",
    ):
        assert findings(check(RESTART, answer, BD900)) == [("citations.uncited", "uncited")], answer


def test_a_citation_before_the_last_full_stop_cites_only_its_own_sentence():
    question = "What does E07 mean on the TC-40?"
    answer = "E07 means the safety thermostat has tripped. Let the unit cool below 100 °C"
    assert findings(check(question, answer + ", then reset it manually [1].", TC40)) == [
        ("citations.uncited", "uncited")
    ]
    assert findings(check(question, answer + ", then reset it manually.[1]", TC40)) == []


def test_a_citation_after_an_abbreviations_full_stop_closes_the_sentence():
    answer = (
        "Warm up for 60 min from cold, 0.5 bar every 10 min. [1] Skipping it voids the warranty."
    )
    statements = split_statements(answer)
    assert [s.citations for s in statements] == [(1,), ()]


def test_a_statement_without_a_model_is_about_the_questions_model():
    assert findings(check(FLOW, "It delivers 780 L/min [1].", BROCHURE)) == [
        ("figures.value", "wrong_entity")
    ]
    assert findings(check(FLOW, "It delivers 450 L/min [1].", BROCHURE)) == []


# -- uncited verdicts and conclusions --------------------------------------------------------
NOISE_LIMIT = [
    evidence(1, "The SB-12 produces 84 dB(A) at 1 m.", document("manual-sb12", "SB-12 manual")),
    evidence(2, "The noise limit at operator positions is 80 dB(A).", document("reg", "Rule")),
]


LOUD = "How does the SB-12 noise level compare with the limit?"


def test_a_conclusion_from_cited_figures_leans_on_their_citations():
    answer = (
        "The SB-12 produces 84 dB(A) [1]. The limit is 80 dB(A) [2]. "
        "The SB-12 is therefore 4 dB(A) above the limit."
    )
    report = check(LOUD, answer, NOISE_LIMIT)
    # also reported: support.statement (a false alarm of support.statement: 84 − 80 = 4 dB(A))
    assert findings(report) == [("support.statement", "unsupported")], report.issues


def test_an_uncited_sentence_with_a_new_fact_stays_uncited():
    answer = "The SB-12 produces 84 dB(A) [1]. Hearing protection is mandatory above the limit."
    assert findings(check(LOUD, answer, NOISE_LIMIT)) == [("citations.uncited", "uncited")]


def test_a_short_verdict_before_its_backing_leans_on_the_next_citation():
    answer = "Yes. The SB-12 produces 84 dB(A) while the limit is 80 dB(A) [1][2]."
    report = check("Is the SB-12 louder than the limit allows?", answer, NOISE_LIMIT)
    assert findings(report) == [], report.issues
