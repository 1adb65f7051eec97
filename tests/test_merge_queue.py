"""The merge engines' queue against a recount from scratch, before every merge.

``best(k)`` keeps the entries it finds aside and only checks them again on the next call, instead of
pushing them back into the heap; these tests hold what it returns, at every round, to the pairs
recounted from the words merged naively, ordered by the rule (most frequent, ties to the
lexicographically greatest pair by bytes), with ``max_token_length``'s refused pairs left out, and
with ``best`` called several times between merges, with different numbers of runners-up; and the
numpy index of words given as bytes against the plain one.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.training.merge_engine import PositionEngine
from bpe_core.training.word_engine import WordEngine

SYMBOLS = [bytes([byte]) for byte in range(256)]
WORDS = st.lists(st.tuples(st.text("abcd", min_size=1, max_size=9), st.integers(1, 6)), max_size=14)


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


def expected_top(model: list[tuple[list[int], int]], symbols: list[bytes], max_length: int | None, k: int):
    """The k best pairs by the rule, as (count, left id, right id), recounted from the words."""
    recount: Counter[tuple[int, int]] = Counter()
    for word, weight in model:
        for pair in zip(word, word[1:]):
            recount[pair] += weight
    allowed = [
        (count, a, b)
        for (a, b), count in recount.items()
        if max_length is None or len(symbols[a]) + len(symbols[b]) <= max_length
    ]
    allowed.sort(key=lambda entry: (entry[0], symbols[entry[1]], symbols[entry[2]]), reverse=True)
    return allowed[:k]


def check_every_round(engine, model, max_length, asks) -> int:
    """Merge the best pair until none is left, comparing each ``best`` with the recount; ``asks``: the
    numbers of runners-up asked for, in turn, several times a round."""
    symbols = list(SYMBOLS)
    if max_length is not None:
        engine.limit_length(max_length)
    rounds = 0
    while True:
        for runners_up in asks:
            found = engine.best(runners_up)
            expected = expected_top(model, symbols, max_length, runners_up + 1)
            assert (None if found is None else [found[0], *found[1]]) == (expected or None)
        if found is None:
            return rounds
        _, a, b = found[0]
        new, _ = engine.merge(a, b)
        symbols.append(symbols[a] + symbols[b])
        model = [(naive_merge(word, a, b, new), weight) for word, weight in model]
        rounds += 1


@settings(max_examples=60, deadline=None)
@given(WORDS, st.none() | st.integers(2, 5), st.lists(st.integers(0, 6), min_size=1, max_size=3))
def test_word_engine_best_is_the_recounted_top(words, max_length, asks):
    encoded = [(word.encode(), weight) for word, weight in words]
    model = [(list(word), weight) for word, weight in encoded if len(word) > 1]
    check_every_round(WordEngine(encoded, SYMBOLS), model, max_length, asks)


@settings(max_examples=40, deadline=None)
@given(WORDS, st.none() | st.integers(2, 5), st.lists(st.integers(0, 6), min_size=1, max_size=3))
def test_position_engine_best_is_the_recounted_top(words, max_length, asks):
    sequences = [(list(word.encode()), weight) for word, weight in words]
    model = [(word, weight) for word, weight in sequences]
    check_every_round(PositionEngine(sequences, SYMBOLS), model, max_length, asks)


def test_a_long_run_of_ties_keeps_the_order():
    """Many pairs of one count: every round's winner and runners-up come in the rule's order."""
    words = [(bytes([97 + i % 16, 65 + i // 16]), 1) for i in range(16 * 16)]
    model = [(list(word), 1) for word, _ in words]
    assert check_every_round(WordEngine(words, SYMBOLS), model, None, [5, 0, 5]) == 16 * 16


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.text("ab\xff", max_size=9).map(lambda t: t.encode("latin-1")), st.integers(1, 10**6))))
def test_the_byte_index_is_the_general_one(words):
    """Words given as bytes are indexed with numpy; as lists of ids, in plain Python: the same counts,
    the same words listed for each pair (each once, in order), the same queue."""
    fast = WordEngine(words, SYMBOLS)
    plain = WordEngine([(list(word), weight) for word, weight in words], SYMBOLS)
    assert dict(fast._counts) == dict(plain._counts)
    assert {pair: list(found) for pair, found in fast._words.items()} == {
        pair: list(found) for pair, found in plain._words.items()
    }
    assert sorted(fast._heap) == sorted(plain._heap)
