"""Whether an answer is about the variant a question names (``Asks.variants``: "Does
LinuxCNC 2.9 run on a Raspberry Pi 5?" names LinuxCNC 2.9 and the Pi 5): a name and its
number (``lexicon.named_variant``) are one thing, a sibling's number another. An answer
that names the same name with other numbers only ("…/linuxcnc-2.8.1-pi4.zip"), while
neither it nor its sources give the asked number, answers for a sibling variant — the
Pi 4 image is no answer for the Pi 5, Parameter 6.05 none for Parameter 9.02."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

# A number of this many digits names its variant alone ("1500" of "Smart-UPS 1500").
_VERSION_DIGITS = 3


def other_variants(
    variants: Sequence[tuple[str, str]], text: str, sources: Sequence[str] = ()
) -> tuple[str, ...]:
    """The variants ``text`` names in place of the asked ones, as written ("pi4"): for each
    asked variant that neither ``text`` nor any of ``sources`` gives the number of, the
    same name followed by other numbers in ``text``."""
    said = " ".join((text, *sources))
    others: list[str] = []
    for name, number in variants:
        if _gives(name, number, said):
            continue
        mine = {v for n, v in variants if n.lower() == name.lower()}
        for m in _numbered(name).finditer(text):
            if not any(_same_variant(n, v) for n in _run(m) for v in mine):
                others.append(m.group(0))
    return tuple(dict.fromkeys(others))


def _same_variant(given: str, asked: str) -> bool:
    """ "2.9.1" is of the 2.9 line; "2.8.1" is not, nor "29"."""
    return given == asked or given.startswith(f"{asked}.")


def _gives(name: str, number: str, text: str) -> bool:
    """``text`` names the variant: its name with the number, or a version-like number
    alone ("2.9 or later"; a bare "5" may be any figure)."""
    if any(_same_variant(n, number) for m in _numbered(name).finditer(text) for n in _run(m)):
        return True
    version_like = "." in number or len(number) >= _VERSION_DIGITS
    return (
        version_like and re.search(rf"(?<![\w.]){re.escape(number)}(?![\d]|\.\d)", text) is not None
    )


@functools.lru_cache(maxsize=256)
def _numbered(name: str) -> re.Pattern[str]:
    """``name`` followed by a number, with or without a separator or a "v" ("Pi4",
    "linuxcnc-2.8.1", "PolyScope v5.1"), or by several ("Class 6 and 7")."""
    number = r"[vV]?\d+(?:\.\d+)*(?![\d]|\.\d)"
    return re.compile(
        rf"(?<![A-Za-z0-9]){re.escape(name)}[\s._-]?(?P<run>{number}"
        rf"(?:\s*(?:,|/|&|\band\b|\bor\b)\s*{number})*)",
        re.IGNORECASE,
    )


def _run(match: re.Match[str]) -> list[str]:
    """The numbers of a name's run ("Class 6 and 7": 6, 7): each names a variant."""
    return re.findall(r"\d+(?:\.\d+)*", match.group("run"))
