"""Whether a text gives a step, for a how-to question (``AnswerType.PROCEDURE``): an
instruction to the reader — an instruction verb opening a sentence, clause or numbered
step, "you can / should / need to …", or a setting written as key and value — that says
more than the question, or a requirement with its figure, which is the check to make
("the belt must deflect no more than 15 mm under 10 kg"). "Perform a Runtime
Calibration." answers "How do I do a runtime calibration?" with its own words; "this
should not be confused with …" tells nobody what to do. A list of features ("* Factory
calibration of the robot inside ROS … * Realtime-enabled communication … To use this,
compile and run it …") is no procedure: an item that opens as a thing, not as a step,
describes a feature, and a step inside it is that feature's (``_steps_only``)."""

from __future__ import annotations

import re

from ragcore.agents.perception.asks import AnswerType, Asks
from ragcore.agents.reading import term_set
from ragcore.text.lexicon import pattern
from ragcore.text.quantities import quantities
from ragcore.text.sentences import split_sentences
from ragcore.text.terms import STOPWORDS, terms


def steps_beyond(asks: Asks, text: str) -> list[str]:
    """The sentences of ``text`` that are steps and say more than the question."""
    step, instruction = pattern("lexicon", "step"), pattern("lexicon", "instruction")
    # Words that only say "do it": a step made of them and the question's words adds
    # nothing ("Perform a Runtime Calibration").
    said_already = set(asks.terms) | STOPWORDS | term_set("generic") | term_set("doing")
    found = []
    text = _steps_only(text)
    for start, end in split_sentences(text):
        sentence = text[start:end]
        # A requirement with its figure is the check to make ("How do I check the belt
        # tension?": "the belt must deflect no more than 15 mm under 10 kg"); not a
        # figure the question gives ("the nut on the 120 amp breaker").
        figures = {(q.value, q.unit) for q in quantities(sentence)} - asks.quantities
        told = step.search(sentence) or instruction.search(sentence) and figures
        if told and set(terms(sentence)) - said_already:
            found.append(sentence)
    return found


def no_step(asks: Asks, text: str) -> str | None:
    """Why ``text`` does not answer a how-to question, or None."""
    if asks.answer_type == AnswerType.PROCEDURE and not steps_beyond(asks, text):
        return (
            "the question asks how to do something; no sentence gives a step beyond the "
            "question's own words"
        )
    return None


# An item of a bulleted list run into one line: "* Factory calibration … * Realtime …".
_BULLET = re.compile(r"(?:^|\s)[*•]\s+(?=\S)")
_LIST = 2  # this many items make a list


def _steps_only(text: str) -> str:
    """``text`` without the items of a bulleted list that open as a thing rather than a
    step (a feature list's "* Factory calibration of the robot inside ROS"): the prose
    before the list, and the items that are steps ("* Connect the cable …")."""
    marks = list(_BULLET.finditer(text))
    if len(marks) < _LIST:
        return text
    step, instruction = pattern("lexicon", "step"), pattern("lexicon", "instruction")
    kept = [text[: marks[0].start()]]
    for mark, after in zip(marks, [*marks[1:], None], strict=True):
        item = text[mark.end() : after.start() if after else len(text)]
        spans = split_sentences(item)
        first = item[spans[0][0] : spans[0][1]] if spans else item
        if step.match(first) or instruction.match(first):
            kept.append(item)
    return " ".join(kept)
