"""Traceability of numbers: every number of a statement is in a cited chunk (or the
question, or worked out from the answer's own figures), and a count has its noun
beside it there ("12 filter cartridges" is not backed by "8 cartridges" and "every 12
months")."""

from __future__ import annotations

from collections.abc import Iterator

from ragcore.agents.reading import relation_terms
from ragcore.agents.validation.model import AnswerModel, StatementModel
from ragcore.agents.validation.registry import Finding, Scope, check
from ragcore.text.arithmetic import Figure, derived
from ragcore.text.counts import backed, counts, enumerated
from ragcore.text.quantities import number_spans, numbers
from ragcore.types import Check, IssueKind


@check(Check.TRACEABILITY, Scope.STATEMENT, rules=("numbers.count", "numbers.unbacked"))
def unbacked_numbers(answer: AnswerModel, s: StatementModel) -> Iterator[Finding]:
    if not s.checked:
        return
    given = answer.asks.numbers  # numbers the question supplies are context
    found = s.figures.found
    in_source = numbers(s.source) | found | given
    unbacked = {
        value
        for value, start, _ in number_spans(s.text)
        if value not in in_source and not derived(Figure(value, None, start), answer.operands)
    }
    texts = [s.source, *(e.text for e in s.cited)]
    for count in counts(s.text, relation_terms()):
        if (
            count.value not in given
            and count.value not in unbacked
            and not backed(count, texts)
            and not enumerated(count, s.text)
            and not derived(Figure(count.value, None, count.start), answer.operands)
        ):
            yield Finding(
                "numbers.count",
                IssueKind.UNSUPPORTED_NUMBER,
                f"{count.value:g} {count.words}: no cited sentence gives that number of them",
                s.text,
                s.chunk_ids,
                s.document_ids,
            )
    missing = sorted(unbacked | {q.value for q in s.figures.unmatched} - given)
    if missing:
        yield Finding(
            "numbers.unbacked",
            IssueKind.UNSUPPORTED_NUMBER,
            f"{', '.join(f'{n:g}' for n in missing)} appears in no cited chunk",
            s.text,
            s.chunk_ids,
            s.document_ids,
        )
