"""The validator's checks, one module per concern, in the order they run: traceability
(citations, figures and facts, names, numbers, support), timeliness, and consistency
(sides, a substitution's subject, another model's document, what is asked, relations).
Importing them registers them."""

from ragcore.agents.validation.checks import (  # noqa: F401  (importing registers)
    answer_type,
    citations,
    figures,
    focus,
    names,
    numbers,
    relations,
    sides,
    subject,
    substitution,
    support,
    timeliness,
)
from ragcore.agents.validation.registry import RegisteredCheck, in_order

ORDER = tuple(
    module.__name__.rsplit(".", 1)[-1]
    for module in (
        citations,
        figures,
        names,
        numbers,
        support,
        timeliness,
        sides,
        substitution,
        subject,
        focus,
        answer_type,
        relations,
    )
)


def ordered_checks() -> tuple[RegisteredCheck, ...]:
    """Every check, in the order the validator runs them."""
    return in_order(ORDER)
