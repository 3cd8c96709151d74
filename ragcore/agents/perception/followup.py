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

Reading the conversation kept as data (``conversation``), three kinds reach past the
previous question: a **choice** that names nothing to choose from ("Which one is
louder?") is asked of the things in play; **another version** ("What did the old revision
say?", "Before the change?") asks the previous value question of that version, and **why
it changed** asks about the previous figure; an ellipsis naming a new code continues the
turn that **asked** about a code. A pronoun compared with a named thing ("How does that
compare with the GX-500?") is the thing in play of that kind with the previous figure
("the HP-400 interval"), "compared with it" after a named thing is the other thing in
play, and "that code" may be a code the previous answer introduced.

A version may be named by its document ("What was it in the 2019 manual?") or asked with
the previous subject's own words ("What was the interval before 2024?"), and "now" asks
the current one; a version question about another attribute goes back to the topic's
turn that asked it. A why question with a change word ("How come it got longer?", "Why
was the oil interval shortened?") or a bare "Why?" after a version asks why the previous
figure changed, with the models in play carried. "Each", "both" and "these two <things>"
stand for every thing in play, named, so that each is asked (and one missing is seen); a
fragment naming only an attribute ("Inspection intervals?") asks it of the previous
subject, and a fragment with no clause word ("bearing temp limit?", "how much oil and what
grade?") asks what it names of the model in play, also past a turn that named nothing;
"it" after a verb done to a machine ("before restarting it") is the model.

A pronoun agrees in number with what it stands for: "it"/"its" after a question about a
part of a model ("the controller backup battery on the RA-6 robot") is that part with
its model, unless what "its" owns is a thing of its own ("its air filter" is the
machine's); "their" after a question about one model is the several models a turn before
it named. "That filter" is the one the previous answer named ("the oil filter"). A bare
number after "the" is the model of that number in play ("than on the 75?"), or, alone
in an ellipsis ("and on the 350?"), the model of that number in the family in play.

Anything else is no follow-up and gets ``None``: a question is never touched when it
names an identifier before any pronoun and opens with no opener ("What is E4027 and how
do I clear it?"), or has no opener, pronoun, demonstrative, definite reference or bare
question word at all — so nothing of an unrelated question's predecessor leaks into it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from ragcore.agents.perception.asks import AnswerType, Measure, QuestionForm, names_part_number
from ragcore.agents.perception.conversation import (
    Referent,
    TurnState,
    answered_phrase,
    in_play,
    with_names,
)
from ragcore.agents.perception.model import Entity, Perception, Replacement
from ragcore.agents.perception.rules import FollowupRules
from ragcore.agents.perception.substitution import substitute
from ragcore.agents.perception.wording import (
    ARTICLE,
    ARTICLES,
    Word,
    apply,
    end_with,
    find,
    split_words,
)
from ragcore.text import lexicon
from ragcore.text.quantities import quantities
from ragcore.text.terms import STOPWORDS, model_terms, terms
from ragcore.text.units import dimension
from ragcore.types import Action, EntitySource, Route

_TOPIC_WORDS = 4  # a subject without identifiers: the previous question's first keywords


@dataclass(frozen=True)
class Rewrite:
    """A follow-up rewritten to stand alone, and why (one reason per change)."""

    question: str
    reasons: tuple[str, ...]
    introduced: tuple[str, ...] = ()
    """The identifiers the follow-up named that the previous question did not
    (``Perception.introduced``)."""
    replaced: tuple[Replacement, ...] = ()
    """A substitution's things put in place (``Perception.replaced``)."""


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
    version: bool = False
    """Its time names a version ("the 2021 rule"), not a period."""
    said: str = ""
    """The start of its answer (``TurnState.said``)."""
    several: tuple[str, ...] = ()
    """When it names one model: the models of the nearest earlier turn naming several
    (what a plural "their" stands for)."""
    part: str = ""
    """The part of a model it asks about, with the model ("RA-6 controller backup
    battery" for "the controller backup battery on the RA-6 robot"), else "": what a
    next "it" of the same number stands for."""
    earlier: frozenset[str] = frozenset()
    """Of ``nouns``, those an earlier turn of the topic wrote beside the model ("belt"):
    a noun that says which thing, never the previous question asked again."""
    things: str = ""
    """The plural thing of a model it asks about, written after the model's name ("B737-800
    hydraulic pressure filters"), else "": what a next "them" stands for."""
    machine: str = ""
    """The model it names, else the one the nearest turn of its topic named ("RA-6" for
    "also got E5120" after "ra6 lost calibration"): what "it" is when a code or part
    cannot be."""


def rewrite(
    new: Perception,
    previous: Perception | None,
    rules: FollowupRules,
    conversation: Sequence[TurnState] = (),
    reread: Callable[[str], Perception] | None = None,
) -> Rewrite | None:
    """``new`` as a standalone question when it is a follow-up of ``previous``, else None.

    ``previous`` is the previous turn's perception, read from its (rewritten) question;
    ``conversation`` the earlier turns as kept, newest first (``previous``'s first);
    ``reread`` reads an earlier turn's question when a follow-up leans past the previous
    one ("Before the change?" after "Why was it changed?").
    """
    if rules.topic_switch.search(new.question):
        return None  # "unrelated - leap fan blade coating erosion limit" stands alone
    asked = new.question
    if reread is not None and (back := _back_to(new, rules, conversation, reread)):
        return back
    if previous is not None and reread is not None:
        switched = rules.topic_switch.search(previous.question)
        if switched and previous.question[switched.end() :].strip():
            # continued: "and the max quantity per cabinet?" asks what followed "new topic:"
            previous = reread(previous.question[switched.end() :])
    if previous is not None and conversation:
        # names the conversation took as things of a kind ("the 737-800") are read again
        previous = with_names(previous, conversation[0].entities)
    if previous is not None and previous.numbered_models:
        previous = _numbers_as_models(previous)
    numbered = (
        _numbers_in_play(new, conversation, rules.kinds.values()) if reread is not None else None
    )
    if numbered is not None and reread is not None:
        new = reread(numbered.question)  # "than on the 75?": than on the AC-75
    versioned = _version_in_play(new, conversation) if reread is not None else None
    if versioned is not None and reread is not None:
        new = reread(versioned.question)  # "under the old rule": under the 2021 rule
        numbered = (
            versioned
            if numbered is None
            else replace(versioned, reasons=numbered.reasons + versioned.reasons)
        )
    found = _rewrite(new, previous, rules, conversation, reread)
    if numbered is not None:
        found = (
            numbered if found is None else replace(found, reasons=found.reasons + numbered.reasons)
        )
    if found is not None and _same_words(found.question, asked):
        return None  # nothing changed: the question stands as asked (no rewrite to show)
    if found is None or previous is None or new.asks.choice or found.replaced:
        return found  # a choice's sides are each checked as sides, a substitute as such
    before = {e.text.lower() for e in _identifiers(previous)}
    introduced = [e.text for e in _identifiers(new) if e.text.lower() not in before]
    return replace(found, introduced=tuple(dict.fromkeys(introduced)))


def _same_words(a: str, b: str) -> bool:
    """Whether two questions differ only in case, spacing and end punctuation."""
    return a.lower().strip(" ?.!").split() == b.lower().strip(" ?.!").split()


_BACK_TO = re.compile(
    r"^\s*(?:(?:ok|okay|so|and)\W+)?(?:going\s+|getting\s+|coming\s+)?back\s+to\s+"
    r"(?:the\s+|that\s+|our\s+)?([\w-]+)\s*(?:[:;,.\u2013\u2014-]+|\s-\s)\s*",
    re.IGNORECASE,
)


def _back_to(
    new: Perception,
    rules: FollowupRules,
    conversation: Sequence[TurnState],
    reread: Callable[[str], Perception],
) -> Rewrite | None:
    """ "Back to the robot: what's its repeatability?": the rest of the question follows
    the nearest earlier turn that named a thing by that word ("the RA-6 robot"), else
    the nearest one before the previous turn that named an identifier the previous turn
    did not (the topic before this one) — not the turn before it."""
    said = _BACK_TO.match(new.question)
    if said is None or not new.question[said.end() :].strip() or not conversation:
        return None
    noun = said.group(1).lower()
    turns = list(enumerate(conversation[: 2 * _LOOK_BACK]))
    named = [t for t in turns if noun in _previous(reread(t[1].question), rules).nouns]
    latest = set(conversation[0].entities)
    other = [t for t in turns[1:] if t[1].entities and not set(t[1].entities) & latest]
    for i, turn in (named or other)[:1]:
        earlier = reread(turn.question)
        rest = reread(new.question[said.end() :])
        found = _rewrite(rest, earlier, rules, conversation[i:], reread)
        reason = f"{said.group(0).strip()!r} goes back to {turn.question!r}"
        if found is None:
            return Rewrite(rest.question, (reason,))
        return replace(found, reasons=(reason, *found.reasons))
    return None


_FAMILY = re.compile(r"([A-Za-z]{2,4}-?|[A-Za-z]-)\d{2,4}")
"""A model named by letters and a number ("CP-200", "ac75" as typed): "the 350" is the
CP-350."""
_YEAR = re.compile(r"(?:19|20)\d\d")
_BARE_NUMBER = re.compile(r"(?<=\bthe )\d{2,4}(?![\w.,-]\w)", re.IGNORECASE)
# "the 200 and 350": a number joined to one after "the" (a model only beside a sibling)
_JOINED_NUMBER = re.compile(r"(?<=\bthe )\d{2,4}\s+(?:and|or)\s+(\d{2,4})(?![\w.,-]\w)", re.I)


def _numbers_in_play(
    new: Perception, conversation: Sequence[TurnState], rules_kinds: Iterable[frozenset[str]] = ()
) -> Rewrite | None:
    """``new`` with a bare number after "the" that is the number of one model the
    conversation named ("is that longer than on the 75?" after turns about the AC-75 and
    the AC-110) written as that model, else None: said short, it is still that model."""
    if not conversation:
        return None
    models = list(
        dict.fromkeys(r.text for turn in conversation for r in turn.entities if r.label == "MODEL")
    )
    if any(e.label == "MODEL" for e in _identifiers(new)):
        return None  # a question naming its own models is left alone (a code is no model)
    measured = {q.value for q in quantities(new.question) if q.unit}
    edits, reasons = [], []
    bare_numbers = [m.group(0) for m in _BARE_NUMBER.finditer(new.question)]
    pairs = list(_JOINED_NUMBER.finditer(new.question))
    # another bare number of the question is a model in play of a family: the family
    # ("the 75 and 110" after the ac110: both are the family's)
    sibling = any(
        _FAMILY.fullmatch(x)
        for n in [*bare_numbers, *(j.group(1) for j in pairs)]
        for x in models
        if n in re.findall(r"\d+", x)
    )
    joined = pairs if sibling else []
    numbers = [(m.group(0), m.start(), m.end()) for m in _BARE_NUMBER.finditer(new.question)]
    numbers += [(j.group(1), j.start(1), j.end(1)) for j in joined]
    for number, start, end in numbers:
        if float(number) in measured or _YEAR.fullmatch(number):
            continue  # "the 90 bar precharge", "the 2019 manual"
        named = [x for x in models if number in re.findall(r"\d+", x)]
        # "same code on the 110?": nothing asked but the number and what names a kind
        kinds = {noun for nouns in rules_kinds for noun in nouns}
        bare = not [k for k in new.keywords if k != number and k not in kinds]
        if not named and (bare or sibling):
            # "and on the 350?" after the CP-200, asking nothing else, or "grease qty
            # for the 350 and the 200?" after the cp-350, the other number a model in
            # play: a model of that family ("the 400's hydraulic filters" after the
            # ATR-72 may be any maker's 400)
            family = {f.group(1) for x in models[:1] if (f := _FAMILY.fullmatch(x))}
            named = [f"{f}{number}" for f in family]
        if len(named) == 1 and named[0].lower() != number.lower():
            edits.append((start, end, named[0]))
            reasons.append(f"{number!r} is the {named[0]} named before")
    if not edits:
        return None
    return Rewrite(apply(new.question, edits), tuple(reasons))


_OLD_VERSION = re.compile(
    r"\b(?:the\s+)?(?:old|older|previous|earlier|original|prior|last)\s+"
    r"(rule|regulation|revision|version|edition|manual|handbook|directive|standard)\b",
    re.IGNORECASE,
)


def _version_in_play(new: Perception, conversation: Sequence[TurnState]) -> Rewrite | None:
    """``new`` with "the old rule" written as the older version the conversation named of
    that kind of document ("the 2021 rule", asked two turns before), else None: the
    asker means that one, and a search for "old" finds no version."""
    said = _OLD_VERSION.search(new.question)
    if said is None or not conversation:
        return None
    noun = said.group(1).lower()
    named = re.compile(rf"\b((?:19|20)\d\d)\s+{noun}\b", re.IGNORECASE)
    years = [y for turn in conversation for y in named.findall(turn.question)]
    if not years or _YEAR.search(new.question):
        return None
    year = min(years)
    text = apply(new.question, [(said.start(), said.end(), f"the {year} {noun}")])
    return Rewrite(text, (f"{said.group(0)!r} is the {year} {noun} named before",))


def _numbers_as_models(p: Perception) -> Perception:
    """``p`` with the bare numbers that stood for its models ("the 737's filters") as
    model identifiers: the model a follow-up's own replaces ("same for the A320?")."""
    found = [
        Entity(n, "MODEL", EntitySource.PATTERN, m.start(), m.end())
        for n in p.numbered_models
        for m in re.finditer(rf"(?<![\w-]){re.escape(n)}(?![\w-])", p.question)
    ]
    kept = [e for e in p.entities if not any(e.start < f.end and f.start < e.end for f in found)]
    return replace(p, entities=tuple(sorted((*kept, *found), key=lambda e: e.start)))


def _rewrite(
    new: Perception,
    previous: Perception | None,
    rules: FollowupRules,
    conversation: Sequence[TurnState] = (),
    reread: Callable[[str], Perception] | None = None,
) -> Rewrite | None:
    if previous is None or previous.route == Route.DIRECT:
        return None
    if new.route == Route.DIRECT and not (
        new.constraints.latest and _opener(split_words(new.question), rules)
    ):
        return None  # "ok thanks" asks nothing; "and now?" asks the current version
    if sub := substitute(new, previous, rules):
        return Rewrite(sub.question, sub.reasons, replaced=sub.replaced)
    prev = _with_answered(_previous(previous, rules), rules, conversation)
    if not prev.identifiers and not prev.topic:
        return None
    if compared := _compared(new, prev, rules, conversation, reread):
        return compared
    if revised := _revised(new, prev, rules, conversation, reread):
        return revised
    if carried := _why_changed(new, prev, rules):
        return carried
    if challenged := _challenged(new, prev, rules, conversation, reread):
        return challenged
    words = split_words(new.question)
    opener = _opener(words, rules)
    if not opener and conversation and (valued := _the_value(new, words, rules, conversation)):
        return valued
    if (
        not opener
        and conversation
        and (blamed := _the_cause(new, words, prev, rules, conversation))
    ):
        return blamed
    rest = words[len(opener) :]
    # A question of its own after an opener ("And how do I clear it?") is no fragment.
    if opener and rest and rest[0].lower not in lexicon.words("lexicon", "question_starts"):
        said = " ".join(w.lower for w in opener)
        content = _content(new, rest, rules, ())
        if content <= set(previous.keywords):
            base = _asked_about(new, prev, rules, conversation, reread)
            return _again(new, base, f"ellipsis: {said!r} continues the previous question")
        why = f"ellipsis: {said!r} with a new subject"
        return _complete(new, prev, rules, words, [], why)
    if rest and (template := rules.bare.get(" ".join(w.lower for w in rest))):
        said = " ".join(w.text for w in rest)
        text = template.format(subject=_subject(prev, plural=False))
        return _finish(
            text, _context(new, prev, text), [f"{said!r} asks about the previous subject"]
        )
    if every := _every(new, rest, prev, rules, conversation):
        return every
    if not opener and (fragment := _fragment(new, words, prev, rules, conversation)):
        return fragment
    if than := _compared_with_it(new, words, rules, conversation):
        return than
    if more := _more_than_other(new, words, prev, rules, conversation, reread):
        return more
    if on_it := _code_on_it(new, words, prev, rules):
        return on_it
    references = _references(new, rest, prev, rules)
    if not references and opener and not _identifiers(new):
        # "And how often is the filter changed?": an opener joins a question of its own,
        # which names nothing, to the previous one's subject.
        said = " ".join(w.lower for w in opener)
        return _complete(new, prev, rules, rest, [], f"{said!r} continues the previous question")
    if not references:
        return None
    if kin := _compared_with(new, references, prev, rules, conversation):
        return kin
    if judged := _judged(new, words, references, prev, rules):
        return judged
    own_action = new.action not in (previous.action, Action.LOOKUP)  # "what does that mean?"
    # "that code" for a code the previous answer introduced asks about it, not again
    answered = any(
        how == "noun"
        and (n := prev.nouns.get(w.lower)) is not None
        and n.text not in prev.perception.question
        for w, how in references
    )
    # "that precharge" for one the previous answer named: a noun of its own, not the
    # previous question again
    said_before = set(terms(previous.question))
    own_noun = any(
        how == "noun"
        and (w.lower not in prev.nouns or w.lower in prev.earlier)
        and not set(terms(w.text)) & said_before
        for w, how in references
    )
    if (
        not own_action
        and not answered
        and not own_noun
        and not _content(new, rest, rules, [w for w, _ in references])
    ):
        said = ", ".join(repr(w.text) for w, _ in references)
        return _again(new, prev, f"{said} with no attribute of its own: the previous question")
    figured = _figured(prev, rules, conversation, reread)
    return _complete(new, prev, rules, rest, references, "", figured)


def _figured(
    prev: _Previous,
    rules: FollowupRules,
    conversation: Sequence[TurnState],
    reread: Callable[[str], Perception] | None,
) -> Callable[[], _Previous | None]:
    """The turn whose figure a pronoun may stand for, found when asked: the previous one
    when it asked a figure, else the nearest turn of its topic that did ("why'd they
    change it" after a question about the seal's part number is about the seal interval
    asked before it)."""

    def find() -> _Previous | None:
        p = prev.perception
        if p.asks.answer_type == AnswerType.FIGURE or p.constraints.quantitative:
            return prev
        if reread is None or not prev.identifiers:
            return None
        return _nearest_asking(
            conversation, reread, rules, lambda p: p.asks.answer_type == AnswerType.FIGURE
        )

    return find


# --- "how does that compare with the GX-500?" ---------------------------------------------


def _compared_with(
    new: Perception,
    references: list[tuple[Word, str]],
    prev: _Previous,
    rules: FollowupRules,
    conversation: Sequence[TurnState],
) -> Rewrite | None:
    """A pronoun compared with a thing the question names stands for a thing of the same
    kind: the nearest in play ("How does that compare with the GX-500's oil change?" after
    turns about the HP-400's oil is the HP-400, not the previous question's words)."""
    own = _identifiers(new)
    if new.action != Action.COMPARE or not own or not conversation:
        return None
    named = {e.text for e in own}
    other = next((x for x in in_play(conversation, own[0].label) if x not in named), None)
    words = [w for w, how in references if how != "noun"]
    if other is None or not words:
        return None
    # "that" is the previous question's figure of it ("What motor does the AC-110
    # have?" then "How does that compare with the AC-75?" compares the motors)
    topic = _said_of(_topic(new, prev), rules)
    target = f"the {other} {topic}" if topic else f"the {other}"
    text = apply(new.question, [(w.start, w.end, target) for w in words])
    said = ", ".join(repr(w.text) for w in words)
    return Rewrite(end_with(text, ""), (f"{said} is {target}, compared with {own[0].text}",))


# --- "each", "both": every thing in play ---------------------------------------------------


def _every(
    new: Perception,
    rest: list[Word],
    prev: _Previous,
    rules: FollowupRules,
    conversation: Sequence[TurnState],
) -> Rewrite | None:
    """ "What bearing temperature limits apply to each?", "give me the motor power of
    both" after turns about the CP-200 and the CP-350: the word stands for every thing in
    play of the previous question's kind, each named, so that each is asked and answered
    (and one left out is seen as missing)."""
    ids = _identifiers(new)
    own = {e.label for e in ids}
    if own and (
        len({e.text for e in ids}) > 1
        or "MODEL" in own
        or not prev.identifiers
        or prev.identifiers[0].label in own
    ):
        # "each" of the things it names itself ("on the hp-400 and the gx-500, each?");
        # one code "on each of them" is asked of each thing in play
        return None
    blocked = [m.span() for m in rules.not_references.finditer(new.question)]
    spans = []
    for i, w in enumerate(rest):
        if w.lower not in rules.every or any(a <= w.start < b for a, b in blocked):
            continue
        # "each of them", "both of these": the pronoun is the things too
        after = rest[i + 1 : i + 3]
        of_them = (
            len(after) == 2
            and after[0].lower == "of"
            and (after[1].lower in rules.plural or after[1].lower in rules.demonstratives)
        )
        spans.append((w.start, after[1].end if of_them else w.end))
    # "these two compressors", "the two pumps"
    spans += [
        (w.start, rest[i + 1].end)
        for i, w in enumerate(rest[:-1])
        if (w.lower in rules.demonstratives or w.lower == "the") and rest[i + 1].lower == "two"
    ]
    if len(spans) != 1:
        return None
    in_turns = in_play(conversation) if conversation else ()
    label = (
        prev.identifiers[0].label
        if prev.identifiers
        else next((r.label for t in conversation for r in t.entities if r.text in in_turns), None)
    )
    if label is None:
        return None
    nearest = [e.text for e in prev.identifiers if e.label == label]
    named = in_play(conversation, label) if conversation else ()
    if not nearest and conversation and not conversation[0].followed:
        # the previous question stood alone naming nothing ("What is the action level?"):
        # the things in play are those of the turns before it
        named = in_play(conversation[1:], label)
    things = list(dict.fromkeys([*reversed(named), *nearest]))
    things = [*(t for t in things if t not in nearest), *nearest]
    if len(things) < 2:
        return None
    listed = ", the ".join(things[:-1]) + f" and the {things[-1]}"
    edits = [(*spans[0], f"the {listed}")]
    # "above it": the limit the previous answer named, else what the question asked
    limit = (conversation[0].limit if conversation else None) or (
        _topic(new, prev) if not prev.identifiers else None
    )
    its = [w for w in rest if w.lower == "it"]
    if limit and len(its) == 1:
        edits.append((its[0].start, its[0].end, f"the {limit}"))
    text = apply(new.question, edits)
    start = rest[0].start if rest else 0
    text = text[start:]
    text = text[:1].upper() + text[1:]
    said = new.question[spans[0][0] : spans[0][1]]
    reason = f"{said!r} is each of the things in play: {', '.join(things)}"
    return _finish(text, _context(new, prev, text, rules), [reason])


# --- "inspection intervals?": a fragment naming only what is asked ------------------------

_FRAGMENT_WORDS = 4
_CLAUSE_FRAGMENT_WORDS = 8
_CLAUSE_WORDS = lexicon.WordSet("lexicon", "clause_words")


def _fragment(
    new: Perception,
    words: list[Word],
    prev: _Previous,
    rules: FollowupRules,
    conversation: Sequence[TurnState] = (),
) -> Rewrite | None:
    """ "Inspection intervals?" after a question about pressure vessels: a few words
    naming an attribute and nothing else (no question word, no identifier) ask it of the
    previous subject. Words that name no attribute ("hmm ok") are no question and stay
    as asked.

    After a question about a named thing, a fragment asks of it whatever it names: no
    clause word (``lexicon.clause_words``: no verb, modal or pronoun that would give it
    a subject of its own), no identifier, acronym, product, source or document of its
    own, and two content words or an attribute ("bearing temp limit?", "coolant
    concentration and way-lube tank size?", "how much oil and what grade?" after turns
    about the CP-200, the VM-3000, the HP-400). A model is what has such attributes: of
    the things the previous question named, its models are the subject. A previous
    question that named nothing of its own ("the help desk sheet says 500 hours though,
    which is right?") went on with the topic before it, whose models are in play."""
    if not words or _identifiers(new):
        return None
    if rules.points_back(w.lower for w in words):
        return None  # "whats its top speed": the pronoun says whose; no fragment
    opens_wh = words[0].lower in lexicon.words("lexicon", "question_starts")
    previous = _in_play(prev, conversation)
    if not (subject := _fragment_subject(new, words, opens_wh, previous, rules, conversation)):
        return None
    if opens_wh:
        text, kept = new.question, [subject]
    else:
        text, kept = end_with(new.question.rstrip(" ?"), f" of the {subject}"), []
    text = text[:1].upper() + text[1:]
    return _finish(text, kept, [f"a fragment asking about the previous subject, {subject}"])


def _in_play(prev: _Previous, conversation: Sequence[TurnState]) -> _Previous:
    """``prev`` with the models in play as its identifiers when it stood alone naming
    nothing of its own (no identifier, acronym, product, source or document)."""
    if (
        prev.identifiers
        or _names_its_own(prev.perception)
        or not conversation
        or conversation[0].followed
    ):
        return prev  # a rewrite naming no model was about its topic
    models = in_play(conversation, "MODEL")
    if not models:
        return prev
    found = tuple(Entity(m, "MODEL", EntitySource.PATTERN, 0, 0) for m in models)
    return replace(prev, identifiers=found, topic="")


def _names_its_own(p: Perception) -> bool:
    """It names a thing of its own besides identifiers: an acronym or key, a product, a
    kind of document, a source."""
    asks = p.asks
    return bool(asks.named_terms or asks.products or asks.documents or p.constraints.source)


def _fragment_subject(
    new: Perception,
    words: list[Word],
    opens_wh: bool,
    prev: _Previous,
    rules: FollowupRules,
    conversation: Sequence[TurnState],
) -> str | None:
    """What a fragment asks about (see ``_fragment``; ``opens_wh``: it opens with a
    question word), or None when it is no fragment."""
    if len(words) <= _FRAGMENT_WORDS and not opens_wh and new.asks.attributes:
        # the original kind: an attribute alone, of the previous identifiers or topic
        subject = _subject(prev, plural=True) if prev.identifiers else _topic(new, prev)
        models = [e.text for e in prev.identifiers if e.label == "MODEL"]
        if len(models) == 1:
            # "chnage interval" after "cv12 gearbx oil how much": of the thing of the
            # model the previous question named ("cv12 gearbx oil"), not the machine
            return _model_thing(prev, new, models[0], rules)
        return " and ".join(models) if models else subject or None
    if not prev.identifiers or len(words) > _CLAUSE_FRAGMENT_WORDS:
        return None
    if any(w.lower in _CLAUSE_WORDS for w in words):
        return None
    if _names_its_own(new):
        return None
    content = [k for k in new.keywords if k not in lexicon.words("lexicon", "question_starts")]
    if len(content) < 2 and not new.asks.attributes:
        return None
    # a code has no coolant or tank: the models in play ("what does E3305 mean on it?"
    # after turns about the VM-3000 is about the VM-3000)
    models = [e.text for e in prev.identifiers if e.label == "MODEL"]
    models = models or list(in_play(conversation, "MODEL"))
    return " and ".join(models) if models else None


_THING_WORDS = 2


def _model_thing(prev: _Previous, new: Perception, model: str, rules: FollowupRules) -> str:
    """``model`` with the words right after it in the previous question that name a thing
    of it ("cv12 gearbx oil", "VM-3000 spindle"): content words, no figure, no question
    or clause word, no word naming an attribute of the new question or the previous."""
    p = prev.perception
    entity = next(e for e in prev.identifiers if e.text == model)
    asked = (*new.asks.attributes, *p.asks.attributes)
    thing: list[str] = []
    for w in split_words(p.question):
        if w.start < entity.end:
            continue
        gap = p.question[entity.end if not thing else w.start - 1 : w.start]
        if len(thing) == _THING_WORDS or gap.strip() or w.lower not in p.keywords:
            break
        if w.lower in _CLAUSE_WORDS or w.lower in lexicon.words("lexicon", "question_starts"):
            break
        if any(c.isdigit() for c in w.text) or any(a.named_in(set(terms(w.text))) for a in asked):
            break
        if any(w.lower in changes for changes in _CHANGED):
            break  # "hp400 oil change interval": a change is done, not a thing
        if any(w.lower in nouns for nouns in rules.kinds.values()) or names_part_number(w.text):
            break  # "the RA-6 part number" names what was asked, no thing
        thing.append(w.text)
    return " ".join([model, *thing])


def _compared_with_it(
    new: Perception, words: list[Word], rules: FollowupRules, conversation: Sequence[TurnState]
) -> Rewrite | None:
    """ "How many hydraulic systems does the A320 have compared with it?" after turns
    about the B737-800: a pronoun after a named thing, compared with it, is the thing in
    play of the same kind."""
    own = _identifiers(new)
    if not own or not conversation:
        return None
    its = [
        w
        for i, w in enumerate(words)
        if i > 0
        and w.start > own[0].start
        and w.lower in rules.pronouns
        and w.lower not in _POSSESSIVES
        and words[i - 1].lower in rules.compared_with
    ]
    named = {e.text for e in own}
    other = next((x for x in in_play(conversation, own[0].label) if x not in named), None)
    if len(its) != 1 or other is None:
        return None
    text = apply(new.question, [(its[0].start, its[0].end, f"the {other}")])
    return Rewrite(text, (f"{its[0].text!r} is {other}, compared with {own[0].text}",))


def _more_than_other(
    new: Perception,
    words: list[Word],
    prev: _Previous,
    rules: FollowupRules,
    conversation: Sequence[TurnState],
    reread: Callable[[str], Perception] | None,
) -> Rewrite | None:
    """ "Does the CP-350 need it done more often?" after turns about the CP-200's seal: a
    comparative said of one named thing, with "it" after it and nothing to compare with,
    compares that thing with the other in play of its kind; "it" is what was asked about
    (the seal), so that both figures are sought."""
    own = _identifiers(new)
    if new.asks.comparison is None or len({e.text for e in own}) != 1 or not conversation:
        return None
    if any(w.lower in rules.compared_with or w.lower == "or" for w in words):
        return None  # "than the 75", "A or B": it names what it compares with
    other = next((x for x in in_play(conversation, own[0].label) if x != own[0].text), None)
    its = [
        w
        for w in words
        if w.start > own[0].end and w.lower in rules.pronouns and w.lower not in rules.plural
    ]
    if other is None or len(its) != 1:
        return None
    # "more often": the topic of the turn that asked how often (a why came in between)
    asked = _how_often(words, prev, rules, conversation, reread)
    topic = _said_of(_topic(new, asked), rules)
    if not topic:
        return None
    target = f"the {topic}" if its[0].lower not in _POSSESSIVES else f"the {topic}'s"
    text = apply(new.question, [(its[0].start, its[0].end, target)])
    reasons = (f"{its[0].text!r} is {target}; compared with {other}, the other in play",)
    return Rewrite(end_with(text, f" than the {other}"), reasons)


# --- "it": the thing the previous answer gave --------------------------------------------

_EXCEEDED = lexicon.WordSet("lexicon", "exceeded")


def _the_value(
    new: Perception, words: list[Word], rules: FollowupRules, conversation: Sequence[TurnState]
) -> Rewrite | None:
    """ "How does it have to be stored?" after "What fluid do I top up the A320 with?"
    answered "phosphate ester fluid": "it" is the thing the answer gave, which stands
    alone (the aircraft it was asked for is not what is stored). "Once it's exceeded"
    after an answer naming a limit ("the 85 dB(A) action level") is that limit: a limit
    is what is exceeded."""
    exceeded = bool(_EXCEEDED & {w.lower for w in words})
    value = conversation[0].limit if exceeded else conversation[0].value
    if value is None or _identifiers(new):
        return None
    if not exceeded and new.asks.attributes:
        return None  # "fuel tank capacity on it?": a capacity is a machine's, not a fluid's
    it = _lone_it(new, words, rules)
    if it is None:
        return None
    text = apply(new.question, [(it.start, it.end, f"the {value}")])
    return Rewrite(text, (f"{it.text!r} is {value}, which the previous answer gave",))


def _lone_it(new: Perception, words: list[Word], rules: FollowupRules) -> Word | None:
    """The question's one singular, non-possessive pronoun ("it"), outside the phrases
    that refer to nothing (``not_references``); None if it has none or several."""
    blocked = [m.span() for m in rules.not_references.finditer(new.question)]
    its = [
        w
        for w in words
        if w.lower in rules.pronouns
        and w.lower not in rules.plural
        and not any(a <= w.start < b for a, b in blocked)
    ]
    if len(its) != 1 or its[0].lower in _POSSESSIVES:
        return None
    return its[0]


def _the_cause(
    new: Perception,
    words: list[Word],
    prev: _Previous,
    rules: FollowupRules,
    conversation: Sequence[TurnState],
) -> Rewrite | None:
    """ "How often should it be swapped?" after "Our RA-6 lost its calibration, why?"
    answered "If the battery runs flat …": a thing swapped or replaced (``part_verbs``)
    is no machine and no calibration — "it" is the thing the answer blamed, the model's
    ("the RA-6 battery")."""
    cause = conversation[0].cause
    if cause is None or _identifiers(new) or not rules.part_verbs & {w.lower for w in words}:
        return None
    it = _lone_it(new, words, rules)
    if it is None:
        return None
    # the model as the previous question named it, however typed ("ra6 lost its
    # calibration …, why")
    typed = [name for name, _, _ in prev.perception.written_models] or [
        w.text for w in split_words(prev.perception.question) if model_terms(terms(w.text))
    ]
    model = next((r.text for r in conversation[0].entities if r.label == "MODEL"), "")
    thing = f"{model or next(iter(typed), '')} {cause}".strip()
    text = apply(new.question, [(it.start, it.end, f"the {thing}")])
    return Rewrite(text, (f"{it.text!r} is the {thing}, which the previous answer blamed",))


# --- the turn an ellipsis continues ---------------------------------------------------------


def _asked_about(
    new: Perception,
    prev: _Previous,
    rules: FollowupRules,
    conversation: Sequence[TurnState],
    reread: Callable[[str], Perception] | None,
) -> _Previous:
    """The question "And E4031?" continues: the previous one, unless its asker named
    nothing and it only carried the code along ("What should the HP-400 precharge be
    (E4027)?" after "What should its precharge be?") — then the nearest earlier turn of
    the same topic whose asker named a code, as its question was searched. A previous
    asker who named something ("And E4031?" → "What does E4031 mean on the HP-400?")
    asked the whole of it, model included."""
    if not conversation or reread is None:
        return prev
    labels = {e.label for e in _identifiers(new)}
    if labels and not {e.label for e in prev.identifiers} & labels:
        # "ok and E4031?" after a turn that named no code ("how many litres is that
        # accumulator"): the nearest turn whose asker named one (else that named one) is
        # the question it continues
        turns = conversation[1:_LOOK_BACK]
        for by_asker in (True, False):
            for turn in turns:
                named = [r for r in turn.entities if not by_asker or r.text in turn.asked]
                if {r.label for r in named} & labels:
                    return _previous(reread(turn.question), rules)
        return prev
    if conversation[0].asked:
        return prev
    carried = {e.label for e in prev.identifiers if e.label in labels}
    if not carried:
        return prev
    # A fragment ("bearing temp limit?", rewritten "Bearing temp limit of the CP-200?")
    # asked its words of the thing it carried: "and on the 350?" asks them again. A
    # pronoun ("What should its precharge be?") only pointed back; a choice, a why or
    # another version asks no value of the thing.
    written = split_words(conversation[0].written)
    pointed = rules.points_back(w.lower for w in written)
    asks = prev.perception.asks
    own = not (asks.choice or asks.form == QuestionForm.WHY or prev.perception.constraints.history)
    if written and not pointed and own:
        return prev
    for turn in _topic_turns(conversation):
        asked = {r.label for r in turn.entities if r.text in turn.asked}
        if asked & carried:
            return _previous(reread(turn.question), rules)
    return prev


_LOOK_BACK = 4


def _topic_turns(conversation: Sequence[TurnState]) -> Iterator[TurnState]:
    """The previous topic's earlier turns, nearest first, at most ``_LOOK_BACK`` back:
    the topic began at the first turn that did not follow on from the one before."""
    for i, turn in enumerate(conversation[1:_LOOK_BACK], 1):
        if not conversation[i - 1].followed:
            return
        yield turn


def _nearest_asking(
    conversation: Sequence[TurnState],
    reread: Callable[[str], Perception],
    rules: FollowupRules,
    asks: Callable[[Perception], bool],
) -> _Previous | None:
    """The nearest of the topic's earlier turns whose question, read again, ``asks``."""
    for turn in _topic_turns(conversation):
        earlier = reread(turn.question)
        if asks(earlier):
            return _previous(earlier, rules)
    return None


# --- a comparison over the things in play ------------------------------------------------


def _compared(
    new: Perception,
    prev: _Previous,
    rules: FollowupRules,
    conversation: Sequence[TurnState],
    reread: Callable[[str], Perception] | None,
) -> Rewrite | None:
    """ "Which one is louder?" after turns about the AC-75 and the AC-110: a choice by a
    comparative that names nothing to choose from is asked of the things in play (the
    previous turn's identifiers and those of the turns it leaned on, of one kind), named
    as its sides. A pronoun in it ("which one needs it more often?") is the previous
    question's topic."""
    words = split_words(new.question)
    # "so the big one is louder by how much": a comparative said of "one" of the things,
    # with nothing named to compare with, is over the things in play as a choice is
    one = new.asks.comparison is not None and any(w.lower in ("one", "ones") for w in words)
    if one and any(w.lower in rules.compared_with for w in words):
        one = False  # "louder than the AC-75" names the other side
    if not (new.asks.choice or one) or _identifiers(new) or not prev.identifiers:
        return None
    if any(w.lower in rules.plural for w in words) and len(prev.identifiers) > 1:
        return None  # "which of them …": the pronoun names the previous things itself
    label = prev.identifiers[0].label
    named = in_play(conversation, label) if conversation else ()
    nearest = [e.text for e in prev.identifiers if e.label == label]
    # In the order the conversation brought them up: earlier turns' first (nearest last),
    # then the previous question's as it named them.
    sides = list(dict.fromkeys([*reversed(named), *nearest]))
    sides = [*(s for s in sides if s not in nearest), *nearest]
    if len(sides) < 2:
        return None
    topic = _topic(new, _how_often(words, prev, rules, conversation, reread))
    edits = [
        (w.start, w.end, f"the {topic}")
        for w in words
        if topic
        and w.lower in rules.pronouns
        and w.lower not in _POSSESSIVES
        and w.lower not in rules.plural  # "which of them": the things, not the topic
    ]
    text = apply(new.question, edits)
    joined = "or" if new.asks.choice else "and"  # "louder by how much": of both
    listed = ", the ".join(sides[:-1]) + f" {joined} the {sides[-1]}"
    reasons = [f"a choice among the things in play: {', '.join(sides)}"]
    if edits:
        reasons.append(f"'it' is the previous question's {topic}")
    return Rewrite(end_with(text, f", the {listed}"), tuple(reasons))


def _how_often(
    words: list[Word],
    prev: _Previous,
    rules: FollowupRules,
    conversation: Sequence[TurnState],
    reread: Callable[[str], Perception] | None,
) -> _Previous:
    """The turn whose topic a "which one needs it more often?" is about: the nearest of
    the topic's turns that asked how often (the previous one may have asked for a part
    number in between)."""
    p = prev.perception
    if not _OFTEN & {w.lower for w in words} or p.asks.measure == Measure.FREQUENCY:
        return prev
    if rules.interval_nouns & set(p.keywords):
        return prev  # "How does the HP-400 interval compare with …?" asked it too
    if reread is None:
        return prev
    asked = _nearest_asking(
        conversation, reread, rules, lambda p: p.asks.measure == Measure.FREQUENCY
    )
    return prev if asked is None else asked


def _asking(
    names: set[str],
    rules: FollowupRules,
    conversation: Sequence[TurnState],
    reread: Callable[[str], Perception] | None,
) -> _Previous | None:
    """The nearest earlier turn of the topic that asked about one of the attributes
    ``names``, or None."""
    if reread is None:
        return None
    return _nearest_asking(
        conversation, reread, rules, lambda p: bool(names & {a.name for a in p.asks.attributes})
    )


_OFTEN = frozenset(["often", "frequently"])
_POSSESSIVES = frozenset(["its", "their", "theirs"])


def _topic(new: Perception, prev: _Previous) -> str:
    """What the previous question asked about, in its words: the noun phrase it asks
    about (its focus) without identifiers, else its keywords that are no identifier, no
    noun naming an identifier's kind ("generator" in "the GX-500 generator"), and no
    word the new question says itself in any inflection ("change" for "changed")."""
    p = prev.perception
    names = {e.text.lower() for e in prev.identifiers}
    if p.asks.focus is not None:
        phrase = ARTICLE.sub("", p.asks.focus.phrase).split()
        # a focus read on a pronoun ("I" in "How often do I need to swap …") names nothing
        if kept := [w for w in phrase if w.lower() not in names and w.lower() not in _CLAUSE_WORDS]:
            return " ".join(kept)
    if prev.part:  # "the mechanical seal on the CP-200 pump": the seal, its model aside
        return prev.part.split(maxsplit=1)[1]
    own = set(terms(new.question))
    ids = _identifiers(p)
    # right after an identifier, not a possessive ("the GX-500's oil" keeps "oil")
    kinds = {
        w.lower
        for w in split_words(p.question)
        if any(e.end <= w.start and not p.question[e.end : w.start].strip() for e in ids)
    }
    kept = [
        k
        for k in p.keywords
        if k not in names and k not in kinds and not set(terms(k)) & own and not k[:1].isdigit()
    ]
    return " ".join(kept[:_TOPIC_WORDS])


def _said_of(topic: str, rules: FollowupRules) -> str:
    """``topic`` without the words that say which version or judge it ("old", "still",
    "valid"): what the thing asked about is called."""
    drop = rules.revision | rules.vague | rules.judgements
    return " ".join(w for w in topic.split() if w.lower() not in drop)


def _figure(topic: str, prev: _Previous, rules: FollowupRules) -> str:
    """``topic`` as the figure the previous question asked: "seal interval" for "How
    often do I swap the seal?" (a seal is not what changes, its interval is)."""
    frequency = prev.perception.asks.measure == Measure.FREQUENCY
    if frequency and topic and not set(topic.lower().split()) & rules.interval_nouns:
        return f"{topic} interval"
    return topic


# --- another version of the previous answer, or why it changed ----------------------------


def _revised(
    new: Perception,
    prev: _Previous,
    rules: FollowupRules,
    conversation: Sequence[TurnState],
    reread: Callable[[str], Perception] | None,
) -> Rewrite | None:
    """ "What did the old revision say?", "Before the change?", "Why was it reduced?": a
    question with no words of its own but version words (a pronoun, vague words and the
    previous identifiers aside) asks about the previous question's subject in another
    version — the previous question again with the version it names — or, asking why,
    about why that subject changed: its pronoun is the previous subject's topic (a figure
    is what changes, not the pump)."""
    names = {e.text.lower() for e in prev.identifiers}
    own = [e for e in _identifiers(new) if e.text.lower() not in names]
    words = split_words(new.question)
    said = {w.lower for w in words}
    content = {
        k
        for k in new.keywords
        if k in said and k not in names and k not in rules.vague and k not in rules.pronouns
    }
    # words of the previous question ("the seal" again) restate its subject, and a noun
    # for an interval its figure when it asked how often
    restated = set(terms(prev.perception.question))
    if prev.perception.asks.measure == Measure.FREQUENCY:
        restated |= rules.interval_nouns
    moved = any(k in changes for k in content for changes in _CHANGED)
    unsaid = {k for k in content if not set(terms(k)) & restated}
    # "what did the old revision say for the interval": an attribute it names picks the
    # topic's turn that asked it (below)
    unsaid = {k for k in unsaid if not any(a.named_in(set(terms(k))) for a in new.asks.attributes)}
    if versioned_as := rules.revision_phrases.search(new.question):
        unsaid -= {w.lower for w in split_words(versioned_as.group(0))}  # "rev 1"
    if own or not all(k in rules.revision or any(k in c for c in _CHANGED) for k in unsaid):
        return None
    phrase = rules.revision_phrases.search(new.question)
    why = new.asks.form == QuestionForm.WHY
    p = prev.perception
    # "How come it got longer?", or a bare "Why?" after a question about another version
    # ("What was the interval before 2024?"): why the figure changed
    versioned = prev.version or p.constraints.history or p.constraints.time is not None
    changed = why and (moved or versioned)
    now = new.constraints.latest and not why  # "And what does it say now?"
    if not (new.constraints.history or phrase or new.constraints.time or changed or now):
        return None
    if why:
        # "they" in "why did they cut it?" is whoever changed it; "it" is the figure
        references = [w for w in words if w.lower in rules.pronouns and w.lower not in rules.plural]
        topic = _said_of(_topic(new, prev), rules)
        topic = _figure(topic, prev, rules)
        if not topic and prev.identifiers and reread is not None:
            # "why was it raised?" after "has it always been that figure?": the figure of
            # the topic's turn that asked one (a machine is not what is raised)
            figured = _nearest_asking(
                conversation, reread, rules, lambda p: p.asks.answer_type == AnswerType.FIGURE
            )
            topic = (
                _figure(_said_of(_topic(new, figured), rules), figured, rules) if figured else ""
            )
        subject = _subject(prev, plural=False)
        target = (
            f"the {subject} {topic}" if prev.identifiers and topic else f"the {topic or subject}"
        )
        if not references:
            if content or not versioned:
                return None
            text = f"Why was {target} changed?"
        else:
            text = apply(new.question, [(w.start, w.end, target) for w in references])
        # the reason for a change is in the version that made it, not the one asked before
        kept = [
            c
            for c in _context(new, prev, text)
            if p.constraints.time is None or c != p.constraints.time.text
        ]
        return _finish(text, kept, [f"'it' is {target}, which changed"])
    version = phrase.group(0) if phrase else ""
    if phrase is not None and not new.question[: phrase.start()].strip():
        version = version[:1].lower() + version[1:]  # "Before the change?"
    # A why question asks no value, a choice no one thing: another version of either is
    # the value asked before it ("What did the old revision say for the CP-200?").
    asks = prev.perception.asks
    if (asks.form == QuestionForm.WHY or asks.choice) and reread and len(conversation) > 1:
        prev = _previous(reread(conversation[1].question), rules)
    asked = {a.name for a in new.asks.attributes}
    if asked and not asked & {a.name for a in prev.perception.asks.attributes}:
        # "What did the older manual say about how often?" after a part number: the
        # topic's turn that asked how often, or no version follow-up of the previous one
        found = _asking(asked, rules, conversation, reread)
        if found is None:
            # "what grade was in rev 1" asked of nothing before: its own question, of
            # the thing in play
            kept = [e.text for e in prev.identifiers if e.text not in new.question]
            if not kept:
                return None
            return _finish(new.question, kept, ["another version of the thing in play"])
        prev = found
    elif reread is not None:
        # the version's own words ("change" in "before the change") say nothing of the
        # subject: an earlier question about oil changes is not what they ask of
        version_words = set(terms(phrase.group(0))) if phrase else set()
        own_words = set(terms(new.question)) - names - version_words
        prev = _saying(own_words, prev, rules, conversation, reread)
    timed = new.constraints.time
    span = find(new.question, timed.text) if timed is not None else None
    if timed is not None and (
        timed.text in version
        or (
            phrase is not None
            and span is not None
            and span[0] < phrase.end()
            and phrase.start() < span[1]
        )
    ):  # "in the 2019" of "in the 2019 manual": the version says it
        new = replace(new, constraints=replace(new.constraints, time=None))
    again = _again(new, prev, "asks the previous question of another version")
    old_time = prev.perception.constraints.time
    if (
        now
        and not version
        and old_time is not None
        and (span := find(again.question, old_time.text))
    ):
        # the current version: the year the previous question asked of goes
        text = (again.question[: span[0]] + again.question[span[1] :]).strip(" ,")
        text = " ".join(text.replace(" ,", ",").split())
        text = text[:1].upper() + text[1:]
        return Rewrite(text, (*again.reasons, f"{old_time.text!r} left out: now is asked"))
    if not version or find(again.question, version):
        return again
    version = "in " + version if ARTICLE.match(version) else version
    return Rewrite(end_with(again.question, f" {version}"), (*again.reasons, f"{version!r} added"))


def _saying(
    words: set[str],
    prev: _Previous,
    rules: FollowupRules,
    conversation: Sequence[TurnState],
    reread: Callable[[str], Perception],
) -> _Previous:
    """The turn of the topic a version question's own words ask about: the nearest one
    whose question says more of them than the previous one ("What did the 2019 manual
    say for the oil change?" after a question about the sump goes back to the oil change
    turn), else the previous one."""
    most = len(words & set(terms(prev.perception.question)))
    for turn in _topic_turns(conversation):
        if len(words & set(terms(turn.question))) > most:
            return _previous(reread(turn.question), rules)
    return prev


def _why_changed(new: Perception, prev: _Previous, rules: FollowupRules) -> Rewrite | None:
    """ "Why was the oil interval shortened?" after turns about the HP-400, naming nothing
    and pointing at nothing: asks why the HP-400's figure changed, so the model in play is
    carried (without it, another machine's reason answers)."""
    if new.asks.form != QuestionForm.WHY or _identifiers(new) or not prev.identifiers:
        return None
    words = split_words(new.question)
    if rules.points_back(w.lower for w in words):
        return None
    if not any(w.lower in changes for w in words for changes in _CHANGED):
        return None
    kept = [e.text for e in prev.identifiers if e.text not in new.question]
    reason = "a change asked about names nothing: the things in play are carried"
    return _finish(new.question, kept, [reason])


def _challenged(
    new: Perception,
    prev: _Previous,
    rules: FollowupRules,
    conversation: Sequence[TurnState],
    reread: Callable[[str], Perception] | None,
) -> Rewrite | None:
    """ "The help desk sheet says 500 hours though, which is right?" naming nothing: a
    figure from elsewhere set against the one given, asked of the topic's turn that asked
    for a figure of its kind (how often for hours) — that question again, with the
    figure challenged after it, so that the sentence stating the change can answer; when
    no turn asked a figure of that kind, the previous question is the one challenged."""
    if _identifiers(new) or not prev.identifiers or reread is None:
        return None
    if not lexicon.pattern("lexicon", "challenges_a_figure").search(new.question):
        return None
    stated = {dimension(q.unit) for q in quantities(new.question) if q.unit}
    if not stated:
        return None

    def asks_it(p: Perception) -> bool:
        timed = "duration" in stated and p.asks.measure in (Measure.FREQUENCY, Measure.DURATION)
        units = {dimension(u) for u in (*p.asks.attribute_units, *p.constraints.units)}
        return timed or bool(stated & units)

    found = prev if asks_it(prev.perception) else None
    # no turn asked a figure of that kind ("30 %" after "how long do I run the load
    # test"): the previous question is the thing the figure is said of
    found = found or _nearest_asking(conversation, reread, rules, asks_it) or prev
    asked = end_with(found.perception.question, "")
    text = f"{asked[:1].upper()}{asked[1:]} {new.question[:1].upper()}{new.question[1:]}"
    return Rewrite(text, ("a figure set against the one given: its question asked again",))


_CHANGED = tuple(
    lexicon.WordSet("lexicon", name) for name in ("changed_down", "changed_up", "changed_other")
)
"""Words that say a figure changed ("shortened", "cut", "revised"): a why question with
one asks why the previous figure changed."""


# --- the previous question --------------------------------------------------------------


def _previous(p: Perception, rules: FollowupRules) -> _Previous:
    seen: dict[str, Entity] = {}
    for e in p.entities:
        if e.source == EntitySource.PATTERN and e.text not in seen:
            seen[e.text] = e
    identifiers = tuple(seen.values())
    names = {i.text.lower() for i in identifiers}
    # "How long is a hot work permit valid for?": the permit, not "permit valid"
    topic = " ".join(
        [k for k in p.keywords if k not in names and k not in rules.judgements][:_TOPIC_WORDS]
    )
    words = split_words(p.question)
    nouns: dict[str, Entity] = {}
    for entity in identifiers:
        for noun in rules.kinds.get(entity.label, ()):
            nouns.setdefault(noun, entity)
        after = [w for w in words if w.start >= entity.end][:2]
        before = [w for w in words if w.end <= entity.start][-1:]
        for w in before + after:
            if w.lower in p.keywords and w.lower not in names:
                nouns.setdefault(w.lower, entity)
    time = p.constraints.time
    span = find(p.question, time.text) if time is not None else None
    version = span is not None and any(
        m.start() < span[1] and span[0] < m.end()
        for m in rules.revision_phrases.finditer(p.question)
    )
    part = _part(p, words)
    # "them" after "the B737-800 hydraulic pressure filters"; a singular noun after a
    # model's name is as often the machine itself ("the GX-500 generator")
    behind = _part_after(p, words)
    things = behind if _plural(behind) else _up_to_plural(behind)
    if not things:
        # "torque spec for hp400 platen bolts?": a plural after the name needs no article
        # (a verb is no plural: "does B737-800 need"), and "how many hydraulic systems
        # does the 737-800 have" asks of a plural thing of the model
        loose = _part_after(p, words, article=False)
        focus = p.asks.focus.phrase if p.asks.focus is not None else ""
        models = [e.text for e in identifiers if e.label == "MODEL"]
        if _plural(loose):
            things = loose
        elif len(models) == 1 and _plural(focus) and not set(focus.lower().split()) & names:
            things = f"{models[0]} {ARTICLE.sub('', focus)}"
    return _Previous(
        p, identifiers, topic if not identifiers else "", nouns, version, part=part, things=things
    )


_PLACES = lexicon.WordSet("lexicon", "part_of_model")
_PARTICIPLE = re.compile(r"\w{2,}(?<!e)ed")
_PART_WORDS = 4


def _part(p: Perception, words: list[Word]) -> str:
    """The part of a model ``p`` asks about, written before where it is ("the seal on the
    CP-200 pump", "the controller backup battery of the RA-6"), with the model's name
    before it ("CP-200 seal"); "" when there is none or the phrase names what is asked
    of the model ("the payload of the RA-6", "the noise level of the AC-75")."""
    for entity in (e for e in _identifiers(p) if e.label == "MODEL"):
        before = [w for w in words if w.end <= entity.start]
        while before and before[-1].lower in ARTICLES:
            before = before[:-1]
        if len(before) < 3 or before[-1].lower not in _PLACES:
            continue
        phrase: list[Word] = []
        for w in reversed(before[:-1]):
            if w.lower in ARTICLES:
                break
            if len(phrase) == _PART_WORDS or not terms(w.text) or any(c.isdigit() for c in w.text):
                return ""
            if w.lower in _CLAUSE_WORDS or w.lower in lexicon.words("lexicon", "question_starts"):
                return ""
            if _PARTICIPLE.fullmatch(w.lower):
                return ""  # "the coolant replaced on the VM-3000": a verb, no part
            phrase.insert(0, w)
        else:
            return ""  # no article: "how often do I swap seals on …" names no one thing
        said = set(terms(" ".join(w.text for w in phrase)))
        if not phrase or any(a.named_in(said) for a in p.asks.attributes):
            return ""
        return f"{entity.text} {' '.join(w.text for w in phrase)}"
    return ""


_PREPOSITIONS = lexicon.WordSet("lexicon", "prepositions")


def _part_after(p: Perception, words: list[Word], article: bool = True) -> str:
    """The part of a model ``p`` asks about, written after the model's name ("the
    B737-800 hydraulic pressure filters", "the AC-75 receiver tank"), with the name:
    the nouns after it up to a verb, a preposition or the end; "" when there are none,
    or they name what is asked of the model ("the AC-75 noise level")."""
    for entity in (e for e in _identifiers(p) if e.label == "MODEL"):
        before = [w for w in words if w.end <= entity.start][-1:]
        if article and (not before or before[0].lower not in ARTICLES):
            continue  # "the B737-800 filters" is a thing; "does B737-800 need" a model
        phrase: list[Word] = []
        for w in (w for w in words if w.start >= entity.end):
            lower = w.lower
            if (
                len(phrase) == _PART_WORDS
                or not terms(w.text)
                or any(c.isdigit() for c in w.text)
                or lower in _CLAUSE_WORDS
                or lower in lexicon.words("lexicon", "question_starts")
                or lower in _PREPOSITIONS
                or lower in ARTICLES
                or _PARTICIPLE.fullmatch(lower)
            ):
                break
            phrase.append(w)
        said = set(terms(" ".join(w.text for w in phrase)))
        if phrase and any(a.named_in(said) for a in p.asks.attributes):
            # "the hp400 platen bolts torque spec": the bolts are a thing, the torque what
            # is asked of them; "the AC-75 noise level" names no thing
            plural = _up_to_plural(" ".join(w.text for w in phrase))
            asked = set(terms(plural))
            if not plural or any(a.named_in(asked) for a in p.asks.attributes):
                return ""
            return f"{entity.text} {plural}"
        if not phrase:
            return ""
        return f"{entity.text} {' '.join(w.text for w in phrase)}"
    return ""


def _up_to_plural(phrase: str) -> str:
    """``phrase`` up to its last plural noun ("hp400 platen bolts" of "hp400 platen bolts
    torque spec"), else "": the things a "them" stands for, before what was asked of them."""
    words = phrase.split()
    for end in range(len(words) - 1, 0, -1):
        if _plural(" ".join(words[:end])):
            return " ".join(words[:end])
    return ""


def _plural(phrase: str) -> bool:
    """Whether a noun phrase names several things: its last word is a plural ("platen
    bolts", not "glass")."""
    last = phrase.split()[-1].lower() if phrase.split() else ""
    return last.endswith("s") and not last.endswith("ss") and last not in _NOT_PLURAL


_NOT_PLURAL = lexicon.WordSet("lexicon", "not_plural")


def _with_answered(
    prev: _Previous, rules: FollowupRules, conversation: Sequence[TurnState]
) -> _Previous:
    """``prev`` with the identifiers its answer introduced as referents of their kind's
    nouns, after the question's own: "that part" after an answer naming P/N 88-2041-07
    is that part number when the question named none."""
    if not conversation:
        return prev
    models = [e for e in prev.identifiers if e.label == "MODEL"]
    several: tuple[str, ...] = ()
    if len(models) == 1 and not (prev.part and _plural(prev.part)):
        for turn in conversation[1:_LOOK_BACK]:
            named = tuple(r.text for r in turn.entities if r.label == "MODEL")
            if len(named) > 1:
                several = named
                break
    machine = next((e.text for e in prev.identifiers if e.label == "MODEL"), "")
    # "E4027 on the press, what does it mean" answered "On the HP-400 press, …": the
    # model the answer named is the machine in play when no question named one
    for turn in conversation[:_LOOK_BACK] if not machine else ():
        said = [*(turn.entities if turn is not conversation[0] else ()), *turn.answered]
        machine = next((r.text for r in said if r.label == "MODEL"), "")
        if machine or (turn is not conversation[0] and not turn.entities):
            break  # the nearest turn naming something: a model, or another topic
    prev = replace(prev, said=conversation[0].said, several=several, machine=machine)
    nouns = dict(prev.nouns)
    for r in conversation[0].answered:
        for noun in rules.kinds.get(r.label, ()):
            nouns.setdefault(noun, Entity(r.text, r.label, EntitySource.PATTERN, 0, 0))
    one_model = {e.text for e in prev.identifiers if e.label == "MODEL"}
    earlier: set[str] = set()
    if len(one_model) == 1 and len(prev.identifiers) == 1:
        # "what speed does the belt run at" after "belt tension spec on the cv-12" and
        # two turns on its gearbox: a noun the topic's turns wrote beside the one model
        # in play is that model's (after the previous question's own)
        for turn in _topic_turns(conversation):
            for noun, r in _turn_nouns(turn):
                if r.text in one_model and noun not in nouns:
                    nouns[noun] = Entity(r.text, r.label, EntitySource.PATTERN, 0, 0)
                    earlier.add(noun)
    return replace(prev, nouns=nouns, earlier=frozenset(earlier))


def _turn_nouns(turn: TurnState) -> Iterator[tuple[str, Referent]]:
    """The content words a kept turn wrote as one phrase with a model it named ("the
    cv-12 belt", "belt tension spec on the cv-12"), read from the kept text alone."""
    words = split_words(turn.question)
    for r in turn.entities:
        if r.label != "MODEL":
            continue
        for m in re.finditer(rf"(?<![\w-]){re.escape(r.text)}(?![\w-])", turn.question):
            after = [w for w in words if w.start >= m.end()][:_THING_WORDS]
            before = [w for w in words if w.end <= m.start()]
            while before and (before[-1].lower in ARTICLES or before[-1].lower in _PLACES):
                before = before[:-1]  # "belt tension spec on the cv-12"
            for run in (after, before[::-1][: _PART_WORDS - 1]):
                for w in run:
                    if not _noun_like(w):
                        break
                    yield w.lower, r


def _noun_like(w: Word) -> bool:
    """A content word that may name a thing: no figure, clause, question word or
    preposition."""
    lower = w.lower
    return bool(
        terms(w.text)
        and not any(c.isdigit() for c in w.text)
        and lower not in _CLAUSE_WORDS
        and lower not in lexicon.words("lexicon", "question_starts")
        and lower not in _PREPOSITIONS
        and lower not in ARTICLES
    )


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


def _opener(words: list[Word], rules: FollowupRules) -> list[Word]:
    """The opener the question starts with ("and on", "what about"), with the fillers
    said before it ("ok and"), else []."""
    said = 0
    while said < len(words) and words[said].lower in rules.fillers:
        said += 1
    lower = tuple(w.lower for w in words[said:])
    for opener in rules.openers:  # longest first
        if lower[: len(opener)] == opener:
            return words[: said + len(opener)]
    return []


def _identifiers(p: Perception) -> list[Entity]:
    return [e for e in p.entities if e.source == EntitySource.PATTERN]


def _restated(p: Perception) -> set[str]:
    """The identifier kinds a question names itself; a bare number standing for a model
    ("the 737's filters") restates the model."""
    return {e.label for e in _identifiers(p)} | ({"MODEL"} if p.numbered_models else set())


def _content(new: Perception, rest: list[Word], rules: FollowupRules, references) -> set[str]:
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
    new: Perception, rest: list[Word], prev: _Previous, rules: FollowupRules
) -> list[tuple[Word, str]]:
    """The words that point back, with how: "pronoun", "alone", "noun" (a demonstrative or
    "the" before a noun for a previous identifier). Only before the first identifier."""
    identifiers = _identifiers(new)
    first = min((e.start for e in identifiers), default=len(new.question))
    blocked = [m.span() for m in rules.not_references.finditer(new.question)]
    found: list[tuple[Word, str]] = []
    for i, w in enumerate(rest):
        if w.start >= first:
            break
        if any(a <= w.start < b for a, b in blocked):
            continue
        after = rest[i + 1] if i + 1 < len(rest) else None
        before = rest[i - 1] if i > 0 else None
        # "the valve that leaks": after a noun, "that" starts a clause and points nowhere
        clause = before is not None and (
            before.lower in new.keywords or before.lower in rules.relative_after
        )
        if w.lower in rules.pronouns:
            found.append((w, "pronoun"))
        elif w.lower == "same" and before is not None and before.lower == "the":
            # "is the same true of the HP-500?", "does the same apply to …?"; not "is the
            # filter p/n the same in both" (said of a subject of its own) nor "at the same
            # pressure" (a noun's, behind a preposition)
            subject = any(
                x.lower in new.keywords and x.lower not in rules.vague for x in rest[: i - 1]
            )
            governed = i > 1 and rest[i - 2].lower in rules.same_governors
            of_noun = governed and after is not None and after.lower in new.keywords
            if not subject and not of_noun:
                found.append((w, "alone"))
        elif w.lower == "same" and after is not None and after.lower in prev.nouns:
            found.append((after, "noun"))  # "same code on the AC-110?": that code
        elif w.lower == "the" and not identifiers:
            if after is not None and after.lower in prev.nouns:  # "the code", "the press"
                found.append((after, "noun"))
        elif w.lower in rules.demonstratives and not clause:
            # "is that longer than …?": the comparative is no noun of "that"
            comparison = new.asks.comparison
            compared = bool(after and comparison and after.lower == comparison.word.lower())
            if after is None or after.lower in rules.alone_before or compared:  # "is that normal?"
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
    own = list(dict.fromkeys(e.text for e in _identifiers(new) if e.text not in p.question))
    run = [e for e in _identifiers(p) if e.text in p.asks.side_by_side]
    if len(own) == 1 and len(run) > 1:
        # "What about the AC-150?" after a question asking the same of the AC-75 and the
        # AC-110 asks it of the AC-150 alone: the rest of the run goes.
        edits.append((run[0].end, run[-1].end, ""))
        replaced |= {e.text for e in run[1:]}
        reasons.append(f"{own[0]} alone in place of {', '.join(e.text for e in run)}")
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
    span = find(p.question, old_time.text) if old_time is not None else None
    if time is not None and span is not None and old_time is not None:
        said = old_time.text.split()
        # "in 2023" then "what about 2021?": in 2021 (the bare year keeps its preposition)
        keep = said[0] + " " if time.text[:1].isdigit() and said[0].isalpha() else ""
        edits.append((*span, keep + time.text))
        reasons.append(f"{time.text!r} replaces {old_time.text!r}")
    text = apply(text, edits)
    extra = f" ({', '.join(added)})" if added else ""
    if added:
        reasons.append(f"{', '.join(added)} added")
    if time is not None and span is None:
        extra += f" {time.text}"
        reasons.append(f"{time.text!r} added")
    return Rewrite(end_with(text, extra), tuple(reasons))


def _complete(
    new: Perception,
    prev: _Previous,
    rules: FollowupRules,
    rest: list[Word],
    references: list[tuple[Word, str]],
    why: str,
    figured: Callable[[], _Previous | None] | None = None,
) -> Rewrite:
    """The new question with each reference replaced by (or joined with) the previous
    subject, and what it does not restate of the previous question appended.

    A pronoun agrees with what it stands for: a plural one is several things (the models
    of an earlier turn, the plural thing asked about) and never one model — "why do they
    make you do it" is whoever makes you, left as said; and no pronoun stands for a
    thing the question names itself ("what fluid do I top it up with on the A320": "it"
    is not the A320)."""
    restated = frozenset(_restated(new))
    own_names = {e.text.lower() for e in _identifiers(new)}
    edits, reasons = [], [why] if why else []
    dropped: set[str] = set()  # the one model a plural does not stand for
    for word, how in references:
        if how == "noun":
            named = prev.nouns.get(word.lower)
            target = named.text if named else _subject(prev, plural=False, skip=restated)
            if named is None and any(
                e.text == target and e.label == "ERROR_CODE" for e in prev.identifiers
            ):
                # "that accumulator" after a code: a code has no accumulator, the machine
                # in play has; with none known, the noun is left as said, the code not kept
                dropped.add(target)
                if not prev.machine:
                    continue
                target = prev.machine
            # "that filter" after an answer naming "the oil filter": that one
            own = set(terms(new.question))
            after = [w for w in rest if w.start > word.start][:1]
            # "that flush filter": the asker said which one
            modified = bool(after and terms(after[0].text) and after[0].lower in new.keywords)
            found = None if named or modified else answered_phrase(word.text, prev.said, own)
            if found:
                target = f"{target} {found.rsplit(maxsplit=1)[0]}"
            edits.append((word.start, word.start, f"{target} "))  # "the HP-400 press"
            reasons.append(f"{word.text!r} is {target} from the previous question")
            continue
        plural = word.lower in rules.plural
        subject = _subject(prev, plural=plural, skip=restated)
        if subject.lower() in own_names and not prev.part:
            continue  # "top it up … on the a320": "it" is no A320 the question names
        before = [w for w in rest if w.end <= word.start][-1:]
        before_machine = bool(before and before[0].lower in rules.machine_verbs)
        if before_machine and not plural:
            # "before restarting it": a machine is restarted, not its error code
            subject = prev.machine or subject
        elif (
            not plural
            and prev.machine
            and (word.lower in _POSSESSIVES or (rest and word.start == rest[0].start))
            and _is_code(subject, prev)
            and not rules.code_verbs & {w.lower for w in rest}
            and not new.asks.attributes
        ):
            # "It lost its calibration over the shutdown" after a code: a code is shown,
            # cleared or means something (``code_verbs``); what does something else as
            # the subject, or owns something, is the machine in play
            dropped.add(subject)
            subject = prev.machine
            before_machine = True
        elif not plural and prev.machine and _code_cannot_own(new, subject, prev, rules):
            # "whats its max payload?" after a code: a code has no payload, its machine has
            dropped.add(subject)
            subject = prev.machine
            before_machine = True
        elif (
            word.lower == "it"
            and before
            and before[0].lower in rules.activity_verbs
            and (task := _task(new, prev, rules))
        ):
            # "why do they make you do it": the task asked about, not the machine
            edits.append((word.start, word.end, f"the {task}"))
            reasons.append(f"{word.text!r} is the {task}, the task asked about")
            continue
        elif word.lower == "it" and (figure := _figure_of(new, rest, word, prev, rules, figured)):
            # "wasnt it 750 before?", "why did easa change it": a figure is what is
            # compared with a number and what is changed — the one asked before
            edits.append((word.start, word.end, figure))
            reasons.append(f"{word.text!r} is {figure}, the figure asked before")
            continue
        if not before_machine and _bound_here(new, rest, word, rules):
            # "guy went home with his lock still on, can a supervisor take it off": the
            # question's own lock, not the previous subject
            reasons.append(f"{word.text!r} is the thing the question names before it")
            continue
        possessive = word.lower in _POSSESSIVES
        if (
            prev.part
            and not before_machine
            and _plural(prev.part) == plural
            and (not possessive or _owns_attribute(new, rest, word))
            and subject == prev.part.split()[0]
        ):
            # "what's its part number?" after the seal on the CP-200 is the seal's, and
            # "if it goes flat" the seal; "its air filter" is the pump's
            subject = prev.part
        elif (
            plural
            and prev.things
            and not possessive
            and not before_machine
            and subject == prev.things.split()[0]
        ):
            # "anything that means changing them early?" after the B737-800's filters
            subject = f"the {prev.things}"
            edits.append((word.start, word.end, subject))
            reasons.append(f"{word.text!r} is {subject} from the previous question")
            continue
        elif plural and prev.several and " and " not in subject and not before_machine:
            # "why do their tanks need draining?" after a question about one model: the
            # several models a turn before it named, not the one
            subject = " and the ".join(prev.several)
            dropped |= {e.text for e in prev.identifiers if e.label == "MODEL"}
        elif word.lower == "they" and " and " not in subject and prev.identifiers:
            # one thing does nothing as "they": whoever makes you or changed it, left as
            # said ("their payloads" after one robot is still the robot's)
            continue
        if subject == prev.part and not possessive:
            subject = f"the {subject}"
        edits.append((word.start, word.end, f"the {subject}" if possessive else subject))
        reasons.append(f"{word.text!r} is {subject} from the previous question")
    start = rest[0].start if rest else len(new.question)
    text = apply(new.question, edits)[start:]
    text = text[:1].upper() + text[1:]
    context = [c for c in _context(new, prev, text, rules) if c not in dropped]
    codes = {e.text for e in prev.identifiers if e.label == "ERROR_CODE"}
    if (
        prev.machine
        and "MODEL" not in restated
        and any(c in text for c in codes)
        and prev.machine.lower() not in text.lower()
        and prev.machine not in context
    ):
        # a code is a machine's: "how do i fix it" after E4031 on the press is asked of
        # the HP-400 the conversation named (its question or an answer)
        context.append(prev.machine)
    return _finish(text, context, reasons)


def _bound_here(new: Perception, rest: list[Word], word: Word, rules: FollowupRules) -> bool:
    """Whether the object pronoun ``word`` ("take it off", "to clean it": after a verb)
    stands for a thing the question names itself in an earlier clause, opened by a
    determiner ("his lock", "a pit"; ``followup.determiners``) — no identifier, figure,
    name, document or vague word ("the change")."""
    if word.lower in _POSSESSIVES or word.lower not in rules.pronouns:
        return False
    before = [w for w in rest if w.end <= word.start]
    last = before[-1] if before else None
    if (
        last is None
        or not terms(last.text)
        or last.lower in STOPWORDS
        or last.lower in _PREPOSITIONS
    ):
        return False  # "how loud is it", "next to it", "above it": no object of a verb
    clause = next(
        (
            i
            for i in range(len(before) - 1, -1, -1)
            # "to" opens a clause, not after "have", "need" ("have to do")
            if (
                before[i].lower in rules.clause_breaks
                and not (i and before[i - 1].lower in rules.semi_modals)
            )
            or any(c in ",;:?!" for c in new.question[before[i].end : word.start][:1])
        ),
        None,
    )
    if clause is None:
        return False
    names = {e.text.lower() for e in _identifiers(new)}
    earlier = before[: clause + 1]
    return any(
        a.lower in rules.determiners
        and terms(b.text)
        and b.text.islower()
        and not any(c.isdigit() for c in b.text)
        and b.lower not in names | rules.vague | rules.pronouns | _DOCUMENTS
        for a, b in zip(earlier, earlier[1:], strict=False)
    )


def _code_on_it(
    new: Perception, words: list[Word], prev: _Previous, rules: FollowupRules
) -> Rewrite | None:
    """ "getting E5120 on it now" after turns about the RA-6: a code the question names
    with "it" where the code shows ("on it", ``part_of_model``) is on the machine in
    play — a code is shown on a machine, never on itself."""
    own = _identifiers(new)
    if not own or any(e.label != "ERROR_CODE" for e in own) or not prev.machine:
        return None
    it = _lone_it(new, words, rules)
    if it is None or it.start < own[0].end:
        return None
    before = [w for w in words if w.end <= it.start][-1:]
    if not before or before[0].lower not in _PLACES:
        return None
    text = apply(new.question, [(it.start, it.end, f"the {prev.machine}")])
    text = text[:1].upper() + text[1:]
    return Rewrite(text, (f"{it.text!r} is the {prev.machine}, where {own[0].text} shows",))


def _task(new: Perception, prev: _Previous, rules: FollowupRules) -> str | None:
    """The task the previous question asked about with its model ("gx-500 load test"
    for "how long do I run the gx-500 load test each month"), else None."""
    models = [e.text for e in prev.identifiers if e.label == "MODEL"]
    if len(models) != 1:
        return None
    thing = _model_thing(prev, new, models[0], rules)
    return thing if thing != models[0] else None


def _is_code(subject: str, prev: _Previous) -> bool:
    return any(e.text == subject and e.label == "ERROR_CODE" for e in prev.identifiers)


def _code_cannot_own(new: Perception, subject: str, prev: _Previous, rules: FollowupRules) -> bool:
    """Whether ``subject`` is an error code and ``new`` asks an attribute a code does not
    have (``code_attributes``): a payload, a speed, a capacity are a machine's."""
    code = any(e.text == subject and e.label == "ERROR_CODE" for e in prev.identifiers)
    asked = {a.name for a in new.asks.attributes}
    return code and bool(asked) and not asked & rules.code_attributes


def _figure_of(
    new: Perception,
    rest: list[Word],
    word: Word,
    prev: _Previous,
    rules: FollowupRules,
    figured: Callable[[], _Previous | None] | None = None,
) -> str | None:
    """What "it" is when it stands for the figure the previous question asked ("the
    leap-1a fan blade inspection interval"): the question states a number of its own
    to compare "it" with, or "it" is what a change word acts on ("change it", "cut
    it"); else None."""
    numbers = [n for n in new.asks.numbers if not _YEAR.fullmatch(f"{n:g}")]
    before = [w for w in rest if w.end <= word.start][-1:]
    changed = bool(before) and any(before[0].lower in c for c in _CHANGED)
    if not numbers and not changed:
        return None
    found = figured() if figured is not None else prev
    return _asked_figure(new, found, rules) if found is not None else None


def _judged(
    new: Perception,
    words: list[Word],
    references: list[tuple[Word, str]],
    prev: _Previous,
    rules: FollowupRules,
) -> Rewrite | None:
    """ "Is that still valid?", "is it right?" after a question asking a figure: a
    judgement of "it" or "that" is of the figure given ("Is the LEAP-1A fan blade
    inspection interval still valid?"), not of the thing it was asked of."""
    # "that figure" names the figure itself: the judged one is the other reference
    references = [r for r in references if not (r[1] == "noun" and r[0].lower in rules.revision)]
    if len(references) != 1 or _identifiers(new) or new.constraints.time is not None:
        return None
    word, how = references[0]
    if how not in ("pronoun", "alone") or word.lower not in _SINGULAR:
        return None
    if not rules.judgements & {w.lower for w in words}:
        return None
    figure = _asked_figure(new, prev, rules)
    if figure is None:
        return None
    text = apply(new.question, [(word.start, word.end, figure)])
    text = text[:1].upper() + text[1:]
    return _finish(
        text, _context(new, prev, text), [f"{word.text!r} is {figure}, the figure asked before"]
    )


_SINGULAR = frozenset(["it", "that", "this"])


def _asked_figure(new: Perception, prev: _Previous, rules: FollowupRules) -> str | None:
    """The figure the previous question asked of the thing it named ("the leap-1a fan
    blade inspection interval"), else None (it asked no figure, or named nothing)."""
    p = prev.perception
    if not prev.identifiers:
        return None
    if p.asks.answer_type != AnswerType.FIGURE and not p.constraints.quantitative:
        return None  # it asked no figure and stated none
    topic = _said_of(_topic(new, prev), rules)
    if prev.things:
        # "torque spec for hp400 platen bolts?": the figure is the bolts' ("the hp400
        # platen bolts torque spec"), not the model's with the bolts after it
        own = set(prev.things.lower().split())
        topic = " ".join(w for w in topic.split() if w.lower() not in own)
    if not topic:
        return None
    owner = prev.things or _subject(prev, plural=False)
    return f"the {owner} {_figure(topic, prev, rules)}"


def _owns_attribute(new: Perception, rest: list[Word], possessive: Word) -> bool:
    """Whether what ``possessive`` owns ("its part number", not "its air filter") names
    an attribute the question asks: a part has attributes; a part's own parts are the
    model's."""
    if names_part_number(new.question[possessive.end :]):
        return True
    after = [w for w in rest if w.start > possessive.start][:_PART_WORDS]
    said = set(terms(" ".join(w.text for w in after)))
    return any(a.named_in(said) for a in new.asks.attributes)


def _context(
    new: Perception, prev: _Previous, text: str, rules: FollowupRules | None = None
) -> list[str]:
    """What the new question keeps from the previous one without saying it: identifiers
    of a kind it does not restate, the time, the named source. With ``rules``, a code is
    not kept for an attribute no code has ("grease qty and interval for both pumps" after
    a question about E1140)."""
    restated = _restated(new)
    p = prev.perception
    kept_entities = [e for e in prev.identifiers if e.label not in restated and e.text not in text]
    asked = {a.name for a in new.asks.attributes}
    codes_only = bool(kept_entities) and all(e.label == "ERROR_CODE" for e in kept_entities)
    if rules is not None and asked and not asked & rules.code_attributes:
        kept_entities = [e for e in kept_entities if e.label != "ERROR_CODE"]
        if codes_only and prev.machine and prev.machine not in text:
            return [prev.machine, *_kept_constraints(new, prev)]
    kept = [e.text for e in kept_entities]
    if (
        kept_entities
        and all(e.label == "ERROR_CODE" for e in kept_entities)
        and p.asks.answer_type == AnswerType.MEANING
        and prev.machine
        and prev.machine not in text
    ):
        # "and coolant concentration?" after what E3301 and E3305 mean: no code's
        # meaning is asked, and a code has no coolant — the machine in play is the subject
        kept = [prev.machine]
    return [*kept, *_kept_constraints(new, prev)]


def _kept_constraints(new: Perception, prev: _Previous) -> list[str]:
    """The time and the source of the previous question the new one keeps."""
    p, kept = prev.perception, []
    # A version the previous question asked of ("in the 2021 rule") was asked for its
    # figure: a new subject ("And retraining?") is asked of what applies now.
    if p.constraints.time is not None and new.constraints.time is None and not prev.version:
        kept.append(p.constraints.time.text)
    # a question naming a document of its own ("the manual's standard interval") asks
    # it, not the source the previous one named
    own_document = any(w.lower in _DOCUMENTS for w in split_words(new.question))
    if p.constraints.source and not new.constraints.source and not own_document:
        kept.append(f"according to {p.constraints.source}")
    return kept


_DOCUMENTS = lexicon.WordSet("lexicon", "followup_documents")


def _finish(text: str, context: list[str], reasons: list[str]) -> Rewrite:
    if context:
        reasons.append("kept from the previous question: " + ", ".join(context))
    return Rewrite(end_with(text, f" ({', '.join(context)})" if context else ""), tuple(reasons))
