"""A real ``ragcore serve --http-port`` process and Debian's Chromium driven by Selenium,
for the browser test of the page (``test_page.py``) and ``benchmarks/page_paint.py``.

Chromium and its driver are the Debian packages (``make test`` installs them): Selenium
is given ``/usr/bin/chromedriver`` explicitly, so Selenium Manager never runs and
nothing is downloaded. The browser runs headless with a fresh profile and with
everything that would reach the network on its own turned off.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",  # root in CI, no user namespaces in containers
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",  # small /dev/shm in containers
)
_HTTP_LINE = re.compile(r"http on http://127\.0\.0\.1:(\d+)/")
ROOT = Path(__file__).resolve().parents[2]


def browser_missing() -> str:
    """Why the browser cannot run here, or "" when it can."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not path.is_file():
            return f"{path} is missing: make test installs Debian's chromium and chromium-driver"
    return ""


def chromium(profile: Path, width: int, height: int, log: Path | None = None):
    """Headless Chromium at ``width``×``height`` CSS pixels, with a new profile in ``profile``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    options.add_argument("--force-device-scale-factor=1")
    options.add_argument("--lang=en-US")
    # The driver path given: Selenium skips Selenium Manager (no lookup, no download).
    service = Service(executable_path=str(CHROMEDRIVER), log_output=str(log) if log else None)
    driver = webdriver.Chrome(service=service, options=options)
    resize(driver, width, height)
    return driver


def resize(driver, width: int, height: int) -> None:
    """The viewport (not the window) made exactly ``width``×``height``."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


@dataclass
class PageServer:
    """A ``ragcore serve`` process with the HTTP API on ``url`` (``http://127.0.0.1:PORT``)."""

    process: subprocess.Popen
    url: str
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def get(self, path: str, token: str = "") -> dict:
        return self.call("GET", path, token)

    def call(self, method: str, path: str, token: str = "", body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=60) as reply:
            return json.loads(reply.read())


def serve(data: Path, log: Path, *options: str, timeout: float = 120.0) -> PageServer:
    """``ragcore serve --http-port 0`` on ``data`` (gRPC on a free port too), once healthy."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAGCORE_")}
    env["PYTHONPATH"] = str(ROOT)  # this checkout's code, whichever one the venv installed
    ragcore = Path(sys.executable).with_name("ragcore")
    command = [str(ragcore), "serve", "--data-dir", str(data), "--port", "0", "--http-port", "0"]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [*command, *options],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=sink,
        )
    server = PageServer(process, "", log)
    try:
        server.url = f"http://127.0.0.1:{_port(process, log, timeout)}"
        _wait_until_serving(server, timeout)
    except BaseException:
        server.stop()
        raise
    return server


def _port(process: subprocess.Popen, log: Path, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = _HTTP_LINE.search(log.read_text("utf-8", "replace"))
        if found:
            return int(found.group(1))
        if process.poll() is not None:
            raise RuntimeError(
                f"ragcore serve exited with {process.returncode}:\n{log.read_text()}"
            )
        time.sleep(0.1)
    raise RuntimeError(
        f"ragcore serve did not serve HTTP within {timeout:.0f} s:\n{log.read_text()}"
    )


def _wait_until_serving(server: PageServer, timeout: float) -> None:
    """Until /v1/health says SERVING (the models and the index loaded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(server.url + "/v1/health", timeout=5) as reply:
                if reply.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError):
            pass
        if server.process.poll() is not None:
            raise RuntimeError(f"ragcore serve exited:\n{server.log.read_text()}")
        time.sleep(0.2)
    raise RuntimeError(
        f"ragcore serve was not SERVING within {timeout:.0f} s:\n{server.log.read_text()}"
    )
