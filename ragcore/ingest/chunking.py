"""Sentence-aware chunking within the embedder's token budget, keeping offsets.

Sentences are packed greedily into chunks of at most ``max_tokens`` model tokens; the
next chunk starts with as many trailing sentences of the previous one as fit in
``overlap_tokens``. A sentence longer than the budget is cut at token boundaries.
Every chunk is a contiguous span ``text[start:end]`` of the original document. Given the
document's section and page spans, a chunk carries the section its first character is in
and the first and last page its text comes from.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from ragcore.documents import Chunk, PageSpan, Section
from ragcore.errors import ConfigError
from ragcore.text.identifiers import find_entities
from ragcore.text.sentences import split_sentences

_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_WORD = re.compile(r"\w+")


def numeric_density(text: str) -> float:
    """Share of word tokens that are numbers (0 for a text without words)."""
    words = _WORD.findall(text)
    return sum(1 for w in words if _NUMBER.fullmatch(w)) / len(words) if words else 0.0


def chunk_text(
    text: str,
    token_spans: list[tuple[int, int]],
    *,
    max_tokens: int,
    overlap_tokens: int = 0,
    sections: Sequence[Section] = (),
    pages: Sequence[PageSpan] = (),
) -> list[Chunk]:
    """Split ``text`` into chunks; ``token_spans`` are its model tokens' character spans,
    ``sections`` and ``pages`` the document's structure (in order, as on ``Document``)."""
    if max_tokens < 8:
        raise ConfigError("chunk_tokens", max_tokens, "use a token budget of at least 8")
    if not 0 <= overlap_tokens < max_tokens:
        raise ConfigError(
            "chunk_overlap",
            overlap_tokens,
            f"use an overlap from 0 to less than the chunk budget ({max_tokens})",
        )
    starts = [s for s, _ in token_spans]

    def tokens_in(start: int, end: int) -> int:
        return bisect.bisect_left(starts, end) - bisect.bisect_left(starts, start)

    pieces: list[tuple[int, int, int]] = []  # (start, end, tokens) of sentences, cut to fit
    for start, end in split_sentences(text):
        count = tokens_in(start, end)
        if count <= max_tokens:
            pieces.append((start, end, count))
            continue
        first = bisect.bisect_left(starts, start)
        for offset in range(0, count, max_tokens):
            lo = token_spans[first + offset][0]
            last = min(first + offset + max_tokens, first + count) - 1
            pieces.append((lo, token_spans[last][1], last - first - offset + 1))

    where = _Structure(sections, pages)
    chunks: list[Chunk] = []
    current: list[tuple[int, int, int]] = []
    used = 0
    for piece in pieces:
        if current and used + piece[2] > max_tokens:
            chunks.append(_make_chunk(text, len(chunks), current, where))
            current = _overlap(current, overlap_tokens, max_tokens - piece[2])
            used = sum(p[2] for p in current)
        current.append(piece)
        used += piece[2]
    if current:
        chunks.append(_make_chunk(text, len(chunks), current, where))
    return chunks


def _overlap(pieces, overlap_tokens: int, room: int) -> list[tuple[int, int, int]]:
    """The trailing pieces to repeat at the start of the next chunk."""
    kept: list[tuple[int, int, int]] = []
    total = 0
    for piece in reversed(pieces[1:]):  # never repeat a whole chunk
        if total + piece[2] > min(overlap_tokens, room):
            break
        kept.insert(0, piece)
        total += piece[2]
    return kept


class _Structure:
    """Which section and pages a span of the text lies in (binary search over the spans)."""

    def __init__(self, sections: Sequence[Section], pages: Sequence[PageSpan]) -> None:
        self._sections = list(sections)
        self._section_starts = [s.start for s in self._sections]
        self._pages = list(pages)
        self._page_starts = [p.start for p in self._pages]

    def section(self, start: int) -> str:
        at = bisect.bisect_right(self._section_starts, start) - 1
        if at < 0 or start >= self._sections[at].end:
            return ""
        return self._sections[at].title

    def pages(self, start: int, end: int) -> tuple[int, int] | None:
        if not self._pages:
            return None
        first = max(bisect.bisect_right(self._page_starts, start) - 1, 0)
        last = max(bisect.bisect_right(self._page_starts, max(end - 1, start)) - 1, first)
        return self._pages[first].page, self._pages[last].page


def _make_chunk(text: str, position: int, pieces, where: _Structure) -> Chunk:
    start, end = pieces[0][0], pieces[-1][1]
    body = text[start:end]
    return Chunk(
        position,
        body,
        start,
        end,
        find_entities(body),
        round(numeric_density(body), 4),
        section=where.section(start),
        pages=where.pages(start, end),
    )
