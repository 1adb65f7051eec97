"""The DIGITS and TABLE paths (see :mod:`.routes`): BPE of many number pre-tokens (`` ?[0-9]+``) at
once, on small integers instead of bytes objects.

GPT-2's pattern keeps whole digit runs, so a table of random numbers is one new pre-token per
number and BPE dominates (a numeric CSV took 2.8x the time of prose). Inside such a pre-token
every part is itself a digit run with at most a leading space, so only the tokens of that form
(1,691 in GPT-2) can ever take part: they get small indices, and a dense table indexed by
``left * n + right`` holds each pair's merge order and merged token. A merge step is then a
handful of numpy operations on integers, with no Python object made per symbol and no search:
:class:`~.byte_batch.ByteBatch` looks pairs up in a sorted array of the whole vocabulary.

The rule is tiktoken's, unchanged: merge the lowest-ranked pair, leftmost first on equal ranks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import compress, repeat
from operator import is_

import numpy as np  # this module is imported only when there are numbers to encode

from .batch_steps import interleave, merge_steps, per_piece

_PART = re.compile(rb" ?[0-9]*")  # what a token inside such a pre-token can be (nonempty)

MAX_TOKENS = 2048
"""Vocabularies with more tokens of that form are left to the general batch: the dense pair
table has tokens x (tokens without a space) entries of 4 bytes (6.7 MB for GPT-2's 1,692)."""

_MERGED_BITS = 16
NO_ORDER = (1 << 15) - 1
"""The pair table's "this pair does not merge": above every pair's merge order. An order is not a
rank: only the ranks of the merges that occur inside numbers count, numbered from 0 in their order,
so that they fit the table's 15-bit field (an int32 entry, order << 16 | merged token)."""


def digit_run_encoder(token_id: Mapping[bytes, int], merge_rank: Mapping[bytes, int]) -> DigitRunEncoder | None:
    """The encoder for this vocabulary, or None if its table would be too big (see MAX_TOKENS)."""
    # Digits-only tokens first: only they can be the right side of a pair (a space only starts one).
    tokens = sorted((token for token in token_id if token and _PART.fullmatch(token)), key=lambda t: (t[:1] == b" ", t))
    if len(tokens) > MAX_TOKENS:
        return None
    return DigitRunEncoder(tokens, token_id, merge_rank)


class DigitRunEncoder:
    """Digit-run pre-tokens -> ids for one vocabulary (see the module docstring)."""

    def __init__(self, tokens: list[bytes], token_id: Mapping[bytes, int], merge_rank: Mapping[bytes, int]):
        index = {token: number for number, token in enumerate(tokens)}
        self._rights = rights = sum(1 for token in tokens if token[:1] != b" ")
        self._ids = np.array([token_id[token] for token in tokens], dtype=np.int64)
        self._whole_id = {token.decode("ascii"): token_id[token] for token in tokens}
        self._index_of_byte = np.zeros(256, dtype=np.int64)
        for byte in b" 0123456789":
            self._index_of_byte[byte] = index[bytes([byte])]
        # Every way a token of this form is the merge of two others; its rank is the token's. Only
        # these pairs occur inside a number, so their ranks' order among themselves is all the rule
        # needs: equal ranks (two ways to make one token) keep equal orders, for the leftmost rule.
        pairs = [
            (merge_rank[token], index[token[:cut]], index[token[cut:]], index[token])
            for token in tokens
            if token in merge_rank
            for cut in range(1, len(token))
            if token[:cut] in index and token[cut:] in index
        ]
        order_of = {rank: order for order, rank in enumerate(sorted({pair[0] for pair in pairs}))}
        # A dense table left * rights + right -> order << 16 | merged token (< MAX_TOKENS).
        table = np.full(len(tokens) * rights, NO_ORDER << _MERGED_BITS, dtype=np.int32)
        for rank, left, right, merged in pairs:
            table[left * rights + right] = order_of[rank] << _MERGED_BITS | merged
        self._table = table

    def not_whole(self, numbers: list[str]) -> list[str]:
        """Those of the numbers that are not whole tokens."""
        return list(compress(numbers, map(is_, map(self._whole_id.get, numbers), repeat(None))))

    def encode_flat(self, numbers: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """All the numbers' ids one after another, and how many each has (each number an ASCII
        `` ?[0-9]+`` text): a whole token is itself, the rest go through the batch. For a table's
        numbers, which hardly repeat, this is cheaper than a cache: no bytes object, list or dict
        entry per number."""
        whole_ids = np.fromiter(map(self._whole_id.get, numbers, repeat(-1)), dtype=np.int64, count=len(numbers))
        is_merged = whole_ids < 0
        rest = list(compress(numbers, is_merged.tolist()))
        if not rest:
            return whole_ids, np.ones(len(numbers), dtype=np.int64)
        lengths = np.fromiter(map(len, rest), dtype=np.int64, count=len(rest))
        merged_ids, merged_counts = self._encode_joined(lengths, "".join(rest).encode("ascii"))
        return interleave(is_merged, merged_ids, merged_counts, whole_ids[~is_merged], None)

    def encode(self, pieces: list[bytes]) -> list[tuple[int, ...]]:
        """The ids of each piece (a :data:`.routes.DIGIT_RUN` match that is not a whole token), in order."""
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        ids, counts = self._encode_joined(lengths, b"".join(pieces))
        return per_piece(ids.tolist(), counts)

    def _encode_joined(self, lengths: np.ndarray, joined: bytes) -> tuple[np.ndarray, np.ndarray]:
        """The pieces' ids one after another, and how many each has (the steps: :func:`.merge_steps`)."""
        symbols = self._index_of_byte[np.frombuffer(joined, dtype=np.uint8)]
        # Pairs across two pieces may have a space on the right, outside the table: clipped here,
        # they start no pair anyway (merge_steps ignores a piece's last symbol).
        first_orders, merged = self._pairs(symbols[:-1], np.minimum(symbols[1:], self._rights - 1))
        first_orders, merged = np.append(first_orders, NO_ORDER), np.append(merged, 0)

        def merge(at: np.ndarray, absorbed: np.ndarray) -> None:
            symbols[at] = merged[at]

        def order_pairs(left: np.ndarray, right: np.ndarray) -> np.ndarray:
            orders, merged[left] = self._pairs(symbols[left], symbols[right])
            return orders

        alive, counts = merge_steps(first_orders, lengths, NO_ORDER, merge, order_pairs)
        return self._ids[symbols[alive]], counts

    def _pairs(self, left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The merge order (NO_ORDER if none) and merged token index of each pair of symbol indices."""
        found = self._table[left * self._rights + right].astype(np.int64)
        return found >> _MERGED_BITS, found & ((1 << _MERGED_BITS) - 1)
