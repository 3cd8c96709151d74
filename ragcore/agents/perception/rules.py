"""The perception rules file (``rules/perception.toml``), loaded into validated patterns.

The shipped file is overlaid top-level key by key with the caller's; every problem is
reported with the file, the key and the reason.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragcore.errors import ConfigError
from ragcore.types import Action

DEFAULT_RULES = Path(__file__).resolve().parents[2] / "rules" / "perception.toml"


_NEVER = re.compile(r"(?!)")


_MATCHED = (
    "quantitative",
    "direct",
    "multi_hop",
    "latest",
    "history",
    "earlier",
    "not_dates",
)  # phrases/patterns


# The [followup] word lists: those that tell a follow-up from a question of its own ...
_FOLLOWUP_REFERENCE_WORDS = (
    "openers",
    "pronouns",
    "plural",
    "demonstratives",
    "alone_before",
    "same_governors",
    "vague",
    "relative_after",
    "fillers",
)
# ... those that say whether a pronoun stands for a thing the question names itself ...
_FOLLOWUP_BINDING_WORDS = ("determiners", "clause_breaks", "semi_modals")
# ... and those that say which kind of follow-up it is (a version, every thing in play, …)
_FOLLOWUP_KIND_WORDS = (
    "revision",
    "interval_nouns",
    "every",
    "machine_verbs",
    "part_verbs",
    "activity_verbs",
    "code_verbs",
    "compared_with",
    "code_attributes",
    "judgements",
)
_FOLLOWUP_WORDS = _FOLLOWUP_REFERENCE_WORDS + _FOLLOWUP_BINDING_WORDS + _FOLLOWUP_KIND_WORDS


# The type and allowed keys of each top-level key of a rules file (None: any key).
_SCHEMA: dict[str, tuple[type, frozenset[str] | None]] = {
    "default_action": (str, None),
    "actions": (list, frozenset({"name", "phrases", "patterns"})),
    "entities": (list, frozenset({"label", "pattern"})),
    "units": (dict, None),
    "source": (dict, frozenset({"phrases"})),
    "comparison": (dict, frozenset({"conjunctions", "stopwords"})),
    "keywords": (dict, frozenset({"stopwords"})),
    "followup": (
        dict,
        frozenset(
            _FOLLOWUP_WORDS
            + ("not_references", "kinds", "bare", "revision_phrases", "topic_switch")
        ),
    ),
    **{key: (dict, frozenset({"phrases", "patterns"})) for key in _MATCHED},
}


@dataclass(frozen=True)
class FollowupRules:
    """The ``[followup]`` table: when a question leans on the previous one (lowercase)."""

    openers: tuple[tuple[str, ...], ...]
    """Word sequences, longest first."""
    pronouns: frozenset[str]
    plural: frozenset[str]
    demonstratives: frozenset[str]
    alone_before: frozenset[str]
    vague: frozenset[str]
    not_references: re.Pattern[str]
    kinds: dict[str, frozenset[str]]
    """Identifier label -> nouns that name such an identifier."""
    bare: dict[str, str]
    """A whole question (its words, lowercase, space-joined) -> a template with {subject}."""
    relative_after: frozenset[str] = frozenset()
    """Words after which "that" starts a clause and points nowhere ("anything that
    means …", "something that …"), as after a noun."""
    revision: frozenset[str] = frozenset()
    """Words that ask only which version or why it changed ("old", "revision", "say")."""
    revision_phrases: re.Pattern[str] = _NEVER
    """The version a question names ("before the change", "the old revision")."""
    compared_with: frozenset[str] = frozenset()
    """Words before the thing compared with ("compared with it", "than it")."""
    machine_verbs: frozenset[str] = frozenset()
    """Verbs whose "it" is a machine, not a code ("before restarting it")."""
    part_verbs: frozenset[str] = frozenset()
    """Verbs done to a part ("swapped", "replaced"): after a why question, "it" is the
    thing the answer blamed."""
    activity_verbs: frozenset[str] = frozenset()
    """Verbs whose object is a task, not a machine ("why do they make you do it"): their
    "it" is the task asked about (the GX-500 load test)."""
    same_governors: frozenset[str] = frozenset()
    """Prepositions before "the same <noun>" ("at the same pressure"): the phrase is a
    noun's, not "the same" standing for the previous question ("does the same apply")."""
    code_verbs: frozenset[str] = frozenset()
    """Words said of an error code ("mean", "clear", "reset"): an "it" after a code in a
    question with none of them is the machine ("it lost its calibration")."""
    every: frozenset[str] = frozenset()
    """Words that stand for every thing in play ("apply to each?", "of both")."""
    interval_nouns: frozenset[str] = frozenset()
    """Nouns that restate a "how often" question's figure ("What was the interval before
    2024?" after "How often should the CP-200 seal be replaced?")."""
    code_attributes: frozenset[str] = frozenset()
    """The attributes (``rules/attributes.toml`` names) an error code has: the figure it
    trips at. "its payload" after a code is the machine's."""
    judgements: frozenset[str] = frozenset()
    """Words judging a figure ("still valid?", "is that right?"): "it" is the figure."""
    topic_switch: re.Pattern[str] = _NEVER
    """What opens a question on another topic ("unrelated -", "new topic:")."""
    fillers: frozenset[str] = frozenset()
    """Words said before an opener that add nothing ("ok and E4031?", "right, and the
    350?"): the opener still opens the question."""
    determiners: frozenset[str] = frozenset()
    """Words that open a noun phrase of a thing ("his lock", "a pit"): one named in an
    earlier clause of the question is what its "it" stands for."""
    clause_breaks: frozenset[str] = frozenset()
    """Words that open a clause ("to clean it", "if the guy …, who can take it off"):
    where a pronoun's own clause begins."""
    semi_modals: frozenset[str] = frozenset()
    """Verbs a "to" after which opens no clause ("have to do", "need to check")."""

    def points_back(self, lowered: Iterable[str]) -> bool:
        """Whether any of these words (lowercase) is a pronoun or a demonstrative: the
        words point back at something said before ("its", "that")."""
        return any(w in self.pronouns or w in self.demonstratives for w in lowered)


_NONE: frozenset[str] = frozenset()
NO_FOLLOWUP = FollowupRules((), _NONE, _NONE, _NONE, _NONE, _NONE, _NEVER, {}, {})


@dataclass(frozen=True)
class Rules:
    default_action: Action
    actions: tuple[tuple[Action, re.Pattern[str]], ...]
    entities: tuple[tuple[str, re.Pattern[str]], ...]
    units: tuple[tuple[str, re.Pattern[str]], ...]
    source: re.Pattern[str]
    match: dict[str, re.Pattern[str]]  # one per _MATCHED section
    conjunctions: tuple[tuple[str, ...], ...]
    side_stopwords: frozenset[str]
    stopwords: frozenset[str]
    followup: FollowupRules = NO_FOLLOWUP


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

    def followup(self, table: dict) -> FollowupRules:
        words = {
            k: tuple(w.lower() for w in self.strings(table, k, f"followup.{k}"))
            for k in _FOLLOWUP_WORDS
        }
        kinds, bare = table.get("kinds", {}), table.get("bare", {})
        if not isinstance(kinds, dict):
            raise self.fail("followup.kinds", kinds, "expected a table: label = [nouns]")
        if not isinstance(bare, dict) or not all(
            isinstance(t, str) and "{subject}" in t for t in bare.values()
        ):
            why = "expected a table: question = template with {subject}"
            raise self.fail("followup.bare", bare, why)
        return FollowupRules(
            openers=tuple(sorted({tuple(o.split()) for o in words["openers"]}, key=len)[::-1]),
            pronouns=frozenset(words["pronouns"]),
            plural=frozenset(words["plural"]),
            demonstratives=frozenset(words["demonstratives"]),
            alone_before=frozenset(words["alone_before"]),
            vague=frozenset(words["vague"]),
            relative_after=frozenset(words["relative_after"]),
            not_references=self.matcher(
                {"patterns": table.get("not_references", [])}, "followup.not_references"
            ),
            kinds={
                label: frozenset(
                    w.lower() for w in self.strings(kinds, label, f"followup.kinds.{label}")
                )
                for label in kinds
            },
            bare={" ".join(q.lower().split()): t for q, t in bare.items()},
            revision=frozenset(words["revision"]),
            revision_phrases=self.matcher(
                {"patterns": table.get("revision_phrases", [])}, "followup.revision_phrases"
            ),
            interval_nouns=frozenset(words["interval_nouns"]),
            every=frozenset(words["every"]),
            machine_verbs=frozenset(words["machine_verbs"]),
            part_verbs=frozenset(words["part_verbs"]),
            activity_verbs=frozenset(words["activity_verbs"]),
            same_governors=frozenset(words["same_governors"]),
            code_verbs=frozenset(words["code_verbs"]),
            compared_with=frozenset(words["compared_with"]),
            code_attributes=frozenset(words["code_attributes"]),
            judgements=frozenset(words["judgements"]),
            fillers=frozenset(words["fillers"]),
            determiners=frozenset(words["determiners"]),
            clause_breaks=frozenset(words["clause_breaks"]),
            semi_modals=frozenset(words["semi_modals"]),
            topic_switch=self.matcher(
                {"patterns": table.get("topic_switch", [])}, "followup.topic_switch"
            ),
        )

    def words(self, table: dict, key: str) -> frozenset[str]:
        words = self.strings(table.get(key, {}), "stopwords", f"{key}.stopwords")
        return frozenset(w.lower() for w in words)


def load_rules(path: Path) -> Rules:
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
    if (default_action := Action.parse(data["default_action"])) is None:
        raise r.fail("default_action", data["default_action"], f"use one of {Action.values()}")
    actions, entities = [], []
    for i, rule in enumerate(data["actions"]):
        if (action := Action.parse(rule.get("name"))) is None:
            raise r.fail(f"actions[{i}].name", rule.get("name"), f"use one of {Action.values()}")
        actions.append((action, r.matcher(rule, f"actions[{i}]")))
    for i, rule in enumerate(data["entities"]):
        if not isinstance(label := rule.get("label"), str) or not label:
            raise r.fail(f"entities[{i}].label", label, "use a label such as 'MODEL'")
        entities.append((label, r.regex(rule.get("pattern"), f"entities[{i}].pattern", 0)))
    named_source = _NEVER
    if phrases := r.strings(data["source"], "phrases", "source.phrases"):
        # The capitalised words after the phrase: "according to the FAA" -> "FAA".
        words = r"([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})"
        named_source = re.compile(rf"(?i:{_phrases(phrases)})\s+(?:(?i:the)\s+)?{words}")
    conjunctions = r.strings(data["comparison"], "conjunctions", "comparison.conjunctions")
    units = data["units"]
    return Rules(
        default_action=default_action,
        actions=tuple(actions),
        entities=tuple(entities),
        units=tuple((u, r.matcher({"phrases": units[u]}, f"units.{u}")) for u in units),
        source=named_source,
        match={key: r.matcher(data[key], key) for key in _MATCHED},
        conjunctions=tuple(tuple(c.lower().split()) for c in conjunctions),
        side_stopwords=r.words(data, "comparison"),
        stopwords=r.words(data, "keywords"),
        followup=r.followup(data.get("followup", {})),
    )
