"""The encoder's ids are tiktoken's for five models' ranks, on random text full of what splits and merges oddly:
CJK runs, emoji with skin tones and joiners, combining marks, whitespace runs, digits, ASCII words, any character.

tiktoken is the independent reference: ``tiktoken.Encoding`` built from the same ranks, pattern and (for Qwen)
NFC normalization. Each text is encoded twice by our side: with an empty cache and no tables (the one-piece
loop a short first call takes), and with an empty cache and the byte batch built (the numpy path that a long
text's new pre-tokens take). Open models whose packages are missing are skipped (requirements-models.txt).
"""

from __future__ import annotations

import functools
import unicodedata

import numpy as np
import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import Tokenizer
from bpe_core.encoding.fast.byte_batch import _as_integers
from bpe_core.encoding.fast.routes import BATCH_MIN_PIECES
from bpe_core.reference import ReferenceDataError, build_reference

NAMES = ["gpt2", "cl100k_base", "o200k_base", "llama3", "qwen2.5"]


@functools.cache
def _pair(name: str) -> tuple[Tokenizer, tiktoken.Encoding]:
    ours = build_reference(name)
    assert isinstance(ours, Tokenizer)
    theirs = tiktoken.Encoding(
        f"test-{name}", pat_str=ours.pattern_regex, mergeable_ranks=ours.mergeable_ranks, special_tokens={}
    )
    return ours, theirs


def pair(name: str) -> tuple[Tokenizer, tiktoken.Encoding]:
    try:
        return _pair(name)
    except ReferenceDataError as error:
        pytest.skip(f"{name} is not installed: {error}")


def expected(name: str, text: str) -> list[int]:
    ours, theirs = pair(name)
    return theirs.encode_ordinary(unicodedata.normalize(ours.normalization, text) if ours.normalization else text)


def _chars(low: int, high: int) -> st.SearchStrategy[str]:
    return st.characters(min_codepoint=low, max_codepoint=high)


CJK = st.text(st.one_of(_chars(0x4E00, 0x9FFF), _chars(0x3040, 0x30FF), st.sampled_from("，。、「」的了是")), min_size=1, max_size=24)
EMOJI = st.lists(
    st.one_of(_chars(0x1F300, 0x1FAFF), st.sampled_from(["\u200d", "\U0001f3fd", "\ufe0f", "👍🏽", "👨‍👩‍👧"])),
    min_size=1,
    max_size=6,
).map("".join)
COMBINING = st.tuples(st.sampled_from("aeoAEnc \u0915\u0627"), st.text(_chars(0x0300, 0x036F), min_size=1, max_size=4)).map("".join)
WHITESPACE = st.text(st.sampled_from(" \t\n\r\u00a0\u3000\u2028\x0b"), min_size=1, max_size=8)
DIGITS = st.from_regex(r"\A ?[0-9]{1,12}\Z")
WORDS = st.from_regex(r"\A ?[A-Za-z]{1,12}('s|'LL)?\Z")
ANY = st.text(st.characters(codec="utf-8"), max_size=8)
SEGMENT = st.one_of(CJK, EMOJI, COMBINING, WHITESPACE, DIGITS, WORDS, ANY)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40, deadline=None)
@given(segments=st.lists(SEGMENT, max_size=12))
def test_a_first_call_gives_tiktokens_ids(name, segments):
    """An empty cache and no tables: short texts take the one-piece loop."""
    text = "".join(segments)
    ours, _ = pair(name)
    ours.forget_encodings()
    assert ours.encode_ordinary(text) == expected(name, text)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=15, deadline=None)
@given(segments=st.lists(SEGMENT, min_size=BATCH_MIN_PIECES * 2, max_size=BATCH_MIN_PIECES * 4))
def test_the_byte_batch_gives_tiktokens_ids(name, segments):
    """An empty cache with the tables built: a call's new pre-tokens (over BATCH_MIN_PIECES) go to the batch."""
    text = " ".join(segments)
    ours, _ = pair(name)
    pieces = ours._pieces
    assert pieces._byte_batch is not None  # built (once per test run), kept across examples
    pieces._cache.clear()  # but nothing remembered from the last example
    assert ours.encode_ordinary(text) == expected(name, text)


@settings(max_examples=60, deadline=None)
@given(tokens=st.lists(st.binary(min_size=1, max_size=8), max_size=40))
def test_tokens_packed_as_integers_are_their_big_endian_values(tokens):
    sizes = np.array([len(token) for token in tokens], dtype=np.int64)
    packed = _as_integers(b"".join(tokens), sizes).tolist()
    assert packed == [int.from_bytes(token, "big") for token in tokens]
