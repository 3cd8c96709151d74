"""Every limit of the service in one place: what GetServerInfo reports and what the
servicer enforces, so the two cannot differ (the .proto's ``Limits`` states them once).

The question and query lengths are ragcore's own limits (a question counts after
stripping surrounding blanks, a query as given), checked here first so that a refusal
names its field; so are the lengths of ids and names (document ids, knowledge bases,
session ids, labels, file and table names), checked on every rpc that takes one, before
anything is looked up, so that no error text ever echoes a huge value.
``tests/edge_server/test_edge_limits.py`` checks that the .proto states these defaults,
and that a request at each limit is accepted and one beyond it refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from ragcore import (
    MAX_ID_CHARS,
    MAX_KNOWLEDGE_BASE_CHARS,
    MAX_LABEL_CHARS,
    MAX_QUERY_CHARS,
    MAX_QUESTION_CHARS,
    MAX_SESSION_ID_CHARS,
    MAX_TABLE_NAME_CHARS,
    Config,
)

MAX_K = 100
DEFAULT_K = 10
MAX_PAGE_SIZE = 1000
DEFAULT_PAGE_SIZE = 100
MIN_AUTHORITY, MAX_AUTHORITY = 1, 5
MAX_FILE_NAME_CHARS = 200  # DocumentFile.file_name and IngestTableRequest.file_name
# gRPC's own receive limit is this many times max_message_bytes: messages up to it reach
# the service, which refuses (and logs) them with details; larger ones gRPC refuses alone.
GRPC_RECEIVE_FACTOR = 2
GRPC_MAX_LENGTH = 2**31 - 1  # gRPC's option is a C int


@dataclass(frozen=True)
class Limits:
    """The limits of one server (the .proto's ``Limits`` message)."""

    max_question_chars: int
    max_query_chars: int
    max_document_chars: int
    max_message_bytes: int
    max_rounds: int
    max_k: int
    max_page_size: int
    max_in_flight: int
    max_id_chars: int = MAX_ID_CHARS
    max_knowledge_base_chars: int = MAX_KNOWLEDGE_BASE_CHARS
    max_session_id_chars: int = MAX_SESSION_ID_CHARS
    max_label_chars: int = MAX_LABEL_CHARS
    max_file_name_chars: int = MAX_FILE_NAME_CHARS
    max_table_name_chars: int = MAX_TABLE_NAME_CHARS

    @classmethod
    def of(cls, engine: Config, *, max_message_bytes: int, max_in_flight: int) -> Limits:
        return cls(
            max_question_chars=MAX_QUESTION_CHARS,
            max_query_chars=MAX_QUERY_CHARS,
            max_document_chars=engine.max_document_chars,
            max_message_bytes=max_message_bytes,
            max_rounds=engine.max_rounds,
            max_k=MAX_K,
            max_page_size=MAX_PAGE_SIZE,
            max_in_flight=max_in_flight,
        )


def grpc_receive_limit(max_message_bytes: int) -> int:
    return min(GRPC_RECEIVE_FACTOR * max_message_bytes, GRPC_MAX_LENGTH)
