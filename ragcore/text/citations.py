"""Citation markers in answer text: ``[2]``, ``[1, 3]``."""

from __future__ import annotations

import re

CITATION = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)*)\]")
"""A citation marker: ``[2]``, ``[1, 3]``; group 1 holds the numbers."""


def citations_in(text: str) -> tuple[int, ...]:
    """The evidence numbers cited in ``text``: ``"a [1] b [2, 3]"`` → (1, 2, 3)."""
    numbers = (int(n) for group in CITATION.findall(text) for n in re.split(r"[,;]", group))
    return tuple(dict.fromkeys(numbers))


def strip_citations(text: str) -> str:
    """``text`` without its ``[n]`` markers (and the spaces they leave)."""
    return re.sub(r"\s+([.,;:!?])", r"\1", CITATION.sub("", text)).strip()
