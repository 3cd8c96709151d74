"""``python -m ragcore``: the library's commands, as ``python -m ragcore.cli`` (the
``ragcore`` script adds the edge service's ``serve`` and ``ask --server``)."""

import sys

from ragcore.cli import main

sys.exit(main())
