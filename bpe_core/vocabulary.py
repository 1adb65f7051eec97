"""The data behind the Compare page: a text at every vocab size (the vocabulary's tokens, one row
each, are in :mod:`bpe_core.vocabulary_table`; a token's merge tree in :mod:`bpe_core.merge_tree`).

One training run to the largest size contains every smaller one (merges are a prefix), and
boundary lifetimes (:mod:`bpe_core.lifetimes`) give a text's segmentation with the first k
merges for every k from one pass. So the bytes-per-token curve over all vocab sizes costs about
one encoding of the text, not one per size.

**Vocab size** is the number of tokens in the vocabulary, as ``bpe_core.train`` counts it:
``256 + k + s`` with the first k merges and s special tokens (so a tokenizer trained with
``vocab_size=600`` and one special token has a curve from 257 to 600). For the reference
tokenizers it is ``len(tokenizer.vocab)``: GPT-2 50,257, cl100k_base 100,261 (its ids run to
100,276 with gaps), o200k_base 200,000. A special token in a text is one token at every size.

>>> import bpe_core
>>> tokenizer = bpe_core.train("low lower lowest " * 10, 262).tokenizer
>>> bytes_per_token_curve(tokenizer, "lowest low")[0]
(256, 1.0)
>>> bytes_per_token_curve(tokenizer, "lowest low")[-1]
(262, 2.5)
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import pairwise
from math import log

from .lifetimes import piece_lifetimes
from .pretokenize import pretokenize, split_on_special
from .tokenizer import Tokenizer

__all__ = [
    "BASE_VOCAB",
    "boundary_offsets",
    "bytes_per_token",
    "bytes_per_token_curve",
    "changed_tokens",
    "merges_for_vocab_size",
    "pretoken_counts",
    "sample_curve",
    "token_counts_by_size",
    "tokens_at_size",
    "vocab_size_of",
]

BASE_VOCAB = 256
"""Vocab size with no merges: the 256 single bytes."""


# -- sizes ----------------------------------------------------------------------------------------


def vocab_size_of(tokenizer: Tokenizer, k: int | None = None) -> int:
    """Tokens in the vocabulary with the first k merges (all merges when k is None):
    ``256 + k + number of special tokens``.

    >>> from bpe_core.reference import reference
    >>> vocab_size_of(reference("gpt2"))
    50257
    >>> vocab_size_of(reference("gpt2"), 0)
    257
    """
    if k is None:
        k = tokenizer.num_merges
    return BASE_VOCAB + len(tokenizer.special_tokens) + int(k)


def merges_for_vocab_size(tokenizer: Tokenizer, vocab_size: int) -> int:
    """k, the number of merges giving a vocabulary of ``vocab_size`` tokens, clamped to 0..num_merges.

    >>> import bpe_core
    >>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
    >>> [merges_for_vocab_size(tokenizer, size) for size in (100, 257, 259, 10_000)]
    [0, 1, 3, 3]
    """
    return max(0, min(int(vocab_size) - vocab_size_of(tokenizer, 0), tokenizer.num_merges))


# -- counting tokens at every size ----------------------------------------------------------------


def pretoken_counts(tokenizer: Tokenizer, text: str) -> tuple[Counter[bytes], int]:
    """(Counter of the UTF-8 pre-tokens of text, number of special tokens in it).

    >>> import bpe_core
    >>> tokenizer = bpe_core.train("a b", 257, special_tokens=["<s>"]).tokenizer
    >>> pretoken_counts(tokenizer, "a b<s>a")
    (Counter({b'a': 2, b' b': 1}), 1)
    """
    counts: Counter[str] = Counter()
    specials = 0
    for piece, is_special in split_on_special(text, tokenizer.special_tokens):
        if is_special:
            specials += 1
        else:
            counts.update(pretokenize(piece, tokenizer.pattern))
    encoded: Counter[bytes] = Counter()
    for piece, count in counts.items():
        encoded[piece.encode("utf-8", errors="surrogatepass")] += count
    return encoded, specials


def _merge_ranks(tokenizer: Tokenizer) -> dict[bytes, int]:
    """token bytes -> rank of the merge that makes it, from the public API only."""
    ranks = {}
    for token in tokenizer.mergeable_ranks:
        if len(token) > 1:
            rank = tokenizer.merge_rank(token)
            if rank is not None:
                ranks[token] = rank
    return ranks


def token_counts_by_size(tokenizer: Tokenizer, text: str) -> list[int]:
    """Token count of text with the first k merges, for every k in 0..num_merges.

    Equal to ``tokenizer.segment(text).token_counts()`` and to
    ``len(tokenizer.truncated(k).encode(text))`` for each k, but each distinct pre-token's
    lifetimes are computed once and weighted by its frequency, so a long text costs about as
    much as its vocabulary of pre-tokens.

    >>> import bpe_core
    >>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
    >>> token_counts_by_size(tokenizer, "aaabdaaabac")
    [11, 9, 7, 5]
    """
    n = tokenizer.num_merges
    pieces, specials = pretoken_counts(tokenizer, text)
    ranks = _merge_ranks(tokenizer)
    removed_at = [0] * (n + 1)  # removed_at[r]: boundaries (weighted) whose lifetime is exactly r
    total = specials
    for piece, count in pieces.items():
        total += count * len(piece)  # every byte a token at k = 0
        for lifetime in piece_lifetimes(piece, ranks):
            if 0 <= lifetime < n:
                removed_at[lifetime] += count
    counts = [total]
    for r in range(n):
        total -= removed_at[r]
        counts.append(total)
    return counts


def bytes_per_token_curve(tokenizer: Tokenizer, text: str) -> list[tuple[int, float]]:
    """(vocab size, bytes per token) of text for every vocab size, k = 0 .. num_merges merges.

    Exact: the point at size ``vocab_size_of(tokenizer, k)`` is
    ``len(text bytes) / len(tokenizer.truncated(k).encode(text))``.
    An empty text gives an empty curve.

    >>> import bpe_core
    >>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
    >>> bytes_per_token_curve(tokenizer, "aaabdaaabac")
    [(256, 1.0), (257, 1.2222222222222223), (258, 1.5714285714285714), (259, 2.2)]
    """
    n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
    if not n_bytes:
        return []
    counts = token_counts_by_size(tokenizer, text)
    base = vocab_size_of(tokenizer, 0)
    return [(base + k, n_bytes / count) for k, count in enumerate(counts)]


def sample_curve(curve: Sequence[tuple[int, float]], points: int = 400) -> list[tuple[int, float]]:
    """At most about ``points`` points of a curve, spread evenly on a log scale of vocab size,
    first and last always kept (a chart does not need 100,000 points).

    >>> len(sample_curve([(256 + k, 1.0) for k in range(100_000)], 50)) <= 51
    True
    """
    if len(curve) <= points:
        return list(curve)
    first, last = curve[0][0], curve[-1][0]
    span = log(last) - log(first)
    wanted = {round(first * (last / first) ** (i / (points - 1))) for i in range(points)} if span else {first}
    sizes = [size for size, _ in curve]
    keep = sorted({min(bisect_left(sizes, size), len(curve) - 1) for size in wanted} | {0, len(curve) - 1})
    return [curve[i] for i in keep]


def bytes_per_token(tokenizer: Tokenizer, text: str) -> float:
    """Bytes per token of text with the tokenizer's full vocabulary (0.0 for an empty text)."""
    n_bytes = len(text.encode("utf-8", errors="surrogatepass"))
    if not n_bytes:
        return 0.0
    return n_bytes / len(tokenizer.encode(text))


# -- one text at chosen sizes -------------------------------------------------------------------


def tokens_at_size(tokenizer: Tokenizer, text: str, vocab_size: int) -> tuple[list[bytes], list[int]]:
    """(tokens as bytes, ids) of text with the vocabulary cut to ``vocab_size`` tokens.

    Ids are the full tokenizer's (truncation keeps ids), so the result equals
    ``tokenizer.truncated(k).encode(text)`` with ``k = merges_for_vocab_size(tokenizer, vocab_size)``.

    >>> import bpe_core
    >>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
    >>> tokens_at_size(tokenizer, "aaab", 257)
    ([b'aa', b'a', b'b'], [256, 97, 98])
    """
    k = merges_for_vocab_size(tokenizer, vocab_size)
    tokens = tokenizer.segment(text).tokens_at(k)
    ids_of = tokenizer.mergeable_ranks
    specials = {token.encode("utf-8"): identifier for token, identifier in tokenizer.special_tokens.items()}
    ids = []
    for token in tokens:
        identifier = ids_of.get(token)
        ids.append(specials[token] if identifier is None else identifier)
    return tokens, ids


def boundary_offsets(tokens: Iterable[bytes]) -> list[int]:
    """Byte offsets where tokens start and end, 0 and the total length included.

    >>> boundary_offsets([b"ab", b"c", b"de"])
    [0, 2, 3, 5]
    """
    offsets = [0]
    for token in tokens:
        offsets.append(offsets[-1] + len(token))
    return offsets


def changed_tokens(tokens: Sequence[bytes], other_tokens: Sequence[bytes]) -> list[bool]:
    """For each token, whether the other segmentation of the same bytes lacks it (no token there
    with the same start and end): the tokens that differ between two views.

    Symmetric in spirit: against a finer view, the tokens a merge made are marked; against a
    coarser one, the pieces that were merged away.

    >>> changed_tokens([b"ab", b"c", b"d"], [b"a", b"b", b"cd"])
    [True, True, True]
    >>> changed_tokens([b"ab", b"c", b"d"], [b"ab", b"cd"])
    [False, True, True]
    >>> changed_tokens([b"ab", b"cd"], [b"ab", b"c", b"d"])
    [False, True]
    """
    offsets = boundary_offsets(tokens)
    other_offsets = boundary_offsets(other_tokens)
    other_spans = set(pairwise(other_offsets))
    return [(start, stop) not in other_spans for start, stop in pairwise(offsets)]
