"""Tables over gRPC: an IngestTable stream into files the Engine loads, and the messages
of ListTables.

``Engine.ingest_table`` reads a data file and a schema file, so the stream is written to
a private temporary directory first (the data under the caller's ``file_name`` in
``data/``, the schema as ``schema.toml``). Its errors name those paths; ``table_error`` takes the
directory out of the message (the caller never sees a server path) and reads the file,
row, column or schema key it names into an ``InvalidTable``, whose FieldViolation names
them as the .proto's IngestTable states.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from edge_server.convert import instant
from edge_server.errors import InvalidField, InvalidTable
from edge_server.limits import MAX_FILE_NAME_CHARS
from edge_server.v1 import ragcore_pb2 as pb
from ragcore import MAX_TABLE_NAME_CHARS
from ragcore.errors import InvalidInputError, quoted

SCHEMA_FILE = "schema.toml"
# The data file's name only: no directory, nothing hidden. Its ending (the format) and
# the table's name are the engine's to check, so they are checked once, the same way.
_FILE_NAME = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9._-]*$")
_ROW = re.compile(r"^(?P<file>[^:]+): row (?P<row>\d+), column '(?P<column>[^']+)'")
_ROW_ONLY = re.compile(r"^(?P<file>[^:]+): row (?P<row>\d+) ")
_MISSING_COLUMN = re.compile(r"^(?P<file>[^:]+): the schema declares column '(?P<column>[^']+)'")
_SCHEMA_KEY = re.compile(r"^schema: key '(?P<key>[^']+)'")


@dataclass(frozen=True)
class TableUpload:
    """An IngestTable stream, received: where its files are, and what it names."""

    table: str
    data: Path
    schema: Path
    replace: bool = False


@contextmanager
def received(requests: Iterable[pb.IngestTableRequest]) -> Iterator[TableUpload]:
    """The stream written to a temporary directory (removed afterwards). The first
    message's header is checked before any byte is written."""
    with TemporaryDirectory(prefix="ragcore-table-") as directory:
        upload: TableUpload | None = None
        out = None
        try:
            for index, message in enumerate(requests):
                if upload is None:
                    upload = _header(message, Path(directory))
                    upload.schema.write_text(message.schema, encoding="utf-8")
                    out = upload.data.open("wb")
                else:
                    _no_header(message, index)
                out.write(message.data)  # type: ignore[union-attr]
        finally:
            if out is not None:
                out.close()
        if upload is None:
            raise InvalidField(
                "requests", "the stream had no messages: send the table, schema and file_name first"
            )
        yield upload


def _header(message: pb.IngestTableRequest, directory: Path) -> TableUpload:
    # The table, its schema and its file's name are the table's: INVALID_TABLE, as the
    # .proto says, like every other problem of them.
    if not message.table:
        raise InvalidTable("table", "the first message names no table: set table")
    if len(message.table) > MAX_TABLE_NAME_CHARS:
        raise InvalidTable(
            "table",
            f"table name {quoted(message.table)} is over the limit of {MAX_TABLE_NAME_CHARS} "
            "characters (Limits.max_table_name_chars): use a shorter name",
        )
    if not message.schema.strip():
        raise InvalidTable(
            "schema", "the first message carries no schema: send the schema file's TOML text"
        )
    name = message.file_name
    if not _FILE_NAME.match(name) or len(name) > MAX_FILE_NAME_CHARS:
        raise InvalidTable(
            "file_name",
            f"file_name {quoted(name)} is not usable: give the data file's name (no directory), "
            f"1 to {MAX_FILE_NAME_CHARS} (Limits.max_file_name_chars) letters, digits or ._- "
            "ending .csv or .jsonl",
        )
    (directory / "data").mkdir()  # apart from the schema file, whatever the name
    return TableUpload(
        message.table, directory / "data" / name, directory / SCHEMA_FILE, message.replace
    )


def _no_header(message: pb.IngestTableRequest, index: int) -> None:
    for field in ("table", "schema", "file_name", "replace"):
        if getattr(message, field):
            raise InvalidField(
                f"requests[{index}].{field}",
                f"message #{index + 1} sets {field}; only the first message names the table, "
                "its schema, file_name and replace: later ones carry data only",
            )


def table_error(error: InvalidInputError, upload: TableUpload) -> InvalidTable:
    """The engine's error without the temporary paths, with the field it is about."""
    directory = f"{upload.data.parent}/"
    message = str(error).replace(f"{upload.schema}", "schema").replace(directory, "")
    file = upload.data.name
    if message.startswith("table name:"):
        return InvalidTable("table", message.removeprefix("table name: "))
    if message.startswith(f"{file}: unsupported table file type"):
        return InvalidTable("file_name", message, file=file)
    if match := _ROW.match(message):
        return InvalidTable("data", message, file=file, row=match["row"], column=match["column"])
    if match := _ROW_ONLY.match(message):  # a row's field count, a field over the limit
        return InvalidTable("data", message, file=file, row=match["row"])
    if match := _MISSING_COLUMN.match(message):
        return InvalidTable("data", message, file=file, column=match["column"])
    if match := _SCHEMA_KEY.match(message):
        return InvalidTable(f"schema.{match['key']}", message, key=match["key"])
    if message.startswith("schema:"):
        return InvalidTable("schema", message)
    if message.startswith(f"{file}:"):
        return InvalidTable("data", message, file=file)
    return InvalidTable("", message)


def _enum(enum: Any, prefix: str, member: Any) -> Any:
    """A ragcore vocabulary member as the .proto enum's number (PREFIX_MEMBER)."""
    return enum.Value(f"{prefix}_{member.name}")


def table(info: Any) -> pb.Table:
    """A ``TableInfo`` (from ``Engine.list_tables``) as the .proto's Table."""
    schema = info.schema
    dimensions = {d.column: d for d in schema.dimensions}
    columns = []
    for name, kind in schema.columns.items():
        dimension = dimensions.get(name)
        columns.append(
            pb.TableColumn(
                name=name,
                type=_enum(pb.ColumnType, "COLUMN_TYPE", kind),
                dimension=dimension is not None,
                synonyms=dimension.synonyms if dimension else (),
                description=dimension.description if dimension else "",
                within=(dimension.within or "") if dimension else "",
            )
        )
    return pb.Table(
        name=info.name,
        description=schema.description,
        time_column=schema.time_column or "",
        columns=columns,
        measures=[
            pb.TableMeasure(
                name=m.name,
                unit=m.unit,
                aggregation=_enum(pb.Aggregation, "AGGREGATION", m.aggregation),
                column="" if m.derived else (m.column or m.name),
                expression=m.expression or "",
                synonyms=m.synonyms,
                description=m.description,
            )
            for m in schema.measures
        ],
        rows=info.row_count,
        source=info.source,
        checksum=info.sha256,
        ingested_at=instant(info.ingested_at),
    )


def summary(info: Any, took_ms: float) -> pb.TableSummary:
    return pb.TableSummary(
        table=info.name, rows=info.row_count, checksum=info.sha256, took_ms=took_ms
    )
