"""The encoder's ids are tiktoken's whatever its caches hold: a first call on an empty cache (which finds its
distinct pre-tokens with ``dict.fromkeys``), a later call on a warm one (``_CallLookup``), and cut CJK pieces
whose parts are partly remembered from an earlier text (``by_parts``: one-character parts by code point).

tiktoken is the independent reference: ``tiktoken.Encoding`` built from the same ranks and pattern (and for Qwen,
NFC normalization).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_encode_models import expected, pair

from bpe_core.encoding.fast.routes import BATCH_MIN_PIECES

NAMES = ["llama3", "qwen3.6"]  # Qwen 3.6: whole-token parts merges cannot make (毛泽东)


# A few common characters (so that texts share parts), any CJK character, phrases that are tokens, and what
# lies beside CJK runs in real text (Latin words, digits, punctuation, emoji).
HAN = st.one_of(
    st.sampled_from("的了是子曰之不亦說乎，。、"),
    st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
    st.characters(min_codepoint=0x3040, max_codepoint=0x30FF),
)
RUN = st.one_of(st.text(HAN, min_size=1, max_size=16), st.sampled_from(["毛泽东", "说毛泽东", "中华人民共和国"]))
OTHER = st.one_of(
    st.from_regex(r"\A ?[A-Za-z]{1,8}\Z"), st.from_regex(r"\A[0-9]{1,5}\Z"), st.sampled_from(["👍🏽", "é", "\n"])
)
TEXT = st.lists(st.one_of(RUN, RUN, OTHER), min_size=BATCH_MIN_PIECES * 2, max_size=BATCH_MIN_PIECES * 4).map(" ".join)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=6, deadline=None)
@given(first=TEXT, second=TEXT)
def test_ids_are_tiktokens_on_an_empty_then_a_warm_cache(name, first, second):
    """The crossings read (so CJK pieces are cut), both caches emptied; then two texts: the second's pre-tokens
    and parts partly remembered from the first, and the first again, all remembered."""
    ours, _ = pair(name)
    pieces = ours._pieces
    pieces._crossings  # noqa: B018 (read once per test run)
    pieces._cache.clear()
    pieces._part_cache.clear()
    assert ours.encode_ordinary(first) == expected(name, first)
    assert ours.encode_ordinary(second) == expected(name, second)
    assert ours.encode_ordinary(first) == expected(name, first)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=6, deadline=None)
@given(text=TEXT)
def test_a_warm_pre_token_cache_with_new_parts_gives_tiktokens_ids(name, text):
    """Pre-tokens remembered but no parts: the new pre-tokens' parts are all encoded afresh."""
    ours, _ = pair(name)
    pieces = ours._pieces
    pieces._crossings  # noqa: B018
    pieces._cache.clear()
    pieces._cache["unrelated"] = (0,)  # a warm cache: the _CallLookup pass
    pieces._part_cache.clear()
    assert ours.encode_ordinary(text) == expected(name, text)
