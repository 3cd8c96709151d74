"""Document ids from file paths: ``Manuals/Pump & Seal – Ü2.pdf`` becomes
``manuals/pump-seal-u2``.

Each folder of the path relative to the ingested folder, and the file's name without
its suffix, is folded to ASCII (accents dropped), lower-cased, and every run of other
characters than ``a-z 0-9 . _`` becomes one ``-``; the parts are joined with ``/``. The
same path always gives the same id, so a second ingest updates instead of duplicating.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import PurePosixPath

_OTHER = re.compile(r"[^a-z0-9._]+")
MAX_ID_CHARS = 200


def id_from_path(relative_path: str) -> str:
    """The document id of a file at ``relative_path`` (``/`` or ``\\`` separated)."""
    path = PurePosixPath(relative_path.replace("\\", "/"))
    parts = [*path.parent.parts, path.stem] if path.suffix else list(path.parts)
    normalised = [_part(p) for p in parts if p not in ("", ".", "/")]
    found = "/".join(p for p in normalised if p)
    return found[:MAX_ID_CHARS].rstrip("/-.") or "document"


def _part(part: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", part).encode("ascii", "ignore").decode("ascii")
    return _OTHER.sub("-", ascii_text.lower()).strip("-._")
