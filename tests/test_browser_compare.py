"""The Compare page in real Chromium: links open each view (the three that help decide on a fresh server, in English
and Chinese); a held-out upload is measured and its name shown as text, and a refused one leaves it in use; the
Export page downloads the same session's tokenizer.

Needs playwright (PyPI) and Debian's chromium (/usr/bin/chromium); skipped when either is missing.
Screenshots go to $BPE_SCREENSHOTS (default: a pytest temp dir).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

import pytest

pytest.importorskip("playwright.sync_api")
from browser_support import CHROMIUM, open_page, streamlit_server, wait_idle  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from playground.i18n import t  # noqa: E402
from playground.links import parse_link  # noqa: E402

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} not installed", allow_module_level=True)

EXCERPT = "corpus=python-reference-excerpt&vocab=600&pattern=gpt2"
CHART = '[data-testid="stVegaLiteChart"]'


def test_link_opens_the_curve(server, browser, shots):
    link = f"{server}/Compare?{EXCERPT}&sizes=300,450,600&refs=gpt2,cl100k_base,o200k_base&heldout=reference-rest"
    page, watch = open_page(browser, link + "&view=curve")
    expect(page.get_by_role("heading", name="Compare vocab sizes")).to_be_visible(timeout=60_000)
    chart = page.locator(CHART).first
    expect(chart.locator("canvas, svg").first).to_be_visible(timeout=60_000)
    wait_idle(page)
    box = chart.bounding_box()
    assert box and box["width"] > 400 and box["height"] > 300
    table = page.locator('[data-testid="stTable"]').first
    expect(table).to_contain_text("o200k_base")  # the reference points are in
    expect(table).to_contain_text("Python reference after the excerpt")
    assert "vocab=600" in page.url and "view=curve" in page.url and "sizes=300" in page.url
    page.screenshot(path=str(shots / "compare_curve.png"))
    assert not watch.problems, watch.problems
    page.context.close()


def test_link_opens_side_by_side(server, browser, shots):
    page, watch = open_page(browser, f"{server}/Compare?{EXCERPT}&sizes=300,450,600&refs=gpt2,o200k_base&view=side")
    views = page.locator(".cmp-view")
    expect(views.nth(4)).to_be_visible(timeout=60_000)
    wait_idle(page)
    assert views.count() == 5
    heads = [views.nth(i).locator(".cmp-view-head").inner_text() for i in range(5)]
    assert heads[:3] == ["vocab 300", "vocab 450", "vocab 600"]
    assert heads[3].startswith("GPT-2") and heads[4].startswith("o200k_base")
    expect(views.nth(0).locator(".tok[data-token-id]").first).to_be_visible()
    assert page.locator(".cmp-view .tok.diff").count() > 0
    expect(page.locator('input[aria-label^="Vocab sizes to compare"]')).to_have_value("300, 450, 600")
    page.screenshot(path=str(shots / "compare_side.png"))
    assert not watch.problems, watch.problems
    page.context.close()


def test_link_opens_the_vocabulary_with_its_token(server, browser, shots):
    page, watch = open_page(browser, f"{server}/Compare?{EXCERPT}&view=vocab&token=300")
    expect(page.locator(".mtree .node").first).to_be_visible(timeout=60_000)
    wait_idle(page)
    expect(page.locator('.mtree .node[data-token-id="300"]').first).to_be_visible()
    assert page.locator(".mtree .node.leaf").count() >= 2
    expect(page.get_by_text("Learned but never emitted")).to_be_visible()
    expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible(timeout=30_000)
    expect(page.locator(CHART).first).to_be_visible(timeout=30_000)
    page.screenshot(path=str(shots / "compare_vocab.png"))
    assert not watch.problems, watch.problems
    page.context.close()


def test_uploaded_heldout_text_is_measured_and_its_name_stays_text(server, browser, shots, tmp_path):
    name = "![x](http:__127.0.0.1:9_x.png)<img src=x onerror=alert(1)>.txt"
    upload = tmp_path / name
    upload.write_text("The cat sat on the mat. 猫坐在垫子上。\n" * 200, encoding="utf-8")
    page, watch = open_page(browser, f"{server}/Compare?corpus=toy-the-cat-in-the-hat&vocab=300&view=curve&refs=gpt2")
    expect(page.locator(CHART).first).to_be_visible(timeout=60_000)
    wait_idle(page)
    page.get_by_role("combobox", name="Held-out text").click()
    page.get_by_role("option", name="Upload").first.click()
    wait_idle(page)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').last.set_input_files(str(upload))
    caption = page.locator('[data-testid="stCaptionContainer"]').filter(has_text="<img src=x onerror=alert(1)>.txt")
    expect(caption.first).to_be_visible(timeout=30_000)
    wait_idle(page)
    assert page.locator('img[src="x"], img[src*="127.0.0.1:9"]').count() == 0
    # The link says the held-out text was uploaded (so whoever opens it is asked for it); the file never travels.
    assert "heldout=upload" in page.url and "onerror" not in page.url and "127.0.0.1%3A9" not in page.url
    page.screenshot(path=str(shots / "compare_upload.png"))
    # A refused file: the message stays at the uploader and the last good file is still measured.
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').last.set_input_files(str(empty))
    expect(page.locator('[data-testid="stAlertContentError"]').filter(has_text="empty.txt")).to_be_visible(
        timeout=30_000
    )
    still = page.locator('[data-testid="stCaptionContainer"]').filter(has_text="Still using")
    expect(still.filter(has_text="<img src=x onerror=alert(1)>.txt").first).to_be_visible()
    wait_idle(page)
    page.screenshot(path=str(shots / "compare_upload_refused.png"))
    assert not watch.problems, watch.problems
    page.context.close()


def test_algorithms_train_on_a_click(server, browser, shots):
    page, watch = open_page(browser, f"{server}/Compare?corpus=mixed-english-chinese&vocab=400&view=algos")
    button = page.get_by_role("button", name="Train the variants and compare")
    expect(button).to_be_visible(timeout=60_000)
    wait_idle(page)
    button.click()
    views = page.locator(".cmp-view")
    expect(views.nth(2)).to_be_visible(timeout=60_000)
    wait_idle(page)
    assert "classic" in views.nth(2).locator(".cmp-view-head").inner_text()
    expect(page.locator('[data-testid="stTable"]').first).to_contain_text("no pre")
    page.screenshot(path=str(shots / "compare_algos.png"))
    assert not watch.problems, watch.problems
    page.context.close()


def test_the_compared_tokenizer_is_one_click_from_export(server, browser, shots):
    page, watch = open_page(browser, f"{server}/Compare?corpus=toy-the-cat-in-the-hat&vocab=300&view=side")
    expect(page.locator(".cmp-view").first).to_be_visible(timeout=60_000)
    wait_idle(page)
    page.get_by_role("link", name="Export").first.click()
    expect(page.get_by_role("heading", name="Export and import")).to_be_visible(timeout=30_000)
    page.get_by_text("Hugging Face").first.click()
    wait_idle(page)
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Download Hugging Face").click()
    assert download_info.value.suggested_filename == "tokenizer.json"
    page.screenshot(path=str(shots / "export.png"))
    assert not watch.problems, watch.problems
    page.context.close()


# -- the views that help decide, each by link on a fresh server ------------------------------------------

DECISION_LINKS = {
    "choose": f"{EXCERPT}&view=choose&sizes=300,450,600&d_model=512&tied=0&min_gain=0.5&min_uses=5",
    "languages": "corpus=parallel-sample&kind=parity&vocab=600&view=languages&refs=gpt2,cl100k_base,o200k_base"
    "&cut_vocab=400&pair_vocab=600&parallel=default",
    "health": f"{EXCERPT}&view=health&compared=gpt2&class=invalid",
}
SEEN = {  # what each view shows once drawn: (a locator, text it holds in each language)
    "choose": ('[data-testid="stAlertContentSuccess"]', {"en": "Suggested vocab size: 589", "zh": "建议词表大小：589"}),
    "languages": ('[data-testid="stTable"]', {"en": "o200k_base (GPT-4o)", "zh": "o200k_base (GPT-4o)"}),
    "health": ("table.health", {"en": t("inside bigger tokens"), "zh": t("inside bigger tokens", lang="zh")}),
}  # fmt: skip


def test_each_decision_view_opens_by_link_on_a_fresh_server_in_both_languages(browser, shots):
    """Choose a size, languages and health: each draws its content (the linked tokenizer trains by itself), English
    and Chinese in turn, and no link value is dropped."""
    with streamlit_server() as server:
        _open_decision_views(server, browser, shots)
        _open_model_links(server, browser, shots)  # the same fresh server: one start for both


OPEN_MODEL_TEXT = "常见的中文词是一个词元。 def f(x): return x"


def _open_model_links(server: str, browser, shots) -> None:
    """Every built-in model by link, on a fresh server (its files loaded on first use): half of them on an English
    Encode page and half on a Chinese one, the first as the page's tokenizer and the rest side by side. The page's
    token count and every side-by-side id list equal each model's own ids in the library, and nothing is dropped."""
    import bpe_core
    from playground.references import REFERENCES
    from ui.encode_side import ids_text

    names = list(REFERENCES)
    halves = {"en": names[: len(names) // 2], "zh": names[len(names) // 2 :]}
    for lang, (first, *others) in halves.items():
        query = urlencode({"tokenizer": first, "also": ",".join(others), "text": OPEN_MODEL_TEXT, "lang": lang})
        page, watch = open_page(browser, f"{server}/Encode?{query}", viewport={"width": 1600, "height": 1000})
        expected = len(bpe_core.reference(first).encode(OPEN_MODEL_TEXT))
        tokens = page.locator('[data-testid="stMetricValue"]').nth(2)  # Characters, Bytes, Tokens, Bytes per token
        expect(tokens).to_have_text(f"{expected:,}", timeout=60_000)
        codes = page.locator('[data-testid="stCode"]')
        for name in others:
            ids = ids_text(bpe_core.reference(name).encode(OPEN_MODEL_TEXT))
            expect(codes.filter(has_text=ids).first).to_be_attached(timeout=60_000)
        wait_idle(page)
        alerts = page.locator('[data-testid="stAlert"]').all_inner_texts()
        assert not [alert for alert in alerts if "Link parameter" in alert or "链接参数" in alert], (lang, alerts)
        assert page.locator('[data-testid="stException"]').count() == 0, lang
        assert f"tokenizer={first}" in page.url and "also=" in page.url
        page.screenshot(path=str(shots / f"encode-open-models-{lang}.png"), full_page=True)
        assert not watch.problems, (lang, watch.problems)
        page.context.close()


def _open_decision_views(server: str, browser, shots) -> None:
    # Each view in one language, the two taken in turn (tests/test_i18n.py draws every view in both): a page load
    # is the costliest step of a browser test, and the view's work is the same in either language.
    for k, (view, query) in enumerate(DECISION_LINKS.items()):
        lang = ("en", "zh")[k % 2]
        assert not parse_link({key: [value] for key, value in (p.split("=", 1) for p in query.split("&"))})[1]
        page, watch = open_page(browser, f"{server}/Compare?{query}&lang={lang}")
        selector, text = SEEN[view]
        expect(page.locator(selector).first).to_contain_text(text[lang], timeout=60_000)
        wait_idle(page)
        chart = page.locator('[data-testid="stVegaLiteChart"]').first
        expect(chart.locator("canvas, svg").first).to_be_visible(timeout=30_000)
        alerts = page.locator('[data-testid="stAlert"]').all_inner_texts()
        dropped = [alert for alert in alerts if "Link parameter" in alert or "链接参数" in alert]
        assert not dropped, (view, lang, dropped)
        assert page.locator('[data-testid="stException"]').count() == 0
        assert f"view={view}" in page.url
        page.wait_for_timeout(300)  # the last st.html blocks paint a moment after the run ends
        page.screenshot(path=str(shots / f"decide-{view}-{lang}.png"))
        assert not watch.problems, (view, lang, watch.problems)
        page.context.close()
