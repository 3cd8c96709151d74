"""Whether a text adds nothing to the question: every content word of it is the
question's and every figure is too ("what does the HAL debounce component do?" is not
answered by "DEBOUNCE(9) HAL Component DEBOUNCE(9)", a manual page's title line). The
section number of a manual page reference ("DEBOUNCE(9)", ``lexicon.man_reference``)
is part of the name it follows, not a figure the text gives. A yes/no answer may
restate the question: its verdict is the answer, so it is not judged here."""

from __future__ import annotations

from ragcore.agents.perception.asks import Asks, QuestionForm
from ragcore.agents.reading import content_terms
from ragcore.text.lexicon import pattern
from ragcore.text.quantities import numbers, word_number_spans


def adds_nothing(asks: Asks, text: str) -> bool:
    """``text`` says nothing the question does not (its words and figures)."""
    if asks.form == QuestionForm.YES_NO:
        return False
    plain = pattern("lexicon", "man_reference").sub(r"\g<name>", text)
    said = set(content_terms(plain))
    figures = set(numbers(plain)) | {value for value, _, _ in word_number_spans(plain)}
    return said <= asks.content_terms and figures <= asks.numbers
