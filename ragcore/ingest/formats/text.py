"""Plain text (``.txt``): the file's UTF-8 text as it is, without structure. Standard
library only."""

from __future__ import annotations

from collections.abc import Sequence

from ragcore.ingest.formats.base import Extracted, decode_text


class TextLoader:
    def load(self, data: bytes, origin: str) -> Sequence[Extracted]:
        return [Extracted(decode_text(data, origin), origin=origin)]
