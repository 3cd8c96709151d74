"""Whether an answer names the command-line option a question asks about
(``Asks.options``: "what does the -k flag do …?"). A manual page lists many options in
one chunk, so its chunk naming the option says nothing of which sentence is about it:
the answer names one of the asked options itself, or stands under a heading or section
that does. "A fault toggles a flag in iocontrol …" is about another entry of the page."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ragcore.agents.answer_types.leaning import sentences, sentences_before
from ragcore.agents.perception.asks import Asks, named_options

# A sentence whose subject stands for what the sentence before it names.
_PRONOUN = re.compile(r"^\W*(?:it|its|this|these|they|their)\b", re.IGNORECASE)
# The heading an answer cites a sentence after ("OPTIONS: It disables …").
_LEAD = re.compile(r"^[^:.]{1,40}:\s+(?=\w)")


def unnamed_option(
    asks: Asks, text: str, headings: Iterable[str] = (), chunks: Sequence[str] = ()
) -> str | None:
    """Why ``text`` (with the ``headings`` it stands under, quoted from ``chunks``) does
    not answer about the option the question names, or None: none of the asked options
    is named there, nor — for a sentence whose subject is a pronoun ("It disables
    deceleration over-voltage stall prevention") — in the sentence before it in its
    chunk, which names what "it" is (the question may name one option two ways, "-R /
    --braking-resistor")."""
    if not asks.options:
        return None
    where = " ".join((text, *headings, *_antecedents(text, chunks)))
    said = set(named_options(where)) | {o for o in asks.options if _written(o, where)}
    if said & set(asks.options):
        return None
    asked = " / ".join(asks.options)
    return f"the question asks about the {asked} option; the answer never names it"


def _written(option: str, text: str) -> bool:
    """``text`` names ``option``, its dashes written as hyphens or minus signs, as a
    word of its own ("−k Continue in the presence of errors")."""
    dashes = "".join("[-−–]" if c == "-" else re.escape(c) for c in option)
    return re.search(rf"(?<![\w−–-]){dashes}(?![\w-])", text) is not None


def _antecedents(text: str, chunks: Sequence[str]) -> list[str]:
    """The sentences before each sentence of ``text`` that opens with a pronoun, in the
    ``chunks`` it is quoted from."""
    own = [_LEAD.sub("", sentence, count=1) for sentence in sentences(text)]
    return [
        b
        for sentence in own
        if _PRONOUN.match(sentence)
        for chunk in chunks
        for b in sentences_before(sentence, chunk)
    ]
