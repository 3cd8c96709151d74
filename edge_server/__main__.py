"""``python -m edge_server [options]`` is ``ragcore serve [options]``."""

import sys

from edge_server.cli import main

if __name__ == "__main__":
    sys.exit(main(["serve", *sys.argv[1:]]))
