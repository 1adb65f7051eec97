"""The playground in real Chromium: what a person sees and does.

Train the default sample with one click, encode with GPT-2, open every page by its URL on a fresh
server, cancel a long training run, and probe every text field with HTML that must stay text (the
merge player has its own file, test_browser_player.py). Every test fails on any console error.

Needs playwright (PyPI) and Debian's chromium (/usr/bin/chromium); skipped when either is missing.
Screenshots go to $BPE_SCREENSHOTS (default: a pytest temp dir).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from browser_support import CHROMIUM, open_page, paste, reload_when_kept, set_vocab, streamlit_server, wait_idle  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

import bpe_core  # noqa: E402
from playground.corpora import DEFAULT_SAMPLE, SAMPLES, load_sample  # noqa: E402
from playground.trained import _window  # noqa: E402

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} not installed", allow_module_level=True)

XSS_PROBES = (
    '<img src=x onerror="window.__xss=1">',
    "<script>window.__xss=1</script>",
    '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
)
PLAYER = '[data-testid="bpe-player"]'


@pytest.fixture(scope="module")
def default_training():
    sample = SAMPLES[DEFAULT_SAMPLE]
    text = load_sample(DEFAULT_SAMPLE)
    return text, bpe_core.train(text, sample.vocab_size, special_tokens=["<|endoftext|>"])


def go_to(page, label: str) -> None:
    """Switch page through the sidebar, as a person does (a URL load would start a new session)."""
    page.get_by_role("link", name=label).first.click()
    wait_idle(page)


def train_from_home(page) -> None:
    wait_idle(page)
    page.get_by_role("button", name="Train ▶").click()
    expect(page.get_by_role("heading", name="3 · Result")).to_be_visible(timeout=90_000)
    wait_idle(page)


def choose_corpus(page, label: str) -> None:
    """Pick a corpus in the Train page's select box (scrolled into view first, as a person would)."""
    box = page.get_by_role("combobox", name="Corpus")
    option = page.get_by_role("option", name=label)
    # The page may still be scrolling smoothly to the last result, so a click can land where the box was. Click until
    # the list is open (the box says so itself), never by a pause: a click on an open list would close it again.
    for _ in range(10):
        if box.get_attribute("aria-expanded") != "true":
            box.scroll_into_view_if_needed()
            box.click()
        try:
            expect(option).to_be_visible(timeout=5_000)
            break
        except AssertionError:
            continue
    option.click()
    wait_idle(page)


def assert_no_injection(page) -> None:
    """No probe ran and no element came from user text (Streamlit's own iframes have no srcdoc)."""
    assert page.evaluate("() => window.__xss") is None
    assert page.locator('img[src="x"]').count() == 0
    assert page.locator("iframe[srcdoc]").count() == 0
    scripts = page.evaluate("() => Array.from(document.scripts, s => s.textContent).join('\\n')")
    assert "__xss" not in scripts


def test_train_the_default_sample_with_one_click(server, browser, shots, default_training):
    _, expected = default_training
    page, watch = open_page(browser, server)
    expect(page.get_by_text(SAMPLES[DEFAULT_SAMPLE].description)).to_be_visible(timeout=60_000)  # chosen already
    train_from_home(page)
    merges_made = page.locator('[data-testid="stMetric"]').filter(has_text="Merges made")
    expect(merges_made).to_contain_text(f"{len(expected.trace):,}")
    sample = page.locator(".tokens .tok[data-token-id]")
    expect(sample.first).to_be_visible()
    window_ids = expected.tokenizer.encode(_window(load_sample(DEFAULT_SAMPLE)))
    shown = [int(span.get_attribute("data-token-id")) for span in sample.all()[:50]]
    assert shown == window_ids[:50]
    page.screenshot(path=str(shots / "train.png"))
    assert not watch.problems, watch.problems
    page.context.close()


def test_encode_with_gpt2_matches_the_reference_ids(server, browser, shots):
    text = "Hello, world! 你好，世界 🙂\n\tdef f(x): return x ** 2  # café " + " ".join(XSS_PROBES)
    page, watch = open_page(browser, f"{server}/Encode")
    wait_idle(page)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.get_by_role("combobox", name="Tokenizer").click()
    page.get_by_role("option", name="GPT-2 (r50k)").click()
    wait_idle(page)
    box = page.get_by_label("Text to encode")
    box.fill(text)
    box.press("Control+Enter")
    wait_idle(page)
    tokens = page.locator(".tokens").first  # the encoded text (the word-by-word view follows)
    spans = tokens.locator(".tok[data-token-id]")
    expected = bpe_core.reference("gpt2").encode(text)
    expect(spans).to_have_count(len(expected), timeout=30_000)
    assert [int(span.get_attribute("data-token-id")) for span in spans.all()] == expected
    expect(tokens).to_contain_text("<img")  # the probe is shown as text...
    expect(tokens).to_contain_text("⟨")  # ...and the emoji, split by GPT-2, as bytes
    assert_no_injection(page)
    assert not dialogs
    page.screenshot(path=str(shots / "encode.png"))
    assert not watch.problems, watch.problems
    page.context.close()


def test_pasted_corpus_with_html_trains_and_stays_text(server, browser, shots):
    corpus = ("tokens " * 20 + " ".join(XSS_PROBES) + "\n") * 5
    page, watch = open_page(browser, server)
    wait_idle(page)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    choose_corpus(page, "Paste text")
    set_vocab(page, 300)  # a short text cannot make the default 600
    paste(page, page.get_by_label("Paste your text"), corpus)
    wait_idle(page)
    train_from_home(page)
    sample = page.locator(".tokens").first
    expect(sample).to_contain_text("onerror")
    assert_no_injection(page)
    go_to(page, "Merges")
    expect(page.locator(PLAYER)).to_be_visible(timeout=30_000)
    expect(page.locator(f"{PLAYER} .window")).to_contain_text("<script>")
    assert_no_injection(page)
    assert not dialogs
    assert not watch.problems, watch.problems
    page.context.close()


@pytest.mark.parametrize(
    ("path", "heading", "needs_training"),
    [
        ("", "BPE Playground", False),
        ("Merges", "Merges, round by round", True),
        ("Encode", "Encode text", False),
        ("Compare", "Compare vocab sizes", True),
        ("Export", "Export and import", True),
    ],
)
def test_every_page_opens_by_its_url_on_a_fresh_server(browser, path, heading, needs_training):
    with streamlit_server() as fresh_url:
        page, watch = open_page(browser, f"{fresh_url}/{path}")
        expect(page.get_by_role("heading", name=heading)).to_be_visible(timeout=60_000)
        wait_idle(page)
        if needs_training:
            expect(page.get_by_text(re.compile("No tokenizer trained yet|Nothing to export yet")).first).to_be_visible()
        if path == "Merges":
            page.get_by_role("button", name=re.compile(r"Train .* now")).click()
            expect(page.locator(PLAYER)).to_be_visible(timeout=90_000)
            wait_idle(page)
        assert page.locator('[data-testid="stException"]').count() == 0
        assert not watch.problems, watch.problems
        page.context.close()


def test_cancel_stops_a_long_training_and_keeps_the_previous_tokenizer(server, browser, shots):
    page, watch = open_page(browser, server)
    train_from_home(page)  # the default sample: the tokenizer that must survive
    sidebar = page.locator('[data-testid="stSidebar"]')
    before = sidebar.inner_text().split("Tokenizer: ")[1]
    # Long enough that no delay lets it finish before the click (~30 s here on a busy machine): ~160,000 distinct
    # words. 5,000 words of 2-9 letters trained in 0.6 s, and on a busy machine the training ended between the
    # Cancel button showing and its click (the bar was gone: the test failed, not the app).
    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(6, 16))) for _ in range(400_000)]
    corpus = " ".join(rng.choice(words) for _ in range(200_000))  # ~2.4 MB, as before
    choose_corpus(page, "Paste text")
    paste(page, page.get_by_label("Paste your text"), corpus)
    expect(page.get_by_text("Using the stored pasted text")).to_be_visible(timeout=60_000)  # the paste's rerun ended
    wait_idle(page)
    set_vocab(page, 30000)
    page.get_by_role("button", name="Train ▶").click()
    cancel = page.get_by_role("button", name="Cancel")
    expect(cancel).to_be_visible(timeout=30_000)
    expect(page.locator('[data-testid="stProgress"]')).to_contain_text("pasted text · vocab 30,000")
    cancel.click()
    said = page.get_by_text("Training cancelled").first
    expect(said).to_be_visible(timeout=30_000)
    wait_idle(page)
    assert sidebar.inner_text().split("Tokenizer: ")[1] == before  # the trained tokenizer is kept
    # Said where the progress bar was, under the Train button, and the settings are the shown tokenizer's again.
    button = page.get_by_role("button", name="Train ▶").bounding_box()
    assert said.bounding_box()["y"] > button["y"]
    assert page.get_by_role("spinbutton", name="Vocab size").input_value() == str(SAMPLES[DEFAULT_SAMPLE].vocab_size)
    assert "The tokenizer shown is still the previous one" in said.inner_text()
    page.screenshot(path=str(shots / "cancelled.png"))
    # Leaving the page mid-training stops the job too (a rerun): the page the person went to says so (it said nothing,
    # and the Train page showed the new settings beside the old tokenizer); so does the page after a reload.
    choose_corpus(page, "Paste text")  # Cancel put the settings back to the default sample's
    expect(page.get_by_text("Using the stored pasted text")).to_be_visible(timeout=60_000)
    wait_idle(page)
    set_vocab(page, 30000)
    for leave in ("to Merges", "by a reload"):
        page.get_by_role("button", name="Train ▶").click()
        expect(page.get_by_role("button", name="Cancel")).to_be_visible(timeout=30_000)
        if leave == "to Merges":
            page.get_by_role("link", name="Merges").first.click()
        else:
            reload_when_kept(page)
        stopped = page.get_by_text("stopped before it finished").first
        expect(stopped).to_be_visible(timeout=30_000)
        assert "pasted text · vocab 30,000" in stopped.inner_text(), leave
        wait_idle(page)
        assert sidebar.inner_text().split("Tokenizer: ")[1] == before
        page.get_by_role("link", name="Train").first.click()
        wait_idle(page)
        expect(page.get_by_text("stopped before it finished")).to_have_count(0)  # said once
    assert not watch.problems, watch.problems
    page.context.close()
