"""Real-Chromium testing support: a fresh Streamlit server on a free port, Debian's Chromium driven
by Playwright, and the console watch every browser test applies.

Used by the browser tests (which skip cleanly without playwright or /usr/bin/chromium) and by
bench/browser.py.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
VIEWPORT = {"width": 1500, "height": 2400}  # tall: full-page screenshots miss the inner scroller

# Opening a page's URL directly makes Streamlit's frontend probe <page>/_stcore/health and
# <page>/_stcore/host-config before the real endpoints (streamlit/streamlit#7074, open): two 404s
# in the console that no app can prevent. Every other console error fails a test.
STREAMLIT_PROBES = ("/_stcore/health", "/_stcore/host-config")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def streamlit_server(timeout: float = 30, env: dict[str, str] | None = None) -> Iterator[str]:
    """Start ``streamlit run app.py`` on a free port (``env``: extra environment variables); yield its URL; stop it."""
    with streamlit_process(timeout, env) as (url, _process):
        yield url


@contextmanager
def streamlit_process(timeout: float = 30, env: dict[str, str] | None = None) -> Iterator[tuple[str, subprocess.Popen]]:
    """Like :func:`streamlit_server`, yielding ``(url, process)`` for tests that watch the server's CPU and memory."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable, "-m", "streamlit", "run", "app.py",
            "--server.port", str(port),
            "--server.address", "127.0.0.1",
            "--server.headless", "true",
            "--server.fileWatcherType", "none",
            "--browser.gatherUsageStats", "false",
        ],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as response:
                    if response.read().decode().strip() == "ok":
                        break
            except OSError:
                pass
            if time.time() > deadline or process.poll() is not None:
                raise RuntimeError("the Streamlit server did not start")
            time.sleep(0.2)
        yield url, process
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


class ConsoleWatch:
    """Collects page errors, console errors and failed requests, minus Streamlit's own probes."""

    def __init__(self, page) -> None:
        self._problems: list[str] = []
        self._probe_404s = 0
        self._console_404s: list[str] = []
        page.on("pageerror", lambda error: self._problems.append(f"pageerror: {error}"))
        page.on("console", self._on_console)
        page.on("response", self._on_response)

    @property
    def problems(self) -> list[str]:
        # A failed request shows twice: as a response and as a console line (in either order).
        unexplained_404s = self._console_404s[self._probe_404s :]
        return self._problems + unexplained_404s

    def _on_response(self, response) -> None:
        if response.status < 400:
            return
        if response.status == 404 and response.url.endswith(STREAMLIT_PROBES):
            self._probe_404s += 1
        else:
            self._problems.append(f"HTTP {response.status}: {response.url}")

    def _on_console(self, message) -> None:
        if message.type != "error":
            return
        if "status of 404" in message.text:
            self._console_404s.append(f"console: {message.text}")
        else:
            self._problems.append(f"console: {message.text}")


def open_page(browser, url: str, viewport: dict | None = None):
    """A new browser context (so a new Streamlit session) on url; returns (page, watch)."""
    context = browser.new_context(viewport=viewport or VIEWPORT, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    watch = ConsoleWatch(page)
    page.goto(url)
    return page, watch


def paste(page, box, text: str) -> None:
    """Paste text into a text box with Ctrl+V, as a person does, and commit it (Ctrl+Enter).

    Playwright's ``fill`` types multi-line text through the editor one line at a time: a
    megabyte takes minutes. A real paste is one insertion (about a second for 1 MB).
    """
    page.evaluate("(text) => navigator.clipboard.writeText(text)", text)
    box.focus()
    box.press("Control+A")
    page.keyboard.press("Control+V")
    box.press("Control+Enter")


def wait_idle(page, timeout: float = 90_000) -> None:
    """Wait until the script run the last action started has finished."""
    from playwright.sync_api import expect

    page.wait_for_timeout(150)  # let the rerun start before waiting for it to end
    expect(page.locator(IDLE)).to_be_visible(timeout=timeout)


def screenshot_dir(default: Path) -> Path:
    target = Path(os.environ.get("BPE_SCREENSHOTS") or default)
    target.mkdir(parents=True, exist_ok=True)
    return target

