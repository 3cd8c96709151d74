"""Whether a text gives an amount, for a "how much …?" question (``Focus.amount``: "How
much current can the tool flange supply at 24 V?"): a figure in a unit — one ragcore
knows or a short unit-like word ("512 MB") — other than the figures the question
supplies itself. Bare numbers do not answer it — a command line's
settings ("tool_voltage:=24", "tool_baud_rate:=115200") are no amount of current. A
share ("100%") is a share of something: it is an amount of the asked thing only in a
text that names it ("How much load …?" is not answered by "recharge its batteries to
100% capacity", but by "the output load has to be more than 40%")."""

from __future__ import annotations

import re

from ragcore.agents.perception.asks import Asks
from ragcore.text.quantities import quantities
from ragcore.text.terms import STOPWORDS, terms

# A figure and a unit ragcore's table does not know ("512 MB", "108 hL", "250 kbps"): a
# short word after the number, or one with a capital.
_OTHER_UNIT = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?(?P<unit>[A-Za-zµ][A-Za-z/]*)\b")
_SHORT_UNIT = 4
_SHARE = "%"


def gives_an_amount(asks: Asks, text: str, compact: re.Pattern[str]) -> bool:
    """``text`` gives a figure in a unit the question does not supply (``compact``:
    figures written against their unit symbol)."""
    supplied = asks.quantities
    shares_of_it = _names_the_asked(asks, text)
    if any(
        (q.value, q.unit) not in supplied and (q.unit != _SHARE or shares_of_it)
        for q in quantities(text)
    ):
        return True
    if compact.search(text):
        return True
    return any(_unit_like(m.group("unit")) for m in _OTHER_UNIT.finditer(text))


def _names_the_asked(asks: Asks, text: str) -> bool:
    """``text`` names what a "how much …?" question asks an amount of."""
    return asks.focus is None or asks.focus.wanted <= set(terms(text))


def _unit_like(word: str) -> bool:
    return word.lower() not in STOPWORDS and (
        len(word) <= _SHORT_UNIT or any(c.isupper() for c in word)
    )


def no_amount(asks: Asks, text: str, compact: re.Pattern[str]) -> str | None:
    """Why ``text`` does not answer a "how much …?" question, or None."""
    if asks.focus is None or not asks.focus.amount or gives_an_amount(asks, text, compact):
        return None
    return (
        f"the question asks how much {asks.focus.phrase}; the answer gives no amount in a unit "
        "beyond the question's own"
    )
