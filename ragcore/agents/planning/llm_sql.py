"""The LLM fallback for data questions the planner cannot express: one proposed SELECT,
vetted before and while it runs.

The planner compiles only what the schemas declare, so a question it cannot express gets
``no_answer``. With an LLM endpoint configured, the model is asked once for one
read-only SQLite SELECT over the declared tables (the prompt lists their SQL names,
typed columns, measures with units and derived expressions, and short dimension value
lists). Its reply is trusted for nothing: the text must be a single SELECT (or WITH …
SELECT) with no comments, no second statement and none of the statements that write,
attach or configure; then it runs on the read-only connection under an authorizer that
allows only reads of declared ``data_<name>`` tables and their declared columns and a
whitelist of functions, with the time limit and row cap (``TableReader.run_sql``). Any
refusal keeps the planner's ``no_answer``, with the model's query and why it was refused
in the trace. An accepted result becomes table evidence, one item per row, citing the
rowids when the SELECT exposes ``rowid``, dated by the time column when it exposes that,
and carrying the SQL as its ``query``.
"""

from __future__ import annotations

import calendar
import re
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from types import MappingProxyType

from ragcore.agents.evidence import TABLES_KNOWLEDGE_BASE, Evidence
from ragcore.agents.generation.llm import OpenAICompatibleGenerator
from ragcore.agents.planning.tables import TableCatalog, figure_text, rows_evidence
from ragcore.documents import DocumentInfo
from ragcore.errors import GenerationError, InvalidQueryError
from ragcore.retrieval.tables import SqlResult
from ragcore.tabular import TableSchema
from ragcore.text import lexicon

MAX_SQL_CHARS = 4000
MAX_SQL_TOKENS = 400
MAX_LISTED_VALUES = 12
"""A dimension's values are listed in the prompt when it has at most this many."""
NONE_REPLY = "NONE"
"""What the model is told to reply when the tables cannot answer the question."""
SYSTEM_PROMPT = (
    "You write ONE read-only SQLite SELECT statement that answers the question from the "
    "tables described. Use only those tables and columns, by the names given. To let the "
    "answer cite table rows, select rowid too when each result row is one table row. "
    "Reply with the SQL only: no explanation, no comments, no code fences. If the tables "
    f"cannot answer the question, reply exactly: {NONE_REPLY}"
)
_LITERALS = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|`[^`]*`|\[[^\]]*\]")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FENCE = re.compile(r"```[A-Za-z]*\s*\n?(.*?)```", re.DOTALL)
_ROWID = frozenset({"rowid", "oid", "_rowid_"})


@dataclass(frozen=True)
class Proposal:
    """The model's query and what became of it: a result, or why it was refused."""

    sql: str
    result: SqlResult | None = None
    refusal: str = ""

    @property
    def accepted(self) -> bool:
        return self.result is not None


def build_messages(
    question: str,
    schemas: Sequence[TableSchema],
    values: Mapping[str, Mapping[str, Sequence]] | None = None,
) -> list[dict[str, str]]:
    """The chat messages asking for one SELECT over ``schemas`` answering ``question``."""
    described = "\n\n".join(_describe(s, (values or {}).get(s.name, {})) for s in schemas)
    user = f"Tables:\n{described}\n\nQuestion: {question.strip()}\nSQL:"
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def _describe(schema: TableSchema, values: Mapping[str, Sequence]) -> str:
    lines = [f"Table {schema.sql_name}: {schema.description}"]
    columns = ", ".join(
        f"{c} {kind}" + (" ('YYYY-MM' text)" if kind == "month" else "")
        for c, kind in schema.columns.items()
    )
    lines.append(f"  columns: {columns}")
    if schema.time_column:
        lines.append(f"  time column: {schema.time_column}")
    for d in schema.dimensions:
        line = f"  dimension {d.column}"
        if d.synonyms:
            line += f" (also called {', '.join(d.synonyms)})"
        known = values.get(d.column, ())
        if 0 < len(known) <= MAX_LISTED_VALUES:
            line += ": values " + ", ".join(repr(v) for v in known)
        lines.append(line)
    for m in schema.measures:
        what = f"= {m.expression}" if m.expression else f"column {m.column}"
        unit = f" in {m.unit}" if m.unit else ""
        also = f" (also called {', '.join(m.synonyms)})" if m.synonyms else ""
        lines.append(f"  measure {m.name} {what}{unit}, usually {m.aggregation}{also}")
    return "\n".join(lines)


def vet(reply: str) -> str:
    """The SQL of ``reply`` if it is one SELECT as text; InvalidQueryError saying why not.

    The text check refuses early and plainly; the authorizer that runs the statement is
    what actually keeps it to reads of declared tables and columns.
    """
    text = reply.strip()
    if fenced := _FENCE.search(text):
        text = fenced.group(1).strip()
    if text.upper().rstrip(".") == NONE_REPLY:
        raise InvalidQueryError("the model found no query over the declared tables for it")
    sql = text[:-1].rstrip() if text.endswith(";") else text
    if not sql:
        raise InvalidQueryError("the model gave no SQL")
    if len(sql) > MAX_SQL_CHARS:
        raise InvalidQueryError(f"it is longer than {MAX_SQL_CHARS} characters")
    if ";" in sql:
        raise InvalidQueryError("it holds more than one statement (a ';' before the end)")
    if "--" in sql or "/*" in sql:
        raise InvalidQueryError("it holds a comment")
    if not sqlite3.complete_statement(sql + ";"):
        raise InvalidQueryError("it is not a complete SQL statement")
    words = [w.lower() for w in _WORD.findall(_LITERALS.sub(" ", sql))]
    if not words or words[0] not in ("select", "with"):
        raise InvalidQueryError(f"it is not a SELECT (it starts with {sql.split()[0]!r})")
    if forbidden := sorted(set(lexicon.words("lexicon", "sql_not_read_only")).intersection(words)):
        raise InvalidQueryError(f"it uses {forbidden[0].upper()}, which a read never needs")
    return sql


class SqlProposer:
    """Asks the LLM for a query the planner could not write, and runs it only if vetted."""

    def __init__(self, llm: OpenAICompatibleGenerator, catalog: TableCatalog) -> None:
        self.llm = llm
        self.catalog = catalog

    def propose(self, question: str) -> Proposal:
        schemas = self.catalog.schemas
        messages = build_messages(question, schemas, self.catalog.values)
        try:
            reply = self.llm.chat(messages, max_tokens=MAX_SQL_TOKENS)
        except GenerationError as exc:
            return Proposal("", refusal=f"the model could not be asked: {exc}")
        try:
            sql = vet(reply)
            return Proposal(sql, self.catalog.run_sql(sql))
        except InvalidQueryError as exc:
            return Proposal(" ".join(reply.split()), refusal=str(exc))


def sql_evidence(
    result: SqlResult, schemas: Sequence[TableSchema], first: int = 1
) -> tuple[Evidence, ...]:
    """The result as evidence numbered from ``first``: one item per row (one for the whole
    result beyond ``MAX_ROW_EVIDENCE`` rows), each naming its rowid when selected."""
    read = [s for s in schemas if s.name in result.tables]
    units = {
        key: m.unit for s in read for m in s.measures if m.unit for key in (m.name, m.column) if key
    }
    id_at = next((i for i, c in enumerate(result.columns) if c.lower() in _ROWID), None)
    sentences: list[str] = []
    ids: list[tuple[int, ...]] = []
    for row in result.rows:
        parts = [
            f"{column.replace('_', ' ')} {figure_text(value, units.get(column, ''))}"
            for i, (column, value) in enumerate(zip(result.columns, row, strict=True))
            if i != id_at
        ]
        sentences.append(f"{', '.join(result.tables)}: {', '.join(parts)}.")
        rowid = row[id_at] if id_at is not None else None
        ids.append((rowid,) if isinstance(rowid, int) else ())
    return rows_evidence(sentences, ids, _document(result, read), result.sql, first)


def _document(result: SqlResult, read: Sequence[TableSchema]) -> DocumentInfo:
    names = "+".join(result.tables)
    described = "; ".join(f"{s.name} — {s.description}" for s in read)
    return DocumentInfo(
        id=f"table:{names}",
        knowledge_base=TABLES_KNOWLEDGE_BASE,
        title=f"Table {described} (model-written query)",
        source=", ".join(s.sql_name for s in read),
        doc_type="table",
        authority=4,
        updated_at=_as_of(result, read),
        version=1,
        supersedes=None,
        metadata=MappingProxyType({}),
        checksum="",
        ingested_at="",
    )


def _as_of(result: SqlResult, read: Sequence[TableSchema]) -> date | None:
    """The latest date in a selected time column (a month counts as its last day): the
    figures are as of then. None when the SELECT shows no time column: the validator
    then cannot place the figures in a question's time window, and says so."""
    times = {s.time_column for s in read if s.time_column}
    found: list[date] = []
    for i, column in enumerate(result.columns):
        if column not in times:
            continue
        for row in result.rows:
            value = row[i]
            try:
                if isinstance(value, str) and len(value) == 7:
                    year, month = int(value[:4]), int(value[5:])
                    found.append(date(year, month, calendar.monthrange(year, month)[1]))
                elif isinstance(value, str):
                    found.append(date.fromisoformat(value))
            except ValueError:
                continue
    return max(found, default=None)


__all__ = ["NONE_REPLY", "Proposal", "SqlProposer", "build_messages", "sql_evidence", "vet"]
