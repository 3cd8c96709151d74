"""The words of a question that say how it asks, not what: no sentence is held to share
them.

A technician types "so how do I clear it again?" or "what does it actually do?"; a
manual's sentence says neither "so", "again" nor "actually" (``lexicon.asking_words``),
and a sentence answering "how often …?" gives a figure ("every 20 ms"), not the word
"often" (``lexicon.how_measure``). Counted among the words a sentence must share, they
only lower every sentence's share, and a plainly answering one falls under the
relevance bar ("This heartbeat is sent every 20 ms." shared 1 of 4 of the question's
words).
"""

from __future__ import annotations

import re

from ragcore.text.lexicon import WordSet, pattern
from ragcore.text.terms import terms

_ASKING_WORDS = WordSet("lexicon", "asking_words")
_WORD = re.compile(r"[\w'’]+")


def asking_terms(question: str) -> frozenset[str]:
    """The terms of ``question``'s asking words and of the measure its "how …" names."""
    said = [w.replace("’", "'") for w in _WORD.findall(question.lower())]
    asking = [w for w in said if w in _ASKING_WORDS]
    asking += [m.group("measure") for m in pattern("lexicon", "how_measure").finditer(question)]
    return frozenset(t for w in asking for t in terms(w))
