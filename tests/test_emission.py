"""bpe_core.analysis.emission: the spans give every token's use at every vocab size, exactly as encoding
with the truncated tokenizer and walking the merge trees of what it emits."""

from __future__ import annotations

import numpy as np
import pytest
from analysis_naive import in_vocabulary, usage_at
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core.analysis.curves import token_counts_by_size
from bpe_core.analysis.emission import pretoken_spans, text_emissions, token_first_k, usage_steps

ALPHABET = "ab c\nd é字"


def _check(tokenizer, text):
    emissions = text_emissions(tokenizer, text)
    assert emissions.token_counts().tolist() == token_counts_by_size(tokenizer, text)
    steps = usage_steps(emissions, token_first_k(tokenizer))
    rare = steps.count_by_size(steps.emitted < 2)
    never = steps.count_by_size(steps.emitted == 0)
    seen = steps.emitted + steps.inside
    intermediate = steps.count_by_size((seen > 0) & (steps.emitted < 0.3 * seen))
    for k in range(tokenizer.num_merges + 1):
        emitted, inside = usage_at(tokenizer, text, k)
        assert {i: c for i, c in enumerate(emissions.emitted_at(k).tolist()) if c} == dict(emitted), k
        assert {i: c for i, c in enumerate(emissions.inside_at(k).tolist()) if c} == dict(inside), k
        present = in_vocabulary(tokenizer, k)
        assert rare[k] == sum(emitted[i] < 2 for i in present)
        assert never[k] == sum(emitted[i] == 0 for i in present)
        total = {i: emitted[i] + inside[i] for i in present}
        assert intermediate[k] == sum(total[i] > 0 and emitted[i] < 0.3 * total[i] for i in present)


@settings(max_examples=40, deadline=None)
@given(
    st.text(alphabet=ALPHABET, min_size=1, max_size=120),
    st.text(alphabet=ALPHABET + "xyz", min_size=1, max_size=80),
    st.integers(min_value=257, max_value=300),
    st.sampled_from(["gpt2", None]),
)
def test_use_at_every_size_equals_truncated_encoding(training, text, vocab_size, pattern):
    tokenizer = bpe_core.train(training, vocab_size, pattern=pattern, special_tokens=["<s>"]).tokenizer
    _check(tokenizer, text + "<s>" + text[::-1])


def test_use_at_every_size_on_a_real_corpus(shakespeare):
    tokenizer = bpe_core.train(shakespeare[:20_000], 330).tokenizer
    _check(tokenizer, shakespeare[50_000:52_000])


def test_spans_of_a_pre_token():
    # "abc" with lifetimes [0, 1]: a b c at k=0, ab c at k=1, abc at k=2
    spans = [(0, 1, 0, 0), (0, 2, 1, 1), (0, 3, 2, 2), (1, 2, 0, 0), (2, 3, 0, 1)]
    assert sorted(pretoken_spans(b"abc", [0, 1], 2)) == spans
    # tied lifetimes vanish together: one span, not two
    assert sorted(pretoken_spans(b"abc", [1, 1], 2)) == [(0, 1, 0, 1), (0, 3, 2, 2), (1, 2, 0, 1), (2, 3, 0, 1)]


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base"])
def test_reference_tokenizer_at_a_few_sizes(name):
    tokenizer = bpe_core.reference(name)
    text = "Tokenizers split text into pieces; 字节对编码 works on bytes. " * 3
    emissions = text_emissions(tokenizer, text)
    first_k = token_first_k(tokenizer)
    for k in (0, 300, 5000, tokenizer.num_merges):
        emitted, _ = usage_at(tokenizer, text, k)
        assert {i: c for i, c in enumerate(emissions.emitted_at(k).tolist()) if c} == dict(emitted)
    assert np.count_nonzero(first_k >= 0) == len(tokenizer.mergeable_ranks)
