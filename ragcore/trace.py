"""The trace of one ``ask``: a tree of stages, each with its timing and a short detail.

A ``Tracer`` records spans as the run goes (``with tracer.span("retrieval"): ...``);
``tracer.finish()`` freezes them into a ``TraceNode`` tree that renders as text::

    ask 31.2 ms  "What torque for the HP-400 platen bolts?"
    ├── perception 2.1 ms  action=lookup route=simple entities=HP-400
    ├── round 1 27.9 ms
    │   ├── plan 0.1 ms  fast path: 1 task
    ...
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TraceNode:
    name: str
    ms: float
    detail: str = ""
    children: tuple[TraceNode, ...] = ()

    def render(self) -> str:
        """The tree as indented text, one node per line."""
        lines = [self._line()]
        for i, child in enumerate(self.children):
            lines += _indent(child.render(), last=i == len(self.children) - 1)
        return "\n".join(lines)

    def _line(self) -> str:
        return f"{self.name} {self.ms:.1f} ms" + (f"  {self.detail}" if self.detail else "")

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "ms": round(self.ms, 3),
            "detail": self.detail,
            "children": [c.to_dict() for c in self.children],
        }

    def walk(self) -> Iterator[TraceNode]:
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass
class _Span:
    name: str
    detail: str
    started: float = field(default_factory=time.perf_counter)
    ms: float | None = None
    children: list[_Span] = field(default_factory=list)

    def note(self, detail: str) -> None:
        """Set (or replace) the span's detail once the stage knows its outcome."""
        self.detail = detail

    def add(self, name: str, detail: str = "", ms: float = 0.0) -> None:
        """Record a finished child that was timed elsewhere (e.g. a task run in a thread)."""
        self.children.append(_Span(name, detail, ms=ms))

    def freeze(self) -> TraceNode:
        ms = self.ms if self.ms is not None else (time.perf_counter() - self.started) * 1000
        return TraceNode(self.name, ms, self.detail, tuple(c.freeze() for c in self.children))


class Tracer:
    """Builds one trace tree; spans nest by the ``with`` blocks they are opened in."""

    def __init__(self, name: str, detail: str = "") -> None:
        self._root = _Span(name, detail)
        self._open = [self._root]

    @property
    def root(self) -> _Span:
        return self._root

    @contextmanager
    def span(self, name: str, detail: str = "") -> Iterator[_Span]:
        span = _Span(name, detail)
        self._open[-1].children.append(span)
        self._open.append(span)
        try:
            yield span
        finally:
            span.ms = (time.perf_counter() - span.started) * 1000
            self._open.pop()

    def finish(self) -> TraceNode:
        self._root.ms = (time.perf_counter() - self._root.started) * 1000
        return self._root.freeze()


def _indent(block: str, last: bool) -> list[str]:
    first, *rest = block.split("\n")
    lead, more = ("└── ", "    ") if last else ("├── ", "│   ")
    return [lead + first] + [more + line for line in rest]
