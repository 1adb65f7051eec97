"""The LOOP and HEAP paths (see :mod:`.routes`): one pre-token at a time, none a whole token.

>>> token_id = {**{bytes([b]): b for b in range(256)}, b"ab": 256, b"abc": 257}
>>> merge_rank = {b"ab": 0, b"abc": 1}
>>> loop(token_id, merge_rank, b"abcab"), heap(token_id, merge_rank, b"abcab")
([257, 256], [257, 256])
"""

from __future__ import annotations

from collections.abc import Mapping

from ..lifetimes import PERMANENT, piece_lifetimes
from ..ranks import NO_RANK, merge_loop


def loop(token_id: Mapping[bytes, int], merge_rank: Mapping[bytes, int], piece: bytes) -> list[int]:
    """tiktoken's loop (:func:`~bpe_core.encoding.ranks.merge_loop` from single bytes). Quadratic in the piece's
    length: for short pieces (three bytes or fewer, most often one CJK character among a cut pre-token's parts, take
    a few lookups instead)."""
    if len(piece) <= 3:
        return _up_to_three(token_id, merge_rank, piece)
    return [token_id[part] for part in merge_loop(merge_rank, [piece[i : i + 1] for i in range(len(piece))])]


def _up_to_three(token_id: Mapping[bytes, int], merge_rank: Mapping[bytes, int], piece: bytes) -> list[int]:
    """The loop's result for a piece of one to three bytes: at most two merges, the first the lower-ranked
    pair (the left one on a tie), the second whether the whole piece is a merge's result."""
    if len(piece) < 3:
        if len(piece) == 1 or piece in merge_rank:
            return [token_id[piece]]
        return [token_id[piece[:1]], token_id[piece[1:]]]
    left, right = merge_rank.get(piece[:2], NO_RANK), merge_rank.get(piece[1:], NO_RANK)
    if left == NO_RANK and right == NO_RANK:
        return [token_id[piece[:1]], token_id[piece[1:2]], token_id[piece[2:]]]
    if piece in merge_rank:
        return [token_id[piece]]
    if left <= right:
        return [token_id[piece[:2]], token_id[piece[2:]]]
    return [token_id[piece[:1]], token_id[piece[1:]]]


def heap(token_id: Mapping[bytes, int], merge_rank: Mapping[bytes, int], piece: bytes) -> list[int]:
    """The piece cut where its boundary lifetimes say no merge removes a boundary: n log n (a heap
    over the parts), for long pieces (a whole text with no pre-tokenization)."""
    tokens, start = [], 0
    for index, lifetime in enumerate(piece_lifetimes(piece, merge_rank)):
        if lifetime == PERMANENT:
            tokens.append(piece[start : index + 1])
            start = index + 1
    tokens.append(piece[start:])
    return [token_id[token] for token in tokens]
