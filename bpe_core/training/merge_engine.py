"""The merge loop shared by every trainer: pair counts kept up to date, one merge at a time.

The corpus is a set of symbol sequences, each with a weight (a distinct pre-token and how often
it occurs, or the whole text once). ``MergeEngine`` holds what every layout shares: the pair
counts, the best-pair queue and the tie rule. Two layouts fill it in, one per shape of corpus:

- ``WordEngine`` (``word_engine.py``) keeps each distinct pre-token as a string of symbol characters
  and, per pair, the pre-tokens it occurs in: a merge rewrites only those. The layout for pre-tokenized text.
- ``PositionEngine`` (here) keeps every position in one doubly linked list, so a merge touches only
  the positions where its pair occurs, and a text with no pre-tokenization (one sequence of
  millions of symbols) costs the same per occurrence as a word.

Pairs are keyed by one int, ``left << PAIR_SHIFT | right``: it hashes faster than a tuple, and the
merge loops run once per occurrence merged, hundreds of thousands of times on a 10 MB corpus.

The best pair comes from a lazy max-heap. A pair's heap entry may be stale; it is only ever too
high (counts that go up are pushed again, counts that go down are not), so when the top entry
disagrees with the live count it is pushed again with the live count and the loop goes on.
Stale entries do not pile up: at 100 MB / 32,000 the heap ends with 214,000 entries for 160,000
live pairs, so rebuilding it from the live counts does not pay (tried: the rebuild's own copy
raised the peak by 10 MB).

A trainer may refuse pairs (``refuse``: a longer token than ``max_token_length``, a token the base
vocabulary of an extension already has): a refused pair is dropped from the queue when it comes
to the top, and skipped, never merged; its count stays, so its neighbours' counts stay exact.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

PAIR_SHIFT = 32
"""A pair (left, right) is the int ``left << PAIR_SHIFT | right``; symbol ids stay below 2**32."""
_RIGHT = (1 << PAIR_SHIFT) - 1
SHARED_INTS = 1 << 12
"""Counts below this are shared int objects (``COUNTS``, and ``NEGATED`` in heap entries): Python
makes a new 32-byte int for each one above 256 (and each negative one below -5), and at 100 MB /
32,000 most of the 160,000 live pairs' counts are small: 6 MB of copies of the same few numbers."""
COUNTS = list(range(SHARED_INTS))
NEGATED = [-count for count in COUNTS]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A pair that could have been merged in a round, with its count at that moment.

    Slots: a trace keeps five per merge, and without them each has a ``__dict__`` (150 bytes
    instead of 56; 15 MB of a 32,000-merge training)."""

    left: bytes
    right: bytes
    count: int


def _descending_key(symbol: bytes) -> tuple[int, ...]:
    """A key that sorts byte strings from lexicographically greatest to least.

    Each byte is inverted and a terminator above every inverted byte is appended, so a string
    sorts before its own prefixes, as the greater string must.

    >>> sorted([b"a", b"ab", b"b"], key=_descending_key)
    [b'b', b'ab', b'a']
    """
    return tuple(255 - byte for byte in symbol) + (256,)


SymbolKey = Callable[[int, bytes], tuple[int, ...]]
"""A symbol's tie-break key from its id and bytes: of two pairs with the same count, the one whose
(left key, right key) is smaller is merged first (:mod:`.ties` gives one per rule)."""


def greatest_key(identifier: int, symbol: bytes) -> tuple[int, ...]:
    """The default rule's key: the lexicographically greatest pair first."""
    return _descending_key(symbol)


class MergeEngine:
    """Pair counts of weighted symbol sequences and the queue of the best pair; subclasses merge.

    ``symbols`` gives the bytes of each symbol id (used only to break ties); new symbols are
    appended by ``merge``. Pair counts count every adjacent occurrence, overlapping ones included
    (``aaa`` holds two ``(a, a)``), and a merge replaces occurrences left to right without overlap:
    the conventions of the reference implementations.

    ``symbol_key`` sets the tie rule (default: the lexicographically greatest pair, see :mod:`.ties`).
    ``refuse(left, right)``, when set, names pairs never to merge (see :meth:`limit_length`).
    """

    refuse: Callable[[int, int], bool] | None = None
    """Pairs never to merge: skipped when they come to the top of the queue (checked once per round)."""
    _lengths: list[int] | None = None
    """Each symbol's length (kept only once :meth:`limit_length` asked for it)."""

    def __init__(self, symbols: Sequence[bytes], symbol_key: SymbolKey = greatest_key):
        self.symbol_bytes: list[bytes] = list(symbols)
        self._symbol_key = symbol_key
        self._sort_key = [symbol_key(identifier, symbol) for identifier, symbol in enumerate(self.symbol_bytes)]
        self._counts: defaultdict[int, int] = defaultdict(int)
        self._heap: list[tuple[int, tuple[int, ...], tuple[int, ...], int]] = []

    def _start_queue(self) -> None:
        """Build the heap once the subclass has counted every pair."""
        key = self._sort_key
        counts = self._counts
        self._heap = [(-count, key[pair >> PAIR_SHIFT], key[pair & _RIGHT], pair) for pair, count in counts.items()]
        heapq.heapify(self._heap)

    def _push(self, pairs: Iterable[int]) -> None:
        """Queue these pairs at their live counts (a pair may have lost its occurrences again)."""
        counts, sort_key, heap = self._counts, self._sort_key, self._heap
        for pair in pairs:
            count = counts.get(pair)
            if count:
                negated = NEGATED[count] if 0 < count < SHARED_INTS else -count
                heapq.heappush(heap, (negated, sort_key[pair >> PAIR_SHIFT], sort_key[pair & _RIGHT], pair))

    def _pop_live(self) -> tuple[int, tuple[int, ...], tuple[int, ...], int] | None:
        """Pop the heap entry of the best live pair, or None when no pair is left."""
        heap, counts = self._heap, self._counts
        while heap:
            entry = heapq.heappop(heap)
            live = counts.get(entry[3], 0)
            if live == -entry[0]:
                return entry
            if live > 0:
                self._push((entry[3],))
        return None

    def _pop_allowed(self) -> tuple[int, tuple[int, ...], tuple[int, ...], int] | None:
        """Pop the best live pair that ``refuse`` allows; refused ones leave the queue (their count stays)."""
        refuse = self.refuse
        while True:
            entry = self._pop_live()
            if entry is None or refuse is None or not refuse(entry[3] >> PAIR_SHIFT, entry[3] & _RIGHT):
                return entry

    def limit_length(self, max_length: int, lengths: Sequence[int] | None = None) -> None:
        """Never make a symbol longer than ``max_length``; ``lengths``: the initial symbols' lengths
        (default: their bytes'). Pairs too long are refused, and training goes on with the others.

        >>> engine = PositionEngine([([0, 1, 0, 1, 2], 1)], [b"a", b"b", b"c"])
        >>> engine.limit_length(3)
        >>> engine.merge(*engine.best()[0][1:])  # (a, b): a b a b c -> ab ab c
        (3, 2)
        >>> engine.best(2)  # (ab, ab) would be 4 bytes long: only (ab, c) is left
        ((1, 3, 2), [])
        """
        self._lengths = list(lengths) if lengths is not None else [len(symbol) for symbol in self.symbol_bytes]
        sizes, earlier = self._lengths, self.refuse

        def too_long(a: int, b: int) -> bool:
            return sizes[a] + sizes[b] > max_length or (earlier is not None and earlier(a, b))

        self.refuse = too_long

    def best(self, runners_up: int = 0) -> tuple[tuple[int, int, int], list[tuple[int, int, int]]] | None:
        """The pair to merge next and up to ``runners_up`` next-best pairs, each as (count, left, right).

        Ties go to the lexicographically greatest pair, compared as (left bytes, right bytes), unless
        the engine was given another rule.
        The queue is left as it was (less the stale entries found on the way).
        """
        winner = self._pop_allowed()
        if winner is None:
            return None
        popped, pairs = [winner], {winner[3]}
        while len(popped) <= runners_up:
            other = self._pop_allowed()
            if other is None:
                break
            if other[3] not in pairs:  # a pair may be queued twice
                popped.append(other)
                pairs.add(other[3])
        # Popped entries are live: pushed back as they are, their sort keys need no recomputing.
        heap = self._heap
        for entry in popped:
            heapq.heappush(heap, entry)
        # The trace keeps these counts (six a merge): shared ints where they are small.
        counts = [-entry[0] for entry in popped]
        best, *others = [
            (COUNTS[count] if 0 < count < SHARED_INTS else count, entry[3] >> PAIR_SHIFT, entry[3] & _RIGHT)
            for count, entry in zip(counts, popped)
        ]
        return best, others

    def pair_count(self, a: int, b: int) -> int:
        """How often the pair (a, b) occurs now (weighted)."""
        return self._counts.get((a << PAIR_SHIFT) | b, 0)

    def live_pairs(self) -> list[tuple[int, int, int]]:
        """Every pair that occurs now, as (count, left, right), in no particular order."""
        return [(count, pair >> PAIR_SHIFT, pair & _RIGHT) for pair, count in self._counts.items() if count > 0]

    def _new_symbol(self, a: int, b: int) -> int:
        new = len(self.symbol_bytes)
        self.symbol_bytes.append(self.symbol_bytes[a] + self.symbol_bytes[b])
        self._sort_key.append(self._symbol_key(new, self.symbol_bytes[new]))
        if self._lengths is not None:
            self._lengths.append(self._lengths[a] + self._lengths[b])
        return new

    def merge(self, a: int, b: int) -> tuple[int, int]:
        """Replace every (a, b) with a new symbol; return (new id, weighted occurrences replaced)."""
        raise NotImplementedError


class PositionEngine(MergeEngine):
    """Every position of every sequence in one doubly linked list: for text with no pre-tokenization."""

    def __init__(
        self,
        sequences: Iterable[tuple[Sequence[int], int]],
        symbols: Sequence[bytes],
        symbol_key: SymbolKey = greatest_key,
    ):
        super().__init__(symbols, symbol_key)
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

        positions: defaultdict[int, set[int]] = defaultdict(set)
        counts = self._counts
        for position, next_position in enumerate(following):
            if next_position != -1:
                pair = (token[position] << PAIR_SHIFT) | token[next_position]
                positions[pair].add(position)
                counts[pair] += weight[position]
        self._positions = positions
        self._start_queue()

    def merge(self, a: int, b: int) -> tuple[int, int]:
        new = self._new_symbol(a, b)
        token, weight, previous, following = self._token, self._weight, self._previous, self._next
        positions, counts = self._positions, self._counts
        merged = (a << PAIR_SHIFT) | b
        increased: set[int] = set()
        replaced = 0
        # The pair bookkeeping is written out inline: this loop runs once per occurrence merged,
        # millions of times on big texts, and function calls would double its cost.
        for position in sorted(positions.pop(merged, ())):
            right = following[position]
            # An earlier replacement in this loop may have consumed this occurrence (as in aaa).
            if token[position] != a or right == -1 or token[right] != b:
                continue
            amount = weight[position]
            before = previous[position]
            after = following[right]
            if before != -1:
                left_symbol = token[before] << PAIR_SHIFT
                old_pair = left_symbol | a
                if old_pair != merged:  # the merged pair's own occurrences are consumed by this loop
                    counts[old_pair] -= amount
                    positions[old_pair].discard(before)
                new_pair = left_symbol | new
                positions[new_pair].add(before)
                counts[new_pair] += amount
                increased.add(new_pair)
            if after != -1:
                right_symbol = token[after]
                old_pair = (b << PAIR_SHIFT) | right_symbol
                if old_pair != merged:
                    counts[old_pair] -= amount
                    positions[old_pair].discard(right)
                new_pair = (new << PAIR_SHIFT) | right_symbol
                positions[new_pair].add(position)
                counts[new_pair] += amount
                increased.add(new_pair)
            token[position] = new
            token[right] = -1
            following[position] = after
            if after != -1:
                previous[after] = position
            replaced += amount
        counts.pop(merged, None)
        self._push(increased)
        return new, replaced
