"""Boundary lifetimes: a text's segmentation at every vocab size from one encoding pass.

Encoding a pre-token applies merges in order of rank until none applies. Every boundary between
two bytes is either removed by some merge or kept to the end. A tokenizer truncated to its first
k merges runs the same process and stops at the first step whose rank is >= k. So if a
boundary's *lifetime* is the highest rank applied up to and including the step that removed it,
encoding with the first k merges keeps exactly the boundaries whose lifetime is >= k.

(For real vocabularies ranks almost always rise step by step and the lifetime is simply the rank
of the merge that removed the boundary; taking the running maximum keeps the claim exact
when they do not.)
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise

PERMANENT = 2**31 - 1
"""Lifetime of a boundary no merge removes: between pre-tokens, or around a special token."""
INSIDE_SPECIAL = -1
"""Lifetime of a boundary inside a special token, which is one token at every vocab size."""


def merge_lifetimes(n: int, rank_of: Callable[[int, int, int], int | None]) -> list[int]:
    """Lifetimes of the n - 1 boundaries between n atoms, merged lowest rank first.

    ``rank_of(start, middle, stop)`` is the rank of the merge joining the part spanning atoms
    start..middle with the part spanning middle..stop, or None. Among equal ranks the leftmost
    goes first (tiktoken's order, and Sennrich's). O(n log n): a heap over a linked list of
    parts, so a whole text as one piece is fine.

    >>> merge_lifetimes(3, lambda start, middle, stop: {(0, 2): 0, (0, 3): 1}.get((start, stop)))
    [0, 1]
    """
    if n < 2:
        return []
    lifetimes = [PERMANENT] * (n - 1)
    end = list(range(1, n + 1))  # end[start] is where the part beginning at start ends
    previous_start = list(range(-1, n - 1))
    alive = [True] * n
    heap = [(rank, start) for start in range(n - 1) if (rank := rank_of(start, start + 1, start + 2)) is not None]
    heapq.heapify(heap)
    running_max = -1
    while heap:
        rank, start = heapq.heappop(heap)
        if not alive[start]:
            continue
        middle = end[start]
        if middle >= n:
            continue
        stop = end[middle]
        if rank_of(start, middle, stop) != rank:  # stale: one of the two parts has grown since
            continue
        running_max = max(running_max, rank)
        lifetimes[middle - 1] = running_max
        alive[middle] = False
        end[start] = stop
        if stop < n:
            previous_start[stop] = start
            new_rank = rank_of(start, stop, end[stop])
            if new_rank is not None:
                heapq.heappush(heap, (new_rank, start))
        before = previous_start[start]
        if before >= 0:
            new_rank = rank_of(before, start, stop)
            if new_rank is not None:
                heapq.heappush(heap, (new_rank, before))
    return lifetimes


def piece_lifetimes(piece: bytes, merge_rank: Mapping[bytes, int]) -> list[int]:
    """Lifetimes of the len(piece) - 1 boundaries inside one pre-token (tiktoken's rules).

    A merge is named by the bytes it makes, so joining two parts has the rank of their
    concatenation.

    >>> piece_lifetimes(b"abc", {b"ab": 0, b"abc": 1})
    [0, 1]
    """
    lifetimes = merge_lifetimes(len(piece), lambda start, _middle, stop: merge_rank.get(piece[start:stop]))
    # tiktoken emits a pre-token that is itself a token whole, without merging: at every size
    # where that token exists, all of its inner boundaries are gone.
    whole_rank = merge_rank.get(piece)
    if whole_rank is not None:
        lifetimes = [min(lifetime, whole_rank) for lifetime in lifetimes]
    return lifetimes


def text_segmentation(
    parts: Iterable[tuple[list[str], bool]], merge_rank: Mapping[bytes, int], num_merges: int
) -> Segmentation:
    """A text's :class:`Segmentation`, given as its parts in order: ``(pre-tokens, False)`` for text,
    ``([token], True)`` for a special token. Boundaries between pre-tokens are PERMANENT; inside a
    special token, INSIDE_SPECIAL.

    >>> text_segmentation([(["ab", "c"], False), (["<s>"], True)], {b"ab": 0}, 1).lifetimes
    [0, 2147483647, 2147483647, -1, -1]
    """
    data = bytearray()
    lifetimes: list[int] = []
    lifetimes_of: dict[str, list[int]] = {}  # a text repeats its pre-tokens: compute each once
    for pieces, is_special in parts:
        for pretoken in pieces:
            encoded = pretoken.encode("utf-8")
            if data:
                lifetimes.append(PERMANENT)
            if is_special:
                lifetimes.extend([INSIDE_SPECIAL] * (len(encoded) - 1))
            else:
                inner = lifetimes_of.get(pretoken)
                if inner is None:
                    inner = lifetimes_of[pretoken] = piece_lifetimes(encoded, merge_rank)
                lifetimes.extend(inner)
            data += encoded
    return Segmentation(bytes(data), lifetimes, num_merges)


@dataclass
class Segmentation:
    """A text's token boundaries at every vocab size.

    ``data`` holds the atoms: the text's bytes (byte-level BPE), or its symbols (classic BPE:
    characters and ``</w>``). ``lifetimes[j]`` belongs to the boundary between atom j and atom
    j + 1: with the first k merges that boundary is a token boundary iff ``lifetimes[j] >= k``.
    ``continuing_prefix``: the ``##`` that a word's later symbols carry (a Hugging Face model's
    ``continuing_subword_prefix``), which a merge drops from its right part (see :func:`join_symbols`).
    """

    data: bytes | Sequence[str]
    lifetimes: list[int]
    num_merges: int
    continuing_prefix: str = ""

    def boundaries_at(self, k: int) -> list[int]:
        """Byte offsets of the token boundaries with the first k merges, 0 and len(data) included."""
        if not self.data:
            return [0]
        inner = [j + 1 for j, lifetime in enumerate(self.lifetimes) if lifetime >= k]
        return [0, *inner, len(self.data)]

    def tokens_at(self, k: int) -> list[bytes] | list[str]:
        """The tokens of the text with the first k merges (bytes; classic: str)."""
        offsets = self.boundaries_at(k)
        if isinstance(self.data, bytes):
            return [self.data[start:stop] for start, stop in pairwise(offsets)]
        data, prefix = self.data, self.continuing_prefix
        return [join_symbols(data[start:stop], prefix) for start, stop in pairwise(offsets)]

    def token_count_at(self, k: int) -> int:
        """How many tokens the text has with the first k merges."""
        return self.token_counts()[min(max(k, 0), self.num_merges)]

    def token_counts(self) -> list[int]:
        """Token count with the first k merges, for every k from 0 to num_merges, in one pass."""
        n = self.num_merges
        removed_at = [0] * (n + 2)  # removed_at[r + 1]: boundaries whose lifetime is exactly r
        for lifetime in self.lifetimes:
            if 0 <= lifetime < n:
                removed_at[lifetime + 1] += 1
        kept_at_zero = sum(1 for lifetime in self.lifetimes if lifetime >= 0)
        first = 1 if self.data else 0
        return [first + kept_at_zero - removed for removed in accumulate(removed_at[: n + 1])]


def join_symbols(symbols: Sequence[str], continuing_prefix: str = "") -> str:
    """The token that symbols merge into: their text, each after the first without the continuing-subword prefix
    (Hugging Face's rule: ``a`` + ``##b`` is ``ab``, ``##b`` + ``##c`` is ``##bc``).

    >>> join_symbols(["a", "##b", "##c"], "##"), join_symbols(["##b", "##c"], "##"), join_symbols(["l", "o"])
    ('abc', '##bc', 'lo')
    """
    if not continuing_prefix or len(symbols) < 2:
        return "".join(symbols)
    cut = len(continuing_prefix)
    return symbols[0] + "".join(symbol[cut:] for symbol in symbols[1:])
