"""The BYTES path (see :mod:`.routes`): tiktoken's rule on many pre-tokens of any byte-level
vocabulary at once, with numpy (the steps: :mod:`.batch_steps`).

Each pair is looked up as one integer, its bytes and length, in a sorted array of the vocabulary's
merged tokens: no Python object is made per pair.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import compress, repeat

import numpy as np

from ..ranks import NO_RANK, merge_loop
from .batch_steps import merge_steps, per_piece

PACKED_BYTES = 7
"""Tokens up to this long are looked up as one integer, their bytes << 8 | their length (exact:
no two such tokens share it), in a sorted numpy array; longer ones through the bytes dict."""
SORTED_QUERIES_MIN = 1024
"""From this many pairs at once, they are looked up in ascending order: numpy's binary search then starts each
one where the last ended, so fewer of its steps miss the cache over the 200,000 keys (8,000 random pairs of
o200k's: 1.5 ms as they come, 0.6 ms with their sort)."""


class ByteBatch:
    """Pieces (bytes) -> ids for one byte-level vocabulary (every single byte a token), all at once."""

    def __init__(self, token_id: Mapping[bytes, int], merge_rank: Mapping[bytes, int], vocab: Mapping[int, bytes]):
        self._token_id = token_id
        self._merge_rank = merge_rank
        self._token_bytes = vocab
        self._byte_ids = np.array([token_id[bytes([byte])] for byte in range(256)], dtype=np.int64)
        # The merges short enough to pack, sorted by packed key, with their ranks and ids.
        merges = list(merge_rank)
        sizes, ids = _sizes_and_ids(merges, token_id)
        is_short = sizes <= PACKED_BYTES
        short = list(compress(merges, is_short.tolist()))
        keys = _packed(_as_integers(b"".join(short), sizes[is_short]), sizes[is_short].astype(np.uint64))
        order = np.argsort(keys)
        self._keys = keys[order]
        self._ranks = np.fromiter(merge_rank.values(), dtype=np.int64, count=len(merges))[is_short][order]
        self._ids = ids[is_short][order]
        every_byte = np.arange(256, dtype=np.uint64)
        byte_pairs = (np.repeat(every_byte, 256) << np.uint64(8)) | np.tile(every_byte, 256)
        self._byte_pairs = self._short_pairs(byte_pairs, np.full(len(byte_pairs), 2, dtype=np.uint64))

    @staticmethod
    def supports(merge_rank: Mapping[bytes, int]) -> bool:
        """Whether a vocabulary's ranks fit the batch's keys (every single byte being a token is the
        Tokenizer's own rule)."""
        return max(merge_rank.values(), default=0) < NO_RANK

    def encode(self, pieces: list[bytes]) -> list[tuple[int, ...]]:
        """tiktoken's rule on many pieces (none a whole token, each of 2 bytes or more) at once.

        All pieces' symbols sit in one array, piece after piece (see :func:`.merge_steps`): each
        symbol's token id, length and (if short) bytes as an integer, and what the pair it starts
        would merge into. Pairs of up to PACKED_BYTES bytes (most of them) are looked up with
        ``searchsorted``, with no Python object made; longer ones are joined as bytes.
        """
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        data = np.frombuffer(b"".join(pieces), dtype=np.uint8)
        symbols = self._byte_ids[data]
        sizes = np.ones(len(data), dtype=np.int64)
        payloads = data.astype(np.uint64)
        byte_ranks, byte_ids = self._byte_pairs
        first_pairs = (data[:-1].astype(np.int64) << 8) | data[1:]
        # What the pair each symbol starts would merge into: its id and (packed) bytes.
        merged_ids = np.append(byte_ids[first_pairs], 0)
        merged_payloads = np.append((payloads[:-1] << np.uint64(8)) | payloads[1:], np.uint64(0))

        def merge(at: np.ndarray, absorbed: np.ndarray) -> None:
            sizes[at] += sizes[absorbed]
            symbols[at] = merged_ids[at]
            payloads[at] = merged_payloads[at]

        def rank_pairs(left: np.ndarray, right: np.ndarray) -> np.ndarray:
            total = sizes[left] + sizes[right]
            short = total <= PACKED_BYTES
            pair_ranks = np.full(len(left), NO_RANK, dtype=np.int64)
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
            return pair_ranks

        def finish(starts: np.ndarray, ends: np.ndarray, alive: np.ndarray) -> None:
            # The last few pieces still merging: tiktoken's loop from their parts so far, each piece's tokens
            # put back at its first places.
            for start, end in zip(starts.tolist(), ends.tolist()):
                ids = symbols[start:end][alive[start:end]].tolist()
                parts = merge_loop(self._merge_rank, list(map(self._token_bytes.__getitem__, ids)))
                alive[start:end] = False
                alive[start : start + len(parts)] = True
                symbols[start : start + len(parts)] = list(map(self._token_id.__getitem__, parts))

        first_ranks = np.append(byte_ranks[first_pairs], NO_RANK)
        alive, counts = merge_steps(first_ranks, lengths, NO_RANK, merge, rank_pairs, finish)
        return per_piece(symbols[alive].tolist(), counts)

    def _short_pairs(self, payloads: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rank, id) of each token of up to PACKED_BYTES bytes, given as its bytes (an integer)
        and length; NO_RANK where no merge makes it."""
        if not len(self._keys):  # a vocabulary with no merges
            return np.full(len(payloads), NO_RANK, dtype=np.int64), np.zeros(len(payloads), dtype=np.int64)
        keys = _packed(payloads, lengths)
        if len(keys) >= SORTED_QUERIES_MIN:
            order = np.argsort(keys)
            found = np.empty(len(keys), dtype=np.intp)
            found[order] = np.searchsorted(self._keys, keys[order])
        else:
            found = np.searchsorted(self._keys, keys)
        found = np.minimum(found, len(self._keys) - 1)
        hit = self._keys[found] == keys
        return np.where(hit, self._ranks[found], NO_RANK), np.where(hit, self._ids[found], 0)

    def _long_pairs(self, left_ids: np.ndarray, right_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rank, id) of each pair of tokens too long to pack, joined as bytes."""
        lefts = map(self._token_bytes.__getitem__, left_ids.tolist())
        joined = list(map(bytes.__add__, lefts, map(self._token_bytes.__getitem__, right_ids.tolist())))
        ranks = np.fromiter(map(self._merge_rank.get, joined, repeat(NO_RANK)), dtype=np.int64, count=len(joined))
        ids = np.fromiter(map(self._token_id.get, joined, repeat(0)), dtype=np.int64, count=len(joined))
        return ranks, ids


def _sizes_and_ids(merges: list[bytes], token_id: Mapping[bytes, int]) -> tuple[np.ndarray, np.ndarray]:
    """Each merged token's length and id. When the vocabulary lists its multi-byte tokens in merge order (the
    same objects: tiktoken ranks, trained vocabularies), both are read off it in one pass; else each id is
    looked up (200,000 lookups in a large dict cost o200k's first encode ~40 ms, the pass ~15 ms).

    >>> token_id = {**{bytes([b]): b for b in range(256)}, b"ab": 256, b"abc": 257}
    >>> [array.tolist() for array in _sizes_and_ids([b"ab", b"abc"], token_id)]
    [[2, 3], [256, 257]]
    """
    tokens = list(token_id)
    token_sizes = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
    is_merged = token_sizes > 1
    if list(compress(tokens, is_merged.tolist())) == merges:  # mostly a comparison of pointers
        return token_sizes[is_merged], np.fromiter(token_id.values(), dtype=np.int64, count=len(tokens))[is_merged]
    sizes = np.fromiter(map(len, merges), dtype=np.int64, count=len(merges))
    return sizes, np.fromiter(map(token_id.__getitem__, merges), dtype=np.int64, count=len(merges))


def _as_integers(joined: bytes, sizes: np.ndarray) -> np.ndarray:
    """Each token of up to 8 bytes as an integer (big-endian: ``int.from_bytes``), given all of them joined and
    their sizes: right-aligned in rows of 8 bytes, read as big-endian words (one Python call per token cost
    ~40 ms of o200k's first encode).

    >>> _as_integers(b"ab" + b"c", np.array([2, 1])).tolist() == [int.from_bytes(b"ab", "big"), ord("c")]
    True
    """
    data = np.frombuffer(joined, dtype=np.uint8)
    rows = np.zeros(len(sizes) * 8, dtype=np.uint8)
    # Byte i of token t goes to place 8 * t + 8 - (t's end - i): one flat index, one repeat (a row index and a
    # column index, two repeats, cost o200k ~9 ms against ~3).
    rows[np.arange(len(data)) + np.repeat(np.arange(8, 8 * len(sizes) + 1, 8) - np.cumsum(sizes), sizes)] = data
    return rows.view(">u8").astype(np.uint64)


def _packed(payloads: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The lookup key of tokens of up to PACKED_BYTES bytes: their bytes (big-endian) << 8 | length."""
    return (payloads << np.uint64(8)) | lengths
