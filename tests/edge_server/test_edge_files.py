"""Issue 26 over a real gRPC server on port 0: citations and search hits say where in the
document to look (section, pages), ``ragcore ask --server`` prints it, and Ingest reads
files (``DocumentFile``) — a malformed one is INVALID_ARGUMENT naming the file, and
nothing of the call is stored."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from conftest import TODAY, make_docs

from edge_server.client import Client, error_details
from edge_server.v1 import ragcore_pb2 as pb
from ragcore import Config, Document, Engine
from ragcore.storage.store import DATABASE_NAME

pytestmark = pytest.mark.integration

QUESTION = "How often should the CP-200 seal be replaced?"
SEAL = "5 Maintenance > 5.3 Mechanical seal"
NOTE = Document(
    id="note-seal",
    knowledge_base="manuals",
    title="Shift note on the CP-200",
    text="The CP-200 seal kit is kept in cabinet 4 of the pump room.",
)
MANUAL = """---
id: manual-gx9
title: GX-9 conveyor manual
knowledge_base: manuals
doc_type: manual
authority: 4
updated_at: 2025-03-01
equipment: GX-9
---
# Belt

Set the GX-9 belt tension to 40 N at mid-span and check it every 250 hours.
"""


def located_engine(data_dir: Path, real_embedder) -> Engine:
    """An engine over the conftest documents and an undated note, the pump manual's chunks
    on pp. 42-43 of §5.3 (as a structured loader's chunks would be stored)."""
    engine = Engine(Config(data_dir=data_dir), embedder=real_embedder, clock=lambda: TODAY)
    engine.ingest([*make_docs(), NOTE])
    db = sqlite3.connect(data_dir / DATABASE_NAME)
    try:
        with db:
            db.execute(
                "UPDATE chunks SET section = ?, first_page = 42, last_page = 43 "
                "WHERE document_id = 'pump-cp200'",
                (SEAL,),
            )
    finally:
        db.close()
    return engine


def test_citations_and_hits_carry_section_and_pages_and_the_cli_prints_them(
    start_edge, tmp_path, real_embedder
):
    _, target = start_edge(engine=located_engine(tmp_path / "located", real_embedder))
    with Client(target) as client:
        answer = client.ask(QUESTION)
        hits = client.search("where is the CP-200 seal kit kept", k=5).hits
    assert answer.status == pb.ANSWER_STATUS_OK, answer.text
    pump = next(c for c in answer.citations if c.document_id == "pump-cp200")
    assert (pump.section, pump.first_page, pump.last_page, pump.updated_at) == (
        SEAL,
        42,
        43,
        "2024-05-01",
    )
    by_id = {h.document_id: h for h in hits}
    assert (by_id["pump-cp200"].section, by_id["pump-cp200"].first_page) == (SEAL, 42)
    assert by_id["pump-cp200"].last_page == 43
    note = by_id["note-seal"]  # undated, without structure: all empty
    assert (note.section, note.first_page, note.last_page, note.updated_at) == ("", 0, 0, "")

    printed = subprocess.run(
        [sys.executable, "-m", "edge_server.cli", "ask", QUESTION, "--server", target],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    assert (
        "CP-200 centrifugal pump, §5.3 Mechanical seal, p. 42–43 "
        "(manuals/pump-cp200, updated 2024-05-01)"
    ) in printed
    assert "updated ?" not in printed


def test_ingest_reads_a_markdown_file_with_front_matter_beside_a_document(start_edge, tmp_path):
    server, target = start_edge()
    path = tmp_path / "gx9.md"
    path.write_text(MANUAL, "utf-8")
    with Client(target) as client:
        summary = client.ingest(
            [
                pb.DocumentFile(file_name="gx9.md", data=MANUAL.encode()),
                pb.Document(id="faq-gx9", text="The GX-9 runs at 1.2 m/s.", knowledge_base="faq"),
            ]
        )
        again = client.ingest_files([path], knowledge_base="ignored-when-named")
        stored = client.document("manual-gx9")
        top = client.search("GX-9 belt tension", k=1).hits[0]
    assert [(o.document_id, o.status) for o in summary.outcomes] == [
        ("manual-gx9", pb.INGEST_STATUS_ADDED),
        ("faq-gx9", pb.INGEST_STATUS_ADDED),
    ]
    assert [o.status for o in again.outcomes] == [pb.INGEST_STATUS_UNCHANGED]
    assert (stored.title, stored.knowledge_base, stored.doc_type, stored.authority) == (
        "GX-9 conveyor manual",
        "manuals",
        "manual",
        4,
    )
    assert stored.updated_at == "2025-03-01" and dict(stored.metadata) == {"equipment": "GX-9"}
    assert top.document_id == "manual-gx9" and "40 N" in top.text


MALFORMED = [  # (file name, bytes, media type, what the message says)
    ("broken.md", b"---\nid: broken\nthis line has no colon\n---\nText", "", "key: value"),
    ("binary.txt", b"\x00\x01\x02 not text \x81", "", "is not UTF-8"),
    ("scan.tiff", b"II*\x00", "", "unsupported file type .tiff"),
    ("manual.md", b"Text", "image/png", "is not a type ragcore reads"),
    ("late.md", b"---\nid: late\nupdated_at: 2024-02-30\n---\nText", "", "updated_at"),
]


def test_a_malformed_file_is_invalid_argument_naming_it_and_nothing_is_stored(start_edge):
    server, target = start_edge()
    before = server.engine.stats()
    good = pb.DocumentFile(file_name="gx9.md", data=MANUAL.encode())
    with Client(target) as client:
        for name, data, media_type, says in MALFORMED:
            bad = pb.DocumentFile(file_name=name, data=data, media_type=media_type)
            with pytest.raises(grpc.RpcError) as caught:
                client.ingest([good, bad])
            error = caught.value
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, (name, error.details())
            assert name in error.details() and says in error.details(), error.details()
            details = error_details(error)
            assert details["ErrorInfo"].reason == "INVALID_DOCUMENT"
            assert details["ErrorInfo"].metadata["file"] == name
            assert details["ErrorInfo"].metadata["document_index"] == "1"
            (violation,) = details["BadRequest"].field_violations
            assert violation.field == "requests[1].file"
        # A check across the documents (one id twice) names the file too.
        with pytest.raises(grpc.RpcError) as caught:
            client.ingest([pb.Document(id="manual-gx9", text="Other text."), good])
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "gx9.md" in caught.value.details(), caught.value.details()
        assert error_details(caught.value)["BadRequest"].field_violations[0].field in (
            "requests[0].document.id",
            "requests[1].file",
        )
        # A file without a name is refused as a field of the message.
        with pytest.raises(grpc.RpcError) as caught:
            client.ingest([pb.DocumentFile(data=MANUAL.encode())])
        violation = error_details(caught.value)["BadRequest"].field_violations[0]
        assert violation.field == "requests[0].file.file_name"
        assert client.search("GX-9 belt tension", k=5).hits[0].document_id != "manual-gx9"
    after = server.engine.stats()
    assert (after.documents, after.chunks) == (before.documents, before.chunks)


def test_a_file_over_the_message_limit_is_refused_before_it_is_read(start_edge):
    _, target = start_edge(max_message_bytes=64 * 1024)
    big = MANUAL.encode() + b"More text about belts. " * 4000
    with Client(target) as client:
        with pytest.raises(grpc.RpcError) as caught:
            client.ingest([pb.DocumentFile(file_name="big.md", data=big)])
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert error_details(caught.value)["ErrorInfo"].reason == "MESSAGE_TOO_LARGE"
        assert "big" not in {d.id for d in client.documents()}


def test_a_files_text_over_the_document_limit_is_refused_naming_it(
    start_edge, tmp_path, real_embedder
):
    config = Config(data_dir=tmp_path / "small", max_document_chars=200)
    engine = Engine(config, embedder=real_embedder, clock=lambda: TODAY)
    _, target = start_edge(engine=engine)
    at_limit = MANUAL.split("---\n", 2)[2]
    with Client(target) as client:
        with pytest.raises(grpc.RpcError) as caught:
            client.ingest([pb.DocumentFile(file_name="long.md", data=b"x" * 201)])
        error = caught.value
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "long.md" in error.details() and "over the limit of 200" in error.details()
        assert error_details(error)["BadRequest"].field_violations[0].field == "requests[0].file"
        assert len(at_limit) <= 200
        summary = client.ingest([pb.DocumentFile(file_name="short.md", data=at_limit.encode())])
    assert summary.added == 1
