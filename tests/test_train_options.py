"""The trainers' options as practitioners know them from Hugging Face's BpeTrainer, each held merge for
merge to a naive trainer (tests/naive_options.py): ``min_frequency`` (stop when the best pair is rarer),
``max_token_length`` (bytes; longer pairs passed over, training goes on), and for classic training
``limit_alphabet`` / ``initial_alphabet``. The defaults change nothing (test_training.py and
test_classic.py hold them to the plain naive trainers)."""

from __future__ import annotations

import pytest
from conftest import corpus
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_options import naive_alphabet, naive_classic_options, naive_train_options
from naive_sennrich import shown

import bpe_core
from bpe_core.pretokenize import PATTERNS
from bpe_core.training.classic import alphabet

texts = st.text(st.sampled_from("aab c\ndé!x"), max_size=150)
limits = st.sampled_from([None, 1, 2, 3, 4, 6])


@settings(max_examples=80, deadline=None)
@given(texts, st.integers(0, 30), st.integers(0, 5), limits, st.sampled_from(["gpt2", None]))
def test_byte_level_options_equal_naive(text, n_merges, min_frequency, max_token_length, pattern):
    result = bpe_core.train(
        text, 256 + n_merges, pattern=pattern, min_frequency=min_frequency, max_token_length=max_token_length
    )
    regex = None if pattern is None else PATTERNS[pattern]
    assert result.merges == naive_train_options(text, n_merges, regex, min_frequency, max_token_length)
    if max_token_length is not None:
        assert all(len(token) <= max_token_length for token in result.vocab.values())
    if len(result.merges) < n_merges:
        assert result.stopped_early and result.stop_reason


def test_options_on_shared_corpus():
    text = corpus("tinyshakespeare.txt", 20_000)
    result = bpe_core.train(text, 256 + 60, min_frequency=8, max_token_length=4)
    assert result.merges == naive_train_options(text, 60, PATTERNS["gpt2"], 8, 4)
    assert result.settings["min_frequency"] == 8 and result.settings["max_token_length"] == 4


def test_min_frequency_stops_and_says_why():
    result = bpe_core.train("aaabdaaabac", 270, min_frequency=3)
    assert result.merges == [(b"a", b"a")]
    assert "below min_frequency 3" in result.stop_reason


def test_train_files_takes_the_options(tmp_path):
    text = "low lower lowest newer newest " * 7
    (tmp_path / "a.txt").write_text(text, encoding="utf-8")
    options = {"min_frequency": 8, "max_token_length": 3}
    assert (
        bpe_core.train_files(tmp_path / "a.txt", 280, **options).merges == bpe_core.train(text, 280, **options).merges
    )


@pytest.mark.parametrize("bad", [{"min_frequency": -1}, {"max_token_length": 0}, {"max_token_length": 2.5}])
def test_bad_options_are_refused(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        bpe_core.train("abc", 260, **bad)
    with pytest.raises(ValueError, match=next(iter(bad))):
        bpe_core.train_classic("abc", 10, **bad)


@pytest.mark.parametrize("bad", [-1, 2.5, True, "5"])
def test_a_bad_runners_up_is_refused_before_any_file_is_read(bad, tmp_path):
    with pytest.raises(ValueError, match="runners_up must be an int >= 0"):
        bpe_core.train("abc", 260, runners_up=bad)
    with pytest.raises(ValueError, match="runners_up must be an int >= 0"):
        bpe_core.train_files(tmp_path / "no such file.txt", 260, runners_up=bad)


def test_train_files_keeps_as_many_runner_ups_as_asked(tmp_path):
    text = "low lower lowest newer newest widest " * 9
    (tmp_path / "a.txt").write_text(text, encoding="utf-8")
    kept = bpe_core.train_files(tmp_path / "a.txt", 275, runners_up=2).trace
    full = bpe_core.train(text, 275).trace
    assert [record.candidates[:2] for record in full] == [record.candidates for record in kept]
    assert [record.count for record in full] == [record.count for record in kept]


classic_texts = st.text(st.sampled_from("aab c\ndéé!xyz"), max_size=150)


@settings(max_examples=80, deadline=None)
@given(
    classic_texts,
    st.integers(0, 25),
    st.integers(0, 4),
    limits,
    st.sampled_from([None, 1, 2, 3, 5, 20]),
    st.sampled_from(["", "q", "aq"]),
)
def test_classic_options_equal_naive(text, n_merges, min_frequency, max_token_length, limit, initial):
    size = len(naive_alphabet(text, limit, initial)) + 1
    result = bpe_core.train_classic(
        text,
        size + n_merges,
        min_frequency=min_frequency,
        max_token_length=max_token_length,
        limit_alphabet=limit,
        initial_alphabet=initial,
    )
    expected = naive_classic_options(
        text,
        n_merges,
        min_frequency=min_frequency,
        max_token_length=max_token_length,
        limit_alphabet=limit,
        initial_alphabet=initial,
    )
    assert result.merges == [(shown(left), shown(right)) for left, right in expected]
    assert len(result.tokenizer.vocab) == size + len(result.merges) + 1  # and <unk>


def test_limited_alphabet_makes_the_rest_unknown():
    result = bpe_core.train_classic("aaa bbb ccc abc", 20, limit_alphabet=2)
    tokenizer = result.tokenizer
    assert sorted(symbol for symbol in tokenizer.symbols if len(symbol) == 1) == ["a", "b"]
    assert tokenizer.unknown_id in tokenizer.encode("abc")
    assert ("b", "c") not in result.merges and ("c", "c") not in result.merges


def test_alphabet_ties_and_initial():
    words = {"ab": 1, "cd": 1}
    assert alphabet(words, 2) == ["a", "b"]  # all four once: the smaller code points stay
    assert alphabet(words, 2, initial="z") == ["a", "z"]
    assert alphabet(words, None, initial="z") == ["a", "b", "c", "d", "z"]
    with pytest.raises(ValueError, match="single characters"):
        alphabet(words, 2, initial=["ab"])


@settings(max_examples=150, deadline=None)
@given(
    st.text(st.sampled_from("aab c\ndé!x😀"), max_size=200),
    st.integers(0, 40),
    st.integers(0, 3),
    limits,
    st.sampled_from(["gpt2", "llama3", None]),
    st.booleans(),
)
def test_the_clis_token_count_from_the_record_is_the_encoders(
    text, n_merges, min_frequency, max_token_length, pattern, with_special
):
    """The CLI reports the training text's tokens from the training's record (each merge's replacements), not by
    encoding it again: it must be what encoding the text gives."""
    from bpe_core.cli.train import tokens_on_training_text

    specials = ["<|s|>"] if with_special else []
    if with_special:
        text = text.replace("x", "<|s|>")
    result = bpe_core.train(
        text,
        256 + n_merges + len(specials),
        special_tokens=specials,
        pattern=pattern,
        min_frequency=min_frequency,
        max_token_length=max_token_length,
    )
    assert tokens_on_training_text(result) == len(result.tokenizer.encode(text))


@pytest.mark.parametrize("name, pattern", [("chinese_classics.txt", "o200k"), ("tinyshakespeare.txt", "gpt2")])
def test_the_clis_token_count_from_the_record_on_real_text(name, pattern):
    from bpe_core.cli.train import tokens_on_training_text

    text = corpus(name, 60_000)
    result = bpe_core.train(text, 2_000, pattern=pattern)
    assert tokens_on_training_text(result) == len(result.tokenizer.encode(text))
