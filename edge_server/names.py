"""The gRPC names of the Ragcore service, read from the generated descriptor.

Derived, not typed out (as grpc's own ``grpc_health.v1.health`` does for its service),
so they follow the .proto; the server, the interceptors and the client all use these.
"""

from __future__ import annotations

from edge_server.v1 import ragcore_pb2

_RAGCORE = ragcore_pb2.DESCRIPTOR.services_by_name["Ragcore"]

SERVICE = _RAGCORE.full_name  # "ragcore.v1.Ragcore"


def method(name: str) -> str:
    """The path gRPC gives one of the service's rpcs: ``method("Ask")`` is
    ``"/ragcore.v1.Ragcore/Ask"``. A name the .proto does not declare is a KeyError."""
    return f"/{SERVICE}/{_RAGCORE.methods_by_name[name].name}"
