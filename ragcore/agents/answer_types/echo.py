"""Whether a text adds nothing to the question: every content word of it is the
question's and every figure is too ("what does the HAL debounce component do?" is not
answered by "DEBOUNCE(9) HAL Component DEBOUNCE(9)", a manual page's title line). The
section number of a manual page reference ("DEBOUNCE(9)", ``lexicon.man_reference``)
is part of the name it follows, not a figure the text gives. A yes/no answer may
restate the question: its verdict is the answer, so it is not judged here — unless the
question states a figure to check against something ("the CP-350 is 78 dB(A) right, is
that over it?") and the text gives back that figure alone (``restates_the_claim``)."""

from __future__ import annotations

from ragcore.agents.perception.asks import Asks, QuestionForm
from ragcore.agents.reading import content_terms
from ragcore.text.lexicon import pattern
from ragcore.text.quantities import numbers, quantities, word_number_spans
from ragcore.text.units import dimension


def adds_nothing(asks: Asks, text: str) -> bool:
    """``text`` says nothing the question does not (its words and figures)."""
    if asks.form == QuestionForm.YES_NO:
        return False
    plain = pattern("lexicon", "man_reference").sub(r"\g<name>", text)
    said = set(content_terms(plain))
    figures = set(numbers(plain)) | {value for value, _, _ in word_number_spans(plain)}
    return said <= asks.content_terms and figures <= asks.numbers


def restates_the_claim(asks: Asks, text: str) -> bool:
    """For a yes/no question stating a figure with its unit to judge against something
    (``Asks.judged_against``: "the CP-350 is 78 dB(A) right, is that over it?"), ``text``
    gives figures of its dimension and every one is the question's: it repeats the claim
    and gives nothing it is judged by (the limit, the other side)."""
    if asks.form != QuestionForm.YES_NO or not asks.quantities or not asks.judged_against:
        # a bare number ("HLP 46 oil") names a grade more often than a claim, and "is that
        # a known limit?" is confirmed by the figure again ("limited to around 5000 RPM")
        return False
    claimed = {dimension(unit) for _, unit in asks.quantities}
    # a figure in the claim's dimension: "78 dB(A) at 1 m" gives back 78 dB(A), and where
    # it was measured is no figure to judge it by
    given = {(q.value, dimension(q.unit)) for q in quantities(text)}
    given = {g for g in given if g[1] in claimed}
    return bool(given) and given <= {(v, dimension(u)) for v, u in asks.quantities}
