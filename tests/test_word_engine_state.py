"""The word engine's own state after every merge, against a recount from scratch.

The engine drops what it no longer needs (a pair whose count fell to 0 loses its count and its
list of words; a word merged down to one symbol is kept as ""), keeps lists of words as tuples or
``array('I')``, and shares the int objects of small counts. These tests hold that bookkeeping to
an independent model: the words merged naively, left to right, and every pair recounted.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.training.merge_engine import PAIR_SHIFT, SHARED_INTS
from bpe_core.training.word_engine import WordEngine

# Weights around the shared-int limit as well as small ones, so that counts cross it both ways.
WEIGHTS = st.one_of(st.integers(1, 5), st.integers(SHARED_INTS - 3, SHARED_INTS + 3), st.integers(1, 10**6))


def naive_merge(word: list[int], a: int, b: int, new: int) -> list[int]:
    """Replace (a, b) left to right without overlap."""
    out: list[int] = []
    i = 0
    while i < len(word):
        if i + 1 < len(word) and word[i] == a and word[i + 1] == b:
            out.append(new)
            i += 2
        else:
            out.append(word[i])
            i += 1
    return out


def check_state(engine: WordEngine, model: list[tuple[list[int], int]]) -> None:
    """The engine's counts, word lists and texts are those the model gives."""
    counts: Counter[int] = Counter()
    holders: dict[int, set[int]] = {}
    for index, (word, weight) in enumerate(model):
        text = engine._text[index]
        assert text == ("".join(map(chr, word)) if len(word) > 1 else "")
        for left, right in zip(word, word[1:]):
            pair = (left << PAIR_SHIFT) | right
            counts[pair] += weight
            holders.setdefault(pair, set()).add(index)
    assert dict(engine._counts) == dict(counts)  # no pair of count 0 is kept
    assert set(engine._words) == set(counts)
    for pair, found in holders.items():
        assert found <= set(engine._words[pair])  # may list more (words that lost it since)


def run(words: list[tuple[list[int], int]], symbols: list[bytes], inputs: list) -> int:
    """Merge the engine's best pair until none is left, checking the state after each merge;
    ``inputs``: what the engine is given (the words as bytes, or as lists of ids)."""
    engine = WordEngine(inputs, symbols)
    model = [(list(word), weight) for word, weight in words if len(word) > 1]
    check_state(engine, model)
    merges = 0
    while (best := engine.best()) is not None:
        count, a, b = best[0]
        recount: Counter[tuple[int, int]] = Counter()
        for word, weight in model:
            for pair in zip(word, word[1:]):
                recount[pair] += weight
        assert count == recount[a, b] == max(recount.values())  # the best pair, at its true count
        new, _ = engine.merge(a, b)
        model = [(naive_merge(word, a, b, new), weight) for word, weight in model]
        check_state(engine, model)
        merges += 1
    return merges


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.text("abc", min_size=1, max_size=8), WEIGHTS), max_size=12))
def test_byte_words_state_after_every_merge(words):
    encoded = [(word.encode(), weight) for word, weight in words]  # bytes: the engine's fast path
    merges = run([(list(word), weight) for word, weight in encoded], [bytes([byte]) for byte in range(256)], encoded)
    assert merges <= sum(len(word) - 1 for word, _ in encoded)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(254, 258), min_size=1, max_size=8), WEIGHTS), max_size=12))
def test_id_words_state_after_every_merge(words):
    symbols = [bytes([byte]) for byte in range(256)] + [b"x\xff", b"y\xfe", b"z\xfd"]
    merges = run(words, symbols, words)
    assert merges <= sum(len(word) - 1 for word, _ in words)
