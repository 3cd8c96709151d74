"""Whether a text gives a cause, for a question that describes a symptom and asks what is
wrong (``AnswerType.CAUSE``: "Stepper only moves one step each time I jog. What's
wrong?", "… — what's usually the cause?"). A sentence that restates the symptom or
points at a clue ("… and in the same direction, there is your clue") names no cause; nor
does one that gives the cause of another symptom, named first ("If you are seeing an
axis ending up in the wrong location over multiple moves, it is likely that …",
``lexicon.symptom_condition``): at least half of that symptom's words are the question's,
by word family, or it is another one."""

from __future__ import annotations

from ragcore.agents.perception.asks import AnswerType, Asks
from ragcore.agents.reading import content_terms, term_set
from ragcore.text.families import families, in_family
from ragcore.text.lexicon import pattern
from ragcore.text.sentences import claims, split_sentences
from ragcore.text.terms import STOPWORDS


def gives_a_cause(text: str) -> bool:
    """``text`` states a cause ("the most common reason … is that …", "caused by",
    "because", "means")."""
    return bool(pattern("lexicon", "cause_given").search(text))


def of_the_asked_symptom(asks: Asks, sentence: str) -> bool:
    """``sentence`` names no symptom first, or one the question describes: at least half
    of its words are the question's (by word family)."""
    m = pattern("lexicon", "symptom_condition").match(sentence)
    if m is None:
        return True
    said = set(content_terms(m.group("symptom"))) - STOPWORDS - term_set("generic")
    asked = families(asks.content_terms)
    return 2 * sum(in_family(t, asked) for t in said) >= len(said)


def no_cause(asks: Asks, text: str) -> str | None:
    """Why ``text`` does not answer a question asking what is wrong, or None."""
    if asks.answer_type != AnswerType.CAUSE:
        return None
    if not gives_a_cause(text):
        return "the question asks what is wrong; no sentence gives a cause"
    sentences = claims([text[a:b] for a, b in split_sentences(text)])
    causes = [s for s in sentences if gives_a_cause(s)]
    if causes and not any(of_the_asked_symptom(asks, s) for s in causes):
        return "the question asks what is wrong; the answer gives the cause of another symptom"
    return None
