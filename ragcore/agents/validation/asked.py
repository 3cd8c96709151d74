"""Whether an answer's text names a model the question asked about, however either was
typed ("B737-800" names the 737; "above 75 °C" names no 75). What the question names is
read once by perception (``perception.written``: ``Perception.written_models``,
``asked_sides``)."""

from __future__ import annotations

import re

from ragcore.agents.perception.written import key
from ragcore.text.quantities import mask_quantities
from ragcore.text.terms import model_terms, terms

__all__ = ["key", "names_model"]


def names_model(name: str, text: str) -> bool:
    """Whether ``text`` names the model ``name``: as a term or the end of one ("B737-800"
    names the 737-800), or, for a bare number, as the number a longer name holds ("the
    B737-800" names the 737; "1737" does not). A figure is no name: "above 75 °C" does
    not name the 75."""
    wanted = key(name)
    if not wanted:
        return False
    figureless = mask_quantities(text)
    if any(t.endswith(wanted) for t in model_terms(terms(figureless))) or wanted in terms(
        figureless
    ):
        return True
    return (
        wanted.isdigit() and re.search(rf"(?<![\d.]){wanted}(?![\d]|\.\d)", figureless) is not None
    )
