"""One text at chosen vocab sizes, side by side: its tokens at each size, and the tokens that
differ between two views (the Compare page's side-by-side view).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import cast

from ..encoding.tokenizer import Tokenizer
from .sizes import merges_for_vocab_size


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
    tokens = cast("list[bytes]", tokenizer.segment(text).tokens_at(k))  # a byte-level tokenizer's atoms are bytes
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


ALIGNED_BYTES = 512
"""Tokens that differ from their text in more than a leading space are aligned to it (``difflib``) up to this many
bytes of it: its worst case grows about as the cube (many scattered differences: 0.65 s at 1,000 bytes, 5 s at 2,000,
40 s at 4,000, measured here); past it they are placed by their own bytes."""


def text_offsets(tokens: Sequence[bytes], text: bytes) -> list[int]:
    """:func:`boundary_offsets` in ``text``: where tokens that do not spell the text exactly start and end in it. A
    SentencePiece model's tokens begin with a space the text lacks (its dummy prefix, ▁), and a normalization may
    change or drop characters: then, on a short text (``ALIGNED_BYTES``), the token bytes are aligned to the text's
    (``difflib``), and each edge goes to the text position of the bytes it follows (in a stretch the text lacks, to
    where the text goes on).

    >>> text_offsets([b" Hello", b" world"], b"Hello world")
    [0, 5, 11]
    """
    offsets = boundary_offsets(tokens)
    joined = b"".join(tokens)
    if joined == text:
        return offsets
    if joined[:1] == b" " and joined[1:] == text:  # a SentencePiece model's dummy prefix: the usual difference
        return [max(offset - 1, 0) for offset in offsets]
    if len(text) > ALIGNED_BYTES or len(joined) > 2 * ALIGNED_BYTES:
        return offsets
    import difflib

    blocks = difflib.SequenceMatcher(None, joined, text, autojunk=False).get_matching_blocks()
    aligned, block = [], 0
    for offset in offsets:
        while block < len(blocks) - 1 and offset > blocks[block].a + blocks[block].size:
            block += 1
        start, text_start, size = blocks[block]
        aligned.append(text_start + min(max(offset - start, 0), size))
    return aligned


def changed_tokens(tokens: Sequence[bytes], other_tokens: Sequence[bytes], text: bytes | None = None) -> list[bool]:
    """For each token, whether the other segmentation of the same bytes lacks it (no token there
    with the same start and end): the tokens that differ between two views. Given the ``text`` both cut,
    edges are placed in it (:func:`text_offsets`): a model that adds or normalizes characters is compared by
    where its tokens fall in the text, not by its own bytes.

    Symmetric in spirit: against a finer view, the tokens a merge made are marked; against a
    coarser one, the pieces that were merged away.

    >>> changed_tokens([b"ab", b"c", b"d"], [b"a", b"b", b"cd"])
    [True, True, True]
    >>> changed_tokens([b"ab", b"c", b"d"], [b"ab", b"cd"])
    [False, True, True]
    >>> changed_tokens([b"ab", b"cd"], [b"ab", b"c", b"d"])
    [False, True]
    >>> changed_tokens([b" Hello", b" world"], [b"Hello", b" world"], b"Hello world")
    [False, False]
    """
    place = boundary_offsets if text is None else lambda cut: text_offsets(cut, text)
    offsets, other_spans = place(tokens), set(pairwise(place(other_tokens)))
    return [(start, stop) not in other_spans for start, stop in pairwise(offsets)]
