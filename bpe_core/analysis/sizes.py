"""Vocab size, one definition for every view: the number of tokens in the vocabulary, as
``bpe_core.train`` counts it, ``256 + k + s`` with the first k merges and s special tokens (so a
tokenizer trained with ``vocab_size=600`` and one special token has sizes 257 to 600). For the
reference tokenizers it is ``len(tokenizer.vocab)``: GPT-2 50,257, cl100k_base 100,261 (its ids
run to 100,276 with gaps), o200k_base 200,000; for a tokenizer that is not a byte-level ``Tokenizer`` (a Hugging
Face pipeline, SentencePiece), its vocabulary's size at every k (:mod:`.ladder`).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from ..encoding.tokenizer import Tokenizer

if TYPE_CHECKING:
    import numpy as np

    from ..encoding.shape import TokenizerShape

BASE_VOCAB = 256
"""Vocab size with no merges: the 256 single bytes."""

_STEPS: weakref.WeakKeyDictionary[Any, tuple[np.ndarray, np.ndarray]] = weakref.WeakKeyDictionary()


def step_sizes(tokenizer: Any) -> tuple[np.ndarray, np.ndarray]:
    """For a tokenizer that says its sizes (``merge_steps``, ``first_k()``: a Hugging Face pipeline, a SentencePiece
    model): each id's first size in merges (-1: one token at every size, or no token), and the vocab size at every
    k = 0 .. merge_steps: its regular tokens then, plus every token that is one at every size (special, control,
    ``<unk>``). Computed once per tokenizer object (numpy is imported here, on first use)."""
    found = _STEPS.get(tokenizer)
    if found is None:
        import numpy as np

        n = tokenizer.merge_steps
        first_k = np.full(tokenizer.n_vocab, -1, dtype=np.int64)
        for identifier, k in tokenizer.first_k().items():
            first_k[identifier] = k
        regular = first_k[first_k >= 0]
        fixed = len(tokenizer.vocab) - len(regular)
        found = _STEPS[tokenizer] = (first_k, fixed + np.cumsum(np.bincount(regular, minlength=n + 1)[: n + 1]))
    return found


def vocab_size_of(tokenizer: TokenizerShape, k: int | None = None) -> int:
    """Tokens in the vocabulary with the first k merges (all merges when k is None):
    ``256 + k + number of special tokens`` for a byte-level Tokenizer; for a pipeline or a SentencePiece model
    (DeepSeek V4, Mistral 7B v3), its regular tokens at k and its special ones (:mod:`.ladder`).

    >>> from bpe_core.reference import reference
    >>> vocab_size_of(reference("gpt2"))
    50257
    >>> vocab_size_of(reference("gpt2"), 0)
    257
    >>> vocab_size_of(reference("mistral-7b-v3"), 0), vocab_size_of(reference("mistral-7b-v3"))
    (4322, 32768)
    """
    if not isinstance(tokenizer, Tokenizer):
        sizes = step_sizes(tokenizer)[1]
        return int(sizes[-1 if k is None else k])
    if k is None:
        k = tokenizer.num_merges
    return BASE_VOCAB + len(tokenizer.special_tokens) + int(k)


def merges_for_vocab_size(tokenizer: TokenizerShape, vocab_size: int) -> int:
    """k, the number of merges giving a vocabulary of ``vocab_size`` tokens (at most that many where a step adds
    several), clamped to 0..num_merges.

    >>> import bpe_core
    >>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
    >>> [merges_for_vocab_size(tokenizer, size) for size in (100, 257, 259, 10_000)]
    [0, 1, 3, 3]
    """
    if not isinstance(tokenizer, Tokenizer):
        sizes = step_sizes(tokenizer)[1]
        return max(0, min(int(sizes.searchsorted(int(vocab_size), side="right")) - 1, len(sizes) - 1))
    return max(0, min(int(vocab_size) - vocab_size_of(tokenizer, 0), tokenizer.num_merges))
