"""The Starlette application: the rpc routes (``edge_server.http.routes``), the health
check, the OpenAPI document, and the page (``edge_server/http/static``).

CORS headers are sent only for the configured origins (none: no CORS at all, so a page
of another origin cannot read replies). The page gets ``Content-Security-Policy:
default-src 'self'``: it loads nothing from anywhere else.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from edge_server.http import openapi
from edge_server.http.gateway import Gateway, error_response, json_response
from edge_server.http.messages import to_json
from edge_server.http.routes import ROUTES, handler
from edge_server.http.statuses import status_of
from edge_server.interceptors import REQUEST_ID_HEADER, request_id_of

STATIC = Path(__file__).resolve().parent / "static"
PAGE_HEADERS = {
    "content-security-policy": "default-src 'self'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
HEALTH_CHECK = "/grpc.health.v1.Health/Check"
ALLOWED_HEADERS = ["authorization", "content-type", REQUEST_ID_HEADER, "x-request-timeout"]


def create_app(gateway: Gateway, cors_origins: tuple[str, ...] = ()) -> Starlette:
    """The HTTP API over ``gateway`` (opened and closed with the app)."""

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        await gateway.open()
        try:
            yield
        finally:
            await gateway.close()

    document = openapi.document(ROUTES)

    async def openapi_json(request: Request) -> Response:
        return json_response(document, request_id_of(request.headers.get(REQUEST_ID_HEADER, "")))

    async def health(request: Request) -> Response:
        """The health service's status (``service`` as in grpc.health.v1; empty: the
        whole server): 200 when SERVING, 503 otherwise, with ``{"status": ...}``."""
        request_id = request_id_of(request.headers.get(REQUEST_ID_HEADER, ""))
        check = gateway.channel.unary_unary(
            HEALTH_CHECK,
            request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
            response_deserializer=health_pb2.HealthCheckResponse.FromString,
        )
        service = request.query_params.get("service", "")
        try:
            reply = await check(health_pb2.HealthCheckRequest(service=service), timeout=10)
        except grpc.aio.AioRpcError as error:
            return error_response(status_of(error, request_id), request_id)
        serving = reply.status == health_pb2.HealthCheckResponse.SERVING
        return json_response(to_json(reply), request_id, 200 if serving else 503)

    async def page(_request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)

    routes: list[BaseRoute] = [
        Route(r.path, handler(r, gateway), methods=[r.verb], name=f"{r.verb} {r.path}")
        for r in ROUTES
    ]
    routes += [
        Route("/v1/health", health, methods=["GET"]),
        Route("/v1/openapi.json", openapi_json, methods=["GET"]),
        Route("/", page, methods=["GET"]),
        Mount("/static", app=_Static(directory=STATIC), name="static"),
    ]
    middleware = []
    if cors_origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(cors_origins),
                allow_methods=["GET", "POST", "DELETE"],
                allow_headers=ALLOWED_HEADERS,
                expose_headers=[REQUEST_ID_HEADER, "retry-after"],
                max_age=600,
            )
        )
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan)


class _Static(StaticFiles):
    """The page's files, with the page's security headers."""

    async def get_response(self, path: str, scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(PAGE_HEADERS)
        return response
