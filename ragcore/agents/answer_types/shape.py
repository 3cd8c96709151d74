"""Whether a text gives a value of the shape a question's head noun asks for
(``Asks.value_shape``, read by perception): "What port do I open …?" wants a port
("3493/tcp"), "What IP should the roboRIO have?" an address ("172.22.11.2"), "What
serial line settings …?" a speed or framing ("2400 bps/8N1"), "what feed-in limit
applies …?" a figure ("30%"). A sentence that shares the question's words but holds no
value of that shape ("… connects via this TCP port") does not answer it. The shapes are
data: ``words.value_shapes`` in ``rules/lexicon.toml`` names each, with its
``asks_<shape>`` and ``gives_<shape>`` patterns."""

from __future__ import annotations

from ragcore.text.lexicon import pattern


def gives_shape(shape: str, text: str) -> bool:
    """``text`` holds a value of ``shape``."""
    return bool(pattern("lexicon", f"gives_{shape}").search(text))


def unshaped(shape: str | None, text: str) -> str | None:
    """Why ``text`` does not answer a question asking for a value of ``shape``, or None."""
    if shape is None or gives_shape(shape, text):
        return None
    return f"the question asks for a {shape.replace('_', ' ')}; the answer gives none"
