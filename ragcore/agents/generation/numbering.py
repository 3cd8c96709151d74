"""Citations numbered 1..n in the order the answer first uses them.

Generators cite evidence by its retrieval rank (``[3]`` is the third-best chunk), so an
answer may read "... [3] ... [1]". ``renumber`` gives the draft and its evidence new
numbers: the cited evidence 1..n in order of first use in the text, the uncited after
them in rank order. The evidence keeps its order (best first); only the numbers change,
in the text, in every statement, in the passages the model was shown and on the
evidence, so draft and evidence agree and validation checks the renumbered pair exactly
as it would the original. A number that
points at no evidence (an invented citation) is left as it is, for validation to flag.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from ragcore.agents.evidence import Draft, Evidence, Statement
from ragcore.text.citations import CITATION, citations_in

_NUMBER = re.compile(r"\d+")


def renumber(
    draft: Draft, evidence: Sequence[Evidence]
) -> tuple[Draft, tuple[Evidence, ...], dict[int, int]]:
    """(draft, evidence, old number -> new number) with citations numbered by first use.

    The mapping is empty when nothing changes (including evidence not numbered 1..n,
    which is left alone rather than guessed at).
    """
    evidence = tuple(evidence)
    numbers = [e.number for e in evidence]
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        return draft, evidence, {}
    known = set(numbers)
    mapping: dict[int, int] = {}
    for n in citations_in(draft.text):
        if n in known and n not in mapping:
            mapping[n] = len(mapping) + 1
    for e in evidence:  # the uncited, best first, after the cited
        mapping.setdefault(e.number, len(mapping) + 1)
    if all(old == new for old, new in mapping.items()):
        return draft, evidence, {}
    statements = tuple(
        Statement(_rewrite(s.text, mapping), tuple(mapping.get(n, n) for n in s.citations))
        for s in draft.statements
    )
    # The passages the model was shown keep their identity: a citation of one it was
    # not shown stays one after renumbering.
    shown = None if draft.shown is None else tuple(mapping.get(n, n) for n in draft.shown)
    renumbered = replace(
        draft, text=_rewrite(draft.text, mapping), statements=statements, shown=shown
    )
    return renumbered, tuple(replace(e, number=mapping[e.number]) for e in evidence), mapping


def _rewrite(text: str, mapping: Mapping[int, int]) -> str:
    """``text`` with every number inside a citation marker mapped (others kept)."""

    def marker(m: re.Match[str]) -> str:
        return _NUMBER.sub(lambda d: str(mapping.get(int(d.group()), int(d.group()))), m.group())

    return CITATION.sub(marker, text)


def describe(mapping: Mapping[int, int], cited: int) -> str:
    """``[3]→[1], [1]→[2]`` for the ``cited`` first numbers, where changed (for the trace)."""
    changed = sorted((new, old) for old, new in mapping.items() if old != new and new <= cited)
    return ", ".join(f"[{old}]→[{new}]" for new, old in changed)
