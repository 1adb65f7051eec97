"""The encoder's ids are tiktoken's for five models' ranks, on random text full of what splits and merges oddly:
CJK runs, emoji with skin tones and joiners, combining marks, whitespace runs, digits, ASCII words, any character.

tiktoken is the independent reference: ``tiktoken.Encoding`` built from the same ranks, pattern and (for Qwen)
NFC normalization. Each text is encoded twice by our side: with an empty cache and no tables (the one-piece
loop a short first call takes), and with an empty cache and the byte batch built (the numpy path that a long
text's new pre-tokens take). Open models whose packages are missing are skipped (requirements-models.txt).
"""

from __future__ import annotations

import functools
import random
import unicodedata

import numpy as np
import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import Tokenizer, train
from bpe_core.encoding.educational import SimpleTokenizer
from bpe_core.encoding.fast import batch_steps, cuts
from bpe_core.encoding.fast.byte_batch import _as_integers
from bpe_core.encoding.fast.routes import BATCH_MIN_PIECES, CUTS_MIN_PIECES
from bpe_core.reference import ReferenceDataError, build_reference

NAMES = ["gpt2", "cl100k_base", "o200k_base", "llama3", "qwen2.5"]
CUT_NAMES = [*NAMES, "qwen3.6", "mistral-tekken"]  # Qwen 3.6: Chinese phrases that merges cannot make (毛泽东)


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


HAN = st.one_of(_chars(0x4E00, 0x9FFF), _chars(0x3040, 0x30FF), st.sampled_from("，。、「」的了是子曰之毛泽东"))
CJK = st.text(HAN, min_size=1, max_size=24)
EMOJI = st.lists(
    st.one_of(_chars(0x1F300, 0x1FAFF), st.sampled_from(["\u200d", "\U0001f3fd", "\ufe0f", "👍🏽", "👨‍👩‍👧"])),
    min_size=1,
    max_size=6,
).map("".join)
MARKS = st.text(_chars(0x0300, 0x036F), min_size=1, max_size=4)
COMBINING = st.tuples(st.sampled_from("aeoAEnc \u0915\u0627"), MARKS).map("".join)
WHITESPACE = st.text(st.sampled_from(" \t\n\r\u00a0\u3000\u2028\x0b"), min_size=1, max_size=8)
DIGITS = st.from_regex(r"\A ?[0-9]{1,12}\Z")
WORDS = st.from_regex(r"\A ?[A-Za-z]{1,12}('s|'LL)?\Z")
ANY = st.text(st.characters(codec="utf-8"), max_size=8)
SEGMENT = st.one_of(CJK, EMOJI, COMBINING, WHITESPACE, DIGITS, WORDS, ANY)


_HAN_EXTRA = "，。、「」的了是子曰之毛泽东"
_EMOJI_EXTRA = ("\u200d", "\U0001f3fd", "\ufe0f", "👍🏽", "👨\u200d👩\u200d👧")
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _made_segment(rng: random.Random) -> str:
    """One segment of the kinds :data:`SEGMENT` draws, made by ``rng``: the bulk of a long text (:data:`BULK`)."""

    def run(low: int, high: int, most: int, extra: tuple[str, ...] | str = ()) -> str:
        made = (chr(rng.randint(low, high)) for _ in range(rng.randint(1, most)))
        return "".join(rng.choice(extra) if extra and rng.random() < 0.3 else char for char in made)

    kind = rng.randrange(7)
    if kind == 0:
        return run(*rng.choice(((0x4E00, 0x9FFF), (0x3040, 0x30FF))), 24, _HAN_EXTRA)
    if kind == 1:
        return run(0x1F300, 0x1FAFF, 6, _EMOJI_EXTRA)
    if kind == 2:
        return rng.choice("aeoAEnc \u0915\u0627") + run(0x300, 0x36F, 4)
    if kind == 3:
        return "".join(rng.choice(" \t\n\r\u00a0\u3000\u2028\x0b") for _ in range(rng.randint(1, 8)))
    space = rng.choice(("", " "))
    if kind == 4:
        return space + "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 12)))
    if kind == 5:
        word = "".join(rng.choice(_LETTERS) for _ in range(rng.randint(1, 12)))
        return space + word + rng.choice(("", "'s", "'LL"))
    planes = ((0, 0x7FF), (0x800, 0xD7FF), (0xE000, 0xFFFF), (0x10000, 0x10FFFF))  # every UTF-8 length, no surrogate
    return "".join(chr(rng.randint(*rng.choice(planes))) for _ in range(rng.randint(0, 8)))


_pool_rng = random.Random(25)
POOL = [_made_segment(_pool_rng) for _ in range(4_000)]
BULK = st.lists(st.sampled_from(POOL), min_size=BATCH_MIN_PIECES * 2, max_size=BATCH_MIN_PIECES * 3)
"""Many segments of every kind at one draw each: a segment drawn through :data:`SEGMENT` costs Hypothesis tens of
draws, and the tests that need over BATCH_MIN_PIECES new pre-tokens spent three quarters of their time drawing.
Drawn beside a few :data:`SEGMENT` s, which keep the open-ended search (and shrink to the segment that fails)."""


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
@given(
    drawn=st.lists(SEGMENT, max_size=12),
    bulk=BULK,
    finish_below=st.sampled_from([0, batch_steps.FINISH_BELOW]),
)
def test_the_byte_batch_gives_tiktokens_ids(name, drawn, bulk, finish_below):
    """An empty cache with the tables built: a call's new pre-tokens (over BATCH_MIN_PIECES) go to the batch, whose
    steps run to the end (0) or hand their last pieces to the loop (as shipped)."""
    text = " ".join(bulk + drawn)
    ours, _ = pair(name)
    pieces = ours._pieces
    assert pieces._byte_batch is not None  # built (once per test run), kept across examples
    pieces._cache.clear()  # but nothing remembered from the last example
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(batch_steps, "FINISH_BELOW", finish_below)
        assert ours.encode_ordinary(text) == expected(name, text)


# A vocabulary trained on a few CJK characters (tokens of whole characters, and across them), and a handmade
# one whose tokens also start or end inside a character while lying across two: every kind of crossing.
_CJK_ALPHABET = "子曰學而時習之不亦說乎"
_rng = random.Random(7)
CJK_SAMPLE = " ".join("".join(_rng.choices(_CJK_ALPHABET, k=_rng.randint(1, 9))) for _ in range(3000))
_ZI, _YUE = "子".encode(), "曰".encode()  # e5 ad 90, e6 9b b0
_HANDMADE_MERGES = [
    (b"\x90", b"\xe6"),  # across, neither side whole
    (b"\xe5", b"\xad"),
    (b"\x9b", b"\xb0"),
    (b"\xe5\xad", b"\x90\xe6"),  # 子 whole, then the start of 曰
    (b"\x90\xe6", b"\x9b\xb0"),  # the end of 子, then 曰 whole
    (b"\xe6", b"\x9b\xb0"),
    (b"\xe5\xad", b"\x90"),
    (_ZI, _YUE),
]


@functools.cache
def cjk_tokenizer(name: str) -> Tokenizer:
    if name == "trained-cjk":
        return train(CJK_SAMPLE, 256 + 300, pattern="gpt2").tokenizer
    vocab = {**{i: bytes([i]) for i in range(256)}, **{256 + i: a + b for i, (a, b) in enumerate(_HANDMADE_MERGES)}}
    return Tokenizer(vocab, _HANDMADE_MERGES, pattern="gpt2")


def test_the_vocabularies_have_every_kind_of_crossing():
    trained, handmade = (cuts.Crossings(cjk_tokenizer(name).merge_ranks) for name in ("trained-cjk", "handmade-cjk"))
    assert len(trained.pairs) > 10
    assert len(handmade.pairs) == 1 and len(handmade.right_any) == 1 and len(handmade.left_any) == 1
    assert len(handmade.byte_pairs) == 1


SMALL_CJK = st.text(st.sampled_from(_CJK_ALPHABET), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(pieces=st.lists(st.text(st.one_of(HAN, st.sampled_from(_CJK_ALPHABET + " a.")), min_size=1), min_size=1))
def test_no_token_lies_across_a_cut(pieces):
    """Every boundary the crossings cut at is one no merged token lies across (checked by brute force)."""
    for tokenizer in (cjk_tokenizer("trained-cjk"), cjk_tokenizer("handmade-cjk"), pair("llama3")[0]):
        merge_rank = tokenizer.merge_ranks
        longest = max(map(len, merge_rank))
        parts, counts = cuts.Crossings(merge_rank).parts(pieces)
        assert sum(counts) == len(parts) and "".join(parts) == "".join(pieces)
        stop = 0
        for piece, count in zip(pieces, counts.tolist()):
            piece_parts = parts[stop : stop + count]
            stop += count
            assert "".join(piece_parts) == piece
            data = piece.encode()
            cut = 0
            for part in piece_parts[:-1]:
                cut += len(part.encode())
                for start in range(max(0, cut - longest), cut):
                    assert not any(data[start:end] in merge_rank for end in range(cut + 1, start + longest + 1))


@pytest.mark.parametrize("name", [*CUT_NAMES, "trained-cjk", "handmade-cjk"])
@settings(max_examples=12, deadline=None)
@given(drawn=st.lists(st.one_of(CJK, EMOJI, COMBINING, SEGMENT, SMALL_CJK), max_size=12), bulk=BULK)
def test_cut_pieces_give_the_rules_ids(name, drawn, bulk):
    """An empty cache with the crossings read: a call's new non-ASCII pre-tokens are cut into parts."""
    text = " ".join(bulk + drawn)
    ours = cjk_tokenizer(name) if name.endswith("-cjk") else pair(name)[0]
    pieces = ours._pieces
    pieces._crossings  # noqa: B018 (read once per test run, kept across examples)
    pieces._cache.clear()
    pieces._part_cache.clear()
    reference = SimpleTokenizer.of(ours).encode(text) if name.endswith("-cjk") else expected(name, text)
    assert ours.encode_ordinary(text) == reference


@pytest.mark.parametrize("name", CUT_NAMES)
def test_a_first_call_on_a_long_cjk_text_cuts_and_gives_tiktokens_ids(name):
    """A fresh tokenizer's first call with CUTS_MIN_PIECES new CJK pre-tokens reads the crossings itself."""
    rng = random.Random(name)
    common = "".join(map(chr, range(0x4E00, 0x4E00 + 400))) + "的了是子曰之毛泽东"
    runs = ("".join(rng.choices(common, k=rng.randint(1, 8))) for _ in range(CUTS_MIN_PIECES * 2))
    text = "".join(run + rng.choice(" ，。　") for run in runs) + "👍🏽 e\u0301 123 abc"
    ours, _ = pair(name)
    ours.forget_encodings()
    assert ours.encode_ordinary(text) == expected(name, text)
    assert "_crossings" in vars(ours._pieces)  # the path was taken


@settings(max_examples=60, deadline=None)
@given(tokens=st.lists(st.binary(min_size=1, max_size=8), max_size=40))
def test_tokens_packed_as_integers_are_their_big_endian_values(tokens):
    sizes = np.array([len(token) for token in tokens], dtype=np.int64)
    packed = _as_integers(b"".join(tokens), sizes).tolist()
    assert packed == [int.from_bytes(token, "big") for token in tokens]


def test_a_part_that_is_a_token_merges_cannot_make_is_not_kept_whole():
    """Qwen 3.6's 毛泽东 is a token no merge makes: as a whole pre-token it is one id, as a part of one (说毛泽东,
    cut after 说) it is what BPE makes of it, as in tiktoken."""
    ours, _ = pair("qwen3.6")
    parts, _ = ours._pieces._crossings.parts(["说毛泽东"])
    assert parts == ["说", "毛泽东"] and ours.token_id("毛泽东") is not None
    text = " ".join(f"{chr(0x4E00 + i)}毛泽东" for i in range(BATCH_MIN_PIECES * 2)) + "\n毛泽东"
    ours._pieces._cache.clear()
    ours._pieces._part_cache.clear()
    ids = ours.encode_ordinary(text)
    assert ids == expected("qwen3.6", text) and ids[-1] == ours.token_id("毛泽东")
    assert ours._pieces._part_cache["毛泽东"] != (ours.token_id("毛泽东"),)
