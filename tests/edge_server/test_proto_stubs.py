"""The committed stubs are exactly what ``python -m edge_server.codegen`` writes."""

from __future__ import annotations

from edge_server import codegen
from edge_server.v1 import ragcore_pb2 as pb


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
    assert len(rpcs) == len(pb.DESCRIPTOR.services_by_name["Ragcore"].methods) == 14
    for i in rpcs:
        assert lines[i - 1].strip().startswith("//"), f"rpc on line {i + 1} has no comment"


def test_every_vocabulary_of_ragcore_is_an_enum_of_the_contract():
    """convert maps each member of ragcore's closed sets to the enum value of the same
    name (it fails at import on a missing one); here the other way round: no enum value
    of the .proto lacks its member."""
    from edge_server import convert

    for mapping, enum in [
        (convert.STATUS, pb.AnswerStatus),
        (convert.ACTIONS, pb.Action),
        (convert.ROUTES, pb.Route),
        (convert.CHECKS, pb.Check),
        (convert.ISSUE_KINDS, pb.IssueKind),
        (convert.INGEST_STATUSES, pb.IngestStatus),
        (convert.SEARCH_MODES, pb.SearchMode),
    ]:
        assert sorted(mapping.values()) == [v for v in enum.values() if v != 0], enum


def test_the_table_vocabularies_are_enums_of_the_contract():
    """ListTables sends a column's type and a measure's aggregation as the .proto's enums,
    member for member."""
    from ragcore.tabular import Aggregation, ColumnType

    for vocabulary, enum, prefix in [
        (ColumnType, pb.ColumnType, "COLUMN_TYPE"),
        (Aggregation, pb.Aggregation, "AGGREGATION"),
    ]:
        names = sorted(f"{prefix}_{member.name}" for member in vocabulary)
        assert names == sorted(
            n for n in enum.DESCRIPTOR.values_by_name if n != f"{prefix}_UNSPECIFIED"
        )
