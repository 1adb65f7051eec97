"""tiktoken's BPE rule, readable top to bottom: the ids every fast path must give.

The twin of :mod:`bpe_core.encoding.fast`, as tiktoken's ``_educational.py`` is of its Rust core:
plain and slow (a Python step per pair, quadratic in a pre-token's length), so that the tests can
hold every fast path to it (``tests/test_fast_paths.py``).

>>> import bpe_core
>>> tokenizer = bpe_core.train("aaabdaaabac", 259, special_tokens=["<s>"]).tokenizer
>>> SimpleTokenizer.of(tokenizer).encode("aaabdaaabac<s>") == tokenizer.encode("aaabdaaabac<s>")
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from ..pretokenize import Normalization, normalize, pretokenize, replace_surrogates, split_on_special


class Tables(Protocol):
    """What :meth:`SimpleTokenizer.of` reads of a tokenizer (a :class:`~bpe_core.Tokenizer` has it all). A
    protocol, not the class: the fast paths import this module, and the Tokenizer imports them."""

    @property
    def mergeable_ranks(self) -> dict[bytes, int]: ...
    @property
    def merge_ranks(self) -> dict[bytes, int]: ...
    @property
    def special_tokens(self) -> dict[str, int]: ...
    @property
    def pattern(self) -> str | None: ...
    @property
    def normalization(self) -> Normalization | None: ...


class SimpleTokenizer:
    """A vocabulary as plain tables: each token's id, each merged token's merge rank, the special
    tokens and the pre-tokenization pattern."""

    def __init__(
        self,
        ids: Mapping[bytes, int],
        ranks: Mapping[bytes, int],
        specials: Mapping[str, int],
        pattern: str | None,
        normalization: Normalization | None = None,
    ):
        self.ids, self.ranks, self.special_tokens, self.pattern = ids, ranks, specials, pattern
        self.normalization = normalization

    @classmethod
    def of(cls, tokenizer: Tables) -> SimpleTokenizer:
        """The tables of a :class:`~bpe_core.Tokenizer`, read through its public API."""
        return cls(
            tokenizer.mergeable_ranks,
            tokenizer.merge_ranks,
            tokenizer.special_tokens,
            tokenizer.pattern,
            tokenizer.normalization,
        )

    def encode(self, text: str, *, special: bool = True) -> list[int]:
        """0. The text is put in the tokenizer's Unicode normalization form, if it has one (Qwen: NFC).
        1. Each special token (the longest where two overlap) is its id; ``special=False``: text.
        2. The text between them is cut into pre-tokens by the pattern; nothing merges across a cut.
        3. Each pre-token's UTF-8 bytes become tokens (:meth:`encode_pretoken`).
        UTF-8 cannot hold a lone surrogate: it becomes U+FFFD first, as in tiktoken."""
        specials = self.special_tokens if special else {}
        ids: list[int] = []
        text = normalize(text, self.normalization)
        for part, is_special in split_on_special(replace_surrogates(text), specials):
            if is_special:
                ids.append(specials[part])
                continue
            for pretoken in pretokenize(part, self.pattern):
                ids.extend(self.encode_pretoken(pretoken.encode("utf-8")))
        return ids

    def encode_pretoken(self, piece: bytes) -> list[int]:
        """A pre-token that is itself a token is that token, even where merging would not reach it;
        else :func:`bpe`. tiktoken's Rust core looks it up first (its ``_educational.py`` does not).
        In gpt2, cl100k_base and o200k_base merging reaches every token (checked: :func:`bpe` of
        each gives it whole), so this matters for vocabularies with a token that no merge makes, or
        that merging in rank order cannot reach, as here:

        >>> ids = {**{bytes([b]): b for b in range(256)}, b"ab": 256, b"bc": 257, b"cd": 258, b"abcd": 259}
        >>> simple = SimpleTokenizer(ids, {b"bc": 0, b"ab": 1, b"cd": 2, b"abcd": 3}, {}, None)
        >>> bpe(b"abcd", simple.ranks.get), simple.encode_pretoken(b"abcd")
        ([b'a', b'bc', b'd'], [259])
        """
        if piece in self.ids:
            return [self.ids[piece]]
        return [self.ids[part] for part in bpe(piece, self.ranks.get)]


def bpe(piece: bytes, rank_of: Callable[[bytes], int | None]) -> list[bytes]:
    """Start from single bytes; while some adjacent pair's concatenation has a merge rank, merge the
    pair with the lowest rank, the leftmost of equal ones.

    >>> bpe(b"aaab", {b"aa": 0, b"ab": 1, b"aab": 2}.get)
    [b'aa', b'ab']
    """
    parts = [piece[i : i + 1] for i in range(len(piece))]
    while len(parts) > 1:
        ranked = [(rank, i) for i in range(len(parts) - 1) if (rank := rank_of(parts[i] + parts[i + 1])) is not None]
        if not ranked:
            break
        _, i = min(ranked)  # the lowest rank; of equal ranks, the smallest i: the leftmost
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return parts
