"""A text at every vocab size at once: token counts and bytes per token, for the Compare page's curve.

One training run to the largest size contains every smaller one (merges are a prefix), and
boundary lifetimes (:mod:`bpe_core.encoding.lifetimes`) give a text's segmentation with the first
k merges for every k from one pass. So the bytes-per-token curve over all vocab sizes costs about
one encoding of the text, not one per size. Sizes are counted as :mod:`.sizes` says; a special
token in a text is one token at every size.

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
from collections.abc import Sequence
from math import log
from typing import TypeVar

from ..encoding.lifetimes import piece_lifetimes
from ..encoding.tokenizer import Tokenizer
from ..pretokenize import normalize, pretokenize, split_on_special
from .sizes import vocab_size_of


def pretoken_counts(tokenizer: Tokenizer, text: str) -> tuple[Counter[bytes], int]:
    """(Counter of the UTF-8 pre-tokens of text, number of special tokens in it).

    >>> import bpe_core
    >>> tokenizer = bpe_core.train("a b", 257, special_tokens=["<s>"]).tokenizer
    >>> pretoken_counts(tokenizer, "a b<s>a")
    (Counter({b'a': 2, b' b': 1}), 1)
    """
    counts: Counter[str] = Counter()
    specials = 0
    text = normalize(text, tokenizer.normalization)  # what encoding sees (Qwen: NFC)
    for piece, is_special in split_on_special(text, tokenizer.special_tokens):
        if is_special:
            specials += 1
        else:
            counts.update(pretokenize(piece, tokenizer.pattern))
    encoded: Counter[bytes] = Counter()
    for piece, count in counts.items():
        encoded[piece.encode("utf-8", errors="surrogatepass")] += count
    return encoded, specials


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
    ranks = tokenizer.merge_ranks
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


Y = TypeVar("Y")


def sample_curve(curve: Sequence[tuple[int, Y]], points: int = 400) -> list[tuple[int, Y]]:
    """At most about ``points`` points of a curve, spread evenly on a log scale of vocab size,
    first and last always kept (a chart does not need 100,000 points). The points kept are the curve's own, so a
    point may carry anything besides its size (an index, say).

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
