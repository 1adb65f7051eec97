"""tiktoken's rule on many pieces at once with numpy: the steps both batches share.

A text has thousands of distinct pre-tokens that are not whole tokens; one Python loop per piece
(tiktoken's) costs more than the rest of encoding. Here all of them merge together, one merge per
piece per step, so the Python work of a step is a handful of array operations.
:class:`~.byte_batch.ByteBatch` runs the steps on token ids for any byte-level vocabulary,
:mod:`.digit_runs` on small integers for numbers; each says how to rank a pair and what a merge
makes. Imported only when a batch is needed: importing bpe_core (say, in a job process) stays light.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

FINISH_BELOW = 64
"""Once fewer pieces than this are still merging, the steps hand them to ``finish`` (if given): a step costs
~0.3 ms of numpy calls however few pieces it moves, and the last pieces of a batch (long runs of one
character, long identifiers) can take 50 more steps, one merge each; a Python loop does those merges at
~1-2 us each (measured on this repository's Python, o200k: 62 steps, the last 55 with under 45 pieces)."""
INDEX_BITS = 32
"""A pair's key is ``rank << INDEX_BITS | position``: a piece's smallest key is its lowest rank, leftmost."""
_POSITION_MASK = (1 << INDEX_BITS) - 1


def merge_steps(
    first_ranks: np.ndarray,
    lengths: np.ndarray,
    no_rank: int,
    merge: Callable[[np.ndarray, np.ndarray], None],
    rank_pairs: Callable[[np.ndarray, np.ndarray], np.ndarray],
    finish: Callable[[np.ndarray, np.ndarray, np.ndarray], None] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Run the rule on pieces lying one after another in one array of symbols; return which symbols
    are left (a bool per symbol) and how many each piece has.

    ``lengths``: each piece's symbols; ``first_ranks`` (int64): the rank of the pair each symbol
    starts with its right neighbour (``no_rank`` and above: it does not merge; a piece's last symbol
    starts none, whatever it says). Each step takes every piece's smallest key (its lowest rank,
    leftmost), lets ``merge(at, absorbed)`` make the new symbols at ``at``, unlinks the absorbed
    ones, and asks ``rank_pairs(left, right)`` for the ranks of the (at most two) pairs touching
    each new symbol. The segments ``reduceat`` takes run from one merging piece's start to the next
    one's, over finished pieces too, whose keys change no minimum. Once fewer than :data:`FINISH_BELOW`
    pieces are still merging, ``finish(starts, ends, alive)`` (if given) completes them instead: each such
    piece's live symbols lie between its start and end, and ``finish`` leaves its final symbols live
    (``alive`` updated in place), any of the piece's places holding them, in order.

    >>> ranks = np.array([0, 5, 9, 1, 9], dtype=np.int64)  # pieces "abc" and "de": ab, bc; de
    >>> alive, counts = merge_steps(ranks, np.array([3, 2]), 9, lambda at, absorbed: None,
    ...                             lambda left, right: np.full(len(left), 9, dtype=np.int64))
    >>> alive.tolist(), counts.tolist()
    ([True, False, True, True, False], [2, 1])
    """
    positions = np.arange(len(first_ranks))
    next_of = positions + 1  # the next live symbol of the same piece (or the piece's end)
    previous_of = positions - 1
    alive = np.ones(len(first_ranks), dtype=bool)
    starts = np.cumsum(lengths) - lengths
    ends = starts + lengths
    first_ranks[ends - 1] = no_rank
    keys = (first_ranks << INDEX_BITS) | positions
    no_key = no_rank << INDEX_BITS
    merging_starts, merging_ends = starts, ends
    while len(merging_starts):
        if finish is not None and len(merging_starts) < FINISH_BELOW:
            finish(merging_starts, merging_ends, alive)
            break
        lowest = np.minimum.reduceat(keys[: merging_ends[-1]], merging_starts)
        merging = lowest < no_key
        merging_starts, merging_ends, lowest = merging_starts[merging], merging_ends[merging], lowest[merging]
        at = lowest & _POSITION_MASK  # each piece's merge: the symbol at `at` absorbs the next
        absorbed = next_of[at]
        merge(at, absorbed)
        alive[absorbed] = False
        keys[absorbed] = no_key
        after = next_of[absorbed]
        next_of[at] = after
        has_right = after < merging_ends
        previous_of[after[has_right]] = at[has_right]
        # Re-key the pair the new symbol starts (none if it is now last) and the one it ends.
        keys[at] = no_key
        left = at[has_right]
        keys[left] = (rank_pairs(left, next_of[left]) << INDEX_BITS) | left
        right = at[at > merging_starts]
        left = previous_of[right]
        keys[left] = (rank_pairs(left, right) << INDEX_BITS) | left
    return alive, np.add.reduceat(alive, starts, dtype=np.int64)


def per_piece(flat: list[int], counts: np.ndarray) -> list[tuple[int, ...]]:
    """Each piece's ids, given all of them one after another and how many each piece has.

    Tuples for the encoder's cache (the cycle collector stops tracking tuples of ints, while every
    full collection walks each list), sliced from one tuple: a list sliced per piece costs more.

    >>> per_piece([5, 6, 7], np.array([2, 1]))
    [(5, 6), (7,)]
    """
    whole = tuple(flat)
    stops = np.cumsum(counts)
    return list(map(whole.__getitem__, map(slice, (stops - counts).tolist(), stops.tolist())))


def interleave(
    is_first: np.ndarray,
    first_ids: np.ndarray,
    first_counts: np.ndarray,
    second_ids: np.ndarray,
    second_counts: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray]:
    """Two kinds of pieces back in order: ``is_first[i]`` says which kind piece i is; each kind's ids
    lie one piece after another with ``counts`` ids per piece (``None``: one each). Returns all
    ids, and the count of each piece.

    >>> ids, counts = interleave(np.array([False, True, False]), np.array([7, 8]), np.array([2]),
    ...                          np.array([1, 2, 3]), np.array([1, 2]))
    >>> ids.tolist(), counts.tolist()
    ([1, 7, 8, 2, 3], [1, 2, 2])
    """
    counts = np.ones(len(is_first), dtype=np.int64)
    counts[is_first] = first_counts
    if second_counts is not None:
        counts[~is_first] = second_counts
    starts = np.cumsum(counts) - counts
    ids = np.empty(int(counts.sum()), dtype=np.int64)
    ids[_ragged_positions(starts[is_first], first_counts)] = first_ids
    if second_counts is None:
        ids[starts[~is_first]] = second_ids
    else:
        ids[_ragged_positions(starts[~is_first], second_counts)] = second_ids
    return ids, counts


def _ragged_positions(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """starts[0], starts[0]+1, ... (counts[0] of them), then starts[1], ... for every piece."""
    firsts = np.cumsum(counts) - counts
    return np.repeat(starts - firsts, counts) + np.arange(int(counts.sum()))
