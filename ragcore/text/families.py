"""Word families: inflections of one word that the light stemmer of ``terms`` leaves
apart, matched when a claim's words are looked up in its sources.

The stemmer strips one suffix, so "emptied"/"empty" become "empti"/"empty" and
"continuously"/"continuous" become "continuous"/"continuou". Matching by family keys
joins them without changing the terms retrieval indexes.
"""

from __future__ import annotations

from collections.abc import Iterable

from ragcore.text.synonyms import synonym_key


def family(term: str) -> frozenset[str]:
    """Keys by which ``term`` matches the other inflections of its word: a "y" turned
    "i" ("empti"/"empty", "carri"/"carry"), and, in terms of six letters or more, one
    letter more or another last letter ("continuous"/"continuou", "recover"/"recovery";
    not "clos"/"closur"), and the key of its group of synonyms ("withdrawn"/"removed")."""
    if not term.isalpha():
        return frozenset({term})
    keys = {term[:-1] + "y"} if len(term) >= 4 and term.endswith("i") else {term}
    if len(term) >= 6:
        keys |= {term[:-1], term}
    if synonym := synonym_key(term):  # "withdrawn" and "removed", "log" and "record"
        keys.add(synonym)
    return frozenset(keys)


def families(words: Iterable[str]) -> frozenset[str]:
    """The family keys of ``words``, to look terms up in with ``in_family``."""
    return frozenset(k for w in words for k in family(w))


def in_family(term: str, keys: frozenset[str]) -> bool:
    """Whether a word of ``term``'s family is among ``keys`` (``families`` of a text)."""
    return bool(family(term) & keys)


def verb_root(term: str) -> str:
    """A verb's root, its -ing and a doubled last letter aside: "moving" and "move",
    "runn" (of "running") and "run" meet; ``families`` leaves them apart."""
    if term.endswith("ing") and len(term) > 5:
        term = term[:-3]
    if len(term) > 3 and term[-1] == term[-2]:
        term = term[:-1]
    return term.removesuffix("e") if len(term) > 3 else term
