"""Figures of an answer checked against the cited sources: value, unit and entity.

A stated quantity ("450 L/min") is supported when a cited chunk gives the same
quantity, possibly in another unit of the same dimension ("27 m³/h"). It is bound to an
entity on both sides: in the statement and in the source sentence, the identifier
nearest to the figure (one that follows it counts when attached by "of/for the":
"450 L/min of the PX-20"); a source sentence without one falls back to its document's
single identifier (title, metadata), which also vouches for figures bound to names of
another family in it (its controller); a part's document vouches for the products its
text fits the part to ("the CTL-3 is fitted to the XR-40"), and the reverse. A figure
that the sources bind to another entity and none to the claimed one is a
``wrong_entity``; a matching number in a unit that does not convert is a
``unit_mismatch``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragcore.agents.evidence import Evidence
from ragcore.agents.reading import identifiers
from ragcore.text.arithmetic import Figure, derived
from ragcore.text.citations import CITATION
from ragcore.text.identifiers import MODEL_START
from ragcore.text.lexicon import pattern
from ragcore.text.quantities import Quantity, number_spans, quantities
from ragcore.text.sentences import split_sentences
from ragcore.text.terms import model_terms, terms
from ragcore.text.units import agrees
from ragcore.types import IssueKind

# Text between a figure and a following identifier that attaches it: "… of the PX-20",
# "… sump of the smaller KG-250", "4,200 L in the larger SB-12" ("9 h on the CH-80" is
# where, not whose).
# "instead of the BF-60's 2,000 h" introduces the other side's figure, not the owner of
# the one before it.
_ATTACHED = re.compile(
    r"^[\s,]*(?:at\s+[\d.,]+\s*[^\s,]+\s+)?"  # where it is measured: "74 dB(A) at 7 m for …"
    r"(?!(?:instead|ahead|because|regardless|out)\s)(?:[a-z]+\s+){0,2}(?:of|for|in)\s+"
    r"(?:the\s+|an?\s+)?(?:[a-z]+\s+)?$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class FigureProblem:
    kind: IssueKind
    message: str
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True)
class Binding:
    """The entity a figure is about, how sure that is, and what else its sentence names."""

    entity: str | None
    attached: bool = False
    """Attached by "of/for/on the …": sure even when the sentence names others."""
    named: frozenset[str] = frozenset()
    """Everything the sentence names."""
    named_before: frozenset[str] = frozenset()
    """Names before the bound one that no figure of their own closes."""

    def contradicts(self, claimed: str) -> bool:
        """The figure belongs to another entity than ``claimed``. Bound to the nearest
        name before it, it may still be ``claimed``'s when ``claimed`` is named before it
        too ("Compared with the SC-40, the SC-55 is louder (72 against 68 dB(A))")."""
        if self.entity is None or self.entity == claimed:
            return False
        return self.attached or claimed not in self.named_before


@dataclass(frozen=True)
class _SourceFigure:
    quantity: Quantity
    evidence: Evidence
    binding: Binding
    document: str | None
    """The one entity the figure's document is about (title, metadata), if any."""
    parts: frozenset[str] = frozenset()
    """The other entities its title names ("… with AC-3 Controller")."""

    def supports(self, claimed: str) -> bool:
        """Bound to ``claimed``, or in a document about it and bound to none of its
        siblings: the KG-150 manual's "the GC-400 controller shuts the engine down below
        1.4 bar" is the KG-150's figure, its "the KG-400's 42 L" is not. A figure of a
        sentence naming nothing, in a document about a product "with" a part, may be
        the part's; a rule's figure naming no product holds for each it covers."""
        bound = self.binding.entity
        if bound == claimed:
            return True
        if self.evidence.document.doc_type == "regulation" and bound is None:
            return not self.binding.named  # a rule's figure naming no product: any one's
        if (
            self.document is not None
            and claimed in self.parts
            and bound == self.document
            and not self.binding.named
        ):
            return True
        if self.document != claimed or self.binding.attached:
            return False
        return bound is None or family(bound) != family(claimed)

    def shared(self, claimed: str) -> bool:
        """In a manual of several models ("BC-20 and BC-30 …"), in a sentence naming
        none: ``claimed``'s figure, unless the manual binds it to another elsewhere
        (a chunk may have lost the "BC-30:" label above its list)."""
        return (
            self.document is None
            and claimed in self.parts
            and self.binding.entity is None
            and not self.binding.named
        )


def _named_after_citation(statement: str, end: int) -> bool:
    """Whether every name of the statement comes after a citation that follows ``end``:
    "every 3 months [1], which is the interval DCPS-2023 requires [2]"."""
    cut = CITATION.search(statement, end)
    return cut is not None and all(a >= cut.start() for _, a, _ in identifiers(statement))


def family(name: str) -> str:
    """The letters a model name starts with: siblings share them (kg150, kg400)."""
    letters = re.match(r"[a-z]*", name)
    return letters.group(0) if letters and letters.group(0) else name


def binding(text: str, start: int, end: int) -> Binding:
    """What the figure at ``text[start:end]`` is about, within its sentence, or, in a
    Markdown table, the entity its column is headed with."""
    if (column := table_column_entity(text, start)) is not None:
        return Binding(column, attached=True, named=frozenset({column}))
    sentence = next(((a, b) for a, b in split_sentences(text) if a <= start < b), (0, len(text)))
    found = [
        (n, a + sentence[0], b + sentence[0]) for n, a, b in identifiers(text[slice(*sentence)])
    ]
    best: tuple[int, str, int] | None = None  # distance, name, where the name starts
    attached = False
    paired = _paired_on(text, sentence, found)
    for name, a, b in found:
        if b <= start:
            distance = start - b
        elif a >= end and (
            _ATTACHED.match(text[end:a]) or (start, a) in paired or not text[end:a].strip()
        ):
            distance, attached = -1, True  # "450 L/min of the PX-20", "the 22 mm CR-80 rope"
        else:
            continue
        if best is None or distance < best[0]:
            best = (distance, name, a)
    named = frozenset(n for n, _, _ in found)
    if best is None:
        return Binding(None if named else context_entity(text, sentence[0]), False, named)
    # A name before the bound one still open for this figure: no figure of its own
    # comes between them ("Compared with the SC-40, the SC-55 … 68 dB(A)"), unlike
    # "The PX-20 delivers 450 L/min, while the PX-35 delivers 780 L/min".
    figures = [q.start for q in quantities(text[slice(*sentence)])]
    open_before = frozenset(
        n
        for n, _, b in found
        if b <= best[2] and not any(b <= f + sentence[0] < best[2] for f in figures)
    )
    return Binding(best[1], attached and best[0] < 0, named, open_before)


# "… on the EF-35": where a figure applies, or, said of each of several figures in one
# sentence, whose it is ("every 1,000 h on the EF-35 and every 500 h on the EF-50").
_ON = re.compile(r"^\s+on\s+(?:the\s+|an?\s+)?$", re.IGNORECASE)


def _paired_on(
    text: str, sentence: tuple[int, int], found: list[tuple[str, int, int]]
) -> set[tuple[int, int]]:
    """(figure start, name start) of each figure followed by "on the <name>", when at
    least two figures of the sentence are, each with another name."""
    pairs = {
        (q.start + sentence[0], a)
        for q in quantities(text[slice(*sentence)])
        for _, a, _ in found
        if a >= q.end + sentence[0] and _ON.match(text[q.end + sentence[0] : a])
    }
    names = {a for _, a in pairs}
    return pairs if len(pairs) >= 2 and len(names) >= 2 else set()


_NAMED_HEADING = re.compile(rf"^\s*#+\s+(?:the\s+)?{MODEL_START}")
# A line that labels what follows it: "DP-24:", "## DP-24", "**RO-300**".
_LABEL = re.compile(r"^\s*(?:#+\s*)?\**\s*[^\n]{1,60}?\**\s*:?\s*$")
_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s")


def table_column_entity(text: str, position: int) -> str | None:
    """The one entity the header of ``position``'s column names, when ``position`` is in
    a cell of a Markdown table ("| Main terminal bolt torque | 70 N·m | 95 N·m |" under
    "| | KB-16 | KB-25 |")."""
    line_start = text.rfind("\n", 0, position) + 1
    line_end = text.find("\n", position)
    line = text[line_start : len(text) if line_end < 0 else line_end]
    if not line.lstrip().startswith("|"):
        return None
    column = text[line_start:position].count("|") - 1
    header = line
    for above in reversed(text[:line_start].split("\n")[:-1]):
        if not above.lstrip().startswith("|"):
            break
        header = above
    if header is line:
        return None
    cells = header.strip().strip("|").split("|")
    if not 0 <= column < len(cells):
        return None
    names = {n for n, _, _ in identifiers(cells[column])}
    return next(iter(names)) if len(names) == 1 else None


def context_entity(text: str, position: int) -> str | None:
    """The one entity the list or section around ``position`` is labelled with: the
    items under "DP-24:" or "## DP-24" are the DP-24's ("- Maximum back-pressure: 7 bar")."""
    lines = text[:position].split("\n")
    lines[-1] = ""  # the sentence's own line, up to the sentence
    above = list(reversed(lines[:-1]))
    for i, line in enumerate(above):
        if not line.strip():
            # A blank line ends the list, unless a heading that starts with a name stands
            # right above it ("## WX-55 technical data", a blank line, then its list; not
            # "## Changes from SMSC-2016").
            heading = next((x for x in above[i + 1 :] if x.strip()), "")
            names = {n for n, _, _ in identifiers(heading)}
            return next(iter(names)) if len(names) == 1 and _NAMED_HEADING.match(heading) else None
        names = {n for n, _, _ in identifiers(line)}
        if _ITEM.match(line):
            if names:
                return None  # an item about something else
            continue
        return next(iter(names)) if len(names) == 1 and _LABEL.match(line) else None
    return None


def clause_break() -> re.Pattern[str]:
    """Where an independent claim of a statement begins (a ", which" clause still leans
    on the noun before it: "118 kg of R-513A, which is about 260 lb")."""
    return pattern("lexicon", "clause_break")


def _clause_names(text: str, position: int) -> bool:
    """Whether the clause of ``text`` around ``position`` names an entity, itself or by a
    pronoun that refers back to the clause before ("…; its 3 L reservoir …")."""
    start = max((m.end() for m in clause_break().finditer(text, 0, position)), default=0)
    end = next((m.start() for m in clause_break().finditer(text, position)), len(text))
    return bool(identifiers(text[start:end]) or _REFERS_TO_NAMED.match(text, start))


_REFERS_TO_NAMED = re.compile(r"\s*(?:its|their|it|they)\b", re.IGNORECASE)


# "ATS-400 Transfer Switch with AC-3 Controller": what follows "with" is a part of it.
_WITH_PART = re.compile(r"\s(?:with|incl\.?|including)\s", re.IGNORECASE)


def document_entity(e: Evidence) -> str | None:
    """The one entity a document is about: named by its title and metadata, or, when
    they name several, the one its title names before "with" its parts."""
    names = model_terms(terms(" ".join([e.document.title, *e.document.metadata.values()])))
    if len(names) > 1:
        head = model_terms(terms(_WITH_PART.split(e.document.title, maxsplit=1)[0]))
        names = head if len(head) == 1 and head <= names else names
    return next(iter(names)) if len(names) == 1 else None


# Words that fit a part to the product it belongs to, either way round: "the CTL-3
# controller is fitted to the XR-40", "applies to XR-40 and HP-7S", "the PHT-20 with the
# PC-300 controller", "controlled by the NL-2". Sharing a part relates two products,
# which stay apart ("uses the CTL-3, shared with the XR-40").
_FITTED = re.compile(
    r"\b(?:fitted|installed|mounted|used|equipped|supplied|controlled|driven|"
    r"applies|apply)\s+(?:to|on|in|with|by)\b"
    r"|\b(?<!compared )(?<!together )(?<!shared )(?<!along )with\s+the\b",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=4096)  # the same chunks are cited question after question
def fitted(text: str, document: str | None) -> frozenset[str]:
    """Entities of another family than ``document`` that ``text`` fits to it or it to
    them: named after the fitting words, in a sentence naming nothing else before them
    but the document's entity. A part's figure holds for the product it is fitted to,
    and the reverse."""
    if document is None:
        return frozenset()
    out: set[str] = set()
    for a, b in split_sentences(text):
        sentence = text[a:b]
        if not (link := _FITTED.search(sentence)):
            continue
        names = identifiers(sentence)
        if {n for n, _, end in names if end <= link.start()} - {document}:
            continue
        out |= {n for n, start, _ in names if start >= link.end() and family(n) != family(document)}
    return frozenset(out)


def source_figures(cited: Sequence[Evidence]) -> list[_SourceFigure]:
    out = []
    fits: dict[str, frozenset[str]] = {}
    for e in cited:  # what any cited chunk of a document fits to its entity (not a rule's)
        if e.document.doc_type == "regulation":
            continue
        fits[e.document.id] = fits.get(e.document.id, frozenset()) | fitted(
            e.text, document_entity(e)
        )
    for e in cited:
        title = frozenset(model_terms(terms(e.document.title)))
        if e.document.doc_type == "regulation":
            # A rule's designation ("MGPS-1") names the rule, not a product its figures
            # are about: they bind to whatever else the sentence names, or to nothing.
            out += [
                _SourceFigure(q, e, Binding(None) if b.entity in title else b, None)
                for q, b in _chunk_figures(e.text, None)
            ]
            continue
        document = document_entity(e)
        parts = (title | fits[e.document.id]) - {document}
        out += [
            _SourceFigure(q, e, b, document, parts) for q, b in _chunk_figures(e.text, document)
        ]
    return out


# The same chunks are cited question after question: read each one's figures once.
@functools.lru_cache(maxsize=4096)
def _chunk_figures(text: str, document: str | None) -> tuple[tuple[Quantity, Binding], ...]:
    out = []
    for q in quantities(text):
        bound = binding(text, q.start, q.end)
        if bound.entity is None and not bound.named:  # a sentence about the document
            bound = Binding(document)
        out.append((q, bound))
    return tuple(out)


_CONTRAST = re.compile(r"\b(?:than|compared|versus|vs|whereas|while|unlike)\b", re.IGNORECASE)


# A figure after a definite determiner or a possessive names one already given: "the
# manufacturer's 50 kV", "that 3,000 h", "its 12 bar" (not "at 12 bar", "is 12 bar").
_REFERS_BACK = re.compile(r"(?:\b(?:the|that|this|those|these|its|their)|'s|s')\s+$", re.IGNORECASE)


def _with_words_between(written: str, value: float, cited: Sequence[Evidence]) -> bool:
    """Whether a cited source gives ``value`` with the unit word of ``written`` one or two
    words later: "750,000 cycles" is the source's "750,000 switching cycles"."""
    unit = re.sub(r"^[\d.,\s]+", "", written)
    if not unit.isalpha():
        return False
    after = re.compile(rf"^\s+(?:[A-Za-z-]+\s+){{1,2}}{re.escape(unit)}\b", re.IGNORECASE)
    return any(
        v == value and after.match(e.text[end:])
        for e in cited
        for v, _, end in number_spans(e.text)
    )


@dataclass(frozen=True)
class FigureCheck:
    problems: tuple[FigureProblem, ...]
    found: frozenset[float]
    """Values the sources give (converted or not, possibly in another unit)."""
    unmatched: tuple[Quantity, ...]
    """Quantities no source gives in any unit: unsupported unless worked out from
    other figures (a bare "5" in the source does not back "5 s")."""


def check_figures(
    statement: str,
    cited: Sequence[Evidence],
    subject: str | None,
    operands: Sequence[Figure] = (),
    earlier: frozenset[tuple[float, str]] = frozenset(),
) -> FigureCheck:
    """Problems with the statement's quantities, the values found in the sources, and
    the quantities found nowhere. ``subject`` is the entity a figure is about when the
    statement names none near it (the previous statement's, or the question's); a
    figure worked out from ``operands`` (the answer's figures) needs no source, nor
    does one of ``earlier`` (figures earlier cited statements gave) that the statement
    refers back to ("the manufacturer's 50 kV")."""
    problems: list[FigureProblem] = []
    found: set[float] = set()
    unmatched: list[Quantity] = []
    sources = source_figures(cited)
    for q in quantities(statement):
        matches = [f for f in sources if agrees(q.value, q.unit, f.quantity.value, f.quantity.unit)]
        stated = f"{q.value:g} {q.unit}"
        if (
            not matches
            and (q.value, q.unit) in earlier
            and _REFERS_BACK.search(statement[max(0, q.start - 40) : q.start])
        ):
            found.add(q.value)
            continue
        if not matches and derived(Figure(q.value, q.unit, q.start), operands):
            found.add(q.value)
            continue
        if not matches and _with_words_between(statement[q.start : q.end], q.value, cited):
            found.add(q.value)
            continue
        if not matches:
            other = next((f for f in sources if f.quantity.value == q.value), None)
            if other is None:
                unmatched.append(q)
            else:
                found.add(q.value)
                given = f"{other.quantity.value:g} {other.quantity.unit}"
                problems.append(
                    FigureProblem(
                        IssueKind.UNIT_MISMATCH,
                        f"{stated}: the cited source gives {given}",
                        (other.evidence,),
                    )
                )
            continue
        found.add(q.value)
        said = binding(statement, q.start, q.end)
        # In a statement naming several entities ("A is louder than B (72 vs 69 dB(A))")
        # only an attached figure is bound; one naming none is about the subject. A
        # figure in a clause of its own that names none is bound to no name of another
        # clause ("… under PSI-2022, and the oil is changed every 8,000 h").
        if said.named and not said.attached and not _clause_names(statement, q.start):
            entity = None
        elif said.attached or len(said.named) == 1:
            # The one name a statement gives is its figure's, before or after it ("800 kg
            # … is required on the TR-85"), unless it names the other side of a contrast.
            # A name after the citation that closes the figure's claim is another claim's.
            alone = (
                not said.attached
                and not _CONTRAST.search(statement)
                and not _named_after_citation(statement, q.end)
            )
            entity = said.entity or (next(iter(said.named)) if alone else None)
        else:
            entity = subject if not said.named else None
        # Wrong when some source binds the figure to another entity and none to this one.
        others = [f for f in matches if entity and f.binding.contradicts(entity)]
        owned = {f.evidence.document.id for f in others}
        if (
            entity
            and others
            and not any(f.supports(entity) for f in matches)
            and not any(f.shared(entity) and f.evidence.document.id not in owned for f in matches)
        ):
            owner = others[0].binding.entity or "?"
            problems.append(
                FigureProblem(
                    IssueKind.WRONG_ENTITY,
                    f"{stated} is the source's figure for {owner.upper()}, not {entity.upper()}",
                    tuple({f.evidence.number: f.evidence for f in matches}.values()),
                )
            )
    # A bare number reads without its sign: "-112 °F" is found as 112 too.
    return FigureCheck(
        tuple(problems), frozenset(found | {abs(v) for v in found}), tuple(unmatched)
    )
