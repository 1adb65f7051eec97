"""The merge player in real Chromium: the exported one-file animation (offline, keys, XSS, every
round drawn like the truncated tokenizer, invisible characters marked like ui/token_html.py, right-to-
left overrides contained, long tokens clipped) and the player on the Merges page (keys, the round
reported on pause, the download).

Needs playwright (PyPI) and Debian's chromium (/usr/bin/chromium); skipped when either is missing.
Screenshots go to $BPE_SCREENSHOTS (default: a pytest temp dir).
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from browser_support import CHROMIUM, open_page, wait_idle  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from playground.corpora import MIXED_EN_ZH  # noqa: E402
from playground.trained import Request, Trained, train_job  # noqa: E402
from ui import (
    merge_frames,  # noqa: E402
    token_html,  # noqa: E402
    token_style,
)
from ui.animation_html import animation_html  # noqa: E402

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} not installed", allow_module_level=True)

PLAYER = '[data-testid="bpe-player"]'
XSS = "</script><img src=x onerror=window.__xss=1>"
HIDDEN = "x\u202eabc\u202c y\u200bz\u2066w\u2069 soft\u00adhyphen \ufeffbom \x1b[0m"
LONG = "a" * 1024
CORPUS = f"{MIXED_EN_ZH}{HIDDEN} {XSS} {HIDDEN}\n{XSS}\n" + f"{LONG} " * 3 + "🙂 done\n"


@pytest.fixture(scope="module")
def trained() -> Trained:
    request = Request("paste", "mixed", "digest", "byte", 420, "gpt2", "gpt2", ())
    trained = train_job(CORPUS, request)
    return replace(trained, window_text=CORPUS)  # the whole corpus in the window: the long tokens and marks too


def open_export(browser, tmp_path, trained: Trained, start_round: int, title: str = "Mixed English / Chinese"):
    """Open the exported file from file:// with every network request aborted; returns (page, requests)."""
    path = tmp_path / "animation.html"
    path.write_text(animation_html(merge_frames.player_payload(trained, start_round), title), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    page = context.new_page()
    requests: list[str] = []
    problems: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.route("**/*", lambda route: route.continue_() if route.request.url == path.as_uri() else route.abort())
    page.goto(path.as_uri())
    expect(page.locator(f"{PLAYER}[data-ready='1']")).to_be_visible(timeout=30_000)
    return page, [url for url in requests if url != path.as_uri()], problems


def drawn(page) -> list[dict]:
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('[data-role=window] .tok'), (s) => ({
        text: s.textContent, cls: s.className, marks: Array.from(s.querySelectorAll('.ctl'), (c) => c.title)}))"""
    )


def expected_tokens(trained: Trained, k: int) -> list[bytes]:
    tokenizer = trained.tokenizer
    return tokenizer.decode_tokens_bytes(tokenizer.truncated(k).encode(trained.window_text))


def test_export_draws_every_round_like_the_truncated_tokenizer(browser, tmp_path, trained):
    """Random steps, plays and jumps: the drawn tokens are truncated(k)'s, labelled exactly as
    ui/token_html.py labels them (marks and partial bytes too), neighbours never share a colour, and
    the tokens merged at round k are the ones outlined."""
    page, requests, problems = open_export(browser, tmp_path, trained, 0)
    lifetimes = trained.tokenizer.segment(trained.window_text).lifetimes
    n, rng, k = trained.num_merges, random.Random(11), 0
    rounds = [0, 1, 2, 3, 10, 9, 8, n, n - 1, 0, n // 2]
    while len(rounds) < 40:
        k = max(0, min(n, rounds[-1] + rng.choice([1, 1, 2, 4, -1, -3, 25, -40, rng.randint(-n, n)])))
        rounds.append(k)
    for k in rounds:
        page.evaluate("(k) => window.__bpePlayer.go(k, false)", k)
        tokens = expected_tokens(trained, k)
        spans = drawn(page)
        assert [s["text"] for s in spans] == [token_html.display_bytes(t) for t in tokens], k
        assert [s["marks"] for s in spans] == [
            [p[2] for p in token_html.token_pieces(t) if p[0] == "mark"] for t in tokens
        ], k
        colours = [next(c for c in s["cls"].split() if c[0] == "c" and c[1:].isdigit()) for s in spans]
        assert all(a != b for a, b in zip(colours, colours[1:])), k
        starts = [0]
        for t in tokens:
            starts.append(starts[-1] + len(t))
        just = [k > 0 and k - 1 in lifetimes[a : b - 1] for a, b in zip(starts, starts[1:])]
        assert ["just" in s["cls"].split() for s in spans] == just, k
    assert not requests and not problems, (requests, problems)
    page.context.close()


def test_export_plays_offline_keys_work_and_html_stays_text(browser, tmp_path, trained, shots):
    page, requests, problems = open_export(browser, tmp_path, trained, 0, title="<b>Merges</b> & " + XSS)
    player = page.locator(PLAYER)
    n = trained.num_merges
    expect(player).to_have_attribute("data-round", "0")
    page.keyboard.press("Space")
    expect(player).to_have_attribute("data-playing", "1")
    expect(player).not_to_have_attribute("data-round", "0")  # it has played a round or more (no pause decides it)
    page.keyboard.press("Space")
    expect(player).to_have_attribute("data-playing", "0")
    k = int(player.get_attribute("data-round"))
    assert 0 < k < n
    for key, expected in (("ArrowRight", k + 1), ("ArrowLeft", k), ("End", n), ("ArrowRight", n), ("Home", 0)):
        page.keyboard.press(key)
        expect(player).to_have_attribute("data-round", str(expected))
    speed = player.locator("select[data-role=speed]")
    assert speed.input_value() == "4"
    page.keyboard.press("+")
    page.keyboard.press("+")
    expect(speed).to_have_value("15")
    page.keyboard.press("-")
    expect(speed).to_have_value("8")
    page.keyboard.press("End")
    window = player.locator("[data-role=window]")
    window.locator(".tok").nth(1).click()  # "yt" of "Byte": the word it belongs to is picked
    expect(player).to_have_attribute("data-word", "Byte")
    expect(window).to_contain_text("</script><img")
    assert page.evaluate("() => window.__xss") is None
    assert page.locator("img").count() == 0
    expect(page.locator("h1")).to_have_text("<b>Merges</b> & " + XSS)
    page.screenshot(path=str(shots / "export_mixed_chinese.png"))  # the last round: whole characters
    assert not requests and not problems, (requests, problems)
    page.context.close()


def _boxes(page, selector: str) -> list[dict]:
    return page.evaluate(
        f"""() => Array.from(document.querySelectorAll({selector!r}), (s) => {{
        const r = s.getBoundingClientRect(); return {{text: s.textContent, x: r.x, y: r.y, w: r.width,
        scroll: s.scrollWidth, client: s.clientWidth, title: s.title}}; }})"""
    )


def _assert_contained(boxes: list[dict], window_width: float) -> None:
    """After the ⟨RLO⟩ token, tokens on its line run left to right; the long token is clipped."""
    at = next(i for i, b in enumerate(boxes) if "⟨RLO⟩" in b["text"])
    after = [b for b in boxes[at:] if abs(b["y"] - boxes[at]["y"]) < 2]
    assert len(after) >= 3
    assert all(a["x"] + a["w"] <= b["x"] + 0.5 for a, b in zip(after, after[1:])), after
    assert not any("\u202e" in b["text"] or "\u200b" in b["text"] for b in boxes)
    long = next(b for b in boxes if len(b["title"]) > 1000)
    assert long["w"] <= window_width and long["scroll"] > long["client"]
    assert LONG in long["title"]


def test_rtl_override_is_contained_and_long_tokens_are_clipped(browser, tmp_path, trained):
    """In the player and in the Python renderer's HTML (ui/token_html.py with its CSS)."""
    page, _, _ = open_export(browser, tmp_path, trained, trained.num_merges)
    width = page.evaluate("() => document.querySelector('[data-role=window]').clientWidth")
    _assert_contained(_boxes(page, "[data-role=window] .tok"), width)
    tokens = expected_tokens(trained, trained.num_merges)
    html = token_html.tokens_html(tokens)
    page.set_content(f"<style>{token_style.TOKEN_CSS}</style><div style='width:900px'>{html}</div>")
    _assert_contained(_boxes(page, ".tokens .tok"), 900)
    page.context.close()


def test_merges_page_player_keys_report_and_download(server, browser, tmp_path, shots):
    page, watch = open_page(browser, server)
    wait_idle(page)
    page.get_by_role("button", name="Train ▶").click()
    expect(page.get_by_role("heading", name="3 · Result")).to_be_visible(timeout=90_000)
    wait_idle(page)
    page.get_by_role("link", name="Merges").first.click()
    wait_idle(page)
    player = page.locator(PLAYER)
    expect(player).to_have_attribute("data-ready", "1", timeout=30_000)
    n = int(page.evaluate("() => window.__bpePlayer.n"))
    expect(player).to_have_attribute("data-round", "0")  # it opens at the start
    assert page.get_by_role("button", name="Play").count() == 1  # one set of controls

    # the window's last line is whole when scrolled to the end
    bottom = page.evaluate(
        """() => { const w = document.querySelector('[data-testid=stApp]') && window.__bpePlayer.win;
        w.scrollTop = w.scrollHeight; const last = w.querySelectorAll('.tok'); const t = last[last.length - 1];
        return [t.getBoundingClientRect().bottom, w.getBoundingClientRect().bottom]; }"""
    )
    assert bottom[0] <= bottom[1], bottom

    sent: list[int] = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda payload: sent.append(len(payload))))
    player.locator(".hint").click()
    page.keyboard.press("Home")
    expect(player).to_have_attribute("data-round", "0")
    page.keyboard.press("+")
    page.keyboard.press("+")
    page.keyboard.press("+")  # 4 -> 30 rounds/s
    # The player reports its speed 400 ms after the last key (debounced), on a busy machine later: the address says
    # when the run it asked for has come (a fixed 700 ms could let the report fall into the play below).
    expect(page).to_have_url(re.compile(r"[?&]speed=30(&|$)"), timeout=30_000)
    wait_idle(page)
    sent.clear()
    page.keyboard.press("Space")
    expect(player).to_have_attribute("data-playing", "1")
    expect(player).to_have_attribute("data-round", re.compile(r"^(?:[6-9]|[1-9][0-9]+)$"))  # six rounds or more
    assert not sent  # playing talks to nobody
    page.keyboard.press("Space")
    expect(player).to_have_attribute("data-playing", "0")
    page.keyboard.press("ArrowRight")
    k = int(player.get_attribute("data-round"))
    assert 5 < k < n
    # the pause and the step are reported once: the page follows the player's round
    expect(page.get_by_text(f"Player at round {k:,} of {n:,}")).to_be_visible(timeout=15_000)
    wait_idle(page)
    assert player.get_attribute("data-round") == str(k)
    assert player.locator("select[data-role=speed]").input_value() == "30"
    page.screenshot(path=str(shots / "merges_page.png"))

    with page.expect_download() as download:
        page.get_by_role("button", name="Download this animation").click()
    path = tmp_path / "downloaded.html"
    download.value.save_as(path)
    exported = browser.new_page()
    exported.route("**/*", lambda route: route.continue_() if route.request.url == path.as_uri() else route.abort())
    exported.goto(path.as_uri())
    expect(exported.locator(f"{PLAYER}[data-ready='1']")).to_have_attribute("data-round", str(k))
    assert exported.locator("select[data-role=speed]").input_value() == "30"
    exported.close()
    assert not watch.problems, watch.problems
    page.context.close()
