"""Whether a source is about the system a question names by the name its documents go by.

A knowledge base files its documents under what they are about: "evcc-docs/…",
"moteus/…", "nut-doc/…". A question's word that names the collection of one of the
retrieved documents ("What port is the evcc web interface on by default?": evcc)
says which system it asks about; a sentence from a document that never names it, in its
id, title, metadata, section path or chunk, is a sibling system's answer (apcupsd's
network port), however many other words it shares. ``unnamed_products`` does the same
for the product names and versions perception reads (``Asks.products``); this one needs
no pattern: the documents say which words are names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ragcore.agents.evidence import Evidence
from ragcore.agents.reading import term_set
from ragcore.text.terms import STOPWORDS, model_terms, terms


def document_names(asked: Iterable[str], evidence: Sequence[Evidence]) -> frozenset[str]:
    """The ``asked`` terms (a question's content terms) that name the collection a
    retrieved document is filed under (``_name_terms``); not stopwords, generic words
    ("docs", "manual") or models (the product checks judge those)."""
    skip = STOPWORDS | term_set("generic")
    named: set[str] = set()
    for e in evidence:
        named |= _name_terms(e)
    return frozenset(t for t in set(asked) & named if t not in skip and not model_terms([t]))


def unnamed_here(names: Iterable[str], e: Evidence) -> tuple[str, ...]:
    """The ``names`` (from ``document_names``) that ``e`` never names: not in its
    document's id, title or metadata, nor in its section path or text."""
    wanted = set(names)
    if not wanted:
        return ()
    doc = e.document
    path = doc.id.replace("/", " ").replace("-", " ").replace("_", " ")
    said = set(terms(" ".join((path, doc.title, *doc.metadata.values(), e.section, e.text))))
    return tuple(sorted(wanted - said))


def _name_terms(e: Evidence) -> set[str]:
    """What a document goes by: the collection it is filed under, the first part of an id
    that is a path ("evcc-docs/…": evcc, docs). Not its title: a short title is as often
    an ordinary word ("Variables", "Cables") as a name ("hems")."""
    doc_id = e.document.id
    return set(terms(doc_id.split("/", 1)[0].replace("-", " "))) if "/" in doc_id else set()
