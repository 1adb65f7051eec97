"""Every pair at a round (bpe_core.analysis.round_pairs): against the trainer's own trace (each round's winner
and runner-ups, in order) and against a naive count written here (the first k merges applied to each word by
hand, every adjacent pair counted), for byte-level and classic training, every tie rule."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core.analysis.round_pairs import pairs_at_round
from bpe_core.pretokenize import count_pretokens

TEXTS = st.text(alphabet="ab cd\n学习é", min_size=1, max_size=120)


def naive_pairs(words: Counter, merges: list[tuple[bytes, bytes]], k: int) -> Counter:
    """Apply merges 0..k-1 to each word left to right, then count adjacent pairs (overlapping, as trainers do)."""
    counts: Counter = Counter()
    for word, n in words.items():
        symbols = list(word)
        for left, right in merges[:k]:
            out, i = [], 0
            while i < len(symbols):
                if i + 1 < len(symbols) and symbols[i] == left and symbols[i + 1] == right:
                    out.append(left + right)
                    i += 2
                else:
                    out.append(symbols[i])
                    i += 1
            symbols = out
        for pair in zip(symbols, symbols[1:]):
            counts[pair] += n
    return counts


@settings(max_examples=40)
@given(TEXTS, st.integers(257, 300), st.sampled_from(["greatest", "first", "hf"]))
def test_byte_level_pairs_are_the_naive_counts_and_the_trace_s_order(text, vocab, tie_break):
    result = bpe_core.train(text, vocab, tie_break=tie_break)
    merges = [(record.left, record.right) for record in result.trace]
    words = Counter({tuple(bytes([b]) for b in word.encode()): n for word, n in count_pretokens(text).items()})
    for k, record in enumerate([*result.trace, None]):
        pairs = pairs_at_round(text, merges, k, tie_break=tie_break)
        assert Counter({(left, right): count for left, right, count in pairs}) == +naive_pairs(words, merges, k)
        if record is None:
            assert pairs == [] or not result.stopped_early  # stopping early means no pair was left
            continue
        assert pairs[0] == (record.left, record.right, record.count)
        runner_ups = [(c.left, c.right, c.count) for c in record.candidates]
        assert pairs[1 : 1 + len(runner_ups)] == runner_ups


@settings(max_examples=25)
@given(st.text(alphabet="ab cd é", min_size=1, max_size=80), st.integers(1, 12))
def test_classic_pairs_are_the_naive_counts_and_the_trace_s_order(text, merges_wanted):
    if not text.split():
        return
    result = bpe_core.train_classic(text, 1_000)
    merges = [(record.left, record.right) for record in result.trace][:merges_wanted]
    words = Counter({tuple([*(c.encode() for c in word), b"</w>"]): n for word, n in Counter(text.split()).items()})
    for k in range(len(merges) + 1):
        pairs = pairs_at_round(text, merges, k, classic=True)
        assert Counter({(left, right): count for left, right, count in pairs}) == +naive_pairs(words, merges, k)
        if k < len(result.trace):
            record = result.trace[k]
            assert pairs[0] == (record.left, record.right, record.count)


def test_merges_of_another_text_and_rounds_out_of_range_are_refused():
    merges = [(b"a", b"a")]
    with pytest.raises(ValueError, match="does not occur"):
        pairs_at_round("xyz", merges, 1)
    with pytest.raises(ValueError, match="not between 0 and 1"):
        pairs_at_round("aa", merges, 2)
