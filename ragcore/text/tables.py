"""Small value tables of the text layer as data: ``rules/numbers.toml`` (numbers,
ordinals and fractions written as words, each with its value) and ``rules/synonyms.toml``
(groups of words that say the same thing).

Each file is read and checked once, on first use (importing reads nothing); a bad entry
is a ``ConfigError`` naming the file and the key. Word sets and patterns live in the
lexicon files (``ragcore.text.lexicon``); these tables map words to values or groups,
which a word set cannot say.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from typing import Any

from ragcore.errors import ConfigError

RULES_DIR = Path(__file__).resolve().parents[1] / "rules"
NUMBER_TABLES = ("numbers", "ordinals", "fractions")


@functools.cache
def number_table(name: str) -> dict[str, float]:
    """The table ``name`` of ``rules/numbers.toml``: word → value, in file order."""
    return load_number_tables(RULES_DIR / "numbers.toml")[name]


@functools.cache
def synonym_groups() -> tuple[tuple[str, ...], ...]:
    """The groups of ``rules/synonyms.toml``: words that say the same thing."""
    return load_synonym_groups(RULES_DIR / "synonyms.toml")


def load_number_tables(path: Path) -> dict[str, dict[str, float]]:
    """Read and check a numbers file: a table per name in ``NUMBER_TABLES``, each word
    (lower case, listed once) with a positive number (zero only in ``numbers``)."""
    data = _read(path)
    out = {}
    for name in NUMBER_TABLES:
        table = data.pop(name, None)
        if not isinstance(table, dict) or not table:
            raise ConfigError(f"{path.name}:{name}", table, "must be a table: word = number")
        values = {}
        for word, value in table.items():
            where = f"{path.name}:{name}.{word}"
            if word != word.lower() or not word.isalpha():
                raise ConfigError(where, word, "a word is written in lower-case letters")
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ConfigError(where, value, "must be a number")
            if value < 0 or (value == 0 and name != "numbers"):
                raise ConfigError(where, value, "must be positive")
            values[word] = float(value)
        out[name] = values
    if data:
        raise ConfigError(f"{path.name}:{sorted(data)[0]}", None, f"takes {list(NUMBER_TABLES)}")
    return out


def load_synonym_groups(path: Path) -> tuple[tuple[str, ...], ...]:
    """Read and check a synonyms file: ``groups``, a list of groups of words (each a
    string of space-separated words), no word in two groups."""
    data = _read(path)
    groups = data.pop("groups", None)
    where = f"{path.name}:groups"
    if data:
        raise ConfigError(f"{path.name}:{sorted(data)[0]}", None, "takes only 'groups'")
    if not isinstance(groups, list) or not all(isinstance(g, str) and g.split() for g in groups):
        raise ConfigError(where, groups, "must be a list of strings of words")
    seen: dict[str, int] = {}
    for i, group in enumerate(groups):
        for word in group.split():
            if seen.setdefault(word, i) != i:
                raise ConfigError(f"{where}[{i}]", word, f"is in group {seen[word]} too")
    return tuple(tuple(g.split()) for g in groups)


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(path.name, str(path), f"cannot read the file ({exc})") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(path.name, str(path), f"not valid TOML: {exc}") from exc
