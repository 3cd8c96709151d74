"""The validator's checks, one module per concern, imported in the order they run:
traceability (citations, figures and facts, names, numbers, support), timeliness, and
consistency (sides, what is asked, relations). Importing registers them."""

from ragcore.agents.validation.checks import (  # noqa: F401  (registers, in this order)
    citations,
    figures,
    focus,
    names,
    numbers,
    relations,
    sides,
    support,
    timeliness,
)
