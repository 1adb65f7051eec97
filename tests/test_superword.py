"""Superword (SuperBPE) training against a naive two-stage trainer; encoding, lifetimes and formats."""

from __future__ import annotations

import pytest
import tokenizers
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_superword import naive_chunks, naive_train_superword

import bpe_core
from bpe_core import formats, train, train_superword
from bpe_core.pretokenize.superword import SUPERWORD_PATTERN, is_superword
from bpe_core.training.superword import _ChunkEncoder, superword_allowed

# Words, spaces, single and double punctuation, a colon, digits, newlines: every rule gets hit.
superword_text = st.text(alphabet="ab c:.,\n1é", max_size=120)


@settings(max_examples=150, deadline=None)
@given(text=superword_text)
def test_chunks_are_those_of_an_isolated_split(text):
    assert bpe_core.pretokenize(text, SUPERWORD_PATTERN) == naive_chunks(text)


@settings(max_examples=200, deadline=None)
@given(text=superword_text, n_merges=st.integers(0, 40), transition=st.integers(0, 40), max_words=st.integers(1, 4))
def test_matches_the_naive_two_stage_trainer(text, n_merges, transition, max_words):
    result = train_superword(text, 256 + n_merges, transition=transition, max_words=max_words)
    merges, stage1_merges = naive_train_superword(text, n_merges, transition, max_words)
    assert result.merges == merges
    assert result.settings["stage1_merges"] == stage1_merges
    tokenizer = result.tokenizer
    assert tokenizer.decode(tokenizer.encode(text)) == text
    if transition < n_merges:
        assert is_superword(tokenizer)
        assert all(superword_allowed(a + b, max_words) for a, b in result.merges[stage1_merges:])
        # Training ends with the segmentation the tokenizer gives: each stage-2 round removes as
        # many tokens from the training text as the tokenizer, truncated there, says it does.
        counts = tokenizer.segment(text).token_counts()
        for record in result.trace[stage1_merges:]:
            assert counts[record.rank] - counts[record.rank + 1] == record.replaced


@settings(max_examples=60, deadline=None)
@given(text=superword_text, n_merges=st.integers(0, 30), transition=st.integers(0, 30))
def test_special_tokens_split_and_never_merge(text, n_merges, transition):
    specials = ["<|>", "::"]
    result = train_superword(text, 256 + n_merges + 2, transition=transition, special_tokens=specials)
    merges, _ = naive_train_superword(text, n_merges, transition, 4, specials)
    assert result.merges == merges
    tokenizer = result.tokenizer
    assert tokenizer.decode(tokenizer.encode(text + "<|>")) == text + "<|>"
    assert tokenizer.encode("<|>") == [tokenizer.special_tokens["<|>"]]


@pytest.mark.parametrize("transition", [300, 301, 10_000])
def test_transition_at_all_merges_is_plain_training(shakespeare, transition):
    text = shakespeare[:40_000]
    plain = train(text, 256 + 300)
    result = train_superword(text, 256 + 300, transition=transition)
    assert result.trace == plain.trace
    assert result.tokenizer.pattern == "gpt2" and not is_superword(result.tokenizer)
    assert result.tokenizer.encode(text[:5000]) == plain.tokenizer.encode(text[:5000])
    assert result.settings["kind"] == "superword" and result.settings["stage1_merges"] == 300


@pytest.fixture(scope="module")
def superword(shakespeare):
    text = shakespeare[:100_000]
    return text, train_superword(text, 256 + 600, transition=300, max_words=3)


def test_both_stages_in_one_trace(superword):
    text, result = superword
    assert [record.rank for record in result.trace] == list(range(600))
    assert [record.new_id for record in result.trace] == list(range(256, 856))
    assert result.settings["transition"] == result.settings["stage1_merges"] == 300
    assert result.trace[:300] == train(text, 256 + 300).trace  # stage 1 is plain training
    superwords = [a + b for a, b in result.merges[300:] if b" " in (a + b).strip(b" ")]
    assert len(superwords) > 20 and b", and" in superwords
    assert all(superword_allowed(a + b, 3) for a, b in result.merges[300:])
    chunks = bpe_core.pretokenize(text, SUPERWORD_PATTERN)
    assert result.unique_pretokens == len(result.pretoken_counts) == len(set(chunks))


def test_trace_counts_agree_with_the_encoder(superword):
    """Stage 2 starts from the encoder's segmentation: each stage-2 round's ``replaced`` is exactly the
    drop in the training text's token count, as the tokenizer itself encodes it."""
    text, result = superword
    counts = result.tokenizer.segment(text).token_counts()
    for record in result.trace[300:]:
        assert counts[record.rank] - counts[record.rank + 1] == record.replaced
    assert counts[-1] == len(result.tokenizer.encode(text))


def test_segmentation_at_every_size_is_the_truncated_encoding(superword):
    text, result = superword
    tokenizer = result.tokenizer
    sample = text[:3000] + " 12345 -- ok:  fine\n\n"
    segmentation = tokenizer.segment(sample)
    for k in (0, 100, 299, 300, 301, 450, 600):
        truncated = tokenizer.truncated(k)
        assert segmentation.tokens_at(k) == truncated.decode_tokens_bytes(truncated.encode(sample))


def test_a_stage1_merge_may_join_two_gpt2_pretokens_inside_a_chunk():
    """GPT-2 cuts "a\n\nb" into "a", "\n", "\n", "b" (and "a\n\n\nb" into "a", "\n\n", "\n", "b", so
    stage 1 learns "\n" + "\n"); in a stage-2 chunk that merge joins the two newlines. Training
    starts stage 2 from the encoder's segmentation, so both see the same tokens."""
    text = "a\n\n\nb " * 20 + "a\n\nb " * 5
    result = train_superword(text, 256 + 12, transition=2)
    stage1 = train(text, 256 + 2).tokenizer
    assert (b"\n", b"\n") in stage1.merges
    assert stage1.decode_tokens_bytes(stage1.encode("a\n\nb")) == [b"a", b"\n", b"\n", b"b"]
    at_transition = result.tokenizer.truncated(2)
    assert at_transition.decode_tokens_bytes(at_transition.encode("a\n\nb")) == [b"a", b"\n\n", b"b"]
    assert result.merges == naive_train_superword(text, 12, 2)[0]
    counts = result.tokenizer.segment(text).token_counts()
    assert all(counts[record.rank] - counts[record.rank + 1] == record.replaced for record in result.trace[2:])


def test_saved_and_loaded_in_the_formats_that_keep_the_pattern(superword, tmp_path):
    text, result = superword
    tokenizer = result.tokenizer
    sample = text[:20_000]
    for fmt in ("bpe-playground", "hf"):
        paths = formats.save(tokenizer, tmp_path / fmt, fmt)
        loaded = formats.load(paths[0])
        assert is_superword(loaded)
        assert loaded.merges == tokenizer.merges
        assert loaded.encode(sample) == tokenizer.encode(sample)
    hf = tokenizers.Tokenizer.from_file(str(tmp_path / "hf" / "tokenizer.json"))
    assert hf.encode(sample, add_special_tokens=False).ids == tokenizer.encode(sample)


@pytest.mark.parametrize("fmt", ["gpt2", "tiktoken"])
def test_formats_without_a_pattern_refuse_a_superword_tokenizer(superword, tmp_path, fmt):
    tokenizer = superword[1].tokenizer
    with pytest.raises(ValueError, match=f"superword tokenizer cannot be saved in {fmt} format"):
        formats.save(tokenizer, tmp_path, fmt)
    assert list(tmp_path.iterdir()) == []
    formats.save(bpe_core.Tokenizer(tokenizer.vocab, tokenizer.merges), tmp_path, fmt)  # the same, pattern gpt2


def test_progress_reaches_the_end(shakespeare):
    calls = []
    train_superword(shakespeare[:20_000], 256 + 100, transition=50, progress=lambda *call: calls.append(call))
    assert calls[-1][0] == calls[-1][1]
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"transition": -1}, ValueError, "transition must be at least 0"),
        ({"transition": 1.5}, TypeError, "transition must be an int"),
        ({"transition": 5, "max_words": 0}, ValueError, "max_words must be at least 1"),
        ({"transition": True}, TypeError, "transition must be an int"),
    ],
)
def test_bad_settings_are_clear_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        train_superword("some text", 300, **kwargs)


def test_chunks_are_encoded_as_the_tokenizer_encodes_a_whole_chunk(docs):
    """Stage 2's start cuts chunks where no merge can join and merges the parts alone: the same ids
    as a tokenizer of the stage-1 merges given each whole chunk as one piece."""
    text = docs[:200_000]
    stage1 = train(text, 256 + 2000)
    whole_chunks = bpe_core.Tokenizer(stage1.vocab, stage1.merges, pattern=None)
    encoder = _ChunkEncoder(list(stage1.vocab.values()), stage1.merges)
    chunks = set(bpe_core.pretokenize(text, SUPERWORD_PATTERN)) | {"\n\n\n", " the", "a\n\nb", "  x"}
    for chunk in chunks:
        assert encoder.encode(chunk) == whole_chunks.encode_ordinary(chunk), chunk


def test_streamed_encoding_is_whole_text_encoding(superword, docs):
    tokenizer = superword[1].tokenizer
    sample = docs[:100_000]
    assert list(tokenizer.encode_iterable(sample.splitlines(keepends=True))) == tokenizer.encode(sample)
