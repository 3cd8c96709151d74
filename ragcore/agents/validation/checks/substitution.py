"""A substitution follow-up's answer is about what the asker put in place: "And the
A320 blue reservoir?" after the green reservoir's capacity borrows the rest of the
previous question, and an answer stating the green reservoir's figure again — or
naming neither — is ``wrong_entity``, not ``ok`` (``Perception.replaced``).

The same holds of a thing told apart by a designator however it was asked ("How much
does reservoir B hold?" after turns about the B737-800, written whole): a figure stated
for "reservoir A" and not for reservoir B is another thing's (``lexicon.designated``)."""

from __future__ import annotations

from collections.abc import Iterator

from ragcore.agents.perception.asks import designated
from ragcore.agents.perception.wording import find
from ragcore.agents.validation.checks.relations import subjects
from ragcore.agents.validation.model import AnswerModel
from ragcore.agents.validation.registry import Finding, Scope, check
from ragcore.text.quantities import numbers
from ragcore.text.terms import terms
from ragcore.types import Check, IssueKind


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("substitution.borrowed", "substitution.neither"))
def about_the_substitute(answer: AnswerModel) -> Iterator[Finding]:
    for r in answer.perception.replaced:
        if not answer.draft.statements:
            continue
        old, new = set(terms(r.old)), set(terms(r.new))
        gone, put = old - new, new - old  # what tells the two apart
        if not put:
            # told apart by a designator alone ("reservoir A" / "reservoir B"): by phrase
            phrased = [
                s.text for s in answer.draft.statements if numbers(s.text) and find(s.text, r.old)
            ]
            if phrased and not any(find(s, r.new) for s in phrased):
                yield Finding(
                    "substitution.borrowed",
                    IssueKind.WRONG_ENTITY,
                    f"the follow-up asks about {r.new} in place of {r.old}; a figure stated "
                    f"is {r.old}'s",
                    statement=phrased[0],
                    entity=r.new,
                )
            continue
        borrowed = next(
            (
                s.text
                for s in answer.draft.statements
                if numbers(s.text)
                and _names(gone, said := set(terms(s.text)), every=False)
                and not _names(put, said)
            ),
            None,
        )
        if borrowed is not None:
            yield Finding(
                "substitution.borrowed",
                IssueKind.WRONG_ENTITY,
                f"the follow-up asks about {r.new} in place of {r.old}; a figure stated "
                f"is {r.old}'s",
                statement=borrowed,
                entity=r.new,
            )
            continue
        said = set(terms(answer.draft.text))
        about = set().union(*(subjects(e, chunk=False) for e in answer.cited))
        if not _names(put, said | about):
            yield Finding(
                "substitution.neither",
                IssueKind.WRONG_ENTITY,
                f"the follow-up asks about {r.new} in place of {r.old}; the answer never "
                f"names {r.new} and cites no document about it",
                entity=r.new,
            )


@check(Check.CONSISTENCY, Scope.ANSWER, rules=("substitution.designator",))
def about_the_designated(answer: AnswerModel) -> Iterator[Finding]:
    """A question asking of a noun with its designators ("reservoir B", "systems A and
    B") is not answered by a figure stated for the same noun with another designator
    only ("Reservoir A holds 22.7 litres"): that figure is ``wrong_entity``."""
    asked = dict(answer.asks.designated)
    if not asked:
        return
    for s in answer.draft.statements:
        if not numbers(s.text):
            continue
        for noun, others in designated(s.text).items():
            wanted = asked.get(noun)
            if wanted and not others & wanted:
                yield Finding(
                    "substitution.designator",
                    IssueKind.WRONG_ENTITY,
                    f"the question asks about {noun} {', '.join(sorted(wanted))}; a figure "
                    f"stated is {noun} {', '.join(sorted(others))}'s",
                    statement=s.text,
                    entity=f"{noun} {min(wanted)}",
                )
                return


def _names(keys: set[str], said: set[str], every: bool = True) -> bool:
    """Whether ``said`` names the terms ``keys`` (all, or any): a name with digits is
    also named with a prefix ("737-800" in "B737-800")."""
    found = [
        k in said or (any(c.isdigit() for c in k) and any(s.endswith(k) for s in said))
        for k in keys
    ]
    return all(found) if every else any(found)
