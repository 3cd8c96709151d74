"""Whether a text names a place, for a question asking where (``AnswerType.PLACE``:
"Where must hydraulic oil be stored?", "Where does the CO2 detector go?"): a place or a
position said with one of the words of ``lexicon.place_given`` ("in bunded areas", "close
to the floor", "outdoors", "behind the front cover"). An answer about the asked thing that
names no place ("Change the hydraulic oil every 400 operating hours") does not answer."""

from __future__ import annotations

from ragcore.agents.perception.asks import AnswerType, Asks
from ragcore.text.lexicon import pattern


def no_place(asks: Asks, text: str) -> str | None:
    """Why ``text`` does not say where, for a question asking it, or None."""
    if asks.answer_type != AnswerType.PLACE or not text.strip():
        return None
    if pattern("lexicon", "place_given").search(text):
        return None
    return "the question asks where; the answer names no place"
