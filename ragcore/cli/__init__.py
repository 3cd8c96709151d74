"""The ``ragcore`` command line: ask, ingest, search, stats, delete, eval, demo, and the
operator commands backup, check and rebuild-index.

``build_parsers()`` is the extension point: ``edge_server.cli`` adds ``serve`` and
``ask --server`` to the parsers it returns, then hands the rest to ``run``; it shows
remote answers' sources with the same ``source_line`` and ``location``.
"""

from ragcore.cli.commands import (
    main,
    run,
    search_filters,
    store_read_url,
    store_settings,
    store_url,
)
from ragcore.cli.parsers import Parsers, build_parser, build_parsers
from ragcore.cli.render import location, source_line
from ragcore.config import default_data_dir

__all__ = [
    "Parsers",
    "build_parser",
    "build_parsers",
    "default_data_dir",
    "location",
    "main",
    "run",
    "search_filters",
    "source_line",
    "store_read_url",
    "store_settings",
    "store_url",
]
