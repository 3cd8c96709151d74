"""Whether a text says what a thing is for, for a question asking it (``AnswerType.PURPOSE``:
"what is upssched actually for?", "what's the hems section in evcc.yaml for?"): a sentence
that names the thing — every distinctive word of its name, the kind of thing it is aside
("section", ``lexicon.thing_kinds``), or a pronoun standing for it — and
states what it does or is for (``lexicon.gives_purpose``: "upssched is a helper for upsmon
that will invoke commands"). A sentence on the configuration file the section sits in, or
one that names the thing and says nothing of its use ("now that upssched knows how the
timers work, …"), does not answer; nor one that names it only after the words of use,
as what is done ("In order to perform a runtime calibration it is necessary to wait …")."""

from __future__ import annotations

import re

from ragcore.agents.perception.asks import AnswerType, Asks
from ragcore.agents.reading import term_set
from ragcore.text.families import families, in_family
from ragcore.text.lexicon import pattern
from ragcore.text.sentences import split_sentences
from ragcore.text.terms import terms

# A pronoun subject, after the heading an answer may cite the sentence under ("OPTIONS:
# It disables …").
_PRONOUN = re.compile(r"\s*(?:[^:.]{1,40}:\s+)?(?:it|its|they|their|this|these)\b", re.IGNORECASE)


def no_purpose(asks: Asks, text: str) -> str | None:
    """Why ``text`` does not say what the asked thing is for, or None."""
    if asks.answer_type != AnswerType.PURPOSE or asks.focus is None:
        return None
    # the thing's name, not the kind of thing it is ("the modbusproxy section")
    named = asks.focus.wanted - term_set("thing_kinds")
    wanted, gives = named or asks.focus.wanted, pattern("lexicon", "gives_purpose")
    for start, end in split_sentences(text):
        sentence = text[start:end]
        said = families(terms(sentence))
        if _PRONOUN.match(sentence):
            if gives.search(sentence):
                return None
            continue
        if not all(in_family(t, said) for t in wanted):
            continue
        # The thing is what the sentence says does something: named before the words
        # that say it ("zener diodes limit …"), or the purpose named ("The purpose of
        # the zener diodes is …"). "In order to perform a runtime calibration it is
        # necessary to wait …" tells what doing it takes, not what it is for.
        for m in gives.finditer(sentence):
            before = families(terms(sentence[: m.start()]))
            if m.group(0).lower() == "purpose" or all(in_family(t, before) for t in wanted):
                return None
    return f"the question asks what {asks.focus.phrase} is for; no sentence of the answer says it"
