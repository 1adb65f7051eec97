"""How often each token is emitted at every vocab size, from boundary lifetimes in one pass.

With the first k merges a stretch of a pre-token is one token iff every boundary inside it has a
lifetime < k and the boundaries at its two ends have lifetimes >= k (:mod:`bpe_core.lifetimes`).
So a stretch that is a token at some size is a token for a whole range of sizes, ``first..last``:
``first`` is one more than the highest lifetime inside it, ``last`` the lower of its two ends'
lifetimes (capped at the tokenizer's own size). These *spans* nest, a tree per pre-token: each
one is a token until the merge that makes its parent, and the spans below an emitted token are
how BPE built it (its merge tree, as it happened in this text).

From a text's distinct pre-tokens, weighted by how often each occurs, this gives for every token
and every k: ``E_k``, how often it is emitted, and ``I_k``, how often it lies inside a bigger
emitted token. :class:`UsageSteps` holds both as step functions of k, so "how many tokens are
used fewer than 10 times" or "how many are never emitted" at every size is one count.

>>> import bpe_core
>>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
>>> emissions = text_emissions(tokenizer, "aaabdaaabac")
>>> emissions.token_counts().tolist()  # == token_counts_by_size
[11, 9, 7, 5]
>>> int(emissions.emitted_at(1)[256]), int(emissions.inside_at(3)[256])  # b"aa": emitted at k=1; inside b"aaab" at k=3
(2, 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ..encoding.lifetimes import PERMANENT, piece_lifetimes
from ..encoding.tokenizer import Tokenizer
from .curves import pretoken_counts

__all__ = ["Emissions", "UsageSteps", "pretoken_spans", "text_emissions", "token_first_k", "usage_steps"]


def pretoken_spans(piece: bytes, lifetimes: list[int], n: int) -> Iterator[tuple[int, int, int, int]]:
    """``(start, stop, first, last)`` of every span of one pre-token: ``piece[start:stop]`` is one
    token exactly for the sizes ``first <= k <= last`` (k merges, ``0 <= k <= n``).

    Boundaries that share a lifetime and sit in one span vanish together, so they make one span.

    >>> sorted(pretoken_spans(b"abc", [0, 1], 2))
    [(0, 1, 0, 0), (0, 2, 1, 1), (0, 3, 2, 2), (1, 2, 0, 0), (2, 3, 0, 1)]
    """
    size = len(piece)
    edges = [PERMANENT, *lifetimes, PERMANENT]  # edges[o]: lifetime of the boundary at byte offset o
    for offset in range(size):
        yield offset, offset + 1, 0, min(edges[offset], edges[offset + 1], n)
    # For each inner boundary: the nearest boundary on its left with a lifetime >= its own, and on its
    # right with a lifetime > its own (two monotonic stacks, linear even for a whole text as one piece).
    previous_ge = [0] * size
    stack = [0]
    for offset in range(1, size):
        while edges[stack[-1]] < edges[offset]:
            stack.pop()
        previous_ge[offset] = stack[-1]
        stack.append(offset)
    next_gt = [size] * size
    stack = [size]
    for offset in range(size - 1, 0, -1):
        while stack[-1] != size and edges[stack[-1]] <= edges[offset]:
            stack.pop()
        next_gt[offset] = stack[-1]
        stack.append(offset)
    for offset in range(1, size):
        lifetime, left = edges[offset], previous_ge[offset]
        # Never removed, or not the leftmost of the tied boundaries that vanish together.
        if lifetime >= n or edges[left] == lifetime:
            continue
        right = next_gt[offset]
        yield left, right, lifetime + 1, min(edges[left], edges[right], n)


@dataclass(frozen=True)
class Emissions:
    """Every span of a text's pre-tokens (see the module docstring), as arrays: the token ``ids``,
    the sizes ``first..last`` at which each is a token, and ``weight``, how often it occurs."""

    num_merges: int
    n_vocab: int
    ids: np.ndarray
    first: np.ndarray
    last: np.ndarray
    weight: np.ndarray
    special_count: int  # special tokens in the text: one token each at every size

    def token_counts(self) -> np.ndarray:
        """Tokens in the text with the first k merges, k = 0 .. num_merges (specials included)."""
        n = self.num_merges
        change = np.bincount(self.first, self.weight, minlength=n + 2)
        change -= np.bincount(self.last + 1, self.weight, minlength=n + 2)
        return (np.cumsum(change)[: n + 1] + self.special_count).round().astype(np.int64)

    def emitted_at(self, k: int) -> np.ndarray:
        """How often each token id is emitted with the first k merges (array of length n_vocab)."""
        where = (self.first <= k) & (k <= self.last)
        return np.bincount(self.ids[where], self.weight[where], minlength=self.n_vocab).round().astype(np.int64)

    def inside_at(self, k: int) -> np.ndarray:
        """How often each token id lies inside a bigger emitted token with the first k merges."""
        where = self.last < k
        return np.bincount(self.ids[where], self.weight[where], minlength=self.n_vocab).round().astype(np.int64)


def text_emissions(tokenizer: Tokenizer, text: str) -> Emissions:
    """The spans of ``text`` for ``tokenizer`` at every size, from its distinct pre-tokens."""
    n = tokenizer.num_merges
    pieces, specials = pretoken_counts(tokenizer, text)
    ranks = tokenizer.merge_ranks
    token_id = tokenizer.mergeable_ranks
    weights: Counter[tuple[int, int, int]] = Counter()  # (id, first, last) -> occurrences
    for piece, count in pieces.items():
        for start, stop, first, last in pretoken_spans(piece, piece_lifetimes(piece, ranks), n):
            weights[token_id[piece[start:stop]], first, last] += count
    return emissions_of(weights, n, tokenizer.n_vocab, specials)


def emissions_of(weights: Counter[tuple[int, int, int]], n: int, n_vocab: int, special_count: int) -> Emissions:
    """:class:`Emissions` from occurrences by (id, first, last) of a tokenizer of ``n`` merges."""
    keys = np.array(list(weights), dtype=np.int64).reshape(-1, 3)
    return Emissions(
        num_merges=n,
        n_vocab=n_vocab,
        ids=keys[:, 0],
        first=keys[:, 1],
        last=keys[:, 2],
        weight=np.fromiter(weights.values(), dtype=np.int64, count=len(weights)),
        special_count=special_count,
    )


def token_first_k(tokenizer: Tokenizer) -> np.ndarray:
    """For each id, the number of merges from which the token is in the vocabulary: 0 for single
    bytes, rank + 1 for a merge's token; -1 for special tokens and unused ids. (A regular token no
    merge makes, possible in a loaded vocabulary, is counted at the full size only.)

    >>> import bpe_core
    >>> token_first_k(bpe_core.train("aaabdaaabac", 259).tokenizer)[[97, 256, 258]].tolist()
    [0, 1, 3]
    """
    first_k = np.full(tokenizer.n_vocab, -1, dtype=np.int64)
    for token, identifier in tokenizer.mergeable_ranks.items():
        rank = tokenizer.merge_rank(token)
        first_k[identifier] = 0 if len(token) == 1 else tokenizer.num_merges if rank is None else rank + 1
    return first_k


@dataclass(frozen=True)
class UsageSteps:
    """Each token's use as a step function of k: on ``start <= k < stop`` the token ``ids`` is in the
    vocabulary, emitted ``emitted`` times and inside bigger emitted tokens ``inside`` times."""

    num_merges: int
    ids: np.ndarray
    start: np.ndarray
    stop: np.ndarray
    emitted: np.ndarray
    inside: np.ndarray

    def count_by_size(self, where: np.ndarray) -> np.ndarray:
        """For every k = 0 .. num_merges, how many tokens are in a step where ``where`` holds."""
        n = self.num_merges
        change = np.bincount(self.start[where], minlength=n + 2) - np.bincount(self.stop[where], minlength=n + 2)
        return np.cumsum(change)[: n + 1]


def usage_steps(emissions: Emissions, first_k: np.ndarray) -> UsageSteps:
    """:class:`UsageSteps` of every token with ``first_k >= 0`` (see :func:`token_first_k`)."""
    n = emissions.num_merges
    regular = np.flatnonzero(first_k >= 0)
    ends = emissions.last < n  # a span absorbed into a bigger token before the full size
    zeros, weight = np.zeros(len(regular), dtype=np.int64), emissions.weight
    # Events: a token enters the vocabulary; a span starts being emitted; a span is absorbed.
    ids = np.concatenate([regular, emissions.ids, emissions.ids[ends]])
    at = np.concatenate([first_k[regular], emissions.first, emissions.last[ends] + 1])
    emitted_change = np.concatenate([zeros, weight, -weight[ends]])
    inside_change = np.concatenate([zeros, np.zeros_like(weight), weight[ends]])
    order = np.lexsort((at, ids))
    ids, at, emitted_change, inside_change = ids[order], at[order], emitted_change[order], inside_change[order]
    # Running sums per token: global sums less what came before the token's first event.
    new_token = np.r_[True, ids[1:] != ids[:-1]]
    group = np.cumsum(new_token) - 1
    emitted, inside = np.cumsum(emitted_change), np.cumsum(inside_change)
    emitted -= (emitted - emitted_change)[new_token][group]
    inside -= (inside - inside_change)[new_token][group]
    # One step per (token, k): the state after the last event at that k, until the token's next event.
    last_at_k = np.r_[(ids[1:] != ids[:-1]) | (at[1:] != at[:-1]), True]
    ids, at, emitted, inside = ids[last_at_k], at[last_at_k], emitted[last_at_k], inside[last_at_k]
    same_token_next = np.r_[ids[1:] == ids[:-1], False]
    stop = np.where(same_token_next, np.r_[at[1:], 0], n + 1)
    return UsageSteps(n, ids, at, stop, emitted, inside)
