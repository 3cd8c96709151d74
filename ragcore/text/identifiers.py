"""Identifiers in text: error codes, model numbers and part numbers."""

from __future__ import annotations

import re

from ragcore.text.lexicon import Patterns

# Identifiers worth keeping as entities: error codes (E4027), model numbers (A320,
# B737-800, CFM56-7B, LEAP-1A, HP-400) and part numbers (P/N 88-2041-07); the patterns,
# with examples, are in rules/words.toml, compiled on first use.
ENTITY_PATTERNS = Patterns("words", ("part_number", "hyphenated_model", "compact_model"))

# An error code as a content term of ``terms`` (lower-cased, hyphen dropped): e03, e4027.
CODE_TERM = re.compile(r"^e\d+$")

# Where a model name starts ("DR-60", "XR40"), for patterns that look around one.
MODEL_START = r"[A-Z][A-Z0-9]*-?\d"


def find_entities(text: str) -> tuple[str, ...]:
    """Identifier-like entities in order of first appearance, without duplicates."""
    found: dict[str, int] = {}
    for pattern in ENTITY_PATTERNS:
        for match in pattern.finditer(text):
            found.setdefault(match.group(0), match.start())
    # A part number also matches the generic patterns: keep the longest spelling only.
    names = sorted(found, key=found.__getitem__)
    return tuple(n for n in names if not any(n != m and n in m for m in names))
