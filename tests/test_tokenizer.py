"""Encoding and decoding: round trips, special tokens, streaming, errors, an independent encoder."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_bpe import naive_encode

from bpe_core import Tokenizer, train
from bpe_core.pretokenize import PATTERNS, STREAM_CHUNK_CHARS

SAMPLE = (
    "The quick brown fox jumps over the lazy dog. The dog sleeps; the fox runs on and on.\n"
    "def encode(text):\n    return [ord(c) for c in text]  # 12345 67890\n"
    "中文的文字，中文的句子。 Émigré naïve café — “quotes” and emoji 🎉🎉!\n"
) * 20


@pytest.fixture(scope="module")
def tokenizer() -> Tokenizer:
    return train(SAMPLE, 256 + 300, special_tokens=["<|endoftext|>", "<|end|>"]).tokenizer


@settings(max_examples=300, deadline=None)
@given(text=st.text())
def test_decode_inverts_encode_for_any_unicode(tokenizer, text):
    assert tokenizer.decode(tokenizer.encode(text)) == text
    assert tokenizer.decode(tokenizer.encode_ordinary(text)) == text


@settings(max_examples=100, deadline=None)
@given(
    text=st.text(alphabet=st.characters(codec="utf-8"), max_size=300),
    pattern=st.sampled_from(["cl100k", "o200k", "whitespace", None]),
)
def test_every_pattern_round_trips(text, pattern):
    trained = train(SAMPLE[:2000], 256 + 60, pattern=pattern).tokenizer
    assert trained.decode(trained.encode(text)) == text


def test_encoding_agrees_with_a_naive_pair_by_pair_encoder(shakespeare):
    training, held_out = shakespeare[:100_000], shakespeare[100_000:140_000]
    result = train(training, 256 + 500)
    tokenizer = result.tokenizer
    for text in (training[:20_000], held_out):
        ours = tokenizer.decode_tokens_bytes(tokenizer.encode(text))
        assert ours == naive_encode(text, result.merges, PATTERNS["gpt2"])


def test_long_piece_without_pretokenization_matches_naive(shakespeare):
    text = shakespeare[:3000]
    result = train(text, 256 + 120, pattern=None)
    tokens = result.tokenizer.decode_tokens_bytes(result.tokenizer.encode(text))
    assert tokens == naive_encode(text, result.merges, None)


def test_special_tokens_are_whole_and_only_in_encode(tokenizer):
    text = "hi<|endoftext|>there"
    special = tokenizer.special_tokens["<|endoftext|>"]
    assert tokenizer.encode(text).count(special) == 1
    assert special not in tokenizer.encode_ordinary(text)
    assert tokenizer.decode(tokenizer.encode_ordinary(text)) == text


def test_overlapping_special_tokens_longest_wins():
    tokenizer = train(SAMPLE[:500], 300, special_tokens=["<|a|>", "<|a|><|b|>", "|>"]).tokenizer
    ids = tokenizer.encode("x<|a|><|b|>y<|a|>z|>")
    specials = tokenizer.special_tokens
    assert [i for i in ids if i in specials.values()] == [specials["<|a|><|b|>"], specials["<|a|>"], specials["|>"]]
    assert tokenizer.decode(ids) == "x<|a|><|b|>y<|a|>z|>"


def test_decode_replaces_invalid_utf8(tokenizer):
    chinese = tokenizer.encode_ordinary("中")
    raw = b"".join(tokenizer.decode_tokens_bytes(chinese))
    first_byte = tokenizer.mergeable_ranks[raw[:1]]
    assert tokenizer.decode([first_byte]) == "\ufffd"
    assert tokenizer.decode([first_byte, *tokenizer.encode("ok")]) == "\ufffdok"
    assert tokenizer.decode_bytes([first_byte]) == raw[:1]


@pytest.mark.parametrize("bad_id", [-1, 10**9, 2**53, 2**64, "7", 1.0, True, None])
def test_unknown_id_is_a_clear_error(tokenizer, bad_id):
    if type(bad_id) is int:
        expected = rf"token id {bad_id} is not in this tokenizer \(its ids run from 0 to 397\)"
    else:
        expected = f"token id {re.escape(repr(bad_id))} is not an integer"
    with pytest.raises(ValueError, match=expected):
        tokenizer.decode([bad_id])


@settings(max_examples=60, deadline=None)
@given(
    parts=st.lists(
        st.sampled_from(["word ", "Word\n", "\n", "  ", "中文", "<|endoftext|>", "<|end", "|>", "x" * 700]), max_size=40
    )
)
def test_encode_iterable_equals_encode(tokenizer, parts):
    assert list(tokenizer.encode_iterable(parts)) == tokenizer.encode("".join(parts))


def test_encode_iterable_is_lazy(tokenizer):
    consumed = []
    line = "Some line of text that ends in a letter\n"

    def lines():
        for index in range(100_000):
            consumed.append(index)
            yield line

    stream = tokenizer.encode_iterable(lines())
    next(stream)
    # ids arrive after about one buffer's worth of text, long before the input ends
    assert len(consumed) * len(line) <= STREAM_CHUNK_CHARS + len(line)


def test_truncated_keeps_ids_and_drops_later_merges(tokenizer):
    small = tokenizer.truncated(10)
    assert small.num_merges == 10
    assert small.merges == tokenizer.merges[:10]
    assert all(tokenizer.vocab[i] == token for i, token in small.vocab.items())
    assert small.decode(small.encode(SAMPLE)) == SAMPLE
    with pytest.raises(ValueError, match="between 0 and"):
        tokenizer.truncated(tokenizer.num_merges + 1)


def test_truncated_to_every_merge_is_the_same_tokenizer_with_empty_caches(tokenizer):
    """All merges kept: the tables are shared, not copied (the fast paths' tests make many such fresh copies of
    o200k), the ids and specials are the same, and the copy starts with nothing remembered."""
    tokenizer.encode(SAMPLE)
    whole = tokenizer.truncated(tokenizer.num_merges)
    assert whole.vocab == tokenizer.vocab and whole.merges == tokenizer.merges
    assert whole.special_tokens == tokenizer.special_tokens and whole.pattern == tokenizer.pattern
    assert whole.encode(SAMPLE + "<|end|>") == tokenizer.encode(SAMPLE + "<|end|>")
    assert whole.truncated(10).merges == tokenizer.truncated(10).merges
    assert tokenizer.truncated(tokenizer.num_merges)._pieces._cache == {}


def test_from_ranks_derives_the_same_merges(tokenizer):
    rebuilt = Tokenizer.from_ranks(tokenizer.mergeable_ranks, tokenizer.special_tokens, tokenizer.pattern)
    assert rebuilt.merges == tokenizer.merges
    assert rebuilt.encode(SAMPLE) == tokenizer.encode(SAMPLE)


def test_bad_constructor_input_is_a_clear_error():
    byte_vocab = {i: bytes([i]) for i in range(256)}
    with pytest.raises(ValueError, match="lacks 1 of the 256 single bytes"):
        Tokenizer({i: bytes([i]) for i in range(255)}, [])
    with pytest.raises(ValueError, match="not in the vocab"):
        Tokenizer(byte_vocab, [(b"a", b"b")])
    with pytest.raises(ValueError, match="invalid pre-tokenization pattern"):
        Tokenizer(byte_vocab, [], pattern="(")
    with pytest.raises(ValueError, match="share one id"):
        Tokenizer(byte_vocab, [], {"<a>": 300, "<b>": 300})


# -- lone surrogates, as tiktoken treats them ----------------------------------------------------

SURROGATE_TEXTS = st.lists(
    st.sampled_from(["a", " b", "\udb1d", "\ud83d", "\ude00", "\ud83d\ude00", "é", "中", "\n", "<|endoftext|>", "'s"]),
    max_size=20,
).map("".join)


@pytest.fixture(scope="module")
def tiktoken_gpt2():
    tiktoken = pytest.importorskip("tiktoken")
    from bpe_core.pretokenize import GPT2_PATTERN
    from bpe_core.reference import reference

    ours = reference("gpt2")
    theirs = tiktoken.Encoding(
        "gpt2-offline", pat_str=GPT2_PATTERN, mergeable_ranks=ours.mergeable_ranks, special_tokens=ours.special_tokens
    )
    return ours, theirs


@settings(max_examples=150, deadline=None)
@given(text=SURROGATE_TEXTS)
def test_surrogates_encode_as_tiktoken_encodes_them(tiktoken_gpt2, text):
    ours, theirs = tiktoken_gpt2
    assert ours.encode(text) == theirs.encode(text, allowed_special="all")
    assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)
    assert list(ours.encode_iterable(list(text))) == ours.encode(text)
    segmentation = ours.segment(text)
    assert segmentation.tokens_at(ours.num_merges) == [ours.token_bytes(i) for i in ours.encode(text)]


def test_a_lone_surrogate_becomes_the_replacement_character(tiktoken_gpt2):
    ours, _ = tiktoken_gpt2
    assert ours.decode(ours.encode("\udb1d")) == "\ufffd"
    assert ours.decode(ours.encode("x\ud83d\ude00")) == "x\U0001f600"


@pytest.mark.parametrize("kind", ["byte", "classic"])
def test_a_tokenizer_that_forgets_its_encodings_gives_the_same_ids(kind):
    """A server lets go of encoders' caches after each run; the ids never change."""
    text = "low lower newest widest 12345 67890 " * 200 + "日本語"
    from bpe_core import train_classic

    tokenizer = train(text, 320).tokenizer if kind == "byte" else train_classic(text, 60).tokenizer
    first, start = tokenizer.encode(text), tokenizer.encode(text[:50])
    tokenizer.forget_encodings()
    assert tokenizer.encode(text) == first
    tokenizer.forget_encodings()
    assert tokenizer.encode(text[:50]) == start
