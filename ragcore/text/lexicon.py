"""Rules as data: named word sets and named patterns read from ``ragcore/rules/*.toml``.

One loader serves every rules file of word sets and patterns (the way spaCy's span ruler
and Vale keep patterns as data): a module asks for ``words("lexicon", "frame")`` or
``pattern("lexicon", "clause_break")`` instead of spelling a list or a regex out in
Python. A file is read and checked once, on first use (importing reads nothing).

A file holds two kinds of tables::

    [words.frame]
    about = "Words that frame a claim rather than state it."
    words = ["require", "requires", "say", ...]

    [patterns.clause_break]
    about = "Where one claim of a statement ends and another begins."
    regex = ',\\s+and\\s+|;\\s+'
    flags = "i"                      # optional: i (ignore case), m (multiline), x (verbose)
    matches = ["cleaned, and dried"]  # texts the pattern must find (re.search)
    rejects = ["cleaned and dried"]   # texts it must not

In a regex, ``{words.NAME}`` stands for the word set NAME of the same file as an
alternation, longest first, escaped: word lists stay lists, not regex branches. Every
pattern carries examples; ``tests/ragcore/rules/test_rule_files.py`` runs them all. A bad
entry is a ``ConfigError`` naming the file and the key.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from typing import overload

from ragcore.errors import ConfigError

RULES_DIR = Path(__file__).resolve().parents[1] / "rules"
# The rules files of word sets and patterns (the others have schemas of their own).
LEXICON_FILES = ("lexicon", "words")
_FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "x": re.VERBOSE}
_WORD_REF = re.compile(r"\{words\.([a-z_][a-z0-9_]*)\}")
_PATTERN_KEYS = frozenset({"about", "regex", "flags", "matches", "rejects"})
_WORDS_KEYS = frozenset({"about", "words"})


@dataclass(frozen=True)
class PatternRule:
    """A named pattern with the texts it must and must not find."""

    name: str
    regex: re.Pattern[str]
    about: str
    matches: tuple[str, ...]
    rejects: tuple[str, ...]


@dataclass(frozen=True)
class RuleFile:
    """The word sets and patterns of one rules file."""

    path: Path
    words: Mapping[str, tuple[str, ...]]
    patterns: Mapping[str, PatternRule]


@functools.cache
def rule_file(name: str) -> RuleFile:
    """The shipped ``rules/<name>.toml``, read and checked once."""
    return load_rule_file(RULES_DIR / f"{name}.toml")


def words(file: str, name: str) -> tuple[str, ...]:
    """The word set ``name`` of ``rules/<file>.toml``, as written."""
    found = rule_file(file)
    if name not in found.words:
        raise ConfigError(f"{found.path.name}:words.{name}", None, "no such word set")
    return found.words[name]


class WordSet(AbstractSet[str]):
    """The word set ``name`` of ``rules/<file>.toml`` as a set, read on first use: a
    module constant that costs nothing at import (``STOPWORDS = WordSet("words",
    "stopwords")``). Set operations with it give frozensets."""

    def __init__(self, file: str, name: str) -> None:
        self.file, self.name = file, name

    def words(self) -> frozenset[str]:
        """The words, as a frozenset (read and checked on first use)."""
        return _frozen_words(self.file, self.name)

    def __contains__(self, word: object) -> bool:
        return word in _frozen_words(self.file, self.name)

    def __iter__(self) -> Iterator[str]:
        return iter(_frozen_words(self.file, self.name))

    def __len__(self) -> int:
        return len(_frozen_words(self.file, self.name))

    def __repr__(self) -> str:
        return f"WordSet({self.file!r}, {self.name!r})"

    @classmethod
    def _from_iterable(cls, it: Iterable[str]) -> frozenset[str]:  # type: ignore[override]
        return frozenset(it)


@functools.cache
def _frozen_words(file: str, name: str) -> frozenset[str]:
    return frozenset(words(file, name))


class Patterns(Sequence[re.Pattern[str]]):
    """The patterns ``names`` of ``rules/<file>.toml`` in that order, compiled on first
    use: a module constant that costs nothing at import."""

    def __init__(self, file: str, names: tuple[str, ...]) -> None:
        self.file, self.names = file, names

    def _compiled(self) -> tuple[re.Pattern[str], ...]:
        return _patterns(self.file, self.names)

    @overload
    def __getitem__(self, index: int) -> re.Pattern[str]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[re.Pattern[str]]: ...
    def __getitem__(self, index: int | slice) -> re.Pattern[str] | Sequence[re.Pattern[str]]:
        return self._compiled()[index]

    def __iter__(self) -> Iterator[re.Pattern[str]]:
        return iter(self._compiled())

    def __len__(self) -> int:
        return len(self.names)

    def __repr__(self) -> str:
        return f"Patterns({self.file!r}, {self.names!r})"


@functools.cache
def _patterns(file: str, names: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    return tuple(pattern(file, name) for name in names)


def pattern(file: str, name: str) -> re.Pattern[str]:
    """The compiled pattern ``name`` of ``rules/<file>.toml``."""
    found = rule_file(file)
    if name not in found.patterns:
        raise ConfigError(f"{found.path.name}:patterns.{name}", None, "no such pattern")
    return found.patterns[name].regex


def load_rule_file(path: Path) -> RuleFile:
    """Read and check a rules file of word sets and patterns (see the module docstring)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(path.name, str(path), f"cannot read the file ({exc})") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(path.name, str(path), f"not valid TOML: {exc}") from exc
    unknown = set(data) - {"words", "patterns"}
    if unknown:
        fix = "a rules file holds only [words.NAME] and [patterns.NAME] tables"
        raise ConfigError(f"{path.name}:{sorted(unknown)[0]}", None, fix)
    word_sets = {
        name: _word_set(table, f"{path.name}:words.{name}")
        for name, table in _tables(data.get("words", {}), f"{path.name}:words").items()
    }
    patterns = {
        name: _pattern(name, table, word_sets, f"{path.name}:patterns.{name}")
        for name, table in _tables(data.get("patterns", {}), f"{path.name}:patterns").items()
    }
    return RuleFile(path, word_sets, patterns)


def _tables(value: object, where: str) -> dict[str, dict]:
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise ConfigError(where, None, "must be tables, one per name ([words.NAME])")
    return value


def _word_set(table: dict, where: str) -> tuple[str, ...]:
    if set(table) - _WORDS_KEYS or "words" not in table:
        raise ConfigError(where, sorted(table), f"takes {sorted(_WORDS_KEYS)}, 'words' required")
    found = _strings(table["words"], f"{where}.words")
    repeated = sorted({w for w in found if found.count(w) > 1})
    if repeated:
        raise ConfigError(f"{where}.words", repeated[0], "is listed twice; list each word once")
    return found


def _pattern(
    name: str, table: dict, word_sets: Mapping[str, tuple[str, ...]], where: str
) -> PatternRule:
    if set(table) - _PATTERN_KEYS or "regex" not in table:
        raise ConfigError(where, sorted(table), f"takes {sorted(_PATTERN_KEYS)}, 'regex' required")
    regex = table["regex"]
    if not isinstance(regex, str) or not regex:
        raise ConfigError(f"{where}.regex", regex, "must be a non-empty string")
    flags = 0
    for flag in table.get("flags", ""):
        if flag not in _FLAGS:
            raise ConfigError(
                f"{where}.flags", table.get("flags"), f"use letters of {''.join(_FLAGS)}"
            )
        flags |= _FLAGS[flag]

    def alternation(m: re.Match[str]) -> str:
        if m.group(1) not in word_sets:
            raise ConfigError(f"{where}.regex", m.group(0), "names no word set of this file")
        spelled = sorted(word_sets[m.group(1)], key=len, reverse=True)
        return "(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in spelled) + ")"

    try:
        compiled = re.compile(_WORD_REF.sub(alternation, regex), flags)
    except re.error as exc:
        raise ConfigError(f"{where}.regex", regex, f"is not a regular expression ({exc})") from exc
    matches = _strings(table.get("matches", []), f"{where}.matches", allow_empty=True)
    rejects = _strings(table.get("rejects", []), f"{where}.rejects", allow_empty=True)
    about = table.get("about", "")
    if not isinstance(about, str):
        raise ConfigError(f"{where}.about", about, "must be a string")
    return PatternRule(name, compiled, about, matches, rejects)


def _strings(value: object, where: str, *, allow_empty: bool = False) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(where, value, "must be a list of non-empty strings")
    if not value and not allow_empty:
        raise ConfigError(where, value, "must list at least one word")
    return tuple(value)
