"""What perception returns: the question read into a ``Perception`` (its action,
entities, constraints, route, keywords, compared sides, and what it asks)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ragcore.agents.perception.asks import Asks
from ragcore.agents.perception.time import TimeConstraint
from ragcore.text.terms import terms
from ragcore.types import Action, EntitySource, Route

_WORDS = re.compile(r"[\w-]+")


@dataclass(frozen=True)
class Entity:
    """A thing named in the question; ``start``/``end`` are character offsets in it."""

    text: str
    label: str  # "MODEL", "ERROR_CODE", "PART_NUMBER" (pattern) or spaCy's label
    source: EntitySource
    start: int
    end: int


@dataclass(frozen=True)
class Replacement:
    """In a substitution follow-up's rewrite ("And the 737-800?" after a question about
    the A320), what the asker put in place of what: ``old`` of the previous question,
    ``new`` of the follow-up. ``label``: the identifier kind when ``old`` is an
    identifier (then ``new`` names a thing of that kind, whether or not the rules'
    patterns read it as one), else None ("blue" for "green" in "the blue reservoir")."""

    old: str
    new: str
    label: str | None = None


@dataclass(frozen=True)
class Constraints:
    """What the answer must respect; ``latest``: the newest version is asked for."""

    time: TimeConstraint | None = None
    periods: tuple[TimeConstraint, ...] = ()
    """Every period named, in order (``time`` is the first): "Q2 2026 vs Q3 2026"."""
    source: str | None = None
    quantitative: bool = False
    units: tuple[str, ...] = ()
    latest: bool = False
    latest_words: str = ""
    """The words asking for the newest version ("now", "currently"), else "": they say
    which documents, not what the answer must contain."""
    history: bool = False
    """An earlier version, or how something changed, is asked about."""
    earlier: str = ""
    """The words asking for the figure of an earlier version ("the old CP-200 revision",
    "the 2019 manual", "before the AD"), else "": the superseded document's figure, or
    the one a change replaced, answers — not the current figure. Implies ``history``."""


@dataclass(frozen=True)
class Perception:
    """What a question asks for. ``sides`` only for comparisons."""

    question: str
    action: Action
    entities: tuple[Entity, ...]
    constraints: Constraints
    route: Route
    keywords: tuple[str, ...]
    sides: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    asks: Asks = Asks()
    """What the question asks for (``asks.read_asks``)."""
    introduced: tuple[str, ...] = ()
    """In a follow-up's rewrite, the identifiers the asker named in place of (or beside)
    the previous turn's, the rest of the question borrowed ("And E4031?"): the answer
    must be about them, not about what it borrowed from."""
    replaced: tuple[Replacement, ...] = ()
    """In a substitution follow-up's rewrite, what the asker replaced with what: an
    answer stating a figure bound to ``old`` and not ``new`` borrowed it
    (``validation.checks.substitution``)."""

    numbered_models: tuple[str, ...] = ()
    """Bare numbers standing where a model's name stands ("the 737's pressure filters"):
    no identifier the rules' patterns read, but the model the question asks about — a
    follow-up naming one restates its model and borrows none."""
    written_models: tuple[tuple[str, int, int], ...] = ()
    """The models the question names however typed ("ac-110", "the 737"), as written and
    where, in question order (``written.asked_models``)."""
    orders_sides: bool = False
    """It asks which of its sides is more: its answer needs a figure of each."""
    asked_sides: tuple[str, ...] = ()
    """The sides its answer must give something for (``written.asked_sides``)."""
    part_asked: tuple[str, frozenset[str]] = ("", frozenset())
    """The part a part-number question asks the number of, as written and as terms."""

    def terms_before(self, sides: Iterable[str]) -> set[str]:
        """The terms the question says before the first of ``sides`` it writes (none if
        it writes none): what is asked of each is said before them ("grease interval for
        the cp-200 and the cp-350"), words among and after them tell them apart."""
        found = [m.start() for s in sides if (m := re.search(re.escape(s), self.question, re.I))]
        return set(terms(self.question[: min(found)])) if found else set()

    def written_as(self, wanted: set[str]) -> list[str]:
        """The question's words whose terms are among ``wanted``, as it writes them
        ("grease", not the term "greas"), in its order."""
        return [w for w in _WORDS.findall(self.question) if set(terms(w)) & wanted]

    @property
    def identifiers(self) -> tuple[str, ...]:
        """Texts of the pattern entities, in question order, without duplicates."""
        return tuple(
            dict.fromkeys(e.text for e in self.entities if e.source == EntitySource.PATTERN)
        )
