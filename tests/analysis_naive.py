"""Independent, deliberately slow computations for the analysis tests (choose, languages, health):
each one encodes with a truncated tokenizer or walks merge trees, sharing no code with
bpe_core.analysis.emission, bpe_core.analysis.reachability or bpe_core.analysis.health."""

from __future__ import annotations

from collections import Counter

from bpe_core import Tokenizer
from bpe_core.analysis.merge_tree import merge_tree


def usage_at(tokenizer: Tokenizer, text: str, k: int) -> tuple[Counter[int], Counter[int]]:
    """(how often each regular id is emitted, how often each id lies strictly inside the merge tree
    of an emitted token) when encoding text with the first k merges; special tokens left out."""
    truncated = tokenizer.truncated(k)
    specials = set(tokenizer.special_tokens.values())
    emitted = Counter(identifier for identifier in truncated.encode(text) if identifier not in specials)
    inside: Counter[int] = Counter()
    for identifier, count in emitted.items():
        stack = [merge_tree(truncated, identifier)]
        while stack:
            node = stack.pop()
            for child in (node.left, node.right):
                if child is not None:
                    inside[child.id] += count
                    stack.append(child)
    return emitted, inside


def in_vocabulary(tokenizer: Tokenizer, k: int) -> list[int]:
    """Ids of the regular tokens with the first k merges."""
    return [
        identifier
        for token, identifier in tokenizer.mergeable_ranks.items()
        if len(token) == 1 or (tokenizer.merge_rank(token) is not None and tokenizer.merge_rank(token) < k)
    ]


def merges_build(token: bytes, tokenizer: Tokenizer, k: int) -> bool:
    """Whether merging token's bytes with the first k merges (lowest rank of the concatenation first,
    leftmost on ties, no whole-token shortcut) ends in the token itself."""
    parts = [bytes([byte]) for byte in token]
    while len(parts) > 1:
        ranked = []
        for index, (left, right) in enumerate(zip(parts, parts[1:])):
            rank = tokenizer.merge_rank(left + right)
            if rank is not None and rank < k:
                ranked.append((rank, index))
        if not ranked:
            break
        _, index = min(ranked)
        parts[index : index + 2] = [parts[index] + parts[index + 1]]
    return parts == [token]
