"""BPE-dropout: p = 0 is plain encoding, samples decode to the text, seeds, statistics, bad input."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import dropout_samples, encode_with_dropout, reference, train, train_classic
from bpe_core.encoding.dropout import sample_seeds

REFERENCES = ("gpt2", "cl100k_base", "o200k_base")
TRICKY = "Hello world's end!  \n\n 12345 ünïcödé 中文字符 😀👍🏽 <|endoftext|>   trailing\t\n"
# Any text but lone surrogates (encode replaces those, so decoding could not give them back).
any_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=200)


@pytest.fixture(scope="module")
def trained(shakespeare):
    return train(shakespeare[:100_000], 256 + 1000, special_tokens=["<|endoftext|>"]).tokenizer


@pytest.fixture(scope="module", params=REFERENCES)
def ref(request):
    return reference(request.param)


@settings(max_examples=150, deadline=None)
@given(text=any_text, seed=st.integers(0, 2**32))
def test_p0_is_plain_encoding_for_a_trained_tokenizer(trained, text, seed):
    assert encode_with_dropout(trained, text + "<|endoftext|>", 0.0, seed=seed) == trained.encode(
        text + "<|endoftext|>"
    )


@settings(max_examples=60, deadline=None)
@given(text=any_text)
def test_p0_is_plain_encoding_for_the_references(ref, text):
    assert encode_with_dropout(ref, text, 0, seed=0) == ref.encode(text)


def test_p0_is_plain_encoding_on_real_text(ref, trained, shakespeare, chinese):
    text = TRICKY + shakespeare[:5000] + chinese[:2000]
    assert encode_with_dropout(ref, text, 0.0, seed=3) == ref.encode(text)
    assert encode_with_dropout(trained, text, 0.0, seed=3) == trained.encode(text)


def test_p0_is_plain_encoding_without_pretokenization(shakespeare):
    tokenizer = train(shakespeare[:3000], 256 + 100, pattern=None).tokenizer
    text = shakespeare[3000:6000]  # one long pre-token
    assert encode_with_dropout(tokenizer, text, 0.0, seed=0) == tokenizer.encode(text)


@settings(max_examples=100, deadline=None)
@given(text=any_text, p=st.floats(0, 0.99), seed=st.integers(0, 2**32))
def test_every_sample_decodes_to_the_text(trained, text, p, seed):
    for tokenizer in (trained, reference("cl100k_base")):
        ids = encode_with_dropout(tokenizer, text, p, seed=seed)
        assert tokenizer.decode_bytes(ids) == text.encode("utf-8")
        assert all(identifier in tokenizer.vocab for identifier in ids)


def test_special_tokens_stay_whole_at_any_p(ref):
    ids = encode_with_dropout(ref, "a<|endoftext|>b", 0.9, seed=1)
    assert ref.special_tokens["<|endoftext|>"] in ids and ref.decode(ids) == "a<|endoftext|>b"


def test_same_seed_same_ids_other_seeds_other_segmentations(ref, shakespeare):
    text = shakespeare[:2000]
    first = encode_with_dropout(ref, text, 0.1, seed=42)
    assert encode_with_dropout(ref, text, 0.1, seed=42) == first
    samples = dropout_samples(ref, text, 0.1, seed=42, n=5)
    assert samples == dropout_samples(ref, text, 0.1, seed=42, n=5)
    assert len({tuple(sample) for sample in samples}) == 5
    assert samples == [encode_with_dropout(ref, text, 0.1, seed=each) for each in sample_seeds(42, 5)]
    assert all(ref.decode(sample) == text for sample in samples)


def test_whole_tokens_are_split_when_p_is_above_zero(ref):
    # " hello" is a token in all three: p = 0 keeps it whole, p > 0 goes through the merges.
    assert len(encode_with_dropout(ref, " hello", 0, seed=0)) == 1
    lengths = {len(encode_with_dropout(ref, " hello", 0.5, seed=seed)) for seed in range(30)}
    assert 1 in lengths and max(lengths) > 2


def test_mean_token_count_grows_with_p(trained, shakespeare):
    text = shakespeare[200_000:203_000]
    means = [
        statistics.mean(map(len, dropout_samples(trained, text, p, seed=7, n=4))) for p in (0.0, 0.1, 0.3, 0.6, 0.9)
    ]
    assert means == sorted(means) and len(set(means)) == len(means)
    assert means[0] == len(trained.encode(text)) and means[-1] < len(text.encode("utf-8"))


def test_classic_bpe(shakespeare):
    tokenizer = train_classic(shakespeare[:50_000], 400).tokenizer
    text = shakespeare[50_000:53_000] + " zebra 😀"
    assert encode_with_dropout(tokenizer, text, 0.0, seed=0) == tokenizer.encode(text)
    plain = tokenizer.decode(tokenizer.encode(text))
    samples = dropout_samples(tokenizer, text, 0.3, seed=0, n=3)
    assert all(tokenizer.decode(sample) == plain for sample in samples)
    assert all(len(sample) > len(tokenizer.encode(text)) for sample in samples)
    assert tokenizer.unknown_id in samples[0]


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet="abc 中文\n", max_size=80), seed=st.integers(0, 100))
def test_classic_p0_is_plain_encoding(text, seed):
    tokenizer = train_classic("abc abc cab 中文 文中 aaa bbb", 30).tokenizer
    assert encode_with_dropout(tokenizer, text, 0, seed=seed) == tokenizer.encode(text)


@pytest.mark.parametrize("p", [1, 1.0, -0.1, math.nan, math.inf, "0.1", True, None])
def test_p_outside_zero_to_one_is_a_value_error(trained, p):
    with pytest.raises(ValueError, match=r"must be a number in \[0, 1\)"):
        encode_with_dropout(trained, "text", p, seed=0)
    with pytest.raises(ValueError, match=r"must be a number in \[0, 1\)"):
        dropout_samples(trained, "text", p, seed=0, n=2)


def test_other_bad_input(trained):
    with pytest.raises(TypeError, match="seed must be an int"):
        encode_with_dropout(trained, "text", 0.1, seed="1")
    with pytest.raises(TypeError, match="text must be str"):
        encode_with_dropout(trained, b"text", 0.1, seed=1)
    with pytest.raises(ValueError, match="n must be a non-negative int"):
        dropout_samples(trained, "text", 0.1, seed=1, n=-1)
    with pytest.raises(TypeError, match="a Tokenizer or a ClassicTokenizer"):
        encode_with_dropout("gpt2", "text", 0.1, seed=1)
    assert dropout_samples(trained, "text", 0.1, seed=1, n=0) == []
