"""Whether a text is about the setting a question asks what to set (``Asks.to_set`` with
its ``focus``: "what do I set the encoder cpr to?"): it names the setting's head word —
the last distinctive word of the phrase, "cpr" of "encoder cpr" — or, for a text leaning
on its heading, its section does. A sentence on the same part that gives another thing a
value ("add filter capacitors … about 22nF between each signal pin and GND", under the
hall-encoder notes) tells the asker what to fit, not what to set the asked setting to."""

from __future__ import annotations

from ragcore.agents.perception.asks import Asks
from ragcore.text.families import families, in_family
from ragcore.text.terms import terms


def unnamed_setting(asks: Asks, text: str) -> str | None:
    """Why ``text`` (an answer, with the section paths it cites) does not name the
    setting a what-to-set question asks about, or None."""
    if not asks.to_set or asks.focus is None or not asks.focus.wanted:
        return None
    head = next((t for t in reversed(terms(asks.focus.phrase)) if t in asks.focus.wanted), None)
    if head is None or in_family(head, families(terms(text))):
        return None
    return f"the question asks what to set the {asks.focus.phrase} to; the answer never names it"
