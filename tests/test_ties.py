"""Tie rules of training (bpe_core.training.ties): each rule merge for merge against a naive trainer that
breaks ties that way, and Hugging Face's rule against the real ``tokenizers`` trainer."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_ties import chosen_train, gpt2_alphabet, hf_choice, minbpe_train, paper_train_classic

from bpe_core import train, train_classic
from bpe_core.pretokenize import PATTERNS

# Few letters, so that many pairs tie; spaces, newlines, a doubled letter and CJK for the patterns.
tie_texts = st.text(alphabet="abc  \n\u00e9\u4e2d!1", max_size=120)
SENNRICH = "low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3  # the paper's counts


def byte_words(text: str, pattern: str | None) -> Counter:
    from naive_ties import pieces

    return Counter(tuple(bytes([b]) for b in chunk.encode("utf-8")) for chunk in pieces(text, pattern, []))


@settings(max_examples=150)
@given(tie_texts, st.integers(0, 40), st.sampled_from(["gpt2", None, "whitespace"]))
def test_first_rule_is_minbpe(text, n_merges, pattern):
    expected = minbpe_train(text, n_merges, PATTERNS.get(pattern, pattern))
    assert train(text, 256 + n_merges, pattern=pattern, tie_break="first").merges == expected


@settings(max_examples=60)
@given(st.lists(tie_texts, min_size=1, max_size=4), st.integers(0, 30))
def test_first_rule_with_special_tokens(parts, n_merges):
    text = "<|e|>".join(parts)
    expected = minbpe_train(text, n_merges, PATTERNS["gpt2"], ["<|e|>"])
    assert train(text, 257 + n_merges, special_tokens=["<|e|>"], tie_break="first").merges == expected


def test_first_rule_on_english(shakespeare):
    text = shakespeare[:20_000]
    assert train(text, 256 + 120, tie_break="first").merges == minbpe_train(text, 120, PATTERNS["gpt2"])


@settings(max_examples=100)
@given(tie_texts, st.integers(0, 40), st.sampled_from(["gpt2", None]))
def test_smallest_rule(text, n_merges, pattern):
    words = byte_words(text, PATTERNS.get(pattern, pattern))
    expected = chosen_train(words, n_merges, lambda pairs, merges: min(pairs, key=lambda p: (-pairs[p], p)))
    assert train(text, 256 + n_merges, pattern=pattern, tie_break="smallest").merges == expected


def hf_byte_rank(symbol: bytes) -> int:
    return ord(gpt2_alphabet()[symbol[0]])


@settings(max_examples=100)
@given(tie_texts, st.integers(0, 40))
def test_hf_rule_against_a_naive_trainer(text, n_merges):
    expected = chosen_train(byte_words(text, PATTERNS["gpt2"]), n_merges, hf_choice(hf_byte_rank))
    assert train(text, 256 + n_merges, tie_break="hf").merges == expected


def hf_trained_merges(text: str, n_merges: int) -> list[tuple[bytes, bytes]]:
    """The merges of the real Hugging Face trainer, set up as bpe_core trains (GPT-2 split, all 256 bytes)."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    from bpe_core.formats.gpt2 import from_gpt2_text

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = trainers.BpeTrainer(
        vocab_size=256 + n_merges,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
        min_frequency=0,
    )
    tokenizer.train_from_iterator([text], trainer)
    merges = json.loads(tokenizer.to_str())["model"]["merges"]
    pairs = [merge if isinstance(merge, list) else merge.split(" ") for merge in merges]
    return [(from_gpt2_text(left), from_gpt2_text(right)) for left, right in pairs]


@settings(max_examples=150)
@given(tie_texts, st.integers(1, 40))
def test_hf_rule_is_the_real_hf_trainer(text, n_merges):
    expected = hf_trained_merges(text, n_merges)
    merges = train(text, 256 + n_merges, tie_break="hf").merges
    assert merges[: len(expected)] == expected and len(merges) == len(expected)


def test_hf_rule_on_english_is_the_real_hf_trainer(shakespeare):
    text = shakespeare[:100_000]
    assert train(text, 256 + 1500, tie_break="hf").merges == hf_trained_merges(text, 1500)


def test_rules_differ_where_ties_decide():
    text = "ab ba cd dc " * 3
    first = [train(text, 258, tie_break=rule).merges for rule in ("greatest", "smallest", "first", "hf")]
    assert first[0][0] == (b"d", b"c") and first[1][0] == (b" ", b"b") and first[2][0] == (b"a", b"b")
    assert first[3][0] == (b"a", b"b")  # HF: printable bytes before the space (U+0120 in its alphabet)


def test_sennrich_toy_first_seen_merges_es_est_est_w():
    merges = train_classic(SENNRICH, 40, tie_break="first").merges
    assert merges[:3] == [("e", "s"), ("es", "t"), ("est", "</w>")]
    assert train_classic(SENNRICH, 40).merges[:3] != merges[:3]  # the greatest pair: t + </w>
    assert merges == paper_train_classic(SENNRICH, len(merges))


@settings(max_examples=100)
@given(st.text(alphabet="abcd \n\u00e9", max_size=100), st.integers(0, 30))
def test_classic_first_rule_is_the_papers_loop(text, n_merges):
    base = len(set("".join(text.split()))) + 1
    result = train_classic(text, base + n_merges, tie_break="first")
    assert result.merges == paper_train_classic(text, n_merges)


@settings(max_examples=100)
@given(st.text(alphabet="abcd \n\u00e9", max_size=100), st.integers(0, 30), st.sampled_from(["hf", "smallest"]))
def test_classic_hf_and_smallest_rules(text, n_merges, rule):
    characters = sorted(set("".join(text.split())))
    order = {symbol: n for n, symbol in enumerate([*characters, "</w>"])}
    words = Counter((*word, "</w>") for word in text.split())
    if rule == "hf":
        choose = hf_choice(order.__getitem__)
    else:
        choose = lambda pairs, merges: min(pairs, key=lambda p: (-pairs[p], p[0].encode(), p[1].encode()))  # noqa: E731
    expected = chosen_train(words, n_merges, choose)
    assert train_classic(text, len(order) + n_merges, tie_break=rule).merges == expected


@pytest.mark.parametrize(
    "trainer", [lambda rule: train("ab", 257, tie_break=rule), lambda rule: train_classic("ab", 4, tie_break=rule)]
)
def test_unknown_rule_is_a_clear_error(trainer):
    with pytest.raises(ValueError, match="tie_break must be one of 'greatest', 'smallest', 'first', 'hf', not 'last'"):
        trainer("last")


def test_default_records_no_rule_and_others_do():
    assert "tie_break" not in train("abab", 257).settings
    assert train("abab", 257, tie_break="first").settings["tie_break"] == "first"
