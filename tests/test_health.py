"""bpe_core.analysis.reachability and bpe_core.analysis.health: each class against a brute-force computation (encoding
each token's text with the truncated tokenizer, merging its bytes by hand), on hand-made vocabularies
whose answer is known, random ones, trained ones, and GPT-2 / o200k against tiktoken."""

from __future__ import annotations

import random

import pytest
from analysis_naive import in_vocabulary, merges_build, usage_at
from hypothesis import given, settings
from hypothesis import strategies as st
from test_reference import tiktoken_encodings  # noqa: F401  (the session fixture)

import bpe_core
from bpe_core import Tokenizer
from bpe_core.analysis.health import INTERMEDIATE, NEVER_EMITTED, health_report
from bpe_core.analysis.reachability import (
    CLASS_EXPLANATIONS,
    INVALID_UTF8,
    MERGE_ORDER,
    NEVER_BUILT,
    PARTIAL_CHARACTER,
    PATTERN_SPLIT,
    REACH_CLASSES,
    token_reach,
)

BYTES = {i: bytes([i]) for i in range(256)}


def tokenizer_of(merges, pattern="gpt2", specials=None):
    vocab = dict(BYTES)
    for left, right in merges:
        if left + right not in vocab.values():
            vocab[len(vocab)] = left + right
    return Tokenizer(vocab, merges, specials, pattern)


def expected_class(tokenizer, token, identifier, k, cut=None):
    """The static class of a token with the first k merges, from encoding it (with ``cut``, the tokenizer truncated
    to k merges, when the caller has it) and merging by hand."""
    try:
        text = token.decode("utf-8")
    except UnicodeDecodeError:
        return INVALID_UTF8 if token.decode("utf-8", errors="ignore") else PARTIAL_CHARACTER
    if (cut or tokenizer.truncated(k)).encode_ordinary(text) != [identifier]:
        return PATTERN_SPLIT  # the only other way not to get it back
    return None if merges_build(token, tokenizer, k) else MERGE_ORDER


BYTE_LEVEL_CLASSES = tuple(name for name in REACH_CLASSES if name != NEVER_BUILT)
"""A byte-level tokenizer emits a whole pre-token that is a token (tiktoken's rule): what its merges never build is
MERGE_ORDER, never NEVER_BUILT (the class of pipelines and SentencePiece: tests/test_studied_sizes.py)."""


def check_static(tokenizer):
    table = token_reach(tokenizer)
    counts = table.counts_by_size()
    n = tokenizer.num_merges
    for k in sorted({0, 1, n // 2, n - 1, n} & set(range(n + 1))):
        expected = {name: 0 for name in BYTE_LEVEL_CLASSES}
        cut = tokenizer.truncated(k)  # one per size, not one per token (each a copy of the tables)
        for identifier in in_vocabulary(tokenizer, k):
            name = expected_class(tokenizer, tokenizer.token_bytes(identifier), identifier, k, cut)
            if name is not None:
                expected[name] += 1
            if k == n:
                assert table.classes.get(identifier) == name, (identifier, tokenizer.token_bytes(identifier))
        assert {name: int(counts[name][k]) for name in counts} == expected, k


# -- hand-made vocabularies -----------------------------------------------------------------------


def test_a_merge_the_pattern_splits():
    tokenizer = tokenizer_of([(b"a", b" "), (b"a ", b"b")])
    table = token_reach(tokenizer)
    assert table.classes[256] == table.classes[257] == PATTERN_SPLIT
    assert table.reasons[257] == "its text is cut into 2 pre-tokens: 'a' | ' b'"
    assert tokenizer.encode("a b") == [97, 32, 98]  # the tokens exist but encoding never gives them
    assert token_reach(tokenizer_of([(b"a", b" ")], pattern=None)).classes.get(256) is None
    check_static(tokenizer)


def test_partial_characters_and_a_token_reached_through_them():
    # é = C3 A9 is made from two pieces of itself: they are not text, but é is reachable.
    tokenizer = tokenizer_of([(b"\xc3", b"\xa9"), (b" ", b"\xc3"), (b"\xa9", b"x")])
    table = token_reach(tokenizer)
    assert 256 not in table.classes and tokenizer.encode("é") == [256]
    assert table.classes[0xC3] == table.classes[0xA9] == PARTIAL_CHARACTER
    assert table.classes[257] == INVALID_UTF8 and table.classes[258] == INVALID_UTF8  # " \xc3", "\xa9x"
    # after C3 the A9 goes to é first, but after C4 (ĩ = C4 A9) "\xa9x" is emitted
    assert "merging them never builds it" not in table.reasons[258]
    assert tokenizer.encode("éx") == [256, 120] and tokenizer.encode("ĩx") == [0xC4, 258]
    check_static(tokenizer)


def test_a_token_the_merges_never_build():
    # bc merges first, and then neither a+bc nor bc+d is a token: abcd is only ever emitted whole.
    tokenizer = tokenizer_of([(b"b", b"c"), (b"a", b"b"), (b"c", b"d"), (b"ab", b"cd")])
    table = token_reach(tokenizer)
    assert table.classes == {**{i: table.classes[i] for i in range(128, 256)}, 259: MERGE_ORDER}
    assert table.reasons[259] == "merging its bytes by rank gives b'a' + b'bc' + b'd'"
    assert tokenizer.encode("abcd") == [259] and 259 not in tokenizer.encode(" abcd xabcd")
    check_static(tokenizer)


def test_a_build_that_needs_a_later_merge():
    # abc is merge 0, but its bytes reach it only through ab, merge 1: at vocab size 257 it exists and
    # is emitted only whole; from 258 on the merges build it.
    tokenizer = tokenizer_of([(b"ab", b"c"), (b"a", b"b")])
    table = token_reach(tokenizer)
    assert table.built_from[256] == 2 and 256 not in table.classes
    assert table.counts_by_size()[MERGE_ORDER].tolist() == [0, 1, 0]
    check_static(tokenizer)


def test_every_class_is_explained():
    assert set(CLASS_EXPLANATIONS) == set(REACH_CLASSES)
    report = health_report(tokenizer_of([(b"a", b"b")]), "ab ab")
    assert set(report.explanations) == set(REACH_CLASSES) | {NEVER_EMITTED, INTERMEDIATE}
    assert all(sentence.endswith(".") for sentence in report.explanations.values())


# -- random and trained vocabularies --------------------------------------------------------------


@st.composite
def random_merges(draw):
    """Merges of random pairs of existing tokens over a few characters (some not UTF-8 alone), in a
    random order: vocabularies no trainer would make, where every class can occur."""
    tokens = [b"a", b"b", b" ", b"\xc3", b"\xa9", b"\n"]
    merges = []
    for _ in range(draw(st.integers(min_value=1, max_value=14))):
        left, right = draw(st.sampled_from(tokens)), draw(st.sampled_from(tokens))
        if left + right not in tokens and len(left + right) <= 6:
            tokens.append(left + right)
            merges.append((left, right))
    return draw(st.permutations(merges)) if draw(st.booleans()) else merges


@settings(max_examples=120, deadline=None)
@given(random_merges(), st.sampled_from(["gpt2", "whitespace", None]))
def test_static_classes_on_random_vocabularies(merges, pattern):
    check_static(tokenizer_of(merges, pattern))


@settings(max_examples=25, deadline=None)
@given(
    st.text(alphabet="ab c\n é字", min_size=1, max_size=120),
    st.text(alphabet="ab c\n éxy字", min_size=1, max_size=60),
    st.integers(min_value=257, max_value=290),
    st.floats(min_value=0.0, max_value=0.6),
)
def test_report_on_trained_tokenizers_equals_brute_force(training, text, vocab_size, threshold):
    tokenizer = bpe_core.train(training, vocab_size, pattern="gpt2").tokenizer
    check_static(tokenizer)
    report = health_report(tokenizer, text, intermediate_threshold=threshold)
    n = tokenizer.num_merges
    for k in sorted({0, n // 2, n}):
        emitted, inside = usage_at(tokenizer, text, k)
        present = in_vocabulary(tokenizer, k)
        never = [i for i in present if emitted[i] == 0]
        intermediate = [
            i for i in present if emitted[i] + inside[i] > 0 and emitted[i] < threshold * (emitted[i] + inside[i])
        ]
        assert report.counts_by_size[NEVER_EMITTED][k] == len(never)
        assert report.counts_by_size[INTERMEDIATE][k] == len(intermediate)
        if k == n:
            assert [row.id for row in report.rows_of(NEVER_EMITTED)] == sorted(never)
            assert [row.id for row in report.rows_of(INTERMEDIATE)] == sorted(intermediate)
            for row in report.rows:
                assert (row.emitted, row.inside) == (emitted[row.id], inside[row.id])
                assert row.classes[0] == row.kind and row.token == tokenizer.token_bytes(row.id)


def test_without_a_text_only_static_classes():
    report = health_report(tokenizer_of([(b"a", b" ")]), None)
    assert not report.has_text and set(report.counts()) == set(BYTE_LEVEL_CLASSES)
    assert all(row.emitted is None for row in report.rows)
    with pytest.raises(ValueError, match="between 0 and 1"):
        health_report(tokenizer_of([]), "a", intermediate_threshold=2)


# -- reference tokenizers against tiktoken --------------------------------------------------------


def tiktoken_reaches(encoding, identifier) -> tuple[bool, bool]:
    """(valid UTF-8 alone, tiktoken encodes its text back to the token)."""
    try:
        text = encoding.decode_single_token_bytes(identifier).decode("utf-8")
    except UnicodeDecodeError:
        return False, False
    return True, encoding.encode(text, disallowed_special=()) == [identifier]


def test_gpt2_against_tiktoken(tiktoken_encodings):  # noqa: F811
    encoding, tokenizer = tiktoken_encodings["gpt2"], bpe_core.reference("gpt2")
    report = health_report(tokenizer)
    unreachable = {row.id for row in report.rows if row.kind in (PARTIAL_CHARACTER, INVALID_UTF8, PATTERN_SPLIT)}
    for identifier in range(encoding.n_vocab):
        if identifier == encoding.eot_token:
            continue
        valid, reached = tiktoken_reaches(encoding, identifier)
        assert (identifier in unreachable) == (not reached), identifier
        assert valid == (token_reach(tokenizer).classes.get(identifier) not in (PARTIAL_CHARACTER, INVALID_UTF8))
    counts = report.counts()
    assert counts[PARTIAL_CHARACTER] + counts[INVALID_UTF8] == len(unreachable) == 344
    assert counts[PATTERN_SPLIT] == counts[MERGE_ORDER] == 0


def test_o200k_against_tiktoken(tiktoken_encodings):  # noqa: F811
    encoding, tokenizer = tiktoken_encodings["o200k_base"], bpe_core.reference("o200k_base")
    table = token_reach(tokenizer)
    split = sorted(i for i, name in table.classes.items() if name == PATTERN_SPLIT)
    assert len(split) == 12 and tokenizer.token_bytes(split[0]) == b" I'"
    sample = split + random.Random(7).sample(range(encoding.n_vocab - 1000), 4000)
    vocab = tokenizer.vocab
    for identifier in sample:
        if identifier not in vocab:
            continue
        valid, reached = tiktoken_reaches(encoding, identifier)
        name = table.classes.get(identifier)
        assert (name in (PARTIAL_CHARACTER, INVALID_UTF8, PATTERN_SPLIT)) == (not reached), identifier
        assert (name in (PARTIAL_CHARACTER, INVALID_UTF8)) == (not valid), identifier
