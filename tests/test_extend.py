"""``bpe_core.extend``: new merges appended to a loaded tokenizer, held merge for merge to a naive
extender (tests/naive_options.py: the base's educational encoding, then naive counting), every base
id, merge and special kept, and the result read back by the peers in the base's own format
(Hugging Face ``tokenizers`` for a tokenizer.json with merges appended, tiktoken for ranks)."""

from __future__ import annotations

import json

import pytest
import tiktoken
import tokenizers
from conftest import corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive_options import naive_extend

import bpe_core
from bpe_core.formats import load
from bpe_core.reference import ReferenceDataError

SPECIAL = "<|end|>"
texts = st.lists(st.sampled_from([*"ab c\nd!é", SPECIAL]), max_size=100).map("".join)
SAMPLE = "The tokenizer was extended to Portuguese: não, coração, informação, ação. " * 3


def base_of(kind: str, text: str):
    """A base trained here: as trained (merges), as tiktoken ranks, or with a special token and no pattern."""
    if kind == "ranks":
        trained = bpe_core.train(text, 270, special_tokens=[SPECIAL]).tokenizer
        return bpe_core.Tokenizer.from_ranks(trained.mergeable_ranks, trained.special_tokens, "gpt2")
    if kind == "unsplit":
        return bpe_core.train(text, 266, special_tokens=[SPECIAL], pattern=None).tokenizer
    return bpe_core.train(text, 270, special_tokens=[SPECIAL]).tokenizer


def assert_keeps_base(base, extended) -> None:
    """Every base id with its bytes, every special with its id, the base's merges first."""
    vocab = extended.vocab
    assert all(vocab[identifier] == token for identifier, token in base.vocab.items())
    assert extended.special_tokens == base.special_tokens
    assert extended.merges[: len(base.merges)] == base.merges
    assert min(set(vocab) - set(base.vocab), default=max(vocab) + 1) == max(base.vocab) + 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["merges", "ranks", "unsplit"]), texts, st.lists(texts, min_size=1, max_size=3), st.integers(0, 25)
)
def test_extend_equals_naive(kind, base_text, documents, n_new):
    base = base_of(kind, base_text + " abc dab cab")
    result = bpe_core.extend(base, documents, len(base.vocab) + n_new)
    assert result.merges == naive_extend(base, documents, n_new)
    assert_keeps_base(base, result.tokenizer)
    assert len(result.tokenizer.vocab) == len(base.vocab) + len(result.merges)


@settings(max_examples=40, deadline=None)
@given(texts, st.integers(0, 20), st.integers(0, 4), st.sampled_from([None, 2, 3, 5]))
def test_options_equal_naive(text, n_new, min_frequency, max_token_length):
    base = base_of("merges", "abc dab cab")
    result = bpe_core.extend(
        base, text, len(base.vocab) + n_new, min_frequency=min_frequency, max_token_length=max_token_length
    )
    assert result.merges == naive_extend(base, [text], n_new, min_frequency, max_token_length)


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "llama3"])
def test_real_base_equals_naive(name):
    try:
        base = bpe_core.reference(name)
    except ReferenceDataError as error:  # the open models' packages are optional (requirements-models.txt)
        pytest.skip(str(error))
    text = SAMPLE + "<|endoftext|>" + SAMPLE.upper()
    result = bpe_core.extend(base, text, len(base.vocab) + 12)
    assert result.merges == naive_extend(base, [text], 12)
    assert result.first_new_id == max(base.vocab) + 1
    assert result.tokenizer.decode(result.tokenizer.encode(text)) == text
    assert len(result.tokenizer.encode(text)) < len(base.encode(text))


def test_shared_corpora_equal_naive():
    base = bpe_core.train(corpus("tinyshakespeare.txt", 30_000), 300).tokenizer
    text = corpus("chinese_classics.txt", 4_000)
    assert bpe_core.extend(base, text, 330).merges == naive_extend(base, [text], 30)
    gpt2, docs = bpe_core.reference("gpt2"), corpus("docs10m.txt", 6_000)
    assert bpe_core.extend(gpt2, docs, len(gpt2.vocab) + 25).merges == naive_extend(gpt2, [docs], 25)


@settings(max_examples=30, deadline=None)
@given(texts, texts, st.integers(0, 20), st.lists(texts, max_size=3))
def test_tiktoken_reads_extended_trained_ranks(base_text, text, n_new, probes):
    base = base_of("ranks", base_text + " abc dab")
    extended = bpe_core.extend(base, text, len(base.vocab) + n_new).tokenizer
    peer = tiktoken.Encoding(
        "extended",
        pat_str=base.pattern_regex,
        mergeable_ranks=extended.mergeable_ranks,
        special_tokens=extended.special_tokens,
    )
    for sample in [text, *probes]:
        assert peer.encode(sample, allowed_special="all") == extended.encode(sample)


def test_tiktoken_reads_extended_ranks(tmp_path):
    base = bpe_core.reference("cl100k_base")
    text = SAMPLE + " Ação e coração.<|endoftext|>" + SAMPLE
    result = bpe_core.extend(base, text, len(base.vocab) + 40)
    extended = result.tokenizer
    (path,) = bpe_core.save_extension(result, tmp_path, "tiktoken")
    reloaded = load(path, special_tokens=base.special_tokens, pattern=base.pattern)
    peer = tiktoken.Encoding(
        "extended",
        pat_str=base.pattern_regex,
        mergeable_ranks=reloaded.mergeable_ranks,
        special_tokens=base.special_tokens,
    )
    for sample in (text, SAMPLE.lower(), "informação coração não", "<|endoftext|>ação"):
        assert peer.encode(sample, allowed_special="all") == extended.encode(sample) == reloaded.encode(sample)
    assert any(identifier >= result.first_new_id for identifier in extended.encode(text))


@settings(max_examples=25, deadline=None)
@given(texts, st.lists(texts, min_size=1, max_size=2), st.integers(0, 20), texts)
def test_tokenizers_reads_appended_json(tmp_path_factory, base_text, documents, n_new, probe):
    folder = tmp_path_factory.mktemp("hf")
    (source,) = bpe_core.save(base_of("merges", base_text + " abc dab"), folder, "hf")
    base = load(source)
    result = bpe_core.extend(base, documents, len(base.vocab) + n_new)
    (path,) = bpe_core.save_extension(result, folder / "extended", "hf", source=source)
    peer = tokenizers.Tokenizer.from_file(str(path))
    for sample in [*documents, probe]:
        assert peer.encode(sample, add_special_tokens=False).ids == result.tokenizer.encode(sample)
    before, after = json.loads(source.read_text()), json.loads(path.read_text())
    assert after["model"]["merges"][: len(before["model"]["merges"])] == before["model"]["merges"]
    assert after["added_tokens"] == before["added_tokens"] and after["pre_tokenizer"] == before["pre_tokenizer"]


def test_gpt2_json_pairs_keep_their_spelling(tmp_path):
    """A tokenizer.json whose merges are [left, right] pairs gets its new ones as pairs too; without
    ``ignore_merges`` (GPT-2's file: tokenizers then applies merges pair by pair) the ids stay equal."""
    (source,) = bpe_core.save(bpe_core.train("abc abd " * 5, 260).tokenizer, tmp_path, "hf")
    spec = json.loads(source.read_text())
    spec["model"]["merges"] = [merge.split(" ") for merge in spec["model"]["merges"]]
    del spec["model"]["ignore_merges"]
    source.write_text(json.dumps(spec))
    result = bpe_core.extend(load(source), "xyz xyz xyw", 263)
    (path,) = bpe_core.save_extension(result, tmp_path / "out", "hf", source=source)
    merges = json.loads(path.read_text())["model"]["merges"]
    assert merges[-3:] == [[left.decode(), right.decode()] for left, right in result.merges]
    peer = tokenizers.Tokenizer.from_file(str(path))
    for sample in ("xyz xyw", "abc xyzabd", "xyxyzz abd"):
        assert peer.encode(sample).ids == result.tokenizer.encode(sample)


def test_extend_files_equals_extend(tmp_path):
    base = bpe_core.reference("gpt2")
    (tmp_path / "a.txt").write_text(SAMPLE, encoding="utf-8")
    (tmp_path / "b.txt").write_text(SAMPLE.upper(), encoding="utf-8")
    from_files = bpe_core.extend_files(base, tmp_path / "*.txt", len(base.vocab) + 10)
    assert from_files.merges == bpe_core.extend(base, [SAMPLE, SAMPLE.upper()], len(base.vocab) + 10).merges


def test_refusals():
    base = bpe_core.train("abc", 257).tokenizer
    with pytest.raises(ValueError, match="smaller than the base's 257 tokens"):
        bpe_core.extend(base, "abc", 256)
    with pytest.raises(TypeError, match="byte-level bpe_core.Tokenizer"):
        bpe_core.extend(bpe_core.train_classic("abc", 10).tokenizer, "abc", 300)
    with pytest.raises(ValueError, match="min_frequency"):
        bpe_core.extend(base, "abc", 260, min_frequency=-1)
    assert bpe_core.extend(base, "", 300).stop_reason.startswith("no pair left")
