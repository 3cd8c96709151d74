"""Products and variants a text names without a model number ("ODrive Pro", "roboRIO",
"Smart-UPS 1500", "e-Series", "v3.6"), and whether another text names them too.

Model numbers with digits ("CP-200") are identifiers (``identifiers``); these are the
names they miss. The pattern, with examples, is ``patterns.product_name`` of
``rules/lexicon.toml``. A name is found in a text whatever its case and separators
("Smart UPS", "smart-ups"); a version is found with or without its letter ("V3.6",
"3.6", "rev 3.6"), never as part of another number ("3.61").
"""

from __future__ import annotations

import functools
import re

from ragcore.text.lexicon import pattern
from ragcore.text.quantities import quantities

_VERSION = re.compile(r"^[vVrR](\d+(?:\.\d+)+)$")
_PARTS = re.compile(r"[A-Za-z]+|\d+")
# The word after a variant's number: a unit there makes it a figure ("Arotherm 5 kW").
_NEXT_WORD = re.compile(r"\s*([^\s,.;:?!()]+)")


def product_names(text: str) -> tuple[str, ...]:
    """The product names and versions ``text`` names, in order, without duplicates."""
    found = (m.group(0) for m in pattern("lexicon", "product_name").finditer(text))
    return tuple(dict.fromkeys(found))


def named_variants(question: str) -> tuple[tuple[str, str], ...]:
    """The (name, number) variants ``question`` names, in order, figures with their unit
    aside ("at 30 kHz" is a figure, "LinuxCNC 2.9" a variant)."""
    found = []
    for m in pattern("lexicon", "named_variant").finditer(question):
        after = _NEXT_WORD.match(question, m.end())
        if after and quantities(f"{m.group('number')} {after.group(1)}"):
            continue
        found.append((m.group("name"), m.group("number")))
    return tuple(dict.fromkeys(found))


def names_in(name: str, text: str) -> bool:
    """Whether ``text`` names ``name`` (case and separators aside)."""
    return _name_pattern(name).search(text) is not None


@functools.lru_cache(maxsize=1024)
def _name_pattern(name: str) -> re.Pattern[str]:
    if version := _VERSION.match(name):
        number = re.escape(version.group(1))
        return re.compile(
            rf"(?<![\w.])(?:(?:v|r|rev\.?|version|revision)\s*)?{number}(?![\d]|\.\d)",
            re.IGNORECASE,
        )
    parts = [re.escape(p) for p in _PARTS.findall(name)]
    return re.compile(r"(?<![A-Za-z0-9])" + r"[\s._-]*".join(parts) + r"(?![A-Za-z0-9])", re.I)


# A product named by a family and a designation with a digit ("moteus-r4", "moteus c1").
_DESIGNATED = re.compile(r"^(?P<family>[A-Za-z][\w]*?)[\s_-]+(?P<designation>\w*\d\w*)$")


def sibling_named(name: str, text: str) -> str | None:
    """A sibling of product ``name`` that ``text`` names while it does not name ``name``
    itself: the same family with another designation ("moteus-c1" for "moteus-r4"), as
    written; None when ``name`` has no designation, or ``text`` names it or no sibling."""
    m = _DESIGNATED.match(name)
    if m is None or names_in(name, text):
        return None
    family = re.escape(m.group("family"))
    other = re.search(rf"(?<![\w-]){family}[\s_-]+(\w*\d\w*)\b", text, re.IGNORECASE)
    return other.group(0) if other else None
