"""Whether a sentence of an answer that leans on the one before it in its source says
what it says of the thing the question asks about. "This must match the setting in
register PD165 of the Huanyang VFD." names what must match in the sentence before it: in
the manual page, the parity option. Quoted without that sentence, for a question on the
baud rate, its register is the parity's, however many words it shares with the
question. A pronoun subject (``lexicon.pronoun_subject``) is read so only in a sentence
that gives a figure or a code, and only when the sentence before it in the cited chunks
(before each place it stands) is left out of the answer and names none of the
question's distinctive words."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragcore.agents.perception.asks import Asks
from ragcore.agents.reading import term_set
from ragcore.text.families import families, in_family
from ragcore.text.lexicon import pattern
from ragcore.text.sentences import claims, split_sentences
from ragcore.text.terms import STOPWORDS, terms

# A sentence end before an option of a manual page ("… of the Huanyang VFD. −p, −−parity
# …"), which the splitter leaves alone: no capital follows.
_OPTION_START = re.compile(r"(?<=[a-z0-9)\]\"'>])\.\s+(?=[−–-])", re.IGNORECASE)


def leaning_elsewhere(asks: Asks, text: str, chunks: Sequence[str]) -> str | None:
    """Why a sentence of ``text`` (an answer, citations stripped) quoted from
    ``chunks`` (the texts it cites) is about something else than the question asks,
    or None (module docstring)."""
    said = _flat(text)
    asked = set(asks.content_terms) - STOPWORDS - term_set("generic")
    for sentence in sentences(text):
        if not pattern("lexicon", "pronoun_subject").match(sentence):
            continue
        if not any(c.isdigit() for c in sentence):
            continue
        before = [b for chunk in chunks for b in sentences_before(sentence, chunk)]
        if not before or any(_flat(b).rstrip(".") in said for b in before):
            continue  # not quoted, or what it leans on is in the answer
        if not any(any(in_family(t, families(terms(b))) for t in asked) for b in before):
            return (
                f"'{_short(sentence)}' leans on the sentence before it in its source "
                f"('{_short(before[0])}'), which is about something the question does "
                "not ask"
            )
    return None


def sentences(text: str) -> list[str]:
    """The claims of ``text``, split also before a manual page's option."""
    found = claims([text[a:b] for a, b in split_sentences(text)])
    return [part for sentence in found for part in _OPTION_START.split(sentence)]


def sentences_before(sentence: str, chunk: str) -> list[str]:
    """The sentence of ``chunk`` before each one that holds ``sentence`` (none before
    its first)."""
    wanted = _flat(sentence).rstrip(".")
    found = sentences(chunk)
    return [found[i - 1] for i, s in enumerate(found) if i > 0 and wanted in _flat(s)]


def _flat(text: str) -> str:
    return " ".join(text.split())


def _short(text: str, size: int = 60) -> str:
    flat = _flat(text)
    return flat if len(flat) <= size else flat[: size - 1].rstrip() + "…"
