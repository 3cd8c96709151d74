"""The things a question asks the same of, each, when they are no models: "hot work and
confined space - who has to stay on watch for each?", "how long are the hot work and
confined space permits valid, each?". Models side by side are ``asks.side_by_side``'s;
these are the topics a person coordinates and then asks of each (``lexicon.asks_each``).

An answer must say something of every one: one that speaks of hot work alone answered
half the question (``validation.checks.sides.every_thing``)."""

from __future__ import annotations

from ragcore.agents.reading import term_set
from ragcore.text.lexicon import WordSet, pattern
from ragcore.text.terms import STOPWORDS, model_terms, terms

_ASKING = (WordSet("lexicon", "question_starts"), WordSet("lexicon", "clause_words"))

# at most this many words make one thing ("confined space entry")
_THING_WORDS = 3


def things_each(question: str) -> tuple[str, ...]:
    """The two things the question coordinates and asks of each, as written, or ()."""
    if pattern("lexicon", "asks_each").search(question) is None:
        return ()
    for m in pattern("lexicon", "coordinated_things").finditer(question):
        first = m.group("a").split()
        second = m.group("b").split()
        # a thing's words end where a word that asks or states begins ("… space permits
        # valid" keeps "space"): the coordinated phrases are parallel, as long as each other
        first = _until(first)
        second = _until(second)[: len(first)]
        if not first or not second or len(first) > _THING_WORDS:
            continue
        a, b = " ".join(first), " ".join(second)
        if any(model_terms(set(terms(t))) for t in (a, b)):
            continue  # models side by side are ``side_by_side``'s
        if not _own(a) or not _own(b):
            continue
        return (a, b)
    return ()


def _until(words: list[str]) -> list[str]:
    taken = []
    for w in words:
        if any(w.lower() in asking for asking in _ASKING):
            break
        taken.append(w)
    return taken


def _own(thing: str) -> set[str]:
    """The thing's content terms: the words that tell it from the other."""
    return set(terms(thing)) - STOPWORDS - term_set("generic")
