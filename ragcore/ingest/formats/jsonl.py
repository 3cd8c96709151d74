"""JSON Lines (``.jsonl``): one document per line, ragcore's fields plus ``text``, or a
BEIR corpus (``_id``, ``title``, ``text``, ``metadata``). Standard library only."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ragcore.errors import InvalidDocumentError
from ragcore.ingest.formats.base import Extracted, decode_text


class JsonlLoader:
    def load(self, data: bytes, origin: str) -> Sequence[Extracted]:
        found = []
        for number, line in enumerate(decode_text(data, origin).splitlines(), start=1):
            if not line.strip():
                continue
            where = f"{origin}:{number}"
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidDocumentError(where, None, f"is not valid JSON ({exc.msg})") from exc
            if not isinstance(record, dict):
                raise InvalidDocumentError(where, None, "must be a JSON object")
            if "_id" in record:  # BEIR corpus layout
                record = {**record, "id": record.pop("_id")}
            if "id" not in record:
                raise InvalidDocumentError(where, "id", "is missing")
            if not isinstance(record.get("metadata", {}), dict):
                raise InvalidDocumentError(where, "metadata", "must be a JSON object")
            text = record.get("text")
            found.append(
                Extracted(
                    text if isinstance(text, str) else "",
                    record,
                    origin=where,
                    default_title=False,
                )
            )
        return found
