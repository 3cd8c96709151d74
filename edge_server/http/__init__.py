"""The JSON/HTTP API of the edge service, and the page, beside gRPC in the same process.

``ragcore serve --http-port 8080`` serves every rpc of ragcore.v1 as JSON over HTTP
(``routes.ROUTES``; AskStream as Server-Sent Events), ``/v1/health``, the OpenAPI
document at ``/v1/openapi.json`` and the page at ``/``. Each request is turned into the
rpc's request message (the proto3 JSON mapping) and called on the server's own gRPC
service over a private Unix socket (``gateway``), so tokens, scopes, limits, errors,
request ids, cancellation and metrics are the gRPC ones by construction.

Needs the ``http`` extra (Starlette, uvicorn, python-multipart): ``pip install
'ragcore[http]'``. Importing ``edge_server.http.serving`` without it raises ImportError.
"""
