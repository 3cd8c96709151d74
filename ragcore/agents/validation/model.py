"""The answer as the checks read it, parsed once: ``parse_answer(draft, evidence,
perception, judges) -> AnswerModel``.

Each statement becomes a ``StatementModel``: its citations (short verdicts, conclusions
and a paragraph's sentences lean on a neighbour's, resolved here), the evidence it cites,
its content terms, the entity it is about (its own one identifier, else the previous
statement's, else the question's), the figures cited statements gave before it, and —
computed on first use and shared by every check — its figure check against the sources
and its support score. What the question asks comes from ``perception.asks``; no check
reads the question text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from ragcore.agents.attributes import AttributeTable
from ragcore.agents.evidence import Draft, Evidence, Statement
from ragcore.agents.perception.asks import Asks
from ragcore.agents.perception.model import Perception
from ragcore.agents.reading import codes, content_terms, identifiers, written_names
from ragcore.agents.validation.figures import FigureCheck, check_figures
from ragcore.agents.validation.semantic import SemanticSupport
from ragcore.documents import DocumentInfo
from ragcore.inference.reranker import Reranker
from ragcore.text.arithmetic import Figure, derived, figures
from ragcore.text.citations import strip_citations
from ragcore.text.families import families, in_family
from ragcore.text.lexicon import pattern
from ragcore.text.quantities import numbers, quantities
from ragcore.text.terms import terms

# An answer's opening verdict, backed by the statements after it: "Yes.", "No, …",
# "Lower.", "The RO-300 pre-filter." (a few words, no figure).
_VERDICT = re.compile(r"^\s*(?:(?:yes|no)\b|(?:\S+\s+){0,4}\S+[.!]?\s*$)", re.IGNORECASE)
# A verdict opening a statement ("Yes, …", "No. …"): it answers the question; the rest
# of the statement is the claim the sources must support.
LEADING_VERDICT = re.compile(r"^\s*(?:yes|no)\b[\s,.;:—–-]*", re.IGNORECASE)


def opens_with_verdict(statements: Sequence[Statement]) -> bool:
    """The answer says its verdict itself: its first statement opens with "Yes"/"No", or
    is a few words without a citation before the cited statements that back it ("It
    is.", "Lower.")."""
    if not statements:
        return False
    first = statements[0]
    if LEADING_VERDICT.match(strip_citations(first.text)):
        return True
    backed = any(s.citations for s in statements[1:])
    return not first.citations and backed and bool(_VERDICT.match(first.text))


# Only citations after the full stop close a paragraph: "A. B [1]." cites B alone
# (fault sets' authors wrote it for a missing citation of A).
_CLOSING = re.compile(r"[.!?]\s*(?:\[\d+\]\s*)+$")


@dataclass(frozen=True)
class Judges:
    """What the checks judge with: thresholds, the optional models, the store's current
    document metadata, and the attribute table."""

    support_threshold: float
    semantic_threshold: float
    attributes: AttributeTable
    scorer: Reranker | None = None
    semantic: SemanticSupport | None = None
    documents: Callable[[Iterable[str]], Mapping[str, DocumentInfo]] | None = None

    def meaning(self, text: str, cited: Sequence[Evidence]) -> float:
        """Semantic support, counted only at or above its own threshold (0 without it)."""
        if self.semantic is None:
            return 0.0
        score = self.semantic.score(LEADING_VERDICT.sub("", strip_citations(text)), cited)
        return score if score >= self.semantic_threshold else 0.0


class StatementModel:
    """One statement of the answer, read once; the costly parts on first use."""

    def __init__(
        self,
        statement: Statement,
        drafted: Statement,
        answer: AnswerModel,
        subject: str | None,
        earlier: frozenset[tuple[float, str]],
    ) -> None:
        self.statement = statement
        """With the citations it leans on (``_leaning``)."""
        self.drafted = drafted
        """As the draft wrote it: relations are checked on what it cites itself."""
        self.text = statement.text
        self.citations = statement.citations
        self.subject = subject
        """The entity a statement naming none is about (``AnswerModel`` docstring)."""
        self.earlier = earlier
        """Figures the cited statements before this one gave."""
        self._answer = answer
        by_number = answer.by_number
        self.invented = tuple(n for n in statement.citations if n not in by_number)
        self.cited = tuple(by_number[n] for n in statement.citations if n in by_number)
        self.content = content_terms(statement.text)
        self.key = len(self.content) >= 2 or bool(numbers(statement.text))
        """It states something to support (two content words or a number)."""

    @property
    def checked(self) -> bool:
        """A key statement that cites retrieved evidence: its claims are checked."""
        return bool(self.citations) and self.key and bool(self.cited)

    @cached_property
    def chunk_ids(self) -> tuple[int, ...]:
        return tuple(e.chunk_id for e in self.cited)

    @cached_property
    def document_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(e.document.id for e in self.cited))

    @cached_property
    def source(self) -> str:
        """The cited chunks under their dated titles, as one text."""
        return " ".join(f"{_dated_title(e)} {e.text}" for e in self.cited)

    @cached_property
    def have(self) -> frozenset[str]:
        """The word families of the cited sources."""
        return families(terms(self.source))

    @cached_property
    def figures(self) -> FigureCheck:
        answer = self._answer
        return check_figures(self.text, self.cited, self.subject, answer.operands, self.earlier)

    @cached_property
    def codes(self) -> frozenset[str]:
        """Identifiers used as codes, in the statement or the question."""
        return codes(self.text) | self._answer.asks.codes

    @cached_property
    def support(self) -> tuple[float, bool]:
        """The support score (0–1) and whether it clears the threshold (or the meaning
        is close enough). A statement that states nothing scores 1; one that cites
        nothing, or only passages that do not exist, 0."""
        if not self.citations:
            return (0.0 if self.key else 1.0), not self.key
        if not self.key:
            return 1.0, True
        if not self.cited:
            return 0.0, False
        judges = self._answer.judges
        # A figure found in the sources is a supported term of the claim: "Three years
        # [1]" or "13 bar, which is 1.3 MPa [1]" are supported though few words match.
        found = self.figures.found
        backed = sum(q.value in found for q in quantities(self.text))
        score = self._score(backed)
        if score >= judges.support_threshold:
            return score, True
        if meaning := judges.meaning(self.text, self.cited):
            return max(score, meaning), True
        return score, False

    def _score(self, backed: int) -> float:
        """Content terms covered by the sources' word families (``backed`` figures count
        as covered terms), averaged with the cross-encoder's score when there is one."""
        wanted = set(self.content)
        # Words the question supplies are context, like its numbers ("before a day's
        # production" echoed from the question): left out when the claim has at least two
        # words of its own (an answer that only restates the question keeps them).
        asked = self._answer.asks.content_terms
        if len({t for t in wanted if t not in asked}) >= 2:
            wanted = {t for t in wanted if t not in asked or in_family(t, self.have)}
        if not wanted and not backed:
            return 1.0
        lexical = (covered(wanted, self.have) + backed) / (len(wanted) + backed)
        scorer = self._answer.judges.scorer
        if scorer is None:
            return lexical
        logits = scorer.score(self.text, [e.text for e in self.cited])
        return (lexical + 1 / (1 + math.exp(-float(max(logits))))) / 2


class AnswerModel:
    """A draft and its evidence, parsed once for every check (module docstring)."""

    def __init__(
        self,
        draft: Draft,
        evidence: Sequence[Evidence],
        perception: Perception,
        judges: Judges,
    ) -> None:
        self.draft = draft
        self.evidence = tuple(evidence)
        self.perception = perception
        self.asks: Asks = perception.asks
        self.judges = judges
        self.by_number = {
            e.number: e for e in evidence if draft.shown is None or e.number in draft.shown
        }
        self.operands = figures(draft.text)  # what a worked-out figure may be computed from
        # What a statement without its own identifier is about: the previous statement's
        # one identifier, else the question's ("it", "its", "the pump"). A code the
        # question names as one ("fault code E-34") is no subject in any statement. The
        # question's one model however typed ("seal interval on the cp-500?") is one.
        typed = {  # each named as the identifiers name it ("cp-350" is "cp350")
            name
            for written, _, _ in perception.written_models
            if written not in perception.numbered_models
            for name, _, _ in written_names(written)
        }
        subject = self.asks.subject or _single(typed - self.asks.codes)
        earlier: frozenset[tuple[float, str]] = frozenset()
        statements = []
        leaning = _leaning(draft.statements, self.operands, draft.text)
        for s, drafted in zip(leaning, draft.statements):
            statements.append(StatementModel(s, drafted, self, subject, earlier))
            if s.citations:
                earlier |= {(q.value, q.unit) for q in quantities(s.text)}
            subject = _single({n for n, _, _ in identifiers(s.text)}) or subject
        self.statements = tuple(statements)

    @cached_property
    def cited(self) -> tuple[Evidence, ...]:
        """The evidence the answer cites, in citation order."""
        return tuple(self.by_number[n] for n in self.draft.citations if n in self.by_number)

    @cached_property
    def cited_documents(self) -> dict[str, DocumentInfo]:
        """The cited documents by id, as the store has them now (a document superseded
        after it was retrieved is caught), else as retrieved."""
        ids = list(dict.fromkeys(e.document.id for e in self.cited))
        lookup = self.judges.documents
        current = dict(lookup(ids)) if lookup else {}
        return {e.document.id: current.get(e.document.id, e.document) for e in self.cited}


def parse_answer(
    draft: Draft, evidence: Sequence[Evidence], perception: Perception, judges: Judges
) -> AnswerModel:
    return AnswerModel(draft, evidence, perception, judges)


def covered(wanted: Iterable[str], have: frozenset[str]) -> int:
    """How many of ``wanted`` have a word of their family in ``have`` (``families``)."""
    return sum(in_family(t, have) for t in set(wanted))


def _single(names: set[str]) -> str | None:
    return next(iter(names)) if len(names) == 1 else None


def _dated_title(e: Evidence) -> str:
    """The title a cited chunk stands under, with its document's date: "Rev. 2 (March
    2024)" is supported by the document's own metadata."""
    when = e.document.updated_at
    return f"{e.document.title} {when.isoformat()}" if when else e.document.title


def _leaning(
    statements: Sequence[Statement], operands: Sequence[Figure], text: str = ""
) -> list[Statement]:
    """``statements`` with three kinds of uncited ones checked against a neighbour's
    citations: a short verdict before the cited backing ("Yes.", "The RO-300
    pre-filter.", "Within 30 days."), a conclusion from cited figures ("… is
    therefore 4 dB(A) above that limit"), and a sentence of a paragraph that cites once
    after its last full stop ("Run the pump first. Warm the oil below −15 °C.[1]").
    Any other uncited sentence stays uncited: a fact needs its own citation."""
    out = list(statements)
    closing = _paragraph_citations(statements, text)
    cited_figures = {(f.value, f.unit) for t in statements if t.citations for f in figures(t.text)}
    for i, s in enumerate(statements):
        if s.citations:
            continue
        stated = figures(s.text)
        after = next((t for t in statements[i + 1 :] if t.citations), None)
        before = next((t for t in reversed(statements[:i]) if t.citations), None)
        # A short verdict may state the figure it answers with ("Within 30 days."): the
        # figure is then checked against the backing statement's sources.
        if i == 0 and after and _VERDICT.match(s.text):
            out[i] = replace(s, citations=after.citations)
        elif (
            before
            and pattern("lexicon", "conclusion").search(s.text)
            and all((f.value, f.unit) in cited_figures or derived(f, operands) for f in stated)
        ):
            out[i] = replace(s, citations=before.citations)
        elif closing.get(i):
            out[i] = replace(s, citations=closing[i])
    return out


def _paragraph_citations(statements: Sequence[Statement], text: str) -> dict[int, tuple[int, ...]]:
    """The citations each uncited statement takes from the end of its paragraph: the
    paragraph's last statement cites after its full stop, and no other statement of the
    paragraph cites."""
    out: dict[int, tuple[int, ...]] = {}
    where, pending = 0, list[int]()
    for i, s in enumerate(statements):
        found = text.find(s.text, where)
        if found < 0:
            return {}
        if pending and "\n" in text[where:found]:
            pending = []  # a new paragraph
        where = found + len(s.text)
        if not s.citations:
            pending.append(i)
            continue
        if pending and _CLOSING.search(s.text):
            out |= dict.fromkeys(pending, s.citations)
        pending = []
    return out
