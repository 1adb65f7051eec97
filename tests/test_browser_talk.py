"""Talk mode and the guided talk in real Chromium, as a speaker uses them: keyboard only, at 1280×720
and 1920×1080, with every request to anything but the app's own server blocked.

Every visible text node (HTML, the player's shadow DOM and the charts' SVG text) is measured with
getComputedStyle: at least 28 px, larger on the larger screen. Screenshots ``talk-en.png`` and
``talk-zh.png`` go to $BPE_SCREENSHOTS (default: a pytest temp dir).

Needs playwright (PyPI) and Debian's chromium (/usr/bin/chromium); skipped when either is missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from browser_support import CHROMIUM, ConsoleWatch, wait_idle  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from ui.i18n import t  # noqa: E402
from ui.session import TALK_STEPS  # noqa: E402
from ui.talk.steps import STEPS  # noqa: E402

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} not installed", allow_module_level=True)

SMALL, LARGE = {"width": 1280, "height": 720}, {"width": 1920, "height": 1080}
PLAYER = '[data-testid="bpe-player"]'
HELP = '[data-testid="bpe-keys-help"]'
SIDEBAR = '[data-testid="stSidebar"]'

# [font-size px, text, tag, in an SVG] of every visible text node, shadow roots included; a node is
# visible when it has a box, is not hidden, and is on screen horizontally (a folded sidebar is not).
TEXT_SIZES = """() => {
  const out = [];
  const walk = (root) => {
    const it = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = it.currentNode; n; n = it.nextNode()) {
      if (n.nodeType === 1 && n.shadowRoot) walk(n.shadowRoot);
      if (n.nodeType !== 3 || !n.textContent.trim() || !n.parentElement) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const r = range.getBoundingClientRect();
      if (r.width < 1 || r.height < 1 || r.right <= 0 || r.left >= innerWidth) continue;
      const style = getComputedStyle(n.parentElement);
      if (style.visibility === "hidden" || Number(style.opacity) === 0) continue;
      out.push([parseFloat(style.fontSize), n.textContent.trim().slice(0, 40), n.parentElement.tagName,
                Boolean(n.parentElement.closest("svg"))]);
    }
  };
  walk(document.body);
  return out;
}"""


class Offline:
    """A browser context that lets through only requests to the app's own server, and notes the rest."""

    def __init__(self, browser, server: str, viewport: dict):
        self.context = browser.new_context(viewport=viewport)
        self.blocked: list[str] = []
        self.failed: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("requestfailed", lambda request: self.failed.append(request.url))
        self.watch = ConsoleWatch(self.page)
        self.server = server

    def _route(self, route) -> None:
        if route.request.url.startswith(self.server + "/"):
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()

    def open(self, path: str):
        self.page.goto(self.server + path)
        wait_idle(self.page)
        # The keys listen once their component has drawn (it marks the document).
        expect(self.page.locator("html[data-bpe-talk]")).to_have_count(1, timeout=20_000)
        return self.page

    def assert_clean(self) -> None:
        assert self.blocked == [] and self.failed == [], (self.blocked, self.failed)
        assert self.watch.problems == [], self.watch.problems
        self.context.close()


def at_step(page, step: int, lang: str = "en") -> None:
    """Wait until the page shows ``step`` (its title and the address bar), drawn in full."""
    title = t("{title} (step {step} of {total})", lang=lang, title=t(STEPS[step - 1].title, lang=lang), step=step,
              total=TALK_STEPS)  # fmt: skip
    expect(page.locator("h1")).to_have_text(title, timeout=30_000)
    wait_idle(page)
    expect(page).to_have_url(re.compile(rf"/Talk\?(.*&)?step={step}(&|$)"), timeout=10_000)
    if step == 4:
        expect(page.locator(f"{PLAYER}[data-ready='1']")).to_be_visible(timeout=20_000)
    if page.locator(".stVegaLiteChart, [data-testid='stVegaLiteChart']").count():
        expect(page.locator("svg text").first).to_be_visible(timeout=20_000)
    page.wait_for_timeout(400)  # the last st.html blocks paint a moment after the run ends


def text_sizes(page) -> list[list]:
    sizes = page.evaluate(TEXT_SIZES)
    assert sizes
    return sizes


@pytest.mark.parametrize("viewport", [SMALL, LARGE], ids=["1280x720", "1920x1080"])
def test_every_text_of_every_step_is_28px_or_more_and_grows_with_the_screen(server, browser, viewport):
    offline = Offline(browser, server, viewport)
    page = offline.open("/Talk?step=1&talk=1")
    expect(page.locator(SIDEBAR)).to_have_attribute("data-collapsed", "true", timeout=10_000)
    floor = 28 if viewport is SMALL else 40  # max(28px, 2.25vw): 28.8 and 43.2 px
    svg_texts = 0
    for step in range(1, TALK_STEPS + 1):
        if step > 1:
            page.keyboard.press("n")
        at_step(page, step)
        sizes = text_sizes(page)
        small = [size for size in sizes if size[0] < floor]
        assert not small, (step, small[:5])
        svg_texts += sum(1 for size in sizes if size[3])
    assert svg_texts >= 20  # the charts of steps 2 and 7 were measured too
    # The Merges page in talk mode: the player fills the screen below the title.
    page = offline.open("/Merges?corpus=toy-the-cat-in-the-hat&vocab=300&talk=1")
    expect(page.locator(f"{PLAYER}[data-ready='1']")).to_be_visible(timeout=60_000)
    wait_idle(page)  # the link trained its tokenizer; the last run draws the page once more
    expect(page.locator("html[data-bpe-talk='1']")).to_have_count(1)
    page.wait_for_timeout(500)
    small = [size for size in text_sizes(page) if size[0] < floor]
    assert not small, small[:5]
    box = page.locator(PLAYER).bounding_box()
    assert box["height"] >= 0.75 * viewport["height"] and box["width"] >= 0.9 * viewport["width"]
    offline.assert_clean()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_guided_talk_walked_by_keyboard_alone(server, browser, lang, shots):
    offline = Offline(browser, server, SMALL)
    page = offline.open(f"/Talk?step=1&talk=1&lang={lang}")
    at_step(page, 1, lang)
    for step in range(2, TALK_STEPS + 1):
        page.keyboard.press("n" if step % 2 else "PageDown")
        at_step(page, step, lang)
        if step == 4:  # the player: its own keys, its words in this language
            player = page.locator(PLAYER)
            expect(player.locator("[data-act='play']")).to_have_text(t("▶ Play", lang=lang))
            page.keyboard.press("End")
            expect(player).to_have_attribute("data-round", str(data_rounds(page)))
            page.keyboard.press("Home")
            for _ in range(60):
                page.keyboard.press("ArrowRight")
            expect(player).to_have_attribute("data-round", "60")
            page.keyboard.press(" ")
            expect(player).to_have_attribute("data-playing", "1")
            page.keyboard.press(" ")
            expect(player).to_have_attribute("data-playing", "0")
            if lang == "en":
                page.screenshot(path=str(shots / "talk-en.png"))
        if step == 8 and lang == "zh":
            page.screenshot(path=str(shots / "talk-zh.png"))
    page.keyboard.press("n")  # past the end: stays on the last step
    wait_idle(page)
    at_step(page, TALK_STEPS, lang)
    page.keyboard.press("p")
    at_step(page, TALK_STEPS - 1, lang)
    page.keyboard.press("PageUp")
    at_step(page, TALK_STEPS - 2, lang)
    offline.assert_clean()


def data_rounds(page) -> int:
    return int(page.locator(f"{PLAYER} [data-role='scrub']").get_attribute("max"))


def test_question_mark_lists_the_keys_and_s_and_t_toggle_the_sidebar_and_talk_mode(server, browser):
    offline = Offline(browser, server, SMALL)
    page = offline.open("/Talk?step=3&talk=1")
    at_step(page, 3)
    page.keyboard.press("?")
    overlay = page.locator(HELP)
    expect(overlay).to_be_visible()
    for keys in ("n  PageDown", "p  PageUp", "s", "t", "space", "Home  End"):
        expect(overlay.locator("td", has_text=keys).first).to_be_visible()
    assert min(size for size, _, _, _ in text_sizes(page) if size) >= 28
    page.keyboard.press("Escape")
    expect(overlay).to_have_count(0)

    sidebar = page.locator(SIDEBAR)
    expect(sidebar).to_have_attribute("data-collapsed", "true")
    page.keyboard.press("s")
    expect(sidebar).to_have_attribute("data-collapsed", "false")
    expect(sidebar.get_by_text(t("Talk mode"))).to_be_visible()
    page.keyboard.press("s")
    expect(sidebar).to_have_attribute("data-collapsed", "true")

    page.keyboard.press("t")  # talk mode off: the link loses talk=1, the text goes back to its size
    expect(page.locator("html[data-bpe-talk='0']")).to_have_count(1, timeout=20_000)
    wait_idle(page)
    assert "talk=1" not in page.url and "step=3" in page.url
    assert min(size for size, _, _, _ in text_sizes(page)) < 28
    page.keyboard.press("t")
    expect(page.locator("html[data-bpe-talk='1']")).to_have_count(1, timeout=20_000)
    wait_idle(page)
    assert "talk=1" in page.url
    page = offline.open("/Encode?talk=1")  # elsewhere n and p move between pages, in talk mode still
    page.keyboard.press("n")
    expect(page).to_have_url(re.compile(r"/Compare\?(.*&)?talk=1(&|$)"), timeout=30_000)
    wait_idle(page)
    expect(page.locator("html[data-bpe-talk='1']")).to_have_count(1)
    page.keyboard.press("p")
    expect(page).to_have_url(re.compile(r"/Encode\?(.*&)?talk=1(&|$)"), timeout=30_000)
    offline.assert_clean()


def test_after_a_talk_link_a_normal_page_shows_its_sidebar_again(server, browser):
    """Streamlit remembers a folded sidebar in the browser; talk mode folds it, so the next page out of talk mode
    opens it again: nobody in the room has to look for "Expand sidebar" to reach the Train page."""
    offline = Offline(browser, server, SMALL)
    page = offline.open("/Talk?step=1&talk=1")
    sidebar = page.locator(SIDEBAR)
    expect(sidebar).to_have_attribute("data-collapsed", "true", timeout=10_000)
    page.evaluate("document.fonts.ready.then(() => true)")  # leave no font half-loaded (a failed request)
    page = offline.open("/Encode")  # a link without talk=1, in the same browser
    expect(sidebar).to_have_attribute("data-collapsed", "false", timeout=10_000)
    expect(page.locator('a[data-testid="stSidebarNavLink"]').first).to_be_visible()
    page.keyboard.press("s")  # folded by the person now: it stays folded on the next page
    expect(sidebar).to_have_attribute("data-collapsed", "true")
    page.evaluate("document.fonts.ready.then(() => true)")
    page = offline.open("/Merges")
    page.wait_for_timeout(1500)
    expect(sidebar).to_have_attribute("data-collapsed", "true")
    offline.assert_clean()
