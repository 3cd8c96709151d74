"""Traceability of proper names: a name the cited sources never use is invented."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ragcore.agents.validation.model import AnswerModel, StatementModel
from ragcore.agents.validation.registry import Finding, Scope, check
from ragcore.text.citations import strip_citations
from ragcore.types import Check, IssueKind

# A proper name of two or more capitalised words, not at the start of the statement:
# "manufactured by Gridline Controls".
_NAME = re.compile(r"(?<=[a-z,;:] )[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+")


@check(Check.TRACEABILITY, Scope.STATEMENT, rules=("names.invented",))
def invented_names(answer: AnswerModel, s: StatementModel) -> Iterator[Finding]:
    if not s.checked:
        return
    source = s.source.lower()
    for name in _NAME.findall(strip_citations(s.text)):
        if name.lower() not in source:
            yield Finding(
                "names.invented",
                IssueKind.UNSUPPORTED_CLAIM,
                f"{name!r} appears in no cited source",
                s.text,
                s.chunk_ids,
                s.document_ids,
            )
