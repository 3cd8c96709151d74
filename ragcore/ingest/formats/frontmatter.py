"""YAML front matter: the block between a first line ``---`` and the next ``---``.

Parsed with PyYAML's ``safe_load`` (MIT, pure Python with an optional C speed-up; no code
runs from the file), so lists, ``|`` blocks and nested keys work as in any static site
generator. Dates are kept as the text written (``updated_at`` is checked by the document
checks, which name the field), so a bad date is reported, not a YAML crash.

Front matter that is not YAML only because a value holds ": " unquoted ("title: Pump FAQ:
Seals and Bearings") is read as the plain ``key: value`` lines ragcore always took (each
line split at its first colon), so files that ingested before still do.
"""

from __future__ import annotations

import re

import yaml

from ragcore.errors import InvalidDocumentError


class _Loader(yaml.SafeLoader):
    """``safe_load`` without the implicit timestamp type: dates stay text."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}

_KEY_LINE = re.compile(r"^(?:\s|-|#|[^:\s][^:]*:)")
# A plain line: a key, and a value that does not start as YAML would ("[MK4, MK4S]",
# "|", quotes): the author of such a value meant YAML, and its error is reported.
_PLAIN_LINE = re.compile(r"^([A-Za-z_][\w-]*):[ \t]+([^\s\[\]{}|>&*!%@`\"'].*?)\s*$")


def split_front_matter(raw: str, origin: str) -> tuple[dict[str, object], str]:
    """The front matter's fields and the body after it; no front matter gives ``{}``."""
    lines = raw.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        return {}, raw
    for number, line in enumerate(lines[1:], start=1):
        if line.strip() in ("---", "..."):
            return _parse("".join(lines[1:number]), origin), "".join(lines[number + 1 :])
    for number, line in enumerate(lines[1:], start=2):
        if line.strip() and not _KEY_LINE.match(line):
            raise InvalidDocumentError(
                f"{origin}:{number}",
                None,
                f"front matter line {line.strip()!r} is not 'key: value', and the front "
                "matter is never closed: end it with a line '---'",
            )
    raise InvalidDocumentError(
        origin, None, "front matter opened with '---' is never closed: end it with a line '---'"
    )


def _parse(block: str, origin: str) -> dict[str, object]:
    try:
        value = yaml.load(block, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        if (plain := _plain_lines(block)) is not None:
            return plain
        mark = getattr(exc, "problem_mark", None)
        where = f"{origin}:{mark.line + 2}" if mark is not None else origin
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InvalidDocumentError(
            where,
            None,
            f"front matter is not valid YAML ({problem}): write 'key: value' lines; quote "
            "values that contain ': ' or start with a special character",
        ) from exc
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidDocumentError(
            origin, None, "front matter must be 'key: value' lines, not a list or a bare value"
        )
    return {str(k): v for k, v in value.items()}


def _plain_lines(block: str) -> dict[str, object] | None:
    """The fields of front matter made only of ``key: value`` lines (blank and ``#``
    lines aside), each split at its first colon; None if any line is another shape."""
    fields: dict[str, object] = {}
    for line in block.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if (m := _PLAIN_LINE.match(line)) is None:
            return None
        fields[m.group(1)] = m.group(2)
    return fields
