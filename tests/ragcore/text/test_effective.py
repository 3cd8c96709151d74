"""The date a document says it takes effect, read from its text."""

from __future__ import annotations

from datetime import date

import pytest

from ragcore.text.effective import effective_date


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Issued in May. Effective 3 September 2019.", date(2019, 9, 3)),
        ("This edition is effective from 15 April 2026.", date(2026, 4, 15)),
        ("The code takes effect on October 2, 2023.", date(2023, 10, 2)),
        ("It came into force on 2020-11-01.", date(2020, 11, 1)),
        ("It applies from 1 June 2018 to all sites.", date(2018, 6, 1)),
    ],
)
def test_the_date_a_document_takes_effect_is_read(text, expected):
    assert effective_date([text]) == expected


def test_the_earliest_of_several_dates_is_the_documents():
    texts = ["Effective 1 March 2022.", "Existing plants: effective from 1 March 2024."]
    assert effective_date(texts) == date(2022, 3, 1)


@pytest.mark.parametrize(
    "text",
    ["Inspect it every 2 years.", "Issued on 4 May 2020.", "Effective from 30 February 2021."],
)
def test_no_date_or_an_impossible_one_is_none(text):
    assert effective_date([text]) is None
