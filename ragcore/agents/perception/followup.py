"""Follow-up questions: a question that leans on the previous one, rewritten to stand alone.

No LLM: the ``[followup]`` rules of ``rules/perception.toml`` decide, and the rewrite is
plain text that perception then reads again, so what is searched is what the trace and
the answer show. A follow-up is rewritten one of two ways:

- **the previous question again**, with what the new one states replacing the old — for
  ellipsis ("And on the HP-500?" after "What does E4027 mean on the HP-400?" gives "What
  does E4027 mean on the HP-500?") and for a pronoun with no attribute of its own ("Was it
  different before 2024?" asks the previous question before 2024);
- **the new question completed** — its pronoun, demonstrative or definite noun replaced by
  or joined with the previous subject, and the previous identifiers and constraints it
  does not restate appended ("How do I clear it?" gives "How do I clear E4027 (HP-400)?").

Anything else is no follow-up and gets ``None``: a question is never touched when it
names an identifier before any pronoun and opens with no opener ("What is E4027 and how
do I clear it?"), or has no opener, pronoun, demonstrative, definite reference or bare
question word at all — so nothing of an unrelated question's predecessor leaks into it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragcore.agents.perception.model import Entity, Perception
from ragcore.agents.perception.rules import FollowupRules
from ragcore.text import lexicon
from ragcore.types import Action, EntitySource, Route

_WORD = re.compile(r"\w+(?:[-/.]\w+)*")
_TOPIC_WORDS = 4  # a subject without identifiers: the previous question's first keywords


@dataclass(frozen=True)
class Rewrite:
    """A follow-up rewritten to stand alone, and why (one reason per change)."""

    question: str
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class _Word:
    text: str
    lower: str
    start: int
    end: int


@dataclass(frozen=True)
class _Previous:
    """What a follow-up may take from the previous question."""

    perception: Perception
    identifiers: tuple[Entity, ...]
    """Pattern entities, first occurrence of each text, in question order."""
    topic: str
    """Its first keywords, for a subject when it names no identifier."""
    nouns: dict[str, Entity]
    """A noun written next to an identifier ("press" in "the HP-400 press") -> it."""


def rewrite(new: Perception, previous: Perception | None, rules: FollowupRules) -> Rewrite | None:
    """``new`` as a standalone question when it is a follow-up of ``previous``, else None.

    ``previous`` is the previous turn's perception, read from its (rewritten) question.
    """
    if previous is None or Route.DIRECT in (new.route, previous.route):
        return None
    prev = _previous(previous, rules)
    if not prev.identifiers and not prev.topic:
        return None
    words = _words(new.question)
    opener = _opener(words, rules)
    rest = words[len(opener) :]
    # A question of its own after an opener ("And how do I clear it?") is no fragment.
    if opener and rest and rest[0].lower not in lexicon.words("lexicon", "question_starts"):
        said = " ".join(w.lower for w in opener)
        content = _content(new, rest, rules, ())
        if content <= set(previous.keywords):
            return _again(new, prev, f"ellipsis: {said!r} continues the previous question")
        why = f"ellipsis: {said!r} with a new subject"
        return _complete(new, prev, rules, words, [], why)
    if rest and (template := rules.bare.get(" ".join(w.lower for w in rest))):
        said = " ".join(w.text for w in rest)
        text = template.format(subject=_subject(prev, plural=False))
        return _finish(
            text, _context(new, prev, text), [f"{said!r} asks about the previous subject"]
        )
    references = _references(new, rest, prev, rules)
    if not references and opener and not _identifiers(new):
        # "And how often is the filter changed?": an opener joins a question of its own,
        # which names nothing, to the previous one's subject.
        said = " ".join(w.lower for w in opener)
        return _complete(new, prev, rules, rest, [], f"{said!r} continues the previous question")
    if not references:
        return None
    own_action = new.action not in (previous.action, Action.LOOKUP)  # "what does that mean?"
    if not own_action and not _content(new, rest, rules, [w for w, _ in references]):
        said = ", ".join(repr(w.text) for w, _ in references)
        return _again(new, prev, f"{said} with no attribute of its own: the previous question")
    return _complete(new, prev, rules, rest, references, "")


# --- the previous question --------------------------------------------------------------


def _previous(p: Perception, rules: FollowupRules) -> _Previous:
    seen: dict[str, Entity] = {}
    for e in p.entities:
        if e.source == EntitySource.PATTERN and e.text not in seen:
            seen[e.text] = e
    identifiers = tuple(seen.values())
    names = {i.text.lower() for i in identifiers}
    topic = " ".join([k for k in p.keywords if k not in names][:_TOPIC_WORDS])
    words = _words(p.question)
    nouns: dict[str, Entity] = {}
    for entity in identifiers:
        for noun in rules.kinds.get(entity.label, ()):
            nouns.setdefault(noun, entity)
        after = [w for w in words if w.start >= entity.end][:2]
        before = [w for w in words if w.end <= entity.start][-1:]
        for w in before + after:
            if w.lower in p.keywords and w.lower not in names:
                nouns.setdefault(w.lower, entity)
    return _Previous(p, identifiers, topic if not identifiers else "", nouns)


def _subject(prev: _Previous, *, plural: bool, skip: frozenset[str] = frozenset()) -> str:
    """What a pronoun stands for: the first identifier (all for a plural) whose label the
    new question does not restate, else the previous topic."""
    left = [e.text for e in prev.identifiers if e.label not in skip] or [
        e.text for e in prev.identifiers
    ]
    if not left:
        return prev.topic
    return " and ".join(left) if plural else left[0]


# --- reading the new question -----------------------------------------------------------


def _words(text: str) -> list[_Word]:
    return [_Word(m.group(0), m.group(0).lower(), m.start(), m.end()) for m in _WORD.finditer(text)]


def _opener(words: list[_Word], rules: FollowupRules) -> list[_Word]:
    lower = tuple(w.lower for w in words)
    for opener in rules.openers:  # longest first
        if lower[: len(opener)] == opener:
            return words[: len(opener)]
    return []


def _identifiers(p: Perception) -> list[Entity]:
    return [e for e in p.entities if e.source == EntitySource.PATTERN]


def _content(new: Perception, rest: list[_Word], rules: FollowupRules, references) -> set[str]:
    """The keywords of the new question (after the opener) that say what it asks about:
    not an identifier, a vague word or a referring noun."""
    names = {e.text.lower() for e in _identifiers(new)}
    inside = {w.lower for w in rest}
    referring = {w.lower for w in references}
    return {
        k
        for k in new.keywords
        if k in inside and k not in names and k not in rules.vague and k not in referring
    }


def _references(
    new: Perception, rest: list[_Word], prev: _Previous, rules: FollowupRules
) -> list[tuple[_Word, str]]:
    """The words that point back, with how: "pronoun", "alone", "noun" (a demonstrative or
    "the" before a noun for a previous identifier). Only before the first identifier."""
    identifiers = _identifiers(new)
    first = min((e.start for e in identifiers), default=len(new.question))
    blocked = [m.span() for m in rules.not_references.finditer(new.question)]
    found: list[tuple[_Word, str]] = []
    for i, w in enumerate(rest):
        if w.start >= first:
            break
        if any(a <= w.start < b for a, b in blocked):
            continue
        after = rest[i + 1] if i + 1 < len(rest) else None
        before = rest[i - 1] if i > 0 else None
        # "the valve that leaks": after a noun, "that" starts a clause and points nowhere
        clause = before is not None and before.lower in new.keywords
        if w.lower in rules.pronouns:
            found.append((w, "pronoun"))
        elif w.lower == "same" and before is not None and before.lower == "the":
            found.append((w, "alone"))  # "is the same true of the HP-500?"
        elif w.lower == "the" and not identifiers:
            if after is not None and after.lower in prev.nouns:  # "the code", "the press"
                found.append((after, "noun"))
        elif w.lower in rules.demonstratives and not clause:
            if after is None or after.lower in rules.alone_before:  # "is that normal?"
                found.append((w, "alone"))
            elif after.lower in new.keywords:  # "that code", "this pump"
                found.append((after, "noun"))
    return found


# --- writing the rewrite ----------------------------------------------------------------


def _again(new: Perception, prev: _Previous, why: str) -> Rewrite:
    """The previous question, with the new question's identifiers and time in place of
    the old ones of the same kind (or added)."""
    p = prev.perception
    text, reasons = p.question, [why]
    edits: list[tuple[int, int, str]] = []
    added: list[str] = []
    replaced: set[str] = set()
    for entity in dict.fromkeys(_identifiers(new)):
        if entity.text in p.question:
            continue
        old = next(
            (e for e in prev.identifiers if e.label == entity.label and e.text not in replaced),
            None,
        )
        if old is None:
            added.append(entity.text)
            continue
        replaced.add(old.text)
        edits += [(e.start, e.end, entity.text) for e in _identifiers(p) if e.text == old.text]
        reasons.append(f"{entity.text} replaces {old.text}")
    time, old_time = new.constraints.time, p.constraints.time
    span = _find(p.question, old_time.text) if old_time is not None else None
    if time is not None and span is not None and old_time is not None:
        said = old_time.text.split()
        # "in 2023" then "what about 2021?": in 2021 (the bare year keeps its preposition)
        keep = said[0] + " " if time.text[:1].isdigit() and said[0].isalpha() else ""
        edits.append((*span, keep + time.text))
        reasons.append(f"{time.text!r} replaces {old_time.text!r}")
    text = _apply(text, edits)
    extra = f" ({', '.join(added)})" if added else ""
    if added:
        reasons.append(f"{', '.join(added)} added")
    if time is not None and span is None:
        extra += f" {time.text}"
        reasons.append(f"{time.text!r} added")
    return Rewrite(_end_with(text, extra), tuple(reasons))


def _complete(
    new: Perception,
    prev: _Previous,
    rules: FollowupRules,
    rest: list[_Word],
    references: list[tuple[_Word, str]],
    why: str,
) -> Rewrite:
    """The new question with each reference replaced by (or joined with) the previous
    subject, and what it does not restate of the previous question appended."""
    restated = frozenset(e.label for e in _identifiers(new))
    edits, reasons = [], [why] if why else []
    for word, how in references:
        if how == "noun":
            named = prev.nouns.get(word.lower)
            target = named.text if named else _subject(prev, plural=False, skip=restated)
            edits.append((word.end, word.end, f" {target}"))
            reasons.append(f"{word.text!r} is {target} from the previous question")
            continue
        plural = word.lower in rules.plural
        subject = _subject(prev, plural=plural, skip=restated)
        possessive = word.lower in ("its", "their", "theirs")
        edits.append((word.start, word.end, f"the {subject}" if possessive else subject))
        reasons.append(f"{word.text!r} is {subject} from the previous question")
    start = rest[0].start if rest else len(new.question)
    text = _apply(new.question, edits)[start:]
    text = text[:1].upper() + text[1:]
    context = _context(new, prev, text)
    return _finish(text, context, reasons)


def _context(new: Perception, prev: _Previous, text: str) -> list[str]:
    """What the new question keeps from the previous one without saying it: identifiers
    of a kind it does not restate, the time, the named source."""
    restated = {e.label for e in _identifiers(new)}
    p = prev.perception
    kept = [e.text for e in prev.identifiers if e.label not in restated and e.text not in text]
    if p.constraints.time is not None and new.constraints.time is None:
        kept.append(p.constraints.time.text)
    if p.constraints.source and not new.constraints.source:
        kept.append(f"according to {p.constraints.source}")
    return kept


def _finish(text: str, context: list[str], reasons: list[str]) -> Rewrite:
    if context:
        reasons.append("kept from the previous question: " + ", ".join(context))
    return Rewrite(_end_with(text, f" ({', '.join(context)})" if context else ""), tuple(reasons))


def _end_with(text: str, extra: str) -> str:
    """``text`` with ``extra`` before its closing punctuation (a question mark if none)."""
    body = text.rstrip()
    end = len(body) - len(body.rstrip("?.!"))
    mark = body[len(body) - end :] if end else "?"
    return body[: len(body) - end].rstrip() + extra + mark


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _find(text: str, phrase: str) -> tuple[int, int] | None:
    pattern = r"\s+".join(re.escape(w) for w in phrase.split())
    m = re.search(rf"(?<!\w){pattern}(?!\w)", text, re.IGNORECASE)
    return m.span() if m else None


def summarise(perception: Perception) -> dict[str, object]:
    """What a session keeps of a turn's perception (JSON-ready): enough to show and audit
    the turn; the next turn reads the rewritten question again rather than this."""
    c = perception.constraints
    return {
        "action": str(perception.action),
        "route": str(perception.route),
        "entities": [[e.text, e.label] for e in perception.entities],
        "sides": list(perception.sides),
        "time": None
        if c.time is None
        else {
            "text": c.time.text,
            "start": c.time.start and c.time.start.isoformat(),
            "end": c.time.end and c.time.end.isoformat(),
        },
        "source": c.source,
        "latest": c.latest,
        "history": c.history,
        "keywords": list(perception.keywords),
    }
