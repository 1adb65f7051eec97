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

The best pair comes from a queue (:mod:`.pair_queue`), which also keeps the trainer's refused pairs out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

# The pair's int key and the shared counts are the queue's; other modules import them from here too.
from .pair_queue import _RIGHT, PAIR_SHIFT, Entry, PairQueue
from .pair_queue import SHARED_INTS as SHARED_INTS


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
    return (*symbol.translate(_INVERTED), 256)


_INVERTED = bytes(range(255, -1, -1))
"""Byte b becomes 255 - b (``bytes.translate``: in C, where a generator took a few µs a symbol)."""


SymbolKey = Callable[[int, bytes], tuple[int, ...]]
"""A symbol's tie-break key from its id and bytes: of two pairs with the same count, the one whose
(left key, right key) is smaller is merged first (:mod:`.ties` gives one per rule)."""


def greatest_key(identifier: int, symbol: bytes) -> tuple[int, ...]:
    """The default rule's key: the lexicographically greatest pair first."""
    return _descending_key(symbol)


class MergeEngine(PairQueue):
    """Pair counts of weighted symbol sequences and the queue of the best pair; subclasses merge.

    ``symbols`` gives the bytes of each symbol id (used only to break ties); new symbols are
    appended by ``merge``. Pair counts count every adjacent occurrence, overlapping ones included
    (``aaa`` holds two ``(a, a)``), and a merge replaces occurrences left to right without overlap:
    the conventions of the reference implementations.

    ``symbol_key`` sets the tie rule (default: the lexicographically greatest pair, see :mod:`.ties`).
    ``refuse(left, right)``, when set, names pairs never to merge (see :meth:`limit_length`).
    """

    _lengths: list[int] | None = None
    """Each symbol's length (kept only once :meth:`limit_length` asked for it)."""

    def __init__(self, symbols: Sequence[bytes], symbol_key: SymbolKey = greatest_key):
        self.symbol_bytes: list[bytes] = list(symbols)
        self._symbol_key = symbol_key
        self._sort_key = [symbol_key(identifier, symbol) for identifier, symbol in enumerate(self.symbol_bytes)]
        self._counts: defaultdict[int, int] = defaultdict(int)
        self._heap: list[Entry] = []
        self._front: list[Entry] = []

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
