"""Whether a text names a place, for a question asking where (``AnswerType.PLACE``:
"Where must hydraulic oil be stored?", "Where does the CO2 detector go?"): a place or a
position said with one of the words of ``lexicon.place_given`` ("in bunded areas", "close
to the floor", "outdoors", "behind the front cover"). An answer about the asked thing that
names no place ("Change the hydraulic oil every 400 operating hours") does not answer.
And whether a text tells something to do, for a question asking what the reader is to do
(``AnswerType.ACTION``: "What do I do before restarting it?"): a text whose every sentence
states what a code or signal means ("Error E1102 means the dry-run sensor tripped")
tells nothing to do."""

from __future__ import annotations

from ragcore.agents.perception.asks import AnswerType, Asks
from ragcore.text.lexicon import pattern
from ragcore.text.sentences import split_sentences


def no_place(asks: Asks, text: str) -> str | None:
    """Why ``text`` does not say where, for a question asking it, or None."""
    if asks.answer_type != AnswerType.PLACE or not text.strip():
        return None
    if pattern("lexicon", "place_given").search(text):
        return None
    return "the question asks where; the answer names no place"


def no_action(asks: Asks, text: str) -> str | None:
    """Why ``text`` tells nothing to do, for a question asking what to do, or None."""
    if asks.answer_type != AnswerType.ACTION or not text.strip():
        return None
    meaning, instruction = pattern("lexicon", "meaning_stated"), pattern("lexicon", "instruction")
    sentences = [text[a:b] for a, b in split_sentences(text)]
    if all(meaning.search(s) and not instruction.search(s) for s in sentences):
        return "the question asks what to do; the answer only says what a code means"
    return None
