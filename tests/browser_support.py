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

from browser_runs import POLL_MS, wait_idle, watch_runs  # noqa: F401 (wait_idle: every browser test imports it from here)

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
PLAYWRIGHT_DISABLED_FEATURES = [
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
]
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    # Chromium 156 starts two WebUI pages of its own (the address bar's popups, chrome://omnibox-popup.top-chrome)
    # for every window, so for every browser context a test opens: with them off a page load costs about 30% less
    # CPU. One --disable-features replaces another, so Playwright's own list (1.65) is repeated first.
    "--disable-features=" + ",".join([*PLAYWRIGHT_DISABLED_FEATURES, "WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]),
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
def streamlit_server(timeout: float = 120, env: dict[str, str] | None = None) -> Iterator[str]:
    """Start ``streamlit run app.py`` on a free port (``env``: extra environment variables); yield its URL; stop it.
    ``timeout`` only bounds a server that never starts (one that exits fails at once): 30 s was short on a busy machine.
    """
    with streamlit_process(timeout, env) as (url, _process):
        yield url


@contextmanager
def streamlit_process(
    timeout: float = 120, env: dict[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen]]:
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
    """Collects page errors, console errors, Vega's warnings and failed requests, minus Streamlit's own probes."""

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
        if message.type == "warning" and message.text.startswith("WARN "):  # Vega's: "Infinite extent for field …"
            self._problems.append(f"console: {message.text}")
        if message.type != "error":
            return
        if "status of 404" in message.text:
            self._console_404s.append(f"console: {message.text}")
        else:
            self._problems.append(f"console: {message.text}")


def open_page(browser, url: str, viewport: dict | None = None):
    """A new browser context (so a new Streamlit session) on url; returns (page, watch)."""
    context = browser.new_context(viewport=viewport or VIEWPORT, permissions=["clipboard-read", "clipboard-write"])
    watch_runs(context)
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


def set_vocab(page, size: int) -> None:
    """Type a vocab size on the Train page and commit it."""
    box = page.get_by_role("spinbutton", name="Vocab size")
    box.fill(str(size))
    box.press("Enter")
    wait_idle(page)


def reload_when_kept(page) -> None:
    """Reload once this tab's work can be found again: its id is in the address and the browser's cookie is set.

    The page's own component sets the cookie when its frame has loaded; on a busy machine that can come after
    the run ends, and a reload before it is, rightly, a stranger's visit (the work is not handed out).
    """
    page.wait_for_function(
        "() => location.search.includes('ws=') && document.cookie.includes('bpe_browser=')",
        timeout=60_000,
        polling=POLL_MS,
    )
    page.reload()


def screenshot_dir(default: Path) -> Path:
    target = Path(os.environ.get("BPE_SCREENSHOTS") or default)
    target.mkdir(parents=True, exist_ok=True)
    return target


# -- what a person can read: text sizes, text past the window or cut, tables drawn on a canvas ---------------

LAYOUT = """() => {
  const W = innerWidth, H = innerHeight;
  const out = {small: [], past: [], cut: [], ellipsis: [], canvases: 0, texts: 0, minSize: 1e9};
  const PAGE = new Set(["stApp", "stAppViewContainer", "stMain", "stAppScrollToBottomContainer"]);
  const up = (a) => a.parentElement || (a.getRootNode && a.getRootNode().host) || null;
  // "hidden": not visible at all (scrolled away or a 1-px box); "cut": partly visible through a box that clips;
  // null: whole.
  const clipping = (el, r, size) => {
    for (let a = el; a && a instanceof Element && a !== document.documentElement; a = up(a)) {
      const s = getComputedStyle(a);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const b = a.getBoundingClientRect();
      if (b.width <= 2 || b.height <= 2) return "hidden";
      const outside = r.right <= b.left + 1 || r.left >= b.right - 1 || r.bottom <= b.top + 1 || r.top >= b.bottom - 1;
      if (outside) return "hidden";
      const tol = Math.max(2, 0.2 * size);  // a text box's line gap may stick out; a cut glyph sticks out more
      const partX = s.overflowX !== "visible" && (r.right > b.right + tol || r.left < b.left - tol);
      const partY = s.overflowY !== "visible" && (r.bottom > b.bottom + tol || r.top < b.top - tol);
      if (!partX && !partY) continue;
      const scroller = /auto|scroll/.test(partX ? s.overflowX : s.overflowY);
      if (scroller || PAGE.has(a.dataset.testid)) continue;  // scrolled, not cut
      return "cut:" + (a.dataset.testid || a.getAttribute("class") || a.tagName).toString().slice(0, 40);
    }
    return null;
  };
  const visibleStyle = (el) => {
    const s = getComputedStyle(el);
    return s.visibility !== "hidden" && Number(s.opacity) !== 0;
  };
  const walk = (root) => {
    const it = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = it.currentNode; n; n = it.nextNode()) {
      if (n.nodeType === 1) {
        if (n.shadowRoot) walk(n.shadowRoot);
        const r = n.getBoundingClientRect();
        if (r.width < 1 || r.height < 1 || r.right <= 0 || r.left >= W || !visibleStyle(n)) continue;
        if (n.tagName === "CANVAS") out.canvases++;
        const s = getComputedStyle(n);
        const field = /^(INPUT|TEXTAREA|SELECT)$/.test(n.tagName) && !/^(range|checkbox|radio|file)$/.test(n.type);
        if (field && clipping(n, r, 0) !== "hidden") {
          out.texts++;
          const size = parseFloat(s.fontSize);
          out.minSize = Math.min(out.minSize, size);
          if (size < 48) out.small.push([size, (n.value || n.placeholder || "").slice(0, 40), n.tagName]);
          if (r.right > W + 0.5) out.past.push([n.tagName, Math.round(r.left), Math.round(r.right)]);
          // A one-line field (a select box's choice) too narrow for its text shows it cut.
          if (n.tagName === "INPUT" && n.scrollWidth > n.clientWidth + 1) out.cut.push([n.value.slice(0, 40), "field"]);
        }
        if (s.textOverflow === "ellipsis" && n.scrollWidth > n.clientWidth + 1 && n.textContent.trim())
          out.ellipsis.push([n.textContent.trim().slice(0, 60), (n.getAttribute("class") || "").slice(0, 40)]);
        continue;
      }
      const text = n.textContent.trim();
      if (!text || !n.parentElement) continue;
      const range = document.createRange(); range.selectNodeContents(n);
      // SVG text (a rotated axis title): the element's box follows its transform, a range's does not.
      const svg = n.parentElement instanceof SVGElement;
      const r = svg ? n.parentElement.getBoundingClientRect() : range.getBoundingClientRect();
      if (r.width < 1 || r.height < 1 || r.right <= 0 || r.left >= W) continue;
      const el = n.parentElement;
      if (!visibleStyle(el)) continue;
      if (/Material Symbols|Material Icons/.test(getComputedStyle(el).fontFamily)) continue;  // an icon's name
      const size = parseFloat(getComputedStyle(el).fontSize);
      const clip = clipping(el, r, size);
      if (clip === "hidden") continue;
      out.texts++;
      out.minSize = Math.min(out.minSize, size);
      if (size < 48) out.small.push([size, text.slice(0, 40), el.tagName]);
      if (r.right > W + 0.5) out.past.push([text.slice(0, 40), Math.round(r.left), Math.round(r.right)]);
      if (text.endsWith("…") && el.closest("svg")) out.ellipsis.push([text.slice(0, 60), "svg"]);
      if (clip) out.cut.push([text.slice(0, 40), clip]);
    }
  };
  walk(document.body);
  const main = document.querySelector('[data-testid="stMain"]');
  out.scroll = main ? [main.scrollHeight, main.clientHeight] : null;
  return out;
}"""
"""Every visible text node of the page (shadow roots and SVG included) and every visible text field: its font size,
whether it runs past the window's right edge, whether a box that clips (overflow hidden, not a scroller, not the
page) cuts it, whether an ellipsis cuts it; the visible canvases (a grid's cells); the main column's scroll size.
Text scrolled out of sight, a 1-pixel box (a screen reader's text) and icon ligatures are left out."""


def layout_report(page, *, scroll: bool = True) -> dict:
    """:data:`LAYOUT` over the whole page: measured at the top, then every 600 pixels down the main column (text below
    the window is measured once scrolled into it); back at the top afterwards."""
    report = page.evaluate(LAYOUT)
    main = "document.querySelector('[data-testid=stMain]')"
    total = report["scroll"][0] if report["scroll"] and scroll else 0
    for y in range(600, total, 600):
        page.evaluate(f"() => {main}.scrollTo(0, {y})")
        page.wait_for_timeout(100)
        more = page.evaluate(LAYOUT)
        for key in ("small", "past", "cut", "ellipsis"):
            report[key] += [item for item in more[key] if item not in report[key]]
        report["canvases"] = max(report["canvases"], more["canvases"])
        report["texts"] += more["texts"]
    if total:
        page.evaluate(f"() => {main}.scrollTo(0, 0)")
    return report


def layout_problems(report: dict, floor: float | None = 28) -> dict:
    """What is wrong in a :func:`layout_report`: text under ``floor`` pixels (None: not checked), past the window,
    cut, cut with an ellipsis, tables on a canvas; empty when the page is legible."""
    problems = {key: report[key] for key in ("past", "cut", "ellipsis") if report[key]}
    if floor is not None:
        small = [item for item in report["small"] if item[0] < floor]
        if small:
            problems["small"] = small
        if report["canvases"]:
            problems["canvases"] = report["canvases"]
    return problems
