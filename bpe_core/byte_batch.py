"""tiktoken's BPE rule on many pre-tokens at once, with numpy: the batch steps.

A text has thousands of distinct pre-tokens that are not whole tokens; one Python loop per piece
(tiktoken's) costs more than the rest of encoding. Here all of them merge together, one merge per
piece per step, so the Python work of a step is a handful of array operations. :class:`ByteBatch`
runs it on bytes objects for any vocabulary; :mod:`bpe_core.digit_runs` runs the same steps
(:func:`merge_steps`) on small integers for numbers.

Imported only when a batch is needed: importing bpe_core (say, in a job process) stays light.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from itertools import repeat

import numpy as np

_NO_RANK = 1 << 30  # above every rank: "this pair does not merge"
# A step's key is rank << 32 | position: its minimum is the lowest rank, leftmost.
_INDEX_BITS = 32
_POSITION_MASK = (1 << _INDEX_BITS) - 1


class ByteBatch:
    """Pieces (bytes) -> ids for one vocabulary, all pieces at once."""

    def __init__(self, token_id: Mapping[bytes, int], merge_rank: Mapping[bytes, int]):
        self._token_id = token_id
        self._merge_rank = merge_rank
        self._byte_pairs: np.ndarray | None = None

    def encode(self, pieces: list[bytes]) -> list[tuple[int, ...]]:
        """tiktoken's rule on many pieces (none a whole token, each of 2 bytes or more) at once.

        All pieces' symbols (bytes objects) sit in one array, piece after piece, as linked lists
        (a merge absorbs the right symbol into the left one and unlinks it), with the key of the
        pair each symbol starts: rank << 32 | position, so that a piece's smallest key is its
        lowest rank, leftmost. Each step finds every piece's smallest key at once
        (``minimum.reduceat``), merges those pairs and re-keys the (at most two) pairs touching
        each new token. numpy adds the bytes objects and the rank lookups are ``map``s of
        ``dict.get``: a step has no Python loop over its pieces.
        """
        token_id = self._token_id
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        data = np.frombuffer(b"".join(pieces), dtype=np.uint8)
        symbols = _single_bytes()[data]
        positions = np.arange(len(data))
        next_of = positions + 1  # the next live symbol of the same piece (or the piece's end)
        previous_of = positions - 1
        alive = np.ones(len(data), dtype=bool)
        ranks = np.append(self._byte_pair_ranks()[(data[:-1].astype(np.int64) << 8) | data[1:]], _NO_RANK)
        starts = np.cumsum(lengths) - lengths
        ends = starts + lengths
        ranks[ends - 1] = _NO_RANK  # a piece's last symbol starts no pair
        keys = (ranks << _INDEX_BITS) | positions
        ranks_of = self._ranks

        def merge(at: np.ndarray, absorbed: np.ndarray) -> None:
            symbols[at] = symbols[at] + symbols[absorbed]

        def rekey(left: np.ndarray, right: np.ndarray) -> None:
            keys[left] = (ranks_of(symbols[left] + symbols[right]) << _INDEX_BITS) | left

        merge_steps(keys, starts, ends, next_of, previous_of, alive, _NO_RANK << _INDEX_BITS, merge, rekey)
        flat = list(map(token_id.__getitem__, symbols[alive].tolist()))
        return per_piece(flat, np.add.reduceat(alive, starts, dtype=np.int64))

    def _ranks(self, tokens: np.ndarray) -> np.ndarray:
        """The merge rank of each bytes object (_NO_RANK for those that are no merge)."""
        ranks = map(self._merge_rank.get, tokens.tolist(), repeat(_NO_RANK))  # a list iterates faster
        return np.fromiter(ranks, dtype=np.int64, count=len(tokens))

    def _byte_pair_ranks(self) -> np.ndarray:
        """The merge rank of every pair of bytes (the first step's pairs), indexed by byte << 8 | byte."""
        if self._byte_pairs is None:
            singles = _single_bytes()
            self._byte_pairs = self._ranks(np.repeat(singles, 256) + np.tile(singles, 256))
        return self._byte_pairs


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


def merge_steps(
    keys: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    next_of: np.ndarray,
    previous_of: np.ndarray,
    alive: np.ndarray,
    no_key: int,
    merge: Callable[[np.ndarray, np.ndarray], None],
    rekey: Callable[[np.ndarray, np.ndarray], None],
) -> None:
    """The batch's steps, shared by :meth:`ByteBatch.encode` and :mod:`bpe_core.digit_runs`.

    Pieces lie in one array as linked lists of symbols (``next_of``, ``previous_of``); ``keys`` hold
    rank << 32 | position of the pair each symbol starts (``no_key`` and above: none). Each step
    takes every piece's smallest key (its lowest rank, leftmost), lets ``merge(at, absorbed)`` make
    the new symbols at ``at``, unlinks the absorbed ones, and has ``rekey(left, right)`` key the (at
    most two) pairs touching each new symbol. The segments reduceat takes run from one merging
    piece's start to the next one's, over finished pieces too, whose keys change no minimum.
    """
    merging_starts, merging_ends = starts, ends
    while len(merging_starts):
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
        right = at[has_right]
        rekey(right, next_of[right])
        ending = at[at > merging_starts]
        rekey(previous_of[ending], ending)


@cache
def _single_bytes() -> np.ndarray:
    """The 256 one-byte bytes objects, as a numpy object array."""
    return np.array([bytes([byte]) for byte in range(256)], dtype=object)




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
