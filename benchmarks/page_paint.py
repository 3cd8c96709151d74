"""First paint of the technician's page from loopback, in Debian's headless Chromium.

Starts ``ragcore serve --sample-kb --http-port 0`` on a scratch data directory (or uses
``--url`` of a running server), then loads ``/`` ``--loads`` times in one browser with
the cache disabled (every load fetches the HTML, CSS and scripts anew) and reads the
Performance API's ``first-contentful-paint`` and the navigation's ``responseEnd`` and
``loadEventEnd``. Rounds are run at full speed and with the CPU slowed ``--slow`` times
(Chrome's CPU throttling: a maintenance terminal's slow CPU). The first load of each
round is a cold profile's only for the first round.

Goal: first paint < 300 ms from loopback (median, and the slowest load printed too).
Prints one line per round: median / p95 / max of each figure, in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from page_driver import browser_missing, chromium, serve  # noqa: E402

TIMINGS = """
const paint = performance.getEntriesByName('first-contentful-paint')[0];
const nav = performance.getEntriesByType('navigation')[0];
return paint && nav && nav.loadEventEnd > 0
  ? [paint.startTime, nav.responseEnd, nav.loadEventEnd] : null;
"""


def measure(driver, url: str, loads: int) -> list[tuple[float, float, float]]:
    from selenium.webdriver.support.ui import WebDriverWait

    out = []
    for _ in range(loads):
        driver.get("about:blank")
        driver.get(url)
        out.append(WebDriverWait(driver, 30, 0.02).until(lambda d: d.execute_script(TIMINGS)))
    return out


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered):6.1f} / {p95:6.1f} / {ordered[-1]:6.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running server's HTTP address (default: start one)")
    parser.add_argument("--loads", type=int, default=30, help="page loads per round (30)")
    parser.add_argument("--slow", type=float, default=4.0, help="CPU slow-down of round 2 (4)")
    args = parser.parse_args()
    if why := browser_missing():
        print(why, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="page-paint-") as scratch:
        folder = Path(scratch)
        server, url = None, args.url
        if not url:
            print("starting ragcore serve --sample-kb --http-port 0 ...", file=sys.stderr)
            server = serve(folder / "data", folder / "server.log", "--sample-kb", timeout=600)
            url = server.url
        url = url.rstrip("/") + "/"
        driver = chromium(folder / "profile", 1024, 600)
        try:
            driver.execute_cdp_cmd("Network.enable", {})
            driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
            print(f"{url}, {args.loads} loads per round, cache disabled; ms median / p95 / max")
            for rate in (1.0, args.slow):
                driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": rate})
                rows = measure(driver, url, args.loads)
                print(
                    f"CPU x{rate:<4g} first-contentful-paint {summary([r[0] for r in rows])}"
                    f" | responseEnd {summary([r[1] for r in rows])}"
                    f" | loadEventEnd {summary([r[2] for r in rows])}"
                )
        finally:
            driver.quit()
            if server is not None:
                server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
