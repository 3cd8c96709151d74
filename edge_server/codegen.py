"""Regenerate the Python stubs from ``proto/ragcore/v1/ragcore.proto``.

    python -m edge_server.codegen          (or: make proto)

The stubs in ``edge_server/v1/`` are committed; ``tests/edge_server/test_proto_stubs.py`` fails
when they differ from what this writes, so edit the .proto, then run this. The output
depends on the grpcio-tools version, which ``pyproject.toml`` pins.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto" / "ragcore" / "v1"
PACKAGE = "edge_server/v1"  # where the stubs live, as a Python import path
# ragcore.binpb: the .proto's descriptors with its comments (source info), from which
# the HTTP API's OpenAPI document takes its descriptions (edge_server.http.openapi).
STUBS = ("ragcore_pb2.py", "ragcore_pb2.pyi", "ragcore_pb2_grpc.py", "ragcore.binpb")


def generate(out_dir: Path) -> list[Path]:
    """Write the stubs under ``out_dir/edge_server/v1``; return their paths."""
    from grpc_tools import protoc

    (out_dir / PACKAGE).mkdir(parents=True, exist_ok=True)
    # Mapping the .proto's folder onto the package makes the stubs import each other
    # as ``edge_server.v1`` (a plain -I would say ``ragcore.v1``, which is the library).
    args = [
        "protoc",
        f"-I{PACKAGE}={PROTO_DIR}",
        f"--python_out={out_dir}",
        f"--pyi_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        "--include_source_info",
        f"--descriptor_set_out={out_dir / PACKAGE / 'ragcore.binpb'}",
        f"{PACKAGE}/ragcore.proto",
    ]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed on {PROTO_DIR / 'ragcore.proto'} (see above)")
    return [out_dir / PACKAGE / name for name in STUBS]


def main() -> int:
    for path in generate(ROOT):
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
