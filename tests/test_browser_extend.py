"""The merge player of a continued tokenizer in real Chromium (the exported one-file animation, offline): round 0
draws the text in the base's tokens and says so, every round k draws the base + the first k new merges, and the
last round is the continued tokenizer's own encoding.

Needs playwright (PyPI) and Debian's chromium (/usr/bin/chromium); skipped when either is missing. In the browser
group B (tests/conftest.py: every browser module not in group A).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from browser_support import CHROMIUM  # noqa: E402
from playwright.sync_api import expect  # noqa: E402
from test_browser_player import PLAYER, drawn, open_export  # noqa: E402

import bpe_core  # noqa: E402
from playground import bases  # noqa: E402
from playground.corpora import MIXED_EN_ZH  # noqa: E402
from playground.request import Request  # noqa: E402
from playground.trained import Trained, train_job  # noqa: E402
from ui import token_html  # noqa: E402

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} not installed", allow_module_level=True)

GPT2 = 50_257
NEW = 30


@pytest.fixture(scope="module")
def continued() -> Trained:
    request = Request("paste", "mixed", "digest", "byte", GPT2 + NEW, "gpt2", None, (), base="gpt2", base_label="GPT-2")
    return train_job(MIXED_EN_ZH, Request(**{**request.__dict__, "base_size": GPT2}))


def _labels(tokenizer: bpe_core.Tokenizer, text: str) -> list[str]:
    return [token_html.display_bytes(tokenizer.token_bytes(i)) for i in tokenizer.encode(text)]


def _with_first(base: bpe_core.Tokenizer, continued: Trained, k: int) -> bpe_core.Tokenizer:
    """The base with the first ``k`` new merges: what round k draws."""
    records = continued.trace[:k]
    return bpe_core.Tokenizer(
        base.vocab | {record.new_id: record.token for record in records},
        base.merges + [(record.left, record.right) for record in records],
        base.special_tokens,
        base.pattern,
    )


def test_round_zero_is_the_base_and_each_round_adds_one_new_merge(browser, tmp_path, continued):
    page, requests, problems = open_export(browser, tmp_path, continued, 0, title="GPT-2 + 30")
    base = bases.reference_base("gpt2")
    window = continued.window_text
    expect(page.locator(PLAYER)).to_have_attribute("data-round", "0")
    expect(page.get_by_text("Round 0: the text in GPT-2's tokens")).to_be_visible()
    assert [span["text"] for span in drawn(page)] == _labels(base, window)
    for k in (1, 2, NEW // 2, NEW):
        page.evaluate("(k) => window.__bpePlayer.go(k, false)", k)
        at_k = _with_first(base, continued, k)
        assert [span["text"] for span in drawn(page)] == _labels(at_k, window), k
    assert [span["text"] for span in drawn(page)] == _labels(continued.tokenizer, window)
    assert not requests and not problems, (requests, problems)
    page.context.close()
