"""Whether a text names what a question's form asks about (``Asks.focus``: "What is the
lift height of the OH-10?" asks for the lift height; "What CAN baud rate is it set to?"
for the baud rate): a sentence that names the subject but states something else of it
("The OH-10 has a span of 18 m") is no answer. The extractive generator prefers the
sentences that name it; the validator reports an answer that does not
(``validation.checks.focus``)."""

from __future__ import annotations

import re

from ragcore.agents.perception.asks import Asks
from ragcore.text.families import families, in_family
from ragcore.text.lexicon import pattern, words
from ragcore.text.quantities import YEAR, number_spans, quantities, word_number_spans
from ragcore.text.terms import terms
from ragcore.text.units import dimension

# At most three words before a terse answer's figure: "at least every", "within".
_TERSE = re.compile(r"^(?:[A-Za-z]+\s+){0,3}$")
_PRONOUN = re.compile(r"(?:it|they|these|this|those)\b", re.IGNORECASE)


def names_focus(asks: Asks, text: str, every: bool = False) -> bool:
    """``text`` names the focus of the question's form itself: its head or half its
    words, or with ``every`` all its words, or a figure in the unit of an attribute the
    question names (no question of that form: true). Stricter than ``off_focus``, which
    lets a terse figure stand for the words."""
    if asks.focus is None or not asks.focus.wanted:
        return True
    if any(a.addressed_by(text, asks.terms) for a in asks.named_attributes):
        return True  # "What pressure is the relief valve set at?": "set to 230 bar"
    return _names_words(asks.focus.phrase, asks.focus.wanted, families(terms(text)), every)


def off_focus(asks: Asks, answer: str) -> str | None:
    """Why ``answer`` answers something other than the focus of the question, or None."""
    if asks.focus is None:
        return None
    phrase, wanted = asks.focus.phrase, asks.focus.wanted
    said = families(terms(answer))  # "continuously" names the "continuous" current
    if not wanted or _names_words(phrase, wanted, said):
        return None
    if terse(answer) or asks.focus.amount and _new_figure(asks, answer, times=True):
        return None
    if asks.value_shape in words("lexicon", "amount_shapes") and _new_figure(
        asks, answer, bound=True
    ):
        return None  # "What particulate limit …?": "capped at 0.025 g/kWh"
    if _PRONOUN.match(answer.lstrip()):
        return None  # "It must be changed every …": about what the question names
    if asks.focus.holder:
        # the amount of another thing ("the way-lube tank holds 2.5 litres" for the
        # gearbox) gives the asked attribute, of the wrong thing
        return f"the question asks how much the {_bare(phrase)} holds; the answer does not name it"
    # "How often must the X be changed?" asks about X: an interval of something else is
    # no answer, unless the answer names what is done to it ("… need a hydrostatic test").
    done = asks.done
    if done and any(in_family(t, said) for t in done.terms):
        return None
    asked = () if done else asks.named_attributes
    if any(a.addressed_by(answer, asks.terms) for a in asked):
        return None  # "rated output" answered in kVA, "noise level" in dB(A)
    if in_spelled_unit(asks, answer):
        return None  # "How many pounds of refrigerant …?" answered in kg and lb
    return f"the question asks about the {_bare(phrase)}; the answer does not name it"


def _new_figure(asks: Asks, answer: str, times: bool = False, bound: bool = False) -> bool:
    """``answer`` gives a figure the question does not give itself — "above 56 kW" of
    "What particulate limit … above 56 kW?" is its condition, not the limit — and, but
    with ``times`` (an amount asked "how much": "fuel for 48 h"), no time unless the
    question asks how often or how long: "measured every 6 months" is no dust limit;
    with ``bound``, one stated as a bound ("capped at 0.025 g/kWh", not "lifts at 2
    m/min": ``lexicon.bound_before``)."""
    before = pattern("lexicon", "bound_before")
    return any(
        (q.value, q.unit) not in asks.quantities
        and (times or asks.measure is not None or dimension(q.unit) != dimension("h"))
        and (not bound or before.search(answer[: q.start]) is not None)
        for q in quantities(answer)
    )


def _bare(phrase: str) -> str:
    return re.sub(r"^(?:the|an?)\s+", "", phrase, flags=re.IGNORECASE)


def _names_words(
    phrase: str, wanted: frozenset[str], said: frozenset[str], every: bool = False
) -> bool:
    """``said`` (term families) names the focus ``phrase`` (its ``wanted`` terms): all
    of them with ``every``; else its head, or half its words — "the limit" names the
    "respirable silica limit"; "brake holding torque" names the brake of the "brake air
    gap", not its gap."""
    named = sum(in_family(t, said) for t in wanted)
    if every:
        return named == len(wanted)
    head = next((t for t in reversed(terms(phrase)) if t in wanted), None)
    return 2 * named >= len(wanted) or bool(head and in_family(head, said))


def terse(answer: str) -> bool:
    """A terse answer starts with its figure ("10 µg/L, under …", "At least every 3
    months.", "5 mg/m³ as an 8-hour average"): about what the question asks."""
    lead = len(answer) - len(answer.lstrip())
    starts = [q.start for q in quantities(answer)] + [
        s
        for _, s, e in number_spans(answer) + word_number_spans(answer)
        if not YEAR.match(answer[s:e])  # "The 2021 regulation requires …"
    ]
    return any(_TERSE.match(answer[lead:start]) for start in starts)


def in_spelled_unit(asks: Asks, answer: str) -> bool:
    """Whether ``answer`` gives a figure in a dimension the question spells a unit of
    ("… in m³/h?", "How many pounds …?"): that answers it, whatever its words."""
    spelled = asks.spelled_dimensions
    return any(dimension(q.unit) in spelled for q in quantities(answer))
