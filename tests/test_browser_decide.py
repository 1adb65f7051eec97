"""The three views that help a practitioner decide, opened by link on a fresh server in real Chromium, in English
and Chinese: each draws its content (the linked tokenizer trains by itself) and no link value is dropped.

Needs playwright (PyPI) and Debian's chromium (/usr/bin/chromium); skipped when either is missing.
Screenshots go to $BPE_SCREENSHOTS (default: a pytest temp dir).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from browser_support import CHROMIUM, open_page, wait_idle  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from ui.i18n import t  # noqa: E402
from ui.links import parse_link  # noqa: E402

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} not installed", allow_module_level=True)

EXCERPT = "corpus=python-reference-excerpt&vocab=600&pattern=gpt2"
LINKS = {
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


def test_each_decision_view_opens_by_link_on_a_fresh_server_in_both_languages(server, browser, shots):
    for lang in ("en", "zh"):
        for view, query in LINKS.items():
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
