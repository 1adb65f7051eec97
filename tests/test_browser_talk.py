"""Talk mode and the guided talk in real Chromium, as a speaker uses them: keyboard only, at 1280×720
and 1920×1080, with every request to anything but the app's own server blocked.

Every visible text node (HTML, the player's shadow DOM and the charts' SVG text) is measured with
getComputedStyle: at least 28 px, larger on the larger screen. At 1280×720, in English and Chinese, every step
of the talk and every page in talk mode (the sidebar shown too) is measured whole (``browser_support.layout_report``):
no text under 28 px, past the window's edge, cut by a box or by an ellipsis, no table drawn on a canvas; each step
fits the screen without scrolling, its Previous / Next on it; the speaker's note is only in the notes window, which
follows the talk. Screenshots ``talk-en.png``, ``talk-zh.png``, ``talk-notes.png`` and ``talk-pages-*.png`` go to
$BPE_SCREENSHOTS (default: a pytest temp dir).

Needs playwright (PyPI) and Debian's chromium (/usr/bin/chromium); skipped when either is missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from browser_runs import reruns_sent, wait_rerun_after  # noqa: E402
from browser_support import CHROMIUM, ConsoleWatch, layout_problems, layout_report, wait_idle, watch_runs  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from playground.i18n import t  # noqa: E402
from playground.session import TALK_STEPS  # noqa: E402
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


# What reaches below the main column's bottom edge (said when a step does not fit): each element's box and text.
BELOW_THE_SCREEN = """() => {
  const main = document.querySelector('[data-testid=stMain]'), bottom = main.getBoundingClientRect().bottom;
  return [...main.querySelectorAll('[data-testid=stElementContainer]')].map(e => [e.getBoundingClientRect(), e])
    .filter(([r]) => r.bottom > bottom - 60 && r.height > 0)
    .map(([r, e]) => [Math.round(r.top), Math.round(r.height), e.className.slice(0, 80),
                      (e.innerText || '').slice(0, 80)]);
}"""


class Offline:
    """A browser context that lets through only requests to the app's own server, and notes the rest."""

    def __init__(self, browser, server: str, viewport: dict):
        self.context = browser.new_context(viewport=viewport)
        watch_runs(self.context)  # wait_idle knows when the run a key asked for has ended
        self.blocked: list[str] = []
        self.failed: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("requestfailed", self._failed)
        self.watch = ConsoleWatch(self.page)
        self.server = server

    def _route(self, route) -> None:
        if route.request.url.startswith(self.server + "/"):
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()

    def _failed(self, request) -> None:
        # A request the browser itself cut off because the page moved on (the next page opened while a lazy
        # script or font of this one was loading) is not a missing resource.
        if request.failure != "net::ERR_ABORTED":
            self.failed.append(f"{request.url} ({request.failure})")

    def open(self, path: str):
        self.page.goto(self.server + path)
        wait_idle(self.page)
        # The keys listen once their component has drawn (it marks the document).
        expect(self.page.locator("html[data-bpe-talk]")).to_have_count(1, timeout=20_000)
        # Fonts still loading would be cut off (as failed requests) by opening the next page at once.
        self.page.evaluate("() => document.fonts.ready.then(() => true)")
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
    expect(page).to_have_url(re.compile(rf"/Talk\?(.*&)?step={step}(&|$)"), timeout=30_000)
    if step == 4:
        expect(page.locator(f"{PLAYER}[data-ready='1']")).to_be_visible(timeout=20_000)
    if page.locator(".stVegaLiteChart, [data-testid='stVegaLiteChart']").count():
        expect(page.locator("svg text").first).to_be_visible(timeout=20_000)
    page.wait_for_timeout(400)  # the last st.html blocks paint a moment after the run ends


def text_sizes(page) -> list[list]:
    sizes = page.evaluate(TEXT_SIZES)
    assert sizes
    return sizes


# At 1280×720 the keyboard walk below measures every step whole, in both languages; here the larger screen.
@pytest.mark.parametrize("viewport", [LARGE], ids=["1920x1080"])
def test_every_text_of_every_step_is_28px_or_more_and_grows_with_the_screen(server, browser, viewport):
    offline = Offline(browser, server, viewport)
    page = offline.open("/Talk?step=1&talk=1")
    expect(page.locator(SIDEBAR)).to_have_attribute("data-collapsed", "true", timeout=30_000)
    floor = 28 if viewport is SMALL else 40  # max(28px, 2.25vw): 28.8 and 43.2 px
    svg_texts = 0
    for step in range(1, len(STEPS) + 1):
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


def assert_legible_step(page, step: int, lang: str) -> None:
    """The step fits the 720-pixel screen (the page does not scroll), its controls on it, every text legible."""
    problems = layout_problems(layout_report(page, scroll=False))
    assert not problems, (lang, step, problems)
    scroll_height, client_height = page.evaluate(
        "() => { const m = document.querySelector('[data-testid=stMain]'); return [m.scrollHeight, m.clientHeight]; }"
    )
    assert scroll_height <= client_height + 1, (lang, step, scroll_height, page.evaluate(BELOW_THE_SCREEN))
    for key in ("talk_prev", "talk_next"):
        box = page.locator(f".st-key-{key} button").bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= SMALL["height"], (lang, step, key, box)
    note = t(STEPS[step - 1].note, lang=lang)
    assert note not in page.locator("body").inner_text()  # never on the projected screen
    for window in page.locator(f"{PLAYER} .window.tokens").all():
        cut = window.evaluate(ROWS_CUT)
        assert cut == [], (lang, step, "a row of tokens cut by the player's window", cut)


# The tokens the player's window shows only in part at its bottom edge, while it is scrolled to the top (a row cut in
# half on the projector, at steps 4 and 12 until the window's height was rounded to whole rows).
ROWS_CUT = """w => {
  if (w.scrollTop > 0) return [];
  const bottom = w.getBoundingClientRect().top + w.clientTop + w.clientHeight;
  return [...w.querySelectorAll('.tok')].map(tok => tok.getBoundingClientRect())
    .filter(r => r.top < bottom - 0.5 && r.bottom > bottom + 0.5).map(r => [Math.round(r.top), Math.round(r.bottom)])
    .slice(0, 3);
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_guided_talk_walked_by_keyboard_alone(server, browser, lang, shots):
    offline = Offline(browser, server, SMALL)
    page = offline.open(f"/Talk?step=1&talk=1&lang={lang}")
    at_step(page, 1, lang)
    with page.context.expect_page() as opened:  # the speaker's notes: v opens them in their own window
        page.keyboard.press("v")
    notes = opened.value
    note = notes.locator('[data-testid="bpe-notes"] [data-role="note"]')
    for step in range(1, len(STEPS) + 1):
        if step > 1:
            page.keyboard.press("n" if step % 2 else "PageDown")
            at_step(page, step, lang)
        # Kept in step by the session (the page's run sends it the step: a busy machine needs more than 5 s).
        expect(note).to_have_text(t(STEPS[step - 1].note, lang=lang), timeout=20_000)
        following = t(STEPS[step].title, lang=lang) if step < len(STEPS) else ""
        expect(notes.locator('[data-role="next"]')).to_contain_text(following)
        assert_legible_step(page, step, lang)
        if step == 4:  # the player: its own keys, its words in this language
            player = page.locator(PLAYER)
            expect(player.locator("[data-act='play']")).to_have_text(t("▶ Play", lang=lang))
            sent = reruns_sent(page)
            page.keyboard.press("End")
            expect(player).to_have_attribute("data-round", str(data_rounds(page)))
            sent = wait_rerun_after(page, sent)  # the player's debounced report: measured once its run ended
            assert_legible_step(page, step, lang)
            page.keyboard.press("Home")
            for _ in range(60):
                page.keyboard.press("ArrowRight")
            expect(player).to_have_attribute("data-round", "60")
            sent = wait_rerun_after(page, sent)
            page.evaluate("k => window.__bpePlayer.go(k, false)", tie_round(lang))  # a tie: the note and runner-ups
            expect(player.locator("[data-role='info'] .note")).to_be_visible()
            assert_legible_step(page, step, lang)
            page.keyboard.press(" ")
            expect(player).to_have_attribute("data-playing", "1")
            page.keyboard.press(" ")
            expect(player).to_have_attribute("data-playing", "0")
            # A pause reports the round (a rerun 400 ms later); n pressed as it ran was once lost beside a busy core
            # (the page stayed on step 4): n is pressed once that run has ended (not reproduced on a quiet machine).
            wait_rerun_after(page, sent)
            if lang == "en":
                page.screenshot(path=str(shots / "talk-en.png"))
        if step == 8 and lang == "zh":
            page.screenshot(path=str(shots / "talk-zh.png"))
    last = len(STEPS)
    page.keyboard.press("n")  # past the end: stays on the last step
    wait_idle(page)
    at_step(page, last, lang)
    page.keyboard.press("p")
    at_step(page, last - 1, lang)
    notes.keyboard.press("PageUp")  # the notes window's keys move the talk too
    at_step(page, last - 2, lang)
    expect(note).to_have_text(t(STEPS[last - 3].note, lang=lang))
    if lang == "en":
        # Last: a screenshot brings the notes window forward, and the projected page, hidden behind it, defers
        # drawing until shown again (bringing it back mid-walk raced on a busy machine: n then moved nothing).
        notes.screenshot(path=str(shots / "talk-notes.png"))
    offline.assert_clean()


def tie_round(lang: str) -> int:
    """A round of step 4's tokenizer in ``lang`` whose winner was tied (the player shows its tie note, runner-ups)."""
    from playground.trained import train_job
    from ui.talk import data

    request, text = data.job(data.real_corpus(lang), "byte", data.REAL_VOCAB)
    trace = train_job(text, request).trace
    return next(k for k, record in enumerate(trace, start=1) if record.tied and len(record.candidates) >= 3)


def data_rounds(page) -> int:
    return int(page.locator(f"{PLAYER} [data-role='scrub']").get_attribute("max"))


def test_question_mark_lists_the_keys_and_s_and_t_toggle_the_sidebar_and_talk_mode(server, browser):
    offline = Offline(browser, server, SMALL)
    page = offline.open("/Talk?step=3&talk=1")
    at_step(page, 3)
    page.keyboard.press("?")
    overlay = page.locator(HELP)
    expect(overlay).to_be_visible()
    for keys in ("n  PageDown", "p  PageUp", "→  ←  space", "s", "t", "space", "Home  End"):
        expect(overlay.locator("td", has_text=keys).first).to_be_visible()
    assert min(size for size, _, _, _ in text_sizes(page) if size) >= 28
    page.keyboard.press("Escape")
    expect(overlay).to_have_count(0)

    # A step without a player: the arrows move the talk. Then "Next ▶" clicked with the mouse, and space: the player
    # plays (the clicked button kept the focus, and space clicked it again: the talk skipped step 4).
    page.keyboard.press("ArrowLeft")
    at_step(page, 2)
    page.keyboard.press("ArrowRight")
    at_step(page, 3)
    page.get_by_role("button", name=t("Next ▶")).click()
    at_step(page, 4)
    page.keyboard.press(" ")
    expect(page.locator(PLAYER)).to_have_attribute("data-playing", "1")
    page.keyboard.press(" ")
    expect(page.locator(PLAYER)).to_have_attribute("data-playing", "0")
    at_step(page, 4)
    page.keyboard.press("p")
    at_step(page, 3)

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
    expect(sidebar).to_have_attribute("data-collapsed", "true", timeout=30_000)
    page.evaluate("document.fonts.ready.then(() => true)")  # leave no font half-loaded (a failed request)
    page = offline.open("/Encode")  # a link without talk=1, in the same browser
    expect(sidebar).to_have_attribute("data-collapsed", "false", timeout=30_000)
    expect(page.locator('a[data-testid="stSidebarNavLink"]').first).to_be_visible()
    page.keyboard.press("s")  # folded by the person now: it stays folded on the next page
    expect(sidebar).to_have_attribute("data-collapsed", "true")
    page.evaluate("document.fonts.ready.then(() => true)")
    page = offline.open("/Merges")
    page.wait_for_timeout(1500)
    expect(sidebar).to_have_attribute("data-collapsed", "true")
    offline.assert_clean()


PAGES = "/?corpus=toy-the-cat-in-the-hat&vocab=300&kind=superword&transition=20&talk=1&dropout=0.2&seed=3&word=%20the"
"""Every page's content at once: a superword tokenizer (its settings on Train, its plain twin offered on Compare,
its refusal by GPT-2 files on Export), a picked word (Merges), BPE-dropout samples (Encode)."""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_page_in_talk_mode_is_legible_at_1280x720(server, browser, lang, shots):
    """Walked as a speaker walks it (n moves to the next page), with the sidebar shown once (s): every text of
    every page and Compare view, top to bottom, at least 28 px, none past the window or cut, no canvas table."""
    from ui.compare.common import VIEW_LABELS

    offline = Offline(browser, server, SMALL)
    page = offline.open(f"{PAGES}&lang={lang}")
    expect(page.locator("#result")).to_have_count(1, timeout=60_000)  # the link trained its tokenizer
    wait_idle(page)

    def legible(where: str) -> None:
        page.wait_for_timeout(400)  # st.html blocks and charts paint a moment after the run
        page.evaluate("() => document.fonts.ready.then(() => true)")  # a fallback font's wider text is not the page's
        problems = layout_problems(layout_report(page))
        assert not problems, (lang, where, problems)

    legible("train")
    page.keyboard.press("s")
    expect(page.locator(SIDEBAR)).to_have_attribute("data-collapsed", "false")
    page.wait_for_timeout(500)
    legible("train, the sidebar shown")
    # The language buttons: each holds its text, apart from the other, with a border on every side.
    buttons = page.locator(f"{SIDEBAR} [data-testid='stButtonGroup'] button")
    boxes = [buttons.nth(k).bounding_box() for k in range(buttons.count())]
    first, second = boxes
    assert first["y"] + first["height"] < second["y"] or first["x"] + first["width"] < second["x"], boxes
    for k in range(2):
        fits, border = buttons.nth(k).evaluate(
            "b => [b.scrollHeight <= b.clientHeight, ['Top','Right','Bottom','Left'].every(side =>"
            " parseFloat(getComputedStyle(b)['border' + side + 'Width']) >= 1)]"
        )
        assert fits and border, (lang, k, fits, border)
    page.screenshot(path=str(shots / f"talk-pages-sidebar-{lang}.png"))
    page.keyboard.press("s")
    for path, ready in (("Merges", f"{PLAYER}[data-ready='1']"), ("Encode", ".bpe-sample"),
                        ("Compare", "svg text"), ("Export", "[data-testid='stAlert']")):  # fmt: skip
        page.keyboard.press("n")
        expect(page).to_have_url(re.compile(rf"/{path}\?"), timeout=30_000)
        expect(page.locator(ready).first).to_be_visible(timeout=60_000)
        wait_idle(page)
        legible(path)
        if path == "Merges":  # a round with a tie: its note and runner-ups in big type
            page.evaluate("k => window.__bpePlayer.go(k, false)", 5)
            legible("Merges, round 5")
        if path == "Compare":
            for view in ("side", "vocab", "algos"):
                page.get_by_text(t(VIEW_LABELS[view], lang=lang), exact=True).click()
                wait_idle(page)
                train = page.locator(".st-key-algos_run button")
                if view == "algos" and train.count():
                    train.click()
                    expect(page.locator("table").first).to_be_visible(timeout=60_000)
                    wait_idle(page)
                legible(f"Compare, {view}")
            page.get_by_text(t(VIEW_LABELS["curve"], lang=lang), exact=True).click()
            wait_idle(page)
            page.evaluate("() => document.activeElement.blur()")  # keys typed into a radio are the radio's
        page.screenshot(path=str(shots / f"talk-pages-{path.lower()}-{lang}.png"))
    offline.assert_clean()
