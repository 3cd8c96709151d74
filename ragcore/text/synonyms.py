"""Words that say the same thing in maintenance and safety texts: an answer that
paraphrases its source ("taken out of service straight away and the result written
down" for "withdrawn from service immediately and the result recorded") uses them.

The groups are data (``rules/synonyms.toml``); each group gets one key that
``families`` adds to its words' keys.
"""

from __future__ import annotations

import functools

from ragcore.text.tables import synonym_groups
from ragcore.text.terms import terms


@functools.cache
def synonym_keys() -> dict[str, str]:
    """Each stemmed word of a group and its group's key (read on first use)."""
    return {
        term: f"~{i}" for i, group in enumerate(synonym_groups()) for term in terms(" ".join(group))
    }


def synonym_key(term: str) -> str | None:
    """The key of the group of synonyms ``term`` (a stemmed term) is in, if any."""
    return synonym_keys().get(term)
