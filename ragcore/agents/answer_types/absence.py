"""Whether an answer says what holds when the thing a question's condition leaves out is
absent (``Asks.absent``: "If I leave LISTEN out of upsd.conf, can my other servers still
connect?"). A sentence on what the directive does when given ("you must specify each
interface you want upsd to listen on") does not answer it; one on its absence does ("If
you do not specify a LISTEN directive, upsd only listens on the loopback interface";
``lexicon.states_absence``)."""

from __future__ import annotations

from ragcore.agents.perception.asks import Asks
from ragcore.text.lexicon import pattern


def unstated_absence(asks: Asks, text: str) -> str | None:
    """Why ``text`` does not say what holds when the asked thing is absent, or None."""
    if not asks.absent or pattern("lexicon", "states_absence").search(text):
        return None
    thing = " or ".join(asks.absent)
    return (
        f"the question asks what happens when {thing} is left out; the answer does not "
        "say what holds without it"
    )
