"""The rows of a table's data file, read strictly: a file that is not exactly a table is
an error, never a silent guess.

CSV: the first record is the header. A column named twice is refused (a dictionary of
the row would keep the second value only, silently), as is a record with more or fewer
fields than the header (its row number named: 1-based, the header excluded, as every
row error counts). A field longer than ``MAX_FIELD_CHARS`` (the server's default message
size) is refused by name rather than by Python's csv error. Blank lines are skipped.

JSON Lines: one object per line; blank lines are skipped. Keys the schema does not
declare are ignored by the loader; a declared key that is missing is a missing value.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator, Mapping
from enum import Enum
from pathlib import Path
from typing import Any

from ragcore.errors import InvalidInputError

MAX_FIELD_CHARS = 8 * 1024 * 1024
"""The longest CSV field read: 8 MiB, the gRPC service's default message limit (Python's
csv module stops at 131,072 characters unless told otherwise)."""


class RowFormat(Enum):
    CSV = "csv"
    JSONL = "jsonl"


def read_rows(path: Path, fmt: RowFormat) -> Iterator[tuple[int, Mapping[str, Any]]]:
    """(row number, {column: raw value}) for every row of ``path``, numbered from 1
    without the header; InvalidInputError naming the file (and row or column)."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as fp:
            if fmt is RowFormat.CSV:
                yield from _csv_rows(fp, path)
            else:
                yield from _jsonl_rows(fp, path)
    except UnicodeDecodeError as exc:
        raise InvalidInputError(f"{path}: is not UTF-8 text ({exc}); save it as UTF-8") from exc
    except OSError as exc:
        raise InvalidInputError(f"cannot read the table file {path}: {exc}") from exc


def _csv_rows(fp: Any, path: Path) -> Iterator[tuple[int, Mapping[str, Any]]]:
    # The limit is process-wide in Python's csv module; ours is set for every read.
    csv.field_size_limit(MAX_FIELD_CHARS)
    records = csv.reader(fp)
    number = 0
    header: list[str] | None = None
    try:
        for record in records:
            if not record or (len(record) == 1 and not record[0].strip()):
                continue  # a blank line
            if header is None:
                header = [name.strip() for name in record]
                _check_header(header, path)
                continue
            number += 1
            if len(record) != len(header):
                more = "more" if len(record) > len(header) else "fewer"
                raise InvalidInputError(
                    f"{path}: row {number} has {len(record)} fields, {more} than the "
                    f"header's {len(header)} ({', '.join(header)}); quote a field that "
                    "holds a comma, or fix the row"
                )
            yield number, dict(zip(header, record, strict=True))
    except csv.Error as exc:
        where = f"row {number + 1}" if header is not None else "the header"
        if "field larger than field limit" in str(exc):
            raise InvalidInputError(
                f"{path}: {where} has a field longer than {MAX_FIELD_CHARS:,} characters, "
                "the longest a table field may be; shorten it (or check for an unclosed quote)"
            ) from exc
        raise InvalidInputError(f"{path}: {where} cannot be read as CSV: {exc}") from exc


def _check_header(header: list[str], path: Path) -> None:
    seen: set[str] = set()
    for position, name in enumerate(header, start=1):
        if not name:
            raise InvalidInputError(
                f"{path}: the header's column {position} has no name; name every column"
            )
        if name in seen:
            raise InvalidInputError(
                f"{path}: the header names column {name!r} twice; every column needs its "
                "own name (rename or remove one)"
            )
        seen.add(name)


def _jsonl_rows(fp: Any, path: Path) -> Iterator[tuple[int, Mapping[str, Any]]]:
    number = 0
    for line in fp:
        if not line.strip():
            continue
        number += 1
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"{path}: row {number} is not JSON: {exc}") from exc
        if not isinstance(row, dict):
            raise InvalidInputError(
                f"{path}: row {number} is {type(row).__name__}, not an object of "
                "column: value pairs"
            )
        yield number, row


__all__ = ["MAX_FIELD_CHARS", "RowFormat", "read_rows"]
