"""Compare's overlap view in real Chromium: a link opens it with the pair it names (GPT-2 against cl100k_base, the
Han tokens only in cl100k_base), in English and Chinese, with the library's numbers; in talk mode at 1280×720 every
text of the view is at least 28 px, none past the window or cut, no table on a canvas.

Needs playwright (PyPI) and Debian's chromium (/usr/bin/chromium); skipped when either is missing.
Screenshots go to $BPE_SCREENSHOTS (default: a pytest temp dir).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from browser_support import CHROMIUM, layout_problems, layout_report, open_page, wait_idle  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

import bpe_core  # noqa: E402
from bpe_core.analysis.overlap import vocabulary_overlap  # noqa: E402
from playground.i18n import t  # noqa: E402
from playground.links import parse_link  # noqa: E402

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} not installed", allow_module_level=True)

QUERY = "corpus=toy-the-cat-in-the-hat&vocab=300&view=overlap&compared=gpt2&with=cl100k_base&list=only_b&script=han"


def test_the_query_is_a_good_link():
    assert not parse_link({key: [value] for key, value in (p.split("=", 1) for p in QUERY.split("&"))})[1]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_link_opens_the_pair_with_the_librarys_numbers(server, browser, shots, lang):
    found = vocabulary_overlap(bpe_core.reference("gpt2"), bpe_core.reference("cl100k_base"))
    page, watch = open_page(browser, f"{server}/Compare?{QUERY}&lang={lang}")
    table = page.locator("table.overlap")
    expect(table).to_be_visible(timeout=60_000)
    wait_idle(page)
    main = page.locator('[data-testid="stMain"]')
    for number in (found.size_a, found.size_b, len(found.shared)):
        expect(main).to_contain_text(f"{number:,}")
    expect(main).to_contain_text(f"{found.jaccard:.3f}")
    han = found.tokens("only_b", "han")
    first = han[0].decode("utf-8")
    expect(table.locator(".tok").first).to_have_text(first)
    expect(table).to_contain_text(t("Han (Chinese characters)", lang=lang))
    expect(page.get_by_text(t("Compare with (B)", lang=lang), exact=True)).to_be_visible()
    alerts = page.locator('[data-testid="stAlert"]').all_inner_texts()
    assert not [alert for alert in alerts if "Link parameter" in alert or "链接参数" in alert], alerts
    assert "with=cl100k_base" in page.url and "script=han" in page.url and "view=overlap" in page.url
    page.wait_for_timeout(300)  # the last st.html blocks paint a moment after the run ends
    page.screenshot(path=str(shots / f"overlap-{lang}.png"), full_page=True)
    assert not watch.problems, watch.problems
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_view_is_legible_in_talk_mode_at_1280x720(server, browser, shots, lang):
    page, watch = open_page(browser, f"{server}/Compare?{QUERY}&lang={lang}&talk=1", {"width": 1280, "height": 720})
    expect(page.locator("table.overlap")).to_be_visible(timeout=60_000)
    expect(page.locator('[data-testid="stVegaLiteChart"] svg text').first).to_be_visible(timeout=30_000)
    wait_idle(page)
    page.wait_for_timeout(400)  # st.html blocks and charts paint a moment after the run
    page.evaluate("() => document.fonts.ready.then(() => true)")
    problems = layout_problems(layout_report(page))
    assert not problems, (lang, problems)
    page.screenshot(path=str(shots / f"overlap-talk-{lang}.png"))
    assert not watch.problems, watch.problems
    page.context.close()
