"""What a question asks about, and whether a text addresses it: the attribute table.

``rules/attributes.toml`` names each attribute's words and units. A question asks for
an attribute when its content terms include one of the attribute's words; a text
addresses the attribute when it uses one of them too, or gives a figure in one of its
units. Generation answers only from sentences that address what was asked, and
validation reports an answer that addresses none of it.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ragcore.errors import ConfigError
from ragcore.text.identifiers import MODEL_START
from ragcore.text.quantities import quantities
from ragcore.text.terms import terms
from ragcore.text.units import dimension, in_units

_CHANGE_VERB = re.compile(r"\b(?:lower|raise|higher|increase|reduce)(?:ed|s|ing)\b", re.IGNORECASE)
Direction = Literal["higher", "lower"]
_BEFORE_MODEL = re.compile(rf"\s+{MODEL_START}")  # "… DR-60", "… XR40"
_KEYS = frozenset(
    {
        "words",
        "answered_by",
        "answered_by_patterns",
        "units",
        "not_in",
        "units_not_with",
        "example_questions",
        "example_answers",
    }
)
DEFAULT_ATTRIBUTES = Path(__file__).resolve().parents[1] / "rules" / "attributes.toml"


@dataclass(frozen=True)
class Attribute:
    name: str
    words: tuple[frozenset[str], ...]
    """Each word or phrase as its content terms; a phrase matches when all are present."""
    units: frozenset[str]
    not_in: tuple[str, ...] = ()
    """Phrases in which a word names something else ("pressure vessel")."""
    units_not_with: frozenset[str] = frozenset()
    """Terms that make a figure in the unit another quantity ("payload" for kg)."""
    answered_by: tuple[frozenset[str], ...] = ()
    """Words that address the attribute in an answer but do not ask for it ("daily")."""
    answered_by_patterns: tuple[re.Pattern[str], ...] = ()
    """Regular expressions that do the same ("every 500 brews")."""
    example_questions: tuple[str, ...] = ()
    """Questions that ask for it (the rules test runs them)."""
    example_answers: tuple[str, ...] = ()
    """Texts that address it."""

    def named_in(self, text_terms: Iterable[str]) -> bool:
        present = set(text_terms)
        return any(word <= present for word in self.words)

    def addressed_by(self, text: str, asked: AbstractSet[str] = frozenset()) -> bool:
        """``text`` names the attribute or gives a figure in one of its units (one that
        is not, by the text's own words, another quantity — unless the question, whose
        terms are ``asked``, names that quantity too: "the safe working load in
        kilograms")."""
        text_terms = set(terms(text))
        if self.named_in(text_terms) or any(w <= text_terms for w in self.answered_by):
            return True
        if any(p.search(text) for p in self.answered_by_patterns):
            return True
        if text_terms & self.units_not_with - asked:
            return False
        return any(in_units(q.unit, self.units) for q in quantities(text))


@dataclass(frozen=True)
class Comparatives:
    """Words that put two figures in order and which one they say is larger ("louder":
    the higher figure), with the dimensions whose figures a word orders the other way
    ("faster" for a duration: the shorter time)."""

    words: Mapping[str, Direction] = field(default_factory=dict)
    by_dimension: Mapping[str, Mapping[str, Direction]] = field(default_factory=dict)

    def find(self, text: str) -> tuple[str, Direction] | None:
        """The first comparative word of ``text`` and its usual direction, preferring one
        that does not describe the model it stands before ("The smaller DR-60 turns
        faster": "faster"; "The quieter AC-75 …" alone: "quieter")."""
        found = [
            (bool(_BEFORE_MODEL.match(text, m.end())), m.group(0).lower())
            for m in re.finditer(r"[a-z]+", text, re.IGNORECASE)
            if m.group(0).lower() in self.words
        ]
        if not found:
            return None
        word = min(found, key=lambda f: f[0])[1]  # stable: the first of the preferred kind
        return word, self.words[word]

    def direction(self, word: str, unit: str | None) -> Direction | None:
        """Which figure ``word`` says is larger when the figures are in ``unit``."""
        if unit is not None and word in (turned := self.by_dimension.get(dimension(unit), {})):
            return turned[word]
        return self.words.get(word)


@dataclass(frozen=True)
class AttributeTable:
    attributes: tuple[Attribute, ...]
    contrasts: tuple[tuple[frozenset[str], ...], ...] = ()
    """Sets of sides of which a question names one ("low" | "high"; "cooling" | "heating
    heater"), each side its alternative words as terms."""
    comparatives: Comparatives = field(default_factory=Comparatives)

    def contrast(self, asked_terms: AbstractSet[str], text: str) -> tuple[str, str] | None:
        """(asked, said) when ``text`` names another word of a contrast set than the one
        the question (its terms: ``asked_terms``) names, and not that one; None when they
        agree."""
        # "lowered from 85 to 83 dB(A)" changes a figure; it names no lower one.
        unchanged = _CHANGE_VERB.sub(" ", text)
        said_terms = set(terms(unchanged))
        for sides in self.contrasts:
            asked = [side for side in sides if side & asked_terms]
            said = [side for side in sides if side & said_terms]
            if asked and said and not set(asked) & set(said):
                return min(asked[0] & asked_terms), min(said[0] & said_terms)
        return None

    def asked_in(self, question: str) -> tuple[Attribute, ...]:
        """The attributes ``question`` asks about (none: it asks for no particular one)."""
        lowered = question.lower()
        return tuple(a for a in self.attributes if a.named_in(terms(_without(lowered, a.not_in))))


@functools.cache
def default_attributes() -> AttributeTable:
    """The shipped table, read once on first use (importing reads no file)."""
    return load_attributes()


def addresses(
    attributes: Iterable[Attribute], text: str, asked_terms: AbstractSet[str] = frozenset()
) -> bool:
    """Whether ``text`` addresses one of ``attributes`` (true when there are none);
    ``asked_terms``: the question's (see ``Attribute.addressed_by``)."""
    asked = tuple(attributes)
    return not asked or any(a.addressed_by(text, asked_terms) for a in asked)


def load_attributes(path: Path | str | None = None) -> AttributeTable:
    """The attribute table of ``path`` (None: the shipped ``rules/attributes.toml``)."""
    path = DEFAULT_ATTRIBUTES if path is None else Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError("attributes_path", str(path), f"cannot read the file ({exc})") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError("attributes_path", str(path), f"not valid TOML: {exc}") from exc
    comparatives = _comparatives(data.pop("comparatives", {}), path)
    contrasts = data.pop("contrasts", [])
    if not isinstance(contrasts, list) or not all(isinstance(c, list) for c in contrasts):
        fix = f"contrasts must be a list of lists of words ({path})"
        raise ConfigError("attributes_path", str(path), fix)
    sets = tuple(
        tuple(frozenset(terms(w)) for w in _strings(c, f"contrasts[{i}]", path) if terms(w))
        for i, c in enumerate(contrasts)
    )
    attributes = []
    for name, table in data.items():
        if not isinstance(table, dict) or set(table) - _KEYS:
            fix = f"[{name}] must be a table with 'words' and optionally {sorted(_KEYS)} ({path})"
            raise ConfigError("attributes_path", str(path), fix)
        words = _strings(table.get("words"), f"[{name}].words", path)
        units = _strings(table.get("units", []), f"[{name}].units", path)
        not_in = _strings(table.get("not_in", []), f"[{name}].not_in", path)
        unlike = _strings(table.get("units_not_with", []), f"[{name}].units_not_with", path)
        answered = _strings(table.get("answered_by", []), f"[{name}].answered_by", path)
        where = f"[{name}].answered_by_patterns"
        patterns = tuple(
            _pattern(p, where, path)
            for p in _strings(table.get("answered_by_patterns", []), where, path)
        )
        examples = {
            key: tuple(_strings(table.get(key, []), f"[{name}].{key}", path))
            for key in ("example_questions", "example_answers")
        }
        stemmed = tuple(frozenset(terms(w)) for w in words if terms(w))
        if not stemmed:
            fix = f"[{name}].words has no content word; name the attribute's words ({path})"
            raise ConfigError("attributes_path", str(path), fix)
        attributes.append(
            Attribute(
                name,
                stemmed,
                frozenset(units),
                tuple(p.lower() for p in not_in),
                frozenset(t for w in unlike for t in terms(w)),
                tuple(frozenset(terms(w)) for w in answered if terms(w)),
                patterns,
                **examples,
            )
        )
    return AttributeTable(tuple(attributes), sets, comparatives)


def _comparatives(data: object, path: Path) -> Comparatives:
    """``[comparatives]``: ``higher``/``lower`` word lists, and per-dimension tables."""
    if not isinstance(data, dict):
        fix = f"[comparatives] must be a table of 'higher' and 'lower' word lists ({path})"
        raise ConfigError("attributes_path", str(path), fix)

    def directions(table: dict, where: str) -> dict[str, Direction]:
        if set(table) - {"higher", "lower"}:
            fix = f"{where} takes only 'higher' and 'lower' word lists ({path})"
            raise ConfigError("attributes_path", str(path), fix)
        return {
            w.lower(): direction
            for direction in ("higher", "lower")
            for w in _strings(table.get(direction, []), f"{where}.{direction}", path)
        }

    flat = {k: v for k, v in data.items() if not isinstance(v, dict)}
    turned = {
        k: directions(v, f"[comparatives.{k}]") for k, v in data.items() if isinstance(v, dict)
    }
    return Comparatives(directions(flat, "[comparatives]"), turned)


def _strings(value: object, where: str, path: Path) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        fix = f"{where} must be a list of non-empty strings ({path})"
        raise ConfigError("attributes_path", str(path), fix)
    return value


def _pattern(text: str, where: str, path: Path) -> re.Pattern[str]:
    try:
        return re.compile(text, re.IGNORECASE)
    except re.error as exc:
        fix = f"{where}: {text!r} is not a regular expression ({exc}) ({path})"
        raise ConfigError("attributes_path", str(path), fix) from exc


def _without(text: str, phrases: tuple[str, ...]) -> str:
    for phrase in phrases:
        text = text.replace(phrase, " ")
    return text
