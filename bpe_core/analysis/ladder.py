"""A tokenizer at every vocab size, whatever its family: what choose, languages and health ask of it.

Every family's first k merges are a smaller tokenizer of the same family (:meth:`truncated`), and its
``segment`` gives a text's tokens at every k in one pass. A byte-level :class:`~bpe_core.Tokenizer` has fast
paths written on its merge ranks (:mod:`.emission`, :mod:`.reachability`); a Hugging Face pipeline (DeepSeek V4)
and a SentencePiece model (Mistral 7B v3) say the rest themselves, as data: ``merge_steps`` (k runs from 0 to it:
a pipeline's merge ranks, SentencePiece's score ranks), ``first_k()`` (each regular token's first size) and
``own_lifetimes(id)`` (a token's own symbols merged by its rule). So the analyses never ask which family a
tokenizer is; :func:`ladder` reads what it gives.

Vocab size with k merges: for a byte-level Tokenizer ``256 + k + specials`` (:mod:`.sizes`); for the others, the
regular tokens in the vocabulary at k plus every token that is one at every size (special, control, ``<unk>``),
so the full size is ``len(tokenizer.vocab)``.

>>> from bpe_core.reference import reference
>>> deepseek = ladder(reference("deepseek-v4"))
>>> deepseek.num_merges, deepseek.vocab_size(0), deepseek.vocab_size()
(127741, 1539, 129280)
"""

from __future__ import annotations

import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..encoding.lifetimes import PERMANENT
from .emission import Emissions, emissions_of, pretoken_spans, text_emissions, token_first_k
from .sizes import step_sizes

__all__ = ["Ladder", "ladder", "shape_emissions"]


@dataclass(frozen=True)
class Ladder:
    """One tokenizer's sizes (see the module's docstring): ``first_k[id]`` is the number of merges from which a
    regular token is in the vocabulary, -1 for a special token or an unused id."""

    tokenizer: Any
    num_merges: int
    first_k: np.ndarray
    sizes: np.ndarray  # vocab size at k = 0 .. num_merges
    fast: bool  # a byte-level Tokenizer: its merge ranks' fast paths

    def vocab_size(self, k: int | None = None) -> int:
        """Tokens in the vocabulary with the first ``k`` merges (all when None)."""
        return int(self.sizes[self.num_merges if k is None else k])

    def merges_for(self, vocab_size: int) -> int:
        """The most merges whose vocabulary holds at most ``vocab_size`` tokens, clamped to 0..num_merges."""
        return max(0, min(int(np.searchsorted(self.sizes, int(vocab_size), side="right")) - 1, self.num_merges))

    def truncated(self, k: int) -> Any:
        """The tokenizer with only its first ``k`` merges (the same family, ids unchanged)."""
        return self.tokenizer.truncated(k)

    def emissions(self, text: str) -> Emissions:
        """Every token's emissions in ``text`` at every size (:class:`.emission.Emissions`)."""
        if self.fast:
            return text_emissions(self.tokenizer, text)
        return shape_emissions(self.tokenizer, text)


_LADDERS: weakref.WeakKeyDictionary[Any, Ladder] = weakref.WeakKeyDictionary()


def ladder(tokenizer: Any) -> Ladder:
    """The :class:`Ladder` of a byte-level Tokenizer, a Hugging Face pipeline or a SentencePiece model (computed
    once per tokenizer object). Anything else is a TypeError saying what is needed."""
    found = _LADDERS.get(tokenizer)
    if found is None:
        found = _LADDERS[tokenizer] = _build(tokenizer)
    return found


def _build(tokenizer: Any) -> Ladder:
    if hasattr(tokenizer, "mergeable_ranks"):  # byte-level: 256 + k + specials
        n = tokenizer.num_merges
        base = 256 + len(tokenizer.special_tokens)
        return Ladder(tokenizer, n, token_first_k(tokenizer), base + np.arange(n + 1), True)
    if not all(hasattr(tokenizer, name) for name in ("merge_steps", "first_k", "truncated", "own_lifetimes")):
        raise TypeError(
            f"{type(tokenizer).__name__} does not say its sizes: the analyses take a byte-level Tokenizer, a Hugging "
            "Face pipeline or a SentencePiece model (classic BPE: bpe_core.language_costs and premiums_by_size only)"
        )
    first_k, sizes = step_sizes(tokenizer)
    return Ladder(tokenizer, tokenizer.merge_steps, first_k, sizes, False)


def shape_emissions(tokenizer: Any, text: str) -> Emissions:
    """:class:`.emission.Emissions` from ``tokenizer.segment(text)``, for any family: the segmentation is cut at
    its permanent boundaries (pre-tokens, added tokens), each distinct stretch's spans counted once and weighted,
    each span's token found with ``token_id`` (``unknown_id`` for a symbol no token covers)."""
    segmentation = tokenizer.segment(text)
    n, data, lifetimes = segmentation.num_merges, segmentation.data, segmentation.lifetimes
    cuts = np.flatnonzero(np.asarray(lifetimes, dtype=np.int64) == PERMANENT).tolist()
    stretches: Counter[tuple[Any, tuple[int, ...]]] = Counter()
    start = 0
    for cut in [*cuts, len(data) - 1] if len(data) else []:
        piece = data[start : cut + 1]
        stretches[piece if isinstance(piece, bytes) else tuple(piece), tuple(lifetimes[start:cut])] += 1
        start = cut + 1
    ids: dict[Any, int] = {}
    weights: Counter[tuple[int, int, int]] = Counter()
    for (piece, lives), count in stretches.items():
        for begin, end, first, last in pretoken_spans(piece, list(lives), n):
            if first > last:  # never one token (inside a multi-byte symbol)
                continue
            span = piece[begin:end]
            token = span if isinstance(span, bytes) else "".join(span)
            identifier = ids.get(token)
            if identifier is None:
                identifier = ids[token] = _token_id(tokenizer, token)
            weights[identifier, first, last] += count
    return emissions_of(weights, n, tokenizer.n_vocab, 0)  # an added token is a stretch of its own, counted too


def _token_id(tokenizer: Any, token: bytes | str) -> int:
    found = tokenizer.token_id(token)
    if found is None:
        found = tokenizer.unknown_id
    if found is None:
        raise ValueError(f"the segmentation has a token {token!r} that {tokenizer!r} has no id for")
    return int(found)
