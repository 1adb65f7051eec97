"""BPE's variants and the small things of issue 21 in real Chromium, on a fresh server: a BPE-dropout link and a
superword link open with their content, keep their values in the address and survive a reload; a token clicked
in the player picks its word (underlined, and shown merge by merge below); tokens holding a newline end their
line in the player too; at 1280×720 the uploader and the page give a file's size alike, and no label is cut.

Needs playwright (PyPI) and Debian's chromium (/usr/bin/chromium); skipped when either is missing.
Screenshots go to $BPE_SCREENSHOTS (default: a pytest temp dir).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from browser_support import CHROMIUM, layout_problems, layout_report, open_page, reload_when_kept, wait_idle  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from ui import dropout  # noqa: E402

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} not installed", allow_module_level=True)

SMALL = {"width": 1280, "height": 720}
PLAYER = '[data-testid="bpe-player"]'
TEXT = "The cat sat on the mat. The cat in the hat, again and again: the cat!"
DROPOUT = "/Encode?corpus=toy-the-cat-in-the-hat&vocab=300&tokenizer=gpt2&dropout=0.1&seed=3&text=" + TEXT.replace(
    " ", "%20"
)
SUPERWORD = "/?corpus=python-reference-excerpt&vocab=600&kind=superword&transition=250"


def samples(page) -> list[tuple[str, str]]:
    """(heading, tokens as drawn) of each BPE-dropout sample."""
    found = page.locator(".bpe-sample")
    expect(found).to_have_count(dropout.SAMPLES, timeout=60_000)
    return [(found.nth(i).locator("div").first.inner_text(), "".join(found.nth(i).locator(".tok").all_inner_texts()))
            for i in range(dropout.SAMPLES)]  # fmt: skip


def test_a_dropout_link_opens_with_its_samples_and_survives_a_reload(server, browser, shots):
    page, watch = open_page(browser, server + DROPOUT, SMALL)
    drawn = samples(page)
    wait_idle(page)
    marked = TEXT.replace(" ", "·")
    assert all(tokens == marked for _, tokens in drawn)  # every segmentation is the text
    assert len({heading for heading, _ in drawn}) > 1 or len(set(drawn)) > 1
    expect(page.get_by_text("Each sample decodes back to the same text")).to_be_visible()
    assert "dropout=0.1" in page.url and "seed=3" in page.url
    page.screenshot(path=str(shots / "dropout.png"))
    reload_when_kept(page)
    expect(page.get_by_text("Your work in this tab was restored").first).to_be_visible(timeout=60_000)
    assert samples(page) == drawn and "dropout=0.1" in page.url and "seed=3" in page.url
    assert not watch.problems, watch.problems
    page.context.close()


def test_a_superword_link_trains_keeps_its_settings_and_survives_a_reload(server, browser, shots):
    page, watch = open_page(browser, server + SUPERWORD, SMALL)
    expect(page.locator("#result")).to_have_count(1, timeout=90_000)
    wait_idle(page)
    label = re.compile("superword from merge 250")
    expect(page.get_by_text(label).first).to_be_visible()
    expect(page.get_by_role("spinbutton", name="Merges within words (transition)")).to_have_value("250")
    for value in ("kind=superword", "transition=250", "maxwords=4"):
        assert value in page.url, value
    # Tokens across words: a token with a space inside it, not only in front.
    # (expect retries: a run's st.html blocks can be drawn a moment after the run has ended)
    tokens = page.locator("#result ~ * .tokens .tok, .tokens .tok")
    expect(tokens.filter(has_text=re.compile(r"\w·\w")).first).to_be_visible()
    reload_when_kept(page)
    expect(page.get_by_text("Your work in this tab was restored").first).to_be_visible(timeout=60_000)
    wait_idle(page)
    expect(page.get_by_text(label).first).to_be_visible()
    expect(page.get_by_role("radio", name=re.compile("Superword tokens"))).to_be_checked()
    assert "kind=superword" in page.url and "transition=250" in page.url
    page.screenshot(path=str(shots / "superword-train.png"))

    # The player: a click on a token picks its word, underlined in the window and shown merge by merge below.
    page.get_by_role("link", name="Merges").first.click()
    player = page.locator(PLAYER)
    expect(player.locator(".window .tok").first).to_be_visible(timeout=60_000)
    wait_idle(page)
    token = player.locator(".window .tok").nth(3)
    token.click()
    word = player.get_attribute("data-word")
    assert word and player.locator(".window .tok.picked").count() >= 1
    heading = page.get_by_role("heading", name=re.compile("The word you picked"))
    expect(heading).to_be_visible(timeout=30_000)
    assert word.replace(" ", "·").replace("\n", "↵") in heading.inner_text()
    # The address follows once the run that drew the heading has written it: waited for, not read at once.
    expect(page).to_have_url(re.compile(r"[?&]word="))
    page.screenshot(path=str(shots / "superword-merges.png"))
    assert not watch.problems, watch.problems
    page.context.close()


def test_tokens_holding_a_newline_end_their_line_in_the_player(server, browser):
    page, watch = open_page(browser, server + "/Merges?corpus=python-standard-library-code&vocab=700", SMALL)
    window = page.locator(f"{PLAYER}[data-ready='1'] .window")
    expect(window).to_be_visible(timeout=90_000)
    wait_idle(page)
    for round_ in (700 - 256, 150):  # drawn whole, then changed frame by frame back to an earlier round
        page.evaluate("k => window.__bpePlayer.go(k, false)", round_)
        # Each token holding newlines has one break per newline: after it (a <br>, or a span of them), or, when text
        # follows its last newline (the next line's indentation), inside it before that text.
        lines = window.locator(".tok").evaluate_all(
            """spans => spans.filter((s) => s.textContent.includes("↵")).map((s) => {
                 const next = s.nextSibling;
                 const after = !next ? 0 : next.nodeName === "BR" ? 1
                   : next.nodeName === "SPAN" && !next.classList.contains("tok")
                     ? next.querySelectorAll("br").length : 0;
                 const inside = s.querySelectorAll("br").length;
                 const tail = s.lastChild && s.lastChild.nodeName !== "BR" && !s.textContent.endsWith("↵");
                 return [s.textContent, after + inside, tail ? inside > 0 && after === 0 : true];
               })"""
        )
        misplaced = [line for line in lines if not line[2]]
        assert not misplaced, misplaced[:5]  # "↵····": its breaks inside it, before the indentation
        assert any(not text.endswith("↵") for text, _, _ in lines), lines[:10]  # "↵····": indentation after it
        assert any(text.count("↵") > 1 for text, _, _ in lines), lines[:10]  # and "↵↵", a blank line
        wrong = [line for line in lines if line[1] != line[0].count("↵")]
        assert not wrong, wrong[:5]
    assert not watch.problems, watch.problems
    page.context.close()


def test_at_1280x720_a_files_size_reads_alike_and_no_label_is_cut(server, browser, tmp_path, shots):
    page, watch = open_page(browser, server + "/?corpus=upload&vocab=260", SMALL)
    wait_idle(page)
    corpus = tmp_path / "corpus.txt"
    corpus.write_bytes(b"the cat sat on the mat\n" * (1_500_000 // 23))  # 1,499,991 bytes
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(corpus))
    expect(page.get_by_text(re.compile(r"Using corpus\.txt"))).to_be_visible(timeout=60_000)
    uploader_says = page.locator('[data-testid="stFileUploader"]').get_by_text(re.compile(r"^\d+\.\d[KMG]B$"))
    size = uploader_says.first.inner_text()  # Streamlit's own size label of the file
    wait_idle(page)
    page.get_by_role("button", name="Train ▶").click()
    expect(page.locator("#result")).to_have_count(1, timeout=90_000)
    wait_idle(page)
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Corpus")
    assert metric.locator('[data-testid="stMetricValue"]').inner_text().replace(" ", "") == size.replace(" ", "")
    # Long choices and short columns read whole: no label cut by an ellipsis or a box, on these pages.
    for link, view in (("Encode", None), ("Compare", "Vocabulary")):
        page.get_by_role("link", name=link).first.click()
        wait_idle(page)
        if view:
            page.get_by_text(view, exact=True).click()
            wait_idle(page)
            expect(page.get_by_text("Descending")).to_be_visible()
        page.wait_for_timeout(500)
        problems = layout_problems(layout_report(page), floor=None)
        assert not problems, (link, problems)
        page.screenshot(path=str(shots / f"whole-labels-{link.lower()}.png"))
    assert not watch.problems, watch.problems
    page.context.close()
