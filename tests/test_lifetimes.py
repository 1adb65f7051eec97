"""Boundary lifetimes: one pass gives the segmentation a truncated tokenizer would produce, at every size."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_bpe import naive_encode_classic

from bpe_core import train, train_classic
from bpe_core.encoding.lifetimes import PERMANENT


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


@pytest.mark.parametrize("fixture", ["shakespeare", "chinese"])
def test_classic_lifetimes_equal_truncated_classic_tokenizers(request, fixture):
    text = request.getfixturevalue(fixture)
    tokenizer = train_classic(text[:100_000], 3_000).tokenizer
    held_out = text[100_000:110_000]
    segmentation = tokenizer.segment(held_out)
    counts = segmentation.token_counts()
    for k in sorted({0, 1, 7, 100, tokenizer.num_merges // 2, tokenizer.num_merges}):
        expected = [symbol for word in naive_encode_classic(held_out, tokenizer.merges[:k]) for symbol in word]
        assert segmentation.tokens_at(k) == expected, k
        assert [s for word in tokenizer.truncated(k).encode_words(held_out) for s in word] == expected
        assert counts[k] == len(expected)


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="ab c\n</w>中", max_size=120))
def test_classic_encoding_matches_naive_on_generated_text(text):
    tokenizer = train_classic("aab abc ab</w>c 中中 a\n\nb " * 5, 40).tokenizer
    assert tokenizer.encode_words(text) == naive_encode_classic(text, tokenizer.merges)


def test_classic_long_word_is_not_quadratic():
    """Chinese has no spaces: a whole paragraph is one classic 'word'."""
    tokenizer = train_classic("语言模型读取词元 " * 50, 60).tokenizer
    word = "语言模型读取词元" * 5_000
    assert "".join(tokenizer.encode_word(word)) == word + "</w>"
