"""Learning by doing, in real Chromium: the Check page finds a tutorial trainer's first-seen tie-break where it
first parts from bpe_core's merges (in English and in 中文, from a link); the code beside the Merges player lights
the line that decided each round as the player steps; predict mode asks before a round and keeps the score.

Needs playwright (PyPI) and Debian's chromium (/usr/bin/chromium); skipped when either is missing.
Screenshots go to $BPE_SCREENSHOTS (default: a pytest temp dir).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from browser_support import CHROMIUM, layout_problems, layout_report, open_page, paste, wait_idle  # noqa: E402
from playwright.sync_api import expect  # noqa: E402
from tutorial_trainers import tutorial_train  # noqa: E402

from playground.corpora import load_sample  # noqa: E402

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} not installed", allow_module_level=True)

SMALL = {"width": 1280, "height": 900}
TALL = {"width": 1280, "height": 1500}  # the check's result below its inputs
PROJECTOR = {"width": 1280, "height": 720}
PLAYER = '[data-testid="bpe-player"]'
CAT = "toy-the-cat-in-the-hat"
TEXT = load_sample(CAT)
CORRECT = tutorial_train(TEXT, 40, specials=[])
FIRST_SEEN = tutorial_train(TEXT, 40, specials=[], tie="first")
DIFFERENCE = next(rank for rank, (a, b) in enumerate(zip(CORRECT, FIRST_SEEN)) if a != b)


def lines(merges: list[tuple[bytes, bytes]]) -> str:
    return "\n".join(f"{left!r} {right!r}" for left, right in merges)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_check_page_names_a_first_seen_tie_break_at_its_merge(server, browser, shots, lang):
    page, watch = open_page(browser, f"{server}/Check?check_corpus={CAT}&lang={lang}", TALL)
    box = page.locator("textarea").last
    expect(box).to_be_visible(timeout=60_000)
    with page.expect_download() as download:  # the text itself, for the learner's own trainer
        page.locator(".st-key-check_text_download button").click()
    assert download.value.suggested_filename == f"{CAT}.txt"
    assert Path(download.value.path()).read_text("utf-8") == TEXT
    paste(page, box, lines(FIRST_SEEN))
    wait_idle(page)
    page.locator(".st-key-check_button button").click()
    wait_idle(page)
    result = page.locator('[data-testid="stMetricValue"]').first
    expect(result).to_contain_text(str(DIFFERENCE + 1), timeout=60_000)  # "merge N", counted from 1
    cause = "tie-break" if lang == "en" else "平局"
    expect(page.get_by_text(cause).first).to_be_visible()
    page.screenshot(path=str(shots / f"check-{lang}.png"))
    assert "check_corpus=" + CAT in page.url and "check_paste" not in page.url  # merges never travel in a link
    assert not watch.problems, watch.problems
    page.context.close()


def test_the_code_beside_the_player_steps_with_it_and_predict_mode_keeps_score(server, browser, shots):
    page, watch = open_page(browser, f"{server}/Merges?corpus={CAT}&vocab=280&round=0&predict=1", SMALL)
    player = page.locator(PLAYER)
    expect(player).to_have_attribute("data-ready", "1", timeout=90_000)
    code = player.locator("[data-role=code]")
    expect(code).to_be_visible()
    expect(code.locator(".ln")).not_to_have_count(0)
    predict = player.locator("[data-role=predict]")
    options = predict.locator(".option")
    expect(options.first).to_be_visible(timeout=30_000)
    assert options.count() >= 2
    options.first.click()
    expect(player.locator("[data-role=predict-result]")).not_to_be_empty()
    expect(predict).to_have_attribute("data-score", re.compile(r"^[01]/1$"))  # one round answered, right or not
    page.screenshot(path=str(shots / "predict.png"))
    page.keyboard.press("ArrowRight")  # after an answer → asks round 2 (it played round 2 unasked, then asked round 3)
    expect(options.first).to_be_visible()
    expect(player).to_have_attribute("data-round", "1")
    expect(predict).to_have_attribute("data-score", re.compile(r"^[01]/1$"))
    page.context.close()
    # Without predict mode the code steps with the player: each round lights the line that decided it.
    page, watch = open_page(browser, f"{server}/Merges?corpus={CAT}&vocab=280&round=1", SMALL)
    player = page.locator(PLAYER)
    expect(player).to_have_attribute("data-ready", "1", timeout=90_000)
    code = player.locator("[data-role=code]")
    expect(code.locator(".ln.now")).not_to_have_count(0)
    before = player.get_attribute("data-round")
    player.focus()
    page.keyboard.press("ArrowRight")
    expect(player).not_to_have_attribute("data-round", before)
    expect(code.locator(".ln.now")).not_to_have_count(0)
    # At 1280 px the code goes under the window (half the player would clip it), and no line is cut: long lines wrap.
    layout = code.evaluate(
        """(c) => { const w = c.closest('.bpe-player').querySelector('.window').getBoundingClientRect();
        const r = c.getBoundingClientRect(); return [r.top >= w.bottom - 1, c.scrollWidth <= c.clientWidth + 1]; }"""
    )
    assert layout == [True, True], layout
    page.screenshot(path=str(shots / "code-beside-player.png"))
    wait_idle(page)
    assert not watch.problems, watch.problems
    page.context.close()


def test_a_round_with_one_pair_left_is_played_on_enter_and_not_scored(server, browser):
    """The toy's last round (31 of 31 at vocab 300) has no runner-up: nothing to guess, so the quiz says so, Enter
    plays it, and the score stays as it was (it asked "which pair?" with one choice and counted it right)."""
    page, watch = open_page(browser, f"{server}/Merges?corpus={CAT}&vocab=300&round=30&predict=1", SMALL)
    player = page.locator(PLAYER)
    expect(player).to_have_attribute("data-ready", "1", timeout=90_000)
    predict = player.locator("[data-role=predict]")
    expect(predict.locator(".ask")).to_contain_text("only", timeout=30_000)
    expect(predict.locator(".option")).to_have_count(1)
    page.keyboard.press("Enter")
    expect(player).to_have_attribute("data-round", "31")
    result = player.locator("[data-role=predict-result]")
    expect(result).to_contain_text("not scored")
    expect(result).to_contain_text("That was the last round.")  # not "Enter: next round"
    expect(predict).to_have_attribute("data-score", "0/0")
    assert not watch.problems, watch.problems
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_in_talk_mode_the_check_and_the_code_band_are_legible_at_1280x720(server, browser, shots, lang):
    """On a projector: the Check page with its result, and the Merges player with its code band (c), every text
    at least 28 px, none past the window's width or cut."""
    page, watch = open_page(browser, f"{server}/Check?check_corpus={CAT}&lang={lang}&talk=1", PROJECTOR)
    box = page.locator("textarea").last
    expect(box).to_be_visible(timeout=60_000)
    paste(page, box, lines(FIRST_SEEN))
    wait_idle(page)
    page.locator(".st-key-check_button button").click()
    wait_idle(page)
    expect(page.locator('[data-testid="stMetricValue"]').first).to_contain_text(str(DIFFERENCE + 1), timeout=60_000)
    page.evaluate("() => document.fonts.ready.then(() => true)")
    problems = layout_problems(layout_report(page))
    assert not problems, (lang, "check", problems)
    page.screenshot(path=str(shots / f"talk-check-{lang}.png"))
    page.goto(f"{server}/Merges?corpus={CAT}&vocab=280&round=3&lang={lang}&talk=1")
    player = page.locator(PLAYER)
    expect(player).to_have_attribute("data-ready", "1", timeout=90_000)
    wait_idle(page)
    page.keyboard.press("c")
    expect(player.locator("[data-role=code] .ln.now")).not_to_have_count(0)
    page.evaluate("() => document.fonts.ready.then(() => true)")
    problems = layout_problems(layout_report(page))
    assert not problems, (lang, "code band", problems)
    page.screenshot(path=str(shots / f"talk-code-{lang}.png"))
    # Talk step 12 (predict mode) after a wrong answer, the longest verdict: the text being merged stays on the slide
    # (the answer, the pair and the runner-ups had pushed it below the screen, one row half cut).
    page.goto(f"{server}/Talk?step=12&lang={lang}&talk=1")
    expect(player.locator("[data-role=predict] .option").first).to_be_visible(timeout=90_000)
    wait_idle(page)
    winner = page.evaluate("() => window.__bpePlayer.quiz.game.question.choices.findIndex(c => c.winner)")
    page.keyboard.press(str(2 if winner == 0 else 1))
    page.keyboard.press("Enter")
    expect(player.locator("[data-role=predict-result]")).not_to_be_empty()
    page.evaluate("() => document.fonts.ready.then(() => true)")
    problems = layout_problems(layout_report(page, scroll=False))
    assert not problems, (lang, "step 12 answered", problems)
    rows = player.locator(".window.tokens").evaluate(
        """w => { const box = w.getBoundingClientRect(); const tops = [...w.querySelectorAll('.tok')]
            .map(tok => tok.getBoundingClientRect()).filter(r => r.bottom <= box.bottom + 0.5).map(r => r.top);
          return [new Set(tops).size, box.bottom, document.querySelector('[data-testid=stMain]').scrollHeight
            - document.querySelector('[data-testid=stMain]').clientHeight]; }"""
    )
    page.screenshot(path=str(shots / f"talk-predict-answered-{lang}.png"))
    whole_rows, bottom, overflow = rows
    assert whole_rows >= 2 and bottom <= PROJECTOR["height"] and overflow <= 1, (lang, rows)
    assert not watch.problems, watch.problems
    page.context.close()
