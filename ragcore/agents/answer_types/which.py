"""Whether a text names the one thing of a kind that does what a question asks
(``Asks.which``: "Which GS2 parameter sets the Modbus slave address on the drive?" asks
for a parameter that sets the slave address; ``lexicon.asks_which_does``): one sentence
names the kind — a word of it, or an instance, a code or key ("P9.02", "M19",
"servo.max_current_A") — and says at least half of what it does, by word family. A
sentence naming a parameter that does something else ("see GS2 modbus Parameter 6.05"
on stall prevention), or one that does it named by no such thing (a command-line option,
"Set MODBUS target (slave) number"), answers a neighbouring question."""

from __future__ import annotations

import re

from ragcore.agents.perception.asks import Asks
from ragcore.agents.reading import content_terms, term_set
from ragcore.text.families import families, in_family
from ragcore.text.sentences import claims, split_sentences
from ragcore.text.terms import STOPWORDS, model_terms, terms

# An instance of a kind: a code or number with a letter or a dot ("P9.02", "6.05", "M19",
# "RBC7") or a key joined by an underscore or a dot ("servo.max_current_A").
_INSTANCE = re.compile(
    r"(?<![\w.])(?:[A-Za-z]+[-.]?\d+(?:\.\d+)*[A-Za-z]?|\d+\.\d+|\w+[._]\w+[\w.]*)(?![\w])"
)
# A word in lower case, not joined to a code or key ("sets", "slave"; not "Modbus",
# "mitsub_vfd", "SCT-013").
_PLAIN_WORD = re.compile(r"(?<![\w.-])[a-z]+(?![\w.-])")
# The share of what the thing does that the sentence says.
SAID_SHARE = 0.5


def unbound_which(asks: Asks, text: str) -> str | None:
    """Why no sentence of ``text`` names a thing of the asked kind doing the asked thing,
    or None (no such question, or a sentence does)."""
    if asks.which is None or asks.comparison is not None or asks.choice:
        return None  # "Which dryer finishes a load sooner?": the relation checks' to judge
    head, predicate = asks.which
    kind = _distinctive(head)
    # what it does, in plain words: the names of where ("on a Mitsubishi VFD", "for
    # mitsub_vfd") say which device, not what the thing does
    does = _distinctive(" ".join(_PLAIN_WORD.findall(predicate)))
    if not kind or not does:
        return None
    sentences = claims([text[a:b] for a, b in split_sentences(text)])
    for sentence in sentences:
        said = families(terms(sentence))
        names_kind = any(in_family(t, said) for t in kind) or _INSTANCE.search(sentence)
        share = sum(in_family(t, said) for t in does) / len(does)
        if names_kind and share >= SAID_SHARE:
            return None
    return (
        f"the question asks which {head} {predicate}; no sentence of the answer names one "
        "doing that"
    )


def _distinctive(phrase: str) -> frozenset[str]:
    """``phrase``'s content terms, names, stopwords and generic words aside."""
    found = set(content_terms(phrase))
    return frozenset(found - model_terms(found) - STOPWORDS - term_set("generic"))
