"""The merge loop's layout for pre-tokenized text: each distinct pre-token once, with its count.

A 10 MB English corpus has about 2.8 million pre-tokens but only 56,000 distinct ones, about
6 bytes each. Each is kept as a short list of symbol ids; for each pair, ``_words`` holds the
pre-tokens it occurs in, so a merge rewrites only those (the rewrite is a list splice, cheap on
lists this short). A pre-token listed for a pair it no longer holds is skipped when found: sets
are only ever added to, which costs less than keeping them exact.

>>> engine = WordEngine([(b"low", 5), (b"lower", 2)], [bytes([byte]) for byte in range(256)])
>>> engine.best(1)
((7, 111, 119), [(7, 108, 111)])
>>> engine.merge(111, 119)
(256, 7)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from .merge_engine import PAIR_SHIFT, MergeEngine


class WordEngine(MergeEngine):
    """Distinct weighted words, each a list of symbol ids, and for each pair the words that hold it."""

    def __init__(self, words: Iterable[tuple[Sequence[int], int]], symbols: Sequence[bytes]):
        super().__init__(symbols)
        self._symbols: list[list[int]] = []
        self._weights: list[int] = []
        self._words: defaultdict[int, set[int]] = defaultdict(set)
        counts, holders = self._counts, self._words
        for ids, weight in words:
            if len(ids) < 2:
                continue  # a single symbol holds no pair and never changes
            index = len(self._symbols)
            self._symbols.append(list(ids))
            self._weights.append(weight)
            for left, right in zip(ids, ids[1:]):
                pair = (left << PAIR_SHIFT) | right
                counts[pair] += weight
                holders[pair].add(index)
        self._start_queue()

    def merge(self, a: int, b: int) -> tuple[int, int]:
        new = self._new_symbol(a, b)
        all_symbols, weights, holders, counts = self._symbols, self._weights, self._words, self._counts
        merged = (a << PAIR_SHIFT) | b
        new_left = new << PAIR_SHIFT
        b_left = b << PAIR_SHIFT
        increased: set[int] = set()
        replaced = 0
        # Written out inline, like PositionEngine.merge: it runs once per occurrence merged.
        for index in holders.pop(merged, ()):
            symbols = all_symbols[index]
            weight = weights[index]
            last = len(symbols) - 1
            i = 0
            while i < last:
                if symbols[i] != a or symbols[i + 1] != b:
                    i += 1
                    continue
                # Left to right, so the left neighbour may already be `new` (abab -> XX).
                if i:
                    left_symbol = symbols[i - 1] << PAIR_SHIFT
                    old_pair = left_symbol | a
                    if old_pair != merged:  # the merged pair's own occurrences all go in this loop
                        counts[old_pair] -= weight
                    new_pair = left_symbol | new
                    counts[new_pair] += weight
                    holders[new_pair].add(index)
                    increased.add(new_pair)
                if i + 1 < last:
                    right_symbol = symbols[i + 2]
                    old_pair = b_left | right_symbol
                    if old_pair != merged:
                        counts[old_pair] -= weight
                    new_pair = new_left | right_symbol
                    counts[new_pair] += weight
                    holders[new_pair].add(index)
                    increased.add(new_pair)
                symbols[i : i + 2] = (new,)
                last -= 1
                i += 1
                replaced += weight
        counts.pop(merged, None)
        self._push(increased)
        return new, replaced
