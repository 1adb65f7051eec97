"""The Compare page in real Chromium: a share link opens the curve and the side-by-side view.

Needs playwright (PyPI) and Debian's chromium (/usr/bin/chromium); skipped when either is missing.
Screenshots go to $BPE_SCREENSHOTS (default: a pytest temp dir).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from browser_support import CHROMIUM, open_page, wait_idle  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} not installed", allow_module_level=True)


def test_share_link_opens_curve(server, browser, shots):
    link = (
        f"{server}/Compare?corpus=python-reference-excerpt&vocab=600&pattern=gpt2"
        "&sizes=300,450,600&refs=gpt2,cl100k_base,o200k_base&heldout=reference-rest&view=curve"
    )
    page, watch = open_page(browser, link)
    expect(page.get_by_role("heading", name="Compare vocab sizes")).to_be_visible(timeout=60_000)
    chart = page.locator('[data-testid="stVegaLiteChart"]').first
    expect(chart).to_be_visible(timeout=90_000)
    wait_idle(page)
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
    assert not watch.problems, watch.problems
    page.context.close()


def test_share_link_opens_side_by_side(server, browser, shots):
    link = (
        f"{server}/Compare?corpus=python-reference-excerpt&vocab=600&pattern=gpt2"
        "&sizes=300,450,600&refs=gpt2,o200k_base&view=side"
    )
    page, watch = open_page(browser, link)
    views = page.locator(".cmp-view")
    expect(views.nth(4)).to_be_visible(timeout=90_000)
    wait_idle(page)
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
    assert not watch.problems, watch.problems
    page.context.close()


def test_vocabulary_view_and_tree(server, browser, shots):
    link = f"{server}/Compare?corpus=python-reference-excerpt&vocab=600&pattern=gpt2&view=vocab"
    page, watch = open_page(browser, link)
    expect(page.locator(".mtree .node").first).to_be_visible(timeout=90_000)
    wait_idle(page)
    assert page.locator(".mtree .node.leaf").count() >= 2
    expect(page.get_by_text("Learned but never emitted")).to_be_visible()
    expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible(timeout=30_000)
    expect(page.locator('[data-testid="stVegaLiteChart"]').first).to_be_visible(timeout=30_000)
    page.wait_for_timeout(500)
    page.screenshot(path=str(shots / "compare_vocab.png"))
    assert not watch.problems, watch.problems
    page.context.close()


def test_export_page_offers_every_format(server, browser, shots):
    # train through a share link, then open the Export page in the same session via the sidebar link
    page, watch = open_page(browser, f"{server}/Compare?corpus=toy-the-cat-in-the-hat&vocab=300&view=side")
    expect(page.locator(".cmp-view").first).to_be_visible(timeout=90_000)
    wait_idle(page)
    page.get_by_role("link", name="Export").first.click()
    expect(page.get_by_role("heading", name="Export and import")).to_be_visible(timeout=30_000)
    for label in ("GPT-2 (zip)", "tiktoken ranks", "Hugging Face", "Project JSON"):
        expect(page.get_by_role("button", name=label).first).to_be_visible(timeout=30_000)
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Hugging Face").first.click()
    download = download_info.value
    assert download.suggested_filename == "tokenizer.json"
    page.screenshot(path=str(shots / "export.png"))
    assert not watch.problems, watch.problems
    page.context.close()


def test_algorithms_view(server, browser, shots):
    link = f"{server}/Compare?corpus=mixed-english-chinese&vocab=400&pattern=gpt2&view=algos"
    page, watch = open_page(browser, link)
    button = page.get_by_role("button", name="Train the variants and compare")
    expect(button).to_be_visible(timeout=90_000)
    wait_idle(page)
    button.click()
    views = page.locator(".cmp-view")
    expect(views.nth(2)).to_be_visible(timeout=90_000)
    wait_idle(page)
    assert "classic" in views.nth(2).locator(".cmp-view-head").inner_text()
    expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible()
    page.wait_for_timeout(300)
    page.screenshot(path=str(shots / "compare_algos.png"))
    assert not watch.problems, watch.problems
    page.context.close()
