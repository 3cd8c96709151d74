"""Every limit of the service in one place: what GetServerInfo reports and what the
servicer enforces, so the two cannot differ (the .proto's ``Limits`` states them once).

The question and query lengths are ragcore's own limits (a question counts after
stripping surrounding blanks, a query as given), checked here first so that a refusal
names its field. ``tests/edge_server/test_edge_limits.py`` checks that the .proto states
these defaults, and that a request at each limit is accepted and one beyond it refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from ragcore import MAX_QUERY_CHARS, MAX_QUESTION_CHARS, Config

MAX_K = 100
DEFAULT_K = 10
MAX_PAGE_SIZE = 1000
DEFAULT_PAGE_SIZE = 100
MIN_AUTHORITY, MAX_AUTHORITY = 1, 5
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
