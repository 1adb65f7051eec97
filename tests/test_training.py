"""The fast trainer against a naive one, the classic toy cases, progress, and bad input."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_bpe import naive_train, naive_train_classic

import bpe_core
from bpe_core import TrainingCancelled, train, train_classic
from bpe_core.pretokenize import PATTERNS

TOY = "low low lower newest newest widest widest widest"


def test_aaabdaaabac():
    result = train("aaabdaaabac", 259)
    assert result.merges == [(b"a", b"a"), (b"aa", b"a"), (b"aaa", b"b")]
    assert result.tokenizer.encode("aaabdaaabac") == [258, 100, 258, 97, 99]


@pytest.mark.parametrize("pattern", ["gpt2", "whitespace", None])
def test_toy_corpus_matches_naive(pattern):
    result = train(TOY, 256 + 20, pattern=pattern)
    assert result.merges == naive_train(TOY, 20, PATTERNS.get(pattern, pattern))


def test_ids_are_bytes_then_merges_then_specials():
    result = train(TOY + "<|endoftext|>" + TOY, 270, special_tokens=["<|endoftext|>", "<pad>"])
    vocab = result.vocab
    assert [vocab[i] for i in range(256)] == [bytes([i]) for i in range(256)]
    n = len(result.merges)
    assert n == 270 - 256 - 2
    assert [vocab[256 + r] for r in range(n)] == [a + b for a, b in result.merges]
    assert result.tokenizer.special_tokens == {"<|endoftext|>": 256 + n, "<pad>": 257 + n}
    assert [record.new_id for record in result.trace] == list(range(256, 256 + n))


def test_stops_early_when_no_pair_is_left():
    result = train("abab", 1000, pattern="whitespace")
    assert result.stopped_early and "no pair left" in result.stop_reason
    assert result.merges == [(b"a", b"b"), (b"ab", b"ab")]
    assert result.tokenizer.n_vocab == 258


# Texts from a tiny alphabet are full of ties, which is where trainers disagree.
tie_heavy_text = st.text(alphabet="ab c\n<|>é", min_size=0, max_size=120)


@settings(max_examples=150, deadline=None)
@given(
    text=tie_heavy_text,
    n_merges=st.integers(0, 40),
    pattern=st.sampled_from(["gpt2", "cl100k", "whitespace", None]),
)
def test_matches_naive_trainer_on_generated_text(text, n_merges, pattern):
    result = train(text, 256 + n_merges, pattern=pattern)
    assert result.merges == naive_train(text, n_merges, PATTERNS.get(pattern, pattern))


@settings(max_examples=60, deadline=None)
@given(text=tie_heavy_text, n_merges=st.integers(0, 30))
def test_matches_naive_trainer_with_special_tokens(text, n_merges):
    specials = ["<|>", "<|"]
    result = train(text, 256 + n_merges + 2, special_tokens=specials)
    assert result.merges == naive_train(text, n_merges, PATTERNS["gpt2"], specials)
    for left, right in result.merges:
        assert b"<|" not in left + right  # special tokens never take part in a merge


def test_matches_naive_trainer_on_english(shakespeare):
    text = shakespeare[:60_000]
    assert train(text, 256 + 300).merges == naive_train(text, 300, PATTERNS["gpt2"])


def test_matches_naive_trainer_on_chinese(chinese):
    text = chinese[:15_000]
    assert train(text, 256 + 200).merges == naive_train(text, 200, PATTERNS["gpt2"])


def test_matches_naive_trainer_without_pretokenization(shakespeare):
    text = shakespeare[:4_000]
    result = train(text, 256 + 150, pattern=None)
    assert result.merges == naive_train(text, 150, None)
    # With no pre-tokenization merges cross word boundaries.
    assert any(b" " in token[1:] for token in (a + b for a, b in result.merges))


def test_trace_counts_agree_with_segmentations(shakespeare):
    """Each round's `replaced` is exactly the drop in the training text's token count."""
    text = shakespeare[:50_000]
    result = train(text, 256 + 400)
    counts = result.tokenizer.segment(text).token_counts()
    for record in result.trace:
        assert counts[record.rank] - counts[record.rank + 1] == record.replaced
        assert record.count >= record.replaced
        assert all(candidate.count <= record.count for candidate in record.candidates)
        assert record.tied == (bool(record.candidates) and record.candidates[0].count == record.count)


def test_trace_records_runner_ups_in_order():
    result = train(TOY, 256 + 3)
    first = result.trace[0]
    counts = [first.count] + [candidate.count for candidate in first.candidates]
    assert counts == sorted(counts, reverse=True)
    assert first.tied  # (t, </w>) style ties: "es", "st" and "t" endings occur equally often


def test_progress_reports_every_percent_and_reaches_the_end(shakespeare):
    calls = []
    train(shakespeare[:100_000], 256 + 500, progress=lambda done, total: calls.append((done, total)))
    total = calls[-1][1]
    assert calls[-1][0] == total
    dones = [done for done, _ in calls]
    assert dones == sorted(dones)
    assert max(b - a for a, b in zip([0, *dones], dones)) <= total // 100 + 1
    assert len(calls) >= 100


def test_progress_reaches_the_end_when_training_stops_early():
    calls = []
    result = train("abab", 1000, pattern="whitespace", progress=lambda done, total: calls.append((done, total)))
    assert result.stopped_early
    assert calls[-1][0] == calls[-1][1]


def test_custom_pattern_with_groups_keeps_whole_matches():
    result = train("abab ab", 258, pattern=r"(ab)+|\s")
    assert result.tokenizer.decode(result.tokenizer.encode("ababab ab")) == "ababab ab"
    assert result.unique_pretokens == 3


def test_progress_exception_cancels_training(shakespeare):
    def cancel(done, total):
        if done > total // 2:
            raise TrainingCancelled

    with pytest.raises(TrainingCancelled):
        train(shakespeare[:50_000], 256 + 300, progress=cancel)


def test_an_unguarded_script_trains_on_megabytes(tmp_path):
    """A script with no ``if __name__ == "__main__":`` guard must not re-run itself in spawned
    processes: over 4 MB, training used to start a process pool that re-imported the script."""
    script = tmp_path / "train_unguarded.py"
    script.write_text(
        textwrap.dedent(
            """
            import random
            import bpe_core

            random.seed(1)
            words = ["".join(random.choice("abcdefghij") for _ in range(random.randint(1, 8))) for _ in range(3000)]
            text = "\\n".join(" ".join(random.choices(words, k=12)) for _ in range(75_000))
            assert len(text) > 4_500_000
            result = bpe_core.train(text, 300, special_tokens=["<|endoftext|>"])
            print(result.tokenizer.n_vocab)
            """
        )
    )
    root = Path(__file__).resolve().parents[1]
    environment = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=environment, cwd=tmp_path
    )
    assert (done.returncode, done.stderr, done.stdout) == (0, "", "300\n")


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"vocab_size": 255}, ValueError, "at least 256"),
        ({"vocab_size": 256, "special_tokens": ["<s>"]}, ValueError, "at least 257"),
        ({"vocab_size": 300.0}, TypeError, "vocab_size must be an int"),
        ({"vocab_size": 300, "pattern": "(unclosed"}, ValueError, "invalid pre-tokenization pattern"),
        ({"vocab_size": 300, "pattern": "[a-z]+"}, ValueError, "does not cover the whole text"),
        ({"vocab_size": 300, "special_tokens": [""]}, ValueError, "non-empty"),
        ({"vocab_size": 300, "special_tokens": ["<s>", "<s>"]}, ValueError, "listed twice"),
        ({"vocab_size": 300, "special_tokens": "<s>"}, TypeError, "not one string"),
    ],
)
def test_bad_settings_are_clear_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        train("some text 123", **kwargs)


def test_bytes_input_is_a_type_error():
    with pytest.raises(TypeError, match="text must be str"):
        train(b"bytes", 300)


def test_classic_bpe_uses_end_of_word_marker():
    result = train_classic(TOY, 30)
    tokens = {left + right for left, right in result.merges}
    assert "est</w>" in tokens
    assert all("</w>" not in token[:-4] for token in tokens)  # the marker only ends a symbol
    tokenizer = result.tokenizer
    assert tokenizer.decode(tokenizer.encode("lowest widest")) == "lowest widest"


def test_classic_bpe_unknown_characters_become_unk():
    tokenizer = train_classic(TOY, 20).tokenizer
    words = tokenizer.encode_words("l😀w")
    assert "😀" in words[0]  # an unseen character stays a symbol of its own
    ids = tokenizer.encode("l😀w")
    assert tokenizer.unknown_id in ids
    assert tokenizer.decode(ids) == "l<unk>w"


@settings(max_examples=80, deadline=None)
@given(text=st.text(alphabet="abc 中文\n", max_size=80), n_merges=st.integers(0, 25))
def test_classic_bpe_matches_naive_classic_trainer(text, n_merges):
    base = len(set(text.split() and "".join(text.split()))) + 1
    result = train_classic(text, base + n_merges)
    assert result.merges == naive_train_classic(text, n_merges)


def test_classic_bpe_matches_naive_on_english(shakespeare):
    text = shakespeare[:30_000]
    base = len(set("".join(text.split()))) + 1
    assert train_classic(text, base + 150).merges == naive_train_classic(text, 150)


def test_classic_bpe_rejects_too_small_vocab():
    with pytest.raises(ValueError, match="distinct characters"):
        train_classic(TOY, 5)


def test_public_api_is_small():
    assert {"train", "train_classic", "Tokenizer"} <= set(bpe_core.__all__)
