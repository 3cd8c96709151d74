"""Database errors turned into ``StoreError``s at a store's methods.

Both stores (SQLite, PostgreSQL) decorate their methods with ``guarded``: the driver's
errors become the store's own ``translate``d errors, which say what was being done and
what to do, so no sqlite3 or psycopg exception reaches a caller.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, cast

_Method = TypeVar("_Method", bound=Callable[..., Any])


def guarded(driver_error: type[Exception], doing: str) -> Callable[[_Method], _Method]:
    """Translate ``driver_error`` raised by a method (or generator) through the store's
    ``translate(exc, doing)``."""

    def wrap(method: _Method) -> _Method:
        if inspect.isgeneratorfunction(method):

            @functools.wraps(method)
            def generate(self, *args, **kwargs):
                try:
                    yield from method(self, *args, **kwargs)
                except driver_error as exc:
                    raise self.translate(exc, doing) from exc

            return cast(_Method, generate)

        @functools.wraps(method)
        def call(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except driver_error as exc:
                raise self.translate(exc, doing) from exc

        return cast(_Method, call)

    return wrap
