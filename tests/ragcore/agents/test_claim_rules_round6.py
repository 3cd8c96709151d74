"""General rules of the sixth round, on hand-written sentences: hedged conversions,
heating is not cooling, a how-many question answered with a measure, and (kept as it
was) a citation before a paragraph's last full stop."""

from __future__ import annotations

from handmade import check, document, evidence, kinds

from ragcore.agents.focus import no_count

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
    assert no_count(question, "The GR-450 rotor runs at 380 rpm [1].")
    for answer in (
        "The GR-450 has five rotor knives [1].",
        "It has 5 knives on a 450 mm rotor [1].",
    ):
        assert no_count(question, answer) is None, answer
    assert no_count("How many hours does the filter last?", "About 2,000 h [1].") is None
    assert no_count("How many times a year is it tested?", "Every 6 months [1].") is None


def test_a_side_of_a_contrast_may_have_several_words():
    heaters = "What should I do before switching on the heaters of an HW-50?"
    cited = [evidence(1, "The heating function stays locked out below 10 L/min.", TC40[0].document)]
    answer = "Get water moving first: heating stays locked out below 10 L/min [1]."
    assert "off_question" not in kinds(check(heaters, answer, cited))
