"""Whether a text decides a yes/no question (``AnswerType.YES_NO``): one of its sentences
states the relation the question asks whether holds (``Asks.relation``), or its
negation — at least half of the relation's words, by word family ("Is the moteus power
input reverse-polarity protected?" is decided by "The power input is NOT protected
against reverse polarity") — or gives a figure of the dimension the question's own
figure has, a limit it can be read against ("Can I run the spindle at around 10 Hz?":
"the VFD shuts off if the frequency drops below 12 Hz"). A sentence about the subject
that states something else ("you can keep sending the same command") leaves the
question open, however many of its words it shares: "can i mix 12v and 24v solenoids on
one hub?" is not decided by "the hub can switch both 12V and 24V valves", which says
nothing of mixing them (``Asks.together``), nor "Is the power input protected if …?" by a
sentence on the power input that never says protected (``Asks.state``), nor "will the
apcsmart driver work with it?" by the settings written out ("[myups] driver = apcsmart …
cable = 940-0095B", ``lexicon.config_block``), nor "Can I install the URCap on PolyScope
5.0?" by a sentence that gives no version (``Asks.versions``). A yes/no clause that leans on the
sentences before it ("Is it broken?") has no relation of its own and is not tested. A
situation asked of "it" ("does it matter which way round the CT is clipped on?",
``Asks.impersonal``) is decided by a sentence saying the judging word of "it" ("it does
not matter")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragcore.agents.perception.asks import AnswerType, Asks
from ragcore.text.families import families, in_family, verb_root
from ragcore.text.lexicon import pattern
from ragcore.text.quantities import quantities
from ragcore.text.sentences import claims, split_sentences
from ragcore.text.terms import terms
from ragcore.text.units import dimension

# The share of the asked relation's words a sentence states it with.
DECIDING_SHARE = 0.5


def undecided(asks: Asks, statements: Sequence[str], sources: Sequence[str] = ()) -> str | None:
    """Why none of ``statements`` (an answer's, citations stripped) nor of ``sources``
    (the text of the chunks they cite, for an answer in its own words: "Yes: the rule
    requires a daily test" leaves the relation to the sentence it cites) decides the
    yes/no question, or None. Each is read sentence by sentence ("… stops accepting
    commands. moteus implements a watchdog for commands that arrive …" is one sentence
    to the splitter when the second opens in lower case, but two claims)."""
    if asks.answer_type != AnswerType.YES_NO or not asks.relation:
        return None
    sentences = [t[a:b] for t in (*statements, *sources) for a, b in split_sentences(t)]
    if any(decides(asks, s) for s in claims(sentences)):
        return None
    return "the question asks yes or no; no sentence of the answer states what it asks"


def decides(asks: Asks, sentence: str) -> bool:
    """``sentence`` states the asked relation or its negation, or a figure it is read
    against (see the module's docstring). A question whether two things go together
    (``Asks.together``) is decided only by a sentence saying how they do; one whose
    condition is a version (``Asks.versions``) only by a sentence giving a version."""
    if pattern("lexicon", "config_block").match(sentence):
        return False  # settings written out state no relation
    if asks.impersonal and _judged_of_it(asks.impersonal, sentence):
        return True  # "it does not matter" for "does it matter which way round …?"
    said = families(terms(sentence)) | {verb_root(t) for t in terms(sentence)}
    stated = [in_family(t, said) or verb_root(t) in said for t in asks.relation]
    if asks.together:
        # how they go together, of a thing the question names ("all solenoids connected
        # to a single PH must be the same voltage": the hub is "PH" there)
        return any(stated) and pattern("lexicon", "states_together").search(sentence) is not None
    if asks.versions:
        return pattern("lexicon", "gives_version").search(sentence) is not None
    share = sum(stated) / len(asks.relation)
    # "Is the power input protected …?" is decided by a sentence saying whether it is
    # protected, not by one naming the power input only
    in_state = asks.state is None or in_family(asks.state, said) or verb_root(asks.state) in said
    if share >= DECIDING_SHARE and in_state:
        return True
    asked = {dimension(unit) for _, unit in asks.quantities}
    return bool(asked & {dimension(q.unit) for q in quantities(sentence)})


def _judged_of_it(word: str, sentence: str) -> bool:
    """``sentence`` says of "it" the word that judges the asked situation ("it does not
    matter", "it is not safe"), within a few words."""
    return (
        re.search(rf"\bit\b(?:\s+[\w']+){{0,3}}?\s+{re.escape(word)}s?\b", sentence, re.I)
        is not None
    )


def says(term: str, text: str) -> bool:
    """``text`` says ``term``: a word of its family, or of its verb's root ("homing" says
    "home")."""
    said = terms(text)
    return in_family(term, families(said)) or verb_root(term) in {verb_root(t) for t in said}
