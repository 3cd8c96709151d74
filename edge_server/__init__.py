"""The ragcore edge service: a gRPC server (contract: ``proto/ragcore/v1/ragcore.proto``).

    from edge_server import ServerConfig, create_server

    with create_server(ServerConfig(port=50051)) as server:
        server.wait_for_termination()

``python -m edge_server`` and ``ragcore serve`` run it from the command line;
``edge_server.client.Client`` talks to it. edge_server imports ragcore, never the reverse.
"""

from edge_server.config import ServerConfig
from edge_server.server import EdgeServer, create_server, serve

__all__ = ["EdgeServer", "ServerConfig", "create_server", "serve"]
