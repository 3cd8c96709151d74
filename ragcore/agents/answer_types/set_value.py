"""Whether a text answers about the value a question sets a key to (``Asks.set_value``:
"What does leaving HOME_SEARCH_VEL at 0 do?"): it names that value, as a figure or as a
word ("A value of zero causes LinuxCNC to assume there is no home switch"). A sentence on
the key at another value ("If HOME_SEARCH_VEL is non-zero, …"), or on the key alone
("This variable has units of machine-units per second"), answers something else."""

from __future__ import annotations

from ragcore.agents.perception.asks import Asks
from ragcore.text.lexicon import pattern
from ragcore.text.quantities import mask_identifiers, number_spans, word_number_spans


def names_value(value: float, text: str) -> bool:
    """``text`` names ``value``: as a figure, a number word, or zero as a word."""
    if value == 0 and pattern("lexicon", "zero_word").search(text):
        return True
    masked = mask_identifiers(text)
    spans = (*number_spans(masked), *word_number_spans(masked))
    return any(found == value and value != 0 for found, _, _ in spans)


def unnamed_value(asks: Asks, text: str) -> str | None:
    """Why ``text`` does not answer about the value the question sets, or None."""
    if asks.set_value is None:
        return None
    key, value = asks.set_value
    if names_value(value, text):
        return None
    return f"the question asks what {key} at {value:g} does; the answer does not name {value:g}"
