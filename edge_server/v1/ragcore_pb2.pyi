from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Role(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROLE_UNSPECIFIED: _ClassVar[Role]
    ROLE_READER: _ClassVar[Role]
    ROLE_ADMIN: _ClassVar[Role]

class AnswerStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ANSWER_STATUS_UNSPECIFIED: _ClassVar[AnswerStatus]
    ANSWER_STATUS_OK: _ClassVar[AnswerStatus]
    ANSWER_STATUS_UNCERTAIN: _ClassVar[AnswerStatus]
    ANSWER_STATUS_NO_ANSWER: _ClassVar[AnswerStatus]

class Check(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHECK_UNSPECIFIED: _ClassVar[Check]
    CHECK_TRACEABILITY: _ClassVar[Check]
    CHECK_TIMELINESS: _ClassVar[Check]
    CHECK_CONSISTENCY: _ClassVar[Check]

class IssueKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ISSUE_KIND_UNSPECIFIED: _ClassVar[IssueKind]
    ISSUE_KIND_UNCITED: _ClassVar[IssueKind]
    ISSUE_KIND_INVALID_CITATION: _ClassVar[IssueKind]
    ISSUE_KIND_UNSUPPORTED: _ClassVar[IssueKind]
    ISSUE_KIND_UNSUPPORTED_NUMBER: _ClassVar[IssueKind]
    ISSUE_KIND_NO_EVIDENCE: _ClassVar[IssueKind]
    ISSUE_KIND_ATTRIBUTE_NOT_FOUND: _ClassVar[IssueKind]
    ISSUE_KIND_SUPERSEDED: _ClassVar[IssueKind]
    ISSUE_KIND_OUTSIDE_INTERVAL: _ClassVar[IssueKind]
    ISSUE_KIND_OUTRANKED: _ClassVar[IssueKind]
    ISSUE_KIND_MISSING_SIDE: _ClassVar[IssueKind]
    ISSUE_KIND_UNSUPPORTED_RELATION: _ClassVar[IssueKind]
    ISSUE_KIND_UNSUPPORTED_CLAIM: _ClassVar[IssueKind]
    ISSUE_KIND_WRONG_ENTITY: _ClassVar[IssueKind]
    ISSUE_KIND_UNIT_MISMATCH: _ClassVar[IssueKind]
    ISSUE_KIND_OFF_QUESTION: _ClassVar[IssueKind]

class Action(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACTION_UNSPECIFIED: _ClassVar[Action]
    ACTION_COMPARE: _ClassVar[Action]
    ACTION_EXPLAIN: _ClassVar[Action]
    ACTION_HOW_TO: _ClassVar[Action]
    ACTION_LIST: _ClassVar[Action]
    ACTION_SUMMARIZE: _ClassVar[Action]
    ACTION_LOOKUP: _ClassVar[Action]

class Route(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROUTE_UNSPECIFIED: _ClassVar[Route]
    ROUTE_DIRECT: _ClassVar[Route]
    ROUTE_SIMPLE: _ClassVar[Route]
    ROUTE_COMPARISON: _ClassVar[Route]
    ROUTE_MULTI_HOP: _ClassVar[Route]

class SearchMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEARCH_MODE_UNSPECIFIED: _ClassVar[SearchMode]
    SEARCH_MODE_VECTOR: _ClassVar[SearchMode]
    SEARCH_MODE_KEYWORD: _ClassVar[SearchMode]
    SEARCH_MODE_HYBRID: _ClassVar[SearchMode]

class IngestStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    INGEST_STATUS_UNSPECIFIED: _ClassVar[IngestStatus]
    INGEST_STATUS_ADDED: _ClassVar[IngestStatus]
    INGEST_STATUS_UPDATED: _ClassVar[IngestStatus]
    INGEST_STATUS_UNCHANGED: _ClassVar[IngestStatus]

class ColumnType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    COLUMN_TYPE_UNSPECIFIED: _ClassVar[ColumnType]
    COLUMN_TYPE_TEXT: _ClassVar[ColumnType]
    COLUMN_TYPE_INTEGER: _ClassVar[ColumnType]
    COLUMN_TYPE_REAL: _ClassVar[ColumnType]
    COLUMN_TYPE_DATE: _ClassVar[ColumnType]
    COLUMN_TYPE_MONTH: _ClassVar[ColumnType]

class Aggregation(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AGGREGATION_UNSPECIFIED: _ClassVar[Aggregation]
    AGGREGATION_SUM: _ClassVar[Aggregation]
    AGGREGATION_AVG: _ClassVar[Aggregation]
    AGGREGATION_MIN: _ClassVar[Aggregation]
    AGGREGATION_MAX: _ClassVar[Aggregation]
    AGGREGATION_COUNT: _ClassVar[Aggregation]
    AGGREGATION_LATEST: _ClassVar[Aggregation]
    AGGREGATION_MEDIAN: _ClassVar[Aggregation]
    AGGREGATION_SHARE: _ClassVar[Aggregation]
ROLE_UNSPECIFIED: Role
ROLE_READER: Role
ROLE_ADMIN: Role
ANSWER_STATUS_UNSPECIFIED: AnswerStatus
ANSWER_STATUS_OK: AnswerStatus
ANSWER_STATUS_UNCERTAIN: AnswerStatus
ANSWER_STATUS_NO_ANSWER: AnswerStatus
CHECK_UNSPECIFIED: Check
CHECK_TRACEABILITY: Check
CHECK_TIMELINESS: Check
CHECK_CONSISTENCY: Check
ISSUE_KIND_UNSPECIFIED: IssueKind
ISSUE_KIND_UNCITED: IssueKind
ISSUE_KIND_INVALID_CITATION: IssueKind
ISSUE_KIND_UNSUPPORTED: IssueKind
ISSUE_KIND_UNSUPPORTED_NUMBER: IssueKind
ISSUE_KIND_NO_EVIDENCE: IssueKind
ISSUE_KIND_ATTRIBUTE_NOT_FOUND: IssueKind
ISSUE_KIND_SUPERSEDED: IssueKind
ISSUE_KIND_OUTSIDE_INTERVAL: IssueKind
ISSUE_KIND_OUTRANKED: IssueKind
ISSUE_KIND_MISSING_SIDE: IssueKind
ISSUE_KIND_UNSUPPORTED_RELATION: IssueKind
ISSUE_KIND_UNSUPPORTED_CLAIM: IssueKind
ISSUE_KIND_WRONG_ENTITY: IssueKind
ISSUE_KIND_UNIT_MISMATCH: IssueKind
ISSUE_KIND_OFF_QUESTION: IssueKind
ACTION_UNSPECIFIED: Action
ACTION_COMPARE: Action
ACTION_EXPLAIN: Action
ACTION_HOW_TO: Action
ACTION_LIST: Action
ACTION_SUMMARIZE: Action
ACTION_LOOKUP: Action
ROUTE_UNSPECIFIED: Route
ROUTE_DIRECT: Route
ROUTE_SIMPLE: Route
ROUTE_COMPARISON: Route
ROUTE_MULTI_HOP: Route
SEARCH_MODE_UNSPECIFIED: SearchMode
SEARCH_MODE_VECTOR: SearchMode
SEARCH_MODE_KEYWORD: SearchMode
SEARCH_MODE_HYBRID: SearchMode
INGEST_STATUS_UNSPECIFIED: IngestStatus
INGEST_STATUS_ADDED: IngestStatus
INGEST_STATUS_UPDATED: IngestStatus
INGEST_STATUS_UNCHANGED: IngestStatus
COLUMN_TYPE_UNSPECIFIED: ColumnType
COLUMN_TYPE_TEXT: ColumnType
COLUMN_TYPE_INTEGER: ColumnType
COLUMN_TYPE_REAL: ColumnType
COLUMN_TYPE_DATE: ColumnType
COLUMN_TYPE_MONTH: ColumnType
AGGREGATION_UNSPECIFIED: Aggregation
AGGREGATION_SUM: Aggregation
AGGREGATION_AVG: Aggregation
AGGREGATION_MIN: Aggregation
AGGREGATION_MAX: Aggregation
AGGREGATION_COUNT: Aggregation
AGGREGATION_LATEST: Aggregation
AGGREGATION_MEDIAN: Aggregation
AGGREGATION_SHARE: Aggregation

class GetServerInfoRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class EndSessionRequest(_message.Message):
    __slots__ = ("session_id",)
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    def __init__(self, session_id: _Optional[str] = ...) -> None: ...

class EndSessionResponse(_message.Message):
    __slots__ = ("ended",)
    ENDED_FIELD_NUMBER: _ClassVar[int]
    ended: bool
    def __init__(self, ended: _Optional[bool] = ...) -> None: ...

class ServerInfo(_message.Message):
    __slots__ = ("version", "limits", "embedder", "reranker", "generator", "store", "role", "scope", "store_settings")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    EMBEDDER_FIELD_NUMBER: _ClassVar[int]
    RERANKER_FIELD_NUMBER: _ClassVar[int]
    GENERATOR_FIELD_NUMBER: _ClassVar[int]
    STORE_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    STORE_SETTINGS_FIELD_NUMBER: _ClassVar[int]
    version: str
    limits: Limits
    embedder: str
    reranker: str
    generator: str
    store: str
    role: Role
    scope: _containers.RepeatedScalarFieldContainer[str]
    store_settings: StoreSettings
    def __init__(self, version: _Optional[str] = ..., limits: _Optional[_Union[Limits, _Mapping]] = ..., embedder: _Optional[str] = ..., reranker: _Optional[str] = ..., generator: _Optional[str] = ..., store: _Optional[str] = ..., role: _Optional[_Union[Role, str]] = ..., scope: _Optional[_Iterable[str]] = ..., store_settings: _Optional[_Union[StoreSettings, _Mapping]] = ...) -> None: ...

class StoreSettings(_message.Message):
    __slots__ = ("pool_size", "connect_timeout_seconds", "statement_timeout_seconds", "prepared_statements")
    POOL_SIZE_FIELD_NUMBER: _ClassVar[int]
    CONNECT_TIMEOUT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    STATEMENT_TIMEOUT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    PREPARED_STATEMENTS_FIELD_NUMBER: _ClassVar[int]
    pool_size: int
    connect_timeout_seconds: float
    statement_timeout_seconds: float
    prepared_statements: bool
    def __init__(self, pool_size: _Optional[int] = ..., connect_timeout_seconds: _Optional[float] = ..., statement_timeout_seconds: _Optional[float] = ..., prepared_statements: _Optional[bool] = ...) -> None: ...

class Limits(_message.Message):
    __slots__ = ("max_question_chars", "max_query_chars", "max_document_chars", "max_message_bytes", "max_rounds", "max_k", "max_page_size", "max_in_flight", "max_id_chars", "max_knowledge_base_chars", "max_session_id_chars", "max_label_chars", "max_file_name_chars", "max_table_name_chars")
    MAX_QUESTION_CHARS_FIELD_NUMBER: _ClassVar[int]
    MAX_QUERY_CHARS_FIELD_NUMBER: _ClassVar[int]
    MAX_DOCUMENT_CHARS_FIELD_NUMBER: _ClassVar[int]
    MAX_MESSAGE_BYTES_FIELD_NUMBER: _ClassVar[int]
    MAX_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    MAX_K_FIELD_NUMBER: _ClassVar[int]
    MAX_PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    MAX_IN_FLIGHT_FIELD_NUMBER: _ClassVar[int]
    MAX_ID_CHARS_FIELD_NUMBER: _ClassVar[int]
    MAX_KNOWLEDGE_BASE_CHARS_FIELD_NUMBER: _ClassVar[int]
    MAX_SESSION_ID_CHARS_FIELD_NUMBER: _ClassVar[int]
    MAX_LABEL_CHARS_FIELD_NUMBER: _ClassVar[int]
    MAX_FILE_NAME_CHARS_FIELD_NUMBER: _ClassVar[int]
    MAX_TABLE_NAME_CHARS_FIELD_NUMBER: _ClassVar[int]
    max_question_chars: int
    max_query_chars: int
    max_document_chars: int
    max_message_bytes: int
    max_rounds: int
    max_k: int
    max_page_size: int
    max_in_flight: int
    max_id_chars: int
    max_knowledge_base_chars: int
    max_session_id_chars: int
    max_label_chars: int
    max_file_name_chars: int
    max_table_name_chars: int
    def __init__(self, max_question_chars: _Optional[int] = ..., max_query_chars: _Optional[int] = ..., max_document_chars: _Optional[int] = ..., max_message_bytes: _Optional[int] = ..., max_rounds: _Optional[int] = ..., max_k: _Optional[int] = ..., max_page_size: _Optional[int] = ..., max_in_flight: _Optional[int] = ..., max_id_chars: _Optional[int] = ..., max_knowledge_base_chars: _Optional[int] = ..., max_session_id_chars: _Optional[int] = ..., max_label_chars: _Optional[int] = ..., max_file_name_chars: _Optional[int] = ..., max_table_name_chars: _Optional[int] = ...) -> None: ...

class SearchFilters(_message.Message):
    __slots__ = ("knowledge_bases", "doc_types", "updated_after", "updated_before", "min_authority", "exclude_superseded")
    KNOWLEDGE_BASES_FIELD_NUMBER: _ClassVar[int]
    DOC_TYPES_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AFTER_FIELD_NUMBER: _ClassVar[int]
    UPDATED_BEFORE_FIELD_NUMBER: _ClassVar[int]
    MIN_AUTHORITY_FIELD_NUMBER: _ClassVar[int]
    EXCLUDE_SUPERSEDED_FIELD_NUMBER: _ClassVar[int]
    knowledge_bases: _containers.RepeatedScalarFieldContainer[str]
    doc_types: _containers.RepeatedScalarFieldContainer[str]
    updated_after: str
    updated_before: str
    min_authority: int
    exclude_superseded: bool
    def __init__(self, knowledge_bases: _Optional[_Iterable[str]] = ..., doc_types: _Optional[_Iterable[str]] = ..., updated_after: _Optional[str] = ..., updated_before: _Optional[str] = ..., min_authority: _Optional[int] = ..., exclude_superseded: _Optional[bool] = ...) -> None: ...

class AskRequest(_message.Message):
    __slots__ = ("question", "include_trace", "filters", "max_rounds", "session_id", "new_session")
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_TRACE_FIELD_NUMBER: _ClassVar[int]
    FILTERS_FIELD_NUMBER: _ClassVar[int]
    MAX_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    NEW_SESSION_FIELD_NUMBER: _ClassVar[int]
    question: str
    include_trace: bool
    filters: SearchFilters
    max_rounds: int
    session_id: str
    new_session: bool
    def __init__(self, question: _Optional[str] = ..., include_trace: _Optional[bool] = ..., filters: _Optional[_Union[SearchFilters, _Mapping]] = ..., max_rounds: _Optional[int] = ..., session_id: _Optional[str] = ..., new_session: _Optional[bool] = ...) -> None: ...

class Answer(_message.Message):
    __slots__ = ("question", "status", "text", "citations", "report", "perception", "rounds", "tasks", "searches", "generator", "timings", "trace", "rewritten_question", "cached", "session_id")
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    CITATIONS_FIELD_NUMBER: _ClassVar[int]
    REPORT_FIELD_NUMBER: _ClassVar[int]
    PERCEPTION_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    TASKS_FIELD_NUMBER: _ClassVar[int]
    SEARCHES_FIELD_NUMBER: _ClassVar[int]
    GENERATOR_FIELD_NUMBER: _ClassVar[int]
    TIMINGS_FIELD_NUMBER: _ClassVar[int]
    TRACE_FIELD_NUMBER: _ClassVar[int]
    REWRITTEN_QUESTION_FIELD_NUMBER: _ClassVar[int]
    CACHED_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    question: str
    status: AnswerStatus
    text: str
    citations: _containers.RepeatedCompositeFieldContainer[Citation]
    report: ValidationReport
    perception: Perception
    rounds: int
    tasks: int
    searches: int
    generator: str
    timings: Timings
    trace: TraceNode
    rewritten_question: str
    cached: bool
    session_id: str
    def __init__(self, question: _Optional[str] = ..., status: _Optional[_Union[AnswerStatus, str]] = ..., text: _Optional[str] = ..., citations: _Optional[_Iterable[_Union[Citation, _Mapping]]] = ..., report: _Optional[_Union[ValidationReport, _Mapping]] = ..., perception: _Optional[_Union[Perception, _Mapping]] = ..., rounds: _Optional[int] = ..., tasks: _Optional[int] = ..., searches: _Optional[int] = ..., generator: _Optional[str] = ..., timings: _Optional[_Union[Timings, _Mapping]] = ..., trace: _Optional[_Union[TraceNode, _Mapping]] = ..., rewritten_question: _Optional[str] = ..., cached: _Optional[bool] = ..., session_id: _Optional[str] = ...) -> None: ...

class Citation(_message.Message):
    __slots__ = ("number", "chunk_id", "document_id", "title", "knowledge_base", "updated_at", "text", "table", "rows", "query", "section", "first_page", "last_page")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    CHUNK_ID_FIELD_NUMBER: _ClassVar[int]
    DOCUMENT_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    KNOWLEDGE_BASE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    SECTION_FIELD_NUMBER: _ClassVar[int]
    FIRST_PAGE_FIELD_NUMBER: _ClassVar[int]
    LAST_PAGE_FIELD_NUMBER: _ClassVar[int]
    number: int
    chunk_id: int
    document_id: str
    title: str
    knowledge_base: str
    updated_at: str
    text: str
    table: str
    rows: _containers.RepeatedScalarFieldContainer[int]
    query: str
    section: str
    first_page: int
    last_page: int
    def __init__(self, number: _Optional[int] = ..., chunk_id: _Optional[int] = ..., document_id: _Optional[str] = ..., title: _Optional[str] = ..., knowledge_base: _Optional[str] = ..., updated_at: _Optional[str] = ..., text: _Optional[str] = ..., table: _Optional[str] = ..., rows: _Optional[_Iterable[int]] = ..., query: _Optional[str] = ..., section: _Optional[str] = ..., first_page: _Optional[int] = ..., last_page: _Optional[int] = ...) -> None: ...

class ValidationReport(_message.Message):
    __slots__ = ("passed", "checks", "support")
    PASSED_FIELD_NUMBER: _ClassVar[int]
    CHECKS_FIELD_NUMBER: _ClassVar[int]
    SUPPORT_FIELD_NUMBER: _ClassVar[int]
    passed: bool
    checks: _containers.RepeatedCompositeFieldContainer[CheckResult]
    support: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, passed: _Optional[bool] = ..., checks: _Optional[_Iterable[_Union[CheckResult, _Mapping]]] = ..., support: _Optional[_Iterable[float]] = ...) -> None: ...

class CheckResult(_message.Message):
    __slots__ = ("check", "passed", "checked", "issues")
    CHECK_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    CHECKED_FIELD_NUMBER: _ClassVar[int]
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    check: Check
    passed: bool
    checked: int
    issues: _containers.RepeatedCompositeFieldContainer[Issue]
    def __init__(self, check: _Optional[_Union[Check, str]] = ..., passed: _Optional[bool] = ..., checked: _Optional[int] = ..., issues: _Optional[_Iterable[_Union[Issue, _Mapping]]] = ...) -> None: ...

class Issue(_message.Message):
    __slots__ = ("check", "kind", "message", "statement", "chunk_ids", "document_ids", "entity", "rule")
    CHECK_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    STATEMENT_FIELD_NUMBER: _ClassVar[int]
    CHUNK_IDS_FIELD_NUMBER: _ClassVar[int]
    DOCUMENT_IDS_FIELD_NUMBER: _ClassVar[int]
    ENTITY_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    check: Check
    kind: IssueKind
    message: str
    statement: str
    chunk_ids: _containers.RepeatedScalarFieldContainer[int]
    document_ids: _containers.RepeatedScalarFieldContainer[str]
    entity: str
    rule: str
    def __init__(self, check: _Optional[_Union[Check, str]] = ..., kind: _Optional[_Union[IssueKind, str]] = ..., message: _Optional[str] = ..., statement: _Optional[str] = ..., chunk_ids: _Optional[_Iterable[int]] = ..., document_ids: _Optional[_Iterable[str]] = ..., entity: _Optional[str] = ..., rule: _Optional[str] = ...) -> None: ...

class Perception(_message.Message):
    __slots__ = ("question", "action", "route", "entities", "sides", "time_start", "time_end", "source", "quantitative", "warnings")
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ROUTE_FIELD_NUMBER: _ClassVar[int]
    ENTITIES_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    TIME_START_FIELD_NUMBER: _ClassVar[int]
    TIME_END_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    QUANTITATIVE_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    question: str
    action: Action
    route: Route
    entities: _containers.RepeatedCompositeFieldContainer[Entity]
    sides: _containers.RepeatedScalarFieldContainer[str]
    time_start: str
    time_end: str
    source: str
    quantitative: bool
    warnings: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, question: _Optional[str] = ..., action: _Optional[_Union[Action, str]] = ..., route: _Optional[_Union[Route, str]] = ..., entities: _Optional[_Iterable[_Union[Entity, _Mapping]]] = ..., sides: _Optional[_Iterable[str]] = ..., time_start: _Optional[str] = ..., time_end: _Optional[str] = ..., source: _Optional[str] = ..., quantitative: _Optional[bool] = ..., warnings: _Optional[_Iterable[str]] = ...) -> None: ...

class Entity(_message.Message):
    __slots__ = ("text", "label")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    text: str
    label: str
    def __init__(self, text: _Optional[str] = ..., label: _Optional[str] = ...) -> None: ...

class Timings(_message.Message):
    __slots__ = ("perception_ms", "plan_ms", "retrieval_ms", "generation_ms", "validation_ms", "total_ms")
    PERCEPTION_MS_FIELD_NUMBER: _ClassVar[int]
    PLAN_MS_FIELD_NUMBER: _ClassVar[int]
    RETRIEVAL_MS_FIELD_NUMBER: _ClassVar[int]
    GENERATION_MS_FIELD_NUMBER: _ClassVar[int]
    VALIDATION_MS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_MS_FIELD_NUMBER: _ClassVar[int]
    perception_ms: float
    plan_ms: float
    retrieval_ms: float
    generation_ms: float
    validation_ms: float
    total_ms: float
    def __init__(self, perception_ms: _Optional[float] = ..., plan_ms: _Optional[float] = ..., retrieval_ms: _Optional[float] = ..., generation_ms: _Optional[float] = ..., validation_ms: _Optional[float] = ..., total_ms: _Optional[float] = ...) -> None: ...

class TraceNode(_message.Message):
    __slots__ = ("name", "ms", "detail", "children")
    NAME_FIELD_NUMBER: _ClassVar[int]
    MS_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    CHILDREN_FIELD_NUMBER: _ClassVar[int]
    name: str
    ms: float
    detail: str
    children: _containers.RepeatedCompositeFieldContainer[TraceNode]
    def __init__(self, name: _Optional[str] = ..., ms: _Optional[float] = ..., detail: _Optional[str] = ..., children: _Optional[_Iterable[_Union[TraceNode, _Mapping]]] = ...) -> None: ...

class AskEvent(_message.Message):
    __slots__ = ("round", "elapsed_ms", "perception", "plan", "retrieval", "draft", "validation", "retry", "result")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    PERCEPTION_FIELD_NUMBER: _ClassVar[int]
    PLAN_FIELD_NUMBER: _ClassVar[int]
    RETRIEVAL_FIELD_NUMBER: _ClassVar[int]
    DRAFT_FIELD_NUMBER: _ClassVar[int]
    VALIDATION_FIELD_NUMBER: _ClassVar[int]
    RETRY_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    round: int
    elapsed_ms: float
    perception: Perception
    plan: PlanEvent
    retrieval: RetrievalEvent
    draft: DraftEvent
    validation: ValidationReport
    retry: RetryEvent
    result: Answer
    def __init__(self, round: _Optional[int] = ..., elapsed_ms: _Optional[float] = ..., perception: _Optional[_Union[Perception, _Mapping]] = ..., plan: _Optional[_Union[PlanEvent, _Mapping]] = ..., retrieval: _Optional[_Union[RetrievalEvent, _Mapping]] = ..., draft: _Optional[_Union[DraftEvent, _Mapping]] = ..., validation: _Optional[_Union[ValidationReport, _Mapping]] = ..., retry: _Optional[_Union[RetryEvent, _Mapping]] = ..., result: _Optional[_Union[Answer, _Mapping]] = ...) -> None: ...

class PlanEvent(_message.Message):
    __slots__ = ("tasks", "reasons")
    TASKS_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    tasks: _containers.RepeatedCompositeFieldContainer[Task]
    reasons: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, tasks: _Optional[_Iterable[_Union[Task, _Mapping]]] = ..., reasons: _Optional[_Iterable[str]] = ...) -> None: ...

class Task(_message.Message):
    __slots__ = ("id", "query", "mode", "k", "weight", "reason", "knowledge_bases")
    ID_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    K_FIELD_NUMBER: _ClassVar[int]
    WEIGHT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    KNOWLEDGE_BASES_FIELD_NUMBER: _ClassVar[int]
    id: str
    query: str
    mode: SearchMode
    k: int
    weight: float
    reason: str
    knowledge_bases: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., query: _Optional[str] = ..., mode: _Optional[_Union[SearchMode, str]] = ..., k: _Optional[int] = ..., weight: _Optional[float] = ..., reason: _Optional[str] = ..., knowledge_bases: _Optional[_Iterable[str]] = ...) -> None: ...

class RetrievalEvent(_message.Message):
    __slots__ = ("evidence", "document_ids", "searches")
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    DOCUMENT_IDS_FIELD_NUMBER: _ClassVar[int]
    SEARCHES_FIELD_NUMBER: _ClassVar[int]
    evidence: int
    document_ids: _containers.RepeatedScalarFieldContainer[str]
    searches: int
    def __init__(self, evidence: _Optional[int] = ..., document_ids: _Optional[_Iterable[str]] = ..., searches: _Optional[int] = ...) -> None: ...

class DraftEvent(_message.Message):
    __slots__ = ("text", "abstained")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    ABSTAINED_FIELD_NUMBER: _ClassVar[int]
    text: str
    abstained: bool
    def __init__(self, text: _Optional[str] = ..., abstained: _Optional[bool] = ...) -> None: ...

class RetryEvent(_message.Message):
    __slots__ = ("issues",)
    ISSUES_FIELD_NUMBER: _ClassVar[int]
    issues: _containers.RepeatedCompositeFieldContainer[Issue]
    def __init__(self, issues: _Optional[_Iterable[_Union[Issue, _Mapping]]] = ...) -> None: ...

class SearchRequest(_message.Message):
    __slots__ = ("query", "mode", "k", "filters")
    QUERY_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    K_FIELD_NUMBER: _ClassVar[int]
    FILTERS_FIELD_NUMBER: _ClassVar[int]
    query: str
    mode: SearchMode
    k: int
    filters: SearchFilters
    def __init__(self, query: _Optional[str] = ..., mode: _Optional[_Union[SearchMode, str]] = ..., k: _Optional[int] = ..., filters: _Optional[_Union[SearchFilters, _Mapping]] = ...) -> None: ...

class SearchResponse(_message.Message):
    __slots__ = ("hits", "took_ms")
    HITS_FIELD_NUMBER: _ClassVar[int]
    TOOK_MS_FIELD_NUMBER: _ClassVar[int]
    hits: _containers.RepeatedCompositeFieldContainer[SearchHit]
    took_ms: float
    def __init__(self, hits: _Optional[_Iterable[_Union[SearchHit, _Mapping]]] = ..., took_ms: _Optional[float] = ...) -> None: ...

class SearchHit(_message.Message):
    __slots__ = ("chunk_id", "document_id", "title", "knowledge_base", "text", "score", "scores", "start", "end", "updated_at", "superseded_by", "start_utf8", "end_utf8", "section", "first_page", "last_page")
    class ScoresEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    CHUNK_ID_FIELD_NUMBER: _ClassVar[int]
    DOCUMENT_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    KNOWLEDGE_BASE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    SUPERSEDED_BY_FIELD_NUMBER: _ClassVar[int]
    START_UTF8_FIELD_NUMBER: _ClassVar[int]
    END_UTF8_FIELD_NUMBER: _ClassVar[int]
    SECTION_FIELD_NUMBER: _ClassVar[int]
    FIRST_PAGE_FIELD_NUMBER: _ClassVar[int]
    LAST_PAGE_FIELD_NUMBER: _ClassVar[int]
    chunk_id: int
    document_id: str
    title: str
    knowledge_base: str
    text: str
    score: float
    scores: _containers.ScalarMap[str, float]
    start: int
    end: int
    updated_at: str
    superseded_by: str
    start_utf8: int
    end_utf8: int
    section: str
    first_page: int
    last_page: int
    def __init__(self, chunk_id: _Optional[int] = ..., document_id: _Optional[str] = ..., title: _Optional[str] = ..., knowledge_base: _Optional[str] = ..., text: _Optional[str] = ..., score: _Optional[float] = ..., scores: _Optional[_Mapping[str, float]] = ..., start: _Optional[int] = ..., end: _Optional[int] = ..., updated_at: _Optional[str] = ..., superseded_by: _Optional[str] = ..., start_utf8: _Optional[int] = ..., end_utf8: _Optional[int] = ..., section: _Optional[str] = ..., first_page: _Optional[int] = ..., last_page: _Optional[int] = ...) -> None: ...

class IngestRequest(_message.Message):
    __slots__ = ("document", "file")
    DOCUMENT_FIELD_NUMBER: _ClassVar[int]
    FILE_FIELD_NUMBER: _ClassVar[int]
    document: Document
    file: DocumentFile
    def __init__(self, document: _Optional[_Union[Document, _Mapping]] = ..., file: _Optional[_Union[DocumentFile, _Mapping]] = ...) -> None: ...

class DocumentFile(_message.Message):
    __slots__ = ("file_name", "data", "media_type", "knowledge_base")
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    MEDIA_TYPE_FIELD_NUMBER: _ClassVar[int]
    KNOWLEDGE_BASE_FIELD_NUMBER: _ClassVar[int]
    file_name: str
    data: bytes
    media_type: str
    knowledge_base: str
    def __init__(self, file_name: _Optional[str] = ..., data: _Optional[bytes] = ..., media_type: _Optional[str] = ..., knowledge_base: _Optional[str] = ...) -> None: ...

class Document(_message.Message):
    __slots__ = ("id", "text", "knowledge_base", "title", "source", "doc_type", "authority", "updated_at", "version", "supersedes", "metadata")
    class MetadataEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    KNOWLEDGE_BASE_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    DOC_TYPE_FIELD_NUMBER: _ClassVar[int]
    AUTHORITY_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SUPERSEDES_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    id: str
    text: str
    knowledge_base: str
    title: str
    source: str
    doc_type: str
    authority: int
    updated_at: str
    version: int
    supersedes: str
    metadata: _containers.ScalarMap[str, str]
    def __init__(self, id: _Optional[str] = ..., text: _Optional[str] = ..., knowledge_base: _Optional[str] = ..., title: _Optional[str] = ..., source: _Optional[str] = ..., doc_type: _Optional[str] = ..., authority: _Optional[int] = ..., updated_at: _Optional[str] = ..., version: _Optional[int] = ..., supersedes: _Optional[str] = ..., metadata: _Optional[_Mapping[str, str]] = ...) -> None: ...

class IngestSummary(_message.Message):
    __slots__ = ("outcomes", "added", "updated", "unchanged", "chunks", "took_ms")
    OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    ADDED_FIELD_NUMBER: _ClassVar[int]
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    UNCHANGED_FIELD_NUMBER: _ClassVar[int]
    CHUNKS_FIELD_NUMBER: _ClassVar[int]
    TOOK_MS_FIELD_NUMBER: _ClassVar[int]
    outcomes: _containers.RepeatedCompositeFieldContainer[DocumentOutcome]
    added: int
    updated: int
    unchanged: int
    chunks: int
    took_ms: float
    def __init__(self, outcomes: _Optional[_Iterable[_Union[DocumentOutcome, _Mapping]]] = ..., added: _Optional[int] = ..., updated: _Optional[int] = ..., unchanged: _Optional[int] = ..., chunks: _Optional[int] = ..., took_ms: _Optional[float] = ...) -> None: ...

class DocumentOutcome(_message.Message):
    __slots__ = ("document_id", "status", "chunks")
    DOCUMENT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CHUNKS_FIELD_NUMBER: _ClassVar[int]
    document_id: str
    status: IngestStatus
    chunks: int
    def __init__(self, document_id: _Optional[str] = ..., status: _Optional[_Union[IngestStatus, str]] = ..., chunks: _Optional[int] = ...) -> None: ...

class DeleteDocumentRequest(_message.Message):
    __slots__ = ("document_id",)
    DOCUMENT_ID_FIELD_NUMBER: _ClassVar[int]
    document_id: str
    def __init__(self, document_id: _Optional[str] = ...) -> None: ...

class DeleteDocumentResponse(_message.Message):
    __slots__ = ("document_id", "chunks_removed")
    DOCUMENT_ID_FIELD_NUMBER: _ClassVar[int]
    CHUNKS_REMOVED_FIELD_NUMBER: _ClassVar[int]
    document_id: str
    chunks_removed: int
    def __init__(self, document_id: _Optional[str] = ..., chunks_removed: _Optional[int] = ...) -> None: ...

class GetDocumentRequest(_message.Message):
    __slots__ = ("document_id", "include_text")
    DOCUMENT_ID_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_TEXT_FIELD_NUMBER: _ClassVar[int]
    document_id: str
    include_text: bool
    def __init__(self, document_id: _Optional[str] = ..., include_text: _Optional[bool] = ...) -> None: ...

class StoredDocument(_message.Message):
    __slots__ = ("id", "knowledge_base", "title", "source", "doc_type", "authority", "updated_at", "version", "metadata", "supersedes", "superseded_by", "chunk_count", "checksum", "ingested_at", "text")
    class MetadataEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ID_FIELD_NUMBER: _ClassVar[int]
    KNOWLEDGE_BASE_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    DOC_TYPE_FIELD_NUMBER: _ClassVar[int]
    AUTHORITY_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    SUPERSEDES_FIELD_NUMBER: _ClassVar[int]
    SUPERSEDED_BY_FIELD_NUMBER: _ClassVar[int]
    CHUNK_COUNT_FIELD_NUMBER: _ClassVar[int]
    CHECKSUM_FIELD_NUMBER: _ClassVar[int]
    INGESTED_AT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    id: str
    knowledge_base: str
    title: str
    source: str
    doc_type: str
    authority: int
    updated_at: str
    version: int
    metadata: _containers.ScalarMap[str, str]
    supersedes: str
    superseded_by: _containers.RepeatedScalarFieldContainer[str]
    chunk_count: int
    checksum: str
    ingested_at: str
    text: str
    def __init__(self, id: _Optional[str] = ..., knowledge_base: _Optional[str] = ..., title: _Optional[str] = ..., source: _Optional[str] = ..., doc_type: _Optional[str] = ..., authority: _Optional[int] = ..., updated_at: _Optional[str] = ..., version: _Optional[int] = ..., metadata: _Optional[_Mapping[str, str]] = ..., supersedes: _Optional[str] = ..., superseded_by: _Optional[_Iterable[str]] = ..., chunk_count: _Optional[int] = ..., checksum: _Optional[str] = ..., ingested_at: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class ListDocumentsRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "knowledge_base", "updated_since")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    KNOWLEDGE_BASE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_SINCE_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    knowledge_base: str
    updated_since: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., knowledge_base: _Optional[str] = ..., updated_since: _Optional[str] = ...) -> None: ...

class ListDocumentsResponse(_message.Message):
    __slots__ = ("documents", "next_page_token")
    DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    documents: _containers.RepeatedCompositeFieldContainer[StoredDocument]
    next_page_token: str
    def __init__(self, documents: _Optional[_Iterable[_Union[StoredDocument, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListKnowledgeBasesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListKnowledgeBasesResponse(_message.Message):
    __slots__ = ("knowledge_bases",)
    KNOWLEDGE_BASES_FIELD_NUMBER: _ClassVar[int]
    knowledge_bases: _containers.RepeatedCompositeFieldContainer[KnowledgeBase]
    def __init__(self, knowledge_bases: _Optional[_Iterable[_Union[KnowledgeBase, _Mapping]]] = ...) -> None: ...

class KnowledgeBase(_message.Message):
    __slots__ = ("name", "documents", "chunks")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    CHUNKS_FIELD_NUMBER: _ClassVar[int]
    name: str
    documents: int
    chunks: int
    def __init__(self, name: _Optional[str] = ..., documents: _Optional[int] = ..., chunks: _Optional[int] = ...) -> None: ...

class DeleteKnowledgeBaseRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class DeleteKnowledgeBaseResponse(_message.Message):
    __slots__ = ("name", "documents_removed")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DOCUMENTS_REMOVED_FIELD_NUMBER: _ClassVar[int]
    name: str
    documents_removed: int
    def __init__(self, name: _Optional[str] = ..., documents_removed: _Optional[int] = ...) -> None: ...

class GetStatsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Stats(_message.Message):
    __slots__ = ("knowledge_bases", "documents", "chunks", "vectors", "database_bytes", "index_bytes", "embedder", "reranker", "version", "uptime_seconds", "in_flight", "max_in_flight")
    KNOWLEDGE_BASES_FIELD_NUMBER: _ClassVar[int]
    DOCUMENTS_FIELD_NUMBER: _ClassVar[int]
    CHUNKS_FIELD_NUMBER: _ClassVar[int]
    VECTORS_FIELD_NUMBER: _ClassVar[int]
    DATABASE_BYTES_FIELD_NUMBER: _ClassVar[int]
    INDEX_BYTES_FIELD_NUMBER: _ClassVar[int]
    EMBEDDER_FIELD_NUMBER: _ClassVar[int]
    RERANKER_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    UPTIME_SECONDS_FIELD_NUMBER: _ClassVar[int]
    IN_FLIGHT_FIELD_NUMBER: _ClassVar[int]
    MAX_IN_FLIGHT_FIELD_NUMBER: _ClassVar[int]
    knowledge_bases: int
    documents: int
    chunks: int
    vectors: int
    database_bytes: int
    index_bytes: int
    embedder: str
    reranker: bool
    version: str
    uptime_seconds: float
    in_flight: int
    max_in_flight: int
    def __init__(self, knowledge_bases: _Optional[int] = ..., documents: _Optional[int] = ..., chunks: _Optional[int] = ..., vectors: _Optional[int] = ..., database_bytes: _Optional[int] = ..., index_bytes: _Optional[int] = ..., embedder: _Optional[str] = ..., reranker: _Optional[bool] = ..., version: _Optional[str] = ..., uptime_seconds: _Optional[float] = ..., in_flight: _Optional[int] = ..., max_in_flight: _Optional[int] = ...) -> None: ...

class IngestTableRequest(_message.Message):
    __slots__ = ("table", "schema", "file_name", "data", "replace")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_FIELD_NUMBER: _ClassVar[int]
    FILE_NAME_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    REPLACE_FIELD_NUMBER: _ClassVar[int]
    table: str
    schema: str
    file_name: str
    data: bytes
    replace: bool
    def __init__(self, table: _Optional[str] = ..., schema: _Optional[str] = ..., file_name: _Optional[str] = ..., data: _Optional[bytes] = ..., replace: _Optional[bool] = ...) -> None: ...

class TableSummary(_message.Message):
    __slots__ = ("table", "rows", "checksum", "took_ms")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    CHECKSUM_FIELD_NUMBER: _ClassVar[int]
    TOOK_MS_FIELD_NUMBER: _ClassVar[int]
    table: str
    rows: int
    checksum: str
    took_ms: float
    def __init__(self, table: _Optional[str] = ..., rows: _Optional[int] = ..., checksum: _Optional[str] = ..., took_ms: _Optional[float] = ...) -> None: ...

class ListTablesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListTablesResponse(_message.Message):
    __slots__ = ("tables",)
    TABLES_FIELD_NUMBER: _ClassVar[int]
    tables: _containers.RepeatedCompositeFieldContainer[Table]
    def __init__(self, tables: _Optional[_Iterable[_Union[Table, _Mapping]]] = ...) -> None: ...

class Table(_message.Message):
    __slots__ = ("name", "description", "time_column", "columns", "measures", "rows", "source", "checksum", "ingested_at")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    TIME_COLUMN_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    MEASURES_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    CHECKSUM_FIELD_NUMBER: _ClassVar[int]
    INGESTED_AT_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    time_column: str
    columns: _containers.RepeatedCompositeFieldContainer[TableColumn]
    measures: _containers.RepeatedCompositeFieldContainer[TableMeasure]
    rows: int
    source: str
    checksum: str
    ingested_at: str
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., time_column: _Optional[str] = ..., columns: _Optional[_Iterable[_Union[TableColumn, _Mapping]]] = ..., measures: _Optional[_Iterable[_Union[TableMeasure, _Mapping]]] = ..., rows: _Optional[int] = ..., source: _Optional[str] = ..., checksum: _Optional[str] = ..., ingested_at: _Optional[str] = ...) -> None: ...

class TableColumn(_message.Message):
    __slots__ = ("name", "type", "dimension", "synonyms", "description", "within")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DIMENSION_FIELD_NUMBER: _ClassVar[int]
    SYNONYMS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    WITHIN_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: ColumnType
    dimension: bool
    synonyms: _containers.RepeatedScalarFieldContainer[str]
    description: str
    within: str
    def __init__(self, name: _Optional[str] = ..., type: _Optional[_Union[ColumnType, str]] = ..., dimension: _Optional[bool] = ..., synonyms: _Optional[_Iterable[str]] = ..., description: _Optional[str] = ..., within: _Optional[str] = ...) -> None: ...

class TableMeasure(_message.Message):
    __slots__ = ("name", "unit", "aggregation", "column", "expression", "synonyms", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    UNIT_FIELD_NUMBER: _ClassVar[int]
    AGGREGATION_FIELD_NUMBER: _ClassVar[int]
    COLUMN_FIELD_NUMBER: _ClassVar[int]
    EXPRESSION_FIELD_NUMBER: _ClassVar[int]
    SYNONYMS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    unit: str
    aggregation: Aggregation
    column: str
    expression: str
    synonyms: _containers.RepeatedScalarFieldContainer[str]
    description: str
    def __init__(self, name: _Optional[str] = ..., unit: _Optional[str] = ..., aggregation: _Optional[_Union[Aggregation, str]] = ..., column: _Optional[str] = ..., expression: _Optional[str] = ..., synonyms: _Optional[_Iterable[str]] = ..., description: _Optional[str] = ...) -> None: ...
