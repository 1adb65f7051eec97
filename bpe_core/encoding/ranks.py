"""Merge ranks: the order in which merges apply, read from a list of merges or from a vocabulary
given as ranks, and each merge recovered from the ranks alone.

A tiktoken file lists each token with its rank, which is also its id; it does not store the
merges. Encoding needs only the order of the merged (multi-byte) tokens; which two tokens made
each one can be found when asked for (a GPT-2 export, a merge tree).

>>> ranks = merge_ranks_from_token_ranks({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"abc": 4})
>>> ranks, derive_merges(ranks)
({b'ab': 0, b'abc': 1}, [(b'a', b'b'), (b'ab', b'c')])
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping

from .educational import bpe

NO_RANK = 1 << 30
"""Above every merge rank: "this pair does not merge" wherever ranks are compared as integers (the
one-piece loop, the byte batch's keys). A vocabulary needs fewer merges than this."""


def merge_ranks_from_merges(merges: list[tuple[bytes, bytes]], vocabulary: Container[bytes]) -> dict[bytes, int]:
    """The rank of the merge that makes each token (the first, if two make the same token); a merge
    that uses or makes a token not in the vocabulary is a ValueError.

    >>> merge_ranks_from_merges([(b"a", b"b"), (b"ab", b"c")], {b"a", b"b", b"c", b"ab", b"abc"})
    {b'ab': 0, b'abc': 1}
    """
    merge_rank: dict[bytes, int] = {}
    for rank, (left, right) in enumerate(merges):
        for part in (left, right):
            if part not in vocabulary:
                raise ValueError(f"merge {rank} ({left!r}, {right!r}) uses {part!r}, which is not in the vocab")
        merged = left + right
        if merged not in vocabulary:
            raise ValueError(f"merge {rank} ({left!r}, {right!r}) makes {merged!r}, which is not in the vocab")
        merge_rank.setdefault(merged, rank)
    return merge_rank


def merge_ranks_from_token_ranks(token_ranks: Mapping[bytes, int]) -> dict[bytes, int]:
    """Each multi-byte token's merge rank: its place among the multi-byte tokens, by their ranks."""
    multi_byte = {token: rank for token, rank in token_ranks.items() if len(token) > 1}
    ordered = sorted(multi_byte, key=multi_byte.__getitem__)  # ranks are distinct: no ties to break
    return dict(zip(ordered, range(len(ordered))))


def derive_merges(merge_rank: Mapping[bytes, int]) -> list[tuple[bytes, bytes]]:
    """Recover each token's merge from ranks alone (see :func:`merge_parts`), in rank order."""
    ordered = sorted(merge_rank.items(), key=lambda item: item[1])
    return [merge_parts(token, rank, merge_rank.get) for token, rank in ordered]


def merge_parts(token: bytes, rank: int, rank_of: Callable[[bytes], int | None]) -> tuple[bytes, bytes]:
    """The two tokens whose merge made ``token`` (merge rank ``rank``; ``rank_of`` gives any token's).

    Found by BPE-encoding the token with only the merges ranked below its own: for a proper BPE
    vocabulary that leaves exactly two parts, the pair that made it; anything else is a ValueError.

    >>> ranks = {b"ab": 0, b"abc": 1}
    >>> merge_parts(b"abc", 1, ranks.get)
    (b'ab', b'c')
    """

    def rank_below(candidate: bytes) -> int | None:
        found = rank_of(candidate)
        return found if found is not None and found < rank else None

    parts = bpe(token, rank_below)
    if len(parts) != 2:
        raise ValueError(f"token {token!r} (merge rank {rank}) cannot be made by merging two lower-ranked tokens")
    return parts[0], parts[1]
