"""Whether a sentence gives a value to the key a question asks the value of.

"Huanyang spindle with hy_vfd: what value goes in PD164?" names the register PD164; the
manual page names it twice: "This must match the setting in register PD164 (defaults to
38400)" (the driver's rate, another figure) and "Set register PD164 (baud rate) to 2
(19200 bps)" (the value). Both name the key and both give a figure; only the second
gives it *to the key*. The keys a question asks the value of are its identifiers as
written ("PD164") and the word the question puts beside "value" or "setting"
(``lexicon.asked_key``: "what phases value", "What readonly value"); a sentence binds a
value to one when the key is followed by an assignment (``lexicon.key_value``: "PD164 =
2", "PD164 (baud rate) to 2", "phases: 0 = …"), or, standing under a heading that names
the key, it is a list item giving one value (``lexicon.value_item``: "- deny: Write
access is blocked …" under "readonly").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ragcore.text.lexicon import WordSet, pattern
from ragcore.text.terms import terms

# Words beside "value" that do not name a key ("what default value", "which maximum value").
_GENERIC = WordSet("lexicon", "generic")
_QUALIFIERS = WordSet("lexicon", "value_qualifiers")


def asked_keys(question: str, identifiers: Iterable[str] = ()) -> tuple[str, ...]:
    """The keys ``question`` asks the value of: the word beside its "value" or
    "setting" and its ``identifiers`` (models, codes, registers as written), when it
    names a word beside "value" or "setting" at all; else none."""
    found = [
        m.group("before") or m.group("after")
        for m in pattern("lexicon", "asked_key").finditer(question)
    ]
    keys = [k for k in found if terms(k) and k.lower() not in _GENERIC | _QUALIFIERS]
    if not found:
        return ()
    return tuple(dict.fromkeys([*keys, *identifiers]))


def binds(keys: Iterable[str], text: str, heading: str = "") -> bool:
    """``text`` gives one of ``keys`` a value: the key followed by an assignment, or a
    list item giving a value under a ``heading`` that names the key."""
    after = pattern("lexicon", "key_value")
    heading_terms = set(terms(heading))
    for key in keys:
        for m in _occurrences(key).finditer(text):
            if after.match(text[m.end() :]):
                return True
        if set(terms(key)) <= heading_terms and pattern("lexicon", "value_item").match(text):
            return True
    return False


def _occurrences(key: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.]){re.escape(key)}(?![\w])", re.IGNORECASE)
