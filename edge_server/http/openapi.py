"""The OpenAPI 3.1 document of the HTTP API, made from the route table and the .proto's
descriptors: no schema is written by hand. A message's schema is its proto3 JSON form
(lowerCamelCase properties, enums by name, 64-bit integers as strings, bytes base64);
errors are ``google.rpc.Status``. Field comments come from the .proto's source info when
the descriptors carry it (``edge_server.v1.ragcore_source``), else the schemas have none.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from pathlib import Path

from google.protobuf import descriptor_pb2
from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.rpc import status_pb2

from edge_server.http.gateway import Rpc
from edge_server.http.routes import Input, Reply, Route
from edge_server.http.statuses import HTTP_STATUS
from ragcore import __version__

REF = "#/components/schemas/"
SOURCE = Path(__file__).resolve().parent.parent / "v1" / "ragcore.binpb"
# SourceCodeInfo paths: FileDescriptorProto's message_type (4), service (6), enum_type (5);
# DescriptorProto's field (2), nested_type (3), enum_type (4); a service's method (2).
_MESSAGE, _SERVICE, _ENUM, _FIELD, _NESTED, _NESTED_ENUM, _METHOD = 4, 6, 5, 2, 3, 4, 2
_INTEGER = {
    FieldDescriptor.TYPE_INT32: "int32",
    FieldDescriptor.TYPE_SINT32: "int32",
    FieldDescriptor.TYPE_SFIXED32: "int32",
    FieldDescriptor.TYPE_UINT32: "uint32",
    FieldDescriptor.TYPE_FIXED32: "uint32",
}
_LONG = {
    FieldDescriptor.TYPE_INT64: "int64",
    FieldDescriptor.TYPE_SINT64: "int64",
    FieldDescriptor.TYPE_SFIXED64: "int64",
    FieldDescriptor.TYPE_UINT64: "uint64",
    FieldDescriptor.TYPE_FIXED64: "uint64",
}
# Well-known types have a JSON form of their own.
_WELL_KNOWN: dict[str, dict] = {
    "google.protobuf.Any": {
        "type": "object",
        "properties": {"@type": {"type": "string"}},
        "required": ["@type"],
        "additionalProperties": True,
    },
    "google.protobuf.Duration": {"type": "string", "pattern": r"^-?\d+(\.\d+)?s$"},
    "google.protobuf.Timestamp": {"type": "string", "format": "date-time"},
}


def document(routes: Iterable[Route]) -> str:
    """The OpenAPI document (JSON text) for ``routes``."""
    schemas: dict[str, dict] = {}
    paths: dict[str, dict] = {}
    names: set[str] = set()
    for route in routes:
        rpc = Rpc.named(route.rpc)
        operation_id = route.rpc
        while operation_id in names:  # one rpc behind several routes
            operation_id += "_"
        names.add(operation_id)
        path = "/".join(
            "{" + part[1:-1].split(":")[0] + "}" if part[:1] == "{" else part
            for part in route.path.split("/")
        )
        paths.setdefault(path, {})[route.verb.lower()] = _operation(
            route, rpc, operation_id, schemas
        )
    _schema_of(status_pb2.Status.DESCRIPTOR, schemas)
    spec = {
        "openapi": "3.1.0",
        "info": {
            "title": "ragcore.v1 over HTTP",
            "version": __version__,
            "description": "The rpcs of ragcore.v1 (proto/ragcore/v1/ragcore.proto) as JSON "
            "over HTTP: bodies are the proto3 JSON mapping of the .proto's messages, errors "
            "a google.rpc.Status with the HTTP status of its code.",
        },
        "security": [{"bearer": []}],
        "paths": paths,
        "components": {
            "schemas": dict(sorted(schemas.items())),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
    return json.dumps(spec, indent=1)


def _operation(route: Route, rpc: Rpc, operation_id: str, schemas: dict) -> dict:
    request, reply = rpc.method.input_type, rpc.method.output_type
    operation: dict = {
        "operationId": operation_id,
        "summary": f"{route.rpc} (ragcore.v1.Ragcore/{route.rpc})",
        "description": comments().get(rpc.method.full_name, ""),
        "parameters": [
            {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
            for name in route.path_fields
        ],
    }
    if route.input is Input.QUERY:
        operation["parameters"] += [
            _described({"name": name, "in": "query", "required": False, "schema": schema}, full)
            for name, full, schema in _query_fields(request, "", set(route.path_fields))
        ]
    elif route.input is Input.BODY:
        operation["requestBody"] = _json_body(_schema_of(request, schemas))
    elif route.input is Input.FILES:
        item = _schema_of(request, schemas)
        operation["requestBody"] = {
            "required": True,
            "content": {
                "multipart/form-data": {"schema": _form({"file": _files(), "knowledge_base": {}})},
                "application/json": {
                    "schema": {
                        "type": "object",
                        "properties": {"requests": {"type": "array", "items": item}},
                        "required": ["requests"],
                    }
                },
            },
        }
    else:
        form = {"table": {}, "schema": {}, "replace": {"type": "boolean"}, "file": _file()}
        operation["requestBody"] = {
            "required": True,
            "content": {"multipart/form-data": {"schema": _form(form)}},
        }
    if route.reply is Reply.EVENTS:
        content = {
            "text/event-stream": {
                "schema": {"type": "string"},
                "x-event-data": _schema_of(reply, schemas),
            }
        }
        ok = "Server-Sent Events: 'event: <the oneof case>', 'data: <the message's JSON>'"
    else:
        content = {"application/json": {"schema": _schema_of(reply, schemas)}}
        ok = f"the {reply.name}"
    status = {"$ref": REF + status_pb2.Status.DESCRIPTOR.full_name}
    errors = sorted({str(h) for h in HTTP_STATUS.values() if h >= 400})
    operation["responses"] = {"200": {"description": ok, "content": content}} | {
        code: {
            "description": "a google.rpc.Status (ErrorInfo, BadRequest, RetryInfo)",
            "content": {"application/json": {"schema": status}},
        }
        for code in [*errors, "500"]
    }
    return operation


def _json_body(schema: dict) -> dict:
    return {"required": False, "content": {"application/json": {"schema": schema}}}


def _form(properties: dict) -> dict:
    return {
        "type": "object",
        "properties": {k: v or {"type": "string"} for k, v in properties.items()},
    }


def _file() -> dict:
    return {"type": "string", "contentMediaType": "application/octet-stream"}


def _files() -> dict:
    return {"type": "array", "items": _file()}


def _query_fields(descriptor: Descriptor, prefix: str, skip: set[str]):
    """(name, field's full name, schema) of each query parameter: scalar fields, nested
    ones dotted."""
    for field in descriptor.fields:
        name = prefix + field.name
        if name in skip:
            continue
        if field.message_type is not None:
            if not _repeated(field) and field.message_type.full_name not in _WELL_KNOWN:
                yield from _query_fields(field.message_type, name + ".", skip)
            continue
        yield name, field.full_name, _field_schema(field, {})


def _repeated(field: FieldDescriptor) -> bool:
    return field.is_repeated


def _schema_of(descriptor: Descriptor, schemas: dict) -> dict:
    """A $ref to the message's schema, adding it (and what it uses) to ``schemas``."""
    name = descriptor.full_name
    if name in _WELL_KNOWN:
        return dict(_WELL_KNOWN[name])
    if name not in schemas:
        schemas[name] = {}  # taken before the fields: a message may contain itself
        properties = {
            f.json_name: _described(_field_schema(f, schemas), f.full_name)
            for f in descriptor.fields
        }
        schemas[name] = _described(
            {"type": "object", "properties": properties, "additionalProperties": False}, name
        )
    return {"$ref": REF + name}


@functools.cache
def comments() -> dict[str, str]:
    """The .proto's comment of each message, field, enum, service and rpc by full name
    ("ragcore.v1.AskRequest.question"), from the descriptor set codegen writes with
    source info; empty without it."""
    if not SOURCE.is_file():
        return {}
    files = descriptor_pb2.FileDescriptorSet.FromString(SOURCE.read_bytes())
    found: dict[str, str] = {}
    for file in files.file:
        names: dict[tuple[int, ...], str] = {}
        for i, message in enumerate(file.message_type):
            _name_message(message, f"{file.package}.{message.name}", (_MESSAGE, i), names)
        for i, enum in enumerate(file.enum_type):
            names[(_ENUM, i)] = f"{file.package}.{enum.name}"
        for i, service in enumerate(file.service):
            names[(_SERVICE, i)] = f"{file.package}.{service.name}"
            for j, method in enumerate(service.method):
                names[(_SERVICE, i, _METHOD, j)] = f"{file.package}.{service.name}.{method.name}"
        for location in file.source_code_info.location:
            name = names.get(tuple(location.path))
            text = location.leading_comments or location.trailing_comments
            if name and text.strip():
                found[name] = " ".join(line.strip() for line in text.strip().splitlines())
    return found


def _name_message(message, name: str, path: tuple[int, ...], names: dict) -> None:
    names[path] = name
    for i, field in enumerate(message.field):
        names[(*path, _FIELD, i)] = f"{name}.{field.name}"
    for i, nested in enumerate(message.nested_type):
        _name_message(nested, f"{name}.{nested.name}", (*path, _NESTED, i), names)
    for i, enum in enumerate(message.enum_type):
        names[(*path, _NESTED_ENUM, i)] = f"{name}.{enum.name}"


def _described(schema: dict, name: str) -> dict:
    text = comments().get(name)
    return {**schema, "description": text} if text else schema


def _field_schema(field: FieldDescriptor, schemas: dict) -> dict:
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        value = field.message_type.fields_by_name["value"]
        return {"type": "object", "additionalProperties": _single(value, schemas)}
    single = _single(field, schemas)
    return {"type": "array", "items": single} if _repeated(field) else single


def _single(field: FieldDescriptor, schemas: dict) -> dict:
    if field.message_type is not None:
        return _schema_of(field.message_type, schemas)
    if field.enum_type is not None:
        return _enum(field.enum_type)
    kind = field.type
    if kind in _INTEGER:
        return {"type": "integer", "format": _INTEGER[kind]}
    if kind in _LONG:
        return {"type": ["string", "integer"], "format": _LONG[kind]}
    if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return {"type": "number"}
    if kind == FieldDescriptor.TYPE_BOOL:
        return {"type": "boolean"}
    if kind == FieldDescriptor.TYPE_BYTES:
        return {"type": "string", "contentEncoding": "base64"}
    return {"type": "string"}


def _enum(enum: EnumDescriptor) -> dict:
    return {"type": "string", "enum": [value.name for value in enum.values]}
