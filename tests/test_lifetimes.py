"""Boundary lifetimes: one pass gives the segmentation a truncated tokenizer would produce, at every size."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import PERMANENT, train


def assert_matches_truncated(tokenizer, text, sizes):
    segmentation = tokenizer.segment(text)
    counts = segmentation.token_counts()
    assert len(counts) == tokenizer.num_merges + 1
    for k in sizes:
        truncated = tokenizer.truncated(k)
        ids = truncated.encode(text)
        assert segmentation.tokens_at(k) == truncated.decode_tokens_bytes(ids), k
        assert counts[k] == len(ids), k


@pytest.mark.parametrize("fixture", ["shakespeare", "chinese", "docs"])
def test_lifetimes_equal_truncated_tokenizers_on_real_text(request, fixture):
    text = request.getfixturevalue(fixture)
    training, held_out = text[:150_000], text[150_000:170_000]
    tokenizer = train(training, 256 + 800 + 1, special_tokens=["<|endoftext|>"]).tokenizer
    sizes = sorted({0, 1, 2, 5, 10, 50, 99, 100, 101, 333, 500, 799, 800})
    assert_matches_truncated(tokenizer, held_out, sizes)
    assert_matches_truncated(tokenizer, training[:20_000], sizes)


def test_lifetimes_without_pretokenization(shakespeare):
    text = shakespeare[:5_000]
    tokenizer = train(text, 256 + 200, pattern=None).tokenizer
    assert_matches_truncated(tokenizer, text, range(0, 201, 7))


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="ab c\n<|>中", max_size=200))
def test_lifetimes_on_generated_text(text):
    tokenizer = train("aab abc ab<|>c 中中 a\n\nb " * 5, 256 + 30, special_tokens=["<|>"]).tokenizer
    assert tokenizer.num_merges >= 8
    assert_matches_truncated(tokenizer, text, range(0, tokenizer.num_merges + 1))


def test_special_tokens_and_pretoken_edges():
    tokenizer = train("ab ab ab", 256 + 2, special_tokens=["<s>"]).tokenizer
    segmentation = tokenizer.segment("ab<s>ab")
    assert segmentation.data == b"ab<s>ab"
    assert segmentation.lifetimes == [0, PERMANENT, -1, -1, PERMANENT, 0]
    assert segmentation.tokens_at(0) == [b"a", b"b", b"<s>", b"a", b"b"]
    assert segmentation.tokens_at(1) == [b"ab", b"<s>", b"ab"]
    assert segmentation.boundaries_at(1) == [0, 2, 5, 7]
    assert tokenizer.segment("").token_counts() == [0, 0]
