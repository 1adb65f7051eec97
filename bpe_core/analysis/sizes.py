"""Vocab size, one definition for every view: the number of tokens in the vocabulary, as
``bpe_core.train`` counts it, ``256 + k + s`` with the first k merges and s special tokens (so a
tokenizer trained with ``vocab_size=600`` and one special token has sizes 257 to 600). For the
reference tokenizers it is ``len(tokenizer.vocab)``: GPT-2 50,257, cl100k_base 100,261 (its ids
run to 100,276 with gaps), o200k_base 200,000; for a tokenizer that is not a byte-level ``Tokenizer`` (a Hugging
Face pipeline, SentencePiece), its vocabulary's size at every k.
"""

from __future__ import annotations

from ..encoding.sentencepiece import SentencePieceTokenizer
from ..encoding.tokenizer import Tokenizer
from ..pipeline import PipelineTokenizer

BASE_VOCAB = 256
"""Vocab size with no merges: the 256 single bytes."""


def vocab_size_of(tokenizer: Tokenizer | PipelineTokenizer | SentencePieceTokenizer, k: int | None = None) -> int:
    """Tokens in the vocabulary with the first k merges (all merges when k is None):
    ``256 + k + number of special tokens``.

    >>> from bpe_core.reference import reference
    >>> vocab_size_of(reference("gpt2"))
    50257
    >>> vocab_size_of(reference("gpt2"), 0)
    257
    """
    if isinstance(tokenizer, (PipelineTokenizer, SentencePieceTokenizer)):  # DeepSeek V4, Mistral 7B v3: not 256 + k
        return len(tokenizer.vocab)
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
