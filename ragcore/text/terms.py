"""Content terms of a text, as the generator and the validator compare texts.

Lower-cased words without stopwords, lightly stemmed (``seals`` → ``seal``,
``inspected`` → ``inspect``), identifiers kept whole and without hyphens (``CP-200`` and
``CP200`` are one term), so a question, an answer sentence and a chunk can be compared
word by word without a model.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from ragcore.text.citations import CITATION
from ragcore.text.lexicon import WordSet

_WORD = re.compile(r"[A-Za-z0-9]+(?:[-/][A-Za-z0-9]+)*")
# Words that are no content terms (rules/words.toml), read on first use.
EXTRA_STOPWORDS = WordSet("words", "extra_stopwords")
_SUFFIXES = ("ions", "ion", "ing", "ed", "es", "ly", "s")


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light suffix strip; enough to match inflections within one domain's texts."""
    for suffix in _SUFFIXES:
        if word.endswith("ss"):  # "press", "glass" are not plurals
            break
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    # "replace", "replaced", "replaces" all become "replac".
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def terms(text: str) -> list[str]:
    """The content terms of ``text`` in order (with repeats)."""
    return list(_terms(text))


# Pure functions of their text, memoised: every ask reads the same evidence sentences
# again (generation and validation both), and this was a third of an ask's Python time.
@functools.lru_cache(maxsize=16384)
def _terms(text: str) -> tuple[str, ...]:
    out = []
    stopwords, extra = STOPWORDS.words(), EXTRA_STOPWORDS.words()
    for word in _WORD.findall(CITATION.sub(" ", text)):
        lower = word.lower()
        if lower in stopwords or lower in extra:
            continue
        if any(c.isdigit() for c in lower):
            out.append(lower.replace("-", ""))  # an identifier: CP-200 and CP200 are one
        else:
            parts = re.split(r"[-/]", lower)
            out += [stem(p) for p in parts if len(p) > 1 and p not in stopwords]
    return tuple(out)


def model_terms(words) -> set[str]:
    """The terms with letters and digits: models and codes (cp350, e1140), not figures."""
    return {w for w in words if any(c.isdigit() for c in w) and any(c.isalpha() for c in w)}


def coverage(needles: Iterable[str], haystack: AbstractSet[str]) -> float:
    """Share of ``needles`` found in ``haystack`` (1.0 when there are no needles)."""
    wanted = set(needles)
    return len(wanted & haystack) / len(wanted) if wanted else 1.0


# Words too common to help BM25; dropping them also keeps the OR query short.
STOPWORDS = WordSet("words", "stopwords")
