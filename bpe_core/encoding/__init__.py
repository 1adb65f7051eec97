"""Encoding and decoding: the tokenizers, and the rule they follow.

- :mod:`.tokenizer`: :class:`Tokenizer`, byte-level BPE exactly as tiktoken encodes;
- :mod:`.educational`: the rule, readable top to bottom; :mod:`.fast`: the paths that run it fast;
- :mod:`.arguments`: checking what callers pass; :mod:`.ranks`: merges read from ranks;
- :mod:`.lifetimes`: a text's segmentation at every vocab size from one pass;
- :mod:`.classic`: :class:`ClassicTokenizer`, classic BPE with an end-of-word mark;
- :mod:`.shape`: :class:`TokenizerShape`, what every tokenizer above gives (views ask it, never the type);
- :mod:`.dropout`: BPE-dropout, merges skipped at random while encoding (any tokenizer above);
- :mod:`.sentencepiece`: SentencePiece BPE models (Llama 2, Mistral), encoded as ``sentencepiece`` does.

>>> from bpe_core.encoding import Tokenizer
>>> Tokenizer({**{i: bytes([i]) for i in range(256)}, 256: b"ab"}, [(b"a", b"b")]).encode("abc")
[256, 99]
"""

from .classic import ClassicTokenizer
from .dropout import dropout_samples, encode_with_dropout
from .lifetimes import Segmentation
from .pre_tokenization import PreTokenization
from .shape import TokenizerShape
from .tokenizer import Tokenizer

__all__ = [
    "ClassicTokenizer",
    "PreTokenization",
    "Segmentation",
    "Tokenizer",
    "TokenizerShape",
    "dropout_samples",
    "encode_with_dropout",
]
