"""Reading an evaluation file of JSON lines into checked rows, errors naming the line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from ragcore.errors import InvalidInputError


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


Row = TypeVar("Row", bound=_HasId)


def read_rows(
    path: Path, file: str, rows_are: str, parse: Callable[[object, str], Row]
) -> list[Row]:
    """Each non-blank line of ``path`` parsed by ``parse(row, "file:line")``; ids unique.

    ``file`` and ``rows_are`` name the file and its rows in messages ("golden file",
    "questions").
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InvalidInputError(f"cannot read {file} {path}: {exc.strerror}") from exc
    found: list[Row] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"{where}: not JSON ({exc.msg})") from exc
        row = parse(raw, where)
        if row.id in seen:
            raise InvalidInputError(f"{where}: id {row.id!r} is used twice")
        seen.add(row.id)
        found.append(row)
    if not found:
        raise InvalidInputError(f"{path} holds no {rows_are}")
    return found
