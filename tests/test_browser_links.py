"""Links and reloads in real Chromium: a reload keeps the user's own work, a page's copied link opened in a
fresh browser shows the same view, and a link with bad values shows messages, never a traceback."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

pytest.importorskip("playwright.sync_api")
from browser_support import CHROMIUM, POLL_MS, open_page, paste, reload_when_kept, wait_idle  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} not installed", allow_module_level=True)

PLAYER = '[data-testid="bpe-player"]'


def _copied_link(page) -> str:
    """The text of the sidebar's "Link to this view" box: what a person copies.

    The box is drawn by the page's own component (ui/page_tools.js) once its frame has loaded, which on a busy
    machine can come after the script run has ended: wait for it to be drawn (expect retries) before reading it.
    """
    box = page.locator('[data-testid="stSidebar"] .bpe-link').first
    button = box.locator("button")
    # The copy button is an SVG icon with a name: a font glyph (⧉) showed as an empty box where missing.
    expect(button.locator("svg path")).to_have_count(2, timeout=30_000)
    expect(button).to_have_attribute("aria-label", re.compile(r"\S"))
    # ...and showing the last run's link, not an earlier run's: its settings are the address's, less the tab's id.
    code = box.locator("code")
    for _ in range(150):  # up to ~30 s: a condition polled, not a pause
        link = code.inner_text().strip()
        if _settings(link) == _settings(page.url):
            return link
        page.wait_for_timeout(200)
    pytest.fail(f"the link box never showed this view's settings: {link!r}, the address is {page.url!r}")


def _settings(url: str) -> list[tuple[str, str]]:
    return sorted((key, value) for key, value in parse_qsl(urlsplit(url).query) if key != "ws")


def test_a_reload_keeps_pasted_text_settings_and_the_tokenizer(server, browser, shots):
    corpus = "the quick brown fox jumps over the lazy dog. " * 40 + "a pasted corpus that is mine"
    page, watch = open_page(browser, server)
    wait_idle(page)
    box = page.get_by_role("combobox", name="Corpus")
    box.click()
    page.get_by_role("option", name="Paste text").click()
    wait_idle(page)
    vocab = page.get_by_role("spinbutton", name="Vocab size")
    vocab.fill("290")
    vocab.press("Enter")
    wait_idle(page)
    paste(page, page.get_by_label("Paste your text"), corpus)
    wait_idle(page)
    page.get_by_role("button", name="Train ▶").click()
    expect(page.get_by_role("heading", name="3 · Result")).to_be_visible(timeout=60_000)
    wait_idle(page)
    assert "ws=" in page.url and "mine" not in page.url  # the tab's id travels, the text never does

    reload_when_kept(page)
    expect(page.get_by_text("Your work in this tab was restored").first).to_be_visible(timeout=60_000)
    wait_idle(page)
    expect(page.get_by_role("heading", name="3 · Result")).to_be_visible()
    expect(page.get_by_label("Paste your text")).to_have_value(corpus, timeout=30_000)  # back in its box, to edit
    assert page.get_by_role("spinbutton", name="Vocab size").input_value() == "290"
    page.screenshot(path=str(shots / "reload_restored.png"))

    # The same address in another browser (no cookie): nothing of this tab's work is handed out.
    other, other_watch = open_page(browser, page.url)
    wait_idle(other)
    expect(other.get_by_text("was made with your own text (pasted text)").first).to_be_visible(timeout=30_000)
    assert other.get_by_text("Your work in this tab was restored").count() == 0
    assert not watch.problems and not other_watch.problems, (watch.problems, other_watch.problems)
    other.context.close()
    page.context.close()


def test_a_copied_merges_link_opens_the_same_round_in_a_fresh_browser(server, browser, shots):
    page, watch = open_page(browser, f"{server}/Merges?corpus=toy-the-cat-in-the-hat&vocab=300&round=11&speed=30")
    player = page.locator(PLAYER)
    expect(player).to_be_visible(timeout=60_000)
    wait_idle(page)
    expect(player).to_have_attribute("data-round", "11")
    link = _copied_link(page)
    assert "round=11" in link and "speed=30" in link and "specials=" in link and "ws=" not in link

    fresh, fresh_watch = open_page(browser, link)
    expect(fresh.locator(PLAYER)).to_be_visible(timeout=60_000)
    wait_idle(fresh)
    expect(fresh.locator(PLAYER)).to_have_attribute("data-round", "11")
    assert fresh.locator(f"{PLAYER} .window").inner_text() == player.locator(".window").inner_text()
    fresh.screenshot(path=str(shots / "merges_from_link.png"))
    assert not watch.problems and not fresh_watch.problems, (watch.problems, fresh_watch.problems)
    fresh.context.close()
    page.context.close()


@pytest.mark.parametrize("path", ["", "Merges", "Encode", "Compare", "Export"])
def test_bad_link_values_show_messages_and_no_traceback(server, browser, path):
    query = "vocab=%C2%B2&round=-1&token=" + "9" * 5000 + "&sizes=1e999&view=%5Bx%5D(http://127.0.0.1:9/)&zz=1"
    page, watch = open_page(browser, f"{server}/{path}?{query}")
    expect(page.get_by_text("was ignored").first).to_be_visible(timeout=60_000)
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.locator('a[href^="http://127.0.0.1:9"]').count() == 0
    assert not watch.problems, watch.problems
    page.context.close()


@pytest.mark.parametrize(
    ("path", "query", "selector"),
    [
        ("Encode", "tokenizer=cl100k_base&text=Hello%2C%20links%21%20%E4%BD%A0%E5%A5%BD", ".tokens .tok"),
        ("Compare", "corpus=toy-the-cat-in-the-hat&vocab=300&view=side&sizes=270,300&refs=gpt2", ".tokens .tok"),
        ("Export", "corpus=toy-the-cat-in-the-hat&vocab=300&format=hf", '[data-testid="stDownloadButton"]'),
    ],
)
def test_a_copied_link_shows_the_same_view_in_a_fresh_browser(server, browser, path, query, selector):
    page, watch = open_page(browser, f"{server}/{path}?{query}")
    expect(page.locator(selector).first).to_be_visible(timeout=60_000)
    wait_idle(page)
    link = _copied_link(page)
    assert "ws=" not in link

    fresh, fresh_watch = open_page(browser, link)
    expect(fresh.locator(selector).first).to_be_visible(timeout=60_000)
    wait_idle(fresh)
    # Every token either page shows, in order, read from both each time: polled (a condition, not a pause), since on
    # a busy machine a page's parts arrive one by one (the word panel's byte tokens before the text's own; CI once
    # read the first page when only the last of Compare's three views was in it).
    for _ in range(150):
        shown, again = page.locator(selector).all_inner_texts(), fresh.locator(selector).all_inner_texts()
        if shown and again == shown:
            break
        fresh.wait_for_timeout(200)
    assert shown and again == shown, (_views(page), _views(fresh))
    assert not watch.problems and not fresh_watch.problems, (watch.problems, fresh_watch.problems)
    fresh.context.close()
    page.context.close()


VIEWS = """() => ({
  state: document.querySelector('[data-testid="stApp"]')?.getAttribute("data-test-script-state"),
  runs: window.__bpeRuns,
  views: [...document.querySelectorAll(".cmp-view")].map(
    (v) => [v.innerText.slice(0, 60), v.querySelectorAll(".tok").length]),
  alerts: [...document.querySelectorAll('[data-testid="stAlert"]')].map((a) => a.innerText.slice(0, 200)),
})"""
"""What a page shows when two pages differ: its run state, its views (title and token count), its messages."""


def _views(page) -> dict:
    return page.evaluate(VIEWS)


def test_in_talk_mode_a_bad_link_value_is_still_said_after_the_page_learns_its_width(server, browser):
    """Talk mode's keys report the browser's width after the first run, and that rerun cleared the link's warnings:
    `/Talk?step=99&talk=1` opened step 1 without a word (a new user's mistyped talk link)."""
    page, watch = open_page(browser, f"{server}/Talk?step=99&talk=1&lang=zh")
    page.wait_for_function("() => window.__bpeRuns.sent >= 2", timeout=60_000, polling=POLL_MS)  # the width's rerun
    wait_idle(page)
    expect(page.locator('[data-testid="stAlert"]').filter(has_text="“step”")).to_have_count(1)
    assert not watch.problems, watch.problems
    page.context.close()
