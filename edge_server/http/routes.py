"""The route table: one HTTP route per rpc of ragcore.v1, and how each request becomes
the rpc's request message.

``ROUTES`` is all the HTTP API says about ragcore.v1: a verb, a path, the rpc, and where
the request message comes from (the JSON body, the query string, a multipart form);
path parameters are fields of the request message by name. The messages, their fields
and their checks are the .proto's and the servicer's; the OpenAPI document is made from
this table and the descriptors (``edge_server.http.openapi``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum

import grpc
from google.protobuf.message import Message
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from edge_server.errors import EdgeError, InvalidField, MalformedRequest, MessageTooLarge
from edge_server.http.gateway import Gateway, Relayed, Rpc, error_response, sse
from edge_server.http.messages import from_body, from_dict, from_query, json_object, to_json
from edge_server.http.statuses import status_of
from edge_server.limits import grpc_receive_limit
from edge_server.v1 import ragcore_pb2 as pb
from ragcore.errors import InvalidInputError

MAX_FILES = 1000  # file parts of one upload
TABLE_CHUNK_BYTES = 1024 * 1024  # an IngestTable's data goes in messages of this size
# An upload (files or a table) is at most this many times max_message_bytes in all (each
# file is one message, within max_message_bytes); more goes in several uploads.
UPLOAD_FACTOR = 16


class Input(StrEnum):
    """Where a route's request message comes from."""

    BODY = "body"  # its proto3 JSON
    QUERY = "query"  # its fields as query parameters (nested ones dotted, lists repeated)
    FILES = "files"  # a multipart form of files (or a JSON list of messages)
    TABLE = "table"  # a multipart form: table, schema, replace and the data file


class Reply(StrEnum):
    JSON = "json"  # the reply message's proto3 JSON
    EVENTS = "events"  # text/event-stream: one event per message of the reply stream


@dataclass(frozen=True)
class Route:
    verb: str
    path: str  # Starlette's form: "{document_id:path}" is the request's document_id
    rpc: str
    input: Input
    reply: Reply = Reply.JSON

    @property
    def path_fields(self) -> list[str]:
        return [part[1:-1].split(":")[0] for part in self.path.split("/") if part[:1] == "{"]


ROUTES: tuple[Route, ...] = (
    Route("POST", "/v1/ask", "Ask", Input.BODY),
    Route("POST", "/v1/ask:stream", "AskStream", Input.BODY, Reply.EVENTS),
    Route("POST", "/v1/ask/stream", "AskStream", Input.BODY, Reply.EVENTS),
    Route("GET", "/v1/search", "Search", Input.QUERY),
    Route("POST", "/v1/search", "Search", Input.BODY),
    Route("GET", "/v1/documents", "ListDocuments", Input.QUERY),
    Route("POST", "/v1/documents", "Ingest", Input.FILES),
    Route("GET", "/v1/documents/{document_id:path}", "GetDocument", Input.QUERY),
    Route("DELETE", "/v1/documents/{document_id:path}", "DeleteDocument", Input.QUERY),
    Route("GET", "/v1/knowledge-bases", "ListKnowledgeBases", Input.QUERY),
    Route("DELETE", "/v1/knowledge-bases/{name}", "DeleteKnowledgeBase", Input.QUERY),
    Route("GET", "/v1/stats", "GetStats", Input.QUERY),
    Route("GET", "/v1/server-info", "GetServerInfo", Input.QUERY),
    Route("GET", "/v1/tables", "ListTables", Input.QUERY),
    Route("POST", "/v1/tables", "IngestTable", Input.TABLE),
    Route("DELETE", "/v1/sessions/{session_id}", "EndSession", Input.QUERY),
)

Handler = Callable[[Request], Awaitable[Response]]


def handler(route: Route, gateway: Gateway) -> Handler:
    """The endpoint of ``route``: request message in, the rpc through the gateway."""
    rpc = Rpc.named(route.rpc)

    async def endpoint(request: Request) -> Response:
        try:
            relayed = gateway.relayed(request)
            if route.input in (Input.FILES, Input.TABLE):
                # An upload is read whole before its rpc starts: the token is checked
                # first, so that only a caller who may write makes the server read one.
                gateway.check_token(request, rpc)
                _check_length(request, UPLOAD_FACTOR * gateway.max_message_bytes)
            if route.input is Input.FILES:
                messages = await _ingest_requests(request, gateway.max_message_bytes)
                return await gateway.client_stream(request, rpc, messages, relayed)
            if route.input is Input.TABLE:
                messages = await _table_requests(request, gateway.max_message_bytes)
                return await gateway.client_stream(request, rpc, messages, relayed)
            message = await _message(request, route, rpc, gateway.max_message_bytes)
        except (EdgeError, InvalidInputError) as error:
            return gateway.refusal(request, rpc, error)
        if route.reply is Reply.EVENTS:
            return await _events(gateway, request, rpc, message, relayed)
        return await gateway.unary(request, rpc, message, relayed)

    return endpoint


async def _message(request: Request, route: Route, rpc: Rpc, max_message_bytes: int) -> Message:
    path = {name: request.path_params[name] for name in route.path_fields}
    if route.input is Input.QUERY:
        return from_query(request.query_params.multi_items(), rpc.request(), path)
    _check_json(request)
    body = await _body(request, grpc_receive_limit(max_message_bytes), max_message_bytes)
    return from_body(body, rpc.request(), path)


def _check_length(request: Request, most: int, limit: int | None = None) -> None:
    """A body its Content-Length says is over ``most`` bytes is refused unread
    (MessageTooLarge, naming ``limit``, by default ``most``)."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > most:
        raise MessageTooLarge(int(length), most if limit is None else limit)


async def _body(request: Request, most: int, limit: int) -> bytes:
    """The body, refused (MessageTooLarge, naming ``limit``) once it is over ``most``
    bytes: JSON is larger than the message it makes, so up to ``most`` (twice the
    limit, as gRPC lets through) reaches the server, which refuses with details what
    is over ``limit``."""
    _check_length(request, most, limit)
    parts, size = [], 0
    async for part in request.stream():
        size += len(part)
        if size > most:
            raise MessageTooLarge(size, limit)
        parts.append(part)
    return b"".join(parts)


def _check_json(request: Request) -> None:
    kind = request.headers.get("content-type", "application/json").split(";")[0].strip()
    if kind not in ("application/json", ""):
        raise MalformedRequest(
            f"the body is {kind}: send JSON, with the header Content-Type: application/json"
        )


async def _events(
    gateway: Gateway, request: Request, rpc: Rpc, message: Message, relayed: Relayed
) -> Response:
    """A reply stream as Server-Sent Events, ``event:`` the message's oneof case. An
    error before the first message is a plain error reply (401, 400, ...); one after it
    is an ``error`` event carrying the Status. A client that leaves cancels the call."""
    call = gateway.server_stream(request, rpc, message, relayed)
    try:
        first = await call.read()
    except grpc.aio.AioRpcError as error:
        return error_response(status_of(error, relayed.request_id), relayed.request_id)

    async def events():
        try:
            item = first
            while item is not grpc.aio.EOF:
                yield sse(item.WhichOneof("event") or "message", to_json(item))
                item = await call.read()
        except grpc.aio.AioRpcError as error:
            yield sse("error", to_json(status_of(error, relayed.request_id)))
        finally:
            call.cancel()  # the client left (or the stream ended: then a no-op)

    headers = {"x-request-id": relayed.request_id, "cache-control": "no-cache"}
    return StreamingResponse(events(), media_type="text/event-stream", headers=headers)


async def _ingest_requests(request: Request, max_message_bytes: int) -> list[pb.IngestRequest]:
    """An upload's IngestRequests: one DocumentFile per ``file`` part of a multipart form
    (``knowledge_base`` applies to each), or the messages of a JSON body
    ``{"requests": [IngestRequest, ...]}``."""
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    if kind == "multipart/form-data":
        form = await Form.read(request)
        knowledge_base = form.text("knowledge_base")
        return [
            pb.IngestRequest(
                file=pb.DocumentFile(file_name=name, data=data, knowledge_base=knowledge_base)
            )
            for name, data in form.files("file", "a part named 'file' per file")
        ]
    _check_json(request)
    limit = UPLOAD_FACTOR * max_message_bytes
    body = await _body(request, limit, limit)
    requests = json_object(body, '{"requests": [IngestRequest, ...]}').get("requests")
    if not isinstance(requests, list):
        raise InvalidField(
            "requests",
            "send a multipart form of 'file' parts, or JSON {\"requests\": [IngestRequest, ...]}",
        )
    messages = []
    for index, item in enumerate(requests):
        try:
            if not isinstance(item, dict):
                raise InvalidField("", "each request is an object (an IngestRequest)")
            messages.append(from_dict(item, pb.IngestRequest()))
        except InvalidField as error:
            field = f"requests[{index}]" + (f".{error.field}" if error.field else "")
            raise InvalidField(field, f"requests[{index}]: {error}") from None
    return messages


async def _table_requests(request: Request, max_message_bytes: int) -> list[pb.IngestTableRequest]:
    """An IngestTable's messages from a multipart form: ``table``, ``schema`` (the TOML
    text), ``replace`` (true/false) and the data ``file`` (its filename is file_name)."""
    form = await Form.read(request)
    uploads = form.files("file", "the data file as a part named 'file'")
    if len(uploads) > 1:
        raise InvalidField("file", "the form has several data files: send one per table")
    file_name, data = uploads[0]
    replace = form.text("replace").lower()
    if replace not in ("", "true", "false", "1", "0", "on"):
        raise InvalidField("replace", f"replace is a flag: give true or false, not {replace!r}")
    size = min(TABLE_CHUNK_BYTES, max(1, max_message_bytes // 2))
    first = pb.IngestTableRequest(
        table=form.text("table"),
        schema=form.text("schema"),
        file_name=file_name,
        replace=replace in ("true", "1", "on"),
        data=data[:size],
    )
    rest = [pb.IngestTableRequest(data=data[i : i + size]) for i in range(size, len(data), size)]
    return [first, *rest]


@dataclass(frozen=True)
class Form:
    """A multipart form, read whole (its files' bytes too; the parser's spooled files are
    closed): text fields and files by part name, in order."""

    fields: dict[str, list[str]]
    uploads: dict[str, list[tuple[str, bytes]]]

    @classmethod
    async def read(cls, request: Request) -> Form:
        try:
            form = await request.form(max_files=MAX_FILES, max_fields=100)
        except Exception as error:  # Starlette's own refusals of a malformed form
            raise MalformedRequest(
                f"the body is not a multipart form ({getattr(error, 'detail', error)}): send "
                "Content-Type: multipart/form-data with the parts"
            ) from None
        fields: dict[str, list[str]] = {}
        uploads: dict[str, list[tuple[str, bytes]]] = {}
        try:
            for name, value in form.multi_items():
                if isinstance(value, UploadFile):
                    uploads.setdefault(name, []).append((value.filename or "", await value.read()))
                else:
                    fields.setdefault(name, []).append(value)
        finally:
            await form.close()
        return cls(fields, uploads)

    def text(self, name: str) -> str:
        """A text field ("" when absent); a file sent under its name is refused."""
        if name in self.uploads:
            raise InvalidField(name, f"{name} is a text field, not a file: send it as a plain part")
        values = self.fields.get(name, [""])
        if len(values) > 1:
            raise InvalidField(name, f"{name} is given {len(values)} times: give it once")
        return values[0]

    def files(self, name: str, how: str) -> list[tuple[str, bytes]]:
        """(file name, bytes) of the files under ``name``; none is refused (``how`` says
        what to send)."""
        if name in self.fields or not self.uploads.get(name):
            raise InvalidField(
                name, f"the form has no file under '{name}': send {how}, with its filename"
            )
        return self.uploads[name]
