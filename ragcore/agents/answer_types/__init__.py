"""Whether a text is an answer of the kind a question asks for (``Asks.answer_type``):
a figure for a value question about an attribute measured in units, an amount in a unit
for "how much" (``amount``), the code for a question about a code's meaning, a part
number for a question asking for one, a step beyond the question's words for a how-to
question (``steps``), a list of choices for a question asking which there are
(``options``), a cause for one asking what is wrong (``cause``), a reason for a why
question about a change, in the clause that states it (``reason``), what a thing is for,
the thing named (``purpose``), a place for a where question and something to do for a
what-do-I-do question (``place``), one of the kind asked for and who does the asked
act (``kind``), a value of the shape
its head noun asks for — a port, an address, a line speed, a limit (``shape``); the codes
and signals a question asks the meaning of, named (``unnamed_signal``); the products and
versions it names, named by the sources (``unnamed_products``); its acronyms and keys,
named by the answer or its sources (``unnamed_terms``); the folder of a shown document it
names, named by the cited ones (``unnamed_sources``); the collection its words name
("evcc" of "evcc-docs/…"), named by a source's document or chunk (``names``); the focus
of its form, named (``focus``); a yes/no question's relation, stated (``verdict``); the
value a question sets a key to, named (``set_value``); the asked key, not a neighbouring
one (``sibling_keys``). The extractive generator prefers sentences that are; the
validator reports answers that are not. Kinds without a test here (why questions about
no change) always pass. Beside this module: a statement leaning on a block it leaves out
(``forward``), the asked command-line option named (``pinpoint``), what holds when the
asked thing is absent (``absence``)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

from ragcore.agents.answer_types.amount import no_amount
from ragcore.agents.answer_types.cause import no_cause
from ragcore.agents.answer_types.condition import other_condition
from ragcore.agents.answer_types.kind import no_agent, no_kind
from ragcore.agents.answer_types.names import document_names, unnamed_here
from ragcore.agents.answer_types.options import unlisted_options
from ragcore.agents.answer_types.place import no_action, no_place
from ragcore.agents.answer_types.purpose import no_purpose
from ragcore.agents.answer_types.reason import no_reason
from ragcore.agents.answer_types.steps import no_step
from ragcore.agents.evidence import Evidence
from ragcore.agents.perception.asks import AnswerType, Asks
from ragcore.documents import DocumentInfo
from ragcore.text.families import families, in_family
from ragcore.text.identifiers import CODE_TERM, find_entities
from ragcore.text.lexicon import pattern, words
from ragcore.text.products import names_in
from ragcore.text.quantities import (
    YEAR,
    mask_identifiers,
    mask_quantities,
    number_spans,
    quantities,
    word_number_spans,
)
from ragcore.text.terms import terms
from ragcore.text.unit_table import unit_table

# A part or order number written without "P/N": "88-2041-09", "SK.400-12", "4471203".
_PART = re.compile(r"\b(?=[A-Z0-9./-]*\d)[A-Z0-9]+(?:[-/.][A-Z0-9]+)+\b|\b\d{5,}\b")
# A decimal ("7.5 m³/min", "11.0") is a figure, not a part number.
_DECIMAL = re.compile(r"\d+\.\d+")
# An oil's viscosity grade ("5W-40", "15W40") is what it is, not a part number.
_GRADE = re.compile(r"\d{1,2}W-?\d{2}", re.IGNORECASE)


def unnamed_signal(asks: Asks, text: str, sources: str = "", quoted: bool = False) -> str | None:
    """Why ``text`` does not answer about the codes and signals a meaning or
    what-happens question asks about (``Asks.signals``), or None: each must be named by
    ``text`` or, unless ``text`` is ``quoted`` from them, by its ``sources``. A passage
    quoted from a chunk is no answer about a code it does not name, whatever the rest
    of the chunk says."""
    said = text if quoted else f"{text} {sources}"
    if missing := [s for s in asks.signals if not _names_signal(s, said)]:
        return f"the question asks about {', '.join(missing)}; the answer does not name it"
    return None


def unmet(
    asks: Asks,
    identifiers: Iterable[str],
    text: str,
    sources: str = "",
    owners: Iterable[str] = (),
) -> str | None:
    """Why ``text`` (drawn from ``sources``) is not of the kind the question asks for,
    or None; ``identifiers``: the question's models and codes as written (for a code's
    meaning, the codes the question uses as codes, when it marks some: "trip code OC1
    on the VF-S11" asks about OC1, whatever the VF-S11's manual says); ``owners``: the
    models the sources' documents are about (their titles), no part number of them."""
    named = tuple(identifiers)
    if reason := other_condition(asks, text):
        return reason
    if asks.answer_type == AnswerType.FIGURE and asks.measure is None:
        if not gives_a_figure(asks, text):
            names = " or ".join(a.name for a in asks.attributes)
            what = f"a figure of the {names}" if names else "a figure"
            return f"the question asks for {what}; the answer gives none"
        return no_amount(asks, text, _compact_figure())
    elif asks.answer_type == AnswerType.MEANING:
        asked = set(asks.codes) or _code_terms(" ".join(named))
        if asked and not asked & (_code_terms(text) | _code_terms(sources)):
            listed = ", ".join(sorted(asked)).upper()
            return (
                f"the question asks what {listed} means; neither the answer nor its sources name it"
            )
    elif asks.answer_type == AnswerType.PROCEDURE:
        return no_step(asks, text)
    elif asks.answer_type == AnswerType.OPTIONS:
        return unlisted_options(asks, text)
    elif asks.answer_type == AnswerType.CAUSE:
        return no_cause(asks, text)
    elif asks.answer_type == AnswerType.REASON:
        return no_reason(asks, text)
    elif asks.answer_type == AnswerType.PURPOSE:
        return no_purpose(asks, text)
    elif asks.answer_type == AnswerType.PLACE:
        return no_place(asks, text)
    elif asks.answer_type == AnswerType.ACTION:
        return no_action(asks, text)
    elif asks.answer_type == AnswerType.KIND:
        return no_kind(asks, text)
    elif asks.answer_type == AnswerType.AGENT:
        return no_agent(asks, text)
    elif asks.answer_type == AnswerType.PART_NUMBER:
        # the question's models and the documents' are what a part is of, not its number
        asked_terms = set(terms(" ".join((*named, *owners))))
        # a figure ("every 10000 hours") is no part number, however many digits it has
        figureless = mask_quantities(text)
        parts = [
            p
            for p in _PART.findall(figureless)
            if not (_DECIMAL.fullmatch(p) or _GRADE.fullmatch(p))
        ]
        given = set(terms(" ".join((*find_entities(figureless), *parts)))) - asked_terms
        # an error code ("E5120 means …") is what a controller reports, not a part's number
        given = {t for t in given if not CODE_TERM.match(t)}
        if not given:
            return "the question asks for a part number; the answer gives none"
    return None


def gives_a_figure(asks: Asks, text: str) -> bool:
    """A number (its unit is the attribute check's to judge: a unit ragcore does not know,
    "108 hL", is still a figure), or words that answer an asked attribute without one
    ("monthly")."""
    if quantities(text) or _compact_figure().search(text):
        return True
    masked = mask_identifiers(text)
    if any(not YEAR.match(masked[a:b]) for _, a, b in number_spans(masked)):
        return True
    if word_number_spans(masked):
        return True
    said = set(terms(text))
    return any(
        any(w <= said for w in a.answered_by) or any(p.search(text) for p in a.answered_by_patterns)
        for a in asks.attributes
    )


def unbound_cells(text: str) -> bool:
    """``text`` is table cells without their column names ("Homing Type; HOME_SEARCH_VEL;
    …; Immediate; 0; 0; NO", ``lexicon.unlabelled_cells``) or a program's status printout
    ("APC : 001,037,0906 DATE : … LINEV : 123.0 Volts …", ``lexicon.printout``): it
    states no value of what a question asks."""
    return bool(
        pattern("lexicon", "unlabelled_cells").search(text)
        or pattern("lexicon", "printout").search(text)
    )


def _code_terms(text: str) -> set[str]:
    return {t for t in terms(text) if any(c.isdigit() for c in t)}


def _names_signal(signal: str, text: str) -> bool:
    flags = re.IGNORECASE if signal.islower() else 0  # a colour, however written
    return re.search(rf"(?<![\w.-]){re.escape(signal)}(?![\w-]|\.\d)", text, flags) is not None


def other_code(asks: Asks, text: str) -> str | None:
    """Why ``text`` does not give a code of the family asked for ("Which M code …?"
    answered with a HAL pin's name), or None."""
    family = asks.code_family
    if family and not re.search(rf"\b{family}\d+(?:\.\d+)?\b", text):
        return f"the question asks for a {family} code; the answer gives none"
    return None


def unstated_default(asks: Asks, text: str, sources: str = "", quoted: bool = False) -> str | None:
    """Why ``text`` does not answer a question asking for the default value, or None: it
    must state its value as the default ("by default", "factory setting", "ships with");
    a sentence on how to change the setting gives no default. As for signals
    (``unnamed_signal``), an answer in its own words may leave that to its ``sources``."""
    said = text if quoted else f"{text} {sources}"
    if asks.default and not _default_words().search(said):
        return "the question asks for the default; the answer does not say what is set by default"
    return None


def only_the_default(asks: Asks, text: str) -> str | None:
    """Why ``text`` does not say what value to set, for a question asking it
    (``Asks.to_set``: "what value goes in PD164?"), or None: it gives figures, and every
    one as the default ("… register PD164 (defaults to 38400)", ``lexicon.default_figure``;
    "Set PD164 to 2 (the default is 38400)" gives 2 beside it). A default is what a
    setting holds unless changed, not what the asker should put in."""
    if not asks.to_set:
        return None
    masked = mask_identifiers(text)
    if not number_spans(masked):
        return None
    if number_spans(pattern("lexicon", "default_figure").sub(" ", masked)):
        return None
    return "the question asks what value to set; the answer gives only the default"


@functools.cache
def _default_words() -> re.Pattern[str]:
    said = "|".join(map(re.escape, words("lexicon", "default_words")))
    return re.compile(rf"\b(?:{said})\b", re.IGNORECASE)


def unnamed_products(asks: Asks, sources: Sequence[Evidence]) -> tuple[str, ...]:
    """The question's products and versions (``Asks.products``) that none of ``sources``
    names — in its text, section path, document title or document id: "the ODrive Pro"
    is not answered from a UPS manual, nor "r1.2" from the r1.1 notes."""
    if not asks.products:
        return ()
    said = " ".join(f"{e.document.id} {e.document.title} {e.section} {e.text}" for e in sources)
    return tuple(p for p in asks.products if not names_in(p, said))


def unnamed_terms(asks: Asks, text: str, sources: Sequence[Evidence]) -> tuple[str, ...]:
    """The acronyms and keys the question names (``Asks.named_terms``: "PTC", "USB",
    "HOME_SEARCH_VEL") that neither ``text`` nor any of its ``sources`` names — in its
    text, section path, document title, id or metadata: a PTC thermistor is not answered
    from a passage on NTC thermistors, nor the USB address by the radio's."""
    if not asks.named_terms:
        return ()
    said = " ".join((text, *(f"{_described(e)} {e.section} {e.text}" for e in sources)))
    return tuple(t for t in asks.named_terms if not _names_term(t, said))


def _described(evidence: Evidence) -> str:
    """A document's id, title, source and metadata values (an FAA directive's source
    names the FAA, though its text may not)."""
    document = evidence.document
    values = map(str, document.metadata.values())
    return " ".join((document.id, document.title, document.source, *values))


def unnamed_sources(
    asks: Asks, text: str, shown: Sequence[Evidence], cited: Sequence[Evidence]
) -> tuple[str, ...]:
    """The question's words that name the collection of a document shown to the generator
    ("evcc" of ``evcc-docs/…``, ``names.document_names``) that neither ``text`` nor any
    ``cited`` source names: the answer was taken from a sibling collection (another
    project's manual) while the one the question names was at hand."""
    if not cited:
        return ()
    missing = document_names(asks.content_terms, shown) - set(terms(text))
    for e in cited:
        missing &= set(unnamed_here(missing, e))
    return tuple(sorted(missing))


def sibling_keys(asks: Asks, text: str) -> tuple[str, ...]:
    """The keys ``text`` names ("HOME_LATCH_VEL", "servo.max_current_A") when the question
    names a key ("HOME_SEARCH_VEL") that ``text`` does not: a neighbouring key's sentence,
    whose figure is that key's. A key is a named term joined by an underscore or a dot;
    a word of capitals may be a key ("TIMELEFT") or a heading ("OPTIONS"), and acronyms
    ("USB", "UPS") name kinds of things: those are ``unnamed_terms``' to judge."""
    asked = [t for t in asks.named_terms if _is_key(t)]
    if not asked or any(_names_term(t, text) for t in asked):
        return ()
    if asks.answer_type == AnswerType.MEANING and asks.signals and enters(asks.signals, text):
        # An entry of the asked signal is about the signal, whatever keys it names
        # ("fault 39 in servo_stats": "- "39 (outside bounds)": servopos.position_min …").
        return ()
    return tuple(k for k in named_keys(text) if k not in asks.named_terms)


def named_keys(text: str) -> tuple[str, ...]:
    """The keys ``text`` names: named terms joined by an underscore or a dot
    ("HOME_LATCH_VEL", "servo.max_current_A"; ``lexicon.named_term``)."""
    found = (m.group(0) for m in pattern("lexicon", "named_term").finditer(text))
    return tuple(dict.fromkeys(k for k in found if _is_key(k)))


def _is_key(term: str) -> bool:
    return "_" in term or "." in term


def _names_term(term: str, text: str) -> bool:
    """``text`` names ``term``, its plural, or a code of its letters ("PD164" names the
    PD register)."""
    return (
        names_in(term, text)
        or names_in(f"{term}s", text)
        or re.search(rf"(?<![A-Za-z0-9]){re.escape(term)}\d", text, re.IGNORECASE) is not None
        or _spelled_out(term, text)
    )


def _spelled_out(term: str, text: str) -> bool:
    """``text`` writes the acronym ``term`` out: as many words in a row whose initials
    spell it ("permissible exposure limit" for PEL, "lower explosive limit" for LEL)."""
    if not (2 < len(term) <= _ACRONYM_LETTERS and term.isalpha() and term.isupper()):
        return False
    words = re.findall(r"[A-Za-z][\w-]*", text)
    initials = "".join(w[0].upper() for w in words)
    return term in initials and any(
        initials[i : i + len(term)] == term and all(len(w) > 2 for w in words[i : i + len(term)])
        for i in range(len(words) - len(term) + 1)
    )


_ACRONYM_LETTERS = 6


@functools.cache
def _compact_figure() -> re.Pattern[str]:
    """A figure written against its unit's symbol ("51V", "100mA", "12.5kW"), which
    ``quantities`` leaves alone for one-letter units (not "s", "h", "m": "1990s" is a
    decade, "5h" may be a register): for telling
    whether a text gives a figure at all, not what it is."""
    symbols = sorted(
        {
            n
            for n in unit_table().canonical.values()
            if n.isascii() and n.isalpha() and not (len(n) == 1 and n.islower())
        },
        key=len,
        reverse=True,
    )
    return re.compile(rf"(?<![\w.])\d+(?:\.\d+)?(?:{'|'.join(map(re.escape, symbols))})(?![\w])")


def unnamed_part(asked: tuple[str, frozenset[str]], text: str) -> str | None:
    """Why ``text`` does not give the part number of the part asked about
    (``Perception.part_asked``: as written, as terms), or None: it names none of its
    words — the seal's number is no answer for the flush filter's ("seal" for the "seal
    kit" is)."""
    phrase, part = asked
    said = families(terms(text))
    if not part or any(in_family(t, said) for t in part):
        return None
    return f"the question asks for the part number of the {phrase}; the answer never names it"


def of_kind(document: DocumentInfo, kind: str) -> bool:
    """``document`` is of the kind of document a question names as its source
    (``Asks.documents``: "manual", "directive"): its type, id, title or source names it."""
    named = set(terms(f"{document.doc_type} {document.id} {document.title} {document.source}"))
    return set(terms(kind)) <= named


def enters(signals: Sequence[str], text: str) -> bool:
    """``text`` is an entry of each of ``signals``: it opens with it (after a bullet or a
    quote) or names it as a label ("39 (outside bounds)", "50 = On battery", "T:"), not
    in passing ("a 39 mm bolt")."""
    return bool(signals) and all(_entry(signal).search(text) for signal in signals)


@functools.lru_cache(maxsize=256)
def _entry(signal: str) -> re.Pattern[str]:
    said = re.escape(signal)
    return re.compile(
        rf"^[\s\-*•\"'`]*{said}(?![\w.-])|(?<![\w.-]){said}[\"'`]?\s*(?:[:=(]|-\s)",
        0 if any(c.isupper() for c in signal) else re.IGNORECASE,
    )
