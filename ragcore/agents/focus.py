"""What a question asks for, read from its form, when the attribute table does not
list it: "What is the lift height of the OH-10?" asks for the lift height; "How many
tools does the VMC-600 hold?" for tools; "How often must the gearbox oil be changed?"
about the gearbox oil. An answer that names none of the focus words, gives no figure
first and addresses no attribute named by them answers something else ("The OH-10 has a
span of 18 m").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragcore.agents.attributes import Attribute, AttributeTable
from ragcore.text.citations import CITATION
from ragcore.text.families import families, in_family
from ragcore.text.identifiers import ENTITY_PATTERNS
from ragcore.text.quantities import (
    YEAR,
    mask_identifiers,
    number_spans,
    quantities,
    units_named,
    word_number_spans,
)
from ragcore.text.terms import STOPWORDS, model_terms, terms
from ragcore.text.units import dimension

# The forms that ask about something done to the focus: an answer naming neither the
# focus nor what is done to it is about something else.
# "How often must the RB-12 gearbox oil be changed?"
_HOW_OFTEN_DONE = re.compile(
    r"^\s*how\s+(?:often|frequently)\s+(?:must|should|does|do|is|are|has|have|did|can)\s+"
    r"(?P<focus>[^?]+?)\s+(?:be|been|get|gets|need|needs)\b",
    re.IGNORECASE,
)
# "How long must examination reports be kept?", "How long is bleed-off locked out …?",
# "Under the current regulation, how long must records be kept?"
_HOW_LONG_DONE = re.compile(
    r"^(?:[^?,]*,\s*)?how\s+(?:long|quickly|soon)\s+"
    r"(?:must|should|does|do|is|are|has|have|did|can|will)\s+(?P<focus>[^?]+?)\s+"
    r"(?:be\s+|been\s+)?(?=\w+(?:ed|en)\b|(?:kept|held|run|left|sent|stored)\b)",
    re.IGNORECASE,
)
_DONE_FORMS = (_HOW_OFTEN_DONE, _HOW_LONG_DONE)

# The forms whose focus is a noun phrase, and where the phrase is.
_FORMS = (
    # "What does the hygiene standard say about residual water in kegs?"
    re.compile(
        r"^\s*what\s+(?:does|do|did)\s+[^?]+?\s+say\s+(?:about|on)\s+(?:the\s+)?"
        r"(?P<focus>[^?]+?)(?:\s+(?:in|of|for|on|at|from)\s[^?]*)?\?",
        re.IGNORECASE,
    ),
    # "What is the lift height of the OH-10?", "What was the lead limit for …"
    re.compile(
        r"^\s*what\s+(?:is|are|was|were)\s+(?:the\s+)?(?P<focus>.+?)\s+"
        r"(?:of|for|on|in|at|under|from)\s",
        re.IGNORECASE,
    ),
    # "What payload can the RB-12 carry?", "What hardness does the WS-50 produce?"
    re.compile(
        r"^\s*what\s+(?!(?:is|are|was|were)\b)(?P<focus>[^?]+?)\s+"
        r"(?:does|do|did|can|could|must|should|will)\s",
        re.IGNORECASE,
    ),
    # "How many tools does the VMC-600 hold?"
    re.compile(
        r"^\s*how\s+many\s+(?P<focus>[^?]+?)\s+(?:does|do|did|can|could|are|is|were|will)\s",
        re.IGNORECASE,
    ),
    *_DONE_FORMS,
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


# At most three words before a terse answer's figure: "at least every", "within".
_TERSE = re.compile(r"^(?:[A-Za-z]+\s+){0,3}$")
_QUALIFIER = re.compile(
    r"\b(?:under|in|at|on|for|by|per|during|since|after|before|from|of|to|with|within|"
    r"according)\b|[?,]",
    re.IGNORECASE,
)
_PRONOUN = re.compile(r"(?:it|they|these|this|those)\b", re.IGNORECASE)


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
    said = families(terms(answer))  # "continuously" names the "continuous" current
    # The phrase's head, or half its words: "the limit" names the "respirable silica
    # limit"; "brake holding torque" names the brake of the "brake air gap", not its gap.
    head = next((t for t in reversed(terms(phrase)) if t in wanted), None)
    named = sum(in_family(t, said) for t in wanted)
    if not wanted or 2 * named >= len(wanted) or (head and in_family(head, said)):
        return None
    if _terse(answer):
        return None
    if _PRONOUN.match(answer.lstrip()):
        return None  # "It must be changed every …": about what the question names
    # "How often must the X be changed?" asks about X: an interval of something else is
    # no answer, unless the answer names what is done to it ("… need a hydrostatic test").
    how_often = next((m for form in _DONE_FORMS if (m := form.match(question))), None)
    if how_often and any(in_family(t, said) for t in _done(question, how_often)):
        return None
    asked = () if how_often else attributes.asked_in(question)
    if any(a.addressed_by(answer, question) for a in asked):
        return None  # "rated output" answered in kVA, "noise level" in dB(A)
    if in_spelled_unit(question, answer):
        return None  # "How many pounds of refrigerant …?" answered in kg and lb
    phrase = re.sub(r"^(?:the|an?)\s+", "", phrase, flags=re.IGNORECASE)
    return f"the question asks about the {phrase}; the answer does not name it"


def _terse(answer: str) -> bool:
    """A terse answer starts with its figure ("10 µg/L, under …", "At least every 3
    months.", "5 mg/m³ as an 8-hour average"): about what the question asks."""
    lead = len(answer) - len(answer.lstrip())
    starts = [q.start for q in quantities(answer)] + [
        s
        for _, s, e in number_spans(answer) + word_number_spans(answer)
        if not YEAR.match(answer[s:e])  # "The 2021 regulation requires …"
    ]
    return any(_TERSE.match(answer[lead:start]) for start in starts)


def in_spelled_unit(question: str, answer: str) -> bool:
    """Whether ``answer`` gives a figure in a dimension ``question`` spells a unit of
    ("… in m³/h?", "How many pounds …?"): that answers it, whatever its words."""
    spelled = {dimension(u) for u in units_named(question)}
    return any(dimension(q.unit) in spelled for q in quantities(answer))


# "How often …?" is answered by a frequency: "every 500 h", "monthly", "twice a year",
# "6,000 h or 12 months, whichever comes first" — not by "72 h of back-up".
_HOW_OFTEN = re.compile(r"^\s*how\s+(?:often|frequently)\b", re.IGNORECASE)
_FREQUENCY = re.compile(
    r"\b(?:every|each|per|once|twice|thrice|times\s+a|a\s+(?:day|week|month|year|shift)|"
    r"intervals?|annual(?:ly)?|daily|weekly|monthly|quarterly|yearly|hourly|fortnightly|"
    r"whichever|biennial(?:ly)?|continuous(?:ly)?)\b",
    re.IGNORECASE,
)


def no_frequency(question: str, answer: str) -> str | None:
    """Why ``answer`` does not say how often, when ``question`` asks it, or how often
    something else is done; else None."""
    if not _HOW_OFTEN.match(question):
        return None
    if not _FREQUENCY.search(answer):
        return "the question asks how often; the answer gives no interval or frequency"
    # "How often must the cylinders be hydrostatically tested?" is not answered by how
    # often they are checked: a qualified action must be named by one of its words.
    if (
        (how := _HOW_OFTEN_DONE.match(question))
        and len(done := _done(question, how)) >= 2
        and not _terse(answer)
    ):
        said = families(terms(answer))
        if not any(in_family(t, said) for t in done):
            verb = _QUALIFIER.split(question[how.end() :], maxsplit=1)[0].strip()
            return f"the question asks how often it is {verb}; the answer names no such thing"
    return None


# "How long does the SC-3 take to close?" asks for a time: a speed does not answer it.
_HOW_LONG_TAKES = re.compile(
    r"^\s*how\s+long\s+(?:does|do|did|will|would|should)\b[^?]*\btake", re.IGNORECASE
)


def no_duration(question: str, answer: str) -> str | None:
    """Why ``answer`` gives no time when ``question`` asks how long something takes."""
    if _HOW_LONG_TAKES.match(question) and not any(
        dimension(q.unit) == "duration" for q in quantities(answer)
    ):
        return "the question asks how long it takes; the answer gives no time"
    return None


# "How many knives does the GR-450 have?" asks for a count: a figure with a unit
# ("380 rpm") is a measure of something else, unless the question names the unit
# ("How many hours …?") or asks how many times something is done.
_HOW_MANY = re.compile(r"^\s*how\s+many\s+(?!times\b)", re.IGNORECASE)


def no_count(question: str, answer: str) -> str | None:
    """Why ``answer`` gives no count when ``question`` asks how many, else None: all its
    figures are measures in a unit."""
    if not _HOW_MANY.match(question) or units_named(question) or not quantities(answer):
        return None
    masked = mask_identifiers(answer)
    taken = [(q.start, q.end) for q in quantities(answer)]
    bare = [
        start
        for _, start, end in number_spans(masked) + word_number_spans(masked)
        if not any(a <= start < b for a, b in taken) and not YEAR.match(masked[start:end])
    ]
    return None if bare else "the question asks how many; the answer gives only measures"


def no_measure(question: str, answer: str) -> str | None:
    """Why ``answer`` does not give the measure a how-often, how-long-does-it-take or
    how-many question asks for, else None."""
    return (
        no_frequency(question, answer)
        or no_duration(question, answer)
        or no_count(question, answer)
    )


def _done(question: str, how: re.Match[str]) -> set[str]:
    """What a "how often … be <done>" question says is done: the verb phrase, not the
    rule or place named after it ("… be offered under the 2021 regulation?")."""
    verb = _QUALIFIER.split(question[how.end("focus") :], maxsplit=1)[0]
    return set(terms(verb)) - _GENERIC


# What may follow an attribute's word in a question that still asks for the attribute:
# a word for its measure ("noise level", "flow rate", "pressure setting") or a
# preposition ("pressure at the inlet").
_MEASURES = frozenset(
    terms(
        "level rate value setting rating limit range figure reading drop loss rise "
        "difference threshold output consumption requirement spec specification class "
        "period interval capacity maximum minimum alarm trip setpoint exposure emission"
    )
)
# Verbs that follow a question's noun phrase: "How did the … interval change?", "What
# torque goes on …?", "What warranty comes with …?".
_VERBS = frozenset(
    terms(
        "change changes apply applies go goes come comes need needs differ differs vary "
        "varies compare compares remain remains stay stays today now currently"
    )
)
_PREPOSITIONS = frozenset(
    terms(
        "about above across after against along among around before behind below beneath "
        "between beyond during inside near outside over per since through throughout under "
        "until upon within without"
    )
)
_TOKEN = re.compile(r"[a-z0-9]+(?:[-/][a-z0-9]+)*|[^\sa-z0-9]")


def asked_attributes(question: str, attributes: AttributeTable) -> tuple[Attribute, ...]:
    """The attributes ``question`` asks for, without those whose word only modifies
    another noun there: "flow diversion records", "pressure vessel", "power supply"
    name a thing, not a flow, a pressure or a power."""
    tokens = _TOKEN.findall(question.lower())
    return tuple(a for a in attributes.asked_in(question) if not _only_as_modifier(a, tokens))


def _only_as_modifier(attribute: Attribute, tokens: list[str]) -> bool:
    """Every mention of ``attribute`` by its name is followed by the noun it modifies
    (and none of its several-word phrases is present). Only the name is read so: other
    words of an attribute may be adjectives ("hotter fluid" asks for a temperature)."""
    single = set(terms(attribute.name))
    if any(len(w) > 1 and w <= set(terms(" ".join(tokens))) for w in attribute.words):
        return False
    seen = False
    for i, token in enumerate(tokens):
        # "high-pressure pump": the compound's last word is the one that modifies.
        if not (stems := terms(token)) or stems[-1] not in single:
            continue
        seen = True
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        head = terms(after)
        if (
            not head
            or not after[0].isalpha()
            or head[0] in _MEASURES | _PREPOSITIONS | _VERBS | single
            or model_terms(head)
            or units_named(after)
            or after.endswith("ed")
        ):
            return False  # this mention asks for the attribute
    return seen


def _pairs(text: str) -> list[tuple[str, str, str]]:
    """Adjacent content words of ``text`` ("winding temperature", "temperature alarm"),
    as terms and as written; names, figures, punctuation and stopwords break a pair."""
    for pattern in (*ENTITY_PATTERNS, CITATION):
        text = pattern.sub(" | ", text)
    words = [
        (found[0] if (found := terms(w)) else "", w)
        for w in re.findall(r"[A-Za-z]+|[^\sA-Za-z]", text)
    ]
    return [
        (a, b, f"{x} {y}".lower())
        for (a, x), (b, y) in zip(words, words[1:])
        if a and b and a.isalpha() and b.isalpha()
    ]


# The label of a data line: "- Lift motor: 18 kW", "**Winding temperature alarm:** 105 °C".
_LABEL = re.compile(r"^\s*(?:[-*•]\s*)?(?:\*\*)?([A-Za-z][^:\n]{2,60}?)(?:\*\*)?:", re.MULTILINE)


def _labels(text: str) -> list[str]:
    return _LABEL.findall(text)


def _lines(text: str) -> list[tuple[str, str]]:
    """Each data line of ``text`` as its label and what follows the label on its line."""
    return [(m.group(1), text[m.end() :].split("\n", 1)[0]) for m in _LABEL.finditer(text)]


def _same(a: str, b: str) -> bool:
    return in_family(a, families([b]))


def other_kind(question: str, answer: str, sources: Sequence[str]) -> str | None:
    """Why ``answer`` gives another kind of the thing asked about, or None: "the winding
    temperature alarm" answered with "the top-oil temperature alarm", "the lift motor"
    with "the drive motors". Read only where the cited sources label data lines with
    both kinds ("- Lift motor: 18 kW", "- Drive motors: 2 x 7 kW"): a paraphrase
    ("sound pressure level" for "noise level") or a describing word ("the lower guard")
    is not another kind; nor are generic words ("rated", "maximum")."""
    said = families(terms(answer))
    answered = _pairs(answer)
    named = [pair for source in sources for label in _labels(source) for pair in _pairs(label)]
    asked_terms = set(terms(question))
    stated = {(q.value, q.unit) for q in quantities(answer)}
    for modifier, head, asked in _pairs(question):
        if modifier in _GENERIC or in_family(modifier, said):
            continue
        if not any(_same(m, modifier) and _same(h, head) for m, h, _ in named):
            continue
        # The answer's figure is the value of a line labelled with another kind of the
        # head ("Full clamping pressure: 180 bar" for the residual pressure), unless the
        # asked kind's line gives the same figure ("Hardwood dust: 5 mg/m³", "Softwood
        # dust: 5 mg/m³").
        lines = [(terms(label), label, value) for s in sources for label, value in _lines(s)]
        own = {
            (q.value, q.unit)
            for label_terms, _, value in lines
            if any(_same(t, head) for t in label_terms)
            and any(_same(t, modifier) for t in label_terms)
            for q in quantities(value)
        }
        for label_terms, label, value in lines:
            if (
                any(_same(t, head) for t in label_terms)
                # a label the question spells out is what it asks for
                and not set(label_terms) - STOPWORDS - _GENERIC <= asked_terms
                and not any(_same(t, modifier) for t in label_terms)
                and (stated - own) & {(q.value, q.unit) for q in quantities(value)}
            ):
                return (
                    f"the question asks about the {asked}; the answer gives the "
                    f"{label.strip().lower()}"
                )
        for other, thing, given in answered:
            if (
                _same(thing, head)
                and other not in _GENERIC
                and other not in asked_terms
                and not _same(other, modifier)
                and any(_same(m, modifier) and _same(h, head) for m, h, _ in named)
                and any(_same(m, other) and _same(h, head) for m, h, _ in named)
            ):
                return f"the question asks about the {asked}; the answer gives the {given}"
    return None
