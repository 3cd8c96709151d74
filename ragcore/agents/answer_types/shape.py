"""Whether a text gives a value of the shape a question's head noun asks for
(``Asks.value_shape``, read by perception): "What port do I open …?" wants a port
("3493/tcp"), "What IP should the roboRIO have?" an address ("172.22.11.2"), "What
serial line settings …?" a speed or framing ("2400 bps/8N1"), "what feed-in limit
applies …?" a figure ("30%"), "which urcap file …?" a file named for what the
question names ("rs485-x.x.x.urcap", not "ur5e_bringup.launch"). A sentence that
shares the question's words but holds no value of that shape ("… connects via this TCP
port") does not answer it. The shapes are
data: ``words.value_shapes`` in ``rules/lexicon.toml`` names each, with its
``asks_<shape>`` and ``gives_<shape>`` patterns."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from ragcore.text.lexicon import pattern


def gives_shape(shape: str, text: str) -> bool:
    """``text`` holds a value of ``shape``."""
    return bool(pattern("lexicon", f"gives_{shape}").search(text))


def unshaped(shape: str | None, text: str, given: AbstractSet[str] = frozenset()) -> str | None:
    """Why ``text`` does not answer a question asking for a value of ``shape``, or None.
    ``given``: the question's terms; a value it gives itself ("with a 1p/3p switching
    charger, what phases value …?") is no answer to it, so its words are left out."""
    if shape is None:
        return None
    if shape == _FILE and given:
        if _bound_file(_without(text, given), given):
            return None
    elif gives_shape(shape, _without(text, given)):
        return None
    return f"the question asks for a {shape.replace('_', ' ')}; the answer gives none"


_FILE = "file"
_PART = 3  # a file name's part shorter than this ("x" of "rs485-x.x.x.urcap") binds nothing


def _bound_file(text: str, given: AbstractSet[str]) -> bool:
    """``text`` names a file of what the question asks: one whose name has a part that is,
    or begins, a word of the question ("which urcap file …?": "rs485-x.x.x.urcap", not
    "ur5e_bringup.launch"; "which plugin file …?": "serialfwd-1.2.0.plug")."""
    words = [t for t in given if len(t) >= _PART]
    for m in pattern("lexicon", f"gives_{_FILE}").finditer(text):
        parts = [p for p in re.split(r"[^a-z0-9]+", m.group(0).lower()) if len(p) >= _PART]
        if any(p.startswith(t) or t.startswith(p) for p in parts for t in words):
            return True
    return False


def _without(text: str, given: AbstractSet[str]) -> str:
    """``text`` without the question's own values: its terms that hold a digit, as
    whole words ("1p", "3p" of "1p/3p")."""
    parts = {p for t in given for p in re.split(r"[/,;]", t)}  # "1p/3p"
    values = sorted((p for p in parts if any(c.isdigit() for c in p)), key=len, reverse=True)
    if not values:
        return text
    alternatives = "|".join(map(re.escape, values))
    return re.sub(rf"(?<![\w.])(?:{alternatives})(?![\w.])", " ", text, flags=re.IGNORECASE)
