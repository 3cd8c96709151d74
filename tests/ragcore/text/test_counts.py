"""Counts: a bare number with the noun it counts, backed only beside that noun."""

from __future__ import annotations

from ragcore.text.counts import backed, counts
from ragcore.text.quantities import quantities


def test_a_bare_number_before_words_is_a_count_of_them():
    [count] = counts("The BX-4 holds 6 spare nozzles.")
    assert (count.value, count.nouns[0], count.words) == (6, "spar", "spare nozzles")


def test_labels_years_quantities_and_repeats_are_no_counts():
    assert counts("Rev. 3 lists it. In 2019 rules changed. It weighs 6 kg.") == []
    assert counts("Do not restart it more than 4 times an hour.") == []


def test_a_count_is_backed_by_its_number_beside_its_noun_in_one_sentence_or_line():
    [count] = counts("The BX-4 holds 6 spare nozzles.")
    assert backed(count, ["Spare nozzles in the kit: 6\nService every 4 months."])
    assert not backed(count, ["The kit has 4 spare nozzles. Service every 6 months."])


def test_a_day_before_a_month_is_a_date_not_a_count():
    assert counts("Towers installed after 1 September 2022 need eliminators.") == []
    assert counts("From 15 Mar. the rule applies.") == []
    [count] = counts("The site runs 3 marine pumps.")  # a word starting like a month
    assert count.value == 3


# -- number words that count nothing -------------------------------------------------------
def test_number_words_that_refer_back_or_are_estimates_count_nothing():
    assert counts("The PC-300 raises E22 when the two probes differ by more than 0.3 °C.") == []
    assert counts("so about ten CA-20 units could be supplied") == []
    assert [c.value for c in counts("It has eight condenser fans.")] == [8]


def test_number_words_before_a_verb_a_total_or_a_list_count_nothing():
    assert counts("Five altogether: three can sit in the main lock.") == []
    assert counts("The code allowed two options: fit a second brake, or derate it.") == []


def test_tenths_in_words_are_a_share_and_count_nothing():
    text = "If the flow sinks below seven tenths of its nominal value, the unit trips."
    assert [(q.value, q.unit) for q in quantities(text)] == [(70.0, "%")]
    assert counts(text) == []
