"""What the generator answers from and what it returns: evidence, statements, drafts.

The evidence list is numbered from 1; an answer cites evidence ``n`` as ``[n]``. A draft
is the generator's answer cut into statements (sentences), each with the evidence
numbers it cites, so validation can check every one of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragcore.documents import DocumentInfo
from ragcore.retrieval.search import Hit
from ragcore.text.citations import citations_in
from ragcore.text.sentences import ends_with_abbreviation

# A sentence ends at . ! ? and the citations right after it, before whitespace and a
# capital, digit or quote; blank lines and list items start new statements too.
_SENTENCE_END = re.compile(r"[.!?](?:\s*\[\d+(?:\s*[,;]\s*\d+)*\])*(?=\s+[\"'(A-Z0-9])")
_BLOCK_END = re.compile(r"\n\s*\n|\n(?=\s*[-*]\s)")


NO_ANSWER = "The documents do not contain an answer to this question."
"""What every generator says when the evidence does not answer the question."""
TABLES_KNOWLEDGE_BASE = "tables"
"""The knowledge base of table evidence's pseudo documents (``table:<name>``)."""


@dataclass(frozen=True)
class Evidence:
    """One retrieved chunk the answer may cite as ``[number]``.

    ``score`` is the fused retrieval score (task weights applied, 0–1 scale within a
    round); ``credibility`` (0–1) comes from the document's recency, authority and the
    chunk's numeric density; ``tasks`` names the retrieval tasks that found it.
    """

    number: int
    hit: Hit
    score: float
    credibility: float
    tasks: tuple[str, ...] = ()
    rows: tuple[int, ...] = ()
    """For table evidence (document ``table:<name>``): the table rows it was computed
    from, so a citation names the rows used."""
    query: str = ""
    """For table evidence: the SQL that produced it (its parameters are in the trace)."""

    @property
    def text(self) -> str:
        return self.hit.text

    @property
    def chunk_id(self) -> int:
        return self.hit.chunk_id

    @property
    def document(self) -> DocumentInfo:
        return self.hit.document

    @property
    def section(self) -> str:
        """The chunk's section path ("5 Maintenance > 5.3 Mechanical seal"); "" if unknown."""
        return self.hit.section

    @property
    def pages(self) -> tuple[int, int] | None:
        """The first and last page of the chunk (1-based); None if unknown."""
        return self.hit.pages


def is_table_evidence(e: Evidence) -> bool:
    """Evidence computed from a declared table rather than retrieved from a document."""
    return e.document.knowledge_base == TABLES_KNOWLEDGE_BASE and e.document.id.startswith("table:")


@dataclass(frozen=True)
class Statement:
    """One sentence of an answer and the evidence numbers it cites (``[1][3]`` → (1, 3))."""

    text: str
    citations: tuple[int, ...] = ()


@dataclass(frozen=True)
class Draft:
    """A generator's answer: the text, its statements, and who wrote it.

    ``abstained`` is true when the generator found no relevant evidence and said so
    instead of answering.
    """

    text: str
    statements: tuple[Statement, ...]
    generator: str
    abstained: bool = False
    reason: str = ""
    """Why the generator abstained, when it knows more than "no relevant evidence"."""
    shown: tuple[int, ...] | None = None
    """The evidence numbers the generator was given (an LLM's context may hold fewer
    passages than were retrieved); None: all of them. A citation of another points at
    nothing the writer read."""

    @property
    def citations(self) -> tuple[int, ...]:
        """Every evidence number cited, in first-cited order."""
        return tuple(dict.fromkeys(n for s in self.statements for n in s.citations))


def split_statements(text: str) -> tuple[Statement, ...]:
    """Cut an answer into sentence statements with the citations each carries.

    Citations right after a sentence's full stop (``... 52 N·m. [2]``) belong to it, and
    close it even after an abbreviation ("… every 10 min. [1] Skipping …").
    """
    statements = []
    for block in _BLOCK_END.split(text.strip()):
        start = 0
        cuts = [
            m.end()
            for m in _SENTENCE_END.finditer(block)
            # "Rev. 2", "i.e. 1.6 MPa" go on; a citation after the stop ends the sentence.
            if "[" in m.group(0) or not ends_with_abbreviation(block[: m.start() + 1])
        ] + [len(block)]
        for end in cuts:
            piece = block[start:end].strip().lstrip("-* ").strip()
            start = end
            if piece:
                statements.append(Statement(piece, citations_in(piece)))
    return tuple(statements)
