"""What a question asks for, read from its form, when the attribute table does not
list it: "What is the lift height of the OH-10?" asks for the lift height; "How many
tools does the VMC-600 hold?" for tools; "How often must the gearbox oil be changed?"
about the gearbox oil. An answer that names none of the focus words, gives no figure
first and addresses no attribute named by them answers something else ("The OH-10 has a
span of 18 m").
"""

from __future__ import annotations

import re

from ragcore.agents.attributes import AttributeTable
from ragcore.text.quantities import quantities, units_named
from ragcore.text.terms import STOPWORDS, model_terms, terms
from ragcore.text.units import dimension

# The forms whose focus is a noun phrase, and where the phrase is.
_FORMS = (
    # "What is the lift height of the OH-10?", "What was the lead limit for …"
    re.compile(
        r"^\s*what\s+(?:is|are|was|were)\s+(?:the\s+)?(?P<focus>.+?)\s+"
        r"(?:of|for|on|in|at|under|from)\s",
        re.IGNORECASE,
    ),
    # "What payload can the RB-12 carry?", "What hardness does the WS-50 produce?"
    re.compile(
        r"^\s*what\s+(?P<focus>[^?]+?)\s+(?:does|do|did|can|could|must|should|will)\s",
        re.IGNORECASE,
    ),
    # "How many tools does the VMC-600 hold?"
    re.compile(
        r"^\s*how\s+many\s+(?P<focus>[^?]+?)\s+(?:does|do|did|can|could|are|is|were|will)\s",
        re.IGNORECASE,
    ),
    # "How often must the RB-12 gearbox oil be changed?"
    re.compile(
        r"^\s*how\s+(?:often|frequently)\s+(?:must|should|does|do|is|are|has|have|did|can)\s+"
        r"(?P<focus>[^?]+?)\s+(?:be|been|get|gets|need|needs)\b",
        re.IGNORECASE,
    ),
)
# Words of a focus phrase that do not say which attribute ("the maximum …", "the rated …").
_GENERIC = frozenset(
    terms(
        "maximum minimum max min rated nominal current typical recommended required total "
        "value level figure amount number each every new old standard normal permitted "
        "allowed specified kind type time times"
    )
)
# A question about a code's meaning, an explanation or two things at once is not read
# for a focus: "What is fault E2215 …?" asks what the code means.
_SKIP = re.compile(
    r"\b(?:and\s+(?:what|how|when|which|why|does|do|is|are|can)|mean|means|happen|should\s+i"
    r"|fault|error|alarm|code|[A-Z]{1,2}\d{2,5})\b",
    re.IGNORECASE,
)


def focus(question: str) -> tuple[str, frozenset[str]]:
    """The noun phrase ``question`` asks about, as written and as its distinctive terms
    (("", empty) when none is read)."""
    if not _SKIP.search(question):
        for form in _FORMS:
            if m := form.match(question):
                phrase = terms(m.group("focus"))
                names = model_terms(set(phrase))
                wanted = frozenset(
                    t for t in phrase if t not in names | STOPWORDS and t not in _GENERIC
                )
                return m.group("focus").strip(), wanted
    return "", frozenset()


def off_focus(question: str, answer: str, attributes: AttributeTable) -> str | None:
    """Why ``answer`` answers something other than the focus of ``question``, or None."""
    phrase, wanted = focus(question)
    if not wanted or wanted & set(terms(answer)):
        return None
    stripped = answer.lstrip()
    if any(q.start == len(answer) - len(stripped) for q in quantities(answer)):
        return None  # a terse answer that starts with its figure ("10 µg/L, under …")
    asked = attributes.asked_in(question)
    if any(a.addressed_by(answer, question) for a in asked):
        return None  # "rated output" answered in kVA, "noise level" in dB(A)
    spelled = {dimension(u) for u in units_named(question)}
    if any(dimension(q.unit) in spelled for q in quantities(answer)):
        return None  # "How many pounds of refrigerant …?" answered in kg and lb
    return f"the question asks about the {phrase}; the answer does not name it"
