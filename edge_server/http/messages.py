"""The proto3 JSON mapping both ways: an HTTP request's JSON body, query parameters and
path parameters into the rpc's request message; a reply message into JSON.

The .proto is the one contract: nothing here names a field of ``ragcore.v1``. Parsing is
``google.protobuf.json_format``'s (field names as in the .proto or in lowerCamelCase,
64-bit integers as numbers or strings, enums by name); what it refuses becomes an
``InvalidField`` naming the field by its .proto path ("filters.min_authority"), as the
gRPC side names fields in its BadRequest details.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from edge_server.errors import InvalidField, MalformedRequest

_FAILED = re.compile(r"Failed to parse (\S+) field: ")
_AT = re.compile(r' at "?([A-Za-z_][\w.\[\]]*?)"?\.?(\n|$)')
_UNKNOWN = re.compile(r'has no field named "([^"]+)"')
_TRUE, _FALSE = frozenset({"true", "1"}), frozenset({"false", "0"})


def to_json(message: Message) -> str:
    """``message`` as proto3 JSON on one line: lowerCamelCase names, enums by name, 64-bit
    integers as strings, and every field printed, defaults included (an empty list is
    ``[]``, a false flag ``false``), so a client never has to know the defaults."""
    return json_format.MessageToJson(
        message, indent=None, always_print_fields_with_no_presence=True, ensure_ascii=False
    )


def from_body(body: bytes, message: Message, path: Mapping[str, str] = {}) -> Message:
    """``message`` filled from a JSON object (an empty body is an empty object), then
    from the route's path parameters (which win)."""
    return from_dict({**json_object(body, message.DESCRIPTOR.name), **path}, message)


def json_object(body: bytes, name: str) -> dict:
    """The JSON object of ``body`` (an empty body is ``{}``); ``name`` says what it holds."""
    if not body.strip():
        return {}
    try:
        values = json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise MalformedRequest(
            f"the body is not JSON ({error}): send the proto3 JSON of {name}, an object"
        ) from None
    if not isinstance(values, dict):
        raise MalformedRequest(
            f"the body is JSON but not an object: send the proto3 JSON of {name}, {{...}}"
        )
    return values


def from_query(
    query: Iterable[tuple[str, str]], message: Message, path: Mapping[str, str] = {}
) -> Message:
    """``message`` filled from query parameters: a field by its .proto or JSON name, a
    nested one by its dotted path ("filters.knowledge_bases"), a repeated one repeated;
    ``true``/``false`` for flags, enums by name. Then the path parameters (which win)."""
    values: dict = {}
    for name, value in query:
        _put(values, message.DESCRIPTOR, name, value)
    return from_dict({**values, **path}, message)


def from_dict(values: dict, message: Message) -> Message:
    try:
        return json_format.ParseDict(values, message)
    except json_format.ParseError as error:
        raise _invalid(error, message.DESCRIPTOR) from None


def _put(values: dict, descriptor: Descriptor, dotted: str, text: str) -> None:
    *parents, leaf = dotted.split(".")
    target, where = values, descriptor
    for part in parents:
        field = _field(where, part, dotted)
        if field.message_type is None or field.is_repeated:
            raise InvalidField(dotted, f"{part} has no fields: name the field itself")
        target = target.setdefault(field.name, {})
        where = field.message_type
    field = _field(where, leaf, dotted)
    if field.message_type is not None:
        raise InvalidField(
            dotted, f"{dotted} is a message: give its fields ({dotted}.NAME=...) instead"
        )
    value = _scalar(field, text, dotted)
    if field.is_repeated:
        target.setdefault(field.name, []).append(value)
    elif field.name in target:
        raise InvalidField(dotted, f"{dotted} is given twice: give it once (it is not a list)")
    else:
        target[field.name] = value


def _field(descriptor: Descriptor, name: str, dotted: str) -> FieldDescriptor:
    field = descriptor.fields_by_name.get(name) or descriptor.fields_by_camelcase_name.get(name)
    if field is None:
        known = ", ".join(f.name for f in descriptor.fields)
        raise InvalidField(
            dotted, f"{descriptor.name} has no field {name!r}: use one of {known} instead"
        )
    return field


def _scalar(field: FieldDescriptor, text: str, dotted: str) -> object:
    if field.type != FieldDescriptor.TYPE_BOOL:
        return text  # proto3 JSON takes numbers and enums as strings too
    if text.lower() in _TRUE:
        return True
    if text.lower() in _FALSE:
        return False
    raise InvalidField(dotted, f"{dotted} is a flag: give true or false, not {text[:40]!r}")


def _invalid(error: json_format.ParseError, descriptor: Descriptor) -> InvalidField:
    """The field json_format refused, as a .proto path, with its reason."""
    text = str(error)
    names = _FAILED.findall(text)
    at = _AT.search(text)  # the path of the message being parsed: a nested one's too
    if at and len(at.group(1).split(".")) - 1 > len(names):
        names = [re.sub(r"\[\d+\]$", "", n) for n in at.group(1).split(".")[1:]]
    unknown = _UNKNOWN.search(text)
    if unknown:
        names.append(unknown.group(1))
    path, where = [], descriptor
    for name in names:
        field = where.fields_by_name.get(name) or where.fields_by_camelcase_name.get(name)
        if field is None:
            path.append(name)
            break
        path.append(field.name)
        if field.message_type is None:
            break
        where = field.message_type
    reason = _FAILED.sub("", text).split("\n")[0].rstrip(".")
    dotted = ".".join(path)
    if unknown:
        known = ", ".join(f.name for f in where.fields)
        reason = f"{where.name} has no field {unknown.group(1)!r}: use one of {known}"
    return InvalidField(
        dotted,
        f"{dotted or descriptor.name}: {reason}; send the proto3 JSON of {descriptor.name} "
        "(the .proto's field names, or lowerCamelCase)",
    )
