"""Classic BPE keeps the end-of-word mark apart from any text, and agrees with a plain Sennrich reference."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_sennrich import sennrich_encode, sennrich_train, shown

from bpe_core import train_classic

# Corpora full of the mark's own characters, and words that spell it.
WORDS = st.lists(
    st.lists(st.sampled_from(["</w>", "<", "/", "w", ">", "l", "o", "w</w>", "lo", "</"]), min_size=1, max_size=5).map(
        "".join
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(words=WORDS, extra_merges=st.integers(0, 30), held_out=WORDS)
def test_classic_training_and_encoding_agree_with_sennrich(words, extra_merges, held_out):
    text = " ".join(words)
    base = len(set(text.replace(" ", ""))) + 1
    result = train_classic(text, base + extra_merges)
    merges = sennrich_train(text, extra_merges)
    assert result.merges == [(shown(left), shown(right)) for left, right in merges]
    tokenizer = result.tokenizer
    for sample in (text, " ".join(held_out)):
        assert tokenizer.encode_words(sample) == sennrich_encode(sample, merges)
        seen = set(text)
        expected = " ".join("".join(c if c in seen else "<unk>" for c in word) for word in sample.split())
        assert tokenizer.decode(tokenizer.encode(sample)) == expected
        segmentation = tokenizer.segment(sample)
        assert segmentation.tokens_at(tokenizer.num_merges) == sum(sennrich_encode(sample, merges), [])


def test_a_literal_end_of_word_mark_does_not_split_other_words():
    # "</w>" as text in the corpus once made "low" split wrongly: its merges were looked up by text.
    text = "low low low lower </w> </w>x"
    result = train_classic(text, len(set(text.replace(" ", ""))) + 1 + 12)
    tokenizer = result.tokenizer
    assert tokenizer.encode_words("low") == sennrich_encode("low", sennrich_train(text, 12))
    mark = tokenizer.symbols.index("</w>")
    assert tokenizer.encode("low")[-1] != tokenizer.encode("</w>")[-1] or tokenizer.encode_words("</w>") != [["</w>"]]
    assert tokenizer.decode(tokenizer.encode("</w> low")) == "</w> low"
    assert mark < tokenizer.unknown_id


def test_truncated_keeps_the_first_merges():
    tokenizer = train_classic("low low lower newest newest widest", 20).tokenizer
    small = tokenizer.truncated(3)
    assert small.merges == tokenizer.merges[:3]
    assert small.symbols == tokenizer.symbols[: len(tokenizer.symbols) - tokenizer.num_merges + 3]
    with pytest.raises(ValueError, match="between 0 and"):
        tokenizer.truncated(tokenizer.num_merges + 1)


@pytest.mark.parametrize("bad", [-1, 10**6, 2**53, 1.0, "3", None])
def test_decode_refuses_ids_that_are_not_in_the_vocabulary(bad):
    tokenizer = train_classic("low low lower", 12).tokenizer
    with pytest.raises(ValueError, match="is not in this tokenizer"):
        tokenizer.decode([bad])
