"""``python -m ragcore.cli``: the library's commands (without the edge service's)."""

import sys

from ragcore.cli import main

sys.exit(main())
