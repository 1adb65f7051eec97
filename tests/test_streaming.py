"""Streaming pre-tokenization: any text, cut anywhere, gives the pre-tokens of the whole text."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import train
from bpe_core.pretokenize import PATTERNS, pretokenize, split_on_special
from bpe_core.pretokenize.streaming import replace_surrogates, stream_pretokens

streaming = importlib.import_module("bpe_core.pretokenize.streaming")

SPECIALS = ["<|endoftext|>", "<|end|>", "<s>"]
# Fragments chosen to sit on the patterns' edges: runs of each class, contractions, CRLF,
# cases (o200k splits on them), marks, CJK, emoji (a ZWJ sequence), digits in long runs, the
# apostrophe alone, and special tokens and their prefixes.
FRAGMENTS = [
    "a",
    "Z",
    "abc",
    "ABC",
    "aBc",
    "É",
    "é",
    "\u0301",
    "中文",
    "字",
    "Ω",
    "ǅ",
    "ʰ",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\u00a0",
    "\u2028",
    "\x0b",
    "1",
    "23",
    "4567",
    "٣",
    "²",
    "'",
    "'s",
    "'ll",
    "'VE",
    "'re",
    "'d",
    ",",
    "!",
    "...",
    "/",
    "//",
    "-",
    "{",
    '"',
    "🙂",
    "👩\u200d💻",
    "\u200d",
    "\u200c",
    "<|endoftext|>",
    "<|end|>",
    "<s>",
    "<|end",
    "|>",
    "<",
    "s>",
    "\ud83d",
    "\ude00",
    "\udb1d",
]
TEXTS = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join)
CUSTOM_PATTERN = r"\w+|[^\w\s]+|\s+(?!\S)|\s"


def whole(text: str, pattern: str | None, specials) -> list[str | tuple[str]]:
    """Pre-tokens of the whole text, special tokens as 1-tuples."""
    out: list[str | tuple[str]] = []
    for piece, is_special in split_on_special(replace_surrogates(text), specials):
        out.extend([(piece,)] if is_special else pretokenize(piece, pattern))
    return out


def streamed(parts: list[str], pattern: str | None, specials, chunk_chars: int) -> list[str | tuple[str]]:
    out: list[str | tuple[str]] = []
    for pieces, special in stream_pretokens(parts, pattern, specials, chunk_chars=chunk_chars):
        out.extend(pieces)
        if special is not None:
            out.append((special,))
    return out


def cut(text: str, cuts: list[int]) -> list[str]:
    offsets = sorted({min(c, len(text)) for c in cuts})
    return [text[a:b] for a, b in zip([0, *offsets], [*offsets, len(text)])]


@pytest.mark.parametrize("pattern", [*PATTERNS, CUSTOM_PATTERN, None])
@settings(max_examples=250, deadline=None)
@given(text=TEXTS, chunk_chars=st.integers(1, 6), with_specials=st.booleans())
def test_streamed_character_by_character_equals_the_whole_text(pattern, text, chunk_chars, with_specials):
    # One character at a time puts the end of the buffer (almost) everywhere.
    specials = SPECIALS if with_specials else []
    assert streamed(list(text), pattern, specials, chunk_chars) == whole(text, pattern, specials)


@pytest.mark.parametrize("pattern", [*PATTERNS, CUSTOM_PATTERN, None])
@settings(max_examples=100, deadline=None)
@given(
    text=TEXTS,
    cuts=st.lists(st.integers(0, 200), max_size=12),
    chunk_chars=st.integers(1, 24),
    with_specials=st.booleans(),
)
def test_streamed_in_random_parts_equals_the_whole_text(pattern, text, cuts, chunk_chars, with_specials):
    specials = SPECIALS if with_specials else []
    assert streamed(cut(text, cuts), pattern, specials, chunk_chars) == whole(text, pattern, specials)


@pytest.mark.parametrize("pattern", list(PATTERNS))
@settings(max_examples=60, deadline=None)
@given(
    runs=st.lists(
        st.tuples(st.sampled_from([" ", "\n", "a", "A", "1", "!", "中", "\r\n", "'"]), st.integers(1, 40)), max_size=8
    ),
    cuts=st.lists(st.integers(0, 300), max_size=8),
)
def test_long_runs_of_one_class_stream_exactly(pattern, runs, cuts):
    text = "".join(fragment * count for fragment, count in runs)
    assert streamed(cut(text, cuts), pattern, [], 3) == whole(text, pattern, [])


def test_text_from_a_real_corpus_streams_exactly(docs):
    text = docs[:100_000]
    parts = [text[i : i + 777] for i in range(0, len(text), 777)]
    for pattern in PATTERNS:
        assert streamed(parts, pattern, [], 1000) == whole(text, pattern, [])


@settings(max_examples=40, deadline=None)
@given(text=TEXTS, cuts=st.lists(st.integers(0, 200), max_size=10))
def test_encode_iterable_equals_encode(text, cuts, monkeypatch_module):
    tokenizer = trained_tokenizer()
    assert list(tokenizer.encode_iterable(cut(text, cuts))) == tokenizer.encode(text)
    batches = list(tokenizer.encode_iterable_batches(cut(text, cuts)))
    assert [token_id for batch in batches for token_id in batch] == tokenizer.encode(text)


_TOKENIZER = []


def trained_tokenizer():
    if not _TOKENIZER:
        corpus = "".join(FRAGMENTS[:-3]) * 3 + "lower lowest newer newest 'll don't 1234567 "
        _TOKENIZER.append(train(corpus * 5, 300, special_tokens=SPECIALS).tokenizer)
    return _TOKENIZER[0]


@pytest.fixture(scope="module")
def monkeypatch_module():
    # Small buffers, so that the hypothesis examples (a few dozen characters) are cut many times.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(streaming, "STREAM_CHUNK_CHARS", 4)
        yield


def test_one_huge_pretoken_is_read_in_few_rounds(monkeypatch):
    # A run of letters with no end grows the kept text; each round waits for twice as much, so
    # the text is re-read a logarithmic number of times (linear work in all), not once per part.
    calls = []

    def counting_pretokenize(text, pattern):
        calls.append(len(text))
        return pretokenize(text, pattern)

    monkeypatch.setattr(streaming, "pretokenize", counting_pretokenize)
    batches = list(stream_pretokens(["a" * 100] * 1000, "gpt2", [], chunk_chars=100))
    assert batches == [(["a" * 100_000], None)]
    assert len(calls) <= 12 and sum(calls) <= 3 * 100_000


def test_surrogate_pairs_split_between_chunks_are_joined():
    assert streamed(["x\ud83d", "\ude00y"], "gpt2", [], 1) == whole("x\ud83d\ude00y", "gpt2", [])
    assert whole("x\ud83d\ude00y", "gpt2", []) == ["x", "\U0001f600", "y"]


def test_bad_arguments_are_refused():
    with pytest.raises(TypeError, match="not one string"):
        list(stream_pretokens("text", "gpt2"))
    with pytest.raises(TypeError, match="must yield strings"):
        list(stream_pretokens([b"bytes"], "gpt2"))
    with pytest.raises(ValueError, match="at least 1"):
        list(stream_pretokens(["a"], "gpt2", chunk_chars=0))
