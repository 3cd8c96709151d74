"""Whether a statement stands on its own, or says something of a block beside it in its
document that the answer leaves out: one ending by introducing what follows ("… you need
to edit your ups.conf to look like this:", ``lexicon.leans_forward``), or one speaking of
a block shown above or below ("The above command says: …", ``lexicon.points_at_block``).
The extractive generator keeps an introduced block with its sentence (bounded); a
statement that still leans on a block has left out what holds the asked content."""

from __future__ import annotations

from collections.abc import Iterable

from ragcore.text.lexicon import pattern


def leaning_on_a_block(statements: Iterable[str]) -> str | None:
    """The first of ``statements`` (citations stripped) that introduces a block it does
    not give or speaks of one shown beside it, or None."""
    for text in statements:
        flat = " ".join(text.split()).rstrip(" .")
        if not flat:
            continue
        if pattern("lexicon", "leans_forward").search(flat + ("" if flat.endswith(":") else ".")):
            return flat
        if pattern("lexicon", "points_at_block").search(flat):
            return flat
    return None
