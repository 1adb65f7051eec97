"""The merge loop shared by every trainer: pair counts kept up to date, one merge at a time.

The corpus is a set of symbol sequences, each with a weight (a pre-token and how often it occurs,
or the whole text once). All sequences live in one doubly linked list of positions, so a merge
touches only the positions where its pair occurs, not whole words, and a text with no
pre-tokenization (one sequence of millions of symbols) costs the same per occurrence as a word.

The best pair comes from a lazy max-heap. A pair's heap entry may be stale; it is only ever too
high (counts that go up are pushed again, counts that go down are not), so when the top entry
disagrees with the live count it is pushed again with the live count and the loop goes on.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Candidate:
    """A pair that could have been merged in a round, with its count at that moment."""

    left: bytes
    right: bytes
    count: int


def _descending_key(symbol: bytes) -> tuple[int, ...]:
    """A key that sorts byte strings from lexicographically greatest to least.

    Each byte is inverted and a terminator above every inverted byte is appended, so a string
    sorts before its own prefixes, as the greater string must.
    """
    return tuple(255 - byte for byte in symbol) + (256,)


class MergeEngine:
    """Weighted symbol sequences with incremental pair counts.

    ``symbols`` gives the bytes of each symbol id (used only to break ties); new symbols are
    appended by ``merge``. Pair counts count every adjacent occurrence, overlapping ones included
    (``aaa`` holds two ``(a, a)``), and a merge replaces occurrences left to right without overlap:
    the conventions of the reference implementations.
    """

    def __init__(self, sequences: Iterable[tuple[Sequence[int], int]], symbols: Sequence[bytes]):
        self.symbol_bytes: list[bytes] = list(symbols)
        self._sort_key = [_descending_key(symbol) for symbol in self.symbol_bytes]
        token: list[int] = []
        weight: list[int] = []
        previous: list[int] = []
        following: list[int] = []
        for ids, count in sequences:
            start, length = len(token), len(ids)
            if length == 0:
                continue
            token.extend(ids)
            weight.extend([count] * length)
            previous.extend(range(start - 1, start + length - 1))
            following.extend(range(start + 1, start + length + 1))
            previous[start] = -1
            following[start + length - 1] = -1
        self._token, self._weight, self._previous, self._next = token, weight, previous, following

        positions: defaultdict[tuple[int, int], set[int]] = defaultdict(set)
        counts: defaultdict[tuple[int, int], int] = defaultdict(int)
        for position, next_position in enumerate(following):
            if next_position != -1:
                pair = (token[position], token[next_position])
                positions[pair].add(position)
                counts[pair] += weight[position]
        self._positions = positions
        self._counts = counts
        sort_key = self._sort_key
        self._heap = [(-count, sort_key[a], sort_key[b], a, b) for (a, b), count in counts.items()]
        heapq.heapify(self._heap)

    @property
    def symbol_count(self) -> int:
        return len(self.symbol_bytes)

    def count(self, pair: tuple[int, int]) -> int:
        return self._counts.get(pair, 0)

    def _pop_live(self) -> tuple[int, int, int] | None:
        """Pop the best live pair as (count, left, right), or None when no pair is left."""
        heap, counts = self._heap, self._counts
        while heap:
            negative_count, _, _, a, b = heapq.heappop(heap)
            live = counts.get((a, b), 0)
            if live == -negative_count:
                return live, a, b
            if live > 0:
                sort_key = self._sort_key
                heapq.heappush(heap, (-live, sort_key[a], sort_key[b], a, b))
        return None

    def best(self, runners_up: int = 0) -> tuple[tuple[int, int, int], list[tuple[int, int, int]]] | None:
        """The pair to merge next and up to ``runners_up`` next-best pairs, each as (count, left, right).

        Ties go to the lexicographically greatest pair, compared as (left bytes, right bytes).
        The heap is left as it was.
        """
        winner = self._pop_live()
        if winner is None:
            return None
        others: list[tuple[int, int, int]] = []
        while len(others) < runners_up:
            other = self._pop_live()
            if other is None:
                break
            if (other[1], other[2]) != (winner[1], winner[2]) and other not in others:
                others.append(other)
        sort_key = self._sort_key
        for count, a, b in [winner, *others]:
            heapq.heappush(self._heap, (-count, sort_key[a], sort_key[b], a, b))
        return winner, others

    def merge(self, a: int, b: int) -> tuple[int, int]:
        """Replace every (a, b) with a new symbol; return (new id, weighted occurrences replaced)."""
        new = len(self.symbol_bytes)
        self.symbol_bytes.append(self.symbol_bytes[a] + self.symbol_bytes[b])
        sort_key = self._sort_key
        sort_key.append(_descending_key(self.symbol_bytes[new]))
        token, weight, previous, following = self._token, self._weight, self._previous, self._next
        positions, counts, heap = self._positions, self._counts, self._heap
        increased: set[tuple[int, int]] = set()
        replaced = 0
        # The pair bookkeeping is written out inline: this loop runs once per occurrence merged,
        # millions of times on big texts, and function calls would double its cost.
        for position in sorted(positions.pop((a, b), ())):
            right = following[position]
            # An earlier replacement in this loop may have consumed this occurrence (as in aaa).
            if token[position] != a or right == -1 or token[right] != b:
                continue
            amount = weight[position]
            before = previous[position]
            after = following[right]
            if before != -1:
                old_pair = (token[before], a)
                if old_pair != (a, b):  # the merged pair's own occurrences are consumed by this loop
                    left_over = counts[old_pair] - amount
                    if left_over:
                        counts[old_pair] = left_over
                        positions[old_pair].discard(before)
                    else:
                        del counts[old_pair], positions[old_pair]
                new_pair = (old_pair[0], new)
                positions[new_pair].add(before)
                counts[new_pair] += amount
                increased.add(new_pair)
            if after != -1:
                old_pair = (b, token[after])
                if old_pair != (a, b):
                    left_over = counts[old_pair] - amount
                    if left_over:
                        counts[old_pair] = left_over
                        positions[old_pair].discard(right)
                    else:
                        del counts[old_pair], positions[old_pair]
                new_pair = (new, old_pair[1])
                positions[new_pair].add(position)
                counts[new_pair] += amount
                increased.add(new_pair)
            token[position] = new
            token[right] = -1
            following[position] = after
            if after != -1:
                previous[after] = position
            replaced += amount
        counts.pop((a, b), None)
        for pair in increased:
            count = counts.get(pair)
            if count:  # a pair made in this round can lose its occurrences again within it
                heapq.heappush(heap, (-count, sort_key[pair[0]], sort_key[pair[1]], pair[0], pair[1]))
        return new, replaced
