"""tiktoken's BPE rule on many pre-tokens at once, with numpy: the batch steps.

A text has thousands of distinct pre-tokens that are not whole tokens; one Python loop per piece
(tiktoken's) costs more than the rest of encoding. Here all of them merge together, one merge per
piece per step, so the Python work of a step is a handful of array operations. :class:`ByteBatch`
runs it for any byte-level vocabulary; :mod:`bpe_core.digit_runs` runs the same steps
(:func:`merge_steps`) on small integers for numbers.

Imported only when a batch is needed: importing bpe_core (say, in a job process) stays light.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import compress, repeat

import numpy as np

_NO_RANK = 1 << 30  # above every rank: "this pair does not merge"
# A step's key is rank << 32 | position: its minimum is the lowest rank, leftmost.
_INDEX_BITS = 32
_POSITION_MASK = (1 << _INDEX_BITS) - 1
PACKED_BYTES = 7
"""Tokens up to this long are looked up as one integer, their bytes << 8 | their length (exact:
no two such tokens share it), in a sorted numpy array; longer ones through the bytes dict."""


class ByteBatch:
    """Pieces (bytes) -> ids for one byte-level vocabulary (every single byte a token), all at once."""

    def __init__(self, token_id: Mapping[bytes, int], merge_rank: Mapping[bytes, int], vocab: Mapping[int, bytes]):
        self._token_id = token_id
        self._merge_rank = merge_rank
        self._token_bytes = vocab
        self._byte_ids = np.array([token_id[bytes([byte])] for byte in range(256)], dtype=np.int64)
        # The merges short enough to pack, sorted by packed key, with their ranks and ids.
        merges = list(merge_rank)
        sizes = np.fromiter(map(len, merges), dtype=np.int64, count=len(merges))
        is_short = sizes <= PACKED_BYTES
        short = list(compress(merges, is_short.tolist()))
        payloads = np.fromiter(map(int.from_bytes, short, repeat("big")), dtype=np.uint64, count=len(short))
        keys = _packed(payloads, sizes[is_short].astype(np.uint64))
        order = np.argsort(keys)
        self._keys = keys[order]
        self._ranks = np.array(list(merge_rank.values()), dtype=np.int64)[is_short][order]
        self._ids = np.fromiter(map(token_id.__getitem__, short), dtype=np.int64, count=len(short))[order]
        every_byte = np.arange(256, dtype=np.uint64)
        byte_pairs = (np.repeat(every_byte, 256) << np.uint64(8)) | np.tile(every_byte, 256)
        self._byte_pairs = self._short_pairs(byte_pairs, np.full(len(byte_pairs), 2, dtype=np.uint64))

    @staticmethod
    def supports(merge_rank: Mapping[bytes, int]) -> bool:
        """Whether a vocabulary's ranks fit the batch's keys (every single byte being a token is the
        Tokenizer's own rule)."""
        return max(merge_rank.values(), default=0) < _NO_RANK

    def encode(self, pieces: list[bytes]) -> list[tuple[int, ...]]:
        """tiktoken's rule on many pieces (none a whole token, each of 2 bytes or more) at once.

        All pieces' symbols sit in one array, piece after piece, as linked lists (a merge absorbs
        the right symbol into the left one and unlinks it): each symbol's token id, length and (if
        short) bytes as an integer. Each symbol holds the key of the pair it starts: rank << 32 |
        position, so that a piece's smallest key is its lowest rank, leftmost; and what the pair
        would merge into. Each step finds every piece's smallest key at once
        (``minimum.reduceat``), merges those pairs and re-keys the (at most two) pairs touching
        each new token. Pairs of up to PACKED_BYTES bytes (most of them) are looked up with
        ``searchsorted``, with no Python object made; longer ones are joined as bytes.
        """
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        data = np.frombuffer(b"".join(pieces), dtype=np.uint8)
        symbols = self._byte_ids[data]
        sizes = np.ones(len(data), dtype=np.int64)
        payloads = data.astype(np.uint64)
        positions = np.arange(len(data))
        next_of = positions + 1  # the next live symbol of the same piece (or the piece's end)
        previous_of = positions - 1
        alive = np.ones(len(data), dtype=bool)
        byte_ranks, byte_ids = self._byte_pairs
        first_pairs = (data[:-1].astype(np.int64) << 8) | data[1:]
        ranks = np.append(byte_ranks[first_pairs], _NO_RANK)
        # What the pair each symbol starts would merge into: its id and (packed) bytes.
        merged_ids = np.append(byte_ids[first_pairs], 0)
        merged_payloads = np.append((payloads[:-1] << np.uint64(8)) | payloads[1:], np.uint64(0))
        starts = np.cumsum(lengths) - lengths
        ends = starts + lengths
        ranks[ends - 1] = _NO_RANK  # a piece's last symbol starts no pair
        keys = (ranks << _INDEX_BITS) | positions

        def merge(at: np.ndarray, absorbed: np.ndarray) -> None:
            sizes[at] += sizes[absorbed]
            symbols[at] = merged_ids[at]
            payloads[at] = merged_payloads[at]

        def rekey(left: np.ndarray, right: np.ndarray) -> None:
            total = sizes[left] + sizes[right]
            short = total <= PACKED_BYTES
            pair_ranks = np.full(len(left), _NO_RANK, dtype=np.int64)
            pair_ids = np.zeros(len(left), dtype=np.int64)
            if short.any():
                short_left, short_right = left[short], right[short]
                shift = (sizes[short_right] * 8).astype(np.uint64)
                joined = (payloads[short_left] << shift) | payloads[short_right]
                pair_ranks[short], pair_ids[short] = self._short_pairs(joined, total[short].astype(np.uint64))
                merged_payloads[short_left] = joined
            if not short.all():
                long = ~short
                pair_ranks[long], pair_ids[long] = self._long_pairs(symbols[left[long]], symbols[right[long]])
            merged_ids[left] = pair_ids
            keys[left] = (pair_ranks << _INDEX_BITS) | left

        merge_steps(keys, starts, ends, next_of, previous_of, alive, _NO_RANK << _INDEX_BITS, merge, rekey)
        return per_piece(symbols[alive].tolist(), np.add.reduceat(alive, starts, dtype=np.int64))

    def _short_pairs(self, payloads: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rank, id) of each token of up to PACKED_BYTES bytes, given as its bytes (an integer)
        and length; _NO_RANK where no merge makes it."""
        if not len(self._keys):  # a vocabulary with no merges
            return np.full(len(payloads), _NO_RANK, dtype=np.int64), np.zeros(len(payloads), dtype=np.int64)
        keys = _packed(payloads, lengths)
        found = np.minimum(np.searchsorted(self._keys, keys), len(self._keys) - 1)
        hit = self._keys[found] == keys
        return np.where(hit, self._ranks[found], _NO_RANK), np.where(hit, self._ids[found], 0)

    def _long_pairs(self, left_ids: np.ndarray, right_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rank, id) of each pair of tokens too long to pack, joined as bytes."""
        lefts = map(self._token_bytes.__getitem__, left_ids.tolist())
        joined = list(map(bytes.__add__, lefts, map(self._token_bytes.__getitem__, right_ids.tolist())))
        ranks = np.fromiter(map(self._merge_rank.get, joined, repeat(_NO_RANK)), dtype=np.int64, count=len(joined))
        ids = np.fromiter(map(self._token_id.get, joined, repeat(0)), dtype=np.int64, count=len(joined))
        return ranks, ids


def _packed(payloads: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The lookup key of tokens of up to PACKED_BYTES bytes: their bytes (big-endian) << 8 | length."""
    return (payloads << np.uint64(8)) | lengths


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
