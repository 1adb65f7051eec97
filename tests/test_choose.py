"""bpe_core.analysis.choose: the size table, the curve and the suggestion, against encoding the held-out
text with the truncated tokenizer (and a brute-force scan for the suggestion rule)."""

from __future__ import annotations

from collections import Counter

import pytest
from analysis_naive import in_vocabulary
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core.analysis.choose import embedding_parameters, size_curve, size_table, suggest_size
from bpe_core.analysis.sizes import merges_for_vocab_size, vocab_size_of

TRAINING = (
    "The quick brown fox jumps over the lazy dog. Tokenizers merge frequent pairs of bytes.\n"
    "字节对编码从字节开始，反复合并。 def f(x):\n    return x ** 2  # 42\n"
) * 15
HELDOUT = "The lazy fox merges bytes; 编码 returns 42 tokens.\nA new dog, quickly!\n" * 3


@pytest.fixture(scope="module")
def tokenizer():
    return bpe_core.train(TRAINING, 420, special_tokens=["<|endoftext|>"]).tokenizer


def brute_force_counts(tokenizer, text):
    return [len(tokenizer.truncated(k).encode(text)) for k in range(tokenizer.num_merges + 1)]


def test_table_rows_equal_truncated_encodings(tokenizer):
    heldout = HELDOUT + "<|endoftext|>" + HELDOUT[:40]
    largest = vocab_size_of(tokenizer)
    sizes = [300, 257, largest, 350, 100, 10_000, 333]
    rows = size_table(tokenizer, heldout, sizes, d_model=64, tied=False, min_uses=3, per_merges=20)
    n = tokenizer.num_merges
    assert [row.requested for row in rows] == sizes  # the order typed, duplicates of a size kept apart
    for row in rows:
        k = merges_for_vocab_size(tokenizer, row.requested)
        assert (row.merges, row.vocab_size) == (k, vocab_size_of(tokenizer, k))
        ids = tokenizer.truncated(k).encode(heldout)
        later = len(tokenizer.truncated(min(k + 20, n)).encode(heldout))
        uses = Counter(ids)
        assert row.tokens == len(ids)
        assert row.bytes_per_token == len(heldout.encode()) / len(ids)
        assert row.tokens_per_1000_chars == pytest.approx(len(ids) * 1000 / len(heldout))
        assert row.gain == pytest.approx((len(ids) - later) / len(ids))
        assert row.rare_tokens == sum(uses[i] < 3 for i in in_vocabulary(tokenizer, k))
        assert row.embedding_parameters == row.vocab_size * 64 * 2
    notes = {row.requested: row.note for row in rows}
    assert notes[100] == "below the smallest size (257): measured at 257"
    assert notes[10_000] == f"above the largest size ({largest}): measured at {largest}"
    assert notes[300] is None and notes[257] is None and notes[largest] is None


@settings(max_examples=30, deadline=None)
@given(
    st.text(alphabet="ab c\nd é字", min_size=1, max_size=150),
    st.text(alphabet="ab c\nd éxy字", min_size=1, max_size=60),
    st.integers(min_value=256, max_value=290),
    st.integers(min_value=1, max_value=4),
)
def test_curve_at_every_size_equals_brute_force(training, heldout, vocab_size, min_uses):
    tokenizer = bpe_core.train(training, vocab_size).tokenizer
    curve = size_curve(tokenizer, heldout, min_uses=min_uses)
    counts = brute_force_counts(tokenizer, heldout)
    assert curve.token_counts.tolist() == counts
    assert curve.vocab_sizes.tolist() == [vocab_size_of(tokenizer, k) for k in range(len(counts))]
    expected_rare = []
    for k in range(tokenizer.num_merges + 1):
        uses = Counter(tokenizer.truncated(k).encode(heldout))
        expected_rare.append(sum(uses[i] < min_uses for i in in_vocabulary(tokenizer, k)))
    assert curve.rare_tokens.tolist() == expected_rare
    assert curve.bytes_per_token.tolist() == [len(heldout.encode()) / count for count in counts]
    assert curve.tokens_per_1000_chars.tolist() == pytest.approx([count * 1000 / len(heldout) for count in counts])


def brute_force_suggestion(counts, sizes, min_gain, per_merges):
    """Scan every size from the largest down for the first whose gain reaches min_gain."""
    last = len(counts) - 1
    for k in range(last, -1, -1):
        later = counts[min(k + per_merges, last)]
        if (counts[k] - later) / counts[k] >= min_gain:
            return sizes[k]
    return sizes[0]


def brute_force_dip(counts, sizes, min_gain, per_merges, suggested):
    """The first size below the suggestion whose gain is under min_gain (None: none is)."""
    last = len(counts) - 1
    for k in range(sizes.index(suggested)):
        if (counts[k] - counts[min(k + per_merges, last)]) / counts[k] < min_gain:
            return sizes[k]
    return None


@settings(max_examples=40, deadline=None)
@given(
    st.text(alphabet="ab c\nd", min_size=20, max_size=200),
    st.floats(min_value=0.0, max_value=0.3),
    st.integers(min_value=1, max_value=12),
)
def test_suggestion_equals_a_brute_force_scan(training, min_gain, per_merges):
    tokenizer = bpe_core.train(training, 300).tokenizer
    heldout = training[::-1]
    curve = size_curve(tokenizer, heldout, min_uses=None)
    counts = brute_force_counts(tokenizer, heldout)
    sizes = [vocab_size_of(tokenizer, k) for k in range(len(counts))]
    suggestion = suggest_size(curve, min_gain=min_gain, per_merges=per_merges)
    assert suggestion.vocab_size == brute_force_suggestion(counts, sizes, min_gain, per_merges)
    assert str(f"{suggestion.vocab_size:,}") in suggestion.reason
    assert f"{min_gain:.2%}" in suggestion.reason
    assert suggestion.dips_at == brute_force_dip(counts, sizes, min_gain, per_merges, suggestion.vocab_size)
    assert (suggestion.dips_at is not None) == ("rises above it again" in suggestion.reason)


def test_suggestion_reason_reads_with_its_numbers():
    curve = size_curve(bpe_core.train("aaabdaaabac", 259).tokenizer, "aaabdaaabac", min_uses=None)
    suggestion = suggest_size(curve, min_gain=0.2, per_merges=1)
    assert suggestion.vocab_size == 258
    assert suggestion.reason == (
        "258 is the largest vocab size where 1 more merge still saves at least 20.00% of the held-out tokens: "
        "going to 259 saves 28.57% (7 → 5 tokens); from 259 on, the saving is smaller. The saving first falls "
        "below 20.00% at 256 and rises above it again later (a stretch of the text that new merges suddenly fit): "
        "read the gain curve before you choose."
    )
    assert suggestion.dips_at == 256  # 1 merge saves 18.18% at 256, 22.22% at 257
    assert suggest_size(curve, min_gain=0.15, per_merges=1).dips_at is None
    assert not suggestion.at_end
    ended = suggest_size(curve, min_gain=0.1, per_merges=2)
    assert ended.at_end and ended.reason.endswith("train a bigger one to see further.")
    nothing = suggest_size(curve, min_gain=0.9, per_merges=1)
    assert nothing.vocab_size == 256
    assert nothing.reason.startswith(
        "Even from the smallest size, 256, 1 more merge saves less than 90.00%: going to 257"
    )


def test_reference_tokenizer_on_a_small_text():
    gpt2 = bpe_core.reference("gpt2")
    text = "Choosing a vocabulary size trades embedding parameters for shorter sequences.<|endoftext|>"
    rows = size_table(gpt2, text, [257, 1000, 50_257], d_model=768)
    for row in rows:
        ids = gpt2.truncated(row.merges).encode(text)
        assert row.tokens == len(ids)
        uses = Counter(ids)
        assert row.rare_tokens == sum(uses[i] < 10 for i in in_vocabulary(gpt2, row.merges))
    assert rows[-1].embedding_parameters == 50_257 * 768 == embedding_parameters(50_257)
    curve = size_curve(gpt2, text)
    assert curve.token_counts[-1] == len(gpt2.encode(text)) and len(curve.vocab_sizes) == 50_001


def test_bad_arguments(tokenizer):
    with pytest.raises(ValueError, match="empty"):
        size_curve(tokenizer, "")
    with pytest.raises(TypeError, match="integer"):
        size_table(tokenizer, "abc", [True])
    with pytest.raises(ValueError, match="per_merges"):
        suggest_size(size_curve(tokenizer, "abc"), per_merges=0)
