"""BPE inside pre-tokens, exactly as tiktoken does it, for many pre-tokens at once.

The rule: inside a pre-token, repeatedly merge the adjacent pair whose concatenation has the
lowest merge rank (leftmost first on equal ranks); a pre-token that is itself a token is emitted
whole. Three paths give the same ids:

- a pre-token that is a whole token: one dict lookup (most pre-tokens of prose);
- many new pre-tokens at once (a text's distinct pre-tokens; random numbers, which never repeat):
  :func:`_merge_batch` runs the rule on all of them together with numpy, one merge per pre-token
  per step, so the Python work per step is a handful of array operations, not one loop per piece;
- a few pre-tokens, or one longer than :data:`LONG_PIECE_BYTES` (a whole text with no
  pre-tokenization): tiktoken's loop, or the boundary lifetimes (a heap, n log n).

Distinct pre-tokens are encoded once per text and remembered in a cache bounded to
:data:`CACHE_LIMIT` entries of at most :data:`CACHED_PIECE_CHARS` characters (a server lives long).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain, repeat

import numpy as np

from .lifetimes import PERMANENT, piece_lifetimes

CACHE_LIMIT = 1 << 17
"""Pre-tokens remembered per tokenizer; the cache is emptied when it would grow past this."""
CACHED_PIECE_CHARS = 256
"""Longer pre-tokens (a whole text with no pre-tokenization) are not worth caching."""
LONG_PIECE_BYTES = 64
"""Longer pre-tokens go to the heap (n log n); the batch's steps grow with the longest piece."""
BATCH_MIN_PIECES = 32
"""Below this many new pre-tokens, numpy's fixed cost per step outweighs what it saves."""

PAIR_CACHE_LIMIT = 1 << 18
"""Pairs of token ids whose merge is remembered (see PieceEncoder._pair_values)."""

_NO_RANK = 1 << 30  # above every rank: "this pair does not merge"
# A pair's value is rank << 32 | merged id; a step's key is rank << 32 | position, whose minimum
# is the lowest rank, leftmost; the pair dict's key is left id << 31 | right id.
_NO_PAIR = _NO_RANK << 32
_LOW_MASK = (1 << 32) - 1
_RANK_MASK = ~_LOW_MASK
_ID_BITS = 31


class PieceEncoder:
    """Pre-tokens -> ids for one vocabulary (see the module docstring)."""

    def __init__(self, vocab: Mapping[int, bytes], token_id: Mapping[bytes, int], merge_rank: Mapping[bytes, int]):
        self._vocab = vocab
        self._token_id = token_id
        self._merge_rank = merge_rank
        self._byte_ids = np.array([token_id[bytes([byte])] for byte in range(256)], dtype=np.int64)
        # Ranks that do not fit the batch's keys (a hand-made vocab) take the one-piece loop.
        self._batch_ok = max(merge_rank.values(), default=0) < _NO_RANK and max(vocab, default=0) < 1 << _ID_BITS
        self._cache: dict[str, list[int]] = {}
        self._pairs: dict[int, int] = {}
        self._byte_pairs: np.ndarray | None = None

    def encode_pieces(self, pieces: list[str]) -> list[int]:
        """The ids of a list of pre-tokens, each distinct one encoded once."""
        cache = self._cache
        new_pieces = set(pieces).difference(cache)
        if len(cache) + len(new_pieces) > CACHE_LIMIT:
            cache.clear()
            new_pieces = set(pieces)
        self._add_to_cache(list(new_pieces))
        # map and chain run in C: a Python loop over millions of pre-tokens costs more than BPE.
        ids = list(chain.from_iterable(map(cache.__getitem__, pieces)))
        for piece in new_pieces:
            if len(piece) > CACHED_PIECE_CHARS:
                del cache[piece]
        return ids

    def _add_to_cache(self, pieces: list[str]) -> None:
        cache, token_id = self._cache, self._token_id
        encoded = [piece.encode("utf-8") for piece in pieces]
        short_pieces: list[str] = []
        short_bytes: list[bytes] = []
        for piece, data, whole in zip(pieces, encoded, map(token_id.get, encoded)):
            if whole is not None:
                cache[piece] = [whole]
            elif len(data) > LONG_PIECE_BYTES:
                cache[piece] = self.encode_piece(data)
            else:
                short_pieces.append(piece)
                short_bytes.append(data)
        if len(short_bytes) >= BATCH_MIN_PIECES and self._batch_ok:
            cache.update(zip(short_pieces, self._merge_batch(short_bytes)))
        else:
            cache.update(zip(short_pieces, map(self.encode_piece, short_bytes)))

    def encode_piece(self, piece: bytes) -> list[int]:
        """The ids of one pre-token's bytes."""
        token_id = self._token_id
        whole = token_id.get(piece)
        if whole is not None:
            return [whole]
        if len(piece) > LONG_PIECE_BYTES:
            lifetimes = piece_lifetimes(piece, self._merge_rank)
            return [token_id[token] for token in _split_at_permanent(piece, lifetimes)]
        # tiktoken's loop: keep each adjacent pair's rank, and after a merge re-rank only the
        # two pairs that touch the new part.
        merge_rank = self._merge_rank
        parts = [piece[i : i + 1] for i in range(len(piece))]
        ranks = [merge_rank.get(piece[i : i + 2], _NO_RANK) for i in range(len(piece) - 1)]
        while ranks:
            lowest = min(ranks)
            if lowest == _NO_RANK:
                break
            index = ranks.index(lowest)
            parts[index : index + 2] = [parts[index] + parts[index + 1]]
            del ranks[index]
            if index < len(ranks):
                ranks[index] = merge_rank.get(parts[index] + parts[index + 1], _NO_RANK)
            if index > 0:
                ranks[index - 1] = merge_rank.get(parts[index - 1] + parts[index], _NO_RANK)
        return [token_id[part] for part in parts]

    def _merge_batch(self, pieces: list[bytes]) -> list[list[int]]:
        """tiktoken's rule on many pieces (none a whole token, each 2..LONG_PIECE_BYTES bytes) at once.

        All pieces' symbols sit in one array, piece after piece, with the value of the pair each
        symbol starts (see :meth:`_pair_values`). Each step finds, in every piece still merging,
        the pair with the lowest rank (leftmost on ties), merges it and re-values the (at most
        two) pairs touching the new token; pieces with nothing left to merge leave the arrays.
        """
        results: list[list[int]] = [None] * len(pieces)  # type: ignore[list-item]  # all filled below
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        data = np.frombuffer(b"".join(pieces), dtype=np.uint8)
        symbols = self._byte_ids[data]
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        owners = np.arange(len(pieces))  # index into `pieces` of each piece still merging
        values = self._byte_pair_values()[(data[:-1].astype(np.int64) << 8) | data[1:]]
        values = np.append(values, _NO_PAIR)
        values[starts + lengths - 1] = _NO_PAIR  # a piece's last symbol starts no pair
        while len(owners):
            lowest = np.minimum.reduceat((values & _RANK_MASK) | np.arange(len(values)), starts)
            done = lowest >= _NO_PAIR
            if done.any():
                finished = np.repeat(done, lengths)
                flat = symbols[finished].tolist()
                offset = 0
                for owner, length in zip(owners[done].tolist(), lengths[done].tolist()):
                    results[owner] = flat[offset : offset + length]
                    offset += length
                symbols, values = symbols[~finished], values[~finished]
                owners, lengths = owners[~done], lengths[~done]
                starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
                if not len(owners):
                    break
                lowest = np.minimum.reduceat((values & _RANK_MASK) | np.arange(len(values)), starts)
            at = lowest & _LOW_MASK  # the merge position in each piece
            symbols[at] = values[at] & _LOW_MASK  # the merged token's id
            keep = np.ones(len(symbols), dtype=bool)
            keep[at + 1] = False
            symbols, values = symbols[keep], values[keep]
            shift = np.arange(len(owners))  # each piece before this one lost one symbol
            starts, lengths, at = starts - shift, lengths - 1, at - shift
            # Re-value the pair the new token starts (none if it is now last) and the one it ends.
            values[at] = _NO_PAIR
            right = at[at + 1 < starts + lengths]
            values[right] = self._pair_values(symbols[right], symbols[right + 1])
            left = at[at > starts] - 1
            values[left] = self._pair_values(symbols[left], symbols[left + 1])
        return results

    def _pair_values(self, left: np.ndarray, right: np.ndarray) -> np.ndarray:
        """Each pair of token ids' value: merge rank << 32 | merged id, or _NO_PAIR.

        Remembered by pair in a bounded dict: an int lookup costs a third of joining the two
        tokens' bytes and looking the result up.
        """
        pairs = self._pairs
        keys = (left << _ID_BITS) | right
        values = np.fromiter(map(pairs.get, keys.tolist(), repeat(-1)), dtype=np.int64, count=len(keys))
        missing = np.flatnonzero(values < 0)
        if len(missing):
            if len(pairs) + len(missing) > PAIR_CACHE_LIMIT:
                pairs.clear()
            vocab, token_id = self._vocab, self._token_id
            tokens = list(map(bytes.__add__, map(vocab.__getitem__, left[missing].tolist()),
                              map(vocab.__getitem__, right[missing].tolist())))
            ranks = np.fromiter(map(self._merge_rank.get, tokens, repeat(_NO_RANK)), dtype=np.int64, count=len(tokens))
            # A token with a rank is in the vocab; the others get id 0 under _NO_RANK.
            ids = np.fromiter(map(token_id.get, tokens, repeat(0)), dtype=np.int64, count=len(tokens))
            found = np.where(ranks == _NO_RANK, _NO_PAIR, (ranks << 32) | ids)
            values[missing] = found
            pairs.update(zip(keys[missing].tolist(), found.tolist()))
        return values

    def _byte_pair_values(self) -> np.ndarray:
        """The value of every pair of bytes (the first step's pairs), indexed by byte << 8 | byte."""
        if self._byte_pairs is None:
            ids = self._byte_ids.tolist()
            self._byte_pairs = self._pair_values(
                np.repeat(np.array(ids, dtype=np.int64), 256), np.tile(np.array(ids, dtype=np.int64), 256)
            )
        return self._byte_pairs


def _split_at_permanent(piece: bytes, lifetimes: list[int]) -> list[bytes]:
    """Cut piece at the boundaries no merge removed: its tokens with the full vocabulary."""
    parts, start = [], 0
    for index, lifetime in enumerate(lifetimes):
        if lifetime == PERMANENT:
            parts.append(piece[start : index + 1])
            start = index + 1
    parts.append(piece[start:])
    return parts
