"""Bad values into the public functions: a TypeError or ValueError (FormatError) with a message, never
another exception, never a hang."""

from __future__ import annotations

import importlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core import formats

pretokenize_module = importlib.import_module("bpe_core.pretokenize.patterns")

ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.binary(max_size=12),
    st.lists(st.integers(-3, 300) | st.text(max_size=3), max_size=4),
    st.dictionaries(st.text(max_size=4), st.integers(-3, 300) | st.text(max_size=3), max_size=3),
)
PATTERNS = st.one_of(
    st.sampled_from(["gpt2", "none", "", "(", "[", "a*", r"\b", "(?:)", ")", "*", r"([\w ]|[\w ])+!|[\s\S]"]),
    st.text(alphabet=list("\\()[]{}?*+|^$.-:=!<>wsdpL0123"), max_size=10),
    ANYTHING,
)


def refused(call, also: tuple[type[Exception], ...] = ()) -> None:
    """Run call; it may succeed, or fail with TypeError/ValueError (or ``also``) carrying a message."""
    try:
        call()
    except (TypeError, ValueError, *also) as error:
        assert str(error), f"{type(error).__name__} without a message"


@pytest.fixture(scope="module")
def tokenizer() -> bpe_core.Tokenizer:
    return bpe_core.train("low lower lowest newer newest " * 5, 270, special_tokens=["<s>"]).tokenizer


@pytest.fixture(autouse=True, scope="module")
def short_regex_budget():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pretokenize_module, "REGEX_TIMEOUT_SECONDS", 0.05)
        yield


@settings(max_examples=150, deadline=None)
@given(text=ANYTHING | st.text(max_size=30), vocab_size=ANYTHING, special_tokens=ANYTHING, pattern=PATTERNS)
def test_train_with_bad_values(text, vocab_size, special_tokens, pattern):
    refused(lambda: bpe_core.train(text, vocab_size, special_tokens=special_tokens, pattern=pattern))


@settings(max_examples=80, deadline=None)
@given(text=ANYTHING | st.text(max_size=30), vocab_size=ANYTHING)
def test_train_classic_with_bad_values(text, vocab_size):
    refused(lambda: bpe_core.train_classic(text, vocab_size))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=ANYTHING)
def test_encode_decode_segment_with_bad_values(tokenizer, value):
    refused(lambda: tokenizer.encode(value))
    refused(lambda: tokenizer.encode_ordinary(value))
    refused(lambda: tokenizer.segment(value))
    refused(lambda: list(tokenizer.encode_iterable(value)))
    refused(lambda: tokenizer.decode(value))
    refused(lambda: tokenizer.decode([value]))
    refused(lambda: tokenizer.truncated(value))


@settings(max_examples=150, deadline=None)
@given(vocab=ANYTHING, merges=ANYTHING, special_tokens=ANYTHING, pattern=PATTERNS)
def test_tokenizer_constructor_with_bad_values(vocab, merges, special_tokens, pattern):
    refused(lambda: bpe_core.Tokenizer(vocab, merges, special_tokens, pattern))


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=40), pattern=PATTERNS)
def test_pretokenize_with_bad_patterns(text, pattern):
    refused(lambda: bpe_core.pretokenize(text, pattern))


@settings(max_examples=60, deadline=None)
@given(name=ANYTHING)
def test_reference_with_bad_names(name):
    refused(lambda: bpe_core.reference(name))


FILE_NAMES = ["t.json", "tokenizer.json", "vocab.json", "merges.txt", "x.tiktoken", "z.zip"]
GARBAGE = st.one_of(
    st.binary(max_size=200),
    st.sampled_from(
        [
            b"{}",
            b"[]",
            b"null",
            b'{"model": []}',
            b'{"model": {"vocab": {}, "merges": []}, "pre_tokenizer": []}',
            b'{"format": "bpe-playground", "version": 1, "merges": [["zz", "61"]]}',
            b'{"format": "bpe-playground", "version": 1, "merges": [], "pattern": "(["}',
            b"\xff\xfe{\x00",
            b"\xef\xbb\xbf{",
            b"PK\x03\x04garbage",
            b"YQ== 0\nYQ== 1\n",
            b"#version: 0.2\na b\n",
        ]
    ),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=GARBAGE, name=st.sampled_from(FILE_NAMES))
def test_load_garbage_files(tmp_path_factory, data, name):
    directory = tmp_path_factory.mktemp("garbage")
    (directory / name).write_bytes(data)
    # A directory without a tokenizer file, or a vocab without its merges beside it: FileNotFoundError.
    for fmt in (None, *formats.FORMATS):
        refused(lambda fmt=fmt: formats.load(directory / name, fmt), also=(FileNotFoundError,))
    refused(lambda: formats.load(directory), also=(FileNotFoundError,))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fmt=ANYTHING, training=ANYTHING)
def test_save_with_bad_values(tokenizer, tmp_path_factory, fmt, training):
    directory = tmp_path_factory.mktemp("save")
    refused(lambda: formats.save(tokenizer, directory, fmt, training=training))


@pytest.mark.parametrize(
    ("special_tokens", "extra_rank", "message"),
    [
        ({"": 300}, None, "a special token cannot be empty"),  # it was put between every two characters
        ({"<|x|>": -1}, None, "token ids must be integers from 0 to 4,294,967,295"),
        ({"<|x|>": 10**30}, None, "token ids must be integers from 0 to 4,294,967,295"),
        ({"<|x|>": 300, "<|y|>": 300}, None, "two special tokens share one id"),  # said: "a regular token has it"
        ({}, 10**30, "token ids must be integers from 0 to 4,294,967,295"),  # tiktoken's ranks are 32-bit
    ],
)
def test_ranks_with_impossible_special_tokens_or_ids_are_refused(special_tokens, extra_rank, message):
    """A differential fuzz against tiktoken found these loading (and encoding with them) where tiktoken refuses."""
    ranks = {bytes([byte]): byte for byte in range(256)} | {b"ab": 256}
    if extra_rank is not None:
        ranks[b"abc"] = extra_rank
    with pytest.raises(ValueError, match=message):
        bpe_core.Tokenizer.from_ranks(ranks, special_tokens)


def test_ids_far_beyond_the_tokens_are_refused_in_every_file_format(tmp_path):
    """A fuzzed vocab.json of 300 tokens, one of them id 4,294,967,295, loaded: the CLI's encode then built 4.3
    billion strings and health asked numpy for 32 GiB. Gaps stay allowed as real files have them (cl100k's specials
    after 100,256), up to twice the tokens plus 65,536; the constructors keep tiktoken's rule (any 32-bit id: a
    model cut to its first merges keeps its ids)."""
    import base64

    from bpe_core.pipeline.pre_tokenizers import BYTE_TO_CHAR

    ranks = {bytes([byte]): byte for byte in range(256)} | {b"ab": 256}
    assert bpe_core.Tokenizer.from_ranks(ranks, {"<|x|>": 10**8}).n_vocab == 10**8 + 1
    vocab = {char: byte for byte, char in BYTE_TO_CHAR.items()} | {"zz": 2**32 - 1}
    (tmp_path / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    (tmp_path / "merges.txt").write_text("#version: 0.2\n", encoding="utf-8")
    (tmp_path / "big.tiktoken").write_text(
        "".join(f"{base64.b64encode(token).decode()} {rank}\n" for token, rank in (ranks | {b"abc": 70_000}).items())
    )
    from bpe_core.formats.huggingface import hf_tokenizer_json

    document = hf_tokenizer_json(bpe_core.train("low lower", 260).tokenizer)
    document["model"]["vocab"]["zz"] = 10**8
    document["normalizer"] = {"type": "NFC"}  # a pipeline, not a plain byte-level file
    (tmp_path / "tokenizer.json").write_text(json.dumps(document), encoding="utf-8")
    for path, top, count in (
        ("vocab.json", 2**32 - 1, 257),
        ("big.tiktoken", 70_000, 258),
        ("tokenizer.json", 10**8, 261),
    ):
        with pytest.raises(formats.FormatError, match=rf"the ids run up to {top:,} for {count} tokens"):
            formats.load(tmp_path / path, pattern="gpt2")
