"""简体中文 in real Chromium: ``/?lang=zh`` draws the app in Chinese with real glyphs, the sidebar switch
changes the language and the address bar, a reload keeps it, and a Chinese browser starts in Chinese.

Screenshots go to $BPE_SCREENSHOTS (default: a pytest temp dir); ``zh_trained.png`` is the one to look at.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from browser_support import CHROMIUM, VIEWPORT, ConsoleWatch, open_page, reload_when_kept, wait_idle, watch_runs  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from playground.i18n import t  # noqa: E402
from ui.callbacks import FAILED  # noqa: E402

CLASSICS = "Chinese classics (the Four Books, ~220 KB)"

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} not installed", allow_module_level=True)


def zh(text: str) -> str:
    return t(text, lang="zh")


def test_a_chinese_link_draws_the_app_in_chinese(server, browser, shots):
    page, watch = open_page(browser, f"{server}/?lang=zh&corpus=chinese-classics&vocab=600")
    wait_idle(page)
    expect(page.get_by_role("heading", name=zh("BPE Playground"))).to_be_visible(timeout=60_000)
    sidebar = page.locator('[data-testid="stSidebar"]')
    for title in ("Train", "Merges", "Encode", "Compare", "Export"):
        expect(sidebar.get_by_text(zh(title), exact=True).first).to_be_visible()
    expect(page.get_by_text(zh("Byte-level (GPT-2 style)"))).to_be_visible()
    page.get_by_role("button", name=zh("Train ▶")).click()
    expect(page.get_by_role("heading", name=zh("3 · Result"))).to_be_visible(timeout=60_000)
    wait_idle(page)
    assert "lang=zh" in page.url
    link = sidebar.locator(".bpe-link code").first.inner_text().strip()
    assert "lang=zh" in link and "corpus=chinese-classics" in link
    # Real glyphs, not boxes: a CJK font draws 训 much wider than the missing-glyph box of a Latin font.
    widths = page.evaluate(
        """() => {
            const c = document.createElement('canvas').getContext('2d');
            c.font = '40px ' + getComputedStyle(document.querySelector('h1')).fontFamily;
            return [c.measureText('训').width, c.measureText('\\u{10FFFD}').width];
        }"""
    )
    assert widths[0] >= 30 and widths[0] != widths[1], widths
    page.screenshot(path=str(shots / "zh_trained.png"))

    # The switch: English at once, the address bar without lang; Chinese again, and a reload keeps it.
    sidebar.get_by_text("English", exact=True).click()
    expect(page.get_by_role("heading", name="BPE Playground")).to_be_visible(timeout=30_000)
    wait_idle(page)
    assert "lang=" not in page.url and "corpus=chinese-classics" in page.url
    # A selectbox keeps its choice across the switch (it sends back the text of the option it shows).
    expect(page.get_by_role("combobox", name="Corpus")).to_have_value(t(CLASSICS, lang="en"))
    sidebar.get_by_text("简体中文", exact=True).click()
    expect(page.get_by_role("heading", name=zh("BPE Playground"))).to_be_visible(timeout=30_000)
    wait_idle(page)
    reload_when_kept(page)
    expect(page.get_by_role("heading", name=zh("3 · Result"))).to_be_visible(timeout=60_000)
    page.get_by_role("link", name=zh("Compare")).first.click()
    expect(page.get_by_role("heading", name=zh("Compare vocab sizes"))).to_be_visible(timeout=60_000)
    expect(page.locator(".vega-embed").first).to_be_visible(timeout=60_000)
    wait_idle(page)
    page.screenshot(path=str(shots / "zh_compare.png"))
    page.get_by_role("link", name=zh("Encode")).first.click()
    expect(page.get_by_role("heading", name=zh("Encode text"))).to_be_visible(timeout=60_000)
    wait_idle(page)
    page.screenshot(path=str(shots / "zh_encode.png"))
    sidebar.get_by_text("English", exact=True).click()
    expect(page.get_by_role("heading", name="Encode text")).to_be_visible(timeout=30_000)
    wait_idle(page)
    expect(page.get_by_role("combobox", name="Tokenizer")).to_have_value(re.compile("^Just trained: Chinese classics"))
    assert page.get_by_text(FAILED).count() == 0
    assert not watch.problems, watch.problems
    page.context.close()


def test_a_chinese_browser_starts_in_chinese_and_a_link_overrides_it(server, browser):
    context = browser.new_context(viewport=VIEWPORT, locale="zh-CN")
    watch_runs(context)
    page = context.new_page()
    watch = ConsoleWatch(page)
    page.goto(server)
    expect(page.get_by_role("heading", name=zh("BPE Playground"))).to_be_visible(timeout=60_000)
    wait_idle(page)
    other = context.new_page()
    other.goto(f"{server}/?lang=en")
    expect(other.get_by_role("heading", name="BPE Playground")).to_be_visible(timeout=60_000)
    assert not watch.problems, watch.problems
    context.close()
