"""Scoped tokens over a live server: a reader limited to ``manuals`` never receives a
chunk, id, title or count from outside it, by any rpc (Ask and AskStream with their
retries, Search, ListDocuments, GetDocument, ListKnowledgeBases, GetStats, GetServerInfo,
and the errors); an admin limited to ``faq`` writes and deletes only there.

The store is the sample knowledge base plus links across the scope's border (a
regulation superseding a manual, a manual superseding a FAQ), the easiest place for an id
to slip through.
"""

from __future__ import annotations

import json
import logging
from datetime import date

import grpc
import pytest
from google.protobuf import json_format

from edge_server.client import Client, error_details
from edge_server.v1 import ragcore_pb2 as pb
from ragcore import Document, Engine

pytestmark = pytest.mark.integration

ADMIN = "admin-token-0123456789abcdef"
READER = "manuals-reader-0123456789abcdef"  # scoped to manuals
FAQ_ADMIN = "faq-admin-0123456789abcdef"  # scoped to faq
SCOPE = "manuals"
# Questions whose best sources are outside manuals, and ones inside it; the last three
# make the answerer retry (a time-bound figure, an oil interval, a weight no document gives).
QUESTIONS = [
    "How often must lockout devices be inspected?",
    "Which compressor is louder, AC-75 or AC-110?",
    "In 2021, what torque did the HP-400 manual give for the platen bolts?",
    "Every how many hours does the HP-400 hydraulic oil get changed?",
    "What does the CP-200 weigh?",
]
BORDER = [  # documents that link across the scope's border
    Document(
        id="reg-hp400-press-rule",
        knowledge_base="regulations",
        title="HP-400 press operation rule",
        doc_type="regulation",
        authority=5,
        updated_at=date(2026, 1, 5),
        supersedes="manual-hp400-v2",
        text="The HP-400 platen bolts must be torqued to 55 N·m under the 2026 press rule.",
    ),
    Document(
        id="manual-cp200-seal-note",
        knowledge_base="manuals",
        title="CP-200 seal note",
        doc_type="manual",
        authority=4,
        updated_at=date(2025, 2, 1),
        supersedes="faq-cp200-seal",
        text="Replace the CP-200 mechanical seal every 1500 operating hours (P/N 88-2041-09).",
    ),
]


@pytest.fixture
def scoped(start_edge, tmp_path):
    path = tmp_path / "tokens"
    path.write_text(f"admin {ADMIN}\nreader {READER} {SCOPE}\nadmin {FAQ_ADMIN} faq\n")
    server, target = start_edge(tokens_file=path)
    server.engine.ingest(BORDER)
    return server, target


def everything(engine: Engine) -> list:
    """Every stored document, unscoped."""
    documents, token = [], None
    while True:
        page = engine.list_documents(page_size=1000, page_token=token)
        documents += page.documents
        token = page.next_page_token
        if not token:
            return documents


def messages_of(reply) -> list:
    """A reply, a stream of them, or a list: as protobuf messages."""
    return list(reply) if isinstance(reply, list | tuple) else [reply]


def walk(value, key: str = ""):
    """(field name, value) of every scalar anywhere in a message dict."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v, key)
    else:
        yield key, value


def test_a_scoped_reader_receives_nothing_from_outside_its_knowledge_bases(scoped, caplog):
    server, target = scoped
    engine = server.engine
    caplog.set_level(logging.INFO, logger="edge_server.access")
    stored = everything(engine)
    inside = [d for d in stored if d.knowledge_base == SCOPE]
    outside = [d for d in stored if d.knowledge_base != SCOPE]
    inside_chunks = {c for d in inside for c in engine.store.chunk_ids_of(d.id)}
    outside_chunks = {c for d in outside for c in engine.store.chunk_ids_of(d.id)}
    replies: list = []
    errors: list[grpc.RpcError] = []
    retries = 0
    with Client(target, token=READER) as reader:
        info = reader.server_info()
        replies.append(info)
        for question in QUESTIONS:
            # The stream first: the Ask that repeats it is then answered from the cache.
            events = list(reader.ask_stream(question, trace=True))
            retries += sum(1 for e in events if e.WhichOneof("event") == "retry")
            replies += events
            replies.append(reader.ask(question, trace=True))
        for mode in (pb.SEARCH_MODE_VECTOR, pb.SEARCH_MODE_KEYWORD, pb.SEARCH_MODE_HYBRID):
            for query in ("lockout device inspection", "HP-400 platen bolt torque", "seal"):
                replies.append(reader.search(query, mode=mode, k=100))
        replies.append(reader.search("seal", k=100, knowledge_bases=[SCOPE]))
        listed = list(reader.documents(page_size=5))
        replies += listed
        replies += [reader.document(d.id) for d in inside]
        kbs = reader.knowledge_bases()
        stats = reader.stats()
        replies += [*kbs, stats]
        for d in outside[:5] + [BORDER[0]]:
            errors.append(code_of(lambda d=d: reader.document(d.id)))
        missing = code_of(lambda: reader.document("no-such-document"))
        calls = [
            lambda: reader.search("lockout", knowledge_bases=["regulations"]),
            lambda: reader.search("lockout", knowledge_bases=["no-such-kb"]),
            lambda: reader.ask(QUESTIONS[0], knowledge_bases=["faq", SCOPE]),
            lambda: reader.list_documents(knowledge_base="regulations"),
        ]
        denied = [code_of(call) for call in calls]
        errors += [missing, *denied]

    # Counts: those of manuals alone.
    manuals = next(kb for kb in engine.knowledge_bases() if kb.name == SCOPE)
    assert [(kb.name, kb.documents, kb.chunks) for kb in kbs] == [
        (SCOPE, manuals.documents, manuals.chunks)
    ]
    assert (stats.knowledge_bases, stats.documents, stats.chunks, stats.vectors) == (
        1,
        manuals.documents,
        manuals.chunks,
        manuals.chunks,
    )
    assert stats.database_bytes == stats.index_bytes == 0
    assert sorted(d.id for d in listed) == sorted(d.id for d in inside)
    assert (info.role, list(info.scope)) == (pb.ROLE_READER, [SCOPE])
    assert retries >= 1, "no question made the answerer retry: the retries went unchecked"

    # Every field of every reply: ids, titles, knowledge bases and chunks of manuals only.
    foreign_ids = {d.id for d in outside}
    foreign_titles = {d.title for d in outside} - {d.title for d in inside}
    dumped = []
    for reply in replies:
        for message in messages_of(reply):
            as_dict = json_format.MessageToDict(message, preserving_proto_field_name=True)
            dumped.append(json.dumps(as_dict, ensure_ascii=False))
            for key, value in walk(as_dict):
                if key in ("chunk_id", "chunk_ids"):
                    assert int(value) in inside_chunks, (key, value)
                    assert int(value) not in outside_chunks
                elif key in ("knowledge_base", "knowledge_bases", "scope") and isinstance(
                    value, str
                ):  # (Stats.knowledge_bases is a count)
                    assert value == SCOPE, (key, value)
                elif key == "title":
                    assert value not in foreign_titles, value
    text = "\n".join(dumped)
    leaked = sorted(i for i in foreign_ids if i in text)
    assert not leaked, f"ids from outside {SCOPE} reached a scoped reader: {leaked}"

    # A document outside the scope is NOT_FOUND exactly as a missing one; a knowledge base
    # outside it is PERMISSION_DENIED whether or not it exists.
    for error, d in zip(errors[:6], [*outside[:5], BORDER[0]], strict=True):
        assert error.code() == grpc.StatusCode.NOT_FOUND
        assert error.details().replace(d.id, "X") == missing.details().replace(
            "no-such-document", "X"
        )
    assert all(e.code() == grpc.StatusCode.PERMISSION_DENIED for e in denied)
    assert {error_details(e)["ErrorInfo"].reason for e in denied} == {"OUTSIDE_SCOPE"}
    assert denied[0].details().replace("regulations", "X") == denied[1].details().replace(
        "no-such-kb", "X"
    )
    # The errors name nothing from outside but what the caller itself named.
    named = {"regulations", "faq", "no-such-kb", "no-such-document"} | {
        d.id for d in [*outside[:5], BORDER[0]]
    }
    for error in errors:
        assert not sorted(i for i in foreign_ids - named if i in error.details()), error.details()
    # The access log says who was refused, and with which scope.
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "edge_server.access"]
    refused = [line for line in lines if line["status"] == "PERMISSION_DENIED"]
    assert len(refused) == len(denied)
    assert all(line["role"] == "reader" and line["scope"] == [SCOPE] for line in refused)


def code_of(call) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value


def test_a_scoped_admin_writes_and_deletes_only_inside_its_knowledge_bases(scoped):
    server, target = scoped
    engine = server.engine
    before = {d.id: d for d in everything(engine)}
    intruder = pb.Document(id="faq-admin-note", text="Oil the GX-9 weekly.", knowledge_base=SCOPE)
    takeover = pb.Document(id="manual-cp200-v1", text="Overwritten.", knowledge_base="faq")
    with Client(target, token=FAQ_ADMIN) as admin:
        refused = [
            code_of(lambda: admin.ingest([intruder])),
            code_of(lambda: admin.ingest([takeover])),
            code_of(lambda: admin.delete("manual-cp200-v1")),
            code_of(lambda: admin.delete_knowledge_base(SCOPE)),
            code_of(lambda: admin.delete_knowledge_base("no-such-kb")),
        ]
        missing = code_of(lambda: admin.delete("no-such-document"))
        kbs = [kb.name for kb in admin.knowledge_bases()]
        # A link is a write: superseding a document outside the scope is refused in the
        # words of an id taken outside; superseding one that does not exist is not.
        link = pb.Document(id="faq-link", text="A note.", knowledge_base="faq")
        outcomes = []
        for target_id in ("manual-cp200-v2", "no-such-document"):
            link.supersedes = target_id
            try:
                outcomes.append(("ok", admin.ingest([link]).outcomes[0].status))
                admin.delete("faq-link")
            except grpc.RpcError as error:
                outcomes.append((error.code(), error.details().replace(target_id, "X")))
        mine = admin.ingest([pb.Document(id="faq-mine", text="GX-9 note.", knowledge_base="faq")])
        removed = admin.delete("faq-mine")
    assert kbs == ["faq"]
    assert [e.code() for e in refused] == [
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.PERMISSION_DENIED,
    ]
    assert refused[2].details().replace("manual-cp200-v1", "X") == missing.details().replace(
        "no-such-document", "X"
    )
    assert refused[3].details().replace(SCOPE, "X") == refused[4].details().replace(
        "no-such-kb", "X"
    )
    assert outcomes[0][0] == grpc.StatusCode.PERMISSION_DENIED, outcomes
    assert outcomes[0][1] == refused[1].details().replace("manual-cp200-v1", "X")
    assert outcomes[1] == ("ok", pb.INGEST_STATUS_ADDED), outcomes
    assert engine.document("manual-cp200-v2").superseded_by == ()  # seen by everyone
    assert mine.added == 1 and removed.chunks_removed >= 1
    after = {d.id: d for d in everything(engine)}
    assert after == before  # nothing outside faq changed (nor inside: faq-mine is gone)
