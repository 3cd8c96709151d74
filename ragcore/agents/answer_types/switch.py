"""Whether a text gives the value for the way a question asks it to switch something
(``Asks.switch``): "what phases value turns on auto switching?" is answered by the value
that enables it ("`phases: 0` = Automatic switching enabled"), not by the values for the
other way ("phases: 1 or 3 = Automatic switching disabled"), however well those name
the setting. A sentence naming both ways ("controls whether switching is enabled or
disabled") states no value for either; one naming neither is judged elsewhere."""

from __future__ import annotations

from ragcore.agents.perception.asks import Asks, Switch
from ragcore.text.lexicon import pattern
from ragcore.text.sentences import claims, split_sentences


def other_way(asks: Asks, text: str) -> str | None:
    """Why ``text`` gives only the value for the other way than the question asks, or
    None: a sentence of it states the other way alone, and none states the asked way
    alone."""
    if asks.switch is None:
        return None
    asked, other = (
        ("switches_on", "switches_off")
        if asks.switch == Switch.ON
        else ("switches_off", "switches_on")
    )
    alone = {asked: False, other: False}
    for sentence in claims([text[a:b] for a, b in split_sentences(text)]):
        said = {name: pattern("lexicon", name).search(sentence) is not None for name in alone}
        if said[asked] != said[other]:
            alone[asked if said[asked] else other] = True
    if alone[other] and not alone[asked]:
        return (
            f"the question asks the value that turns it {asks.switch}; the answer gives the "
            "value for the other way"
        )
    return None
