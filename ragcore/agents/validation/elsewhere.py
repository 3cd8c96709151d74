"""An answer about another thing only: when validation finds a figure bound to another
entity (``wrong_entity``: "65 °C is the source's figure for HP400, not VM3000") and
the thing asked about — what a substitution follow-up put in place ("the A320 blue
reservoir"), or the models the question names (none of them) — is named neither by the
answer nor by any document it cites, the documents gave nothing about that thing: the status is
``no_answer``, not ``uncertain`` (nothing was found to be unsure of). An answer that
names the asked thing, or cites a document about it, stays ``uncertain``."""

from __future__ import annotations

from collections.abc import Sequence

from ragcore.agents.evidence import Draft, Evidence
from ragcore.agents.perception.model import Perception
from ragcore.agents.validation.checks.relations import subjects
from ragcore.agents.validation.report import ValidationReport
from ragcore.text.identifiers import CODE_TERM
from ragcore.text.terms import model_terms, terms
from ragcore.types import IssueKind


def about_another(
    perception: Perception, draft: Draft, cited: Sequence[Evidence], report: ValidationReport
) -> str | None:
    """What the answer leaves unnamed when it is about another thing only, else None."""
    if draft.abstained or not any(i.kind == IssueKind.WRONG_ENTITY for i in report.issues):
        return None
    said = set(terms(draft.text)) | set().union(*(subjects(e, chunk=False) for e in cited))
    for new in (r.new for r in perception.replaced):
        if not _names(set(terms(new)), said):
            return new
    # The models asked about (codes aside: "E4031" is named with another model's
    # meaning): about another when none is named ("the ATS-400's AC-3 controller"
    # answered for the AC-3 is about the asked controller, however wrong).
    models = [
        (name, asked)
        for name in perception.identifiers
        if (asked := {t for t in model_terms(terms(name)) if not CODE_TERM.match(t)})
    ]
    if models and not any(_names(asked, said) for _, asked in models):
        return models[0][0]
    return None


def _names(keys: set[str], said: set[str]) -> bool:
    """``said`` names every term of ``keys``; a name with digits also with a prefix
    ("737-800" in "B737-800")."""
    return all(
        k in said or (any(c.isdigit() for c in k) and any(s.endswith(k) for s in said))
        for k in keys
    )
