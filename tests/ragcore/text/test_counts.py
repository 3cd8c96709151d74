"""Counts: a bare number with the noun it counts, backed only beside that noun."""

from __future__ import annotations

from ragcore.text.counts import backed, counts


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
