"""What a question names however it was typed, read once by perception for the checks:
its models (``asked_models``), whether it asks its sides to be put in order
(``orders_sides``), the sides its answer must cover (``asked_sides``) and the part a
part-number question asks about (``part_asked``).

Perception reads identifiers as the rules' patterns spell them ("AC-110"); a person also
types "ac-110", "cp500" or "the 75". A check that needs the question's models must not
lose one to its spelling: "bigger motor: ac-110 or the cp-350 pump?" compares two sides,
and "seal interval on the cp-500?" is not answered by the CP-200 manual.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragcore.agents.attributes import Comparatives
from ragcore.agents.perception.asks import QuestionForm, side_by_side
from ragcore.agents.perception.model import Perception
from ragcore.agents.reading import term_set
from ragcore.text.lexicon import pattern
from ragcore.text.terms import STOPWORDS, model_terms, terms
from ragcore.types import Action, Route

# Asking the same of each model named side by side ("What oil do the AC-75 and the AC-110
# take?"), as perception reads it for its comparison route.
_SAME_OF_EACH = frozenset([Action.LOOKUP, Action.LIST])


def key(name: str) -> str:
    """A name as compared: "ac-110", "AC-110" and "AC110" are one ("ac110")."""
    return "".join(terms(name))


def asked_models(
    perception: Perception, names: Sequence[tuple[str, int, int]]
) -> tuple[tuple[str, int, int], ...]:
    """The models the question names, as written and where, in question order: its
    identifiers however capitalised (``names``, ``reading.written_names`` of the question;
    no error codes), and the bare numbers that stand for a model ("the 737 reservoir",
    ``Perception.numbered_models``)."""
    text = perception.question
    found = {start: (text[start:end], start, end) for _, start, end in names}
    for number in perception.numbered_models:
        for m in re.finditer(rf"(?<![\w.-]){re.escape(number)}(?![\w-])", text):
            if not any(a <= m.start() < b for _, a, b in found.values()):
                found.setdefault(m.start(), (number, m.start(), m.end()))
    seen: set[str] = set()
    out = []
    for name, start, end in sorted(found.values(), key=lambda f: f[1]):
        if (k := key(name)) and k not in seen:
            seen.add(k)
            out.append((name, start, end))
    return tuple(out)


def orders_sides(perception: Perception, comparatives: Comparatives) -> bool:
    """The question asks which of its sides is more ("which one is louder, …?", "is that
    more than the 75?", "bigger motor: A or B?"): its answer needs a figure of each."""
    if perception.asks.choice:
        return True
    return (
        perception.action == Action.COMPARE and comparatives.find(perception.question) is not None
    )


def asked_sides(
    perception: Perception, models: tuple[tuple[str, int, int], ...], ordered: bool
) -> tuple[str, ...]:
    """The sides the answer must give something for: a comparison's as perception read
    them; else, however typed, the models (``asked_models``) a question asking which is
    more (``ordered``) names (its models side by side, or its one or two models: "more
    than the 75?" names the side a follow-up adds), or the models side by side of a
    question asking the same of each."""
    if perception.route == Route.COMPARISON:
        return perception.sides
    run = side_by_side(perception.question, models)
    if ordered:
        if len(run) >= 2:
            return run
        return tuple(n for n, _, _ in models) if len(models) <= 2 else ()
    asks = perception.asks
    if perception.action in _SAME_OF_EACH and asks.form == QuestionForm.VALUE:
        return run
    return ()


def part_asked(question: str) -> tuple[str, frozenset[str]]:
    """The part a part-number question asks the number of, as written and as terms: the
    phrase ``lexicon.part_number_of`` / ``part_number_before`` read, its terms without
    names, stopwords, generic words or words saying which number ("the right part
    number", ``lexicon.number_qualifiers``): "E1140 flush filter" → flush, filter;
    "battery part no?" → battery; no terms when it asks of a model itself ("What's the
    RA-6 part number?")."""
    skip = STOPWORDS | term_set("generic") | term_set("number_qualifiers")
    for name in ("part_number_of", "part_number_before"):
        if m := pattern("lexicon", name).search(question):
            phrase = m.group("thing").strip()
            words = {t for t in terms(phrase) if t not in skip and not model_terms([t])}
            if words:
                return phrase, frozenset(words)
    return "", frozenset()
