"""The best-pair queue of the merge engines (:mod:`.merge_engine`): the pair to merge next, and its runners-up.

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
from collections.abc import Callable, Iterable

PAIR_SHIFT = 32
"""A pair (left, right) is the int ``left << PAIR_SHIFT | right``; symbol ids stay below 2**32."""
_RIGHT = (1 << PAIR_SHIFT) - 1
SHARED_INTS = 1 << 12
"""Counts below this are shared int objects (``COUNTS``, and ``NEGATED`` in heap entries): Python
makes a new 32-byte int for each one above 256 (and each negative one below -5), and at 100 MB /
32,000 most of the 160,000 live pairs' counts are small: 6 MB of copies of the same few numbers."""
COUNTS = list(range(SHARED_INTS))
NEGATED = [-count for count in COUNTS]


Entry = tuple[int, tuple[int, ...], tuple[int, ...], int]
"""A queue entry: (-count, left symbol's key, right symbol's key, pair); the smallest is merged first."""


class PairQueue:
    """The queue over an engine's live pair counts (``_counts``) with each symbol's tie-break key
    (``_sort_key``); the engine fills both, calls :meth:`_start_queue` once it has counted every
    pair, and :meth:`_push` with the pairs whose counts went up."""

    refuse: Callable[[int, int], bool] | None = None
    """Pairs never to merge: skipped when they come to the top of the queue (checked once per round)."""
    _counts: defaultdict[int, int]
    _sort_key: list[tuple[int, ...]]
    _heap: list[Entry]
    _front: list[Entry]
    """The entries the last ``best`` found, best first: out of the heap, until the next ``best``."""

    def _start_queue(self) -> None:
        """Build the heap once the subclass has counted every pair."""
        key = self._sort_key
        counts = self._counts
        self._heap = [(-count, key[pair >> PAIR_SHIFT], key[pair & _RIGHT], pair) for pair, count in counts.items()]
        heapq.heapify(self._heap)
        self._front = []

    def _push(self, pairs: Iterable[int]) -> None:
        """Queue these pairs at their live counts (a pair may have lost its occurrences again)."""
        counts, sort_key, heap = self._counts, self._sort_key, self._heap
        for pair in pairs:
            count = counts.get(pair)
            if count:
                negated = NEGATED[count] if 0 < count < SHARED_INTS else -count
                heapq.heappush(heap, (negated, sort_key[pair >> PAIR_SHIFT], sort_key[pair & _RIGHT], pair))

    def _live_top(self) -> Entry | None:
        """The heap's first entry once it is live (stale ones on the way are queued again at their
        live counts), or None when the heap is empty."""
        heap, counts = self._heap, self._counts
        while heap:
            entry = heap[0]
            if counts.get(entry[3], 0) == -entry[0]:
                return entry
            heapq.heappop(heap)
            self._push((entry[3],))
        return None

    def best(self, runners_up: int = 0) -> tuple[tuple[int, int, int], list[tuple[int, int, int]]] | None:
        """The pair to merge next and up to ``runners_up`` next-best pairs, each as (count, left, right).

        Ties go to the lexicographically greatest pair, compared as (left bytes, right bytes), unless
        the engine was given another rule. Refused pairs leave the queue (their count stays).

        The entries found are kept aside (``_front``), in order, not pushed back: the next call finds
        most of them again, and only checks that their counts have not changed (a pair that gains
        occurrences gains them all in the merge that makes it, so an unchanged count is an unchanged
        pair). Popping and pushing back six entries a round took a quarter of the rounds' own time.
        """
        heap, counts, refuse = self._heap, self._counts, self.refuse
        kept: list[Entry] = []
        for entry in self._front:
            if counts.get(entry[3], 0) == -entry[0]:
                kept.append(entry)
            else:
                self._push((entry[3],))  # queued again at its live count, if it has one
        chosen: list[Entry] = []
        seen: set[int] = set()
        at, top = 0, self._live_top()
        while len(chosen) <= runners_up:
            if at < len(kept) and (top is None or kept[at] <= top):
                entry = kept[at]
                at += 1
            elif top is not None:
                entry = heapq.heappop(heap)
                top = self._live_top()
            else:
                break
            pair = entry[3]
            if pair in seen:  # a pair may be queued twice
                continue
            if refuse is not None and refuse(pair >> PAIR_SHIFT, pair & _RIGHT):
                continue  # dropped: it is never merged
            seen.add(pair)
            chosen.append(entry)
        for entry in kept[at:]:
            heapq.heappush(heap, entry)
        self._front = chosen
        if not chosen:
            return None
        # The trace keeps these counts (six a merge): shared ints where they are small.
        best, *others = [
            (COUNTS[-entry[0]] if -entry[0] < SHARED_INTS else -entry[0], entry[3] >> PAIR_SHIFT, entry[3] & _RIGHT)
            for entry in chosen
        ]
        return best, others
