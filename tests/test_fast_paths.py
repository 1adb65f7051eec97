"""Every fast path of the encoder gives the ids of the readable rule (bpe_core.encoding.educational).

On trained tokenizers (patterns gpt2, cl100k and none), on a hand-made vocabulary with a token that
merging cannot reach, and on gpt2, cl100k_base and o200k_base. Each test forces its path and checks
that the path was taken (the paths :func:`routes.route` and :func:`routes.is_a_table` chose are
recorded), then compares encode, encode_ordinary and encode_iterable with the rule.
"""

from __future__ import annotations

import functools
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import Tokenizer, train
from bpe_core.encoding.educational import SimpleTokenizer
from bpe_core.encoding.fast import batch_steps, piece_encoder, routes
from bpe_core.encoding.fast.routes import BYTES, DIGITS, HEAP, LOOP, TABLE
from bpe_core.reference import build_reference

SPECIAL = "<|endoftext|>"
REFERENCES = ["gpt2", "cl100k_base", "o200k_base"]
TRAINED = ["trained-gpt2", "trained-cl100k", "trained-none"]
ALL = [*TRAINED, "handmade", *REFERENCES]

_rng = random.Random(11)
# A small alphabet makes long merges; digits, accents and CJK make numbers and multi-byte pieces.
SAMPLE = "".join(_rng.choices("abcab  0123456789.,-é中文\n", k=30_000)) + SPECIAL + "the cat sat on the mat " * 200


NO_PATTERN = [f"{reference}, no pattern" for reference in REFERENCES]


@functools.cache
def tokenizer(name: str) -> Tokenizer:
    if name in REFERENCES:
        return build_reference(name)
    if name in NO_PATTERN:  # the same ranks, with no pre-tokenization: a text is one piece
        reference = tokenizer(name.split(",")[0])
        return Tokenizer.from_ranks(reference.mergeable_ranks, reference.special_tokens, pattern=None)
    if name == "handmade":
        # Merging in rank order cannot reach "abcd" (bc goes first, and a+bc, bc+d are no merges),
        # yet it is a token: a pre-token "abcd" is that token whole, as in tiktoken.
        vocab = {**{i: bytes([i]) for i in range(256)}, 256: b"bc", 257: b"ab", 258: b"cd", 259: b"abcd"}
        merges = [(b"b", b"c"), (b"a", b"b"), (b"c", b"d"), (b"ab", b"cd")]
        return Tokenizer(vocab, merges, [SPECIAL], "gpt2")
    pattern = {"trained-gpt2": "gpt2", "trained-cl100k": "cl100k", "trained-none": None}[name]
    return train(SAMPLE, 256 + 400, special_tokens=[SPECIAL], pattern=pattern).tokenizer


@functools.cache
def simple(name: str) -> SimpleTokenizer:
    return SimpleTokenizer.of(tokenizer(name))


def fresh(name: str) -> Tokenizer:
    """The same vocabulary with empty caches and no batch built yet."""
    whole = tokenizer(name)
    return whole.truncated(whole.num_merges)


@pytest.fixture(scope="module", autouse=True)
def taken() -> set[str]:
    """The paths the encoder took since the set was last cleared."""
    paths_taken: set[str] = set()

    def recording_route(*args, **kwargs):
        paths = routes.route(*args, **kwargs)
        paths_taken.update(path for path, flags in paths.items() if any(flags))
        return paths

    def recording_table(*args, **kwargs):
        is_table = routes.is_a_table(*args, **kwargs)
        if is_table:
            paths_taken.add(TABLE)
        return is_table

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(piece_encoder, "route", recording_route)
        patch.setattr(piece_encoder, "is_a_table", recording_table)
        yield paths_taken


@functools.lru_cache(maxsize=4)
def rule_ids(name: str, text: str, special: bool = True) -> list[int]:
    """The readable rule's ids (a test asks for the same text's ids several times; the rule is the slow side)."""
    if not special and not any(token in text for token in tokenizer(name).special_tokens):
        return rule_ids(name, text)
    return simple(name).encode(text, special=special)


def assert_like_the_rule(name: str, tokenizer: Tokenizer, text: str) -> None:
    expected = rule_ids(name, text)
    assert tokenizer.encode(text) == expected
    assert tokenizer.encode_ordinary(text) == rule_ids(name, text, special=False)
    cut = len(text) // 3
    assert list(tokenizer.encode_iterable([text[:cut], text[cut:]])) == expected


def paths_of_one_call(name: str, text: str, taken: set[str]) -> set[str]:
    """The paths a fresh tokenizer (no cache, no batch) takes for the whole text in one call
    (``encode_ordinary``: special tokens do not cut it into calls), its ids checked against the
    rule; then encode and encode_iterable are checked too, on another fresh tokenizer."""
    tokenizer_ = fresh(name)
    taken.clear()
    assert tokenizer_.encode_ordinary(text) == rule_ids(name, text, special=False)
    paths = set(taken)
    assert_like_the_rule(name, fresh(name), text)
    return paths


def words(rng: random.Random, count: int, alphabet: str, sizes: tuple[int, int]) -> list[str]:
    return ["".join(rng.choices(alphabet, k=rng.randint(*sizes))) for _ in range(count)]


# Odd text: any UTF-8 character, special tokens, a lone surrogate, numbers, whitespace runs.
FRAGMENT = st.one_of(
    st.text(st.characters(codec="utf-8"), max_size=12),
    st.sampled_from([SPECIAL, "\ud83d", " 1234567", "'s", "  \n\n", " abcd", "abcd", "中文", "\r\n"]),
)
TEXTS = st.lists(FRAGMENT, max_size=12).map("".join)
SEEDS = st.integers(0, 2**32)  # many pieces from a seeded random.Random: drawing each would be slow


@pytest.mark.parametrize("name", [*ALL, *NO_PATTERN])
@settings(max_examples=25, deadline=None)
@given(text=TEXTS)
def test_the_cache_and_the_loop_follow_the_rule(taken, name, text):
    # A few new pieces take the loop, one at a time (no batch is built for them); again, all come
    # from the cache.
    tokenizer_ = fresh(name)
    taken.clear()
    assert_like_the_rule(name, tokenizer_, text)
    assert taken <= {LOOP, HEAP} and "_byte_batch" not in vars(tokenizer_._pieces)
    taken.clear()
    assert_like_the_rule(name, tokenizer_, text)
    assert not taken


@pytest.mark.parametrize("name", [name for name in ALL if name != "trained-none"])  # no pattern: one piece a call
@settings(max_examples=6, deadline=None)
@given(fragments=st.lists(FRAGMENT, min_size=1, max_size=8), seed=SEEDS, finish_below=st.sampled_from([0, 64, 9999]))
def test_the_byte_batch_follows_the_rule(taken, name, fragments, seed, finish_below):
    rng = random.Random(seed)
    # Over BATCH_BUILD_MIN_PIECES new pre-tokens: a fresh tokenizer builds the byte batch. Its steps run to the end
    # (0), hand the last pieces to the loop (64, as shipped) or hand it every piece after the first pairs (9999).
    pieces = words(rng, routes.BATCH_BUILD_MIN_PIECES + 500, string.ascii_lowercase + "éß中", (5, 9))
    text = " ".join(piece + rng.choice(fragments) for piece in pieces)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(batch_steps, "FINISH_BELOW", finish_below)
        assert BYTES in paths_of_one_call(name, text, taken)


@pytest.mark.parametrize("name", ["trained-gpt2", "gpt2"])
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, digits=st.integers(5, 16))
def test_the_digit_run_batch_follows_the_rule(taken, name, seed, digits):
    rng = random.Random(seed)
    # Over NEW_NUMBERS_MIN new numbers (" 12345": a space first, so not a table), among words.
    numbers = [f" {rng.randrange(10 ** (digits - 1), 10**digits)}" for _ in range(routes.NEW_NUMBERS_MIN + 300)]
    text = "".join(" ".join(words(rng, 8, string.ascii_lowercase, (4, 8))) + number for number in numbers)
    paths = paths_of_one_call(name, text, taken)
    assert DIGITS in paths and TABLE not in paths


@pytest.mark.parametrize("name", ["trained-gpt2", "trained-cl100k", *REFERENCES])
@settings(max_examples=5, deadline=None)
@given(seed=SEEDS)
def test_a_table_of_numbers_follows_the_rule(taken, name, seed):
    rng = random.Random(seed)
    rows = [f"{rng.randrange(10**9)},{rng.uniform(-1e4, 1e4):.6f}, {rng.randrange(10**5)}\n" for _ in range(1500)]
    text = "id,value,score\n" + "".join(rows)
    paths = paths_of_one_call(name, text, taken)
    if name in ("trained-gpt2", "gpt2"):  # cl100k and o200k cut numbers into whole tokens of 1-3 digits
        assert TABLE in paths


@pytest.mark.parametrize("name", [*ALL, *NO_PATTERN])
@settings(max_examples=8, deadline=None)
@given(text=TEXTS, seed=SEEDS, many=st.booleans())
def test_long_pieces_take_the_heap_and_follow_the_rule(taken, name, text, seed, many):
    rng = random.Random(seed)
    # Pre-tokens over LONG_PIECE_BYTES (long runs of letters or of spaces), alone or among enough
    # short new ones for the byte batch; with no pattern, the whole text is one long piece.
    long_runs = words(rng, 30, "abcdeé", (routes.LONG_PIECE_BYTES + 1, 150))
    short = words(rng, routes.BATCH_BUILD_MIN_PIECES + 100 if many else 5, string.ascii_lowercase, (3, 8))
    text = " ".join(long_runs + short) + text + "  " * 40 + "x"
    if tokenizer(name).pattern is None:
        text = text[-700:]  # one piece: the rule is quadratic in it
    if many and tokenizer(name).pattern is not None:
        assert {HEAP, BYTES} <= paths_of_one_call(name, text, taken)
    else:
        taken.clear()
        assert_like_the_rule(name, fresh(name), text)
        assert HEAP in taken
