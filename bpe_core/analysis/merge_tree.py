"""A token's merge tree: the two tokens merged into it, and theirs, down to single bytes.

>>> import bpe_core
>>> tokenizer = bpe_core.train("low lower lowest " * 10, 262).tokenizer
>>> merge_tree(tokenizer, tokenizer.encode(" lowest")[0]).reassemble()
b' lowest'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..encoding.ranks import merge_parts
from ..encoding.tokenizer import Tokenizer

__all__ = ["MergeTree", "merge_split", "merge_tree"]


def merge_split(tokenizer: Tokenizer, token: bytes) -> tuple[bytes, bytes] | None:
    """The two tokens whose merge made ``token`` (None for a single byte or a special token).

    Found as :func:`~bpe_core.encoding.ranks.merge_parts` finds it, so it works for any tokenizer,
    also one built from ranks (tiktoken files).

    >>> import bpe_core
    >>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
    >>> merge_split(tokenizer, b"aaab")
    (b'aaa', b'b')
    """
    rank = tokenizer.merge_rank(token)
    if rank is None:
        return None
    return merge_parts(token, rank, tokenizer.merge_rank)


@dataclass(frozen=True)
class MergeTree:
    """A token and, unless it is a single byte (or special token), the two tokens merged into it."""

    id: int
    token: bytes
    merge_rank: int | None
    left: MergeTree | None = None
    right: MergeTree | None = None

    @property
    def is_leaf(self) -> bool:
        """True for a single byte or a special token."""
        return self.left is None

    def reassemble(self) -> bytes:
        """The bytes of the leaves, left to right: always equal to ``token``."""
        if self.left is None or self.right is None:
            return self.token
        return self.left.reassemble() + self.right.reassemble()

    def depth(self) -> int:
        """Merges on the longest path down to a byte (0 for a leaf)."""
        if self.left is None or self.right is None:
            return 0
        return 1 + max(self.left.depth(), self.right.depth())

    def leaves(self) -> list[bytes]:
        """The bytes (or special token) at the leaves, left to right."""
        if self.left is None or self.right is None:
            return [self.token]
        return self.left.leaves() + self.right.leaves()


def merge_tree(tokenizer: Tokenizer, token_id: int) -> MergeTree:
    """The token's merge tree: its two parts, recursively, down to single bytes.

    >>> import bpe_core
    >>> tokenizer = bpe_core.train("aaabdaaabac", 259).tokenizer
    >>> tree = merge_tree(tokenizer, 258)
    >>> (tree.token, tree.left.token, tree.right.token, tree.leaves())
    (b'aaab', b'aaa', b'b', [b'a', b'a', b'a', b'b'])
    """
    token = tokenizer.token_bytes(token_id)
    ids_of = tokenizer.mergeable_ranks

    def build(identifier: int, data: bytes) -> MergeTree:
        if identifier in tokenizer.special_tokens.values() and ids_of.get(data) != identifier:
            return MergeTree(identifier, data, None)
        split = merge_split(tokenizer, data)
        if split is None:
            return MergeTree(identifier, data, None)
        left, right = split
        return MergeTree(
            identifier,
            data,
            tokenizer.merge_rank(data),
            build(ids_of[left], left),
            build(ids_of[right], right),
        )

    return build(int(token_id), token)
