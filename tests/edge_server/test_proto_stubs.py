"""The committed stubs are exactly what ``python -m edge_server.codegen`` writes."""

from __future__ import annotations

from edge_server import codegen


def test_generated_stubs_match_the_proto(tmp_path):
    fresh = codegen.generate(tmp_path)
    committed = codegen.ROOT / codegen.PACKAGE
    for path in fresh:
        current = committed / path.name
        assert current.exists(), f"{current} is missing: run `make proto`"
        assert current.read_bytes() == path.read_bytes(), (
            f"{current.name} is out of date with proto/ragcore/v1/ragcore.proto: run `make proto`"
        )


def test_every_rpc_of_the_contract_is_commented():
    lines = (codegen.PROTO_DIR / "ragcore.proto").read_text().splitlines()
    rpcs = [i for i, line in enumerate(lines) if line.strip().startswith("rpc ")]
    assert len(rpcs) == 7
    for i in rpcs:
        assert lines[i - 1].strip().startswith("//"), f"rpc on line {i + 1} has no comment"
