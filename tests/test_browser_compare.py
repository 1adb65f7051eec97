"""The Compare page in real Chromium: a share link opens the curve and the side-by-side view.

Needs playwright (PyPI) and Debian's chromium (/usr/bin/chromium); skipped when either is missing.
Screenshots go to $BPE_SCREENSHOTS (default: a pytest temp dir).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

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

playwright_sync = pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} not installed", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def compare_server():
    """A fresh Streamlit server on a free port (stopped by its PID at the end)."""
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--server.fileWatcherType",
            "none",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as response:
                    if response.read().decode().strip() == "ok":
                        break
            except OSError:
                pass
            if time.time() > deadline or process.poll() is not None:
                pytest.fail("the Streamlit server did not start")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="module")
def browser():
    with playwright_sync.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture()
def shots(tmp_path):
    target = Path(os.environ.get("BPE_SCREENSHOTS") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    return target


def _open(browser, url: str):
    page = browser.new_page(viewport={"width": 1500, "height": 2400})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return page, errors


def _wait_idle(page, timeout: float = 90_000) -> None:
    expect = playwright_sync.expect
    expect(page.locator(IDLE)).to_be_visible(timeout=timeout)


def test_share_link_opens_curve(compare_server, browser, shots):
    expect = playwright_sync.expect
    link = (
        f"{compare_server}/Compare?corpus=python-reference-excerpt&vocab=600&pattern=gpt2"
        "&sizes=300,450,600&refs=gpt2,cl100k_base,o200k_base&heldout=reference-rest&view=curve"
    )
    page, errors = _open(browser, link)
    expect(page.get_by_role("heading", name="Compare vocab sizes")).to_be_visible(timeout=60_000)
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    expect(chart).to_be_visible(timeout=90_000)
    _wait_idle(page)
    expect(chart.locator("canvas, svg").first).to_be_visible(timeout=30_000)
    # the chart is drawn: a canvas with real size
    box = chart.bounding_box()
    assert box and box["width"] > 400 and box["height"] > 300
    # the link's settings are on screen (training text + held-out + references in the table)
    expect(page.get_by_text("Python reference after the excerpt").first).to_be_visible()
    expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible()
    # the URL still carries the settings (written back by the page)
    assert "vocab=600" in page.url and "view=curve" in page.url
    page.screenshot(path=str(shots / "compare_curve.png"))
    assert not errors, errors
    page.close()


def test_share_link_opens_side_by_side(compare_server, browser, shots):
    expect = playwright_sync.expect
    link = (
        f"{compare_server}/Compare?corpus=python-reference-excerpt&vocab=600&pattern=gpt2"
        "&sizes=300,450,600&refs=gpt2,o200k_base&view=side"
    )
    page, errors = _open(browser, link)
    views = page.locator(".cmp-view")
    expect(views.nth(4)).to_be_visible(timeout=90_000)
    _wait_idle(page)
    assert views.count() == 5
    heads = [views.nth(i).locator(".cmp-view-head").inner_text() for i in range(5)]
    assert heads[:3] == ["vocab 300", "vocab 450", "vocab 600"]
    assert heads[3].startswith("GPT-2") and heads[4].startswith("o200k_base")
    # tokens are drawn with ids, and changed boundaries are outlined
    expect(views.nth(0).locator(".tok[data-token-id]").first).to_be_visible()
    assert page.locator(".cmp-view .tok.diff").count() > 0
    # the sizes box holds the link's sizes
    expect(page.locator('input[aria-label^="Vocab sizes to compare"]')).to_have_value("300, 450, 600")
    page.screenshot(path=str(shots / "compare_side.png"))
    assert not errors, errors
    page.close()


def test_vocabulary_view_and_tree(compare_server, browser, shots):
    expect = playwright_sync.expect
    link = f"{compare_server}/Compare?corpus=python-reference-excerpt&vocab=600&pattern=gpt2&view=vocab"
    page, errors = _open(browser, link)
    expect(page.locator(".mtree .node").first).to_be_visible(timeout=90_000)
    _wait_idle(page)
    assert page.locator(".mtree .node.leaf").count() >= 2
    expect(page.get_by_text("Learned but never emitted")).to_be_visible()
    expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible(timeout=30_000)
    expect(page.locator('[data-testid="stVegaLiteChart"]').first).to_be_visible(timeout=30_000)
    page.wait_for_timeout(500)
    page.screenshot(path=str(shots / "compare_vocab.png"))
    assert not errors, errors
    page.close()


@pytest.mark.skipif(shutil.which("true") is None, reason="no shell")
def test_export_page_offers_every_format(compare_server, browser, shots):
    expect = playwright_sync.expect
    # train through a share link, then open the Export page in the same session via the sidebar link
    page, errors = _open(browser, f"{compare_server}/Compare?corpus=toy-the-cat-in-the-hat&vocab=300&view=side")
    expect(page.locator(".cmp-view").first).to_be_visible(timeout=90_000)
    _wait_idle(page)
    page.get_by_role("link", name="Export").first.click()
    expect(page.get_by_role("heading", name="Export and import")).to_be_visible(timeout=30_000)
    for label in ("GPT-2 (zip)", "tiktoken ranks", "Hugging Face", "Project JSON"):
        expect(page.get_by_role("button", name=label).first).to_be_visible(timeout=30_000)
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Hugging Face").first.click()
    download = download_info.value
    assert download.suggested_filename == "tokenizer.json"
    page.screenshot(path=str(shots / "export.png"))
    assert not errors, errors
    page.close()


def test_algorithms_view(compare_server, browser, shots):
    expect = playwright_sync.expect
    link = f"{compare_server}/Compare?corpus=mixed-english-chinese&vocab=400&pattern=gpt2&view=algos"
    page, errors = _open(browser, link)
    button = page.get_by_role("button", name="Train the variants and compare")
    expect(button).to_be_visible(timeout=90_000)
    _wait_idle(page)
    button.click()
    views = page.locator(".cmp-view")
    expect(views.nth(2)).to_be_visible(timeout=90_000)
    _wait_idle(page)
    assert "classic" in views.nth(2).locator(".cmp-view-head").inner_text()
    expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible()
    page.wait_for_timeout(300)
    page.screenshot(path=str(shots / "compare_algos.png"))
    assert not errors, errors
    page.close()
