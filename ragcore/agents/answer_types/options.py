"""Whether a text lists choices, for a question that asks which ones there are
(``AnswerType.OPTIONS``: "What warning times can you pick?", "Which modes are
supported?"). One value is no answer to it, however well it names the setting: "a
preconfigured warning time of two minutes" gives the default, not the choices ("2, 5,
7, or 10 minutes")."""

from __future__ import annotations

from ragcore.agents.perception.asks import AnswerType, Asks
from ragcore.text.lexicon import pattern


def lists_options(text: str) -> bool:
    """``text`` lists two choices or more: a list with a closing "or" / "and" ("0, 12 or
    24", "none, odd, even"), figures joined by "or" ("12 or 24 V"), a range ("from 0 to
    63"), or two list items ("- 125 kbps", "- 250 kbps")."""
    return bool(pattern("lexicon", "choices").search(text))


def unlisted_options(asks: Asks, text: str) -> str | None:
    """Why ``text`` does not answer a question asking for the choices, or None."""
    if asks.answer_type == AnswerType.OPTIONS and not lists_options(text):
        return "the question asks which choices there are; no sentence lists them"
    return None
