"""A claim bound to the entity of the source sentence that states it.

Figures are bound by ``figures``; a claim without one ("On the UV-80, E04 means the
pre-filter differential pressure is too high") is bound through the cited sentence
that says it best. When that sentence is about another entity (its one name, the label
of its list, or its document) and no sentence about the claimed entity says nearly as
much, the claim took another entity's fact: a FAQ listing what E04 means on each
controller gives the RO-300's meaning, not the UV-80's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from ragcore.agents.evidence import Evidence
from ragcore.agents.reading import identifiers
from ragcore.agents.validation.figures import (
    FigureProblem,
    clause_break,
    context_entity,
    document_entity,
    family,
    fitted,
)
from ragcore.text.identifiers import CODE_TERM
from ragcore.text.lexicon import pattern
from ragcore.text.sentences import split_sentences
from ragcore.text.terms import STOPWORDS, coverage, model_terms, terms
from ragcore.types import IssueKind

_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s")
_PARTS = re.compile(r";\s+")
# A clause about a kind of unit its words name, not a model: "On the air handlers E-34
# is a valve position error; on the CH-900 it signals low water flow".
_UNNAMED_OWNER = re.compile(
    r"^\s*(?:on|for)\s+(?:the\s+|all\s+)?((?:[a-z-]+\s+){0,2}[a-z-]+)\s*,?\s+(?=[A-Z]{1,3}-?\d)",
    re.IGNORECASE,
)
# A parenthesised aside names another entity's figure, not what its line is about:
# "- Drive motor: 11 kW (ES-80: 7.5 kW)".
_ASIDE = re.compile(r"\([^)]*\)")
# Words that link a code to its meaning or name the kind of thing it is shown on ("On
# the DC-6's DL-5 controller, E-301 means …"): not what the claim says.
_LINKS = frozenset(terms("means mean indicates shows signals controller panel display unit"))

MIN_CLAIM_TERMS = 3
MIN_CODE_CLAIM_TERMS = 2
BEST_SUPPORT = 0.6
"""The other entity's sentence must state most of the claim."""
MARGIN = 0.25
"""… and clearly more of it than any sentence about the claimed entity."""


def misbound_claim(
    statement: str,
    cited: Sequence[Evidence],
    claimed: frozenset[str],
    codes: frozenset[str] = frozenset(),
) -> FigureProblem | None:
    """A ``wrong_entity`` problem when the cited sentence stating the claim is about
    other entities than the ``claimed`` ones (a model and its controller: "On the
    DS-12's DSC-4, E14 means …"), else None. ``codes``: identifiers the statement uses
    as codes ("AL-35 means …"); a source line naming one is about whatever else it
    names, or its list's or document's entity."""
    if not claimed:
        return None
    if problem := _misbound(statement, cited, claimed, codes):
        return problem
    # A clause naming what it is about is a claim of its own: "On the CS-60, E21 means
    # the blade strain is low, and the saw is braked" took its first clause from another
    # controller's line.
    pieces = [p for p in clause_break().split(statement) if p.strip()]
    for piece in pieces if len(pieces) > 1 else ():
        named = frozenset(n for n, _, _ in identifiers(piece)) - codes
        if named and (problem := _misbound(piece, cited, named, codes)):
            return problem
    return None


def _misbound(
    statement: str, cited: Sequence[Evidence], claimed: frozenset[str], codes: frozenset[str]
) -> FigureProblem | None:
    names = {n for n, _, _ in identifiers(statement)}  # a part label ("C2") is content
    claim = {
        t
        for t in terms(statement)
        if t not in names and t not in STOPWORDS and t not in _LINKS and not CODE_TERM.match(t)
    }
    asked_codes = {t for t in terms(statement) if CODE_TERM.match(t) or t in codes}
    # A code's meaning is a whole claim in two words ("F03 means the filter is blocked").
    if len(claim) < (MIN_CODE_CLAIM_TERMS if asked_codes else MIN_CLAIM_TERMS):
        return None
    best: tuple[float, frozenset[str], Evidence] | None = None
    own = 0.0
    for e in cited:
        # A rule's designation (AMR-2020) is no entity its sentences are about, even where
        # they name it: "the compressors are isolated at 500 ppm" is about what they name.
        rule = e.document.doc_type == "regulation"
        document = None if rule else document_entity(e)
        ignored = codes | frozenset(model_terms(terms(e.document.title))) if rule else codes
        # A part the title names with its product ("MT-9 Hoist with QX-2 Controller"),
        # or one its cited text fits to it or it to ("fitted to the XR-40"): the
        # document's sentences that name nothing may be about it too.
        part = document is not None and (
            claimed & set(model_terms(terms(e.document.title)))
            or any(
                claimed & set(fitted(c.text, document))
                for c in cited
                if c.document.id == e.document.id
            )
        )
        for about, sentence_terms in _bound_sentences(e.text, document, ignored):
            said_codes = {t for t in sentence_terms if CODE_TERM.match(t)}
            if asked_codes and said_codes and not said_codes & asked_codes:
                continue  # about another code: "… the comb plate switch is reported as E23"
            share = coverage(claim, sentence_terms)
            if _is_about(about, claimed, document) or (part and about == {document}):
                own = max(own, share)
            elif about and (best is None or share > best[0]):
                best = (share, about, e)
    if best is None or best[0] < BEST_SUPPORT or own > best[0] - MARGIN:
        return None
    other = " / ".join(sorted(n.upper() for n in best[1]))
    said = " / ".join(sorted(n.upper() for n in claimed))
    return FigureProblem(
        IssueKind.WRONG_ENTITY,
        f"the cited source says this of {other}, not {said}",
        (best[2],),
    )


def _is_about(about: frozenset[str], claimed: frozenset[str], document: str | None) -> bool:
    """The sentence is about a claimed entity: it names one, or it is in a claimed
    entity's document and names only parts of other families (its controller)."""
    if not about or about & claimed:
        return True
    return document in claimed and all(family(n) != family(document) for n in about)


@functools.lru_cache(maxsize=4096)
def _bound_sentences(
    text: str, document: str | None, codes: frozenset[str] = frozenset()
) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """Each list item or sentence of a chunk with the entities it is about: those it
    names (but ``codes``), else its list's label, else its document's (empty when none
    is known)."""
    out = []
    start = 0
    for line in text.split("\n"):
        item = bool(_ITEM.match(line))
        for a, b in [(0, len(line))] if item else split_sentences(line):
            sentence = frozenset(n for n, _, _ in identifiers(_ASIDE.sub(" ", line[a:b]))) - codes
            if not sentence:
                label = context_entity(text, start + a) or document
                sentence = frozenset({label}) if label else frozenset()
            # "… a filter warning on a TR-110, whereas on a TR-85 it indicates low C2
            # clutch pressure": each side of a contrast is about what it names, or what
            # was named last before it ("… than on the ES-80, where it indicates …").
            # Each part of a sentence cut by ";" starts afresh ("On the air handlers E-34
            # is …; on the CH-900 it signals …").
            for part in [line[a:b]] if item else _PARTS.split(line[a:b]):
                last = sentence
                for clause in [part] if item else pattern("lexicon", "contrast_clause").split(part):
                    named = [
                        n for n, _, _ in identifiers(_ASIDE.sub(" ", clause)) if n not in codes
                    ]
                    if not named and (owner := _UNNAMED_OWNER.match(clause)):
                        named = [owner.group(1).lower()]
                    out.append((frozenset(named) or last, frozenset(terms(clause))))
                    last = frozenset(named[-1:]) or last
        start += len(line) + 1
    return tuple(out)
